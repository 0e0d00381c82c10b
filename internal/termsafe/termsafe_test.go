package termsafe

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestString(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"jobs/celsius.py", "jobs/celsius.py"},
		{"données/température.py", "données/température.py"},
		{"a b", "a b"},
		{"", ""},
		{"x\ny.py", `"x\ny.py"`},
		{"\x1b[31mred.py", `"\x1b[31mred.py"`},
		{"caf\xe9.py", `"caf\xe9.py"`},
		{"evil\u202etxt.py", `"evil\u202etxt.py"`},
		{"tab\there", `"tab\there"`},
		{`back\slash`, `back\slash`},
	} {
		assert.Equal(t, c.want, String(c.in), "%q", c.in)
	}
}

func FuzzString(f *testing.F) {
	for _, s := range []string{"a", "\x1b[0m", "caf\xe9", "\u202e"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := String(s)
		assert.True(t, Clean(out), "%q prints as %q", s, out)
	})
}
