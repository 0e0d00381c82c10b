package translate

import (
	"math"
	"strconv"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/udfx/udfx/harness/translate/ir"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/udf/java"
)

// javaMethod translates a UDF1..22 call method (or a Hive evaluate), or
// a UDFn lambda: its expression, or its block as a method's.
func (t *tr) javaMethod(n *sitter.Node, e env) ir.Expr {
	body := n.ChildByFieldName("body")
	if n.Kind() == "lambda_expression" && body != nil && body.Kind() != "block" {
		b := t.javaExpr(body, e)
		if b == nil {
			return nil
		}
		return b.e
	}
	if body == nil || body.Kind() != "block" {
		t.decline(n, "Java "+n.Kind(), "only methods with a block body are translated")
		return nil
	}
	b := t.javaStmts(namedNonComment(body), e)
	if b == nil {
		return nil
	}
	return b.e
}

// javaStmts translates statements up to the return that ends them.
func (t *tr) javaStmts(stmts []*sitter.Node, e env) *binding {
	if len(stmts) == 0 {
		t.decline(nil, "a path without return", "not translated")
		return nil
	}
	s, rest := stmts[0], stmts[1:]
	switch s.Kind() {
	case "return_statement":
		if s.NamedChildCount() == 0 {
			t.decline(s, "return without a value", "not translated")
			return nil
		}
		return t.javaExpr(s.NamedChild(0), e)
	case "block":
		return t.javaStmts(append(namedNonComment(s), rest...), e)
	case "local_variable_declaration":
		decls := s.ChildrenByFieldName("declarator", s.Walk())
		if len(decls) != 1 {
			t.decline(s, "declaration of several variables", "not translated")
			return nil
		}
		d := decls[0]
		name, val := d.ChildByFieldName("name"), d.ChildByFieldName("value")
		ty := t.text(s.ChildByFieldName("type"))
		if kind, ok := javaLocalTypes[ty]; ok && val == nil {
			// double rate; then assigned on each path.
			return t.javaStmts(rest, e.with(t.text(name), binding{e: &ir.Lit{T: udf.Prim(kind)}, unassigned: true}))
		}
		var nb *binding
		if val != nil && t.isNewDateFormat(val) && (ty == "var" || t.jdkClass(ty, "java.text", "SimpleDateFormat") || t.jdkClass(ty, "java.text", "DateFormat")) {
			nb = t.newDateFormat(val, func(x *sitter.Node) *binding { return t.javaExpr(x, e) })
		} else {
			nb = t.javaLocal(s, ty, val, e)
		}
		if nb == nil {
			return nil
		}
		return t.javaStmts(rest, e.with(t.text(name), *nb))
	case "expression_statement":
		x := s.NamedChild(0)
		if x != nil && x.Kind() == "assignment_expression" {
			name, nb := t.javaAssign(x, e)
			if nb == nil {
				return nil
			}
			return t.javaStmts(rest, e.with(name, *nb))
		}
		if x != nil && x.Kind() == "method_invocation" {
			if obj := x.ChildByFieldName("object"); obj != nil && obj.Kind() == "identifier" && e[t.text(obj)].dateFormat != nil {
				nb := t.dateFormatStatement(x, e[t.text(obj)], t.text(x.ChildByFieldName("name")), namedNonComment(x.ChildByFieldName("arguments")))
				if nb == nil {
					return nil
				}
				return t.javaStmts(rest, e.with(t.text(obj), *nb))
			}
		}
		if x != nil && x.Kind() == "method_invocation" && t.text(x.ChildByFieldName("name")) == "set" {
			name, nb := t.javaWritableSet(x, e)
			if nb == nil {
				return nil
			}
			return t.javaStmts(rest, e.with(name, *nb))
		}
	case "switch_expression", "switch_statement":
		return t.javaSwitch(s, rest, e)
	case "try_statement":
		return t.javaTry(s, e)
	case "if_statement":
		cond, te, ee := t.javaCond(s.ChildByFieldName("condition"), e)
		if cond == nil {
			return nil
		}
		th := t.javaStmts(append([]*sitter.Node{s.ChildByFieldName("consequence")}, rest...), te)
		elseStmts := rest
		if alt := s.ChildByFieldName("alternative"); alt != nil {
			elseStmts = append([]*sitter.Node{alt}, rest...)
		}
		el := t.javaStmts(elseStmts, ee)
		return t.ifOf(s, cond, th, el)
	}
	t.decline(s, "Java "+s.Kind(), unhandledReason(s.Kind(), t.text(s)))
	return nil
}

