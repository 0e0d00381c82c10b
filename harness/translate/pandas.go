package translate

import (
	"math"
	"strconv"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/udfx/udfx/harness/translate/ir"
	"github.com/udfx/udfx/harness/udf"
)

// A series-to-series pandas_udf over DOUBLE columns sees each column as a
// float64 Series in which Spark's Arrow conversion has made every NULL a
// NaN, and Spark stores every NaN of the Series it returns as NULL (the
// serializer masks isnull()). So the same body text means something else
// than per-row Python: s / 100.0 is NULL for NaN, and s >= 60.0 is false,
// never NULL, for a NULL score. pandasFunction translates the elementwise
// float64 subset exactly:
//
//   - a value of the body is a SQL DOUBLE in which NULL stands for NaN,
//     which IEEE arithmetic (+ - *, / by a non-zero constant, negation,
//     abs) keeps: NaN in, NaN out, as NULL in, NULL out;
//   - a comparison is false where an operand is NaN or NULL (!= true),
//     the Series' answer, and never NULL;
//   - the result is NULL where the Series holds NaN.
//
// Integer columns are declined: Arrow gives pandas an int64 Series for a
// batch without NULL and a float64 one for a batch with one, so their
// arithmetic depends on how Spark cut the batches.
type pdValue struct {
	e ir.Expr
	// nan: the value may be NaN or NULL (standing for NaN). A boolean
	// is never NULL.
	nan bool
	// series: the value depends on a column (a scalar result is not a
	// Series, and pandas_udf rejects it).
	series bool
	// integral: a constant that is a Python int (its negation is +0.0
	// where a float's is -0.0).
	integral bool
	// array: a numpy array (np.where's), not a Series: it has no pandas
	// methods, and a pandas_udf that returns one fails.
	array bool
}

// pdConst is a constant's value.
func pdConst(v *pdValue) (float64, bool) {
	if v == nil || v.series {
		return 0, false
	}
	l, ok := v.e.(*ir.Lit)
	if !ok {
		return 0, false
	}
	f, ok := l.Value.(float64)
	return f, ok
}

func (t *tr) pandasFunction(body *sitter.Node) ir.Expr {
	if t.u.PandasFlavor != udf.PandasSeriesToSeries {
		t.decline(body, "pandas_udf", "only a series-to-series pandas_udf is read as SQL; the vectorized-python target keeps this "+string(t.u.PandasFlavor)+" one a pandas_udf")
		return nil
	}
	if t.u.Return == nil || (t.u.Return.Kind != udf.Double && t.u.Return.Kind != udf.Boolean) {
		t.decline(body, "pandas_udf returning "+typeString(t.u.Return), "only double and boolean results are translated from a pandas_udf (Arrow converts other Series to the declared type in ways not modelled)")
		return nil
	}
	e := map[string]pdValue{}
	for _, p := range t.u.Params {
		if p.Type == nil || p.Type.Kind != udf.Double {
			why := "only double columns are translated"
			if p.Type != nil && ir.IsIntegral(p.Type) {
				why += ": an integer column reaches pandas as int64 in a batch without NULL and as float64 in one with a NULL, so its arithmetic depends on the batches"
			}
			t.decline(body, "pandas_udf parameter "+p.Name+" of type "+typeString(p.Type), why)
			return nil
		}
		e[p.Name] = pdValue{e: &ir.Col{Name: p.Name, T: tDouble}, nan: true, series: true}
	}
	b := body.ChildByFieldName("body")
	if b == nil {
		t.decline(body, "pandas_udf", "no body")
		return nil
	}
	if ps := body.ChildByFieldName("parameters"); ps != nil {
		for _, p := range namedNonComment(ps) {
			name := p
			if n := p.ChildByFieldName("name"); n != nil {
				name = n
			} else if p.Kind() == "typed_parameter" && p.NamedChildCount() > 0 {
				name = p.NamedChild(0)
			}
			if _, ok := e[t.text(name)]; !ok {
				// A default, *args: not a column, and it hides a
				// module constant of the same name.
				t.decline(p, "pandas_udf parameter "+t.text(p), "only parameters Spark passes a column to are translated")
				return nil
			}
		}
	}
	var v *pdValue
	if body.Kind() == "lambda" {
		v = t.pdExpr(b, e)
	} else {
		v = t.pdStmts(namedNonComment(b), e)
	}
	if v == nil {
		return nil
	}
	if !v.series || v.array {
		t.decline(body, "pandas_udf returning a scalar or an array", "a pandas_udf must return a pandas Series (pd.Series(np.where(…)) is one); Spark fails the query")
		return nil
	}
	switch t.u.Return.Kind {
	case udf.Double:
		if !ir.IsDouble(v.e.Type()) {
			t.decline(body, "pandas_udf returning "+typeString(v.e.Type())+" for double", "Arrow's conversion of that Series to the declared type is not modelled")
			return nil
		}
		if !v.nan {
			return v.e
		}
		// Spark stores the Series' NaN as NULL.
		return &ir.Call{Fn: ir.NaNToNull, Args: []ir.Expr{v.e}, T: tDouble}
	default:
		if v.e.Type().Kind != udf.Boolean {
			t.decline(body, "pandas_udf returning "+typeString(v.e.Type())+" for boolean", "Arrow's conversion of that Series to the declared type is not modelled")
			return nil
		}
		return v.e
	}
}

