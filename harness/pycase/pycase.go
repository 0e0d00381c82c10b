// Package pycase gives the Spark SQL that computes CPython's str.lower()
// and str.upper() exactly, from tables of where the two runtimes differ.
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

	"github.com/udfx/udfx/harness/casemap"
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
	var odd, ignorable, cased, neither []rune
	for _, d := range lowerDiffs {
		if !d.Keeps {
			return "", &NotExactError{Reason: fmt.Sprintf("CPython (Unicode %s) lower-cases U+%04X to something that is neither itself nor Spark's", tableUnicode, d.Lo)}
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
	if len(odd) == 0 {
		return "lower(" + x + ")", nil
	}
	// The context Σ sees, as CPython sees it, in a form whose class
	// Spark agrees with: the odd code points CPython skips are removed,
	// those it takes for cased become 'A', and those that are neither
	// end the context as the string's ends do.
	context := func(part string, last bool) string {
		if len(ignorable) > 0 {
			part = fmt.Sprintf("regexp_replace(%s, '%s', '')", part, casemap.ClassOf(ignorable))
		}
		if len(cased) > 0 {
			part = fmt.Sprintf("regexp_replace(%s, '%s', 'A')", part, casemap.ClassOf(cased))
		}
		if len(neither) > 0 {
			at := "1"
			if last {
				at = "-1"
			}
			part = fmt.Sprintf("element_at(split(%s, '%s'), %s)", part, casemap.ClassOf(neither), at)
		}
		return part
	}
	class := casemap.ClassOf(odd)
	return casemap.Bind(x, func(s string) string {
		before := context("substring("+s+", 1, udfx_i)", true)
		after := context("substring("+s+", udfx_i + 2)", false)
		// Spark decides each side alone: Σ after the context before it
		// is final when that side allows it, and Σ after 'A' (cased)
		// before the context after it when the other does.
		final := fmt.Sprintf("endswith(lower(concat(%s, '%s')), '\u03c2') AND substring(lower(concat('A%s', %s)), 2, 1) = '\u03c2'", before, sigma, sigma, after)
		return fmt.Sprintf("CASE WHEN %[1]s RLIKE '%[2]s' THEN array_join(transform(regexp_extract_all(%[1]s, '(?s).', 0), (udfx_c, udfx_i) -> CASE WHEN udfx_c = '%[3]s' THEN IF(%[4]s, '\u03c2', '\u03c3') WHEN udfx_c RLIKE '%[2]s' THEN udfx_c ELSE lower(udfx_c) END), '') ELSE lower(%[1]s) END",
			s, class, sigma, final)
	}), nil
}

func appendRun(out []rune, lo, hi rune) []rune {
	return append(out, casemap.Runes([]casemap.Run{{Lo: lo, Hi: hi}})...)
}