var javaLocalTypes = map[string]udf.TypeKind{"double": udf.Double, "int": udf.Int, "long": udf.Long, "boolean": udf.Boolean,
	"String": udf.String, "java.lang.String": udf.String}

// javaLocal is the value of a local (or constant) of declared type ty
// initialized with val: primitives unbox (a null throws, declined), a
// String keeps what it may be, int widens to long and double.
func (t *tr) javaLocal(s *sitter.Node, ty string, val *sitter.Node, e env) *binding {
	if val != nil && (ty == "var" || t.jdkClass(ty, "java.time.format", "DateTimeFormatter")) && t.isJVMTimeFormatterCall(val) {
		// DateTimeFormatter f = DateTimeFormatter.ofPattern(p)…;
		return t.dateTimeFormatter(val, t.javaName(e))
	}
	if ty == "String[]" && val != nil {
		// String[] parts = s.split(",");
		b := t.javaExpr(val, e)
		if b == nil {
			return nil
		}
		if !isArray(b.e) {
			t.decline(s, "local String[] from "+typeName(b.e), "only the result of String.split is translated")
			return nil
		}
		return &binding{e: b.e}
	}
	kind, ok := javaLocalTypes[ty]
	if val == nil || !(ok || ty == "var") {
		t.decline(s, "local "+ty, "only initialized double, int, long, boolean and String locals are translated")
		return nil
	}
	b := t.javaExpr(val, e)
	if b == nil {
		return nil
	}
	if kind == udf.String {
		if b.e.Type() == nil {
			return &binding{e: &ir.Lit{T: tString}, nullable: true}
		}
		if !isString(b.e) {
			t.decline(s, "local String from "+typeName(b.e), "not translated")
			return nil
		}
		return &binding{e: b.e, nullable: b.nullable}
	}
	if ty == "var" && isString(b.e) {
		return &binding{e: b.e, nullable: b.nullable}
	}
	// A primitive local unboxes (a null throws); var keeps the box.
	var v ir.Expr
	if ty == "var" {
		v = t.unbox(val, *b)
	} else {
		v = t.unboxOrThrow(val, *b)
	}
	if v == nil {
		return nil
	}
	if ty != "var" && v.Type().Kind != kind {
		if (kind == udf.Double || kind == udf.Long) && (v.Type().Kind == udf.Int || v.Type().Kind == udf.Long) {
			v = widen(v, udf.Prim(kind))
		} else {
			t.decline(s, "local "+ty+" from "+typeName(v), "not translated")
			return nil
		}
	}
	// var keeps a boxed value boxed; primitives unbox it. An int keeps
	// what it is an offset into.
	nb := &binding{e: v, boxed: ty == "var" && b.boxed}
	if v == b.e {
		nb.off = b.off
	}
	return nb
}

// javaCond translates a condition, refining null knowledge as scalaCond.
func (t *tr) javaCond(n *sitter.Node, e env) (ir.Expr, env, env) {
	for n.Kind() == "parenthesized_expression" && n.NamedChildCount() == 1 {
		n = n.NamedChild(0)
	}
	if n.Kind() == "binary_expression" {
		op := t.text(n.ChildByFieldName("operator"))
		l, r := n.ChildByFieldName("left"), n.ChildByFieldName("right")
		if op == "||" || op == "&&" {
			return t.logicCond(n, op == "||", e, t.javaCond)
		}
		if (op == "==" || op == "!=") && r.Kind() == "null_literal" && l.Kind() == "identifier" {
			name := t.text(l)
			b, ok := e[name]
			if !ok {
				t.decline(l, "unknown name "+name, "not a parameter or local")
				return nil, nil, nil
			}
			isNull := e.with(name, binding{e: &ir.Lit{T: b.e.Type()}, nullable: true, boxed: b.boxed, writable: b.writable})
			notNull := e.with(name, binding{e: b.e, boxed: b.boxed, writable: b.writable})
			var cond ir.Expr = &ir.IsNull{X: b.e}
			if !b.nullable {
				cond = &ir.Lit{T: tBool, Value: false}
			}
			if op == "==" {
				return cond, isNull, notNull
			}
			return &ir.Unary{Op: ir.Not, X: cond, T: tBool}, notNull, isNull
		}
	}
	if n.Kind() == "unary_expression" && t.text(n.ChildByFieldName("operator")) == "!" {
		c, te, fe := t.javaCond(n.ChildByFieldName("operand"), e)
		if c == nil {
			return nil, nil, nil
		}
		return &ir.Unary{Op: ir.Not, X: c, T: tBool}, fe, te
	}
	c := t.javaExpr(n, e)
	if c == nil {
		return nil, nil, nil
	}
	v := t.unboxOrThrow(n, *c)
	if v == nil {
		return nil, nil, nil
	}
	if !isBool(v.Type()) {
		t.decline(n, "a condition of type "+typeName(v), "not a boolean")
		return nil, nil, nil
	}
	te, fe := t.javaFacts(n, e)
	return v, te, fe
}

