package translate

import (
	"math"
	"strconv"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/udfx/udfx/harness/translate/ir"
	"github.com/udfx/udfx/harness/udf"
)

// scalaFunction translates an apply/call method or a lambda.
func (t *tr) scalaFunction(n *sitter.Node, e env) ir.Expr {
	var body *sitter.Node
	switch n.Kind() {
	case "function_definition":
		body = n.ChildByFieldName("body")
	case "lambda_expression":
		body = n.NamedChild(n.NamedChildCount() - 1)
	default:
		if t.placeholderLambda() {
			// _.trim, _ + _: the expression is the body, each _ a
			// parameter (scalaPlaceholder).
			body = n
		}
	}
	if body == nil {
		t.decline(n, n.Kind(), "not a function body the translator knows")
		return nil
	}
	b := t.scalaTail(body, e)
	if b == nil {
		return nil
	}
	return b.e
}

// scalaTail translates n in tail position, where `return` may appear.
func (t *tr) scalaTail(n *sitter.Node, e env) *binding {
	switch n.Kind() {
	case "block", "indented_block":
		return t.scalaStmts(namedNonComment(n), e)
	case "return_expression":
		if n.NamedChildCount() == 0 {
			t.decline(n, "return without a value", "not translated")
			return nil
		}
		return t.scalaExpr(n.NamedChild(0), e, true)
	}
	return t.scalaExpr(n, e, true)
}

// placeholderLambda reports whether the UDF is a placeholder lambda, whose
// parameters the front-end tied to its underscores.
func (t *tr) placeholderLambda() bool {
	return len(t.u.Params) > 0 && t.u.Params[0].Placeholder != nil
}

// scalaPlaceholder is the parameter an underscore of a placeholder lambda
// stands for (n is the _ or _: T the front-end tied to it), or nil: any
// other underscore is a lambda of its own, which is not translated.
func (t *tr) scalaPlaceholder(n *sitter.Node, e env) *binding {
	w := n
	if n.Kind() == "ascription_expression" {
		if n.NamedChildCount() != 2 || n.NamedChild(0).Kind() != "wildcard" {
			return nil
		}
		// The ascribed type is the parameter's, as the front-end read it.
		w = n.NamedChild(0)
	}
	sp := t.span(w)
	if b, ok := t.wildcards[sp]; ok {
		return &b
	}
	for _, p := range t.u.Params {
		if p.Placeholder != nil && *p.Placeholder == sp {
			if b, ok := e[p.Name]; ok {
				return &b
			}
		}
	}
	return nil
}

func namedNonComment(n *sitter.Node) []*sitter.Node {
	var out []*sitter.Node
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		if c.Kind() != "comment" && c.Kind() != "block_comment" {
			out = append(out, c)
		}
	}
	return out
}

// scalaStmts translates a block's statements in tail position: local
// vals bind, `if (c) return x` splits the rest into a conditional, the
// last expression is the value.
func (t *tr) scalaStmts(stmts []*sitter.Node, e env) *binding {
	if len(stmts) == 0 {
		t.decline(nil, "an empty block", "a Unit result is not translated")
		return nil
	}
	s := stmts[0]
	rest := stmts[1:]
	switch s.Kind() {
	case "val_definition":
		pat := s.ChildByFieldName("pattern")
		val := s.ChildByFieldName("value")
		if pat == nil || pat.Kind() != "identifier" || val == nil {
			t.decline(s, "val with a pattern", "only `val name = expr` is translated")
			return nil
		}
		var b *binding
		if t.isNewDateFormat(val) {
			b = t.newDateFormat(val, func(x *sitter.Node) *binding { return t.scalaExpr(x, e, false) })
		} else {
			b = t.scalaExpr(val, e, false)
		}
		if b == nil {
			return nil
		}
		if len(rest) == 0 {
			t.decline(s, "a block ending in a val", "a Unit result is not translated")
			return nil
		}
		return t.scalaStmts(rest, e.with(t.text(pat), *b))
	case "var_definition":
		t.decline(s, "var", "mutable locals (and the loops that update them) are not translated")
		return nil
	case "return_expression":
		return t.scalaTail(s, e)
	case "if_expression":
		if len(rest) > 0 && s.ChildByFieldName("alternative") == nil {
			cond, thenEnv, elseEnv := t.scalaCond(s.ChildByFieldName("condition"), e)
			if cond == nil {
				return nil
			}
			cons := s.ChildByFieldName("consequence")
			thenStmts := []*sitter.Node{cons}
			if cons.Kind() == "block" {
				thenStmts = namedNonComment(cons)
			}
			th := t.scalaStmts(append(append([]*sitter.Node{}, thenStmts...), rest...), thenEnv)
			el := t.scalaStmts(rest, elseEnv)
			return t.ifOf(s, cond, th, el)
		}
	}
	if fn := s.ChildByFieldName("function"); len(rest) > 0 && s.Kind() == "call_expression" && fn != nil && fn.Kind() == "field_expression" {
		// fmt.setTimeZone(TimeZone.getTimeZone("UTC")) on a local SimpleDateFormat
		if obj := fn.ChildByFieldName("value"); obj.Kind() == "identifier" && e[t.text(obj)].dateFormat != nil {
			nb := t.dateFormatStatement(s, e[t.text(obj)], t.text(fn.ChildByFieldName("field")), namedNonComment(s.ChildByFieldName("arguments")))
			if nb == nil {
				return nil
			}
			return t.scalaStmts(rest, e.with(t.text(obj), *nb))
		}
	}
	if len(rest) > 0 {
		t.decline(s, "a statement whose value is discarded", "side effects are not translated")
		return nil
	}
	return t.scalaTail(s, e)
}

