package jdkcase

import (
	"fmt"
	"strings"

	"github.com/udfx/udfx/harness/casemap"
)

// The JDK lowers Σ to ς when ConditionalSpecialCasing.isFinalCased holds:
// stepping back from the Σ code point by code point, a cased one comes
// before any position BreakIterator.isBoundary calls a word boundary, and
// stepping forward none does. "Cased" is Character.getType's Lu, Ll or
// Lt and a fixed list (casedClass). The word iterator of en_US is the
// JDK's own rule-based one (sun.text.resources.BreakIteratorRules), not
// ICU's, and its isBoundary has its own ways with supplementary code
// points. What follows is that behaviour written as Java regular
// expressions, which Spark evaluates with the same java.util.regex:
//
//   - The string is cut into the iterator's tokens from its start
//     (tokenPattern): a token holding a letter or a digit is the longest
//     run of words (letters, joined by one dash, underscore, apostrophe,
//     quotation mark or period, and one closing danda) and numbers
//     (digits, joined by one comma, period, apostrophe, quotation mark or
//     U+066B), optionally led by a currency sign, # or period before a
//     number and ended by %, &, ¢, ‰, ‱ or U+066A after one. Every other
//     code point is a token alone: kana, kanji and CJK marks, spaces,
//     punctuation, symbols. Non-spacing and enclosing marks belong to the
//     letter, digit or space before them; format characters (Cf) are
//     invisible to the rules. U+00AD is a dash there, not a format
//     character.
//   - isBoundary also answers yes right after every supplementary code
//     point but one that starts the string (following(i-1) then starts
//     from a low surrogate), so a token is cut again there
//     (segmentPattern, segmentPatternFirst).
//   - Within a piece, a Σ becomes ς when it is the last cased code point
//     and another comes before it (finalPattern); every other Σ becomes σ.
//
// The iterator classifies supplementary code points by its own tables,
// which part from Character.getType on a few runs: breakLetterRuns act
// as letters though unassigned, breakApartRuns as symbols though format
// characters. Both are read from the JDK by TestJDKCaseMappingTables.
// That test also runs the SQL in Spark against the JDK around every code
// point and on random strings; the model was first checked in the JDK
// alone on every code point in 33 contexts and on 1.5 million random
// strings, with no difference.

const (
	sigma = `\\x{3A3}`
	// cased is the class content of the code points isCased accepts.
	cased      = `\\p{Lu}\\p{Ll}\\p{Lt}\\x{2B0}-\\x{2B8}\\x{2C0}\\x{2C1}\\x{2E0}-\\x{2E4}\\x{345}\\x{37A}\\x{1D2C}-\\x{1D61}\\x{2160}-\\x{217F}\\x{24B6}-\\x{24E9}`
	casedClass = `[` + cased + `]`
	uncased    = `[^` + cased + `]`
	// cjk are the kanji, kana and CJK marks the rules keep out of words.
	cjk   = `\\x{3005}\\x{4E00}-\\x{9FA5}\\x{F900}-\\x{FA2D}\\x{30A1}-\\x{30FA}\\x{30FD}\\x{30FE}\\x{3041}-\\x{3094}\\x{309D}\\x{309E}\\x{3099}-\\x{309C}\\x{30FB}\\x{30FC}`
	supp  = `\\x{10000}-\\x{10FFFF}`
	midW  = `[\\p{Pd}\\p{Pc}\\x{AD}\\x{2027}\\x{22}\\x{27}.]`
	midN  = `[\\x{22}\\x{27},\\x{66B}.]`
	pre   = `[\\p{Sc}#.&&[^\\x{A2}]]`
	post  = `[%&\\x{A2}\\x{66A}\\x{2030}\\x{2031}]`
	danda = `[\\x{964}\\x{965}]`
)

// breakPatterns are the token pattern and the cased test's parts, as
// Spark SQL string literals' contents.
type breakPatterns struct{ token, segment, segmentFirst, final string }

func patterns() breakPatterns {
	apart := runsClass(breakApartRuns) + `\\x{AD}`
	ignore := `[\\p{Cf}&&[^` + apart + `]]`
	attached := `\\p{Mn}\\p{Me}\\p{Cf}&&[^` + apart + `]`
	letterBase := `[\\p{L}\\p{Mc}&&[^` + cjk + apart + `]]` + runsClass(breakLetterRuns)
	digitBase := `\\p{N}&&[^` + apart + `]`
	// A run of letters with their marks is one class repeated, which
	// java.util.regex matches in a loop; a repeated group would recurse
	// once per letter and overflow the stack of a Spark task on a long
	// word.
	letters := `[` + letterBase + `][` + letterBase + `[` + attached + `]]*`
	digits := `[` + digitBase + `][[` + digitBase + `][` + attached + `]]*`
	word := letters + `(?:` + midW + ignore + `*` + letters + `)*(?:` + danda + ignore + `*)?`
	number := digits + `(?:` + midN + ignore + `*` + digits + `)*`
	ending := `(?:` + number + `(?:` + post + ignore + `*)?)`
	// Greedy is longest here: what extends a word or a number never
	// starts what may follow it.
	withNumbers := `(?:` + number + word + `)*` + ending + `?`
	token := `(?s)` + word + withNumbers +
		`|(?:` + number + word + `)+` + ending + `?` +
		`|` + ending +
		`|` + pre + ignore + `*` + withNumbers +
		`|.`
	s, notS := `[`+supp+`]`, `[^`+supp+`]`
	return breakPatterns{
		token:        token,
		segment:      `(?s)` + notS + `*` + s + `|` + notS + `+`,
		segmentFirst: `(?s)^` + s + notS + `*` + s + `|^` + s + notS + `+|^` + s + `|` + notS + `*` + s + `|` + notS + `+`,
		final:        `(?s)^(.*` + casedClass + uncased + `*)` + sigma + `(` + uncased + `*)\\z`,
	}
}

// runsClass is the content of a regular-expression class of runs.
func runsClass(runs []casemap.Run) string {
	var b strings.Builder
	for _, r := range runs {
		fmt.Fprintf(&b, `\\x{%X}`, r.Lo)
		if r.Hi > r.Lo {
			fmt.Fprintf(&b, `-\\x{%X}`, r.Hi)
		}
	}
	return b.String()
}

// finalSigmaSQL is the string x with each Σ replaced by the JDK's lower
// case of it in x, σ or ς: the rest of x lowers code point by code point.
func finalSigmaSQL(x string) string {
	p := patterns()
	return casemap.Bind(x, func(s string) string {
		return fmt.Sprintf("CASE WHEN instr(%[1]s, 'Σ') = 0 THEN %[1]s ELSE array_join(transform(regexp_extract_all(%[1]s, '%[2]s', 0), (udfx_t, udfx_i) -> "+
			"array_join(transform(CASE WHEN udfx_i = 0 THEN regexp_extract_all(udfx_t, '%[3]s', 0) ELSE regexp_extract_all(udfx_t, '%[4]s', 0) END, "+
			"udfx_g -> replace(regexp_replace(udfx_g, '%[5]s', '$1ς$2'), 'Σ', 'σ')), '')), '') END",
			s, p.token, p.segmentFirst, p.segment, p.final)
	})
}
