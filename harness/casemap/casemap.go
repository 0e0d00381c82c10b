// Package casemap writes Spark SQL for a runtime's case mapping (CPython's
// str.upper(), the JDK's String.toUpperCase()) out of Spark's own upper
// and lower, for runtimes whose mappings differ from Spark's only on code
// points that the runtime maps to themselves: a Unicode version older
// than the ICU inside Spark knows fewer case pairs. The tables of those
// code points are the runtimes' packages' (pycase, jdkcase), each
// generated from the real runtime and Spark.
package casemap

import (
	"fmt"
	"slices"
	"strings"
)

// Run is a range of code points, both ends included.
type Run struct{ Lo, Hi rune }

// Runes lists the code points of runs.
func Runes(runs []Run) []rune {
	var out []rune
	for _, r := range runs {
		for c := r.Lo; c <= r.Hi; c++ {
			out = append(out, c)
		}
	}
	return out
}

// Keeping is the SQL of Spark's fn ("upper" or "lower") over the string x,
// except that each code point of keep maps to itself. A string without
// them is mapped whole; one with them code point by code point, which for
// lower drops the one context rule, final sigma: Σ then always becomes
// σ, so a caller uses it for lower only where σ and ς do not matter.
func Keeping(fn, x string, keep []rune) string {
	if len(keep) == 0 {
		return fn + "(" + x + ")"
	}
	class := ClassOf(keep)
	return Guard(x, RepeatUpTo, func(s string) string {
		return ASCII(s) + " OR NOT (" + s + " RLIKE '" + class + "')"
	}, func(s string) string {
		return fn + "(" + s + ")"
	}, func(s string) string {
		return Bind(s, func(s string) string {
			return fmt.Sprintf("array_join(transform(regexp_extract_all(%[1]s, '(?s).', 0), udfx_c -> IF(udfx_c RLIKE '%[2]s', udfx_c, %[3]s(udfx_c))), '')", s, class, fn)
		})
	})
}

// ASCII is the SQL condition that the string s holds ASCII alone: UTF-8
// then spends one byte on each code point. No case mapping udfx models
// differs from Spark's there.
func ASCII(s string) string {
	return "octet_length(" + s + ") = char_length(" + s + ")"
}

// Guard is the SQL of plain(x) where the condition ordinary(x) holds and
// of special(x) elsewhere. It keeps the ordinary case out of lambdas:
// Spark interprets a higher-order function such as transform row by row
// (it has no generated code), while a CASE around one runs generated code
// until its branch is taken. So x is written out in each part where it is
// a column or an expression without lambdas of its own no longer than
// upTo (the caller's weighing of how often its parts write x), and bound
// once, with the CASE inside the binding, where writing it again would
// grow the SQL too much or evaluate a lambda again.
func Guard(x string, upTo int, ordinary, plain, special func(s string) string) string {
	form := func(s string) string {
		return fmt.Sprintf("CASE WHEN %s THEN %s ELSE %s END", ordinary(s), plain(s), special(s))
	}
	if len(x) <= upTo && !strings.Contains(x, "->") {
		return form(x)
	}
	return Bind(x, form)
}

// RepeatUpTo is the longest expression the case mappings write out
// rather than bind: they write it four times.
const RepeatUpTo = 1000

// Bind gives body the string x: x itself when it is a column, else a
// lambda variable bound to it, so that an expression is written, and
// computed, once. Inside body's lambdas udfx_c and udfx_i name the
// lambdas' variables, so a column of such a name is bound too; Bind's own
// variable, udfx_s, is not bound again.
func Bind(x string, body func(s string) string) string {
	if strings.HasPrefix(x, "`") && strings.HasSuffix(x, "`") && strings.Count(x, "`") == 2 && !strings.HasPrefix(x, "`udfx_") || x == "udfx_s" {
		return body(x)
	}
	return fmt.Sprintf("element_at(transform(array(%s), udfx_s -> %s), 1)", x, body("udfx_s"))
}

// ClassOf is a Java regular-expression class, as a Spark SQL string
// literal's content, matching exactly the code points cs.
func ClassOf(cs []rune) string {
	cs = slices.Clone(cs)
	slices.Sort(cs)
	var b strings.Builder
	b.WriteByte('[')
	for i := 0; i < len(cs); {
		j := i
		for j+1 < len(cs) && cs[j+1] == cs[j]+1 {
			j++
		}
		fmt.Fprintf(&b, `\\x{%X}`, cs[i])
		if j > i {
			fmt.Fprintf(&b, `-\\x{%X}`, cs[j])
		}
		i = j + 1
	}
	b.WriteByte(']')
	return b.String()
}