// javaFacts refines what each branch of the condition n knows about
// strings and offsets into them: `s.startsWith("x")` (s starts with x
// where it is true; endsWith likewise), `i < 0` on an offset from
// indexOf (found where it is false).
func (t *tr) javaFacts(n *sitter.Node, e env) (te, fe env) {
	switch n.Kind() {
	case "binary_expression":
		l, r := n.ChildByFieldName("left"), n.ChildByFieldName("right")
		op := t.text(n.ChildByFieldName("operator"))
		if l.Kind() == "identifier" && (r.Kind() == "decimal_integer_literal" || r.Kind() == "unary_expression") {
			if k, ok := t.intLitOf(t.javaExpr(r, e)); ok {
				te, fe := foundFacts(e, t.text(l), op, k)
				if k == 0 {
					return nonZeroFacts(te, fe, t.text(l), op)
				}
				return te, fe
			}
		}
		if l.Kind() == "identifier" && r.Kind() == "decimal_floating_point_literal" && isZeroLit(t.javaExpr(r, e)) {
			return nonZeroFacts(e, e, t.text(l), op)
		}
	case "method_invocation":
		obj, args := n.ChildByFieldName("object"), namedNonComment(n.ChildByFieldName("arguments"))
		if m := t.text(n.ChildByFieldName("name")); obj != nil && obj.Kind() == "identifier" && (m == "startsWith" || m == "endsWith") && len(args) == 1 {
			if p, ok := t.strLitOf(t.javaExpr(args[0], e)); ok {
				return affixFact(e, m, t.text(obj), p), e
			}
		}
	}
	return e, e
}

// javaExpr translates a Java expression: literals and names here, each
// operator and call by its own method.
func (t *tr) javaExpr(n *sitter.Node, e env) *binding {
	switch n.Kind() {
	case "parenthesized_expression":
		if n.NamedChildCount() == 1 {
			return t.javaExpr(n.NamedChild(0), e)
		}
	case "identifier":
		if b, ok := e[t.text(n)]; ok {
			if b.unassigned {
				t.decline(n, "local "+t.text(n)+" read before it is assigned", "not translated")
				return nil
			}
			if b.dateFormat != nil {
				return t.dateFormatAsValue(n)
			}
			return &b
		}
		if c := t.constant(n); c == nil || c.dateFormat == nil {
			return c
		}
		return t.dateFormatAsValue(n)
	case "field_access":
		return t.javaFieldAccess(n, e)
	case "string_literal":
		if s, ok := javaString(t.text(n)); ok {
			return lit(&ir.Lit{T: tString, Value: s})
		}
	case "character_literal":
		// A char of the Basic Multilingual Plane outside the surrogates
		// is one code point; as a string it is that code point.
		if s, err := strconv.Unquote(`"` + strings.Trim(t.text(n), "'") + `"`); err == nil && len([]rune(s)) == 1 && []rune(s)[0] < 0x10000 {
			return &binding{e: &ir.Lit{T: tString, Value: s}, char: true}
		}
	case "decimal_floating_point_literal":
		return lit(t.jvmNumber(n, t.text(n), true))
	case "decimal_integer_literal", "hex_integer_literal":
		return lit(t.jvmNumber(n, t.text(n), false))
	case "true", "false":
		return lit(&ir.Lit{T: tBool, Value: n.Kind() == "true"})
	case "null_literal":
		return &binding{e: &ir.Lit{}, nullable: true}
	case "ternary_expression":
		cond, te, ee := t.javaCond(n.ChildByFieldName("condition"), e)
		if cond == nil {
			return nil
		}
		return t.ifOf(n, cond, t.javaExpr(n.ChildByFieldName("consequence"), te), t.javaExpr(n.ChildByFieldName("alternative"), ee))
	case "unary_expression":
		return t.javaUnary(n, e)
	case "binary_expression":
		return t.javaBinary(n, e)
	case "cast_expression":
		return t.javaCast(n, e)
	case "method_invocation":
		return t.javaInvocation(n, e)
	case "array_access":
		arr, idx := t.javaExpr(n.ChildByFieldName("array"), e), t.javaExpr(n.ChildByFieldName("index"), e)
		if arr == nil || idx == nil {
			return nil
		}
		if isArray(arr.e) {
			return lit(t.jvmIndex(n, arr.e, idx.e))
		}
	case "object_creation_expression":
		return t.javaNewWritable(n, e)
	}
	return t.javaUnhandled(n)
}