func typeString(ty *udf.Type) string {
	if ty == nil {
		return "unknown type"
	}
	return ty.String()
}

// pdStmts reads a docstring, assignments of names and one return.
func (t *tr) pdStmts(stmts []*sitter.Node, e map[string]pdValue) *pdValue {
	for i, s := range stmts {
		switch s.Kind() {
		case "return_statement":
			if s.NamedChildCount() == 0 {
				t.decline(s, "pandas_udf returning None", "Spark fails the query")
				return nil
			}
			return t.pdExpr(s.NamedChild(0), e)
		case "pass_statement":
			continue
		case "expression_statement":
			x := s.NamedChild(0)
			if x.Kind() == "string" && i == 0 {
				continue // the docstring
			}
			if x.Kind() == "assignment" && x.ChildByFieldName("left").Kind() == "identifier" && x.ChildByFieldName("type") == nil {
				v := t.pdExpr(x.ChildByFieldName("right"), e)
				if v == nil {
					return nil
				}
				next := make(map[string]pdValue, len(e)+1)
				for k, w := range e {
					next[k] = w
				}
				next[t.text(x.ChildByFieldName("left"))] = *v
				e = next
				continue
			}
		}
		t.decline(s, "Python "+s.Kind()+" in a pandas_udf", "only assignments of names and one return are read as SQL")
		return nil
	}
	t.decline(nil, "pandas_udf without a return", "it returns None, and Spark fails the query")
	return nil
}

func (t *tr) pdExpr(n *sitter.Node, e map[string]pdValue) *pdValue {
	switch n.Kind() {
	case "parenthesized_expression":
		if n.NamedChildCount() == 1 {
			return t.pdExpr(n.NamedChild(0), e)
		}
	case "identifier":
		if v, ok := e[t.text(n)]; ok {
			return &v
		}
		b := t.constant(n)
		if b == nil {
			return nil
		}
		return t.pdConstant(n, b.e)
	case "integer", "float":
		return t.pdConstant(n, nil)
	case "unary_operator":
		op := t.text(n.ChildByFieldName("operator"))
		x := t.pdExpr(n.ChildByFieldName("argument"), e)
		if x == nil {
			return nil
		}
		switch {
		case (op == "-" || op == "+") && ir.IsDouble(x.e.Type()):
			if op == "+" {
				return x
			}
			if c, ok := pdConst(x); ok {
				// Python negates the number first: -0 is the int 0.
				if x.integral && c == 0 {
					return x
				}
				return &pdValue{e: &ir.Lit{T: tDouble, Value: -c}, integral: x.integral}
			}
			return &pdValue{e: &ir.Unary{Op: ir.DoubleNeg, X: x.e, T: tDouble}, nan: x.nan, series: x.series, array: x.array}
		case op == "~" && x.e.Type().Kind == udf.Boolean && x.series:
			return &pdValue{e: &ir.Unary{Op: ir.Not, X: x.e, T: tBool}, series: true, array: x.array}
		}
		t.decline(n, "pandas operator "+op+" on "+typeString(x.e.Type()), "not translated")
		return nil
	case "binary_operator":
		return t.pdBinary(n, e)
	case "comparison_operator":
		return t.pdComparison(n, e)
	case "call":
		return t.pdCall(n, e)
	}
	t.decline(n, "Python "+n.Kind()+" in a pandas_udf", "not translated")
	return nil
}

