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
	return Bind(x, func(s string) string {
		return fmt.Sprintf("CASE WHEN %[1]s RLIKE '%[2]s' THEN array_join(transform(regexp_extract_all(%[1]s, '(?s).', 0), udfx_c -> IF(udfx_c RLIKE '%[2]s', udfx_c, %[3]s(udfx_c))), '') ELSE %[3]s(%[1]s) END", s, class, fn)
	})
}

// Bind gives body the string x: x itself when it is a column, else a
// lambda variable bound to it, so that an expression is written, and
// computed, once. Inside body's lambdas udfx_c and udfx_i name the
// lambdas' variables, so a column of such a name is bound too.
func Bind(x string, body func(s string) string) string {
	if strings.HasPrefix(x, "`") && strings.HasSuffix(x, "`") && strings.Count(x, "`") == 2 && !strings.HasPrefix(x, "`udfx_") {
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
