package pipeline

import (
	"bytes"
	"math/rand/v2"
	"strconv"
	"strings"
)

// SpecialLines are in every test's text, first: the strings on which
// Python's str.split and Spark's split, or sc.textFile and
// spark.read.text, could part ways. Each is one line (no \n or \r).
var SpecialLines = []string{
	"", " ", "   ", "\t", "a", "a b", " a", "a ", "a  b", "  a  b  ",
	"a\tb", "a\x0bb", "a\x0cb", "a\x1cb", "a\x1db", "a\x1eb", "a\x1fb", "a\u0085b",
	"a\u00a0b", "\u00a0", "a\u1680b", "a\u2000b", "a\u2003b", "a\u200ab", "a\u2028b", "a\u2029b",
	"a\u202fb", "a\u205fb", "a\u3000b", "a\u200bb", "a\u180eb", "a\ufeffb", "\ufeff",
	"e\u0301 \u00e9", "\u0301", "a\u0300\u0301 a", "Word word WORD", "\u00df SS ss", "\u0130 i\u0307",
	"\U0001F600 \U0001F600\U0001F600", "\U0001F3F3\ufe0f\u200d\U0001F308", "a\x00b \x00",
	"naïve café", "日本語 日本語", "a.b a|b a*b a+b a?b a(b)", "a,b;c",
	strings.Repeat("x", 10_000), strings.Repeat("ab ", 3_000),
	"word word word word",
}

// Separators are what random lines put between words: ASCII space most of
// the time, then runs of it, and every other kind of white space.
var separators = []string{
	" ", " ", " ", " ", "  ", "   ", "\t", " \t ", "\x0b", "\x0c", "\x1c", "\x1f", "\u0085", "\u00a0",
	"\u1680", "\u2002", "\u2009", "\u2028", "\u202f", "\u205f", "\u3000", "\u200b", ",", ".",
}

var vocabulary = []string{
	"the", "a", "spark", "Spark", "SPARK", "udf", "data", "frame", "word", "count", "é", "e\u0301",
	"über", "straße", "İstanbul", "ﬁ", "日本", "😀", "x1", "42", "-", "''", "\"q\"", "a_b", "\u0301",
}

// Text is the test input: the special lines, then random lines of words
// and separators, rows lines in all, ending in \n, \r\n or \r, with a
// UTF-8 byte order mark before the first line. The same seed and rows
// give the same bytes.
func Text(seed int64, rows int) []byte {
	r := rand.New(rand.NewPCG(uint64(seed), 0x75646678))
	var b bytes.Buffer
	b.WriteString("\ufeff")
	for i := 0; i < rows; i++ {
		var line string
		if i < len(SpecialLines) {
			line = SpecialLines[i]
		} else {
			var w strings.Builder
			if r.IntN(8) == 0 {
				w.WriteString(separators[r.IntN(len(separators))])
			}
			for n := r.IntN(12); n > 0; n-- {
				w.WriteString(vocabulary[r.IntN(len(vocabulary))])
				if n > 1 || r.IntN(8) == 0 {
					w.WriteString(separators[r.IntN(len(separators))])
				}
			}
			line = w.String()
		}
		b.WriteString(line)
		switch r.IntN(10) {
		case 0:
			b.WriteString("\r\n")
		case 1:
			b.WriteString("\r")
		default:
			b.WriteString("\n")
		}
	}
	return b.Bytes()
}

// Words is a benchmark's text: words words, ten to a line with single
// spaces, drawn from 100,000 distinct ones with Zipf's law (s = 1.1), as
// words in prose are.
func Words(seed int64, words int) []byte {
	r := rand.New(rand.NewPCG(uint64(seed), 0x62656e63))
	z := rand.NewZipf(r, 1.1, 1, 99_999)
	var b bytes.Buffer
	b.Grow(words * 7)
	for i := 0; i < words; i++ {
		b.WriteString("w")
		b.WriteString(strconv.FormatUint(z.Uint64(), 36))
		if i%10 == 9 || i == words-1 {
			b.WriteByte('\n')
		} else {
			b.WriteByte(' ')
		}
	}
	return b.Bytes()
}
