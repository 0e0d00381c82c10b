package translate

import (
	"fmt"
	"math"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/udfx/udfx/harness/pycase"
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
	if e = t.pyDefaults(n, e); e == nil {
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

// pyDefaults binds the parameters Spark does not pass (the front-end left
// them out of the UDF's parameters: no call gives them) to their default
// values, which Python evaluated once, when the def ran; nil after a
// decline.
func (t *tr) pyDefaults(fn *sitter.Node, e env) env {
	ps := fn.ChildByFieldName("parameters")
	if ps == nil {
		return e
	}
	for i := uint(0); i < ps.NamedChildCount(); i++ {
		p := ps.NamedChild(i)
		if p.Kind() != "default_parameter" && p.Kind() != "typed_default_parameter" {
			continue
		}
		name := t.text(p.ChildByFieldName("name"))
		if _, passed := e[name]; passed {
			continue
		}
		v := p.ChildByFieldName("value")
		switch v.Kind() {
		case "integer", "float", "string", "true", "false", "none", "unary_operator":
		default:
			t.decline(v, "the default of "+name, "only a literal default is translated (any other was evaluated when the def ran)")
			return nil
		}
		b := t.pyExpr(v, env{})
		if b == nil {
			return nil
		}
		e = e.with(name, *b)
	}
	return e
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
	case "try_statement":
		return t.pyTry(s, rest, e)
	case "block":
		return t.pyStmts(append(namedNonComment(s), rest...), e)
	case "expression_statement":
		x := s.NamedChild(0)
		switch {
		case x.Kind() == "string":
			// A docstring.
			return t.pyStmts(rest, e)
		case x.Kind() == "assignment" && x.ChildByFieldName("left").Kind() == "identifier" && x.ChildByFieldName("type") == nil && x.ChildByFieldName("right").Kind() == "dictionary":
			d := t.pyDictLiteral(x.ChildByFieldName("right"))
			if d == nil {
				return nil
			}
			return t.pyStmts(rest, e.with(t.text(x.ChildByFieldName("left")), binding{e: &ir.Lit{}, dict: d}))
		case x.Kind() == "assignment" && x.ChildByFieldName("left").Kind() == "identifier" && x.ChildByFieldName("type") == nil:
			b := t.pyExpr(x.ChildByFieldName("right"), e)
			if b == nil {
				return nil
			}
			return t.pyStmts(rest, e.with(t.text(x.ChildByFieldName("left")), *b))
		case x.Kind() == "assignment" && (x.ChildByFieldName("left").Kind() == "pattern_list" || x.ChildByFieldName("left").Kind() == "tuple_pattern") && x.ChildByFieldName("type") == nil:
			return t.pyUnpack(x, rest, e)
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
			// elif c: ... is else: if c: ...
			el = t.pyElif(alts, rest, ee)
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
	if n.Kind() == "comparison_operator" && n.NamedChildCount() > 2 {
		c := t.pyChain(n, e)
		if c == nil {
			return nil, nil, nil
		}
		return c, e, e
	}
	if c, ok := t.pyReMatch(n, e); ok {
		// if re.match(p, s): the Match object is true.
		if c == nil {
			return nil, nil, nil
		}
		return c, e, e
	}
	if n.Kind() == "comparison_operator" && n.NamedChildCount() == 2 {
		l, r := n.NamedChild(0), n.NamedChild(1)
		op := t.pyOperatorBetween(n, l, r)
		if (op == "is" || op == "is not") && r.Kind() == "none" {
			if c, ok := t.pyReMatch(l, e); ok {
				if c == nil {
					return nil, nil, nil
				}
				if op == "is" {
					c = &ir.Unary{Op: ir.Not, X: c, T: tBool}
				}
				return c, e, e
			}
		}
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
	if n.Kind() == "not_operator" {
		c, te, fe := t.pyCond(n.ChildByFieldName("argument"), e)
		if c == nil {
			return nil, nil, nil
		}
		return &ir.Unary{Op: ir.Not, X: c, T: tBool}, fe, te
	}
	c := t.pyExpr(n, e)
	if c == nil {
		return nil, nil, nil
	}
	if isBool(c.e.Type()) && !c.nullable {
		return c.e, e, e
	}
	return t.pyTruthy(n, *c, e)
}

// pyOperatorBetween is the comparison operator between the operands l
// and r of n, its words single-spaced ("not in", "is not").
func (t *tr) pyOperatorBetween(n, l, r *sitter.Node) string {
	return strings.Join(strings.Fields(t.text(n)[l.EndByte()-n.StartByte():r.StartByte()-n.StartByte()]), " ")
}

// pyChain is a chained comparison, a < b <= c: each adjacent pair
// compared, joined as `and` joins them (a pair after a false one is not
// evaluated, so what it would raise is not raised). Each operand is a
// pure expression, so reading it once per pair is reading it once.
func (t *tr) pyChain(n *sitter.Node, e env) ir.Expr {
	operands := namedNonComment(n)
	var res ir.Expr
	for i := 0; i+1 < len(operands); i++ {
		l, r := operands[i], operands[i+1]
		op := t.pyOperatorBetween(n, l, r)
		if _, ok := cmpOps[op]; !ok {
			t.decline(n, "chained comparison with "+op, "only chains of <, <=, >, >=, == and != are translated")
			return nil
		}
		c := t.pyCompare(n, op, l, r, e)
		if c == nil {
			return nil
		}
		if res == nil {
			res = c
		} else {
			res = &ir.Binary{Op: ir.And, L: res, R: c, T: tBool}
		}
	}
	return res
}

// pyTruthy is Python's truth value of a value that is not a bool known
// not to be None: None, "", 0, 0.0 and -0.0 are false; NaN and every
// other value are true. Where n is a name, the true branch knows it is
// not None.
func (t *tr) pyTruthy(n *sitter.Node, b binding, e env) (ir.Expr, env, env) {
	ty := b.e.Type()
	var nonZero ir.Expr
	switch {
	case ty == nil:
		// The literal None.
		return &ir.Lit{T: tBool, Value: false}, e, e
	case isBool(ty):
		nonZero = b.e
	case isString(b.e):
		nonZero = &ir.Unary{Op: ir.Not, X: &ir.Binary{Op: ir.StrEqNullSafe, L: b.e, R: &ir.Lit{T: tString, Value: ""}, T: tBool}, T: tBool}
	case ir.IsDouble(ty):
		// Ne is CPython's !=: NaN != 0.0 is True, -0.0 != 0.0 False.
		nonZero = &ir.Binary{Op: ir.Ne, L: b.e, R: &ir.Lit{T: tDouble, Value: 0.0}, T: tBool}
	case ir.IsIntegral(ty):
		nonZero = &ir.Binary{Op: ir.Ne, L: b.e, R: &ir.Lit{T: ty, Value: int64(0)}, T: tBool}
	default:
		t.decline(n, "truth value of "+typeName(b.e), "Python truthiness is translated for None, bool, str, int and float only")
		return nil, nil, nil
	}
	te := e
	if b.nullable {
		nonZero = &ir.If{Cond: &ir.IsNull{X: b.e}, Then: &ir.Lit{T: tBool, Value: false}, Else: nonZero}
		if n.Kind() == "identifier" {
			te = e.with(t.text(n), binding{e: b.e})
		}
	}
	return nonZero, te, e
}

// pyValue is a non-None operand of arithmetic.
func (t *tr) pyValue(n *sitter.Node, e env) ir.Expr {
	b := t.pyExpr(n, e)
	if b == nil {
		return nil
	}
	return t.unboxOrThrow(n, *b)
}

func (t *tr) pyExpr(n *sitter.Node, e env) *binding {
	switch n.Kind() {
	case "parenthesized_expression":
		if n.NamedChildCount() == 1 {
			return t.pyExpr(n.NamedChild(0), e)
		}
	case "identifier":
		if b, ok := e[t.text(n)]; ok {
			if b.dict != nil {
				t.decline(n, "dict "+t.text(n)+" used as a value", "only d.get(k), d[k] and `k in d` are translated")
				return nil
			}
			return &b
		}
		return t.constant(n)
	case "float":
		v, err := strconv.ParseFloat(strings.ReplaceAll(t.text(n), "_", ""), 64)
		if err == nil {
			return lit(&ir.Lit{T: tDouble, Value: v})
		}
	case "integer":
		v, err := strconv.ParseInt(strings.ReplaceAll(t.text(n), "_", ""), 0, 64)
		if err == nil && v > -(1<<53) && v < 1<<53 {
			// Python ints never overflow; the translator uses them as
			// operands next to a float (they convert exactly), in
			// comparisons, as // and % divisors and as results.
			ty := tLong
			if v >= -(1<<31) && v < 1<<31 {
				ty = tInt
			}
			return lit(&ir.Lit{T: ty, Value: v})
		}
	case "string":
		if v, ok := pyString(t.text(n)); ok {
			return lit(&ir.Lit{T: tString, Value: v})
		}
		if isFString(t, n) {
			return t.pyFString(n, e)
		}
	case "true", "false":
		return lit(&ir.Lit{T: tBool, Value: n.Kind() == "true"})
	case "none":
		return &binding{e: &ir.Lit{}, nullable: true}
	case "list":
		// [] as the value of a UDF that returns an array: PySpark
		// stores an empty array of the declared type.
		if n.NamedChildCount() == 0 && t.u.Return != nil && t.u.Return.Kind == udf.Array {
			return lit(&ir.Call{Fn: ir.EmptyArray, T: t.u.Return})
		}
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
		return t.pyBoolOp(n, e)
	case "unary_operator":
		if a := n.ChildByFieldName("argument"); t.text(n.ChildByFieldName("operator")) == "-" && a.Kind() == "integer" {
			if b := t.pyExpr(a, e); b != nil {
				return lit(t.jvmNeg(n, b.e))
			}
			return nil
		}
		x := t.pyValue(n.ChildByFieldName("argument"), e)
		if x == nil {
			return nil
		}
		if t.text(n.ChildByFieldName("operator")) == "-" && ir.IsDouble(x.Type()) {
			return lit(t.jvmNeg(n, x))
		}
	case "binary_operator":
		return t.pyBinary(n, e)
	case "attribute":
		before := len(t.declines)
		if b := t.pyDateAttribute(n, e); b != nil || len(t.declines) > before {
			return b
		}
	case "comparison_operator":
		c, _, _ := t.pyCond(n, e)
		if c == nil {
			return nil
		}
		return lit(c)
	case "call":
		return t.pyCall(n, e)
	case "subscript":
		v, sub := n.ChildByFieldName("value"), n.ChildByFieldName("subscript")
		if d, isDict := t.pyDictOf(v, e); isDict {
			// d[k]: KeyError where k is missing.
			if d == nil {
				return nil
			}
			k := t.pyExpr(sub, e)
			if k == nil {
				return nil
			}
			return t.pyDictLookup(n, d, k, nil)
		}
		// s.split(sep)[k], parts[k]
		local, isLocal := e[t.text(v)]
		arrayLocal := v.Kind() == "identifier" && isLocal && isArray(local.e)
		if v != nil && sub != nil && (v.Kind() == "call" && isSplitCall(t, v) || arrayLocal) {
			arr := local.e
			if !arrayLocal {
				arr = t.pySplit(v, e)
			}
			if arr == nil {
				return nil
			}
			k := t.pyExpr(sub, e)
			if k == nil {
				return nil
			}
			kl, ok := k.e.(*ir.Lit)
			if !ok || !ir.IsIntegral(kl.T) {
				t.decline(sub, "a subscript that is not an int constant", "not translated")
				return nil
			}
			idx := kl.Value.(int64)
			if idx >= 0 {
				idx++
			}
			return lit(&ir.Call{Fn: ir.ElementAt, Args: []ir.Expr{arr, &ir.Lit{T: tInt, Value: idx}}, T: tString})
		}
		if v != nil && sub != nil {
			return t.pyStrSubscript(n, v, sub, e)
		}
	}
	t.decline(n, "Python "+n.Kind(), "not translated")
	return nil
}

// pyFloats makes both operands floats. CPython converts an int operand
// of float arithmetic with float(), which rounds to nearest even, as
// Spark's CAST of a BIGINT to DOUBLE does. A comparison of an int with a
// float is exact in CPython, and int / int is the correctly rounded
// quotient: there (exact) an int value converts only where its range
// lies within ±2^53, where the conversion loses nothing and IEEE
// division rounds the exact quotient once.
func (t *tr) pyFloats(n *sitter.Node, l, r ir.Expr, exact bool) (ir.Expr, ir.Expr, bool) {
	bothInts := !ir.IsDouble(l.Type()) && !ir.IsDouble(r.Type())
	conv := func(x ir.Expr) ir.Expr {
		if ir.IsDouble(x.Type()) {
			return x
		}
		if lt, ok := x.(*ir.Lit); ok {
			if v, ok := lt.Value.(int64); ok {
				return &ir.Lit{T: tDouble, Value: float64(v)}
			}
		}
		if !ir.IsIntegral(x.Type()) {
			return nil
		}
		if exact || bothInts {
			lo, hi, ok := ir.IntRange(x)
			if !ok || lo.Cmp(big.NewInt(-1<<53)) < 0 || hi.Cmp(big.NewInt(1<<53)) > 0 {
				return nil
			}
		}
		return widen(x, tDouble)
	}
	cl, cr := conv(l), conv(r)
	switch {
	case (cl == nil || cr == nil) && bothInts:
		t.decline(n, "arithmetic on Python ints", "Python ints never overflow where Spark's INT and BIGINT do; int / int is translated only where both operands lie within ±2^53, and + - * where their ranges bound the result within BIGINT")
		return nil, nil, false
	case cl == nil || cr == nil:
		t.decline(n, "comparison of a Python int value beyond ±2^53 with a float", "CPython compares them exactly, Spark after rounding the int to a double")
		return nil, nil, false
	}
	return cl, cr, true
}

func (t *tr) pyBinary(n *sitter.Node, e env) *binding {
	op := t.text(n.ChildByFieldName("operator"))
	if b, ok := t.pyDateShift(n, op, e); ok {
		return b
	}
	switch op {
	case "%", "//":
		if l := n.ChildByFieldName("left"); op == "%" && l.Kind() == "string" {
			if tmpl, ok := pyString(t.text(l)); ok {
				return t.pyPercentFormat(n, tmpl, n.ChildByFieldName("right"), e)
			}
		}
		return t.pyFloored(n, op, e)
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
	if op == "+" && isString(l) && isString(r) {
		return lit(&ir.Call{Fn: ir.Concat, Args: []ir.Expr{l, r}, T: tString})
	}
	if isString(l) || isString(r) {
		t.decline(n, "operator "+op+" on "+typeName(l)+" and "+typeName(r), "not translated (CPython raises TypeError for most; str * int repeats)")
		return nil
	}
	if ir.IsIntegral(l.Type()) && ir.IsIntegral(r.Type()) && op != "/" {
		return t.pyIntArith(n, op, l, r)
	}
	l, r, ok := t.pyFloats(n, l, r, false)
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
	if (op == "in" || op == "not in") && isLiteralCollection(n.NamedChild(1)) {
		return t.pyInLiterals(n, op, e)
	}
	if op == "in" || op == "not in" {
		if d, isDict := t.pyDictOf(n.NamedChild(1), e); isDict {
			if d == nil {
				return nil
			}
			return t.pyInDict(n, op, d, e)
		}
	}
	if op == "in" || op == "not in" {
		sub, str := t.pyExpr(n.NamedChild(0), e), t.pyExpr(n.NamedChild(1), e)
		if sub == nil || str == nil {
			return nil
		}
		if !isString(sub.e) || !isString(str.e) || sub.nullable || str.nullable {
			t.decline(n, "`"+op+"` on "+typeName(sub.e)+" and "+typeName(str.e), "only a substring test on two non-None str is translated (None raises TypeError)")
			return nil
		}
		var c ir.Expr = &ir.Call{Fn: ir.Contains, Args: []ir.Expr{str.e, sub.e}, T: tBool}
		if op == "not in" {
			c = &ir.Unary{Op: ir.Not, X: c, T: tBool}
		}
		return c
	}
	return t.pyCompare(n, op, n.NamedChild(0), n.NamedChild(1), e)
}

// pyCompare is ln op rn for an equality or order comparison.
func (t *tr) pyCompare(n *sitter.Node, op string, ln, rn *sitter.Node, e env) ir.Expr {
	if op == "==" || op == "!=" {
		l, r := t.pyExpr(ln, e), t.pyExpr(rn, e)
		if l == nil || r == nil {
			return nil
		}
		if isString(l.e) && isString(r.e) {
			// None == "a" is False; None == None is True.
			var c ir.Expr = &ir.Binary{Op: ir.StrEqNullSafe, L: l.e, R: r.e, T: tBool}
			if op == "!=" {
				c = &ir.Unary{Op: ir.Not, X: c, T: tBool}
			}
			return c
		}
		if l.nullable || r.nullable {
			t.decline(n, op+" on a value that may be None", "CPython's None == x is False, not an error, where Spark's = gives NULL; check `is None` first")
			return nil
		}
	}
	l := t.pyValue(ln, e)
	if l == nil {
		return nil
	}
	r := t.pyValue(rn, e)
	if r == nil {
		return nil
	}
	cmp, ok := cmpOps[op]
	if !ok {
		t.decline(n, "Python comparison "+op, "not translated")
		return nil
	}
	if isBool(l.Type()) || isBool(r.Type()) || isString(l) || isString(r) {
		t.decline(n, "comparison of "+typeName(l)+" and "+typeName(r), "only number comparisons and str == / != are translated")
		return nil
	}
	if ir.IsIntegral(l.Type()) && ir.IsIntegral(r.Type()) {
		// Exact in both: Spark widens int to bigint.
		pl, pr, _ := promote(l, r)
		return &ir.Binary{Op: cmp, L: pl, R: pr, T: tBool}
	}
	l, r, ok = t.pyFloats(n, l, r, true)
	if !ok {
		return nil
	}
	return &ir.Binary{Op: cmp, L: l, R: r, T: tBool}
}

func (t *tr) pyCall(n *sitter.Node, e env) *binding {
	fn := t.text(n.ChildByFieldName("function"))
	argNodes := namedNonComment(n.ChildByFieldName("arguments"))
	if slices.Contains(pyBuiltins, fn) {
		switch why, helper := t.pyShadowed(fn, e); {
		case helper:
			return t.pyHelper(n, fn, argNodes, e)
		case why != "":
			t.decline(n, "call of "+fn, why)
			return nil
		}
	}
	if t.isDatetimeName(n.ChildByFieldName("function"), "date") {
		return t.pyDateLiteral(n, argNodes)
	}
	switch fn {
	case "re.sub":
		return t.pyReSub(n, argNodes, e)
	case "str":
		if len(argNodes) == 1 {
			b := t.pyExpr(argNodes[0], e)
			if b == nil {
				return nil
			}
			return lit(t.pyStrOf(argNodes[0], *b))
		}
	case "bool":
		if len(argNodes) == 1 {
			c, _, _ := t.pyCond(argNodes[0], e)
			if c == nil {
				return nil
			}
			return lit(c)
		}
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
	case "len":
		if len(argNodes) == 1 && argNodes[0].Kind() == "call" && strings.HasSuffix(t.text(argNodes[0].ChildByFieldName("function")), ".split") {
			arr := t.pySplit(argNodes[0], e)
			if arr == nil {
				return nil
			}
			return lit(&ir.Call{Fn: ir.Size, Args: []ir.Expr{arr}, T: tInt})
		}
		if len(argNodes) == 1 {
			b := t.pyExpr(argNodes[0], e)
			if b == nil {
				return nil
			}
			if isArray(b.e) && !b.nullable {
				return lit(&ir.Call{Fn: ir.Size, Args: []ir.Expr{b.e}, T: tInt})
			}
			if isString(b.e) {
				// len(None) raises TypeError: so does the rewrite.
				var l ir.Expr = &ir.Call{Fn: ir.CodePointLength, Args: []ir.Expr{b.e}, T: tInt}
				if b.nullable {
					l = raiseWhereNull(b.e, l, "TypeError where "+t.text(n)+" gets None")
				}
				return lit(l)
			}
			t.decline(n, "len of "+typeName(b.e), "only len of a str is translated")
			return nil
		}
	case "format":
		if len(argNodes) == 2 {
			spec, ok := pyString(t.text(argNodes[1]))
			if !ok {
				t.decline(argNodes[1], "format spec "+t.text(argNodes[1]), "only a plain str literal spec is translated")
				return nil
			}
			b := t.pyExpr(argNodes[0], e)
			if b == nil {
				return nil
			}
			return lit(t.pyFormatField(n, "call "+t.text(n), spec, *b))
		}
	case "min", "max":
		if len(argNodes) >= 2 {
			return lit(t.pyMinMax(n, fn, argNodes, e))
		}
	case "math.sqrt":
		t.decline(n, "math.sqrt", "CPython raises ValueError for a negative argument where Spark's sqrt gives NaN")
		return nil
	case "math.floor", "math.ceil", "round", "int":
		if fn == "round" && len(argNodes) == 2 {
			return lit(t.pyRoundDigits(n, argNodes, e))
		}
		// The BIGINT the rewrite computes is the Python int where it fits
		// (NULL beyond, as PySpark stores it); an int UDF then keeps its
		// low 32 bits (fitReturn), as PySpark does.
		if len(argNodes) == 1 && t.u.Return != nil && (t.u.Return.Kind == udf.Long || t.u.Return.Kind == udf.Int) {
			x := t.pyValue(argNodes[0], e)
			if x == nil {
				return nil
			}
			if ir.IsDouble(x.Type()) {
				f := map[string]ir.Func{"int": ir.PyIntOfFloat, "round": ir.PyRoundOfFloat, "math.floor": ir.PyFloorOfFloat, "math.ceil": ir.PyCeilOfFloat}[fn]
				return lit(&ir.Call{Fn: f, Args: []ir.Expr{x}, T: tLong})
			}
		}
		t.decline(n, fn, "returns an unbounded Python int: translated only on one float, as the result of an int or bigint UDF (NaN and infinities raise, beyond BIGINT PySpark stores NULL, an int UDF keeps the low 32 bits); this UDF returns "+t.u.Return.String())
		return nil
	}
	if f := n.ChildByFieldName("function"); f.Kind() == "attribute" {
		name := t.text(f.ChildByFieldName("attribute"))
		if d, isDict := t.pyDictOf(f.ChildByFieldName("object"), e); isDict {
			if d == nil {
				return nil
			}
			return t.pyDictGet(n, name, d, argNodes, e)
		}
		if name == "strftime" {
			if b, ok := t.pyUTCStrftime(n, f.ChildByFieldName("object"), argNodes, e); ok {
				return b
			}
		}
		if obj := f.ChildByFieldName("object"); name == "format" && obj.Kind() == "string" {
			if tmpl, ok := pyString(t.text(obj)); ok {
				return t.pyStrFormat(n, tmpl, argNodes, e)
			}
		}
		recv := t.pyExpr(f.ChildByFieldName("object"), e)
		if recv == nil {
			return nil
		}
		if isDate(recv.e) && name == "strftime" {
			return t.pyDateStrftime(n, recv, argNodes, e)
		}
		if isDate(recv.e) && len(argNodes) == 0 {
			f, ok := map[string]ir.Func{"weekday": ir.PyWeekday, "isoweekday": ir.PyIsoWeekday, "isoformat": ir.PyIsoFormat}[name]
			if !ok {
				t.decline(n, "date."+name, "only year, month, day, weekday(), isoweekday(), isoformat(), strftime() and (a - b).days are translated")
				return nil
			}
			ty := tInt
			if f == ir.PyIsoFormat {
				ty = tString
			}
			var res ir.Expr = &ir.Call{Fn: f, Args: []ir.Expr{recv.e}, T: ty}
			if recv.nullable {
				res = t.throwOnNull(n, recv.e, res)
			}
			return lit(res)
		}
		if isString(recv.e) {
			if recv.nullable {
				res := t.pyStrMethod(n, name, recv.e, argNodes, e)
				if res == nil {
					return nil
				}
				return &binding{e: t.throwOnNull(n, recv.e, res.e), nullable: res.nullable}
			}
			return t.pyStrMethod(n, name, recv.e, argNodes, e)
		}
	}
	if f := n.ChildByFieldName("function"); f.Kind() == "identifier" {
		if _, local := e[fn]; !local {
			return t.pyHelper(n, fn, argNodes, e)
		}
	}
	t.decline(n, "call of "+fn, "not translated")
	return nil
}

// pyRoundDigits translates round(x, k) of a float x and a literal k
// from 0 to 10 (ir.PyRoundDigits). round of None raises TypeError; of
// an int it returns the int, which this float result does not cover.
func (t *tr) pyRoundDigits(n *sitter.Node, argNodes []*sitter.Node, e env) ir.Expr {
	k := t.pyValue(argNodes[1], e)
	if k == nil {
		return nil
	}
	kl, isLit := k.(*ir.Lit)
	if !isLit || !ir.IsIntegral(kl.T) || kl.Value == nil || kl.Value.(int64) < 0 || kl.Value.(int64) > 10 {
		t.decline(argNodes[1], "round digits "+t.text(argNodes[1]), "round(x, k) is translated for a literal k from 0 to 10")
		return nil
	}
	x := t.pyValue(argNodes[0], e)
	if x == nil {
		return nil
	}
	if !ir.IsDouble(x.Type()) {
		t.decline(argNodes[0], "round of "+typeName(x), "round(x, k) is translated only on a float (on an int it returns the int)")
		return nil
	}
	return &ir.Call{Fn: ir.PyRoundDigits, Args: []ir.Expr{x, &ir.Lit{T: tInt, Value: kl.Value}}, T: tDouble}
}

// pyStrMethod translates recv.name(args) on a str that is not None.
func (t *tr) pyStrMethod(n *sitter.Node, name string, recv ir.Expr, argNodes []*sitter.Node, e env) *binding {
	var args []ir.Expr
	for _, a := range argNodes {
		b := t.pyExpr(a, e)
		if b == nil {
			return nil
		}
		if !isString(b.e) || b.nullable {
			t.decline(a, "argument of str."+name, "only str arguments that are not None are translated")
			return nil
		}
		args = append(args, b.e)
	}
	switch {
	case (name == "startswith" || name == "endswith") && len(args) == 1:
		fn := map[string]ir.Func{"startswith": ir.StartsWith, "endswith": ir.EndsWith}[name]
		return lit(&ir.Call{Fn: fn, Args: []ir.Expr{recv, args[0]}, T: tBool})
	case (name == "upper" || name == "lower") && len(args) == 0:
		// Exact for the CPython whose Unicode database package pycase's
		// tables compare with Spark's (the SQL repairs where they differ).
		t.pythonUnicode = pycase.Unicode()
		fn := map[string]ir.Func{"upper": ir.PyUpper, "lower": ir.PyLower}[name]
		return lit(&ir.Call{Fn: fn, Args: []ir.Expr{recv}, T: tString})
	case (name == "title" || name == "capitalize") && len(args) == 0:
		// Not Spark's initcap, which starts a word only after a space:
		// package pycase writes CPython's rule code point by code point.
		t.pythonUnicode = pycase.Unicode()
		fn := map[string]ir.Func{"title": ir.PyTitle, "capitalize": ir.PyCapitalize}[name]
		return lit(&ir.Call{Fn: fn, Args: []ir.Expr{recv}, T: tString})
	case (name == "strip" || name == "lstrip" || name == "rstrip") && len(args) <= 1:
		// str.strip() removes str.isspace characters; strip(chars)
		// the given ones, as code points.
		chars := ir.Expr(&ir.Lit{T: tString, Value: pyWhitespace})
		if len(args) == 1 {
			if l, ok := args[0].(*ir.Lit); !ok || l.Value == "" {
				t.decline(n, "str."+name+" of characters that are not a non-empty literal", "not translated")
				return nil
			}
			chars = args[0]
		}
		fn := map[string]ir.Func{"strip": ir.TrimBoth, "lstrip": ir.TrimLeading, "rstrip": ir.TrimTrailing}[name]
		return lit(&ir.Call{Fn: fn, Args: []ir.Expr{recv, chars}, T: tString})
	case name == "replace" && len(args) == 2:
		// Every occurrence, left to right, literally, as Spark's replace
		// for a non-empty search string (an empty one inserts between
		// every character in CPython).
		if l, ok := args[0].(*ir.Lit); ok && l.Value != "" {
			if _, ok := args[1].(*ir.Lit); ok {
				return lit(&ir.Call{Fn: ir.Replace, Args: []ir.Expr{recv, args[0], args[1]}, T: tString})
			}
		}
		t.decline(n, "str.replace", "only literal, non-empty search and literal replacement strings are translated")
		return nil
	case name == "split" && len(args) == 1:
		// A list of str: Spark's split keeps every field, as
		// str.split(sep) does (the separator is escaped for its regex).
		if l, ok := args[0].(*ir.Lit); ok && l.Value != "" {
			return lit(&ir.Call{Fn: ir.PySplit, Args: []ir.Expr{recv, l}, T: udf.ArrayOf(tString)})
		}
		t.decline(n, "str.split separator "+t.text(argNodes[0]), "only a non-empty literal separator is translated")
		return nil
	case name == "split" && len(args) == 0:
		t.pythonUnicode = pycase.Unicode()
		return lit(&ir.Call{Fn: ir.PySplitWords, Args: []ir.Expr{recv, &ir.Lit{T: tString, Value: pyWhitespace}}, T: udf.ArrayOf(tString)})
	case (name == "isdigit" || name == "isdecimal" || name == "isspace") && len(args) == 0:
		// True where the str is not empty and every character is in
		// the class (CPython's Unicode database, like the case tables).
		t.pythonUnicode = pycase.Unicode()
		class := map[string]string{"isdigit": pyClass(pyDigitRanges()), "isdecimal": pyClass(pyDecimalDigitRanges()), "isspace": pyClass(runsOf(pyWhitespace))}[name]
		rest := &ir.Call{Fn: ir.RegexpReplace, Args: []ir.Expr{recv, &ir.Lit{T: tString, Value: class}, &ir.Lit{T: tString, Value: ""}}, T: tString}
		return lit(&ir.Binary{Op: ir.And,
			L: &ir.Unary{Op: ir.Not, X: &ir.Call{Fn: ir.IsEmpty, Args: []ir.Expr{recv}, T: tBool}, T: tBool},
			R: &ir.Call{Fn: ir.IsEmpty, Args: []ir.Expr{rest}, T: tBool}, T: tBool})
	}
	t.decline(n, "str."+name, "no rule proves a Spark SQL form equal to this str method")
	return nil
}

// pyWhitespace are the characters of str.isspace, which str.strip()
// removes. TestWhitespaceSetsMatchTheRuntimes checks the set against
// CPython.
const pyWhitespace = "\t\n\v\f\r\x1c\x1d\x1e\x1f \u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"

// pyNumberWhitespace are the characters float() and int() strip: ASCII
// ones by Py_ISSPACE, which leaves out U+001C..U+001F that str.isspace
// counts, and the rest as Unicode whitespace
// (TestWhitespaceSetsMatchTheRuntimes).
const pyNumberWhitespace = "\t\n\v\f\r \u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"

// pyString reads a plain Python string literal (no prefix, no f-string).
func pyString(s string) (string, bool) {
	if len(s) < 2 || strings.HasPrefix(s, `"""`) || strings.HasPrefix(s, "'''") {
		return "", false
	}
	switch s[0] {
	case '"':
		v, err := strconv.Unquote(s)
		return v, err == nil
	case '\'':
		inner := s[1 : len(s)-1]
		if s[len(s)-1] != '\'' || strings.ContainsAny(inner, "\\\"") {
			return "", false
		}
		return inner, true
	}
	return "", false
}

// pyFloored translates CPython's % and // by a non-zero constant: on
// floats (%% only) and on ints, both floored (the result of %% takes the
// divisor's sign).
func (t *tr) pyFloored(n *sitter.Node, op string, e env) *binding {
	l := t.pyValue(n.ChildByFieldName("left"), e)
	if l == nil {
		return nil
	}
	r := t.pyValue(n.ChildByFieldName("right"), e)
	if r == nil {
		return nil
	}
	if !ir.NonZeroConst(r) {
		return t.pyFlooredBy(n, op, l, r)
	}
	switch {
	case ir.IsDouble(l.Type()) || ir.IsDouble(r.Type()):
		if op == "//" {
			t.decline(n, "Python // on floats", "CPython's float floor division rounds (x - fmod(x, y)) / y in its own way; no exact Spark SQL form is known")
			return nil
		}
		l, r, ok := t.pyFloats(n, l, r, false)
		if !ok {
			return nil
		}
		return lit(&ir.Binary{Op: ir.PyFloatModConst, L: l, R: r, T: tDouble})
	case ir.IsIntegral(l.Type()) && ir.IsIntegral(r.Type()):
		if _, isLit := l.(*ir.Lit); isLit {
			t.decline(n, "Python "+op+" of two constants", "not translated")
			return nil
		}
		if v := r.(*ir.Lit).Value.(int64); v == -1 && op == "//" {
			t.decline(n, "Python // -1", "-x of the smallest BIGINT does not fit the UDF's result")
			return nil
		}
		ty := l.Type()
		if r.Type().Kind == udf.Long {
			ty = tLong
		}
		o := ir.PyIntModConst
		if op == "//" {
			o = ir.PyIntFloorDivConst
		}
		return lit(&ir.Binary{Op: o, L: widen(l, ty), R: widen(r, ty), T: ty})
	}
	t.decline(n, "Python "+op+" on "+typeName(l)+" and "+typeName(r), "not translated")
	return nil
}

// pyFlooredBy is CPython's int % and // by an int value: ZeroDivisionError
// where it is 0, else floored. // of the smallest BIGINT by -1 is 2^63,
// beyond BIGINT: declined unless the ranges rule it out.
func (t *tr) pyFlooredBy(n *sitter.Node, op string, l, r ir.Expr) *binding {
	if !ir.IsIntegral(l.Type()) || !ir.IsIntegral(r.Type()) {
		t.decline(n, "Python "+op+" of "+typeName(l)+" by a value", "only int % and // by a value are translated (CPython's float % and // round in their own way)")
		return nil
	}
	ty := l.Type()
	if r.Type().Kind == udf.Long {
		ty = tLong
	}
	o := ir.PyIntMod
	if op == "//" {
		// The smallest INT // -1 is 2^31: the quotient is a BIGINT.
		o, ty = ir.PyIntFloorDiv, tLong
		lo1, _, ok1 := ir.IntRange(l)
		lo2, hi2, ok2 := ir.IntRange(r)
		minFirst := !ok1 || lo1.Cmp(big.NewInt(math.MinInt64)) <= 0
		minusOne := !ok2 || lo2.Cmp(big.NewInt(-1)) <= 0 && hi2.Cmp(big.NewInt(-1)) >= 0
		if ty.Kind == udf.Long && minFirst && minusOne {
			t.decline(n, "Python // of a BIGINT by a value", "the smallest BIGINT // -1 is 2^63, beyond BIGINT; not translated")
			return nil
		}
	}
	l, r = widen(l, ty), widen(r, ty)
	res := &ir.Binary{Op: o, L: l, R: r, T: ty}
	zero := &ir.Binary{Op: ir.Eq, L: r, R: &ir.Lit{T: ty, Value: int64(0)}, T: tBool}
	return lit(&ir.If{Cond: zero, Then: &ir.Raise{Msg: "udfx: the original throws " + asciiSnippet("ZeroDivisionError in "+t.text(n)), T: ty}, Else: res})
}

// pyElif translates the elif and else clauses alts of an if statement,
// followed by rest, as nested conditionals.
func (t *tr) pyElif(alts []sitter.Node, rest []*sitter.Node, e env) *binding {
	if len(alts) == 0 {
		return t.pyStmts(rest, e)
	}
	a := &alts[0]
	if a.Kind() == "else_clause" {
		return t.pyStmts(append(namedNonComment(a.ChildByFieldName("body")), rest...), e)
	}
	cond, te, ee := t.pyCond(a.ChildByFieldName("condition"), e)
	if cond == nil {
		return nil
	}
	th := t.pyStmts(append(namedNonComment(a.ChildByFieldName("consequence")), rest...), te)
	return t.ifOf(a, cond, th, t.pyElif(alts[1:], rest, ee))
}

// pySplit translates s.split(sep) on a str known not to be None with a
// literal separator: str.split(sep) keeps every field, empty ones
// included, as Spark's split does; the separator must have no regex
// metacharacters, since Spark's is a regex.
func (t *tr) pySplit(n *sitter.Node, e env) ir.Expr {
	f := n.ChildByFieldName("function")
	args := namedNonComment(n.ChildByFieldName("arguments"))
	if f == nil || f.Kind() != "attribute" || t.text(f.ChildByFieldName("attribute")) != "split" {
		t.decline(n, "call "+t.text(n), "only str.split results are indexed or counted")
		return nil
	}
	recv := t.pyExpr(f.ChildByFieldName("object"), e)
	if recv == nil {
		return nil
	}
	if !isString(recv.e) {
		t.decline(n, "split of "+typeName(recv.e), "only str.split is translated")
		return nil
	}
	split := t.pySplitOf(n, recv.e, args, e)
	if recv.nullable {
		// AttributeError on None, as CPython raises.
		return t.throwOnNull(n, recv.e, split)
	}
	return split
}

// pySplitOf is str.split(args) on recv, not None.
func (t *tr) pySplitOf(n *sitter.Node, recv ir.Expr, args []*sitter.Node, e env) ir.Expr {
	if len(args) == 0 {
		t.pythonUnicode = pycase.Unicode()
		return &ir.Call{Fn: ir.PySplitWords, Args: []ir.Expr{recv, &ir.Lit{T: tString, Value: pyWhitespace}}, T: udf.ArrayOf(tString)}
	}
	if len(args) != 1 {
		t.decline(n, "str.split with maxsplit", "not translated")
		return nil
	}
	sep := t.pyExpr(args[0], e)
	if sep == nil {
		return nil
	}
	l, ok := sep.e.(*ir.Lit)
	if !ok || !isString(l) || l.Value == "" {
		t.decline(args[0], "str.split separator "+t.text(args[0]), "only a non-empty literal separator is translated")
		return nil
	}
	return &ir.Call{Fn: ir.PySplit, Args: []ir.Expr{recv, l}, T: udf.ArrayOf(tString)}
}

// pyBoolOp is `a or b` and `a and b` as values: Python returns an
// operand, not a bool (`s or "unknown"` is s when s is truthy, else
// "unknown"; `a and b` is a when a is falsy, else b). The operand
// returned in each branch sees what the truth test proved. On two bools
// known not to be None it is the short-circuit logic of pyCond.
func (t *tr) pyBoolOp(n *sitter.Node, e env) *binding {
	left, right := n.ChildByFieldName("left"), n.ChildByFieldName("right")
	cond, te, fe := t.pyCond(left, e)
	if cond == nil {
		return nil
	}
	var th, el *binding
	if t.text(n.ChildByFieldName("operator")) == "or" {
		th, el = t.pyExpr(left, te), t.pyExpr(right, fe)
	} else {
		th, el = t.pyExpr(right, te), t.pyExpr(left, fe)
	}
	if th == nil || el == nil {
		return nil
	}
	if isBool(th.e.Type()) && isBool(el.e.Type()) && !th.nullable && !el.nullable {
		c, _, _ := t.pyCond(n, e)
		return lit(c)
	}
	return t.ifOf(n, cond, th, el)
}

func isLiteralCollection(n *sitter.Node) bool {
	switch n.Kind() {
	case "tuple", "list", "set":
		return true
	}
	return false
}

// pyInLiterals is `x in ("a", "b")` over str or int literals: Python's
// ==, so None is in no collection of literals (False, not an error) and
// x equals an item of its own kind only.
func (t *tr) pyInLiterals(n *sitter.Node, op string, e env) ir.Expr {
	x := t.pyExpr(n.NamedChild(0), e)
	if x == nil {
		return nil
	}
	str, integral := isString(x.e), x.e.Type() != nil && ir.IsIntegral(x.e.Type())
	if !str && !integral {
		t.decline(n, "`"+op+"` on "+typeName(x.e), "only str and int values in a collection of literals are translated")
		return nil
	}
	var lits []*ir.Lit
	for _, it := range namedNonComment(n.NamedChild(1)) {
		b := t.pyExpr(it, e)
		if b == nil {
			return nil
		}
		l, ok := b.e.(*ir.Lit)
		if !ok || l.Value == nil || isString(l) != str || !str && !ir.IsIntegral(l.T) {
			t.decline(it, "item "+t.text(it), "only literals of the value's kind are translated")
			return nil
		}
		lits = append(lits, l)
	}
	return pyIn(op, x, str, lits)
}

// pyEquals is CPython's x == lit for a str or int literal of x's kind:
// None equals no literal (str: <=>, which is false for NULL; int: the
// caller guards NULL, pyIn does).
func pyEquals(x ir.Expr, str bool, lit *ir.Lit) ir.Expr {
	if str {
		return &ir.Binary{Op: ir.StrEqNullSafe, L: x, R: lit, T: tBool}
	}
	l, r, _ := promote(x, lit)
	return &ir.Binary{Op: ir.Eq, L: l, R: r, T: tBool}
}

// pyIn is `x in (lits)` (or `not in`): x equals one of them, None none.
func pyIn(op string, x *binding, str bool, lits []*ir.Lit) ir.Expr {
	var c ir.Expr = &ir.Lit{T: tBool, Value: false}
	for i, l := range lits {
		if i == 0 {
			c = pyEquals(x.e, str, l)
		} else {
			c = &ir.Binary{Op: ir.Or, L: c, R: pyEquals(x.e, str, l), T: tBool}
		}
	}
	if !str && x.nullable {
		c = &ir.If{Cond: &ir.IsNull{X: x.e}, Then: &ir.Lit{T: tBool, Value: false}, Else: c}
	}
	if op == "not in" {
		c = &ir.Unary{Op: ir.Not, X: c, T: tBool}
	}
	return c
}

// isFString reports whether n is a plain f-string (prefix f or F only).
func isFString(t *tr, n *sitter.Node) bool {
	if n.NamedChildCount() == 0 || n.NamedChild(0).Kind() != "string_start" {
		return false
	}
	p := strings.ToLower(strings.TrimRight(t.text(n.NamedChild(0)), `"'`))
	return p == "f"
}

// pyFString is an f-string whose fields print str, int and bool values
// (no conversion, no format spec): the concatenation of its parts.
func (t *tr) pyFString(n *sitter.Node, e env) *binding {
	var parts []ir.Expr
	for _, c := range namedNonComment(n) {
		switch c.Kind() {
		case "string_start", "string_end":
		case "string_content":
			text := t.text(c)
			if strings.Contains(text, "\\") {
				t.decline(c, "an escape in an f-string", "not translated")
				return nil
			}
			text = strings.NewReplacer("{{", "{", "}}", "}").Replace(text)
			parts = append(parts, &ir.Lit{T: tString, Value: text})
		case "interpolation":
			x := c.ChildByFieldName("expression")
			if x == nil || c.ChildByFieldName("type_conversion") != nil {
				t.decline(c, "f-string field "+t.text(c), "only fields without a conversion are translated")
				return nil
			}
			b := t.pyExpr(x, e)
			if b == nil {
				return nil
			}
			if spec := c.ChildByFieldName("format_specifier"); spec != nil {
				p := t.pyFormatField(c, "f-string field "+t.text(c), strings.TrimPrefix(t.text(spec), ":"), *b)
				if p == nil {
					return nil
				}
				parts = append(parts, p)
				continue
			}
			s := t.pyStrOf(x, *b)
			if s == nil {
				return nil
			}
			parts = append(parts, s)
		default:
			t.decline(c, "f-string part "+c.Kind(), "not translated")
			return nil
		}
	}
	if len(parts) == 1 {
		return lit(parts[0])
	}
	if len(parts) == 0 {
		return lit(&ir.Lit{T: tString, Value: ""})
	}
	return lit(&ir.Call{Fn: ir.Concat, Args: parts, T: tString})
}

// pyIntFormatRe is the int format specs translated: d, Wd and 0Wd.
var pyIntFormatRe = regexp.MustCompile(`^(0?)([1-9][0-9]{0,2})?d$`)

// pyFormatField is CPython's format(x, spec) of the value b for the
// specs translated (an f-string's {x:spec}, format(), str.format and
// %-formatting share it); what names the construct where it is declined.
// An empty spec is str(x).
func (t *tr) pyFormatField(n *sitter.Node, what, spec string, b binding) ir.Expr {
	switch {
	case spec == "":
		return t.pyStrOf(n, b)
	case pyFixedFormatRe.MatchString(spec):
		return t.pyFixedFormat(n, what, spec, b)
	}
	return t.pyIntFormat(n, what, spec, b)
}

// pyIntFormat is a field {x:spec} of an int x with a spec pyIntFormatRe
// reads; None raises TypeError, as CPython's format does.
func (t *tr) pyIntFormat(n *sitter.Node, what, spec string, b binding) ir.Expr {
	m := pyIntFormatRe.FindStringSubmatch(spec)
	if m == nil || b.e.Type() == nil || !ir.IsIntegral(b.e.Type()) {
		t.decline(n, what, "only the format specs d, Wd and 0Wd of an int and .kf (k up to 10) of a float or an int are translated (the other specs pad, group or round in ways not modelled)")
		return nil
	}
	var res ir.Expr = &ir.Cast{Kind: ir.IntToString, X: b.e, To: tString}
	if m[2] != "" {
		w, _ := strconv.ParseInt(m[2], 10, 64)
		res = &ir.Call{Fn: ir.PyIntPadded, Args: []ir.Expr{b.e, &ir.Lit{T: tInt, Value: w}, &ir.Lit{T: tBool, Value: m[1] == "0"}}, T: tString}
	}
	if b.nullable {
		res = raiseWhereNull(b.e, res, "TypeError where "+t.text(n)+" formats None")
	}
	return res
}

// pyFixedFormatRe is the float format spec translated: .k with f, for
// k from 0 to 10.
var pyFixedFormatRe = regexp.MustCompile(`^\.([0-9]|10)f$`)

// pyFixedFormat is a field {x:.kf} of a float or an int x (an int is
// formatted as the float nearest it, as CPython's int.__format__ does
// for f, and Spark's cast to DOUBLE rounds the same way); None raises
// TypeError.
func (t *tr) pyFixedFormat(n *sitter.Node, what, spec string, b binding) ir.Expr {
	x := b.e
	switch ty := x.Type(); {
	case ir.IsDouble(ty):
	case ir.IsIntegral(ty):
		x = widen(x, tDouble)
	default:
		t.decline(n, what, "the format "+spec+" is translated for a float or an int, not for "+typeName(x))
		return nil
	}
	k, _ := strconv.ParseInt(pyFixedFormatRe.FindStringSubmatch(spec)[1], 10, 64)
	var res ir.Expr = &ir.Call{Fn: ir.PyFormatFixed, Args: []ir.Expr{x, &ir.Lit{T: tInt, Value: k}}, T: tString}
	if b.nullable {
		res = raiseWhereNull(b.e, res, "TypeError where "+t.text(n)+" formats None")
	}
	return res
}

// pyStrFormat is tmpl.format(args) of a literal template whose fields
// are {}, {k} or either with a :spec pyFormatField reads: the
// concatenation of its text and formatted fields. Keyword arguments,
// conversions (!r), nested fields, mixed automatic and manual numbering
// (ValueError) and an index past the arguments (IndexError) are
// declined.
func (t *tr) pyStrFormat(n *sitter.Node, tmpl string, argNodes []*sitter.Node, e env) *binding {
	var args []*binding
	for _, a := range argNodes {
		if a.Kind() == "keyword_argument" || a.Kind() == "list_splat" || a.Kind() == "dictionary_splat" {
			t.decline(a, "str.format argument "+t.text(a), "only positional arguments are translated")
			return nil
		}
		b := t.pyExpr(a, e)
		if b == nil {
			return nil
		}
		args = append(args, b)
	}
	var parts []ir.Expr
	auto, manual := 0, false
	for i := 0; i < len(tmpl); {
		switch {
		case strings.HasPrefix(tmpl[i:], "{{"):
			parts = append(parts, &ir.Lit{T: tString, Value: "{"})
			i += 2
		case strings.HasPrefix(tmpl[i:], "}}"):
			parts = append(parts, &ir.Lit{T: tString, Value: "}"})
			i += 2
		case tmpl[i] == '{':
			end := strings.IndexByte(tmpl[i:], '}')
			field := ""
			if end > 0 {
				field = tmpl[i+1 : i+end]
			}
			key, spec, _ := strings.Cut(field, ":")
			if end < 0 || strings.ContainsAny(field, "{!") || strings.ContainsAny(key, "[.") {
				t.decline(n, "str.format field "+strconv.Quote(tmpl), "only fields {}, {k} and {:spec} with a literal spec are translated")
				return nil
			}
			k := auto
			if key == "" {
				auto++
			} else {
				v, err := strconv.Atoi(key)
				if err != nil || v < 0 || strings.ContainsAny(key, "+- ") {
					t.decline(n, "str.format field {"+field+"}", "only positional fields are translated")
					return nil
				}
				k, manual = v, true
			}
			if manual && auto > 0 || k >= len(args) {
				t.decline(n, "str.format field {"+field+"}", "CPython raises here (mixed numbering or a missing argument)")
				return nil
			}
			p := t.pyFormatField(n, "str.format field {"+field+"}", spec, *args[k])
			if p == nil {
				return nil
			}
			parts = append(parts, p)
			i += end + 1
		case tmpl[i] == '}':
			t.decline(n, "str.format template "+strconv.Quote(tmpl), "a single } is a ValueError in CPython")
			return nil
		default:
			j := strings.IndexAny(tmpl[i:], "{}")
			if j < 0 {
				j = len(tmpl) - i
			}
			parts = append(parts, &ir.Lit{T: tString, Value: tmpl[i : i+j]})
			i += j
		}
	}
	return lit(concatParts(parts))
}

// pyPercentDirectiveRe is a %-format directive translated: %%, %s, %d
// or %i, and %.kf (k up to 10).
var pyPercentDirectiveRe = regexp.MustCompile(`^%(%|s|d|i|\.(?:[0-9]|10)f)`)

// pyPercentFormat is tmpl % values of a literal template whose
// directives pyPercentDirectiveRe reads, with a tuple of exactly as many
// values or one value for one directive: %s is str(x), %d an int in
// decimal, %.kf format(x, ".kf"). Flags, widths, %r and %d of a float
// are declined; a count that does not match (TypeError) too.
func (t *tr) pyPercentFormat(n *sitter.Node, tmpl string, right *sitter.Node, e env) *binding {
	values := []*sitter.Node{right}
	if right.Kind() == "tuple" {
		values = namedNonComment(right)
	} else if right.Kind() == "parenthesized_expression" && right.NamedChildCount() == 1 {
		values = []*sitter.Node{right.NamedChild(0)}
	}
	var parts []ir.Expr
	next := 0
	for i := 0; i < len(tmpl); {
		if tmpl[i] != '%' {
			j := strings.IndexByte(tmpl[i:], '%')
			if j < 0 {
				j = len(tmpl) - i
			}
			parts = append(parts, &ir.Lit{T: tString, Value: tmpl[i : i+j]})
			i += j
			continue
		}
		d := pyPercentDirectiveRe.FindString(tmpl[i:])
		if d == "" {
			t.decline(n, "%-format "+strconv.Quote(tmpl), "only the directives %%, %s, %d, %i and %.kf without flags or widths are translated")
			return nil
		}
		i += len(d)
		if d == "%%" {
			parts = append(parts, &ir.Lit{T: tString, Value: "%"})
			continue
		}
		if next >= len(values) {
			t.decline(n, "%-format "+strconv.Quote(tmpl), "more directives than values: CPython raises TypeError")
			return nil
		}
		v := values[next]
		next++
		b := t.pyExpr(v, e)
		if b == nil {
			return nil
		}
		what := "%-format directive " + d + " of " + t.text(v)
		var p ir.Expr
		switch d[1] {
		case 's':
			p = t.pyStrOf(v, *b)
		case 'd', 'i':
			p = t.pyIntFormat(n, what, "d", *b)
		default:
			p = t.pyFixedFormat(n, what, d[1:], *b)
		}
		if p == nil {
			return nil
		}
		parts = append(parts, p)
	}
	if next != len(values) {
		t.decline(n, "%-format "+strconv.Quote(tmpl), "fewer directives than values: CPython raises TypeError")
		return nil
	}
	return lit(concatParts(parts))
}

// concatParts is the str of parts joined: "" for none, the part for one,
// adjacent literal texts as one.
func concatParts(in []ir.Expr) ir.Expr {
	var parts []ir.Expr
	for _, p := range in {
		if l, ok := p.(*ir.Lit); ok && len(parts) > 0 {
			if prev, ok := parts[len(parts)-1].(*ir.Lit); ok && isString(prev) && isString(l) && prev.Value != nil && l.Value != nil {
				parts[len(parts)-1] = &ir.Lit{T: tString, Value: prev.Value.(string) + l.Value.(string)}
				continue
			}
		}
		parts = append(parts, p)
	}
	switch len(parts) {
	case 0:
		return &ir.Lit{T: tString, Value: ""}
	case 1:
		return parts[0]
	}
	return &ir.Call{Fn: ir.Concat, Args: parts, T: tString}
}

// pyStrOf is str(x) as CPython prints it, never NULL: a str itself, an
// int in decimal, True/False, None for None. A float is declined:
// CPython's repr and Spark's CAST to STRING choose digits differently.
func (t *tr) pyStrOf(n *sitter.Node, b binding) ir.Expr {
	ty := b.e.Type()
	var s ir.Expr
	switch {
	case ty == nil:
		return &ir.Lit{T: tString, Value: "None"}
	case isString(b.e):
		s = b.e
	case ir.IsIntegral(ty):
		s = &ir.Cast{Kind: ir.IntToString, X: b.e, To: tString}
	case isBool(ty):
		s = &ir.If{Cond: b.e, Then: &ir.Lit{T: tString, Value: "True"}, Else: &ir.Lit{T: tString, Value: "False"}}
	default:
		t.decline(n, "str() of "+typeName(b.e), "CPython's repr of a float and Spark's CAST to STRING print different digits")
		return nil
	}
	if b.nullable {
		// If's condition is never NULL: a NULL bool takes the None branch first.
		s = &ir.If{Cond: &ir.IsNull{X: b.e}, Then: &ir.Lit{T: tString, Value: "None"}, Else: s}
	}
	return s
}

// pyStrSubscript is s[k] and s[a:b] on a str with int-literal bounds
// (code points, as Spark's substring counts). On None CPython raises
// TypeError; so does the rewrite.
func (t *tr) pyStrSubscript(n, v, sub *sitter.Node, e env) *binding {
	s := t.pyExpr(v, e)
	if s == nil {
		return nil
	}
	if !isString(s.e) {
		t.decline(n, "a subscript of "+typeName(s.e), "only str indexing and slicing with int literals are translated")
		return nil
	}
	bound := func(b *sitter.Node) (*ir.Lit, bool) {
		if b == nil {
			return &ir.Lit{T: tLong}, true
		}
		x := t.pyExpr(b, e)
		if x == nil {
			return nil, false
		}
		l, ok := x.e.(*ir.Lit)
		if !ok || !ir.IsIntegral(l.T) {
			t.decline(b, "a str index that is not an int literal", "not translated")
			return nil, false
		}
		return l, true
	}
	var res ir.Expr
	if sub.Kind() == "slice" {
		var parts [3]*sitter.Node
		i := 0
		for j := uint(0); j < sub.ChildCount(); j++ {
			c := sub.Child(j)
			if c.Kind() == ":" {
				i++
				continue
			}
			if i < 3 && c.IsNamed() {
				parts[i] = c
			}
		}
		if i > 1 && parts[2] != nil {
			t.decline(sub, "a str slice with a step", "not translated")
			return nil
		}
		a, ok := bound(parts[0])
		if !ok {
			return nil
		}
		z, ok := bound(parts[1])
		if !ok {
			return nil
		}
		if av, ok := a.Value.(int64); ok && av < 0 {
			if zv, ok := z.Value.(int64); ok && zv >= 0 {
				t.decline(sub, "a slice from the end to a position from the start", "not translated")
				return nil
			}
		}
		res = &ir.Call{Fn: ir.PySlice, Args: []ir.Expr{s.e, a, z}, T: tString}
	} else {
		k, ok := bound(sub)
		if !ok {
			return nil
		}
		res = &ir.Call{Fn: ir.PyCharAt, Args: []ir.Expr{s.e, k}, T: tString}
	}
	if s.nullable {
		res = raiseWhereNull(s.e, res, "TypeError where "+t.text(n)+" subscripts None")
	}
	return lit(res)
}

func isDate(e ir.Expr) bool { return e != nil && e.Type() != nil && e.Type().Kind == udf.Date }

// pyDateAttribute is d.year, d.month, d.day of a datetime.date and
// (a - b).days of two; nil (without a decline) for other attributes.
func (t *tr) pyDateAttribute(n *sitter.Node, e env) *binding {
	obj, attr := n.ChildByFieldName("object"), t.text(n.ChildByFieldName("attribute"))
	for obj.Kind() == "parenthesized_expression" && obj.NamedChildCount() == 1 {
		obj = obj.NamedChild(0)
	}
	if attr == "days" && obj.Kind() == "binary_operator" && t.text(obj.ChildByFieldName("operator")) == "-" {
		a, b := t.pyExpr(obj.ChildByFieldName("left"), e), t.pyExpr(obj.ChildByFieldName("right"), e)
		if a == nil || b == nil {
			return nil
		}
		if !isDate(a.e) || !isDate(b.e) {
			t.decline(obj, "`-` on "+typeName(a.e)+" and "+typeName(b.e), "only the difference of two dates is translated")
			return nil
		}
		var res ir.Expr = &ir.Call{Fn: ir.PyDaysBetween, Args: []ir.Expr{a.e, b.e}, T: tInt}
		for _, x := range []*binding{a, b} {
			if x.nullable {
				// date - None raises TypeError.
				res = raiseWhereNull(x.e, res, "TypeError where "+t.text(obj)+" has None")
			}
		}
		return lit(res)
	}
	if obj.Kind() != "identifier" {
		return nil
	}
	if _, ok := e[t.text(obj)]; !ok {
		return nil
	}
	d := t.pyExpr(obj, e)
	if d == nil || !isDate(d.e) {
		return nil
	}
	f, ok := map[string]ir.Func{"year": ir.PyDateYear, "month": ir.PyDateMonth, "day": ir.PyDateDay}[attr]
	if !ok {
		t.decline(n, "date."+attr, "only year, month, day, weekday(), isoweekday(), isoformat(), strftime() and (a - b).days are translated")
		return nil
	}
	var res ir.Expr = &ir.Call{Fn: f, Args: []ir.Expr{d.e}, T: tInt}
	if d.nullable {
		res = t.throwOnNull(n, d.e, res)
	}
	return lit(res)
}

// pyIntArith is CPython's int + - * where both operands are bounded and
// the exact result provably fits in BIGINT (an INT where it fits in
// one): Python ints never overflow, so without a bound it is declined.
func (t *tr) pyIntArith(n *sitter.Node, op string, l, r ir.Expr) *binding {
	o := map[string]ir.Op{"+": ir.PyIntAdd, "-": ir.PyIntSub, "*": ir.PyIntMul}[op]
	if o == "" {
		t.decline(n, "Python operator "+op+" on ints", "not translated")
		return nil
	}
	res := &ir.Binary{Op: o, L: l, R: r, T: tLong}
	lo, hi, ok := ir.IntRange(res)
	if (!ok || lo.Cmp(big.NewInt(math.MinInt64)) < 0 || hi.Cmp(big.NewInt(math.MaxInt64)) > 0) &&
		(ir.IsIntegral(l.Type()) && ir.IsIntegral(r.Type()) && (t.u.Return.Kind == udf.Long || t.u.Return.Kind == udf.Int)) {
		// Exact in DECIMAL, and stored as PySpark stores an int beyond
		// BIGINT; fitReturn declines it anywhere but the result.
		return lit(&ir.Call{Fn: ir.PyIntExact, Args: []ir.Expr{l, r, &ir.Lit{T: tString, Value: op}}, T: tLong})
	}
	if !ok || lo.Cmp(big.NewInt(math.MinInt64)) < 0 || hi.Cmp(big.NewInt(math.MaxInt64)) > 0 {
		t.decline(n, "arithmetic on Python ints", "Python ints never overflow where Spark's INT and BIGINT do; translated only where the operands' ranges (literals, date parts, lengths) bound the result within BIGINT")
		return nil
	}
	if lo.Cmp(big.NewInt(math.MinInt32)) >= 0 && hi.Cmp(big.NewInt(math.MaxInt32)) <= 0 {
		res.T = tInt
	}
	return lit(res)
}

// isArray: a list the translator built (str.split's fields).
func isArray(e ir.Expr) bool {
	return e != nil && e.Type() != nil && e.Type().Kind == udf.Array
}

func isSplitCall(t *tr, n *sitter.Node) bool {
	f := n.ChildByFieldName("function")
	return f != nil && f.Kind() == "attribute" && t.text(f.ChildByFieldName("attribute")) == "split"
}

// pyMinMax is CPython's min(a, b, ...) and max(...) on numbers: it keeps
// the first argument and takes each later one only where it compares
// strictly below (above) the one kept, so of equal values (-0.0 and 0.0)
// the first wins and a NaN wins only where it comes first. None raises
// TypeError in the comparison. Ints and floats are not mixed: the result
// would be either type, and PySpark stores the other one as NULL.
func (t *tr) pyMinMax(n *sitter.Node, fn string, argNodes []*sitter.Node, e env) ir.Expr {
	var res ir.Expr
	for _, a := range argNodes {
		if a.Kind() == "keyword_argument" || a.Kind() == "list_splat" {
			t.decline(a, fn+" with "+t.text(a), "only positional arguments are translated")
			return nil
		}
		x := t.pyValue(a, e)
		if x == nil {
			return nil
		}
		if res == nil {
			res = x
			continue
		}
		switch {
		case ir.IsIntegral(res.Type()) && ir.IsIntegral(x.Type()):
			res, x, _ = promote(res, x)
		case ir.IsDouble(res.Type()) && ir.IsDouble(x.Type()):
		default:
			t.decline(n, fn+" of "+typeName(res)+" and "+typeName(x), "only ints with ints or floats with floats are translated (the result's Python type would depend on the values)")
			return nil
		}
		op := ir.Lt
		if fn == "max" {
			op = ir.Gt
		}
		res = &ir.If{Cond: &ir.Binary{Op: op, L: x, R: res, T: tBool}, Then: x, Else: res}
	}
	return res
}

// pyUnpack is `a, b = s.split(sep)`: CPython raises ValueError unless
// the split gives exactly as many fields as there are names (checked
// before the rest runs, as the assignment comes first); each name is
// then its field.
func (t *tr) pyUnpack(x *sitter.Node, rest []*sitter.Node, e env) *binding {
	left, right := x.ChildByFieldName("left"), x.ChildByFieldName("right")
	names := namedNonComment(left)
	for _, nm := range names {
		if nm.Kind() != "identifier" {
			t.decline(nm, "unpacking into "+t.text(nm), "only names are unpacked")
			return nil
		}
	}
	if right.Kind() != "call" || !isSplitCall(t, right) {
		t.decline(right, "unpacking "+t.text(right), "only the fields of str.split are unpacked")
		return nil
	}
	arr := t.pySplit(right, e)
	if arr == nil {
		return nil
	}
	inner := e
	for i, nm := range names {
		inner = inner.with(t.text(nm), binding{e: &ir.Call{Fn: ir.ElementAt, Args: []ir.Expr{arr, &ir.Lit{T: tInt, Value: int64(i + 1)}}, T: tString}})
	}
	res := t.pyStmts(rest, inner)
	if res == nil {
		return nil
	}
	ty := res.e.Type()
	if ty == nil {
		// The rest returns None: the raise stands for the result.
		ty = t.u.Return
	}
	wrong := &ir.Binary{Op: ir.Ne, L: &ir.Call{Fn: ir.Size, Args: []ir.Expr{arr}, T: tInt}, R: &ir.Lit{T: tInt, Value: int64(len(names))}, T: tBool}
	raise := &binding{e: &ir.Raise{Msg: "udfx: the original throws " + asciiSnippet(fmt.Sprintf("ValueError (%s does not give %d fields)", t.text(right), len(names))), T: ty}}
	return t.ifOf(x, wrong, raise, res)
}
