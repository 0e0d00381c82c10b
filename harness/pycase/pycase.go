// Package pycase gives the Spark SQL that computes CPython's str.lower(),
// str.upper(), str.title() and str.capitalize() exactly, from tables of
// where the two runtimes differ (and, for title, of what CPython takes
// for a cased letter).
//
// CPython and Spark (ICU's root case mapping) both apply Unicode's full
// case mappings and its one context rule in the root locale, final sigma;
// they differ where their Unicode versions do. tables.go lists, for every
// code point where CPython's mapping or final-sigma class is not Spark's,
// what CPython does. It is generated from both runtimes over all of
// Unicode by TestPythonCaseMappingTables (go test ./harness/pycase -run
// TestPythonCaseMappingTables -update-pycase), which also runs the SQL
// below in Spark against CPython; CI runs that test, so a new pinned
// Python or Spark that changes a mapping fails it.
//
// The SQL is Spark's lower or upper alone on strings without such a code
// point, and otherwise works code point
// by code point: Spark's mapping for the others, CPython's for these, and
// final sigma decided over the string as CPython sees it.
package pycase

import (
	"fmt"
	"strings"

	"github.com/udfx/udfx/harness/casemap"
	"github.com/udfx/udfx/harness/render/sqllit"
)

// Class is a code point's part in the final-sigma rule: a Σ is final
// when, skipping case-ignorable characters, a cased one comes before it
// and none comes after. Both runtimes test case-ignorable first.
type Class uint8

const (
	Neither Class = iota
	Ignorable
	Cased
)

// LowerDiff is a run of code points whose str.lower() or final-sigma
// class in CPython is not Spark's; Keeps says CPython lowers each to
// itself, and Class is CPython's class for them.
type LowerDiff struct {
	Lo, Hi rune
	Class  Class
	Keeps  bool
}

// TitleDiff is a code point whose str.title() in CPython (alone, so its
// titlecase) is not Spark's upper(): Title is CPython's.
type TitleDiff struct {
	C     rune
	Title string
}

// UpperDiff is a run of code points whose str.upper() in CPython is not
// Spark's; Keeps says CPython maps each to itself.
type UpperDiff struct {
	Lo, Hi rune
	Keeps  bool
}

// NotExactError says why there is no SQL for a mapping with these tables.
type NotExactError struct{ Reason string }

func (e *NotExactError) Error() string { return e.Reason }

// Unicode is the version of CPython's Unicode database the tables hold
// (unicodedata.unidata_version): the SQL is exact for a CPython with it.
func Unicode() string { return tableUnicode }

// sigma is Σ, the one code point whose lower case depends on context.
const sigma = "\u03a3"

// UpperSQL is the Spark SQL of CPython's x.upper() for a string x (the
// SQL of an expression, bound once).
func UpperSQL(x string) (string, error) {
	var odd []rune
	for _, d := range upperDiffs {
		if !d.Keeps {
			return "", &NotExactError{Reason: fmt.Sprintf("CPython (Unicode %s) upper-cases U+%04X to something that is neither itself nor Spark's", tableUnicode, d.Lo)}
		}
		odd = appendRun(odd, d.Lo, d.Hi)
	}
	// Upper case has no context in the root locale: a string's upper case
	// is its code points'.
	return casemap.Keeping("upper", x, odd), nil
}

// LowerSQL is the Spark SQL of CPython's x.lower() for a string x.
func LowerSQL(x string) (string, error) {
	lc, err := newLowerChar()
	if err != nil {
		return "", err
	}
	if lc.odd == "" {
		return "lower(" + x + ")", nil
	}
	return casemap.Guard(x, casemap.RepeatUpTo, func(s string) string {
		return casemap.ASCII(s) + " OR NOT (" + s + " RLIKE '" + lc.odd + "')"
	}, func(s string) string {
		return "lower(" + s + ")"
	}, func(s string) string {
		return casemap.Bind(s, func(s string) string {
			return fmt.Sprintf("array_join(transform(regexp_extract_all(%[1]s, '(?s).', 0), (udfx_c, udfx_i) -> %[2]s), '')", s, lc.at(s))
		})
	}), nil
}

// lowerChar writes CPython's lower case of one code point of a string.
type lowerChar struct {
	// odd is the class of the code points whose lower case or class
	// differs ("" when none does); ignorable, cased and neither divide
	// them by CPython's final-sigma class.
	odd, ignorable, cased, neither string
}

func newLowerChar() (*lowerChar, error) {
	var odd, ignorable, cased, neither []rune
	for _, d := range lowerDiffs {
		if !d.Keeps {
			return nil, &NotExactError{Reason: fmt.Sprintf("CPython (Unicode %s) lower-cases U+%04X to something that is neither itself nor Spark's", tableUnicode, d.Lo)}
		}
		odd = appendRun(odd, d.Lo, d.Hi)
		switch d.Class {
		case Ignorable:
			ignorable = appendRun(ignorable, d.Lo, d.Hi)
		case Cased:
			cased = appendRun(cased, d.Lo, d.Hi)
		default:
			neither = appendRun(neither, d.Lo, d.Hi)
		}
	}
	lc := &lowerChar{}
	for _, c := range []struct {
		to *string
		cs []rune
	}{{&lc.odd, odd}, {&lc.ignorable, ignorable}, {&lc.cased, cased}, {&lc.neither, neither}} {
		if len(c.cs) > 0 {
			*c.to = casemap.ClassOf(c.cs)
		}
	}
	return lc, nil
}

