package engine

import (
	"math"
	"sort"

	"github.com/udfx/udfx/harness/udf"
)

// arrayFuncs is Spark's array_funcs group, and the subscript a[i]. The
// functions with a lambda (transform, array_sort, aggregate...) are
// lambda_funcs (funcs_lambda.go); element_at is map_funcs (funcs_map.go).
var arrayFuncs = []funcDef{
	{"array", 0, -1, buildArray, nil},
	{"[]", 2, 2, buildSubscript, nil},
	{"array_contains", 2, 2, buildArrayContains, nil},
	{"slice", 3, 3, buildSlice, nil},
	{"sort_array", 1, 2, buildSortArray, nil},
	{"array_distinct", 1, 1, buildArrayDistinct, nil},
	{"array_max array_min", 1, 1, buildArrayMaxMin, nil},
	{"array_position", 2, 2, buildArrayPosition, nil},
	{"array_join", 2, 3, buildArrayJoin, nil},
	{"flatten", 1, 1, buildFlatten, nil},
}

// slice, sort_array, array_distinct, array_max, array_min,
// array_position, array_join and flatten were checked against real Spark
// 4.1.1 (pyspark 4.1.1).

func arrayArg(name string, n node) error {
	if n.typ().Kind != udf.Array {
		return mismatch(name, n, "array")
	}
	return nil
}

func buildArray(a *analyzer, name string, args []node) (node, error) {
	args, t, err := a.common(name, args)
	if err != nil {
		return nil, err
	}
	at := udf.ArrayOf(t)
	return a.fn(name, at, args, anyRow(at, func(v []any) (any, *RowError) {
		return append([]any{}, v...), nil
	})), nil
}

func buildSubscript(a *analyzer, name string, args []node) (node, error) {
	if args[0].typ().Kind != udf.Array || !isIntegral(args[1].typ()) {
		return nil, &UnsupportedFunctionError{Name: "subscript on " + args[0].typ().String()}
	}
	idx, _ := a.cast(args[1], tInt, false, false)
	et := args[0].typ().Elem
	ansi := a.ansi
	return a.fn(name, et, []node{args[0], idx}, strictRow(et, func(v []any) (any, *RowError) {
		arr, i := v[0].([]any), v[1].(int64)
		if i < 0 || i >= int64(len(arr)) {
			if ansi {
				return nil, rowErr(classIndexOOB, "INVALID_ARRAY_INDEX", "The index %d is out of bounds. The array has %d elements. Use the SQL function `get()` to tolerate accessing element at invalid index and return NULL instead.", i, len(arr))
			}
			return nil, nil
		}
		return arr[i], nil
	})), nil
}

func buildArrayContains(a *analyzer, name string, args []node) (node, error) {
	if args[0].typ().Kind != udf.Array {
		return nil, mismatch(name, args[0], "array")
	}
	et := args[0].typ().Elem
	if isVoid(args[1].typ()) {
		// Checked: array_contains(array(1, 2), NULL) is DATATYPE_MISMATCH.
		return nil, typeErrf("DATATYPE_MISMATCH.NULL_TYPE", "array_contains does not accept a NULL literal as its value")
	}
	if isVoid(et) {
		// array_contains(array(), 1) is false.
		return a.fn(name, tBool, args, strictRow(tBool, func(v []any) (any, *RowError) { return false, nil })), nil
	}
	if !args[1].typ().Equal(et) {
		// Both sides are widened: array_contains(array(1, 2), 1.0D) is true.
		w, ok := wider2(et, args[1].typ(), false)
		if !ok || (et.Kind == udf.String) != (args[1].typ().Kind == udf.String) || !et.IsNumeric() && !args[1].typ().IsNumeric() {
			return nil, &UnsupportedFunctionError{Name: "array_contains with differing element and value types"}
		}
		arr, err := a.cast(args[0], udf.ArrayOf(w), false, false)
		if err != nil {
			return nil, err
		}
		x, err := a.cast(args[1], w, false, false)
		if err != nil {
			return nil, err
		}
		args, et = []node{arr, x}, w
	}
	return a.fn(name, tBool, args, strictRow(tBool, func(v []any) (any, *RowError) {
		sawNull := false
		for _, e := range v[0].([]any) {
			if e == nil {
				sawNull = true
				continue
			}
			if compareVals(et, e, v[1]) == 0 {
				return true, nil
			}
		}
		if sawNull {
			return nil, nil
		}
		return false, nil
	})), nil
}

func errSliceParam(param, what string, got int64) *RowError {
	return rowErr(classRuntime, "INVALID_PARAMETER_VALUE."+param, "The value of parameter(s) `%s` in `slice` is invalid: %s, but got %d.", param2name(param), what, got)
}

func param2name(p string) string {
	if p == "START" {
		return "start"
	}
	return "length"
}