// javaUnhandled declines an expression no rule translates.
func (t *tr) javaUnhandled(n *sitter.Node) *binding {
	t.decline(n, "Java "+n.Kind(), unhandledReason(n.Kind(), t.text(n)))
	return nil
}

// javaFieldAccess translates Type.NAME: Math.PI, Math.E, or a constant
// of a class the file defines.
func (t *tr) javaFieldAccess(n *sitter.Node, e env) *binding {
	// Consts.NAME, Math.PI
	obj, f := n.ChildByFieldName("object"), n.ChildByFieldName("field")
	if obj != nil && f != nil && t.text(f) == "length" {
		if s, ok := t.utf8Bytes(obj); ok {
			return t.utf8Length(n, s, func(x *sitter.Node) *binding { return t.javaExpr(x, e) })
		}
	}
	if _, local := e[t.textOr(obj)]; obj != nil && f != nil && t.text(f) == "length" && (local || obj.Kind() != "identifier") {
		// parts.length, s.split(",").length
		b := t.javaExpr(obj, e)
		if b == nil {
			return nil
		}
		if isArray(b.e) {
			return lit(&ir.Call{Fn: ir.Size, Args: []ir.Expr{b.e}, T: tInt})
		}
	}
	if obj != nil && f != nil && obj.Kind() == "identifier" {
		if _, local := e[t.text(obj)]; !local {
			if t.text(obj) == "Math" {
				switch t.text(f) {
				case "PI":
					return lit(&ir.Lit{T: tDouble, Value: math.Pi})
				case "E":
					return lit(&ir.Lit{T: tDouble, Value: math.E})
				}
			}
			if t.definesType(t.text(obj)) {
				return t.constant(f)
			}
		}
	}
	return t.javaUnhandled(n)
}

// javaUnary translates -x and !x.
func (t *tr) javaUnary(n *sitter.Node, e env) *binding {
	op := t.text(n.ChildByFieldName("operator"))
	x := t.javaExpr(n.ChildByFieldName("operand"), e)
	if x == nil {
		return nil
	}
	v := t.unboxOrThrow(n, *x)
	if v == nil {
		return nil
	}
	switch {
	case op == "-":
		return lit(t.jvmNeg(n, v))
	case op == "!" && isBool(v.Type()):
		return lit(&ir.Unary{Op: ir.Not, X: v, T: tBool})
	}
	return t.javaUnhandled(n)
}

// javaBinary translates a binary operator: a comparison with null and
// && / || as conditions, + on strings as concatenation, the rest on
// unboxed numbers and booleans.
func (t *tr) javaBinary(n *sitter.Node, e env) *binding {
	op := t.text(n.ChildByFieldName("operator"))
	ln, rn := n.ChildByFieldName("left"), n.ChildByFieldName("right")
	if (op == "==" || op == "!=") && (rn.Kind() == "null_literal") || op == "&&" || op == "||" {
		// As a condition: the right operand of && / || sees what the
		// left one proved (s != null && s.isEmpty()).
		c, _, _ := t.javaCond(n, e)
		return lit(c)
	}
	l, r := t.javaExpr(ln, e), t.javaExpr(rn, e)
	if l == nil || r == nil {
		return nil
	}
	if t.declineCharOperator(n, op, l, r) {
		return nil
	}
	if op == "+" && (isString(l.e) || isString(r.e)) && (l.writable && !isString(l.e) || r.writable && !isString(r.e)) {
		t.decline(n, "a number Writable in a concatenation", "not translated")
		return nil
	}
	if op == "+" && (isString(l.e) || isString(r.e)) {
		// A Text concatenates as its toString(), "null" for null: as
		// the string it holds.
		return t.jvmConcat(n, l, r)
	}
	if l.writable || r.writable {
		t.decline(n, "operator "+op+" on a Writable", "Java applies it to the box, not its value")
		return nil
	}
	if (op == "==" || op == "!=") && (isString(l.e) || isString(r.e)) {
		t.decline(n, "Java "+op+" on strings", "Java compares String references, not their characters; use equals")
		return nil
	}
	if (op == "==" || op == "!=") && l.boxed && r.boxed {
		t.decline(n, "== on two boxed values", "Java compares references")
		return nil
	}
	lv, rv := t.unboxOrThrow(ln, *l), t.unboxOrThrow(rn, *r)
	if lv == nil || rv == nil {
		return nil
	}
	if lv.Type() != nil && lv.Type().Kind == udf.String || rv.Type() != nil && rv.Type().Kind == udf.String {
		t.decline(n, "operator "+op+" on strings", "not translated")
		return nil
	}
	return t.offsetArith(n, op, l, r, lv, rv)
}

