// Package jdkcase gives the Spark SQL that computes the JDK's
// String.toUpperCase() and toLowerCase() exactly, from tables of where
// the JDK and Spark differ.
//
// Outside the Turkish, Azeri and Lithuanian locales the JDK applies
// Unicode's full case mappings (ß → SS, İ → i̇) with one context rule,
// final sigma, as Spark's ICU does in its root locale; their mappings
// differ where their Unicode versions do. tables.go lists, for every code
// point where the JDK's mapping is not Spark's, whether the JDK keeps it.
// It is generated from both runtimes over all of Unicode by
// TestJDKCaseMappingTables (go test ./harness/jdkcase -run
// TestJDKCaseMappingTables -update-jdkcase), which also runs the SQL below
// in Spark against the JDK; CI runs that test, so a new JDK or Spark that
// changes a mapping fails it.
//
// Final sigma is where the two part: the JDK decides whether a Σ ends a
// word with java.text.BreakIterator's word boundaries ("A1Σ" lowers to
// "a1ς"), Spark with Unicode's case-ignorable context ("a1σ"). LowerSQL
// decides it as the JDK does (finalsigma.go); LowerUpToSigmaSQL, shorter,
// leaves it to Spark, for a caller that shows that σ and ς cannot change
// the outcome.
package jdkcase

import (
	"fmt"
	"strconv"

	"github.com/udfx/udfx/harness/casemap"
)

// Diff is a run of code points whose mapping in the JDK is not Spark's;
// Keeps says the JDK maps each to itself.
type Diff struct {
	Lo, Hi rune
	Keeps  bool
}

// NotExactError says why there is no SQL for a mapping with these tables.
type NotExactError struct{ Reason string }

func (e *NotExactError) Error() string { return e.Reason }

// JDK is the feature version of the JDK the tables were read from ("17"):
// the SQL is exact for originals that run on it.
func JDK() string { return strconv.Itoa(tableJDKMajor) }

// Locale is the locale the tables were read in, the one udfx's JVM runner
// gives the originals (-Duser.language, -Duser.country).
const Locale = "en_US"

// UpperSQL is the Spark SQL of the JDK's x.toUpperCase() for a string x
// (the SQL of an expression, bound once).
func UpperSQL(x string) (string, error) {
	keep, err := kept("upper", upperDiffs)
	if err != nil {
		return "", err
	}
	// Upper case has no context outside tr, az and lt: a string's upper
	// case is its code points'.
	return casemap.Keeping("upper", x, keep), nil
}

// LowerSQL is the Spark SQL of the JDK's x.toLowerCase() for a string x.
func LowerSQL(x string) (string, error) {
	keep, err := kept("lower", lowerDiffs)
	if err != nil {
		return "", err
	}
	// With each Σ already σ or ς, lower case has no context left. A
	// string with neither Σ nor a kept code point is Spark's lower.
	return casemap.Guard(x, casemap.RepeatUpTo, func(s string) string {
		noSigma := "instr(" + s + ", 'Σ') = 0"
		if len(keep) > 0 {
			noSigma = fmt.Sprintf("(%s AND NOT (%s RLIKE '%s'))", noSigma, s, casemap.ClassOf(keep))
		}
		return casemap.ASCII(s) + " OR " + noSigma
	}, func(s string) string {
		return "lower(" + s + ")"
	}, func(s string) string {
		return casemap.Keeping("lower", finalSigmaSQL(s), keep)
	}), nil
}

// LowerUpToSigmaSQL is LowerSQL except that a Σ may become σ where the
// JDK gives ς or the other way round: exact wherever only whether the
// result equals, starts with, ends with or contains a text without σ and
// ς is used, or its length.
func LowerUpToSigmaSQL(x string) (string, error) {
	keep, err := kept("lower", lowerDiffs)
	if err != nil {
		return "", err
	}
	return casemap.Keeping("lower", x, keep), nil
}

func kept(fn string, diffs []Diff) ([]rune, error) {
	var runs []casemap.Run
	for _, d := range diffs {
		if !d.Keeps {
			return nil, &NotExactError{Reason: fmt.Sprintf("JDK %d %s-cases U+%04X to something that is neither itself nor Spark's", tableJDKMajor, fn, d.Lo)}
		}
		runs = append(runs, casemap.Run{Lo: d.Lo, Hi: d.Hi})
	}
	return casemap.Runes(runs), nil
}
