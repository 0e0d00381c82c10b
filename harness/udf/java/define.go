package java

import (
	"fmt"
	"regexp"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/udfx/udfx/harness/udf"
)

// entry is one UDF being assembled.
type entry struct {
	u udf.UDF
	// body is the method or lambda that runs per row.
	body *sitter.Node
	// varName is the variable or field holding the UDF, if any.
	varName string
	// anonymous names the position an unnamed UDF is called after.
	anonymous *sitter.Node
	anonLabel string
	// registeredReturn is the DataType a registration or udf(...) call
	// gave: Spark stores the UDF's results at that type, whatever the
	// Java return type maps to.
	registeredReturn *udf.Type
	// returnConflict is set when two registrations give different types.
	returnConflict bool
	// udfType is the UDFn type a lambda is cast to or declared as, when
	// it is not wrapped in udf(...): a field of that type can hold it.
	udfType *sitter.Node
}

// valueCtx is where a lambda, method reference or anonymous class sits:
// the wrappers around it and what receives it.
type valueCtx struct {
	// value is the outermost expression around the function: through
	// parentheses, casts and a udf(...) wrapper.
	value *sitter.Node
	// udfArgs are the UDFn type arguments of a cast or declared type,
	// udfType that type.
	udfArgs  []*sitter.Node
	udfType  *sitter.Node
	hasUDFn  bool
	udfCall  *sitter.Node
	register *sitter.Node
	varName  string
	stmt     *sitter.Node
}

func (fl *file) valueContext(n *sitter.Node) valueCtx {
	ctx := valueCtx{value: n}
	chain := fl.ancestors(n)
	// parentAt is the i-th ancestor counted from n's parent (0).
	parentAt := func(i int) *sitter.Node {
		if i >= len(chain) {
			return nil
		}
		return chain[len(chain)-1-i]
	}
	for cur, up := n, 0; ; up++ {
		p := parentAt(up)
		if p == nil {
			return ctx
		}
		switch p.Kind() {
		case "parenthesized_expression":
			cur = p
			ctx.value = cur
			continue
		case "cast_expression":
			if !ctx.hasUDFn {
				if _, args, ok := fl.udfInterface(p.ChildByFieldId(fieldType)); ok {
					ctx.udfArgs, ctx.hasUDFn, ctx.udfType = args, true, p.ChildByFieldId(fieldType)
				}
			}
			cur = p
			ctx.value = cur
			continue
		case "argument_list":
			inv := parentAt(up + 1)
			if inv == nil || inv.Kind() != "method_invocation" {
				return ctx
			}
			args := arguments(inv)
			switch {
			case fl.isUDFCall(inv) && len(args) > 0 && sameNode(args[0], cur):
				ctx.udfCall = inv
				cur = inv
				ctx.value = cur
				up++
				continue
			case fl.isRegisterCall(inv) && len(args) > 1 && sameNode(args[1], cur):
				ctx.register = inv
			}
			return ctx
		case "variable_declarator":
			if !sameNode(p.ChildByFieldId(fieldValue), cur) {
				return ctx
			}
			ctx.varName = fl.src.Text(p.ChildByFieldId(fieldName))
			if stmt := parentAt(up + 1); stmt != nil {
				ctx.stmt = stmt
				if !ctx.hasUDFn {
					if _, args, ok := fl.udfInterface(stmt.ChildByFieldId(fieldType)); ok {
						ctx.udfArgs, ctx.hasUDFn, ctx.udfType = args, true, stmt.ChildByFieldId(fieldType)
					}
				}
			}
			return ctx
		case "assignment_expression":
			left := p.ChildByFieldId(fieldLeft)
			if left == nil || sameNode(left, cur) {
				return ctx
			}
			switch left.Kind() {
			case "identifier":
				ctx.varName = fl.src.Text(left)
			case "field_access":
				ctx.varName = fl.src.Text(left.ChildByFieldId(fieldField))
			default:
				return ctx
			}
			if stmt := parentAt(up + 1); stmt != nil && stmt.Kind() == "expression_statement" {
				ctx.stmt = stmt
			}
			return ctx
		}
		return ctx
	}
}

func sameNode(a, b *sitter.Node) bool {
	return a != nil && b != nil && a.Id() == b.Id()
}