// javaCast translates (type) x.
func (t *tr) javaCast(n *sitter.Node, e env) *binding {
	x := t.javaExpr(n.ChildByFieldName("value"), e)
	if x == nil {
		return nil
	}
	v := t.unboxOrThrow(n, *x)
	if v == nil {
		return nil
	}
	return lit(t.jvmConvert(n, t.text(n.ChildByFieldName("type")), v))
}

// javaInvocation translates a method call: Objects.equals on strings,
// Math (or StrictMath) functions, and String methods.
func (t *tr) javaInvocation(n *sitter.Node, e env) *binding {
	obj, name := n.ChildByFieldName("object"), t.text(n.ChildByFieldName("name"))
	if name == "doubleValue" && obj != nil && len(namedNonComment(n.ChildByFieldName("arguments"))) == 0 && t.isDecimalRound(obj) {
		return t.decimalRound(obj, func(x *sitter.Node) *binding { return t.javaExpr(x, e) })
	}
	if _, local := e[t.textOr(obj)]; obj != nil && obj.Kind() == "identifier" && !local {
		if m, isMap := t.javaMapOf(obj); isMap {
			if m == nil {
				return nil
			}
			var args []*binding
			for _, a := range namedNonComment(n.ChildByFieldName("arguments")) {
				b := t.javaExpr(a, e)
				if b == nil {
					return nil
				}
				args = append(args, b)
			}
			return t.mapLookup(n, m, name, args)
		}
	}
	if obj != nil && name == "format" {
		if b, handled := t.jvmTimeFormat(n, obj, namedNonComment(n.ChildByFieldName("arguments")), t.javaName(e)); handled {
			return b
		}
	}
	if t.isJVMTimeFormatterCall(n) {
		return t.dateTimeFormatter(n, t.javaName(e))
	}
	if b, handled := t.dateFormatCall(n, obj, name, namedNonComment(n.ChildByFieldName("arguments")), e, func(x *sitter.Node) *binding { return t.javaExpr(x, e) }); handled {
		return b
	}
	if obj != nil && obj.Kind() == "identifier" {
		if r, ok := e[t.text(obj)]; ok && r.writable {
			return t.writableMethod(n, name, r)
		}
	}
	// helper(x), Helpers.helper(x)
	if _, local := e[t.textOr(obj)]; obj == nil || obj.Kind() == "identifier" && !local && t.definesType(t.text(obj)) {
		return t.javaHelper(n, name, namedNonComment(n.ChildByFieldName("arguments")), e)
	}
	var args []ir.Expr
	var argBs []*binding
	nullArg := false
	for _, a := range t.caseLocale(name, namedNonComment(n.ChildByFieldName("arguments"))) {
		b := t.javaExpr(a, e)
		if b == nil {
			return nil
		}
		argBs = append(argBs, b)
		if b.writable {
			t.decline(a, "a Writable argument of "+name, "Java passes the box, not its value (\"x\".equals(text) is false)")
			return nil
		}
		v := b.e
		if b.nullable && isString(b.e) {
			nullArg = true
		} else if b.nullable {
			if v = t.unbox(a, *b); v == nil {
				return nil
			}
		}
		args = append(args, v)
	}
	if obj != nil && (t.text(obj) == "Objects" || t.text(obj) == "java.util.Objects") && name == "equals" && len(args) == 2 && isString(args[0]) && isString(args[1]) {
		return lit(&ir.Binary{Op: ir.StrEqNullSafe, L: t.sigmaBlind(args[0], args[1], false), R: t.sigmaBlind(args[1], args[0], false), T: tBool})
	}
	if nullArg && name != "equals" {
		t.decline(n, "a possibly-null string argument of "+name, "Java throws NullPointerException; check for null first")
		return nil
	}
	if obj != nil && (t.text(obj) == "Math" || t.text(obj) == "java.lang.Math" || t.text(obj) == "StrictMath") {
		return lit(t.jvmMath(n, name, args))
	}
	if b, ok := boxOf(t.textOr(obj), name, args); ok {
		return b
	}
	if obj != nil {
		r := t.javaExpr(obj, e)
		if r == nil {
			return nil
		}
		if r.e.Type() != nil && r.e.Type().Kind == udf.String {
			if b, handled := t.utf16Method(n, name, r, argBs); handled {
				return b
			}
			res := t.jvmStringMethod(n, name, r.e, args)
			if r.nullable {
				res = t.throwOnNull(n, r.e, res)
			}
			return lit(res)
		}
	}
	return t.javaUnhandled(n)
}

