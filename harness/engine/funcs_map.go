package engine

import "github.com/udfx/udfx/harness/udf"

// mapFuncs is Spark's map_funcs group. Map columns are refused, so
// element_at, which Spark lists there, is evaluated on arrays only.
var mapFuncs = []funcDef{
	{"element_at", 2, 2, buildElementAt, nil},
}

func buildElementAt(a *analyzer, name string, args []node) (node, error) {
	if args[0].typ().Kind != udf.Array {
		return nil, mismatch(name, args[0], "array")
	}
	idx, err := a.cast(args[1], tInt, false, false)
	// A BIGINT index is DATATYPE_MISMATCH (conformance element_at/bigint-index).
	if err != nil || !isIntegral(args[1].typ()) || args[1].typ().Kind == udf.Long {
		return nil, mismatch(name, args[1], "integer")
	}
	et := args[0].typ().Elem
	ansi := a.ansi
	return a.fn(name, et, []node{args[0], idx}, strictRow(et, func(v []any) (any, *RowError) {
		arr, i := v[0].([]any), v[1].(int64)
		n := int64(len(arr))
		switch {
		case i == 0:
			return nil, rowErr(classIndexOOB, "INVALID_INDEX_OF_ZERO", "The index 0 is invalid. An index shall be either < 0 or > 0 (the first element has index 1).")
		case i > n || -i > n:
			if ansi {
				return nil, rowErr(classIndexOOB, "INVALID_ARRAY_INDEX_IN_ELEMENT_AT", "The index %d is out of bounds. The array has %d elements. Use `try_element_at` to tolerate accessing element at invalid index and return NULL instead.", i, n)
			}
			return nil, nil
		case i > 0:
			return arr[i-1], nil
		}
		return arr[n+i], nil
	})), nil
}
