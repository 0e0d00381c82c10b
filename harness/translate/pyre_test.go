package translate

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestPyRegexToJava: the pattern rewriting, construct by construct; the
// differential tests (TestPython/digits_only, squash_ws, redact) prove
// the results against CPython.
func TestPyRegexToJava(t *testing.T) {
	for _, c := range []struct{ py, java, why string }{
		{`[^0-9]`, `[^0-9]`, ""},
		{`a.c`, `a[^\x{A}]c`, ""},
		{`\d{3,}`, `[0-9` + pyDigitClassTail() + `]{3,}`, ""},
		{`x{2}y{1,3}z{a}`, `x{2}y{1,3}z\{a\}`, ""},
		{`[]a-]`, `[\]a-]`, ""},
		{`[^]&[]`, `[^\]\&\[]`, ""},
		{`(?:ab)+|c*?`, `(?:ab)+|c*?`, ""},
		{`\.\\\-`, `\.\\\-`, ""},
		{`\t\n`, `\x{9}\x{A}`, ""},
		{`^ab\Z`, `^ab\z`, ""},
		{`é😀`, `\x{E9}\x{1F600}`, ""},
		{`\w+`, "", `the escape \w`},
		{`a$`, "", "`$` (Python also matches it before a final newline)"},
		{`(?P<n>a)`, "", "the group (?P<"},
		{`(?i)a`, "", "the group (?i)"},
		{`\1`, "", `the escape \1`},
		{`[\D]`, "", `\D inside a character class`},
		{`a{,3}`, "", "the quantifier {,n}"},
		{`[ab`, "", "an unterminated character class"},
	} {
		got, why := pyRegexToJava(c.py)
		assert.Equal(t, c.java, got, c.py)
		assert.Equal(t, c.why, why, c.py)
	}
}

func pyDigitClassTail() string { return pyClassBody('d')[len("0-9"):] }

func TestMatchesEmpty(t *testing.T) {
	for p, want := range map[string]bool{
		`a`: false, `a*`: true, `a?b*`: true, `a*b`: false, `[^0-9]`: false, `[0-9]*`: true,
		`\s+`: false, `\d{0,2}`: true, `\d{3,}`: false, `a|b`: true, `(a)`: true, ``: true, `^`: true,
	} {
		assert.Equal(t, want, matchesEmpty(p), p)
	}
}