// writableMethod translates get() and Text's toString() on a Writable:
// its value, NullPointerException on null.
func (t *tr) writableMethod(n *sitter.Node, name string, r binding) *binding {
	args := namedNonComment(n.ChildByFieldName("arguments"))
	switch {
	case len(args) == 0 && name == "toString" && isString(r.e):
		return lit(t.throwOnNull(n, r.e, r.e))
	case len(args) == 0 && name == "get" && !isString(r.e):
		return lit(t.throwOnNull(n, r.e, r.e))
	}
	t.decline(n, "Writable method "+name, "only get() and Text's toString() are translated")
	return nil
}

// isWritable is true for a Java parameter type that is a Writable box.
func isWritable(sourceType string) bool {
	_, ok := java.WritableKind(sourceType)
	return ok
}

// javaNewWritable translates new Text(s), new IntWritable(i), ...: the
// box of the value, which Spark reads back as it; a null String or a
// null boxed number throws NullPointerException.
func (t *tr) javaNewWritable(n *sitter.Node, e env) *binding {
	ty := t.text(n.ChildByFieldName("type"))
	kind, ok := java.WritableKind(ty)
	args := namedNonComment(n.ChildByFieldName("arguments"))
	if !ok || len(args) != 1 {
		return t.javaUnhandled(n)
	}
	x := t.javaExpr(args[0], e)
	if x == nil {
		return nil
	}
	v := x.e
	if x.nullable {
		v = t.throwOnNull(n, x.e, x.e)
	}
	if v.Type() == nil || v.Type().Kind != kind {
		t.decline(n, "new "+ty+" of a "+typeName(v), "only a value of the box's own type is translated")
		return nil
	}
	return &binding{e: v, writable: true}
}

// javaString reads a Java string literal (not a text block).
func javaString(s string) (string, bool) {
	if len(s) < 2 || s[0] != '"' || strings.HasPrefix(s, `"""`) {
		return "", false
	}
	v, err := strconv.Unquote(s)
	if err != nil {
		return "", false
	}
	return v, true
}