// ifOf joins two translated branches under cond.
func (t *tr) ifOf(n *sitter.Node, cond ir.Expr, th, el *binding) *binding {
	if th == nil || el == nil {
		return nil
	}
	tt, et := th.e.Type(), el.e.Type()
	switch {
	case tt == nil && et == nil:
		return &binding{e: &ir.Lit{}, nullable: true}
	case tt == nil:
		th = &binding{e: &ir.Lit{T: et}, nullable: true}
	case et == nil:
		el = &binding{e: &ir.Lit{T: tt}, nullable: true}
	case !tt.Equal(et):
		l, r, ty := promote(th.e, el.e)
		if ty == nil || ty.Kind == udf.Long && (ir.IsDouble(tt) || ir.IsDouble(et)) {
			t.decline(n, "branches of types "+tt.String()+" and "+et.String(), "not translated")
			return nil
		}
		th = &binding{e: l, nullable: th.nullable}
		el = &binding{e: r, nullable: el.nullable}
	}
	return &binding{e: &ir.If{Cond: cond, Then: th.e, Else: el.e}, nullable: th.nullable || el.nullable}
}

// scalaCond translates a condition and refines the environment for each
// branch: after `x == null` x is null in the then-branch and not null in
// the else-branch.
func (t *tr) scalaCond(n *sitter.Node, e env) (ir.Expr, env, env) {
	for n.Kind() == "parenthesized_expression" && n.NamedChildCount() == 1 {
		n = n.NamedChild(0)
	}
	if n.Kind() == "infix_expression" {
		operands, ops := t.flatInfix(n)
		if logicChain(ops) {
			return t.chainCond(n, operands, ops, e)
		}
		if len(ops) == 1 {
			if c, te, fe, ok := t.nullCheck(operands[0], ops[0], operands[1], e); ok {
				return c, te, fe
			}
		}
	}
	if n.Kind() == "prefix_expression" && t.text(n.Child(0)) == "!" && n.NamedChildCount() == 1 {
		c, te, fe := t.scalaCond(n.NamedChild(0), e)
		if c == nil {
			return nil, nil, nil
		}
		return &ir.Unary{Op: ir.Not, X: c, T: tBool}, fe, te
	}
	c := t.scalaExpr(n, e, false)
	if c == nil {
		return nil, nil, nil
	}
	if !isBool(c.e.Type()) {
		t.decline(n, "a condition of type "+typeName(c.e), "not a boolean")
		return nil, nil, nil
	}
	v := t.unbox(n, *c)
	if v == nil {
		return nil, nil, nil
	}
	te, fe := t.scalaFacts(n, e)
	return v, te, fe
}

// scalaFacts is javaFacts for Scala: `s.startsWith("x")`, endsWith, `i < 0`.
func (t *tr) scalaFacts(n *sitter.Node, e env) (te, fe env) {
	switch n.Kind() {
	case "infix_expression":
		return t.comparisonFacts(t.flatInfix(n))(e)
	case "call_expression":
		fn, args := n.ChildByFieldName("function"), namedNonComment(n.ChildByFieldName("arguments"))
		if fn != nil && fn.Kind() == "field_expression" && len(args) == 1 {
			m := t.text(fn.ChildByFieldName("field"))
			if obj := fn.ChildByFieldName("value"); obj.Kind() == "identifier" && (m == "startsWith" || m == "endsWith") {
				if p, ok := t.strLitOf(t.scalaExpr(args[0], e, false)); ok {
					return affixFact(e, m, t.text(obj), p), e
				}
			}
		}
	}
	return e, e
}

