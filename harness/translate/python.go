package translate

import (
	"strconv"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/udfx/udfx/harness/translate/ir"
	"github.com/udfx/udfx/harness/udf"
)

// pythonFunction translates a def (or lambda) made a UDF. Every Python
// parameter may be None: Spark passes NULL as None.
func (t *tr) pythonFunction(n *sitter.Node, e env) ir.Expr {
	body := n.ChildByFieldName("body")
	if body == nil {
		t.decline(n, "Python "+n.Kind(), "no body")
		return nil
	}
	var b *binding
	if n.Kind() == "lambda" {
		b = t.pyExpr(body, e)
	} else {
		b = t.pyStmts(namedNonComment(body), e)
	}
	if b == nil {
		return nil
	}
	return b.e
}

func (t *tr) pyStmts(stmts []*sitter.Node, e env) *binding {
	if len(stmts) == 0 {
		// Falling off the end returns None.
		return &binding{e: &ir.Lit{}, nullable: true}
	}
	s, rest := stmts[0], stmts[1:]
	switch s.Kind() {
	case "return_statement":
		if s.NamedChildCount() == 0 {
			return &binding{e: &ir.Lit{}, nullable: true}
		}
		return t.pyExpr(s.NamedChild(0), e)
	case "pass_statement":
		return t.pyStmts(rest, e)
	case "block":
		return t.pyStmts(append(namedNonComment(s), rest...), e)
	case "expression_statement":
		x := s.NamedChild(0)
		switch {
		case x.Kind() == "string":
			// A docstring.
			return t.pyStmts(rest, e)
		case x.Kind() == "assignment" && x.ChildByFieldName("left").Kind() == "identifier" && x.ChildByFieldName("type") == nil:
			b := t.pyExpr(x.ChildByFieldName("right"), e)
			if b == nil {
				return nil
			}
			return t.pyStmts(rest, e.with(t.text(x.ChildByFieldName("left")), *b))
		}
	case "if_statement":
		cond, te, ee := t.pyCond(s.ChildByFieldName("condition"), e)
		if cond == nil {
			return nil
		}
		th := t.pyStmts(append(namedNonComment(s.ChildByFieldName("consequence")), rest...), te)
		alts := s.ChildrenByFieldName("alternative", s.Walk())
		var el *binding
		switch {
		case len(alts) == 0:
			el = t.pyStmts(rest, ee)
		case alts[0].Kind() == "else_clause":
			el = t.pyStmts(append(namedNonComment(alts[0].ChildByFieldName("body")), rest...), ee)
		default:
			t.decline(&alts[0], "elif", "not translated; write nested if/else")
			return nil
		}
		return t.ifOf(s, cond, th, el)
	}
	t.decline(s, "Python "+s.Kind(), "not translated")
	return nil
}

// pyCond translates a condition, refining what `x is None` tells.
func (t *tr) pyCond(n *sitter.Node, e env) (ir.Expr, env, env) {
	for n.Kind() == "parenthesized_expression" && n.NamedChildCount() == 1 {
		n = n.NamedChild(0)
	}
	if n.Kind() == "boolean_operator" {
		return t.logicCond(n, t.text(n.ChildByFieldName("operator")) == "or", e, t.pyCond)
	}
	if n.Kind() == "comparison_operator" && n.NamedChildCount() == 2 {
		l, r := n.NamedChild(0), n.NamedChild(1)
		op := strings.Join(strings.Fields(t.text(n)[l.EndByte()-n.StartByte():r.StartByte()-n.StartByte()]), " ")
		if (op == "is" || op == "is not") && r.Kind() == "none" && l.Kind() == "identifier" {
			name := t.text(l)
			b, ok := e[name]
			if !ok {
				t.decline(l, "unknown name "+name, "not a parameter or local")
				return nil, nil, nil
			}
			isNone := e.with(name, binding{e: &ir.Lit{T: b.e.Type()}, nullable: true})
			notNone := e.with(name, binding{e: b.e})
			var cond ir.Expr = &ir.IsNull{X: b.e}
			if !b.nullable {
				cond = &ir.Lit{T: tBool, Value: false}
			}
			if op == "is" {
				return cond, isNone, notNone
			}
			return &ir.Unary{Op: ir.Not, X: cond, T: tBool}, notNone, isNone
		}
		c := t.pyComparison(n, op, e)
		if c == nil {
			return nil, nil, nil
		}
		return c, e, e
	}
	c := t.pyExpr(n, e)
	if c == nil {
		return nil, nil, nil
	}
	if !isBool(c.e.Type()) || c.nullable {
		t.decline(n, "a condition that is not a bool", "Python truthiness of other values is not translated")
		return nil, nil, nil
	}
	return c.e, e, e
}