// javaSwitch translates a switch statement on a String or an int whose
// every case group ends in return (no fall-through into another group's
// statements): each group becomes a branch, default (or, without one,
// the statements after the switch) the last.
func (t *tr) javaSwitch(s *sitter.Node, rest []*sitter.Node, e env) *binding {
	cond := s.ChildByFieldName("condition")
	body := s.ChildByFieldName("body")
	if cond == nil || body == nil {
		t.decline(s, "switch", "not translated")
		return nil
	}
	for cond.Kind() == "parenthesized_expression" && cond.NamedChildCount() == 1 {
		cond = cond.NamedChild(0)
	}
	sb := t.javaExpr(cond, e)
	if sb == nil {
		return nil
	}
	scrut := sb.e
	// A switch on a null String throws NullPointerException (it calls
	// hashCode): the rewrite raises on those rows.
	nullString := isString(scrut) && sb.nullable
	if isString(scrut) {
		// Compared with = below; the null rows never reach it.
	} else if scrut = t.unboxOrThrow(cond, *sb); scrut == nil {
		return nil
	} else if scrut.Type().Kind != udf.Int {
		t.decline(s, "switch on "+typeName(scrut), "only String and int switches are translated")
		return nil
	}
	type arm struct {
		cond  ir.Expr
		stmts []*sitter.Node
	}
	var arms []arm
	var dflt []*sitter.Node
	hasDefault := false
	var pending []*sitter.Node // labels of empty groups fall through
	for _, g := range namedNonComment(body) {
		labels, stmts := pending, []*sitter.Node(nil)
		pending = nil
		switch g.Kind() {
		case "switch_block_statement_group", "switch_rule":
			for _, c := range namedNonComment(g) {
				if c.Kind() == "switch_label" {
					labels = append(labels, c)
				} else {
					stmts = append(stmts, c)
				}
			}
		default:
			t.decline(g, "switch "+g.Kind(), "not translated")
			return nil
		}
		if g.Kind() == "switch_rule" && len(stmts) == 1 && stmts[0].Kind() == "expression_statement" {
			t.decline(g, "switch rule with an expression", "only blocks and returns are translated")
			return nil
		}
		if len(stmts) == 0 && g.Kind() == "switch_block_statement_group" {
			pending = labels
			continue
		}
		if len(stmts) == 0 || !endsInReturn(stmts[len(stmts)-1]) {
			t.decline(g, "switch case without a return", "fall-through and break are not translated")
			return nil
		}
		var c ir.Expr
		for _, l := range labels {
			vals := namedNonComment(l)
			if len(vals) == 0 {
				hasDefault = true
				continue
			}
			for _, v := range vals {
				lb := t.javaExpr(v, e)
				if lb == nil {
					return nil
				}
				if _, ok := lb.e.(*ir.Lit); !ok || !lb.e.Type().Equal(scrut.Type()) {
					t.decline(v, "case label "+t.text(v), "only constants of the switch's type are translated")
					return nil
				}
				var eq ir.Expr = &ir.Binary{Op: ir.Eq, L: t.sigmaBlind(scrut, lb.e, false), R: lb.e, T: tBool}
				if c == nil {
					c = eq
				} else {
					c = &ir.Binary{Op: ir.Or, L: c, R: eq, T: tBool}
				}
			}
		}
		if hasDefault && dflt == nil {
			dflt = stmts
			if c == nil {
				continue
			}
		}
		if c != nil {
			arms = append(arms, arm{c, stmts})
		}
	}
	if len(pending) > 0 {
		t.decline(s, "switch case without a return", "fall-through and break are not translated")
		return nil
	}
	var out *binding
	if hasDefault {
		out = t.javaStmts(dflt, e)
	} else {
		out = t.javaStmts(rest, e)
	}
	for i := len(arms) - 1; i >= 0; i-- {
		if out = t.ifOf(s, arms[i].cond, t.javaStmts(arms[i].stmts, e), out); out == nil {
			return nil
		}
	}
	if nullString {
		out = &binding{e: raiseWhereNull(scrut, out.e, "NullPointerException where switch ("+t.text(cond)+") is on null"), nullable: out.nullable}
	}
	return out
}

// endsInReturn reports whether a statement always ends in return.
func endsInReturn(n *sitter.Node) bool {
	switch n.Kind() {
	case "return_statement":
		return true
	case "block":
		st := namedNonComment(n)
		return len(st) > 0 && endsInReturn(st[len(st)-1])
	case "if_statement":
		alt := n.ChildByFieldName("alternative")
		return alt != nil && endsInReturn(n.ChildByFieldName("consequence")) && endsInReturn(alt)
	}
	return false
}