// pdConstant is a number literal (e nil: read n) or a module constant's
// value, as the float64 numpy makes of it next to a Series.
func (t *tr) pdConstant(n *sitter.Node, e ir.Expr) *pdValue {
	var v float64
	var integral bool
	switch {
	case e == nil && n.Kind() == "float":
		f, err := strconv.ParseFloat(strings.ReplaceAll(t.text(n), "_", ""), 64)
		if err != nil || math.IsInf(f, 0) {
			t.decline(n, "float literal "+t.text(n), "not a finite double")
			return nil
		}
		v = f
	case e == nil:
		i, err := strconv.ParseInt(strings.ReplaceAll(t.text(n), "_", ""), 0, 64)
		if err != nil || i <= -(1<<53) || i >= 1<<53 {
			t.decline(n, "int literal "+t.text(n), "beyond 2**53 numpy's float64 of it is rounded; not translated")
			return nil
		}
		return &pdValue{e: &ir.Lit{T: tDouble, Value: float64(i)}, integral: true}
	default:
		l, ok := e.(*ir.Lit)
		var x any
		if ok {
			x = l.Value
		}
		switch x := x.(type) {
		case float64:
			v = x
		case int64:
			if x <= -(1<<53) || x >= 1<<53 {
				ok = false
			}
			v, integral = float64(x), true
		default:
			ok = false
		}
		if !ok || math.IsInf(v, 0) || math.IsNaN(v) {
			t.decline(n, "constant "+t.text(n)+" in a pandas_udf", "only finite numbers are read as SQL")
			return nil
		}
	}
	return &pdValue{e: &ir.Lit{T: tDouble, Value: v}, integral: integral}
}

func (t *tr) pdBinary(n *sitter.Node, e map[string]pdValue) *pdValue {
	op := t.text(n.ChildByFieldName("operator"))
	l := t.pdExpr(n.ChildByFieldName("left"), e)
	if l == nil {
		return nil
	}
	r := t.pdExpr(n.ChildByFieldName("right"), e)
	if r == nil {
		return nil
	}
	if !l.series && !r.series {
		// Python computes it on its own numbers first (an int product
		// stays exact), not on float64.
		t.decline(n, "constant arithmetic in a pandas_udf", "not translated; write the constant's value")
		return nil
	}
	lb, rb := l.e.Type().Kind == udf.Boolean, r.e.Type().Kind == udf.Boolean
	switch {
	case (op == "&" || op == "|") && lb && rb:
		// Elementwise on two Series of bool: nothing to short-circuit.
		o := ir.And
		if op == "|" {
			o = ir.Or
		}
		return &pdValue{e: &ir.Binary{Op: o, L: l.e, R: r.e, T: tBool}, series: true, array: pdArray(l, r)}
	case lb || rb:
		t.decline(n, "pandas operator "+op+" on "+typeString(l.e.Type())+" and "+typeString(r.e.Type()), "not translated")
		return nil
	}
	var o ir.Op
	switch op {
	case "+":
		o = ir.DoubleAdd
	case "-":
		o = ir.DoubleSub
	case "*":
		o = ir.DoubleMul
	case "/":
		if !ir.NonZeroConst(r.e) {
			// numpy gives ±inf or NaN, Spark NULL or DIVIDE_BY_ZERO.
			t.decline(n, "pandas / by "+t.text(n.ChildByFieldName("right")), "only division by a non-zero constant is translated: for a zero divisor numpy gives ±inf or NaN where Spark gives NULL or fails")
			return nil
		}
		o = ir.DoubleDivNonZero
	default:
		t.decline(n, "pandas operator "+op, "not translated")
		return nil
	}
	// NaN even from numbers: inf - inf, inf * 0.
	return &pdValue{e: &ir.Binary{Op: o, L: l.e, R: r.e, T: tDouble}, nan: true, series: true, array: pdArray(l, r)}
}

