package translate

import (
	"math/rand"
	"testing"
)

// TestPyTitleCapitalizeMatchCPython proves str.title() and
// str.capitalize() against CPython, on the embedded engine and on real
// Spark, on words as names and labels have them and on the code points
// where CPython's titlecase is not Spark's upper or its idea of a cased
// letter is not a space's (package pycase checks the SQL in Spark over
// all of Unicode; this checks udfx's own engine too).
func TestPyTitleCapitalizeMatchCPython(t *testing.T) {
	xs := []string{"", " ", "hello world", "HELLO WORLD", "they're bill's friends", "o'neil mcdonald-smith", "1st 2nd 3rd",
		"ǆemal ǅ Ǆ", "straße", "ﬁsh ﬂy", "ŉ", "ᾳ ᾼ ᾀ", "ΣΑΣ σας ΌΣΟΣ", "aΣ b", "Σ", "ʰa ᵃb ªc", "\u0345a", "ⓐⓑ ⓒ", "𐐨𐐨 𐐀",
		"ბათუმი თბილისი", "İstanbul ıi", "élan VITAL", "x_y-z.w", "😀a 😀B", "\t tab", "ΐ", "ǰ", "ꭰ"}
	pool := []rune("aAzZß'’-_. 1ǆǅǄΣσςİıﬁŉʰªᾳბ😀𐐨\u0301\u0345\u00ad")
	r := rand.New(rand.NewSource(20261204))
	for i := 0; i < 400; i++ {
		b := make([]rune, 1+r.Intn(10))
		for j := range b {
			b[j] = pool[r.Intn(len(pool))]
		}
		xs = append(xs, string(b))
	}
	var samples []map[string]any
	for _, x := range xs {
		samples = append(samples, map[string]any{"s": x})
	}
	const head = "from pyspark.sql.functions import udf\n\n\n@udf(\"string\")\n"
	proveOnSamples(t, []string{
		head + "def titled(s: str) -> str:\n    if s is None:\n        return None\n    return s.title()\n",
		head + "def capitalized(s: str) -> str:\n    if s is None:\n        return None\n    return s.strip().capitalize()\n",
	}, samples)
}
