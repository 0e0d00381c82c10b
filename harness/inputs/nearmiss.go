package inputs

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/value"
)

// Bounds of NearMissRows: enough for the literals of a UDF and its
// rewrite, and a bounded addition to the test's rows whatever the source.
const (
	maxLiterals     = 64
	maxLiteralRunes = 256
	MaxNearMissRows = 2000
)

// Literals are the string and number literals of some source text: the
// UDF's file, a candidate rewrite.
type Literals struct {
	Strings []string
	Numbers []float64
}

var (
	// quoted finds '...' and "..." literals with backslash escapes, and
	// SQL's doubled quotes; it reads any language closely enough for
	// choosing test inputs, where a wrong guess only adds a row.
	quoted = regexp.MustCompile(`'(?:[^'\\\n]|\\.|'')*'|"(?:[^"\\\n]|\\.)*"`)
	number = regexp.MustCompile(`(?:^|[^\w.])(\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)`)
)

// Harvest adds the literals of text to l, each once, up to the bounds.
func (l *Literals) Harvest(text string) {
	for _, m := range quoted.FindAllString(text, -1) {
		if len(l.Strings) >= maxLiterals {
			break
		}
		s := unquote(m)
		if named := escapedCodePoints(s); named != "" && !contains(l.Strings, named) {
			l.Strings = append(l.Strings, named)
		}
		if s == "" || utf8.RuneCountInString(s) > maxLiteralRunes || contains(l.Strings, s) || len(l.Strings) >= maxLiterals {
			continue
		}
		l.Strings = append(l.Strings, s)
	}
	if caseMapping.MatchString(text) {
		for _, trap := range caseTraps {
			if !contains(l.Strings, trap) {
				l.Strings = append(l.Strings, trap)
			}
		}
	}
	for _, m := range number.FindAllStringSubmatch(text, -1) {
		if len(l.Numbers) >= maxLiterals {
			break
		}
		f, err := strconv.ParseFloat(m[1], 64)
		if err != nil || math.IsInf(f, 0) {
			continue
		}
		seen := false
		for _, x := range l.Numbers {
			seen = seen || x == f
		}
		if !seen {
			l.Numbers = append(l.Numbers, f)
		}
	}
}

// caseMapping finds a call that maps case in any of the languages: the
// JDK's toLowerCase/toUpperCase, CPython's lower/upper/casefold/title/
// capitalize/swapcase, Spark's lower/upper/lcase/ucase/initcap.
var caseMapping = regexp.MustCompile(`\b(?:toLowerCase|toUpperCase|lower|upper|lcase|ucase|casefold|title|capitalize|swapcase|initcap)\b`)

// caseTraps are where runtimes map case apart, for text that maps case.
// Random strings almost never hold them, and the literals of a rewrite
// that forgets them do not. Final sigma: the JDK ends a word at
// java.text.BreakIterator's boundaries ("A1Σ" and "A_Σ" lower to ς), and
// Unicode at a character that is neither cased nor case-ignorable (σ);
// U+0345 is both cased and case-ignorable; the JDK's iterator also ends
// a word after a supplementary code point ("A𐐨Σ" lowers to σ) and reads
// U+00AD as a dash. Letters whose case pairs
// Unicode 14 to 16 added, which the JDK 17 and CPython 3.11 keep and
// Spark 4.1's ICU maps: ƛ, ɤ, U+1C89, ⱟ, U+A7C0, U+A7CB, U+10570,
// U+10D50. Turkish and Lithuanian i, where a locale would change them.
var caseTraps = []string{
	"A1\u03a3", "A_\u03a3", "\u0391\u03a3.\u03a3", "A\u0345\u03a3", "\u03a3A", "A\U00010428\u03a3", "A\u00ad\u00ad\u03a3",
	"\u019b\u0264\u1c89\u2c5f\ua7c0\ua7cb\U00010570\U00010d50",
	"Ii\u0130\u0131i\u0307\u00cc",
}

// codePointEscape is a Java regular expression's \x{h} escape.
var codePointEscape = regexp.MustCompile(`\\x\{([0-9A-Fa-f]{1,6})\}`)