var pdOps = map[string]ir.Op{"==": ir.Eq, "!=": ir.Ne, "<": ir.Lt, "<=": ir.Le, ">": ir.Gt, ">=": ir.Ge}

func (t *tr) pdComparison(n *sitter.Node, e map[string]pdValue) *pdValue {
	ops := n.ChildrenByFieldName("operators", n.Walk())
	if len(ops) != 1 || n.NamedChildCount() != 2 {
		// 0 < s < 1 asks for a Series' truth value: ValueError.
		t.decline(n, "chained comparison on a Series", "pandas raises ValueError (the truth value of a Series is ambiguous)")
		return nil
	}
	op, ok := pdOps[t.text(&ops[0])]
	if !ok {
		t.decline(n, "pandas comparison "+t.text(&ops[0]), "not translated")
		return nil
	}
	l := t.pdExpr(n.NamedChild(0), e)
	if l == nil {
		return nil
	}
	r := t.pdExpr(n.NamedChild(1), e)
	if r == nil {
		return nil
	}
	if !ir.IsDouble(l.e.Type()) || !ir.IsDouble(r.e.Type()) {
		t.decline(n, "pandas comparison of "+typeString(l.e.Type())+" and "+typeString(r.e.Type()), "only comparisons of doubles are translated")
		return nil
	}
	if !l.series && !r.series {
		t.decline(n, "constant comparison in a pandas_udf", "not translated")
		return nil
	}
	return &pdValue{e: pdCompare(op, l, r), series: true, array: pdArray(l, r)}
}

// pdArray tells whether an operator on l and r gives a numpy array: a
// Series operand makes it a Series.
func pdArray(l, r *pdValue) bool {
	return !(l.series && !l.array) && !(r.series && !r.array)
}

// pdCompare is a comparison as a Series of float64 answers it: false
// where an operand is NaN (ir's comparisons) or NULL, != true there.
func pdCompare(op ir.Op, l, r *pdValue) ir.Expr {
	var c ir.Expr = &ir.Binary{Op: op, L: l.e, R: r.e, T: tBool}
	var missing ir.Expr
	for _, x := range []*pdValue{l, r} {
		if !x.nan {
			continue
		}
		var m ir.Expr = &ir.IsNull{X: x.e}
		if missing != nil {
			m = &ir.Binary{Op: ir.Or, L: missing, R: m, T: tBool}
		}
		missing = m
	}
	if missing == nil {
		return c
	}
	return &ir.If{Cond: missing, Then: &ir.Lit{T: tBool, Value: op == ir.Ne}, Else: c}
}

// pdIsNA is Series.isna(): NULL (a NULL input) or NaN.
func pdIsNA(x ir.Expr) ir.Expr {
	return &ir.Binary{Op: ir.Or, L: &ir.IsNull{X: x}, R: &ir.Call{Fn: ir.IsNaN, Args: []ir.Expr{x}, T: tBool}, T: tBool}
}

