package sqllit

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestString(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "''"},
		{"it's", `'it\'s'`},
		{`a\b`, `'a\\b'`},
		{"tab\there", `'tab\u0009here'`},
		{"nbsp\u00a0soft\u00adhyphen", `'nbsp\u00A0soft\u00ADhyphen'`},
		{"Ss ǅ ᾼ é", "'Ss ǅ ᾼ é'"},
		{"😀\U000E0001", "'😀\U000E0001'"},
	} {
		assert.Equal(t, tc.want, String(tc.in), "%q", tc.in)
	}
}