// isRegisterCall is X.udf().register(...) or X.udf.register(...).
func (fl *file) isRegisterCall(inv *sitter.Node) bool {
	if fl.src.Text(inv.ChildByFieldId(fieldName)) != "register" {
		return false
	}
	obj := inv.ChildByFieldId(fieldObject)
	if obj == nil {
		return false
	}
	switch obj.Kind() {
	case "method_invocation":
		return fl.src.Text(obj.ChildByFieldId(fieldName)) == "udf" && len(arguments(obj)) == 0
	case "field_access":
		return fl.src.Text(obj.ChildByFieldId(fieldField)) == "udf"
	}
	return false
}

// isRegisterJava is X.udf().registerJava("name", "pkg.Class", type).
func (fl *file) isRegisterJava(inv *sitter.Node) bool {
	if fl.src.Text(inv.ChildByFieldId(fieldName)) != "registerJava" {
		return false
	}
	obj := inv.ChildByFieldId(fieldObject)
	return obj != nil && (obj.Kind() == "method_invocation" && fl.src.Text(obj.ChildByFieldId(fieldName)) == "udf" ||
		obj.Kind() == "field_access" && fl.src.Text(obj.ChildByFieldId(fieldField)) == "udf")
}

// isFunctionsCall is name(...) called unqualified (a static import) or on
// org.apache.spark.sql.functions.
func (fl *file) isFunctionsCall(inv *sitter.Node, names ...string) bool {
	name := fl.src.Text(inv.ChildByFieldId(fieldName))
	found := false
	for _, n := range names {
		found = found || n == name
	}
	if !found {
		return false
	}
	obj := inv.ChildByFieldId(fieldObject)
	if obj == nil {
		return true
	}
	switch strings.Join(strings.Fields(fl.src.Text(obj)), "") {
	case "functions", "org.apache.spark.sql.functions":
		return true
	}
	return false
}

// isUDFCall is functions.udf(f, ...) or udf(f, ...) with a static import.
func (fl *file) isUDFCall(inv *sitter.Node) bool {
	return fl.isFunctionsCall(inv, "udf") && len(arguments(inv)) > 0
}

// stringValue is the value of a string literal, or of a variable or
// constant initialized with one.
func (fl *file) stringValue(n *sitter.Node, depth int) (string, bool) {
	if n == nil || depth > 4 {
		return "", false
	}
	switch n.Kind() {
	case "string_literal":
		return literalContent(fl.src.Text(n)), true
	case "parenthesized_expression":
		if inner := namedNonComment(n); len(inner) == 1 {
			return fl.stringValue(inner[0], depth+1)
		}
	case "identifier":
		if d, ok := fl.lookupVar(fl.src.Text(n), n.StartByte()); ok {
			return fl.stringValue(d.value, depth+1)
		}
	case "field_access":
		if d, ok := fl.lookupVar(fl.src.Text(n.ChildByFieldId(fieldField)), n.StartByte()); ok {
			return fl.stringValue(d.value, depth+1)
		}
	}
	return "", false
}

// literalContent strips the quotes of a string literal or text block.
func literalContent(s string) string {
	if strings.HasPrefix(s, `"""`) && strings.HasSuffix(s, `"""`) && len(s) >= 6 {
		return s[3 : len(s)-3]
	}
	if strings.HasPrefix(s, `"`) && strings.HasSuffix(s, `"`) && len(s) >= 2 {
		return s[1 : len(s)-1]
	}
	return s
}

// lookupVar finds the declaration of name nearest before pos, else the
// first one (fields may be declared after their use).
func (fl *file) lookupVar(name string, pos uint) (varDecl, bool) {
	decls := fl.vars[name]
	if len(decls) == 0 {
		return varDecl{}, false
	}
	best := decls[0]
	for _, d := range decls {
		if d.start <= pos {
			best = d
		}
	}
	return best, true
}

// builder assembles the file's UDFs.
type builder struct {
	fl      *file
	entries []*entry
	byNode  map[uintptr]*entry
	// classEntries are the named UDF classes by simple name.
	classEntries map[string]*entry
}

func (fl *file) udfs() []udf.UDF {
	b := &builder{fl: fl, byNode: map[uintptr]*entry{}, classEntries: map[string]*entry{}}
	for _, c := range fl.classes {
		b.defineClass(c)
	}
	for _, n := range fl.anonymous {
		b.defineAnonymous(n)
	}
	for _, n := range fl.functions {
		b.defineFunction(n, false)
	}
	b.link()
	b.useSites()
	out := make([]udf.UDF, 0, len(b.entries))
	for _, e := range b.entries {
		b.finishNames(e)
		if e.u.Kind == udf.KindLambda {
			e.u.Lift = fl.liftOf(e)
		}
		e.u.Blockers = b.blockers(e)
		e.u.File = fl.src.Path
		e.u.Language = udf.Java
		e.u.Finish()
		out = append(out, e.u)
	}
	liftTogether(out)
	udf.SortUDFs(out)
	return out
}

