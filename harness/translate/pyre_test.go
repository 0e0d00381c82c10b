package translate

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/udfx/udfx/harness/engine"
	"github.com/udfx/udfx/harness/render/sparksql"
	"github.com/udfx/udfx/harness/translate/ir"
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
		{`\w+`, "[" + pyClassBody('w') + "]+", ""},
		{`\W`, "[^" + pyClassBody('w') + "]", ""},
		{`[\W]`, "", `\W inside a character class`},
		{`\b`, "", `the escape \b`},
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

// TestPyReMatchMatchesCPython proves re.match, re.search, re.fullmatch
// and a compiled pattern's match, read as conditions, against CPython
// on the embedded engine and real Spark, on subjects around the places
// where Python's and Java's regexes could differ: `$` before a final
// \n (Python matches there, and nowhere else: not before \r, \r\n,
// U+0085 or U+2028, where Java's $ would), `.` against line terminators,
// non-BMP code points.
func TestPyReMatchMatchesCPython(t *testing.T) {
	var samples []map[string]any
	for _, s := range []string{"a@b.co", "a@b.co\n", "a@b.co\n\n", "a@b.co\r\n", "a@b.co\r", "a@b.co\u2028", "a@b.co\u0085", "\na@b.co",
		"", "x", "123", "abc123", "abc123\n", "abc123\r", "AB1234", "AB1234\n", "ab1234", "日本@例え.jp", "a@b.c", " a@b.co", "😀@b.co",
		"a\nb@c.de", "a.b", "a\nb", "a\u2028b", "😀",
		"@user_1", "@Ünïcödé", "@x²", "@e\u0301", "@日本語", "@a.b", "@a.-b", "@a-b", "@", "@١٢٣", "@Ⅻ", "@ǅ", "@a\n"} {
		samples = append(samples, map[string]any{"s": s})
	}
	const head = "import re\n\nfrom pyspark.sql.functions import udf\n\nEMAIL = re.compile(r\"^[^@\\s]+@[^@\\s]+\\.[a-z]{2,}$\")\n\n\n"
	guarded := []string{
		head + "@udf(\"boolean\")\ndef valid_email(s: str) -> bool:\n    return s is not None and EMAIL.match(s) is not None\n",
		head + "@udf(\"boolean\")\ndef ends_in_digits(s: str) -> bool:\n    if s is None:\n        return False\n    return re.search(r\"\\d{3}$\", s) is not None\n",
		head + "@udf(\"string\")\ndef code_kind(s: str) -> str:\n    if s is None:\n        return None\n    if re.fullmatch(r\"[A-Z]{2}\\d{4}\", s):\n        return \"code\"\n    if not re.match(\"a.b\", s):\n        return \"other\"\n    return \"dotted\"\n",
		head + "@udf(\"boolean\")\ndef no_letters(s: str) -> bool:\n    return s is not None and re.search(\"[a-z]\", s) is None\n",
		head + "@udf(\"boolean\")\ndef handle(s: str) -> bool:\n    return s is not None and re.fullmatch(r\"@\\w+(\\.\\W?\\w)*\", s) is not None\n",
	}
	proveOn(t, guarded, samples, true)
	// re.match(p, None) raises TypeError: compared row by row on the
	// embedded engine.
	proveOn(t, []string{head + "@udf(\"boolean\")\ndef raw_match(s: str) -> bool:\n    return bool(re.match(r\"\\d+$\", s))\n"}, samples, false)
}

func TestTrailingDollar(t *testing.T) {
	for p, want := range map[string]string{
		`a$`: `a`, `^[^@]+@x\.com$`: `^[^@]+@x\.com`, `a\$`: "", `a\\$`: `a\\`, `a|b$`: "", `(a|b)$`: `(a|b)`, `[$]`: "", `(a$)`: "", `[|]$`: `[|]`,
	} {
		got, ok := trailingDollar(p)
		if want == "" {
			assert.False(t, ok, p)
			assert.Equal(t, p, got)
			continue
		}
		assert.True(t, ok, p)
		assert.Equal(t, want, got, p)
	}
}

// FuzzPyRegexMatchForms: for any pattern, trailingDollar splits off
// exactly one final "$" or nothing, and pyRegexToJava either declines or
// gives a pattern the embedded engine compiles inside the anchors the
// match forms add.
func FuzzPyRegexMatchForms(f *testing.F) {
	for _, p := range []string{`^[^@\s]+@[^@\s]+\.[a-z]{2,}$`, `\d{5}$`, `a|b$`, `(a$)`, `[$]`, `a\$`, `a\\$`, `\w+(\.\W?\w)*`, `$`, ``} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p string) {
		body, ok := trailingDollar(p)
		if ok && body+"$" != p || !ok && body != p {
			t.Fatalf("trailingDollar(%q) = %q, %v", p, body, ok)
		}
		jp, why := pyRegexToJava(body)
		if why != "" {
			return
		}
		for _, form := range []string{`^(?:` + jp + `)`, `(?:` + jp + `)\x{A}?\z`, `^(?:` + jp + `)\z`} {
			lit, err := sparksql.Render(&ir.Lit{T: tString, Value: form})
			if err != nil {
				continue // not valid UTF-8: no SQL literal holds it
			}
			if _, err := engine.Compile("s RLIKE "+lit, []engine.Column{{Name: "s", Type: tString}}, engine.Options{ANSI: true, TimeZone: "UTC"}); err != nil {
				var unsupported *engine.UnsupportedRegexError
				if errors.As(err, &unsupported) {
					continue
				}
				t.Fatalf("pattern %q as %q: %v", p, form, err)
			}
		}
	})
}
