package engine

import (
	"strings"

	"github.com/udfx/udfx/harness/udf"
)

// collectionFuncs is Spark's collection_funcs group: the functions over
// both strings and arrays. The string forms are the internal $ entries.
var collectionFuncs = []funcDef{
	{"size cardinality", 1, 1, buildSize, nil},
	{"concat ||", 0, -1, buildConcat, nil},
	{"$concat_string", 0, -1, strFn("s", tString, concatStringRow), nil},
	{"reverse", 1, 1, buildReverse, nil},
	{"$reverse_string", 1, 1, strFn("s", tString, reverseStringRow), nil},
}

func buildSize(a *analyzer, name string, args []node) (node, error) {
	if args[0].typ().Kind != udf.Array && !isVoid(args[0].typ()) {
		return nil, mismatch(name, args[0], "array")
	}
	// size(NULL) is -1 with ANSI off (spark.sql.legacy.sizeOfNull
	// follows it) and NULL with ANSI on; checked in Spark 4.1.1.
	legacy := !a.ansi
	return a.fn(name, tInt, args, anyRow(tInt, func(v []any) (any, *RowError) {
		if v[0] == nil {
			if legacy {
				return int64(-1), nil
			}
			return nil, nil
		}
		return int64(len(v[0].([]any))), nil
	})), nil
}

func buildConcat(a *analyzer, name string, args []node) (node, error) {
	for _, x := range args {
		if x.typ().Kind == udf.Array {
			return a.concatArrays(name, args)
		}
	}
	return builtins["$concat_string"].build(a, name, args)
}

func concatStringRow(v []any) (any, *RowError) {
	var b strings.Builder
	for _, x := range v {
		b.WriteString(x.(string))
	}
	return b.String(), nil
}

// concatArrays is concat / || of arrays: NULL if any argument is NULL.
func (a *analyzer) concatArrays(name string, args []node) (node, error) {
	for _, x := range args {
		if isVoid(x.typ()) {
			// concat(array(1), NULL) is DATATYPE_MISMATCH (checked).
			return nil, typeErrf("DATATYPE_MISMATCH.DATA_DIFF_TYPES", "input to %s should all be arrays; a NULL literal is not", name)
		}
	}
	args, t, err := a.common(name, args)
	if err != nil {
		return nil, err
	}
	if t.Kind != udf.Array {
		return nil, typeErrf("DATATYPE_MISMATCH.DATA_DIFF_TYPES", "input to %s should all be arrays or all be strings", name)
	}
	return a.fn(name, t, args, strictRow(t, func(v []any) (any, *RowError) {
		out := []any{}
		for _, x := range v {
			out = append(out, x.([]any)...)
		}
		return out, nil
	})), nil
}

func buildReverse(a *analyzer, name string, args []node) (node, error) {
	if t := args[0].typ(); t.Kind == udf.Array {
		return a.fn(name, t, args, strictRow(t, func(v []any) (any, *RowError) {
			in := v[0].([]any)
			out := make([]any, len(in))
			for i, x := range in {
				out[len(in)-1-i] = x
			}
			return out, nil
		})), nil
	}
	return builtins["$reverse_string"].build(a, name, args)
}

func reverseStringRow(v []any) (any, *RowError) {
	r := runes(v[0].(string))
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return string(r), nil
}