func (b *builder) add(e *entry, key *sitter.Node) {
	b.entries = append(b.entries, e)
	b.byNode[key.Id()] = e
}

// classMethods lists the methods declared directly in a class body.
func classMethods(body *sitter.Node, fl *file, name string) []*sitter.Node {
	var out []*sitter.Node
	if body == nil {
		return nil
	}
	for _, m := range namedNonComment(body) {
		if m.Kind() == "method_declaration" && fl.src.Text(m.ChildByFieldId(fieldName)) == name {
			out = append(out, m)
		}
	}
	return out
}

// callMethod picks the call method of a UDFn class: the one taking n
// parameters whose types are not all Object (the erased bridge form).
func (fl *file) callMethod(body *sitter.Node, arity int) *sitter.Node {
	var fallback *sitter.Node
	for _, m := range classMethods(body, fl, "call") {
		ps := fl.paramsOf(m.ChildByFieldId(fieldParameters))
		if len(ps) != arity {
			continue
		}
		if fallback == nil {
			fallback = m
		}
		allObject := arity > 0
		for _, p := range ps {
			allObject = allObject && (p.SourceType == "Object" || p.SourceType == "java.lang.Object")
		}
		if !allObject {
			return m
		}
	}
	return fallback
}

func isAbstract(decl *sitter.Node) bool {
	if mods := childOfKind(decl, "modifiers"); mods != nil {
		for _, c := range allChildren(mods) {
			if c.Kind() == "abstract" {
				return true
			}
		}
	}
	return false
}

func (b *builder) defineClass(c *classInfo) {
	fl := b.fl
	n := c.node
	body := n.ChildByFieldId(fieldBody)
	if body == nil || isAbstract(n) {
		return
	}
	e := &entry{u: udf.UDF{Name: c.name}}
	e.u.Span = fl.src.Span(n)
	if arity, args, ok := fl.implementsUDF(n); ok {
		m := fl.callMethod(body, arity)
		if m == nil {
			return
		}
		b.fillMethod(e, udf.KindUDFClass, m, args)
	} else if kind, ok := fl.hiveSuperclass(n); ok {
		m := fl.evaluateMethod(body, kind)
		if m == nil {
			return
		}
		b.fillMethod(e, kind, m, nil)
	} else {
		return
	}
	b.add(e, n)
	if _, dup := b.classEntries[c.name]; !dup {
		b.classEntries[c.name] = e
	}
}

// implementsUDF finds UDFn among a class's implemented interfaces.
func (fl *file) implementsUDF(class *sitter.Node) (int, []*sitter.Node, bool) {
	ifaces := class.ChildByFieldId(fieldInterfaces)
	if ifaces == nil {
		return 0, nil, false
	}
	list := childOfKind(ifaces, "type_list")
	if list == nil {
		return 0, nil, false
	}
	for _, t := range namedNonComment(list) {
		if arity, args, ok := fl.udfInterface(t); ok {
			return arity, args, true
		}
	}
	return 0, nil, false
}

// evaluateMethod is the first evaluate method of a Hive UDF; for a
// GenericUDF the one taking DeferredObject[] when there is one.
func (fl *file) evaluateMethod(body *sitter.Node, kind udf.Kind) *sitter.Node {
	ms := classMethods(body, fl, "evaluate")
	if len(ms) == 0 {
		return nil
	}
	if kind == udf.KindHiveGenericUDF {
		for _, m := range ms {
			ps := fl.paramsOf(m.ChildByFieldId(fieldParameters))
			if len(ps) == 1 && strings.Contains(ps[0].SourceType, "DeferredObject") {
				return m
			}
		}
	}
	return ms[0]
}

// fillMethod sets kind, body, params and return type from a method.
func (b *builder) fillMethod(e *entry, kind udf.Kind, m *sitter.Node, genericArgs []*sitter.Node) {
	fl := b.fl
	e.u.Kind = kind
	e.body = m
	e.u.BodySpan = fl.src.Span(m)
	if kind == udf.KindHiveGenericUDF {
		// Its inputs and output go through ObjectInspectors that only
		// initialize() pins down, at run time.
		return
	}
	e.u.Params = fl.fillFromGenerics(fl.paramsOf(m.ChildByFieldId(fieldParameters)), genericArgs)
	if t := m.ChildByFieldId(fieldType); t != nil {
		e.u.Return, _ = sparkType(fl.src.Text(t))
	}
	if e.u.Return == nil {
		e.u.Return = fl.genericReturn(genericArgs)
	}
}