// pyValue is a non-None operand of arithmetic.
func (t *tr) pyValue(n *sitter.Node, e env) ir.Expr {
	b := t.pyExpr(n, e)
	if b == nil {
		return nil
	}
	return t.unbox(n, *b)
}

func (t *tr) pyExpr(n *sitter.Node, e env) *binding {
	switch n.Kind() {
	case "parenthesized_expression":
		if n.NamedChildCount() == 1 {
			return t.pyExpr(n.NamedChild(0), e)
		}
	case "identifier":
		b, ok := e[t.text(n)]
		if !ok {
			t.decline(n, "name "+t.text(n), "not a parameter or local")
			return nil
		}
		return &b
	case "float":
		v, err := strconv.ParseFloat(strings.ReplaceAll(t.text(n), "_", ""), 64)
		if err == nil {
			return lit(&ir.Lit{T: tDouble, Value: v})
		}
	case "integer":
		v, err := strconv.ParseInt(strings.ReplaceAll(t.text(n), "_", ""), 0, 64)
		if err == nil && v > -(1<<53) && v < 1<<53 {
			// Python ints never overflow; the translator keeps them only
			// as operands next to a float, where they convert exactly.
			return lit(&ir.Lit{T: tLong, Value: v})
		}
	case "true", "false":
		return lit(&ir.Lit{T: tBool, Value: n.Kind() == "true"})
	case "none":
		return &binding{e: &ir.Lit{}, nullable: true}
	case "conditional_expression":
		// a if cond else b
		if n.NamedChildCount() == 3 {
			cond, te, ee := t.pyCond(n.NamedChild(1), e)
			if cond == nil {
				return nil
			}
			return t.ifOf(n, cond, t.pyExpr(n.NamedChild(0), te), t.pyExpr(n.NamedChild(2), ee))
		}
	case "not_operator":
		c, _, _ := t.pyCond(n.ChildByFieldName("argument"), e)
		if c == nil {
			return nil
		}
		return lit(&ir.Unary{Op: ir.Not, X: c, T: tBool})
	case "boolean_operator":
		l, _, _ := t.pyCond(n.ChildByFieldName("left"), e)
		if l == nil {
			return nil
		}
		r, _, _ := t.pyCond(n.ChildByFieldName("right"), e)
		if r == nil {
			return nil
		}
		op := ir.And
		if t.text(n.ChildByFieldName("operator")) == "or" {
			op = ir.Or
		}
		return lit(&ir.Binary{Op: op, L: l, R: r, T: tBool})
	case "unary_operator":
		x := t.pyValue(n.ChildByFieldName("argument"), e)
		if x == nil {
			return nil
		}
		if t.text(n.ChildByFieldName("operator")) == "-" && ir.IsDouble(x.Type()) {
			return lit(t.jvmNeg(n, x))
		}
	case "binary_operator":
		return t.pyBinary(n, e)
	case "comparison_operator":
		if n.NamedChildCount() != 2 {
			t.decline(n, "chained comparison", "not translated")
			return nil
		}
		c, _, _ := t.pyCond(n, e)
		return lit(c)
	case "call":
		return t.pyCall(n, e)
	}
	t.decline(n, "Python "+n.Kind(), "not translated")
	return nil
}

