package engine

import (
	"regexp"
	"regexp/syntax"

	"github.com/udfx/udfx/harness/udf"
)

// regexpAllFuncs are the regular-expression functions over every match.
var regexpAllFuncs = []funcDef{
	{"regexp_extract_all", 2, 3, buildRegexpExtractAll, nil},
}

// buildRegexpExtractAll is Spark's regexp_extract_all: the group (1 by
// default) of every match, left to right, "" where the group took no part
// in a match. Spark checks the group index at each match, so a bad index
// on a string without a match is no error. Java's Matcher.find reports an
// empty match after a non-empty one and then moves on by one UTF-16 unit,
// where RE2's iteration skips it: a pattern that can match the empty
// string is refused.
func buildRegexpExtractAll(a *analyzer, name string, args []node) (node, error) {
	if l, ok := args[1].(*litNode); ok {
		if p, ok := l.v.(string); ok {
			if re, err := compileJavaRegex(p); err == nil && canMatchEmpty(re.re) {
				return nil, &UnsupportedFunctionError{Name: name + " with a pattern that can match the empty string"}
			}
		}
	}
	return patternFn(a, name, args, udf.ArrayOf(tString), 1, func(re *javaRegex, s string, idx int64) (any, *RowError) {
		if e := re.check(s); e != nil {
			return nil, e
		}
		out := []any{}
		for _, m := range re.re.FindAllStringSubmatchIndex(s, -1) {
			if idx < 0 || idx > int64(re.re.NumSubexp()) {
				return nil, rowErr(classIllegalArg, "INVALID_PARAMETER_VALUE.REGEX_GROUP_INDEX", "Expects group index between 0 and %d, but got %d.", re.re.NumSubexp(), idx)
			}
			if m[2*idx] < 0 {
				out = append(out, "")
				continue
			}
			out = append(out, s[m[2*idx]:m[2*idx+1]])
		}
		return out, nil
	})
}

// patternFn builds a function of a string, a constant Java pattern and an
// optional int (def when absent) that returns t: NULL for a NULL pattern,
// and row on each row whose arguments are not NULL.
func patternFn(a *analyzer, name string, args []node, t *udf.Type, def int64, row func(re *javaRegex, s string, n int64) (any, *RowError)) (node, error) {
	args, err := a.typedArgs(name, args, "ssi")
	if err != nil {
		return nil, err
	}
	re, isNull, err := constPattern(name, args[1])
	if err != nil {
		return nil, err
	}
	if isNull {
		return &litNode{t: t}, nil
	}
	rest := append([]node{args[0]}, args[2:]...)
	return a.fn(name, t, rest, strictRow(t, func(v []any) (any, *RowError) {
		n := def
		if len(v) == 2 {
			n = v[1].(int64)
		}
		return row(re, v[0].(string), n)
	})), nil
}

// canMatchEmpty reports whether re matches the empty string somewhere
// (a*, x?, ^, \b): whether some path through it consumes nothing.
func canMatchEmpty(re *regexp.Regexp) bool {
	t, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return true
	}
	return nullable(t.Simplify())
}

func nullable(t *syntax.Regexp) bool {
	switch t.Op {
	case syntax.OpLiteral:
		return len(t.Rune) == 0
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return false
	case syntax.OpCapture, syntax.OpPlus:
		return nullable(t.Sub[0])
	case syntax.OpRepeat:
		return t.Min == 0 || nullable(t.Sub[0])
	case syntax.OpConcat:
		for _, s := range t.Sub {
			if !nullable(s) {
				return false
			}
		}
		return true
	case syntax.OpAlternate:
		for _, s := range t.Sub {
			if nullable(s) {
				return true
			}
		}
		return false
	case syntax.OpNoMatch:
		return false
	}
	// Empty matches, stars, quests and the zero-width assertions.
	return true
}