func (t *tr) pdCall(n *sitter.Node, e map[string]pdValue) *pdValue {
	fn := n.ChildByFieldName("function")
	args := n.ChildByFieldName("arguments")
	if args == nil || args.Kind() != "argument_list" {
		t.decline(n, "call "+t.text(fn)+" in a pandas_udf", "not translated")
		return nil
	}
	var pos []*sitter.Node
	kw := map[string]*sitter.Node{}
	for _, a := range namedNonComment(args) {
		if a.Kind() == "keyword_argument" {
			kw[t.text(a.ChildByFieldName("name"))] = a.ChildByFieldName("value")
			continue
		}
		if len(kw) > 0 || a.Kind() == "list_splat" || a.Kind() == "dictionary_splat" {
			t.decline(a, "argument "+t.text(a), "not translated")
			return nil
		}
		pos = append(pos, a)
	}
	if fn.Kind() == "attribute" && fn.ChildByFieldName("object").Kind() == "identifier" {
		if v, done := t.pdModuleCall(n, t.text(fn.ChildByFieldName("object")), t.text(fn.ChildByFieldName("attribute")), pos, kw, e); done {
			return v
		}
	}
	var recv *pdValue
	var name string
	switch fn.Kind() {
	case "identifier":
		name = t.text(fn)
		if name != "abs" || len(pos) != 1 || len(kw) > 0 {
			break
		}
		if _, local := e["abs"]; local {
			t.decline(fn, "abs", "a local named abs hides the builtin")
			return nil
		}
		if why, _ := t.pyShadowed("abs", nil); why != "" {
			t.decline(fn, "abs", why)
			return nil
		}
		if recv = t.pdExpr(pos[0], e); recv == nil {
			return nil
		}
		pos = nil
	case "attribute":
		name = t.text(fn.ChildByFieldName("attribute"))
		if recv = t.pdExpr(fn.ChildByFieldName("object"), e); recv == nil {
			return nil
		}
		if !recv.series || recv.array || !ir.IsDouble(recv.e.Type()) {
			t.decline(n, "Series."+name+" on "+typeString(recv.e.Type()), "only methods of double Series are translated")
			return nil
		}
	}
	if recv == nil {
		t.decline(n, "call "+t.text(fn)+" in a pandas_udf", "only abs(s), s.abs(), s.fillna(c), s.clip(lo, hi), s.isna() and s.notna() are translated")
		return nil
	}
	arg := func(i int, key string) (*pdValue, bool) {
		var a *sitter.Node
		if i < len(pos) {
			a = pos[i]
		} else if a = kw[key]; a == nil {
			return nil, true
		}
		delete(kw, key)
		if a.Kind() == "none" {
			return nil, true
		}
		v := t.pdExpr(a, e)
		if v == nil {
			return nil, false
		}
		if v.series || !ir.IsDouble(v.e.Type()) {
			t.decline(a, "argument "+t.text(a)+" of "+name, "only a number constant is translated")
			return nil, false
		}
		return v, true
	}
	var out *pdValue
	switch {
	case name == "abs" && len(pos) == 0 && len(kw) == 0:
		out = &pdValue{e: &ir.Call{Fn: ir.AbsDouble, Args: []ir.Expr{recv.e}, T: tDouble}, nan: recv.nan, series: true, array: recv.array}
	case (name == "isna" || name == "isnull" || name == "notna" || name == "notnull") && len(pos) == 0 && len(kw) == 0:
		c := ir.Expr(&ir.Call{Fn: ir.IsNaN, Args: []ir.Expr{recv.e}, T: tBool})
		if recv.nan {
			c = pdIsNA(recv.e)
		}
		if strings.HasPrefix(name, "not") {
			c = &ir.Unary{Op: ir.Not, X: c, T: tBool}
		}
		out = &pdValue{e: c, series: true}
	case name == "fillna" && len(pos) <= 1:
		v, ok := arg(0, "value")
		if !ok {
			return nil
		}
		if v == nil || len(kw) > 0 {
			break
		}
		if !recv.nan {
			return recv
		}
		out = &pdValue{e: &ir.If{Cond: pdIsNA(recv.e), Then: v.e, Else: recv.e}, series: true}
	case name == "clip" && len(pos) <= 2:
		lo, ok := arg(0, "lower")
		if !ok {
			return nil
		}
		hi, ok := arg(1, "upper")
		if !ok {
			return nil
		}
		if len(kw) > 0 {
			break
		}
		l, lok := pdConst(lo)
		h, hok := pdConst(hi)
		if lok && hok && l > h {
			// pandas swaps such bounds (checked with pandas 2.3.3).
			t.decline(n, "Series.clip with lower above upper", "pandas swaps the bounds; write them in order")
			return nil
		}
		// pandas keeps NaN and replaces what is below lower or above
		// upper.
		x := recv.e
		if lo != nil {
			x = &ir.If{Cond: pdCompare(ir.Lt, recv, lo), Then: lo.e, Else: x}
		}
		if hi != nil {
			x = &ir.If{Cond: pdCompare(ir.Gt, recv, hi), Then: hi.e, Else: x}
		}
		out = &pdValue{e: x, nan: recv.nan, series: true}
	}
	if out == nil {
		t.decline(n, "Series."+name, "only abs(), fillna(c), clip(lo, hi), isna() and notna() are translated")
		return nil
	}
	return out
}