// nullCheck recognises `x == null` and `x != null` on a name and refines
// what each branch knows about it. ok is false for any other operands.
func (t *tr) nullCheck(l *sitter.Node, op string, r *sitter.Node, e env) (ir.Expr, env, env, bool) {
	if !(op == "==" || op == "!=") || r.Kind() != "null_literal" || l.Kind() != "identifier" {
		return nil, nil, nil, false
	}
	name := t.text(l)
	b, ok := e[name]
	if !ok {
		return nil, nil, nil, false
	}
	isNull := e.with(name, binding{e: &ir.Lit{T: b.e.Type()}, nullable: true})
	notNull := e.with(name, binding{e: b.e, nullable: false})
	var cond ir.Expr = &ir.IsNull{X: b.e}
	if !b.nullable {
		cond = &ir.Lit{T: tBool, Value: false}
	}
	if op == "==" {
		return cond, isNull, notNull, true
	}
	return &ir.Unary{Op: ir.Not, X: cond, T: tBool}, notNull, isNull, true
}

// comparisonFacts is scalaFacts of a flattened comparison `i op k`.
func (t *tr) comparisonFacts(operands []*sitter.Node, ops []string) func(env) (env, env) {
	return func(e env) (env, env) {
		if len(ops) == 1 && operands[0].Kind() == "identifier" && (operands[1].Kind() == "integer_literal" || operands[1].Kind() == "prefix_expression") {
			if k, ok := t.intLitOf(t.scalaExpr(operands[1], e, false)); ok {
				te, fe := foundFacts(e, t.text(operands[0]), ops[0], k)
				if k == 0 {
					return nonZeroFacts(te, fe, t.text(operands[0]), ops[0])
				}
				return te, fe
			}
		}
		if len(ops) == 1 && operands[0].Kind() == "identifier" && operands[1].Kind() == "floating_point_literal" && isZeroLit(t.scalaExpr(operands[1], e, false)) {
			return nonZeroFacts(e, e, t.text(operands[0]), ops[0])
		}
		return e, e
	}
}

// logicChain reports whether a flattened infix chain is joined by && or
// || at its lowest precedence (no alphanumeric operator below them).
func logicChain(ops []string) bool {
	has := false
	for _, op := range ops {
		if op == "&&" || op == "||" {
			has = true
		} else if scalaPrec(op) <= 2 {
			return false
		}
	}
	return has
}

// chainCond translates a chain joined by && and || as a condition, with
// Scala's precedence (&& binds tighter) and short-circuit knowledge: the
// right operand of && sees what the left one proved true.
func (t *tr) chainCond(n *sitter.Node, operands []*sitter.Node, ops []string, e env) (ir.Expr, env, env) {
	if len(operands) == 1 {
		return t.scalaCond(operands[0], e)
	}
	for _, want := range []string{"||", "&&"} {
		k := -1
		for i, op := range ops {
			if op == want {
				k = i
			}
		}
		if k < 0 {
			continue
		}
		l, lt, lf := t.chainCond(n, operands[:k+1], ops[:k], e)
		if l == nil {
			return nil, nil, nil
		}
		if want == "||" {
			r, _, rf := t.chainCond(n, operands[k+1:], ops[k+1:], lf)
			if r == nil {
				return nil, nil, nil
			}
			return &ir.Binary{Op: ir.Or, L: l, R: r, T: tBool}, e, rf
		}
		r, rt, _ := t.chainCond(n, operands[k+1:], ops[k+1:], lt)
		if r == nil {
			return nil, nil, nil
		}
		return &ir.Binary{Op: ir.And, L: l, R: r, T: tBool}, rt, e
	}
	if len(ops) == 1 {
		if c, te, fe, ok := t.nullCheck(operands[0], ops[0], operands[1], e); ok {
			return c, te, fe
		}
	}
	b := t.chainExpr(n, operands, ops, e)
	if b == nil {
		return nil, nil, nil
	}
	if !isBool(b.e.Type()) {
		t.decline(n, "a condition of type "+typeName(b.e), "not a boolean")
		return nil, nil, nil
	}
	v := t.unbox(n, *b)
	if v == nil {
		return nil, nil, nil
	}
	te, fe := t.comparisonFacts(operands, ops)(e)
	return v, te, fe
}

