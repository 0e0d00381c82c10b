package engine

import (
	"math"
	"sort"

	"github.com/udfx/udfx/harness/udf"
)

// Array functions checked against real Spark 4.1.1 (pyspark 4.1.1): slice,
// sort_array, array_sort, array_distinct, array_max, array_min,
// array_position, array_join, flatten, aggregate/reduce.

func arrayArg(name string, n node) error {
	if n.typ().Kind != udf.Array {
		return mismatch(name, n, "array")
	}
	return nil
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

func registerArrays2() {
	reg("slice", 3, 3, func(a *analyzer, name string, args []node) (node, error) {
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
	})
	reg("sort_array", 1, 2, func(a *analyzer, name string, args []node) (node, error) {
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
	})
	regRaw("array_sort", 1, 2, func(a *analyzer, e *callAST) (node, error) {
		args, err := a.analyzeAll(e.args[:1])
		if err != nil {
			return nil, err
		}
		if err := arrayArg(e.name, args[0]); err != nil {
			return nil, err
		}
		t := args[0].typ()
		if len(e.args) == 1 {
			if !sortable(t.Elem) {
				return nil, &UnsupportedFunctionError{Name: "array_sort of " + t.String()}
			}
			// Ascending with NULLs last (checked in Spark 4.1.1).
			return a.fn(e.name, t, args, strictRow(t, func(v []any) (any, *RowError) {
				return sortValues(t.Elem, v[0].([]any), true, false), nil
			})), nil
		}
		body, slots, err := a.lambda(e.args[1], t.Elem, t.Elem)
		if err != nil {
			return nil, err
		}
		if body.typ().Kind != udf.Int {
			return nil, typeErrf("DATATYPE_MISMATCH.UNEXPECTED_RETURN_TYPE", "the comparator of array_sort must return int, got %s", body.typ())
		}
		return a.fn(e.name, t, args, comparatorSort(t, body, slots)), nil
	})
	reg("array_distinct", 1, 1, func(a *analyzer, name string, args []node) (node, error) {
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
	})
	reg("array_max array_min", 1, 1, func(a *analyzer, name string, args []node) (node, error) {
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
	})
	reg("array_position", 2, 2, func(a *analyzer, name string, args []node) (node, error) {
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
	})
	reg("array_join", 2, 3, func(a *analyzer, name string, args []node) (node, error) {
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
	})
	reg("flatten", 1, 1, func(a *analyzer, name string, args []node) (node, error) {
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
	})
	regRaw("aggregate reduce", 3, 4, func(a *analyzer, e *callAST) (node, error) {
		args, err := a.analyzeAll(e.args[:2])
		if err != nil {
			return nil, err
		}
		if err := arrayArg(e.name, args[0]); err != nil {
			return nil, err
		}
		accT := args[1].typ()
		merge, mslots, err := a.lambda(e.args[2], accT, args[0].typ().Elem)
		if err != nil {
			return nil, err
		}
		// Spark requires the merge result to have the zero's type exactly
		// (aggregate(array(1L), 0, (acc, x) -> acc + x) is DATATYPE_MISMATCH).
		if !merge.typ().Equal(accT) {
			return nil, typeErrf("DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", "the merge function of %s returns %s, but the zero value is %s", e.name, merge.typ(), accT)
		}
		t := accT
		var finish node
		fslot := -1
		if len(e.args) == 4 {
			var fs []int
			if finish, fs, err = a.lambda(e.args[3], accT); err != nil {
				return nil, err
			}
			fslot = fs[0]
			t = finish.typ()
		}
		return a.fn(e.name, t, args, aggregateEval(merge, mslots, finish, fslot)), nil
	})
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

// innerCtx is a context whose rows are rows owner of c (for lambdas).
func innerCtx(c *ctx, owner []int, nslots int) *ctx {
	inner := &ctx{n: len(owner), ansi: c.ansi, loc: c.loc}
	for _, col := range c.cols {
		inner.cols = append(inner.cols, col.gather(owner))
	}
	inner.vars = make([]*vec, max(nslots, len(c.vars)))
	for k, v := range c.vars {
		if v != nil {
			inner.vars[k] = v.gather(owner)
		}
	}
	return inner
}

// aggregateEval runs aggregate's merge lambda element by element, all rows
// at once: step k evaluates merge on the rows whose arrays have more than
// k elements and have not failed.
func aggregateEval(merge node, mslots []int, finish node, fslot int) func(c *ctx, f *fnNode) (*vec, error) {
	nslots := max(mslots[0], mslots[1], fslot) + 1
	return func(c *ctx, f *fnNode) (*vec, error) {
		args, err := f.evalArgs(c)
		if err != nil {
			return nil, err
		}
		arrs, zero := args[0], args[1]
		accT := f.args[1].typ()
		acc := make([]any, c.n)
		errs := make([]*RowError, c.n)
		live := make([]bool, c.n)
		maxLen := 0
		for i := 0; i < c.n; i++ {
			if e := arrs.errAt(i); e != nil {
				errs[i] = e
				continue
			}
			if e := zero.errAt(i); e != nil {
				errs[i] = e
				continue
			}
			if x := arrs.get(i); x != nil {
				live[i] = true
				acc[i] = zero.get(i)
				maxLen = max(maxLen, len(x.([]any)))
			}
		}
		elemT := f.args[0].typ().Elem
		for k := 0; k < maxLen; k++ {
			var owner []int
			for i := 0; i < c.n; i++ {
				if live[i] && errs[i] == nil && len(arrs.get(i).([]any)) > k {
					owner = append(owner, i)
				}
			}
			if len(owner) == 0 {
				break
			}
			inner := innerCtx(c, owner, nslots)
			av, ev := newVec(accT, len(owner)), newVec(elemT, len(owner))
			for j, i := range owner {
				av.set(j, acc[i])
				ev.set(j, arrs.get(i).([]any)[k])
			}
			inner.vars[mslots[0]], inner.vars[mslots[1]] = av, ev
			res, err := merge.eval(inner)
			if err != nil {
				return nil, err
			}
			for j, i := range owner {
				if e := res.errAt(j); e != nil {
					errs[i] = e
				} else {
					acc[i] = res.get(j)
				}
			}
		}
		out := newVec(f.t, c.n)
		if finish != nil {
			var owner []int
			for i := 0; i < c.n; i++ {
				if live[i] && errs[i] == nil {
					owner = append(owner, i)
				}
			}
			inner := innerCtx(c, owner, nslots)
			av := newVec(accT, len(owner))
			for j, i := range owner {
				av.set(j, acc[i])
			}
			inner.vars[fslot] = av
			res, err := finish.eval(inner)
			if err != nil {
				return nil, err
			}
			for j, i := range owner {
				if e := res.errAt(j); e != nil {
					errs[i] = e
				} else {
					acc[i] = res.get(j)
				}
			}
		}
		for i := 0; i < c.n; i++ {
			switch {
			case errs[i] != nil:
				out.setErr(i, errs[i])
			case !live[i]:
				out.setNull(i)
			default:
				out.set(i, acc[i])
			}
		}
		return out, nil
	}
}

// comparatorSort is array_sort with a comparator lambda. Spark calls
// java.util.Arrays.sort(Object[], comparator), i.e. TimSort; for fewer than
// 32 elements that is a run scan plus binary insertion sort, ported here so
// that even an inconsistent comparator gives Java's order and raises on the
// same comparisons. Longer arrays, and a NULL comparator result, are
// refused per row.
func comparatorSort(t *udf.Type, body node, slots []int) func(c *ctx, f *fnNode) (*vec, error) {
	nslots := max(slots[0], slots[1]) + 1
	return func(c *ctx, f *fnNode) (*vec, error) {
		arrs, err := f.args[0].eval(c)
		if err != nil {
			return nil, err
		}
		out := newVec(t, c.n)
		for i := 0; i < c.n; i++ {
			if e := arrs.errAt(i); e != nil {
				out.setErr(i, e)
				continue
			}
			x := arrs.get(i)
			if x == nil {
				out.setNull(i)
				continue
			}
			arr := append([]any{}, x.([]any)...)
			if len(arr) >= 32 {
				out.setErr(i, errUnsupportedValue("array_sort with a comparator on 32 or more elements"))
				continue
			}
			inner := innerCtx(c, []int{i}, nslots)
			var rowErr *RowError
			cmp := func(l, r any) int {
				if rowErr != nil {
					return 0
				}
				lv, rv := newVec(t.Elem, 1), newVec(t.Elem, 1)
				lv.set(0, l)
				rv.set(0, r)
				inner.vars[slots[0]], inner.vars[slots[1]] = lv, rv
				res, err := body.eval(inner)
				if err != nil {
					rowErr = errUnsupportedValue("array_sort comparator: " + err.Error())
					return 0
				}
				if e := res.errAt(0); e != nil {
					rowErr = e
					return 0
				}
				v := res.get(0)
				if v == nil {
					rowErr = errUnsupportedValue("array_sort comparator returning NULL")
					return 0
				}
				return int(v.(int64))
			}
			javaSmallSort(arr, cmp)
			if rowErr != nil {
				out.setErr(i, rowErr)
				continue
			}
			out.set(i, arr)
		}
		return out, nil
	}
}

// javaSmallSort is java.util.TimSort.sort for arrays shorter than
// MIN_MERGE (32): countRunAndMakeAscending, then binarySort.
func javaSmallSort(a []any, cmp func(x, y any) int) {
	hi := len(a)
	if hi < 2 {
		return
	}
	run := 1
	if cmp(a[1], a[0]) < 0 {
		run = 2
		for run < hi && cmp(a[run], a[run-1]) < 0 {
			run++
		}
		for i, j := 0, run-1; i < j; i, j = i+1, j-1 {
			a[i], a[j] = a[j], a[i]
		}
	} else {
		run = 2
		for run < hi && cmp(a[run], a[run-1]) >= 0 {
			run++
		}
	}
	for start := run; start < hi; start++ {
		pivot := a[start]
		left, right := 0, start
		for left < right {
			mid := (left + right) >> 1
			if cmp(pivot, a[mid]) < 0 {
				right = mid
			} else {
				left = mid + 1
			}
		}
		copy(a[left+1:start+1], a[left:start])
		a[left] = pivot
	}
}

// flatStrings marks an array<string> argument of concat_ws, whose elements
// are joined like separate arguments; it evaluates to the array itself.
type flatStrings struct{ node }

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