// at is the SQL of CPython's lower case of udfx_c, the code point at
// 0-based udfx_i of the string s (lambda variables of a transform over
// s's code points): Spark's for most, the code point itself for the odd
// ones, and for Σ final sigma decided over s as CPython sees it.
func (lc *lowerChar) at(s string) string {
	// The context Σ sees, as CPython sees it, in a form whose class
	// Spark agrees with: the odd code points CPython skips are removed,
	// those it takes for cased become 'A', and those that are neither
	// end the context as the string's ends do.
	context := func(part string, last bool) string {
		if lc.ignorable != "" {
			part = fmt.Sprintf("regexp_replace(%s, '%s', '')", part, lc.ignorable)
		}
		if lc.cased != "" {
			part = fmt.Sprintf("regexp_replace(%s, '%s', 'A')", part, lc.cased)
		}
		if lc.neither != "" {
			at := "1"
			if last {
				at = "-1"
			}
			part = fmt.Sprintf("element_at(split(%s, '%s'), %s)", part, lc.neither, at)
		}
		return part
	}
	before := context("substring("+s+", 1, udfx_i)", true)
	after := context("substring("+s+", udfx_i + 2)", false)
	// Spark decides each side alone: Σ after the context before it
	// is final when that side allows it, and Σ after 'A' (cased)
	// before the context after it when the other does.
	final := fmt.Sprintf("endswith(lower(concat(%s, '%s')), '\u03c2') AND substring(lower(concat('A%s', %s)), 2, 1) = '\u03c2'", before, sigma, sigma, after)
	if lc.odd == "" {
		return fmt.Sprintf("CASE WHEN udfx_c = '%s' THEN IF(%s, '\u03c2', '\u03c3') ELSE lower(udfx_c) END", sigma, final)
	}
	return fmt.Sprintf("CASE WHEN udfx_c = '%[1]s' THEN IF(%[2]s, '\u03c2', '\u03c3') WHEN udfx_c RLIKE '%[3]s' THEN udfx_c ELSE lower(udfx_c) END", sigma, final, lc.odd)
}

// TitleSQL is the Spark SQL of CPython's x.title() for a string x: each
// code point after a cased one (as CPython's Unicode has it) lower-cased
// as x.lower() would, final sigma included, and every other one mapped
// to its titlecase.
func TitleSQL(x string) (string, error) {
	// In ASCII the cased code points are the letters, their titlecase is
	// upper and no Σ occurs: each run of letters is upper-cased at its
	// start and lower-cased after it, and the runs between them, which
	// neither function changes, stay.
	ascii := func(s string) string {
		return "array_join(transform(regexp_extract_all(" + s + ", '[A-Za-z]+|[^A-Za-z]+', 0), udfx_w -> concat(upper(substring(udfx_w, 1, 1)), lower(substring(udfx_w, 2)))), '')"
	}
	return wordsSQL(x, ascii, func(s string) string {
		return "udfx_i > 0 AND substring(" + s + ", udfx_i, 1) RLIKE '" + casemap.ClassOf(casemap.Runes(casedRuns)) + "'"
	})
}

// CapitalizeSQL is the Spark SQL of CPython's x.capitalize() for a
// string x: the first code point mapped to its titlecase and the others
// lower-cased as x.lower() would.
func CapitalizeSQL(x string) (string, error) {
	ascii := func(s string) string {
		return "concat(upper(substring(" + s + ", 1, 1)), lower(substring(" + s + ", 2)))"
	}
	return wordsSQL(x, ascii, func(string) string { return "udfx_i > 0" })
}

// wordsSQL maps each code point of x to CPython's lower case where
// lowered (an SQL condition over s, udfx_c and udfx_i) holds, and to its
// titlecase elsewhere. The titlecase is Spark's upper except on the
// code points of titleDiffs, which carry CPython's. A string of ASCII
// alone takes the cheaper form ascii gives, which computes the same
// there without a lambda per code point.
func wordsSQL(x string, ascii, lowered func(s string) string) (string, error) {
	lc, err := newLowerChar()
	if err != nil {
		return "", err
	}
	var keys, values []string
	var odd []rune
	for _, d := range titleDiffs {
		odd = append(odd, d.C)
		keys = append(keys, sqllit.String(string(d.C)))
		values = append(values, sqllit.String(d.Title))
	}
	title := "upper(udfx_c)"
	if len(odd) > 0 {
		title = fmt.Sprintf("CASE WHEN udfx_c RLIKE '%s' THEN element_at(array(%s), CAST(array_position(array(%s), udfx_c) AS INT)) ELSE upper(udfx_c) END",
			casemap.ClassOf(odd), strings.Join(values, ", "), strings.Join(keys, ", "))
	}
	return casemap.Bind(x, func(s string) string {
		return fmt.Sprintf("CASE WHEN %[1]s RLIKE '[^\\\\x{0}-\\\\x{7F}]' THEN array_join(transform(regexp_extract_all(%[1]s, '(?s).', 0), (udfx_c, udfx_i) -> CASE WHEN %[2]s THEN %[3]s ELSE %[4]s END), '') ELSE %[5]s END",
			s, lowered(s), lc.at(s), title, ascii(s))
	}), nil
}

func appendRun(out []rune, lo, hi rune) []rune {
	return append(out, casemap.Runes([]casemap.Run{{Lo: lo, Hi: hi}})...)
}