// scalaExpr translates an expression; tail says whether `return` may
// appear in it.
func (t *tr) scalaExpr(n *sitter.Node, e env, tail bool) *binding {
	switch n.Kind() {
	case "parenthesized_expression":
		if n.NamedChildCount() == 1 {
			return t.scalaExpr(n.NamedChild(0), e, tail)
		}
	case "block", "indented_block":
		if tail {
			return t.scalaTail(n, e)
		}
		st := namedNonComment(n)
		if len(st) == 1 {
			return t.scalaExpr(st[0], e, false)
		}
	case "return_expression":
		if tail {
			return t.scalaTail(n, e)
		}
		t.decline(n, "return inside an expression", "only returns in tail position are translated")
		return nil
	case "identifier":
		if b, ok := e[t.text(n)]; ok {
			if b.dateFormat != nil {
				return t.dateFormatAsValue(n)
			}
			return &b
		}
		if c := t.constant(n); c == nil || c.dateFormat == nil {
			return c
		}
		return t.dateFormatAsValue(n)
	case "wildcard", "ascription_expression":
		if b := t.scalaPlaceholder(n, e); b != nil {
			return b
		}
	case "floating_point_literal":
		return lit(t.jvmNumber(n, t.text(n), true))
	case "integer_literal":
		return lit(t.jvmNumber(n, t.text(n), false))
	case "boolean_literal":
		return lit(&ir.Lit{T: tBool, Value: t.text(n) == "true"})
	case "null_literal":
		return &binding{e: &ir.Lit{}, nullable: true}
	case "string":
		if s, ok := scalaString(t.text(n)); ok {
			return lit(&ir.Lit{T: tString, Value: s})
		}
	case "interpolated_string_expression":
		return t.scalaInterpolated(n, e)
	case "character_literal":
		if s, err := strconv.Unquote(`"` + strings.Trim(t.text(n), "'") + `"`); err == nil && len([]rune(s)) == 1 && []rune(s)[0] < 0x10000 {
			return &binding{e: &ir.Lit{T: tString, Value: s}, char: true}
		}
	case "if_expression":
		if n.ChildByFieldName("alternative") == nil {
			t.decline(n, "if without else", "a Unit result is not translated")
			return nil
		}
		cond, te, ee := t.scalaCond(n.ChildByFieldName("condition"), e)
		if cond == nil {
			return nil
		}
		th := t.scalaBranch(n.ChildByFieldName("consequence"), te, tail)
		el := t.scalaBranch(n.ChildByFieldName("alternative"), ee, tail)
		return t.ifOf(n, cond, th, el)
	case "prefix_expression":
		op := t.text(n.Child(0))
		x := t.scalaExpr(n.NamedChild(0), e, false)
		if x == nil {
			return nil
		}
		v := t.unbox(n, *x)
		if v == nil {
			return nil
		}
		switch op {
		case "-":
			return lit(t.jvmNeg(n, v))
		case "!":
			if isBool(v.Type()) {
				return lit(&ir.Unary{Op: ir.Not, X: v, T: tBool})
			}
		}
	case "infix_expression":
		return t.scalaInfix(n, e)
	case "field_expression":
		// x.toInt, x.toDouble, s.isEmpty; Obj.Const
		if v := n.ChildByFieldName("value"); v.Kind() == "identifier" {
			if _, local := e[t.text(v)]; !local {
				switch t.text(v) {
				case "math", "Math", "scala.math":
					switch t.text(n.ChildByFieldName("field")) {
					case "Pi", "PI":
						return lit(&ir.Lit{T: tDouble, Value: math.Pi})
					case "E":
						return lit(&ir.Lit{T: tDouble, Value: math.E})
					}
				}
				if t.definesType(t.text(v)) {
					return t.constant(n.ChildByFieldName("field"))
				}
			}
		}
		if f := t.text(n.ChildByFieldName("field")); f == "length" || f == "size" {
			if s, ok := t.utf8Bytes(n.ChildByFieldName("value")); ok {
				return t.utf8Length(n, s, func(x *sitter.Node) *binding { return t.scalaExpr(x, e, false) })
			}
		}
		if f := t.text(n.ChildByFieldName("field")); (f == "toDouble" || f == "doubleValue") && t.isDecimalRound(n.ChildByFieldName("value")) {
			return t.decimalRound(n.ChildByFieldName("value"), func(x *sitter.Node) *binding { return t.scalaExpr(x, e, false) })
		}
		if t.text(n.ChildByFieldName("field")) == "toOption" && isTry(t, n.ChildByFieldName("value")) {
			return t.scalaTryOf(n, n.ChildByFieldName("value"), nil, e)
		}
		if t.text(n.ChildByFieldName("field")) == "orNull" {
			if o, ok := t.scalaOption(n.ChildByFieldName("value"), e); ok {
				if o == nil {
					return nil
				}
				return t.scalaOptionEnd(n, o, nil)
			}
		}
		recv := t.scalaExpr(n.ChildByFieldName("value"), e, false)
		if recv == nil {
			return nil
		}
		return t.scalaMember(n, t.text(n.ChildByFieldName("field")), recv, nil, nil)
	case "call_expression":
		return t.scalaCall(n, e)
	case "try_expression":
		return t.scalaTry(n, e)
	case "match_expression":
		return t.scalaMatch(n, e, tail)
	}
	t.decline(n, "Scala "+n.Kind(), unhandledReason(n.Kind(), t.text(n)))
	return nil
}