func (b *builder) defineAnonymous(n *sitter.Node) {
	fl := b.fl
	arity, args, ok := fl.udfInterface(n.ChildByFieldId(fieldType))
	if !ok {
		return
	}
	m := fl.callMethod(childOfKind(n, "class_body"), arity)
	if m == nil {
		return
	}
	ctx := fl.valueContext(n)
	e := &entry{varName: ctx.varName, anonymous: n, anonLabel: "anonymous"}
	e.u.Span = fl.src.Span(definitionNode(ctx))
	b.fillMethod(e, udf.KindUDFClass, m, args)
	if ctx.udfCall != nil {
		b.fillReturnFromDataType(e, ctx.udfCall, 2)
	}
	b.add(e, n)
}

// definitionNode is what a UDF's Span covers: the declaring statement
// when the value is assigned, else the value with its wrappers.
func definitionNode(ctx valueCtx) *sitter.Node {
	if ctx.stmt != nil {
		return ctx.stmt
	}
	return ctx.value
}

// defineFunction makes a UDF of a lambda or method reference when its
// context says it is one; force is for a variable found registered.
func (b *builder) defineFunction(n *sitter.Node, force bool) *entry {
	if e, ok := b.byNode[n.Id()]; ok {
		return e
	}
	fl := b.fl
	ctx := fl.valueContext(n)
	if !force && !ctx.hasUDFn && ctx.udfCall == nil && ctx.register == nil {
		return nil
	}
	e := &entry{varName: ctx.varName, anonymous: n, anonLabel: "lambda"}
	e.u.Span = fl.src.Span(definitionNode(ctx))
	switch n.Kind() {
	case "lambda_expression":
		e.u.Kind = udf.KindLambda
		e.body = n
		if ctx.udfCall == nil {
			e.udfType = ctx.udfType
		}
		e.u.BodySpan = fl.src.Span(n)
		e.u.Params = fl.fillFromGenerics(fl.paramsOf(n.ChildByFieldId(fieldParameters)), ctx.udfArgs)
	case "method_reference":
		m := fl.referencedMethod(n, ctx)
		if m == nil {
			return nil
		}
		e.u.Kind = udf.KindFunctionRef
		e.u.Name = fl.src.Text(m.ChildByFieldId(fieldName))
		e.body = m
		e.u.BodySpan = fl.src.Span(m)
		e.u.Params = fl.fillFromGenerics(fl.paramsOf(m.ChildByFieldId(fieldParameters)), ctx.udfArgs)
		if t := m.ChildByFieldId(fieldType); t != nil {
			e.u.Return, _ = sparkType(fl.src.Text(t))
		}
	default:
		return nil
	}
	if e.u.Return == nil {
		e.u.Return = fl.genericReturn(ctx.udfArgs)
	}
	if ctx.udfCall != nil {
		b.fillReturnFromDataType(e, ctx.udfCall, 2)
	}
	b.add(e, n)
	return e
}

// referencedMethod is the method in this file that Class::name or
// this::name refers to, preferring one whose arity fits the UDFn cast.
func (fl *file) referencedMethod(ref *sitter.Node, ctx valueCtx) *sitter.Node {
	parts := namedNonComment(ref)
	if len(parts) < 2 {
		return nil
	}
	name := parts[len(parts)-1]
	if name.Kind() != "identifier" {
		return nil
	}
	ms := fl.methods[fl.src.Text(name)]
	if len(ms) == 0 {
		return nil
	}
	if ctx.hasUDFn && len(ctx.udfArgs) > 0 {
		for _, m := range ms {
			if len(fl.paramsOf(m.ChildByFieldId(fieldParameters))) == len(ctx.udfArgs)-1 {
				return m
			}
		}
	}
	return ms[0]
}

