package engine

import (
	"bytes"
	"math"
	"math/big"

	"github.com/udfx/udfx/harness/udf"
)

// compareF64 orders doubles as Spark's SQLOrderingUtil.compareDoubles:
// NaN equals NaN and is greater than any other value; -0.0 equals 0.0.
func compareF64(x, y float64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	case x == y:
		return 0
	}
	xn, yn := math.IsNaN(x), math.IsNaN(y)
	switch {
	case xn && yn:
		return 0
	case xn:
		return 1
	}
	return -1
}

// compareVals orders two non-null values of the same type.
func compareVals(t *udf.Type, x, y any) int {
	switch x := x.(type) {
	case bool:
		yb := y.(bool)
		switch {
		case x == yb:
			return 0
		case !x:
			return -1
		}
		return 1
	case int64:
		yv := y.(int64)
		switch {
		case x < yv:
			return -1
		case x > yv:
			return 1
		}
		return 0
	case float64:
		return compareF64(x, y.(float64))
	case float32:
		return compareF64(float64(x), float64(y.(float32)))
	case *big.Int:
		return x.Cmp(y.(*big.Int))
	case string:
		// UTF8String compares bytes unsigned, as Go strings do.
		ys := y.(string)
		switch {
		case x < ys:
			return -1
		case x > ys:
			return 1
		}
		return 0
	case []byte:
		return bytes.Compare(x, y.([]byte))
	case []any:
		ya := y.([]any)
		for i := 0; i < len(x) && i < len(ya); i++ {
			a, b := x[i], ya[i]
			switch {
			case a == nil && b == nil:
				continue
			case a == nil:
				return -1
			case b == nil:
				return 1
			}
			if c := compareVals(t.Elem, a, b); c != 0 {
				return c
			}
		}
		return len(x) - len(ya)
	}
	return 0
}

func cmpResult(op string, c int) bool {
	switch op {
	case "=", "<=>":
		return c == 0
	case "!=":
		return c != 0
	case "<":
		return c < 0
	case "<=":
		return c <= 0
	case ">":
		return c > 0
	}
	return c >= 0
}

// comparison builds = != < <= > >= (strict) and <=> (null-safe).
func comparison(op string) func(c *ctx, f *fnNode) (*vec, error) {
	return func(c *ctx, f *fnNode) (*vec, error) {
		args, err := f.evalArgs(c)
		if err != nil {
			return nil, err
		}
		x, y := args[0], args[1]
		t := f.args[0].typ()
		if op != "<=>" && x.errs == nil && y.errs == nil {
			if out := cmpFast(op, x, y, c.n); out != nil {
				return out, nil
			}
		}
		out := newVec(tBool, c.n)
		for i := 0; i < c.n; i++ {
			if e := x.errAt(i); e != nil {
				out.setErr(i, e)
				continue
			}
			xv := x.get(i)
			if xv == nil && op != "<=>" {
				out.setNull(i)
				continue
			}
			if e := y.errAt(i); e != nil {
				out.setErr(i, e)
				continue
			}
			yv := y.get(i)
			switch {
			case op == "<=>" && (xv == nil || yv == nil):
				out.b[i] = xv == nil && yv == nil
			case yv == nil:
				out.setNull(i)
			default:
				out.b[i] = cmpResult(op, compareVals(t, xv, yv))
			}
		}
		return out, nil
	}
}

// cmpFast compares double or integral vectors slice by slice.
func cmpFast(op string, x, y *vec, n int) *vec {
	if x.konst && y.konst {
		return nil
	}
	out := &vec{t: tBool, n: n, b: make([]bool, n)}
	o := out.b
	switch {
	case x.f64 != nil && y.f64 != nil:
		for i := range o {
			o[i] = cmpResult(op, compareF64(x.f64[x.ix(i)], y.f64[y.ix(i)]))
		}
	case x.i64 != nil && y.i64 != nil:
		for i := range o {
			a, b := x.i64[x.ix(i)], y.i64[y.ix(i)]
			c := 0
			if a < b {
				c = -1
			} else if a > b {
				c = 1
			}
			o[i] = cmpResult(op, c)
		}
	default:
		return nil
	}
	out.null = orNulls(x, y, n)
	return out
}