func (t *tr) scalaBranch(n *sitter.Node, e env, tail bool) *binding {
	if tail {
		return t.scalaTail(n, e)
	}
	return t.scalaExpr(n, e, false)
}

func lit(e ir.Expr) *binding {
	if e == nil {
		return nil
	}
	return &binding{e: e}
}

func scalaString(s string) (string, bool) {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' || len(s) >= 6 && s[:3] == `"""` {
		return "", false
	}
	v, err := strconv.Unquote(s)
	if err != nil {
		return "", false
	}
	return v, true
}

// scalaInfix translates a chain of infix operators. The tree-sitter
// grammar nests such chains without Scala's precedence (a * 31 + b % 5
// comes out as ((a * 31) + b) % 5), so the chain is flattened in source
// order and re-parsed with Scala's rules: the first character of the
// operator decides, from lowest: letters, |, ^, &, = !, < >, :, + -,
// * / %, other; all left-associative here.
func (t *tr) scalaInfix(n *sitter.Node, e env) *binding {
	operands, ops := t.flatInfix(n)
	if logicChain(ops) {
		c, _, _ := t.chainCond(n, operands, ops, e)
		return lit(c)
	}
	return t.chainExpr(n, operands, ops, e)
}

// flatInfix flattens a chain of infix operators in source order.
func (t *tr) flatInfix(n *sitter.Node) ([]*sitter.Node, []string) {
	var operands []*sitter.Node
	var ops []string
	var flat func(x *sitter.Node)
	flat = func(x *sitter.Node) {
		if x.Kind() != "infix_expression" {
			operands = append(operands, x)
			return
		}
		flat(x.ChildByFieldName("left"))
		ops = append(ops, t.text(x.ChildByFieldName("operator")))
		flat(x.ChildByFieldName("right"))
	}
	flat(n)
	return operands, ops
}

// chainExpr evaluates a flattened chain with Scala's precedence.
func (t *tr) chainExpr(n *sitter.Node, operands []*sitter.Node, ops []string, e env) *binding {
	vals := make([]*binding, len(operands))
	for i, o := range operands {
		if vals[i] = t.scalaExpr(o, e, false); vals[i] == nil {
			return nil
		}
	}
	pos := 0
	var parse func(minPrec int) *binding
	parse = func(minPrec int) *binding {
		lhs := vals[pos]
		for pos < len(ops) {
			op := ops[pos]
			p := scalaPrec(op)
			if p < minPrec || op[len(op)-1] == ':' {
				if op[len(op)-1] == ':' {
					t.decline(n, "operator "+op, "right-associative operators are not translated")
					return nil
				}
				break
			}
			pos++
			rhs := parse(p + 1)
			if rhs == nil || lhs == nil {
				return nil
			}
			if lhs = t.scalaApply(n, op, lhs, rhs); lhs == nil {
				return nil
			}
		}
		return lhs
	}
	return parse(0)
}

func scalaPrec(op string) int {
	c := op[0]
	switch {
	case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_':
		return 1
	case c == '|':
		return 2
	case c == '^':
		return 3
	case c == '&':
		return 4
	case c == '=' || c == '!':
		return 5
	case c == '<' || c == '>':
		return 6
	case c == ':':
		return 7
	case c == '+' || c == '-':
		return 8
	case c == '*' || c == '/' || c == '%':
		return 9
	}
	return 10
}

// scalaApply applies one infix operator.
func (t *tr) scalaApply(n *sitter.Node, op string, l, r *binding) *binding {
	isNullLit := func(b *binding) bool {
		lt, ok := b.e.(*ir.Lit)
		return ok && lt.Value == nil && lt.T == nil
	}
	if (op == "==" || op == "!=") && (isNullLit(l) || isNullLit(r)) {
		x := l
		if isNullLit(l) {
			x = r
		}
		var c ir.Expr = &ir.IsNull{X: x.e}
		if !x.nullable {
			c = &ir.Lit{T: tBool, Value: false}
		}
		if op == "!=" {
			c = &ir.Unary{Op: ir.Not, X: c, T: tBool}
		}
		return lit(c)
	}
	if t.declineCharOperator(n, op, l, r) {
		return nil
	}
	if op == "+" && (isString(l.e) || isString(r.e)) {
		return t.jvmConcat(n, l, r)
	}
	if (op == "==" || op == "!=") && isString(l.e) && isString(r.e) {
		// Scala's == on strings is equals, and null == null.
		var c ir.Expr = &ir.Binary{Op: ir.StrEqNullSafe, L: t.sigmaBlind(l.e, r.e, false), R: t.sigmaBlind(r.e, l.e, false), T: tBool}
		if op == "!=" {
			c = &ir.Unary{Op: ir.Not, X: c, T: tBool}
		}
		return lit(c)
	}
	if isString(l.e) || isString(r.e) {
		t.decline(n, "operator "+op+" on "+typeName(l.e)+" and "+typeName(r.e), "not translated")
		return nil
	}
	if (op == "==" || op == "!=") && (l.nullable || r.nullable) {
		t.decline(n, "== on a boxed value", "Scala's == on boxed numbers is not translated; compare with null first")
		return nil
	}
	lv, rv := t.unbox(n, *l), t.unbox(n, *r)
	if lv == nil || rv == nil {
		return nil
	}
	return t.offsetArith(n, op, l, r, lv, rv)
}

