package engine

import "github.com/udfx/udfx/harness/udf"

// lambdaFuncs is Spark's lambda_funcs group: the higher-order functions
// over arrays. array_sort is one even without a comparator.
var lambdaFuncs = []funcDef{
	{"transform filter exists forall", 2, 2, nil, rawArrayLambda},
	{"array_sort", 1, 2, nil, rawArraySort},
	{"aggregate reduce", 3, 4, nil, rawAggregate},
}

// array_sort and aggregate/reduce were checked against real Spark 4.1.1
// (pyspark 4.1.1).

func rawArrayLambda(a *analyzer, e *callAST) (node, error) {
	args, err := a.analyzeAll(e.args[:1])
	if err != nil {
		return nil, err
	}
	arr := args[0]
	if arr.typ().Kind != udf.Array {
		return nil, mismatch(e.name, arr, "array")
	}
	types := []*udf.Type{arr.typ().Elem}
	if l, ok := e.args[1].(*lambdaAST); ok && len(l.params) == 2 && (e.name == "transform" || e.name == "filter") {
		// transform/filter(a, (x, i) -> ...): i is the 0-based index, an int.
		types = append(types, tInt)
	}
	body, slots, err := a.lambda(e.args[1], types...)
	if err != nil {
		return nil, err
	}
	idxSlot := -1
	if len(slots) == 2 {
		idxSlot = slots[1]
	}
	var t *udf.Type
	switch e.name {
	case "transform":
		t = udf.ArrayOf(body.typ())
	case "filter":
		t = arr.typ()
	default:
		t = tBool
	}
	if e.name != "transform" && body.typ().Kind != udf.Boolean {
		return nil, mismatch(e.name, body, "boolean lambda")
	}
	return a.fn(e.name, t, []node{arr}, lambdaEval(e.name, t, body, slots[0], idxSlot)), nil
}

func rawArraySort(a *analyzer, e *callAST) (node, error) {
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
}

func rawAggregate(a *analyzer, e *callAST) (node, error) {
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
}

// lambdaEval evaluates a one-argument lambda over all elements of all
// rows at once: the elements become the rows of an inner context, with
// outer columns and variables repeated per element.
func lambdaEval(name string, t *udf.Type, body node, slot, idxSlot int) func(c *ctx, f *fnNode) (*vec, error) {
	return func(c *ctx, f *fnNode) (*vec, error) {
		arrs, err := f.args[0].eval(c)
		if err != nil {
			return nil, err
		}
		var owner []int
		elemT := f.args[0].typ().Elem
		var elems []any
		var index []int64
		for i := 0; i < c.n; i++ {
			if x := arrs.get(i); x != nil {
				for k, e := range x.([]any) {
					owner = append(owner, i)
					elems = append(elems, e)
					index = append(index, int64(k))
				}
			}
		}
		inner := innerCtx(c, owner, max(slot+1, idxSlot+1))
		ev := newVec(elemT, len(elems))
		for k, e := range elems {
			ev.set(k, e)
		}
		inner.vars[slot] = ev
		if idxSlot >= 0 {
			inner.vars[idxSlot] = &vec{t: tInt, n: len(index), i64: index}
		}
		res, err := body.eval(inner)
		if err != nil {
			return nil, err
		}
		out := newVec(t, c.n)
		k := 0
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
			n := len(x.([]any))
			var rowErr *RowError
			var vals []any
			sawNull, hit := false, false
			for j := k; j < k+n; j++ {
				if e := res.errAt(j); e != nil {
					rowErr = e
					break
				}
				r := res.get(j)
				switch name {
				case "transform":
					vals = append(vals, r)
				case "filter":
					if r != nil && r.(bool) {
						vals = append(vals, x.([]any)[j-k])
					}
				case "exists":
					if r == nil {
						sawNull = true
					} else if r.(bool) {
						hit = true
					}
				case "forall":
					if r == nil {
						sawNull = true
					} else if !r.(bool) {
						hit = true
					}
				}
				if hit {
					break
				}
			}
			k += n
			switch {
			case rowErr != nil:
				out.setErr(i, rowErr)
			case name == "transform" || name == "filter":
				if vals == nil {
					vals = []any{}
				}
				out.set(i, vals)
			case hit:
				out.b[i] = name == "exists"
			case sawNull:
				out.setNull(i)
			default:
				out.b[i] = name == "forall"
			}
		}
		return out, nil
	}
}

// innerCtx is a context whose rows are rows owner of c (for lambdas, and
// for the rows a CASE branch is evaluated on).
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