// logic evaluates AND / OR with three-valued logic. The right side counts
// only where the left does not decide the result, as in Spark, where it
// is not evaluated then: false AND <error> is false.
func logic(isAnd bool) func(c *ctx, f *fnNode) (*vec, error) {
	return func(c *ctx, f *fnNode) (*vec, error) {
		args, err := f.evalArgs(c)
		if err != nil {
			return nil, err
		}
		x, y := args[0], args[1]
		out := newVec(tBool, c.n)
		for i := 0; i < c.n; i++ {
			if e := x.errAt(i); e != nil {
				out.setErr(i, e)
				continue
			}
			xv := x.get(i)
			if xv != nil && xv.(bool) != isAnd {
				out.b[i] = !isAnd
				continue
			}
			if e := y.errAt(i); e != nil {
				out.setErr(i, e)
				continue
			}
			yv := y.get(i)
			switch {
			case yv != nil && yv.(bool) != isAnd:
				out.b[i] = !isAnd
			case xv == nil || yv == nil:
				out.setNull(i)
			default:
				out.b[i] = isAnd
			}
		}
		return out, nil
	}
}

// caseNode is CASE WHEN (and IF, NVL2 ...): conditions are looked at in
// order, and only the chosen branch's value (or error) reaches a row.
type caseNode struct {
	t     *udf.Type
	conds []node
	vals  []node
	els   node
}

func newCase(t *udf.Type, conds, vals []node, els node) *caseNode {
	return &caseNode{t: t, conds: conds, vals: vals, els: els}
}

func (cn *caseNode) typ() *udf.Type { return cn.t }

// eval evaluates each branch on the rows that choose it only, as Spark
// does: a branch's errors never reach other rows, and an expensive branch
// for rare rows (a per-code-point repair) costs only those rows.
func (cn *caseNode) eval(c *ctx) (*vec, error) {
	out := newVec(cn.t, c.n)
	done := make([]bool, c.n)
	for k, cond := range cn.conds {
		cv, err := cond.eval(c)
		if err != nil {
			return nil, err
		}
		var chosen []int
		for i := 0; i < c.n; i++ {
			if done[i] {
				continue
			}
			if e := cv.errAt(i); e != nil {
				out.setErr(i, e)
				done[i] = true
				continue
			}
			if b := cv.get(i); b != nil && b.(bool) {
				chosen = append(chosen, i)
				done[i] = true
			}
		}
		if err := evalOnRows(c, cn.vals[k], chosen, out); err != nil {
			return nil, err
		}
	}
	var rest []int
	for i := 0; i < c.n; i++ {
		if !done[i] {
			rest = append(rest, i)
		}
	}
	if err := evalOnRows(c, cn.els, rest, out); err != nil {
		return nil, err
	}
	return out, nil
}

// evalOnRows evaluates n on rows idx of c and copies the results into
// those rows of out.
func evalOnRows(c *ctx, n node, idx []int, out *vec) error {
	if len(idx) == 0 {
		return nil
	}
	sub := c
	if len(idx) < c.n {
		sub = innerCtx(c, idx, len(c.vars))
	}
	v, err := n.eval(sub)
	if err != nil {
		return err
	}
	for j, i := range idx {
		out.copyRow(i, v, j)
	}
	return nil
}

// coalesce returns the first non-NULL argument, stopping at an error.
func coalesce(t *udf.Type) func(c *ctx, f *fnNode) (*vec, error) {
	return func(c *ctx, f *fnNode) (*vec, error) {
		args, err := f.evalArgs(c)
		if err != nil {
			return nil, err
		}
		out := newVec(t, c.n)
	rows:
		for i := 0; i < c.n; i++ {
			for _, a := range args {
				if e := a.errAt(i); e != nil {
					out.setErr(i, e)
					continue rows
				}
				if !a.isNull(i) {
					out.copyRow(i, a, i)
					continue rows
				}
			}
			out.setNull(i)
		}
		return out, nil
	}
}

// inList is x IN (a, b, ...): true on a match; else NULL when x or any
// item looked at is NULL; else false. Items after a match are not looked
// at (their errors do not count).
func inList(c *ctx, f *fnNode) (*vec, error) {
	args, err := f.evalArgs(c)
	if err != nil {
		return nil, err
	}
	t := f.args[0].typ()
	out := newVec(tBool, c.n)
rows:
	for i := 0; i < c.n; i++ {
		if e := args[0].errAt(i); e != nil {
			out.setErr(i, e)
			continue
		}
		x := args[0].get(i)
		if x == nil {
			out.setNull(i)
			continue
		}
		sawNull := false
		for _, a := range args[1:] {
			if e := a.errAt(i); e != nil {
				out.setErr(i, e)
				continue rows
			}
			y := a.get(i)
			if y == nil {
				sawNull = true
				continue
			}
			if compareVals(t, x, y) == 0 {
				out.b[i] = true
				continue rows
			}
		}
		if sawNull {
			out.setNull(i)
		}
	}
	return out, nil
}