// scalaCall translates math.f(x), x.f(y) and s.method(args).
func (t *tr) scalaCall(n *sitter.Node, e env) *binding {
	fn := n.ChildByFieldName("function")
	argsNode := n.ChildByFieldName("arguments")
	// Codes(k), Codes.getOrElse(k, d), Codes.contains(k) on a Map val.
	if fn != nil && argsNode != nil {
		obj, method := fn, "apply"
		if _, isMap := t.scalaMapOf(fn); !isMap && fn.Kind() == "field_expression" {
			obj, method = fn.ChildByFieldName("value"), t.text(fn.ChildByFieldName("field"))
		}
		if _, local := e[t.text(obj)]; !local {
			if m, isMap := t.scalaMapOf(obj); isMap {
				if m == nil {
					return nil
				}
				var args []*binding
				for _, a := range namedNonComment(argsNode) {
					b := t.scalaExpr(a, e, false)
					if b == nil {
						return nil
					}
					args = append(args, b)
				}
				return t.mapLookup(n, m, method, args)
			}
		}
	}
	if fn != nil && argsNode != nil && (fn.Kind() == "call_expression" || fn.Kind() == "identifier") {
		// line.split(",")(0), parts(0)
		if b, local := e[t.text(fn)]; fn.Kind() == "call_expression" || local && isArray(b.e) {
			arr := t.scalaExpr(fn, e, false)
			args := namedNonComment(argsNode)
			if arr == nil {
				return nil
			}
			if isArray(arr.e) && len(args) == 1 {
				k := t.scalaExpr(args[0], e, false)
				if k == nil {
					return nil
				}
				return lit(t.jvmIndex(n, arr.e, k.e))
			}
		}
	}
	if fn != nil && argsNode != nil {
		// helper(x), Helpers.helper(x)
		if _, local := e[t.text(fn)]; fn.Kind() == "identifier" && !local {
			return t.scalaHelper(n, t.text(fn), namedNonComment(argsNode), e)
		}
		if v := fn.ChildByFieldName("value"); fn.Kind() == "field_expression" && v.Kind() == "identifier" && t.definesType(t.text(v)) {
			if _, local := e[t.text(v)]; !local {
				return t.scalaHelper(n, t.text(fn.ChildByFieldName("field")), namedNonComment(argsNode), e)
			}
		}
	}
	if fn == nil || fn.Kind() != "field_expression" || argsNode == nil {
		t.decline(n, "call "+t.text(n), "only math functions and methods called on a value (x.f(…)) are translated")
		return nil
	}
	if name := t.text(fn.ChildByFieldName("field")); name == "format" {
		if b, handled := t.jvmTimeFormat(n, fn.ChildByFieldName("value"), namedNonComment(argsNode), t.scalaName(e)); handled {
			return b
		}
	}
	if t.isJVMTimeFormatterCall(n) {
		return t.dateTimeFormatter(n, t.scalaName(e))
	}
	if b, handled := t.dateFormatCall(n, fn.ChildByFieldName("value"), t.text(fn.ChildByFieldName("field")), namedNonComment(argsNode), e,
		func(x *sitter.Node) *binding { return t.scalaExpr(x, e, false) }); handled {
		return b
	}
	if t.text(fn.ChildByFieldName("field")) == "doubleValue" && len(namedNonComment(argsNode)) == 0 && t.isDecimalRound(fn.ChildByFieldName("value")) {
		return t.decimalRound(fn.ChildByFieldName("value"), func(x *sitter.Node) *binding { return t.scalaExpr(x, e, false) })
	}
	var args []ir.Expr
	var argBs []*binding
	for _, a := range t.caseLocale(t.text(fn.ChildByFieldName("field")), namedNonComment(argsNode)) {
		b := t.scalaExpr(a, e, false)
		if b == nil {
			return nil
		}
		argBs = append(argBs, b)
		v := b.e
		if b.e.Type() == nil || b.e.Type().Kind != udf.String {
			if v = t.unbox(a, *b); v == nil {
				return nil
			}
		} else if b.nullable {
			t.decline(a, "a possibly-null string argument", "not translated; check for null first")
			return nil
		}
		args = append(args, v)
	}
	obj := fn.ChildByFieldName("value")
	name := t.text(fn.ChildByFieldName("field"))
	if name == "getOrElse" && len(args) == 1 && isTry(t, obj) {
		return t.scalaTryOf(n, obj, argBs[0], e)
	}
	if name == "getOrElse" && len(args) == 1 {
		// Option(x)….getOrElse(d): d where the option holds nothing.
		if o, ok := t.scalaOption(obj, e); ok {
			if o == nil {
				return nil
			}
			return t.scalaOptionEnd(n, o, &binding{e: args[0]})
		}
	}
	switch t.text(obj) {
	case "math", "scala.math", "Math", "java.lang.Math":
		return lit(t.jvmMath(n, name, args))
	}
	if b, ok := boxOf(t.text(obj), name, args); ok {
		return b
	}
	recv := t.scalaExpr(obj, e, false)
	if recv == nil {
		return nil
	}
	return t.scalaMember(n, name, recv, args, argBs)
}