// escapedCodePoints is the string of the code points a regular
// expression in lit names by \x{h} escapes (a class's members, the ends
// of its ranges), up to maxLiteralRunes; "" when it names none. A rewrite
// that treats rare code points apart (CPython's case mappings where they
// are not Spark's) is then tested on them, which random strings almost
// never hold.
func escapedCodePoints(lit string) string {
	var b strings.Builder
	n := 0
	for _, m := range codePointEscape.FindAllStringSubmatch(lit, -1) {
		cp, err := strconv.ParseUint(m[1], 16, 32)
		if err != nil || cp > unicode.MaxRune || (cp >= 0xD800 && cp <= 0xDFFF) || n >= maxLiteralRunes {
			continue
		}
		b.WriteRune(rune(cp))
		n++
	}
	return b.String()
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// unquote strips the quotes of a literal and undoes the common escapes.
func unquote(lit string) string {
	q := lit[0]
	body := lit[1 : len(lit)-1]
	if q == '\'' {
		body = strings.ReplaceAll(body, "''", "'")
	}
	if !strings.ContainsRune(body, '\\') {
		return body
	}
	r := strings.NewReplacer(`\\`, `\`, `\"`, `"`, `\'`, `'`, `\n`, "\n", `\t`, "\t", `\r`, "\r")
	return r.Replace(body)
}

// NearMissRows are rows aimed at both sides of a differential test: for
// each string parameter, every harvested string literal, its prefixes
// and suffixes one character short, one character longer on either side,
// doubled, with its last character changed, in upper and lower case, after
// a character beyond U+FFFF, and
// each pair of literals joined; for each numeric parameter, every
// harvested number and its neighbours (±1, and ±1 ulp for floating
// point), within the type. Random inputs almost never hold "tmp" where a
// UDF tests startswith("tmp_"), so a rewrite with one wrong character in
// a literal passed 10,000 random rows. The other columns take base's
// values (a row of the generated inputs); nil when no parameter has a
// harvested literal of its kind.
func NearMissRows(params []Param, lits Literals, base []value.Value) [][]value.Value {
	var rows [][]value.Value
	add := func(col int, v value.Value) {
		if len(rows) >= MaxNearMissRows {
			return
		}
		row := make([]value.Value, len(params))
		copy(row, base)
		row[col] = v
		rows = append(rows, row)
	}
	for i, p := range params {
		if p.Type == nil {
			continue
		}
		switch p.Type.Kind {
		case udf.String:
			for _, s := range stringVariants(lits.Strings) {
				add(i, value.StringOf(s))
			}
		case udf.Byte, udf.Short, udf.Int, udf.Long:
			l, h := intRange(uint(intBits[p.Type.Kind]))
			// Past 2^53 a float64 holds no neighbours.
			lo, hi := math.Max(float64(l), -(1<<53)), math.Min(float64(h), 1<<53)
			for _, f := range lits.Numbers {
				if f != math.Trunc(f) {
					continue
				}
				for _, d := range []float64{-1, 0, 1} {
					if x := f + d; x >= lo && x <= hi {
						add(i, value.IntOf(int64(x)))
					}
					if x := -f + d; f != 0 && x >= lo && x <= hi {
						add(i, value.IntOf(int64(x)))
					}
				}
			}
		case udf.Double:
			for _, f := range lits.Numbers {
				for _, x := range []float64{f, -f, f - 1, f + 1, math.Nextafter(f, math.Inf(-1)), math.Nextafter(f, math.Inf(1))} {
					add(i, value.DoubleOf(x))
				}
			}
		case udf.Float:
			for _, f := range lits.Numbers {
				g := float32(f)
				for _, x := range []float32{g, -g, g - 1, g + 1, math.Nextafter32(g, float32(math.Inf(-1))), math.Nextafter32(g, float32(math.Inf(1)))} {
					add(i, value.FloatOf(x))
				}
			}
		}
	}
	return rows
}

// stringVariants lists each literal's near misses once, in order.
func stringVariants(lits []string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, s := range lits {
		r := []rune(s)
		add(s)
		add(string(r[:len(r)-1]))
		add(string(r[1:]))
		add(s + "x")
		add("x" + s)
		add(s + s)
		add(s + " ")
		add(string(r[:len(r)-1]) + string(other(r[len(r)-1])))
		add(strings.ToUpper(s))
		add(strings.ToLower(s))
		add(string(unicode.ToUpper(r[0])) + string(r[1:]))
		add(" " + s)
		// After a character of two UTF-16 units, the JVM's offsets into
		// the string are no longer its code-point offsets.
		add("\U0001F600" + s)
	}
	for _, a := range lits {
		for _, b := range lits {
			if a != b {
				add(a + b)
			}
		}
	}
	return out
}

// other is a character that differs from r and is as plain.
func other(r rune) rune {
	switch {
	case r == 'z':
		return 'a'
	case r == '9':
		return '0'
	case r < 0x7e:
		return r + 1
	}
	return 'a'
}
