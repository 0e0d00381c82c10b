package engine

import "github.com/udfx/udfx/harness/udf"

// regexpAllFuncs are the regular-expression functions over every match.
var regexpAllFuncs = []funcDef{
	{"regexp_extract_all", 2, 3, buildRegexpExtractAll, nil},
}

// buildRegexpExtractAll is Spark's regexp_extract_all: the group (1 by
// default) of every match, left to right, "" where the group took no part
// in a match. Spark checks the group index at each match, so a bad index
// on a string without a match is no error. After an empty match Java's
// Matcher.find moves on by one UTF-16 unit, which RE2's iteration does
// not reproduce: a row with an empty match is refused.
func buildRegexpExtractAll(a *analyzer, name string, args []node) (node, error) {
	args, err := a.typedArgs(name, args, "ssi")
	if err != nil {
		return nil, err
	}
	re, isNull, err := constPattern(name, args[1])
	if err != nil {
		return nil, err
	}
	t := udf.ArrayOf(tString)
	if isNull {
		return &litNode{t: t}, nil
	}
	rest := append([]node{args[0]}, args[2:]...)
	return a.fn(name, t, rest, strictRow(t, func(v []any) (any, *RowError) {
		s := v[0].(string)
		idx := int64(1)
		if len(v) == 2 {
			idx = v[1].(int64)
		}
		if e := re.check(s); e != nil {
			return nil, e
		}
		out := []any{}
		for _, m := range re.re.FindAllStringSubmatchIndex(s, -1) {
			if m[0] == m[1] {
				return nil, errUnsupportedValue("regexp_extract_all with an empty match")
			}
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
	})), nil
}