// scalaMember translates recv.name or recv.name(args).
func (t *tr) scalaMember(n *sitter.Node, name string, recv *binding, args []ir.Expr, argBs []*binding) *binding {
	if recv.e.Type() != nil && recv.e.Type().Kind == udf.String {
		if b, handled := t.utf16Method(n, name, recv, argBs); handled {
			return b
		}
		var res ir.Expr
		if (name == "isEmpty" || name == "nonEmpty") && len(args) == 0 {
			res = &ir.Call{Fn: ir.IsEmpty, Args: []ir.Expr{recv.e}, T: tBool}
			if name == "nonEmpty" {
				res = &ir.Unary{Op: ir.Not, X: res, T: tBool}
			}
		} else {
			res = t.jvmStringMethod(n, name, recv.e, args)
		}
		if recv.nullable {
			res = t.throwOnNull(n, recv.e, res)
		}
		return lit(res)
	}
	if isArray(recv.e) && len(args) == 0 && (name == "length" || name == "size") {
		return lit(&ir.Call{Fn: ir.Size, Args: []ir.Expr{recv.e}, T: tInt})
	}
	v := t.unbox(n, *recv)
	if v == nil {
		return nil
	}
	if len(args) == 0 {
		switch name {
		case "toInt":
			return lit(t.jvmConvert(n, "int", v))
		case "toLong":
			return lit(t.jvmConvert(n, "long", v))
		case "toDouble":
			return lit(t.jvmConvert(n, "double", v))
		case "abs":
			return lit(t.jvmMath(n, "abs", []ir.Expr{v}))
		case "sqrt", "floor", "ceil":
		}
	}
	if len(args) == 1 && (name == "max" || name == "min") {
		return lit(t.jvmMath(n, name, []ir.Expr{v, args[0]}))
	}
	t.decline(n, "method "+name+" on "+typeName(v), "no rule proves a Spark SQL form equal to this method on a "+typeName(v))
	return nil
}

// scalaMatch translates a match on literals, variable and wildcard
// patterns, with guards, ending in a case that always matches.
func (t *tr) scalaMatch(n *sitter.Node, e env, tail bool) *binding {
	scrut := t.scalaExpr(n.ChildByFieldName("value"), e, false)
	if scrut == nil {
		return nil
	}
	if scrut.nullable && !isString(scrut.e) {
		t.decline(n, "match on a possibly-null "+typeName(scrut.e), "not translated; check for null first")
		return nil
	}
	body := n.ChildByFieldName("body")
	if body == nil {
		t.decline(n, "match", "no cases")
		return nil
	}
	var arms []matchArm
	var dflt *binding
	for _, c := range namedNonComment(body) {
		if c.Kind() != "case_clause" || dflt != nil {
			t.decline(c, "case after one that always matches", "not translated")
			return nil
		}
		arm, ok := t.scalaCase(c, scrut, e, tail)
		if !ok {
			return nil
		}
		if arm.cond == nil {
			dflt = arm.val
			continue
		}
		arms = append(arms, arm)
	}
	if dflt == nil {
		// An unmatched value throws MatchError: so does the rewrite.
		if dflt = t.matchErrorDefault(n, arms); dflt == nil {
			return nil
		}
	}
	out := dflt
	for i := len(arms) - 1; i >= 0; i-- {
		if out = t.ifOf(n, arms[i].cond, arms[i].val, out); out == nil {
			return nil
		}
	}
	return out
}

// matchArm is one case of a match: its value where cond holds; a nil
// cond always matches.
type matchArm struct {
	cond ir.Expr
	val  *binding
}

