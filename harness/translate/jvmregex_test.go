package translate

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestJVMRegexSubset(t *testing.T) {
	for _, tc := range []struct{ pattern, why string }{
		{`\s+`, ""},
		{`[^0-9+]`, ""},
		{`^0{2,}`, ""},
		{`(?:ab|cd)*?x{1,3}+`, ""},
		{`[a-zA-Z_\-.]+@\w+\.com$`, ""},
		{``, "an empty pattern matches between every char"},
		{`\p{L}`, `the escape \p`},
		{`\bword\b`, `the escape \b`},
		{`(?i)abc`, "the group (?i… (flags, lookaround, named or atomic groups)"},
		{`(?<=a)b`, "the group (?<… (flags, lookaround, named or atomic groups)"},
		{`(a)\1`, `the escape \1`},
		{`é`, "a pattern with non-ASCII text"},
		{`a{`, "a { that is not a repetition {n}, {n,} or {n,m}"},
		{`a{,3}`, "a { that is not a repetition {n}, {n,} or {n,m}"},
		{`*a`, "a quantifier with nothing to repeat"},
		{`a|*`, "a quantifier with nothing to repeat"},
		{`(a`, "an unbalanced ("},
		{`a)`, "an unbalanced )"},
		{`a]`, "an unescaped ]"},
		{`[]a]`, "a class starting with ]"},
		{`[a[b]]`, "a nested class"},
		{`[a-z&&[^m]]`, "a class intersection &&"},
		{`[z-a]`, "the range z-a"},
		{`[a-\d]`, `the range a-\`},
		{`[abc`, "an unclosed class"},
		{`abc\`, `a pattern ending in \`},
	} {
		assert.Equal(t, tc.why, jvmRegexOK(tc.pattern), "%q", tc.pattern)
	}
}

// FuzzJVMRegexSubset: any text is read without a panic, and what is
// accepted is ASCII.
func FuzzJVMRegexSubset(f *testing.F) {
	for _, s := range []string{`\s+`, `[^0-9+]`, `(?:a|b){2,3}?`, `[a-`, `\`, `{1}`, `(((`, `[^]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if jvmRegexOK(p) == "" {
			for i := 0; i < len(p); i++ {
				if p[i] >= 0x80 {
					t.Fatalf("accepted non-ASCII %q", p)
				}
			}
		}
	})
}

func TestSigmaBlindPattern(t *testing.T) {
	for p, want := range map[string]bool{
		"[^a-z0-9]+": true, "[^a-z]": true, "[^\\w]*": true,
		"[a-z]+": false, "[^a-z]+x": false, "[^a-zσ]+": false, "[^a-z]?": false, "x": false, "[^a-z]{2}": false,
	} {
		assert.Equal(t, want, sigmaBlindPattern(p), p)
	}
}

// TestJVMMatchesMatchesTheJDK proves String.matches against the JDK, on
// the embedded engine and real Spark, around line terminators: a whole
// match never ends before one, so a final $ adds nothing and is left
// out of the RLIKE (the engine cannot follow Java's $ there).
func TestJVMMatchesMatchesTheJDK(t *testing.T) {
	var samples []map[string]any
	for _, s := range []string{"ABC-1", "ABC-1\n", "ABC-1\r\n", "ABC-1\u2028", "ABC-", "abc-1", "XABC-1", "ABC-12x", "", "12345", "12345-6789",
		"12345\n", "12345-678", "1234", "123456", "١٢٣٤٥", "😀"} {
		samples = append(samples, map[string]any{"s": s})
	}
	proveFilesOn(t, []sourceFile{
		{"ZipCheck.java", "import org.apache.spark.sql.api.java.UDF1;\n\npublic class ZipCheck implements UDF1<String, Boolean> {\n" +
			"  public Boolean call(String s) { return s != null && s.matches(\"\\\\d{5}(-\\\\d{4})?\"); }\n}\n"},
		{"Codes.scala", "package acme\n\nimport org.apache.spark.sql.functions.udf\n\nobject Codes {\n" +
			"  val isSku = udf((s: String) => s != null && s.matches(\"^[A-Z]{3}-[0-9]+$\"))\n}\n"},
	}, samples, true)
}