// pdModuleCall reads np.where(c, a, b), np.abs(x) and pd.Series(x) where
// the file binds np to numpy and pd to pandas; done is false for a call
// that is not one of them.
func (t *tr) pdModuleCall(n *sitter.Node, local, name string, pos []*sitter.Node, kw map[string]*sitter.Node, e map[string]pdValue) (v *pdValue, done bool) {
	if _, shadowed := e[local]; shadowed {
		return nil, false
	}
	args := func(k int) []*pdValue {
		if len(pos) != k || len(kw) > 0 {
			t.decline(n, local+"."+name+" with these arguments", "not translated")
			return nil
		}
		out := make([]*pdValue, k)
		for i, a := range pos {
			if out[i] = t.pdExpr(a, e); out[i] == nil {
				return nil
			}
		}
		return out
	}
	switch {
	case t.pyModuleBound(local, "numpy") && name == "where":
		a := args(3)
		if a == nil {
			return nil, true
		}
		c, x, y := a[0], a[1], a[2]
		if c.e.Type().Kind != udf.Boolean || !c.series || !ir.IsDouble(x.e.Type()) || !ir.IsDouble(y.e.Type()) {
			t.decline(n, "np.where of "+typeString(c.e.Type())+", "+typeString(x.e.Type())+" and "+typeString(y.e.Type()), "only a boolean Series choosing between doubles is translated")
			return nil, true
		}
		// Elementwise: both sides are computed, neither raises.
		return &pdValue{e: &ir.If{Cond: c.e, Then: x.e, Else: y.e}, nan: x.nan || y.nan, series: true, array: true}, true
	case t.pyModuleBound(local, "numpy") && name == "abs":
		a := args(1)
		if a == nil {
			return nil, true
		}
		if !a[0].series || !ir.IsDouble(a[0].e.Type()) {
			t.decline(n, "np.abs of "+typeString(a[0].e.Type()), "only a double Series is translated")
			return nil, true
		}
		return &pdValue{e: &ir.Call{Fn: ir.AbsDouble, Args: []ir.Expr{a[0].e}, T: tDouble}, nan: a[0].nan, series: true, array: a[0].array}, true
	case t.pyModuleBound(local, "pandas") && name == "Series":
		a := args(1)
		if a == nil {
			return nil, true
		}
		if !a[0].series {
			t.decline(n, "pd.Series of a scalar", "not translated")
			return nil, true
		}
		x := *a[0]
		x.array = false
		return &x, true
	}
	return nil, false
}