// javaAssign translates `x = v` and `x += v` (also -= and *=) to a local
// or parameter: the statements after it see x's new value. (An if
// statement's branches each go on with the statements after it, so an
// assignment in one branch is seen only on its paths.) The value takes
// x's type as Java's assignment does: a primitive unboxes (a null
// throws) and widens; a boxed parameter boxes the value of its own type;
// a compound assignment whose result would be narrowed back (int += 1.5)
// is declined.
func (t *tr) javaAssign(x *sitter.Node, e env) (string, *binding) {
	l, r := x.ChildByFieldName("left"), x.ChildByFieldName("right")
	op := t.text(x.ChildByFieldName("operator"))
	name := t.text(l)
	old, ok := e[name]
	if l.Kind() != "identifier" || !ok || old.writable {
		t.decline(x, "assignment to "+name, "only assignments to locals and parameters are translated (a field keeps its value between rows)")
		return "", nil
	}
	val := t.javaExpr(r, e)
	if val == nil {
		return "", nil
	}
	switch op {
	case "=":
	case "+=", "-=", "*=":
		if old.unassigned {
			t.decline(x, "local "+name+" read before it is assigned", "not translated")
			return "", nil
		}
		bop := op[:1]
		if bop == "+" && (isString(old.e) || isString(val.e)) {
			val = t.jvmConcat(x, &old, val)
		} else {
			lv, rv := t.unboxOrThrow(l, old), t.unboxOrThrow(r, *val)
			if lv == nil || rv == nil {
				return "", nil
			}
			val = lit(t.jvmBinary(x, bop, lv, rv))
		}
		if val == nil {
			return "", nil
		}
	default:
		t.decline(x, "assignment "+op, "not translated")
		return "", nil
	}
	ty := old.e.Type()
	if isString(old.e) {
		if val.e.Type() == nil {
			return name, &binding{e: &ir.Lit{T: tString}, nullable: true}
		}
		if !isString(val.e) {
			t.decline(x, "assignment of a "+typeName(val.e)+" to the String "+name, "not translated")
			return "", nil
		}
		return name, &binding{e: val.e, nullable: val.nullable}
	}
	if old.boxed {
		// A boxed parameter: the value boxes, null stays null.
		if val.e.Type() == nil {
			return name, &binding{e: &ir.Lit{T: ty}, nullable: true, boxed: true}
		}
		if !val.e.Type().Equal(ty) {
			t.decline(x, "assignment of a "+typeName(val.e)+" to the boxed "+name, "not translated")
			return "", nil
		}
		return name, &binding{e: val.e, nullable: val.nullable, boxed: true}
	}
	v := t.unboxOrThrow(r, *val)
	if v == nil {
		return "", nil
	}
	vt := v.Type()
	switch {
	case vt.Equal(ty):
	case op == "=" && (ty.Kind == udf.Double || ty.Kind == udf.Long) && (vt.Kind == udf.Int || vt.Kind == udf.Long):
		v = widen(v, ty)
	default:
		t.decline(x, "assignment of a "+typeName(v)+" to the "+ty.String()+" "+name, "not translated (Java would narrow or not compile)")
		return "", nil
	}
	return name, &binding{e: v}
}

// javaWritableSet translates result.set(v) on the Hive idiom's reused
// box, `private final Text result = new Text();`: the statements after
// it see result holding v. A path that returns the box without setting
// it would return the previous row's value, and is declined (the field
// is no constant).
func (t *tr) javaWritableSet(x *sitter.Node, e env) (string, *binding) {
	obj := x.ChildByFieldName("object")
	args := namedNonComment(x.ChildByFieldName("arguments"))
	name := t.textOr(obj)
	decline := func() (string, *binding) {
		t.decline(x, "Java "+t.text(x), "only set(v) on a final Writable field initialized with new Text() (or another box) is translated")
		return "", nil
	}
	if _, local := e[name]; local || obj == nil || obj.Kind() != "identifier" || len(args) != 1 {
		return decline()
	}
	defs, others := t.nameDefs(name)
	if len(defs) != 1 || len(others) > 0 {
		return decline()
	}
	decl := defs[0].Parent()
	init := defs[0].ChildByFieldName("value")
	mods := t.javaModifiers(decl)
	kind, ok := java.WritableKind(t.text(decl.ChildByFieldName("type")))
	if !ok || decl.Kind() != "field_declaration" || !containsWord(mods, "final") || init == nil || init.Kind() != "object_creation_expression" || len(namedNonComment(init.ChildByFieldName("arguments"))) != 0 {
		return decline()
	}
	v := t.javaExpr(args[0], e)
	if v == nil {
		return "", nil
	}
	val := v.e
	if v.writable || val.Type() == nil || val.Type().Kind != kind {
		t.decline(x, name+".set of a "+typeName(val), "only a value of the box's own type is translated")
		return "", nil
	}
	if v.nullable {
		// Text.set(null) throws NullPointerException.
		val = t.throwOnNull(x, val, val)
	}
	return name, &binding{e: val, writable: true}
}

// javaName translates x for the date formatters (formatterName).
func (t *tr) javaName(e env) func(*sitter.Node) *binding {
	return t.formatterName(e, func(x *sitter.Node) *binding { return t.javaExpr(x, e) })
}
