package engine

import (
	"time"

	"github.com/udfx/udfx/harness/udf"
)

func (a *analyzer) dateArg(name string, x node) (node, error) {
	switch x.typ().Kind {
	case udf.Date:
		return x, nil
	case udf.Timestamp, udf.String, "void":
		return a.cast(x, tDate, false, false)
	}
	return nil, mismatch(name, x, "date")
}

// dateArith is date + int and date - int (date_add, date_sub).
func (a *analyzer) dateArith(op string, args []node) (node, error) {
	if args[0].typ().Kind == udf.Date && isIntegral(args[1].typ()) {
		name := "date_add"
		if op == "-" {
			name = "date_sub"
		}
		return builtins[name].build(a, name, args)
	}
	if op == "+" && args[1].typ().Kind == udf.Date && isIntegral(args[0].typ()) {
		return builtins["date_add"].build(a, "date_add", []node{args[1], args[0]})
	}
	return nil, &UnsupportedFunctionError{Name: "date " + op + " " + args[1].typ().String()}
}

func registerDates() {
	reg("date_add date_sub", 2, 2, func(a *analyzer, name string, args []node) (node, error) {
		d, err := a.dateArg(name, args[0])
		if err != nil {
			return nil, err
		}
		if !isIntegral(args[1].typ()) && !isVoid(args[1].typ()) {
			return nil, mismatch(name, args[1], "integer")
		}
		n, _ := a.cast(args[1], tInt, false, false)
		sign := int64(1)
		if name == "date_sub" {
			sign = -1
		}
		return a.fn(name, tDate, []node{d, n}, strictRow(tDate, func(v []any) (any, *RowError) {
			return int64(int32(v[0].(int64) + sign*v[1].(int64))), nil
		})), nil
	})
	reg("datediff", 2, 2, func(a *analyzer, name string, args []node) (node, error) {
		x, err := a.dateArg(name, args[0])
		if err != nil {
			return nil, err
		}
		y, err := a.dateArg(name, args[1])
		if err != nil {
			return nil, err
		}
		return a.fn(name, tInt, []node{x, y}, strictRow(tInt, func(v []any) (any, *RowError) {
			return v[0].(int64) - v[1].(int64), nil
		})), nil
	})
	part := func(names string, f func(y, m, d int, days int64) int64) {
		reg(names, 1, 1, func(a *analyzer, name string, args []node) (node, error) {
			x, err := a.dateArg(name, args[0])
			if err != nil {
				return nil, err
			}
			return a.fn(name, tInt, []node{x}, strictRow(tInt, func(v []any) (any, *RowError) {
				days := v[0].(int64)
				y, m, d := civil(days)
				return f(y, m, d, days), nil
			})), nil
		})
	}
	part("year", func(y, m, d int, _ int64) int64 { return int64(y) })
	part("month", func(y, m, d int, _ int64) int64 { return int64(m) })
	part("day dayofmonth", func(y, m, d int, _ int64) int64 { return int64(d) })
	part("quarter", func(y, m, d int, _ int64) int64 { return int64((m-1)/3 + 1) })
	part("dayofyear", func(y, m, d int, days int64) int64 { return days - daysFromCivil(y, 1, 1) + 1 })
	// dayofweek: 1 = Sunday ... 7 = Saturday; 1970-01-01 was a Thursday (5).
	part("dayofweek", func(y, m, d int, days int64) int64 { return ((days+4)%7+7)%7 + 1 })
	reg("last_day", 1, 1, func(a *analyzer, name string, args []node) (node, error) {
		x, err := a.dateArg(name, args[0])
		if err != nil {
			return nil, err
		}
		return a.fn(name, tDate, []node{x}, strictRow(tDate, func(v []any) (any, *RowError) {
			y, m, _ := civil(v[0].(int64))
			return daysFromCivil(y, m, daysInMonth(y, m)), nil
		})), nil
	})
	reg("add_months", 2, 2, func(a *analyzer, name string, args []node) (node, error) {
		x, err := a.dateArg(name, args[0])
		if err != nil {
			return nil, err
		}
		if !isIntegral(args[1].typ()) {
			return nil, mismatch(name, args[1], "integer")
		}
		n, _ := a.cast(args[1], tInt, false, false)
		return a.fn(name, tDate, []node{x, n}, strictRow(tDate, func(v []any) (any, *RowError) {
			// java.time LocalDate.plusMonths: clamp the day to the month's end.
			y, m, d := civil(v[0].(int64))
			total := int64(y)*12 + int64(m-1) + v[1].(int64)
			ny, nm := int(total/12), int(total%12)+1
			if total < 0 && total%12 != 0 {
				ny, nm = int(total/12)-1, int(total%12)+13
			}
			days := daysFromCivil(ny, nm, min(d, daysInMonth(ny, nm)))
			if days != int64(int32(days)) {
				// Spark's Math.toIntExact of the epoch day: ARITHMETIC_OVERFLOW
				// in both modes (checked: add_months(DATE '2000-01-01',
				// 214748364) in Spark 4.1.1).
				return nil, rowErr(classArithmetic, "ARITHMETIC_OVERFLOW", "integer overflow. If necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass this error.")
			}
			return days, nil
		})), nil
	})
	for _, n := range []string{"current_date", "current_timestamp", "now", "curdate", "localtimestamp", "rand", "random", "randn", "uuid", "current_timezone"} {
		delete(builtins, n) // nondeterministic: never supported
	}
	_ = time.UTC
}

func registerArrays() {
	reg("array", 0, -1, func(a *analyzer, name string, args []node) (node, error) {
		args, t, err := a.common(name, args)
		if err != nil {
			return nil, err
		}
		at := udf.ArrayOf(t)
		return a.fn(name, at, args, anyRow(at, func(v []any) (any, *RowError) {
			return append([]any{}, v...), nil
		})), nil
	})
	reg("size cardinality", 1, 1, func(a *analyzer, name string, args []node) (node, error) {
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
	})
	reg("element_at", 2, 2, func(a *analyzer, name string, args []node) (node, error) {
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
	})
	reg("[]", 2, 2, func(a *analyzer, name string, args []node) (node, error) {
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
	})
	reg("array_contains", 2, 2, func(a *analyzer, name string, args []node) (node, error) {
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
	})
	regRaw("transform filter exists forall", 2, 2, func(a *analyzer, e *callAST) (node, error) {
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
	})
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
		inner := &ctx{n: len(elems), ansi: c.ansi, loc: c.loc}
		for _, col := range c.cols {
			inner.cols = append(inner.cols, col.gather(owner))
		}
		inner.vars = make([]*vec, max(slot+1, idxSlot+1, len(c.vars)))
		for k, v := range c.vars {
			if v != nil {
				inner.vars[k] = v.gather(owner)
			}
		}
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