// fillReturnFromDataType takes the return type from a call's DataType
// argument, when the call has at least minArgs arguments. Spark stores a
// Java UDF's results at the registered type (a BigDecimal registered as
// DECIMAL(5,2) is rounded to scale 2, not kept at the decimal(38,18) the
// Java type maps to; confirmed live by difftest's
// TestRunnersAgreeWithSpark), so the registered type wins over the one
// derived from the Java signature. Two registrations with different types
// leave the return type unknown: which one a query uses is not in the
// source.
func (b *builder) fillReturnFromDataType(e *entry, call *sitter.Node, minArgs int) {
	args := arguments(call)
	if len(args) < minArgs || e.returnConflict {
		return
	}
	t := dataType(b.fl.src.Text(args[len(args)-1]))
	if t == nil {
		return
	}
	switch {
	case e.registeredReturn == nil:
		e.registeredReturn = t
		e.u.Return = t
	case !e.registeredReturn.Equal(t):
		e.returnConflict = true
		e.u.Return = nil
	}
}

// resolve follows an expression to the UDF it denotes: through
// parentheses, casts, variables, udf(...) and register(...) calls.
// define allows making a UDF of a lambda reached through a variable.
func (b *builder) resolve(n *sitter.Node, define bool, depth int) *entry {
	if n == nil || depth > 8 {
		return nil
	}
	fl := b.fl
	switch n.Kind() {
	case "parenthesized_expression":
		if inner := namedNonComment(n); len(inner) == 1 {
			return b.resolve(inner[0], define, depth+1)
		}
	case "cast_expression":
		return b.resolve(n.ChildByFieldId(fieldValue), define, depth+1)
	case "lambda_expression", "method_reference":
		if e, ok := b.byNode[n.Id()]; ok {
			return e
		}
		if define {
			return b.defineFunction(n, true)
		}
	case "object_creation_expression":
		if e, ok := b.byNode[n.Id()]; ok {
			return e
		}
		if childOfKind(n, "class_body") != nil {
			return nil
		}
		if t := n.ChildByFieldId(fieldType); t != nil {
			base := t
			if t.Kind() == "generic_type" {
				base = firstNamed(t, "type_identifier", "scoped_type_identifier")
			}
			name, _ := lastSegment(fl.src.Text(base))
			return b.classEntries[name]
		}
	case "identifier":
		if d, ok := fl.lookupVar(fl.src.Text(n), n.StartByte()); ok && d.start != n.StartByte() {
			return b.resolve(d.value, define, depth+1)
		}
	case "field_access":
		obj := n.ChildByFieldId(fieldObject)
		if obj != nil && obj.Kind() == "this" {
			if d, ok := fl.lookupVar(fl.src.Text(n.ChildByFieldId(fieldField)), n.StartByte()); ok {
				return b.resolve(d.value, define, depth+1)
			}
		}
	case "method_invocation":
		args := arguments(n)
		switch {
		case fl.isUDFCall(n):
			return b.resolve(args[0], define, depth+1)
		case fl.isRegisterCall(n) && len(args) > 1:
			return b.resolve(args[1], define, depth+1)
		}
	}
	return nil
}

// createFunction matches Spark SQL's CREATE [OR REPLACE] [TEMPORARY]
// FUNCTION name AS 'class'.
var createFunction = regexp.MustCompile("(?is)\\bcreate\\s+(?:or\\s+replace\\s+)?(?:temporary\\s+|temp\\s+)?function\\s+(?:if\\s+not\\s+exists\\s+)?`?([\\w.]+)`?\\s+as\\s+\\\\?['\"]([\\w.$]+)\\\\?['\"]")

// link gives UDFs the names they are registered under in this file.
func (b *builder) link() {
	fl := b.fl
	for _, inv := range fl.invocations {
		args := arguments(inv)
		switch {
		case fl.isRegisterCall(inv) && len(args) >= 2:
			name, ok := fl.stringValue(args[0], 0)
			if !ok {
				continue
			}
			e := b.resolve(args[1], true, 0)
			if e == nil {
				continue
			}
			b.register(e, name, inv)
			b.fillReturnFromDataType(e, inv, 3)
		case fl.isRegisterJava(inv) && len(args) >= 2:
			name, ok1 := fl.stringValue(args[0], 0)
			class, ok2 := fl.stringValue(args[1], 0)
			if !ok1 || !ok2 {
				continue
			}
			if e := b.classNamed(class); e != nil {
				b.register(e, name, inv)
				b.fillReturnFromDataType(e, inv, 3)
			}
		case fl.isUDFCall(inv):
			// udf(new C(), type) or udf(c, type) wraps a UDF defined
			// elsewhere in the file: a reference to it, and its return
			// type. A function written inside the call is defined there.
			if definesInPlace(args[0]) {
				continue
			}
			if e := b.resolve(args[0], false, 0); e != nil {
				e.u.UseSites = append(e.u.UseSites, b.site(udf.UseReference, inv))
				b.fillReturnFromDataType(e, inv, 2)
			}
		}
	}
	for _, lit := range fl.literals {
		for _, m := range createFunction.FindAllStringSubmatch(literalContent(fl.src.Text(lit)), -1) {
			if e := b.classNamed(m[2]); e != nil {
				b.register(e, m[1], lit)
			}
		}
	}
}