func buildSlice(a *analyzer, name string, args []node) (node, error) {
	if err := arrayArg(name, args[0]); err != nil {
		return nil, err
	}
	for _, x := range args[1:] {
		if !isIntegral(x.typ()) && !isVoid(x.typ()) {
			return nil, mismatch(name, x, "integer")
		}
	}
	start, _ := a.cast(args[1], tInt, false, false)
	length, _ := a.cast(args[2], tInt, false, false)
	t := args[0].typ()
	return a.fn(name, t, []node{args[0], start, length}, strictRow(t, func(v []any) (any, *RowError) {
		arr, s, l := v[0].([]any), v[1].(int64), v[2].(int64)
		n := int64(len(arr))
		var idx int64
		switch {
		case s == 0:
			return nil, errSliceParam("START", "Expects a positive or a negative value for `start`", s)
		case s < 0:
			idx = s + n
		default:
			idx = s - 1
		}
		if l < 0 {
			return nil, errSliceParam("LENGTH", "Expects `length` greater than or equal to 0", l)
		}
		if idx < 0 || idx >= n {
			return []any{}, nil
		}
		return append([]any{}, arr[idx:min(idx+l, n)]...), nil
	})), nil
}

func buildSortArray(a *analyzer, name string, args []node) (node, error) {
	if err := arrayArg(name, args[0]); err != nil {
		return nil, err
	}
	t := args[0].typ()
	if !sortable(t.Elem) {
		return nil, &UnsupportedFunctionError{Name: "sort_array of " + t.String()}
	}
	asc := true
	if len(args) == 2 {
		l, ok := args[1].(*litNode)
		if !ok || l.t.Kind != udf.Boolean && !isVoid(l.t) {
			return nil, typeErrf("DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", "sort_array's second argument must be a boolean literal")
		}
		if l.v == nil {
			// Checked: sort_array(array(1, 2), NULL) is NULL.
			return &litNode{t: t}, nil
		}
		asc = l.v.(bool)
	}
	return a.fn(name, t, args[:1], strictRow(t, func(v []any) (any, *RowError) {
		// Ascending puts NULLs first, descending last.
		out := sortValues(t.Elem, v[0].([]any), asc, asc)
		if asc && isFractional(t.Elem) && zeroOrderAmbiguous(out) {
			return nil, errUnsupportedValue("sort_array() of a float array holding both -0.0 and 0.0 (or differing NaNs) and no NULL")
		}
		return out, nil
	})), nil
}

func buildArrayDistinct(a *analyzer, name string, args []node) (node, error) {
	if err := arrayArg(name, args[0]); err != nil {
		return nil, err
	}
	t := args[0].typ()
	if !sortable(t.Elem) {
		return nil, &UnsupportedFunctionError{Name: "array_distinct of " + t.String()}
	}
	return a.fn(name, t, args, strictRow(t, func(v []any) (any, *RowError) {
		out := []any{}
		sawNull := false
	elems:
		for _, x := range v[0].([]any) {
			if x == nil {
				if !sawNull {
					out = append(out, nil)
					sawNull = true
				}
				continue
			}
			for _, y := range out {
				if y != nil && distinctEqual(t.Elem, x, y) {
					continue elems
				}
			}
			out = append(out, x)
		}
		return out, nil
	})), nil
}

func buildArrayMaxMin(a *analyzer, name string, args []node) (node, error) {
	if err := arrayArg(name, args[0]); err != nil {
		return nil, err
	}
	et := args[0].typ().Elem
	if !sortable(et) {
		return nil, &UnsupportedFunctionError{Name: name + " of " + args[0].typ().String()}
	}
	want := 1
	if name == "array_min" {
		want = -1
	}
	return a.fn(name, et, args, strictRow(et, func(v []any) (any, *RowError) {
		// NULLs are skipped; the first of equal values wins
		// (checked: array_max(array(-0.0D, 0.0D)) is -0.0).
		var best any
		for _, x := range v[0].([]any) {
			if x != nil && (best == nil || compareVals(et, x, best) == want) {
				best = x
			}
		}
		return best, nil
	})), nil
}

func buildArrayPosition(a *analyzer, name string, args []node) (node, error) {
	if err := arrayArg(name, args[0]); err != nil {
		return nil, err
	}
	arr, x := args[0], args[1]
	et, xt := arr.typ().Elem, x.typ()
	if isVoid(xt) {
		// Checked: array_position(array(1, NULL), NULL) is NULL (bigint).
		return &litNode{t: tLong}, nil
	}
	if !et.Equal(xt) {
		w, ok := wider2(et, xt, false)
		if !ok || (et.Kind == udf.String) != (xt.Kind == udf.String) {
			return nil, typeErrf("DATATYPE_MISMATCH.ARRAY_FUNCTION_DIFF_TYPES", "input to array_position should have been an array followed by a value with the same element type, but it's [%s, %s]", arr.typ(), xt)
		}
		var err error
		if arr, err = a.cast(arr, udf.ArrayOf(w), false, false); err != nil {
			return nil, err
		}
		if x, err = a.cast(x, w, false, false); err != nil {
			return nil, err
		}
		et = w
	}
	if !sortable(et) {
		return nil, &UnsupportedFunctionError{Name: "array_position of " + arr.typ().String()}
	}
	return a.fn(name, tLong, []node{arr, x}, strictRow(tLong, func(v []any) (any, *RowError) {
		// SQL equality: NaN = NaN and -0.0 = 0.0 (both checked).
		for i, y := range v[0].([]any) {
			if y != nil && compareVals(et, y, v[1]) == 0 {
				return int64(i + 1), nil
			}
		}
		return int64(0), nil
	})), nil
}

