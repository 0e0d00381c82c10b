package jdkcase

import (
	"fmt"
	"strings"

	"github.com/udfx/udfx/harness/casemap"
)

// DigitRun is a run of chars Integer.parseInt reads as the digits First,
// First+1, … (Character.digit(c, 10) in the JDK the tables were read
// from); ASCII's are not listed.
type DigitRun struct {
	Lo, Hi rune
	First  int
}

// ParseSQL is the Spark SQL of the JDK's Integer.parseInt(x) (long: Long
// .parseLong) where it returns, and orElse where it throws
// NumberFormatException: x null or empty, a sign alone, a char that is
// not a digit to Character.digit (any script's, from the tables; parseInt
// reads UTF-16 chars, so a digit beyond the BMP is not one), no spaces,
// and a value beyond the type. orElse is evaluated only where it is the
// result.
func ParseSQL(x, orElse string, long bool) string {
	var from, to strings.Builder
	for _, r := range digitRuns {
		for c := r.Lo; c <= r.Hi; c++ {
			// \u0660-style escapes, which Spark's string literals
			// read: the plan and the report stay ASCII, whatever the
			// scripts.
			fmt.Fprintf(&from, `\u%04X`, c)
			to.WriteByte(byte('0' + r.First + int(c-r.Lo)))
		}
	}
	ty, lo, hi := "INT", "-2147483648", "2147483647"
	if long {
		ty, lo, hi = "BIGINT", "-9223372036854775808", "9223372036854775807"
	}
	text := x
	if from.Len() > 0 {
		text = fmt.Sprintf("translate(%s, '%s', '%s')", x, from.String(), to.String())
	}
	// Leading zeros off; then at most 19 digits and within the range.
	d := `regexp_replace(udfx_p, '^([+-]?)0+([0-9])', '$1$2')`
	// Nested, not AND: the CAST to DECIMAL raises on text that is not a
	// number (ANSI), so it runs only where the pattern matched. \z, not
	// $, which also matches before a final line terminator.
	exact := fmt.Sprintf("element_at(transform(array(%[1]s), udfx_p -> "+
		"CASE WHEN udfx_p RLIKE '^[+-]?[0-9]+\\\\z' THEN "+
		"CASE WHEN char_length(regexp_replace(%[2]s, '^[+-]', '')) > 19 THEN %[6]s "+
		"WHEN CAST(%[2]s AS DECIMAL(20,0)) BETWEEN %[4]sBD AND %[5]sBD THEN CAST(%[2]s AS %[3]s) "+
		"ELSE %[6]s END ELSE %[6]s END), 1)",
		text, d, ty, lo, hi, orElse)
	// The rows real data holds, ASCII digits too few to leave the type,
	// take Spark's CAST, which reads them as parseInt does, and no lambda:
	// Spark interprets those row by row.
	fits := 9
	if long {
		fits = 18
	}
	return casemap.Guard(x, casemap.RepeatUpTo, func(s string) string {
		return fmt.Sprintf("%s RLIKE '^[+-]?[0-9]{1,%d}\\\\z'", s, fits)
	}, func(s string) string {
		return "CAST(" + s + " AS " + ty + ")"
	}, func(string) string { return exact })
}

// ParseDoubleSQL is the Spark SQL of the JDK's Double.parseDouble(x)
// where it returns, and orElse where it throws NumberFormatException or,
// for x null, NullPointerException (a caller that does not catch that
// raises first). Spark's CAST of a string to DOUBLE is parseDouble itself
// (hex, the d and f suffixes, the chars <= U+0020 trimmed, overflow to
// Infinity), except that where parseDouble throws, Spark also reads
// "inf", "infinity" and "nan" in any case, the first two signed, after
// trimming the same chars; those give orElse. NaN and Infinity spelled as
// the JDK spells them are the JDK's.
func ParseDoubleSQL(x, orElse string) string {
	const (
		ws   = `[\\x00-\\x20]*`
		jdk  = `^` + ws + `[+-]?(Infinity|NaN)` + ws + `\\z`
		only = `^` + ws + `([+-]?[iI][nN][fF]([iI][nN][iI][tT][yY])?|[nN][aA][nN])` + ws + `\\z`
	)
	// x is written out where it is short rather than bound by a lambda,
	// which Spark interprets row by row.
	return casemap.Guard(x, casemap.RepeatUpTo, func(s string) string {
		return s + " RLIKE '" + jdk + "'"
	}, func(s string) string {
		return "CAST(" + s + " AS DOUBLE)"
	}, func(s string) string {
		return fmt.Sprintf("CASE WHEN %[1]s RLIKE '%[3]s' THEN %[2]s ELSE coalesce(try_cast(%[1]s AS DOUBLE), %[2]s) END", s, orElse, only)
	})
}