// definesInPlace is true for a lambda, method reference or anonymous
// class written as the argument itself.
func definesInPlace(n *sitter.Node) bool {
	for n != nil && (n.Kind() == "parenthesized_expression" || n.Kind() == "cast_expression") {
		if n.Kind() == "cast_expression" {
			n = n.ChildByFieldId(fieldValue)
			continue
		}
		inner := namedNonComment(n)
		if len(inner) != 1 {
			return false
		}
		n = inner[0]
	}
	if n == nil {
		return false
	}
	switch n.Kind() {
	case "lambda_expression", "method_reference":
		return true
	case "object_creation_expression":
		return childOfKind(n, "class_body") != nil
	}
	return false
}

// classNamed is the UDF class a SQL or registerJava class string names.
func (b *builder) classNamed(s string) *entry {
	for _, c := range b.fl.classes {
		for _, n := range c.names {
			if n == s {
				if e, ok := b.byNode[c.node.Id()]; ok {
					return e
				}
			}
		}
	}
	return nil
}

func (b *builder) register(e *entry, name string, site *sitter.Node) {
	dup := false
	for _, r := range e.u.RegisteredNames {
		dup = dup || r == name
	}
	if !dup {
		e.u.RegisteredNames = append(e.u.RegisteredNames, name)
	}
	e.u.UseSites = append(e.u.UseSites, b.site(udf.UseRegister, site))
}

func (b *builder) site(kind udf.UseKind, n *sitter.Node) udf.UseSite {
	return udf.UseSite{Kind: kind, Span: b.fl.src.Span(n), Text: b.fl.src.Text(n)}
}

// useSites records calls by registered name, calls of UDF values and SQL
// strings that call a registered name.
func (b *builder) useSites() {
	fl := b.fl
	for _, inv := range fl.invocations {
		args := arguments(inv)
		switch {
		case fl.isFunctionsCall(inv, "callUDF", "call_udf") && len(args) > 0:
			name, ok := fl.stringValue(args[0], 0)
			if !ok {
				continue
			}
			for _, e := range b.entries {
				if registeredAs(e, name) {
					e.u.UseSites = append(e.u.UseSites, b.site(udf.UseCall, inv))
				}
			}
		case fl.src.Text(inv.ChildByFieldId(fieldName)) == "apply":
			if e := b.resolve(inv.ChildByFieldId(fieldObject), false, 0); e != nil {
				e.u.UseSites = append(e.u.UseSites, b.site(udf.UseCall, inv))
			}
		case !fl.isRegisterCall(inv) && !fl.isUDFCall(inv):
			// A UDF variable handed to some other call is passed around.
			for _, a := range args {
				if a.Kind() != "identifier" {
					continue
				}
				if e := b.resolve(a, false, 0); e != nil {
					e.u.UseSites = append(e.u.UseSites, b.site(udf.UseReference, a))
				}
			}
		}
	}
	var calls udf.SQLCallIndex[*entry]
	for _, e := range b.entries {
		for _, name := range e.u.RegisteredNames {
			calls.Add(name, e)
		}
	}
	if calls.Len() == 0 {
		return
	}
	for _, lit := range fl.literals {
		for _, e := range calls.Calls(literalContent(fl.src.Text(lit))) {
			e.u.UseSites = append(e.u.UseSites, b.site(udf.UseSQL, lit))
		}
	}
}

// registeredAs matches Spark's case-insensitive function names.
func registeredAs(e *entry, name string) bool {
	for _, r := range e.u.RegisteredNames {
		if strings.EqualFold(r, name) {
			return true
		}
	}
	return false
}

// finishNames names UDFs that have no class or method name: the variable
// holding them, else their first registered name, else their position.
func (b *builder) finishNames(e *entry) {
	if e.u.Name != "" {
		return
	}
	switch {
	case e.varName != "":
		e.u.Name = e.varName
	case len(e.u.RegisteredNames) > 0:
		e.u.Name = e.u.RegisteredNames[0]
	default:
		p := b.fl.src.Pos(e.anonymous.StartByte())
		e.u.Name = fmt.Sprintf("<%s@%d:%d>", e.anonLabel, p.Line, p.Column)
	}
}