func buildArrayJoin(a *analyzer, name string, args []node) (node, error) {
	if err := arrayArg(name, args[0]); err != nil {
		return nil, err
	}
	if args[0].typ().Elem.IsNested() {
		return nil, mismatch(name, args[0], "array<string>")
	}
	arr, err := a.cast(args[0], udf.ArrayOf(tString), false, false)
	if err != nil {
		return nil, err
	}
	rest, err := a.typedArgs(name, args[1:], "s")
	if err != nil {
		return nil, err
	}
	return a.fn(name, tString, append([]node{arr}, rest...), strictRow(tString, func(v []any) (any, *RowError) {
		var parts []string
		for _, x := range v[0].([]any) {
			switch {
			case x != nil:
				parts = append(parts, x.(string))
			case len(v) == 3:
				parts = append(parts, v[2].(string))
			}
		}
		return joinStrings(parts, v[1].(string)), nil
	})), nil
}

func buildFlatten(a *analyzer, name string, args []node) (node, error) {
	t := args[0].typ()
	if t.Kind != udf.Array || t.Elem.Kind != udf.Array {
		return nil, mismatch(name, args[0], "array of arrays")
	}
	return a.fn(name, t.Elem, args, strictRow(t.Elem, func(v []any) (any, *RowError) {
		out := []any{}
		for _, x := range v[0].([]any) {
			if x == nil {
				return nil, nil // checked: a NULL inner array makes the result NULL
			}
			out = append(out, x.([]any)...)
		}
		return out, nil
	})), nil
}

// sortable reports types whose values compareVals orders as Spark does.
func sortable(t *udf.Type) bool {
	switch t.Kind {
	case udf.Array:
		return sortable(t.Elem)
	case "map", "struct":
		return false
	}
	return true
}

// sortValues sorts a copy of arr stably with Spark's ordering: NaN is the
// largest double, -0.0 equals 0.0 (so stable order decides), NULLs first
// or last. Checked: sort_array(array(0.0D, -0.0D)) is [0.0, -0.0].
func sortValues(et *udf.Type, arr []any, asc, nullsFirst bool) []any {
	out := append([]any{}, arr...)
	sort.SliceStable(out, func(i, j int) bool {
		x, y := out[i], out[j]
		switch {
		case x == nil || y == nil:
			if nullsFirst {
				return x == nil && y != nil
			}
			return x != nil && y == nil
		case asc:
			return compareVals(et, x, y) < 0
		}
		return compareVals(et, x, y) > 0
	})
	return out
}

// distinctEqual is array_distinct's element equality: NaN equals NaN, but
// -0.0 and 0.0 are distinct (checked: array_distinct(array(0.0D, -0.0D))
// is [0.0, -0.0]), as Spark hashes primitive doubles by their bits.
func distinctEqual(et *udf.Type, x, y any) bool {
	switch a := x.(type) {
	case float64:
		b := y.(float64)
		return math.IsNaN(a) && math.IsNaN(b) || a == b && math.Signbit(a) == math.Signbit(b)
	case float32:
		b := y.(float32)
		return a != a && b != b || a == b && math.Signbit(float64(a)) == math.Signbit(float64(b))
	}
	return compareVals(et, x, y) == 0
}

func joinStrings(parts []string, sep string) string {
	n := 0
	for _, p := range parts {
		n += len(p) + len(sep)
	}
	b := make([]byte, 0, n)
	for i, p := range parts {
		if i > 0 {
			b = append(b, sep...)
		}
		b = append(b, p...)
	}
	return string(b)
}

// zeroOrderAmbiguous reports a sorted float/double array whose order
// depends on a schema detail the engine does not track. Checked in Spark
// 4.1.1: when the array type cannot hold NULLs, ascending sort_array runs
// java.util.Arrays.sort on the primitive array, which puts -0.0 before 0.0
// (and may reorder NaNs); when it can, the stable comparator sort keeps
// their input order. An array with a NULL element is always the latter.
func zeroOrderAmbiguous(sorted []any) bool {
	sawPosZero := false
	nanBits := map[uint64]bool{}
	for _, x := range sorted {
		var d float64
		switch v := x.(type) {
		case nil:
			return false
		case float64:
			d = v
		case float32:
			d = float64(v)
			if v != v {
				nanBits[uint64(math.Float32bits(v))] = true
				continue
			}
		}
		switch {
		case math.IsNaN(d):
			nanBits[math.Float64bits(d)] = true
		case d == 0 && !math.Signbit(d):
			sawPosZero = true
		case d == 0 && sawPosZero:
			return true
		}
	}
	return len(nanBits) > 1
}