// pyFloats makes both operands floats: an int literal next to a float
// converts exactly; Python int values (unbounded) are declined.
func (t *tr) pyFloats(n *sitter.Node, l, r ir.Expr) (ir.Expr, ir.Expr, bool) {
	conv := func(x ir.Expr) ir.Expr {
		if ir.IsDouble(x.Type()) {
			return x
		}
		if lt, ok := x.(*ir.Lit); ok {
			if v, ok := lt.Value.(int64); ok {
				return &ir.Lit{T: tDouble, Value: float64(v)}
			}
		}
		return nil
	}
	if !ir.IsDouble(l.Type()) && !ir.IsDouble(r.Type()) {
		t.decline(n, "arithmetic on Python ints", "Python ints never overflow; only float arithmetic is translated")
		return nil, nil, false
	}
	cl, cr := conv(l), conv(r)
	if cl == nil || cr == nil {
		t.decline(n, "arithmetic mixing a Python int value and a float", "not translated")
		return nil, nil, false
	}
	return cl, cr, true
}

func (t *tr) pyBinary(n *sitter.Node, e env) *binding {
	op := t.text(n.ChildByFieldName("operator"))
	switch op {
	case "%":
		t.decline(n, "Python %", "Python's float % takes the divisor's sign and gives +0.0 or the divisor where Spark's % and pmod give -0.0 or 0.0")
		return nil
	case "//":
		t.decline(n, "Python //", "Python's floor division of floats has no exact Spark SQL form")
		return nil
	case "**":
		t.decline(n, "Python **", "CPython raises OverflowError where Spark's pow gives Infinity, and pow is not bit-exact in the engine")
		return nil
	}
	l := t.pyValue(n.ChildByFieldName("left"), e)
	if l == nil {
		return nil
	}
	r := t.pyValue(n.ChildByFieldName("right"), e)
	if r == nil {
		return nil
	}
	if l.Type().Kind == udf.String || r.Type().Kind == udf.String {
		t.decline(n, "operator "+op+" on str", "not translated")
		return nil
	}
	l, r, ok := t.pyFloats(n, l, r)
	if !ok {
		return nil
	}
	o := map[string]ir.Op{"+": ir.DoubleAdd, "-": ir.DoubleSub, "*": ir.DoubleMul, "/": ir.PyFloatDiv}[op]
	if o == "" {
		t.decline(n, "Python operator "+op, "not translated")
		return nil
	}
	return lit(&ir.Binary{Op: o, L: l, R: r, T: tDouble})
}

// pyComparison is called through pyCond for a two-operand comparison.
func (t *tr) pyComparison(n *sitter.Node, op string, e env) ir.Expr {
	l := t.pyValue(n.NamedChild(0), e)
	if l == nil {
		return nil
	}
	r := t.pyValue(n.NamedChild(1), e)
	if r == nil {
		return nil
	}
	cmp, ok := cmpOps[op]
	if !ok {
		t.decline(n, "Python comparison "+op, "not translated")
		return nil
	}
	if isBool(l.Type()) || isBool(r.Type()) || l.Type().Kind == udf.String || r.Type().Kind == udf.String {
		t.decline(n, "comparison of "+typeName(l)+" and "+typeName(r), "only float comparisons are translated")
		return nil
	}
	l, r, ok = t.pyFloats(n, l, r)
	if !ok {
		return nil
	}
	return &ir.Binary{Op: cmp, L: l, R: r, T: tBool}
}

func (t *tr) pyCall(n *sitter.Node, e env) *binding {
	fn := t.text(n.ChildByFieldName("function"))
	argNodes := namedNonComment(n.ChildByFieldName("arguments"))
	switch fn {
	case "abs", "math.fabs":
		if len(argNodes) == 1 {
			x := t.pyValue(argNodes[0], e)
			if x == nil {
				return nil
			}
			if ir.IsDouble(x.Type()) {
				return lit(&ir.Call{Fn: ir.AbsDouble, Args: []ir.Expr{x}, T: tDouble})
			}
		}
	case "math.sqrt":
		t.decline(n, "math.sqrt", "CPython raises ValueError for a negative argument where Spark's sqrt gives NaN")
		return nil
	case "math.floor", "math.ceil", "round", "int":
		t.decline(n, fn, "returns a Python int, which a DOUBLE UDF turns into NULL and which never overflows")
		return nil
	}
	t.decline(n, "call of "+fn, "not translated")
	return nil
}