// scalaCase translates one case clause c of a match on scrut: its
// pattern and guard make the arm's condition.
func (t *tr) scalaCase(c *sitter.Node, scrut *binding, e env, tail bool) (matchArm, bool) {
	pat := c.ChildByFieldName("pattern")
	res := c.ChildByFieldName("body")
	if pat == nil || res == nil {
		t.decline(c, "case without a body", "not translated")
		return matchArm{}, false
	}
	cond, ce, ok := t.scalaCasePattern(pat, scrut, e)
	if !ok {
		return matchArm{}, false
	}
	var g *sitter.Node
	for _, k := range namedNonComment(c) {
		if k.Kind() == "guard" {
			g = k
		}
	}
	if g != nil {
		gc := g.ChildByFieldName("condition")
		if gc == nil {
			t.decline(g, "guard "+t.text(g), "not translated")
			return matchArm{}, false
		}
		// The guard runs only where the pattern matched.
		gv, ge, _ := t.scalaCond(gc, ce)
		if gv == nil {
			return matchArm{}, false
		}
		ce = ge
		if cond == nil {
			cond = gv
		} else {
			cond = &ir.Binary{Op: ir.And, L: cond, R: gv, T: tBool}
		}
	}
	val := t.scalaBranch(res, ce, tail)
	if val == nil {
		return matchArm{}, false
	}
	return matchArm{cond, val}, true
}

// scalaCasePattern is the condition under which pat matches scrut (nil:
// always), and the names the case's body sees.
func (t *tr) scalaCasePattern(pat *sitter.Node, scrut *binding, e env) (ir.Expr, env, bool) {
	switch pat.Kind() {
	case "null_literal":
		if scrut.nullable {
			return &ir.IsNull{X: scrut.e}, e, true
		}
		return &ir.Lit{T: tBool, Value: false}, e, true
	case "alternative_pattern":
		var cond ir.Expr
		for _, a := range t.flatAlternatives(pat) {
			p := t.scalaPatternCond(a, scrut, e)
			if p == nil {
				return nil, nil, false
			}
			if cond == nil {
				cond = p
			} else {
				cond = &ir.Binary{Op: ir.Or, L: cond, R: p, T: tBool}
			}
		}
		return cond, e, true
	case "wildcard":
		return nil, e, true
	case "identifier":
		// A variable pattern binds the scrutinee.
		return nil, e.with(t.text(pat), *scrut), true
	default:
		cond := t.scalaPatternCond(pat, scrut, e)
		return cond, e, cond != nil
	}
}

// matchErrorDefault is the value where no arm matches: a raise of
// MatchError, of the type of the first arm that has one.
func (t *tr) matchErrorDefault(n *sitter.Node, arms []matchArm) *binding {
	var ty *udf.Type
	for _, a := range arms {
		if ty == nil {
			ty = a.val.e.Type()
		}
	}
	if ty == nil {
		t.decline(n, "match without a case that always matches", "an unmatched value throws MatchError, and no case gives the result's type")
		return nil
	}
	msg := "udfx: the original throws " + asciiSnippet("scala.MatchError where no case of "+t.text(n.ChildByFieldName("value"))+" matches")
	return &binding{e: &ir.Raise{Msg: msg, T: ty}}
}

func (t *tr) flatAlternatives(n *sitter.Node) []*sitter.Node {
	if n.Kind() != "alternative_pattern" {
		return []*sitter.Node{n}
	}
	var out []*sitter.Node
	for _, c := range namedNonComment(n) {
		out = append(out, t.flatAlternatives(c)...)
	}
	return out
}

// scalaPatternCond is the condition under which a literal pattern
// matches the scrutinee (== on it; for strings equals, where null
// matches nothing).
func (t *tr) scalaPatternCond(pat *sitter.Node, scrut *binding, e env) ir.Expr {
	var p *binding
	switch pat.Kind() {
	case "integer_literal", "floating_point_literal", "boolean_literal", "string", "prefix_expression":
		p = t.scalaExpr(pat, e, false)
	}
	if p == nil {
		t.decline(pat, "pattern "+t.text(pat), "only literal, alternative, variable and wildcard patterns are translated")
		return nil
	}
	if isString(p.e) || isString(scrut.e) {
		if !isString(p.e) || !isString(scrut.e) {
			t.decline(pat, "pattern "+t.text(pat), "its type does not match the scrutinee's")
			return nil
		}
		return &ir.Binary{Op: ir.StrEqNullSafe, L: t.sigmaBlind(scrut.e, p.e, false), R: p.e, T: tBool}
	}
	return t.jvmBinary(pat, "==", scrut.e, p.e)
}

// scalaName is javaName for Scala.
func (t *tr) scalaName(e env) func(*sitter.Node) *binding {
	return t.formatterName(e, func(x *sitter.Node) *binding { return t.scalaExpr(x, e, false) })
}
