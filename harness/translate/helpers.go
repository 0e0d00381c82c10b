package translate

import (
	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/udfx/udfx/harness/translate/ir"
	"github.com/udfx/udfx/harness/udf"
)

// This file inlines helpers: a UDF that calls a function its file
// defines (a Python def, a Scala def, a Java static method) is
// translated with the helper's body in place of the call, its parameters
// bound to the arguments. The body goes through the same rules as the
// UDF's own, which translate only pure constructs, so a helper with I/O,
// mutation or a loop is declined for what it does. The helper must be
// the only definition of its name in the file, so that the call means
// it; recursion is declined past a small depth.

// maxInlineDepth bounds helpers calling helpers (and recursion).
const maxInlineDepth = 4

// helperArgs translates a call's arguments for inlining. Each must be a
// parameter, a local whose value is a parameter, or a literal: the
// caller evaluates an argument before the call, so one that may raise
// would raise even where the helper never reads it, and one computed
// once would be computed again wherever the helper reads it.
func (t *tr) helperArgs(call *sitter.Node, name string, args []*sitter.Node, expr func(*sitter.Node) *binding) []*binding {
	var out []*binding
	for _, a := range args {
		b := expr(a)
		if b == nil {
			return nil
		}
		switch b.e.(type) {
		case *ir.Col, *ir.Lit:
		default:
			t.decline(a, "an argument of "+name+" that is not a parameter or a literal", "the caller evaluates it before the call, so where it raises the original raises even if the value is never used; only parameters and literals are passed")
			return nil
		}
		out = append(out, b)
	}
	return out
}

// enterHelper counts one more level of inlining; false (declined) past
// maxInlineDepth.
func (t *tr) enterHelper(n *sitter.Node, name string) bool {
	if t.inlineDepth >= maxInlineDepth {
		t.decline(n, "call of "+name, "helpers calling helpers deeper than 4 (or recursion) are not inlined")
		return false
	}
	t.inlineDepth++
	return true
}

// onlyDefinition is the one node of the file that defines name as kind
// (a function_definition, a method_declaration), or nil when there is
// none, more than one (an overload), or the name has any other meaning
// or definition in the file.
func (t *tr) onlyDefinition(name, kind string) *sitter.Node {
	defs, others := t.nameDefs(name)
	if len(defs) > 0 {
		return nil
	}
	var found []*sitter.Node
	var walk func(x *sitter.Node)
	walk = func(x *sitter.Node) {
		if x.Kind() == kind {
			if nm := x.ChildByFieldName("name"); nm != nil && t.text(nm) == name {
				found = append(found, x)
			}
		}
		for i := uint(0); i < x.NamedChildCount(); i++ {
			walk(x.NamedChild(i))
		}
	}
	walk(t.root)
	if len(found) != 1 {
		return nil
	}
	for _, o := range others {
		if o.StartByte() != found[0].StartByte() || o.EndByte() != found[0].EndByte() {
			return nil
		}
	}
	return found[0]
}

// pyHelper inlines a call of a module-level def of the file.
func (t *tr) pyHelper(n *sitter.Node, name string, argNodes []*sitter.Node, e env) *binding {
	// The def is the file's own, or one a from-import brings in
	// (pyimport.go), which is inlined in its module.
	owner, def, at, defName := t, t.onlyDefinition(name, "function_definition"), n, name
	if def == nil || def.Parent() == nil || def.Parent().Kind() != "module" {
		def = nil
		if defs, _ := t.nameDefs(name); len(defs) == 0 {
			m, mdef, imported := t.importedDef(n, name)
			if imported && mdef == nil {
				return nil
			}
			if imported {
				owner, def, at, defName = m, mdef, mdef.ChildByFieldName("name"), m.text(mdef.ChildByFieldName("name"))
			}
		}
		if def == nil {
			t.decline(n, "call of "+name, "not a function defined once at module level in this file, nor a builtin the translator knows")
			return nil
		}
	}
	for _, a := range argNodes {
		if a.Kind() == "keyword_argument" || a.Kind() == "list_splat" || a.Kind() == "dictionary_splat" {
			t.decline(a, "argument "+t.text(a)+" of "+name, "only positional arguments are inlined")
			return nil
		}
	}
	args := t.helperArgs(n, name, argNodes, func(a *sitter.Node) *binding { return t.pyExpr(a, e) })
	if args == nil {
		return nil
	}
	if owner == t {
		return t.pyInline(def, at, defName, args)
	}
	owner.inlineDepth = t.inlineDepth
	return t.adopt(n, owner, "call of "+name, owner.pyInline(def, at, defName, args))
}

// pyInline inlines the def of t's file with the translated args; n is
// where to decline (the call, or the def in an imported module).
func (t *tr) pyInline(def, n *sitter.Node, name string, args []*binding) *binding {
	ps := def.ChildByFieldName("parameters")
	var params []string
	for i := uint(0); i < ps.NamedChildCount(); i++ {
		p := ps.NamedChild(i)
		switch p.Kind() {
		case "identifier":
			params = append(params, t.text(p))
		case "typed_parameter":
			params = append(params, t.text(p.NamedChild(0)))
		case "default_parameter", "typed_default_parameter":
			params = append(params, t.text(p.ChildByFieldName("name")))
		default:
			t.decline(p, "parameter "+t.text(p)+" of "+name, "only positional parameters are inlined")
			return nil
		}
	}
	if len(args) > len(params) {
		t.decline(n, "call of "+name, "more arguments than parameters (CPython raises TypeError)")
		return nil
	}
	if !t.enterHelper(n, name) {
		return nil
	}
	defer func() { t.inlineDepth-- }()
	inner := env{}
	for i, b := range args {
		inner[params[i]] = *b
	}
	if inner = t.pyDefaults(def, inner); inner == nil {
		return nil
	}
	for _, p := range params {
		if _, ok := inner[p]; !ok {
			t.decline(n, "call of "+name, "parameter "+p+" gets no argument (CPython raises TypeError)")
			return nil
		}
	}
	return t.pyStmts(namedNonComment(def.ChildByFieldName("body")), inner)
}

// scalaHelper inlines a call of a def of the file with one parameter
// list of plain typed parameters.
func (t *tr) scalaHelper(n *sitter.Node, name string, argNodes []*sitter.Node, e env) *binding {
	def := t.onlyDefinition(name, "function_definition")
	if def == nil || def.ChildByFieldName("body") == nil {
		t.decline(n, "call "+t.text(n), "not a def defined once in this file, nor a math function or a method called on a value")
		return nil
	}
	lists := def.ChildrenByFieldName("parameters", def.Walk())
	if len(lists) != 1 || def.ChildByFieldName("type_parameters") != nil {
		t.decline(n, "call of "+name, "only a def with one parameter list and no type parameters is inlined")
		return nil
	}
	var params []*sitter.Node
	for i := uint(0); i < lists[0].NamedChildCount(); i++ {
		p := lists[0].NamedChild(i)
		if p.Kind() != "parameter" || p.ChildByFieldName("type") == nil || p.ChildByFieldName("default_value") != nil {
			t.decline(p, "parameter "+t.text(p)+" of "+name, "only plain typed parameters are inlined")
			return nil
		}
		params = append(params, p)
	}
	res := t.inlineJVM(n, name, params, argNodes,
		func(a *sitter.Node) *binding { return t.scalaExpr(a, e, false) },
		func(inner env) *binding { return t.scalaTail(def.ChildByFieldName("body"), inner) })
	if res == nil {
		return nil
	}
	return t.jvmHelperResult(def, name, def.ChildByFieldName("return_type"), res)
}

// javaHelper inlines a call of a static, private or final method of
// the file.
func (t *tr) javaHelper(n *sitter.Node, name string, argNodes []*sitter.Node, e env) *binding {
	def := t.onlyDefinition(name, "method_declaration")
	if def == nil {
		t.decline(n, "call of "+name, "not a method declared once in this file, nor a Math or String method")
		return nil
	}
	mods := t.javaModifiers(def)
	// A method no subclass can override: what the call runs is this
	// body. The fields it reads are constants or declined.
	fixed := containsWord(mods, "static") || containsWord(mods, "private") || containsWord(mods, "final")
	if !fixed || def.ChildByFieldName("body") == nil || def.ChildByFieldName("type_parameters") != nil {
		t.decline(n, "call of "+name, "only a static, private or final non-generic method of this file is inlined (another may be overridden)")
		return nil
	}
	var params []*sitter.Node
	ps := def.ChildByFieldName("parameters")
	for i := uint(0); i < ps.NamedChildCount(); i++ {
		p := ps.NamedChild(i)
		if p.Kind() != "formal_parameter" {
			t.decline(p, "parameter "+t.text(p)+" of "+name, "only plain parameters are inlined")
			return nil
		}
		params = append(params, p)
	}
	res := t.inlineJVM(n, name, params, argNodes,
		func(a *sitter.Node) *binding { return t.javaExpr(a, e) },
		func(inner env) *binding { return t.javaStmts(namedNonComment(def.ChildByFieldName("body")), inner) })
	if res == nil {
		return nil
	}
	return t.jvmHelperResult(def, name, def.ChildByFieldName("type"), res)
}

// inlineJVM translates a Scala or Java helper's body with its parameters
// bound to the call's arguments (expr translates one).
func (t *tr) inlineJVM(n *sitter.Node, name string, params, argNodes []*sitter.Node, expr func(*sitter.Node) *binding, body func(env) *binding) *binding {
	if len(argNodes) != len(params) {
		t.decline(n, "call of "+name, "the arguments do not match the parameters")
		return nil
	}
	args := t.helperArgs(n, name, argNodes, expr)
	if args == nil {
		return nil
	}
	inner := env{}
	for i, p := range params {
		b, ok := t.jvmParam(p, t.text(p.ChildByFieldName("type")), args[i])
		if !ok {
			return nil
		}
		inner[t.text(p.ChildByFieldName("name"))] = b
	}
	if !t.enterHelper(n, name) {
		return nil
	}
	defer func() { t.inlineDepth-- }()
	return body(inner)
}

// jvmParamTypes are the Scala and Java parameter types a helper may
// take: primitive (never null) or boxed and String (null passes).
var jvmParamTypes = map[string]struct {
	kind      udf.TypeKind
	primitive bool
}{
	"Double": {udf.Double, true}, "double": {udf.Double, true}, "java.lang.Double": {udf.Double, false},
	"Int": {udf.Int, true}, "int": {udf.Int, true}, "Integer": {udf.Int, false}, "java.lang.Integer": {udf.Int, false},
	"Long": {udf.Long, true}, "long": {udf.Long, true}, "java.lang.Long": {udf.Long, false},
	"Boolean": {udf.Boolean, true}, "boolean": {udf.Boolean, true}, "java.lang.Boolean": {udf.Boolean, false},
	"String": {udf.String, false}, "java.lang.String": {udf.String, false},
}

// jvmParam binds a helper's parameter of source type ty to the argument
// a: of the same type (an int widens to a long or double parameter, as
// the JVM does); a possibly-null argument only to a boxed or String
// parameter (unboxing a null is declined; Scala's Double is the
// primitive here).
func (t *tr) jvmParam(p *sitter.Node, ty string, a *binding) (binding, bool) {
	pt, ok := jvmParamTypes[ty]
	at := a.e.Type()
	if !ok || at == nil {
		t.decline(p, "parameter "+t.text(p), "only double, int, long, boolean and String parameters (and their boxes) are inlined")
		return binding{}, false
	}
	if pt.primitive && a.nullable {
		t.decline(p, "a possibly-null argument for the primitive parameter "+t.text(p), "unboxing a null is not modelled for helpers")
		return binding{}, false
	}
	v := a.e
	if at.Kind != pt.kind {
		if !(ir.IsIntegral(at) && (pt.kind == udf.Long || pt.kind == udf.Double) && at.Kind == udf.Int) {
			t.decline(p, "parameter "+t.text(p)+" given a "+at.String(), "not the parameter's type")
			return binding{}, false
		}
		v = widen(v, udf.Prim(pt.kind))
	}
	return binding{e: v, nullable: a.nullable, boxed: t.u.Language == udf.Java && !pt.primitive, char: a.char}, true
}

// jvmHelperResult checks a helper's value against its declared result
// type ty (nil: Scala infers it), widening an int as the JVM does.
func (t *tr) jvmHelperResult(def *sitter.Node, name string, ty *sitter.Node, res *binding) *binding {
	if ty == nil || res.e.Type() == nil {
		return res
	}
	rt, ok := jvmParamTypes[t.text(ty)]
	if !ok {
		t.decline(def, "the result of "+name, "only double, int, long, boolean and String results (and their boxes) are inlined")
		return nil
	}
	if rt.primitive && res.nullable {
		t.decline(def, "the result of "+name, "a possibly-null value returned as a primitive "+t.text(ty)+" (unboxing a null is not modelled for helpers)")
		return nil
	}
	got := res.e.Type()
	if got.Kind == rt.kind {
		return &binding{e: res.e, nullable: res.nullable && !rt.primitive, boxed: t.u.Language == udf.Java && !rt.primitive}
	}
	if got.Kind == udf.Int && (rt.kind == udf.Long || rt.kind == udf.Double) || got.Kind == udf.Long && rt.kind == udf.Double {
		return &binding{e: widenAll(res.e, udf.Prim(rt.kind)), boxed: t.u.Language == udf.Java && !rt.primitive}
	}
	t.decline(def, "the result of "+name, "the body computes "+got.String()+" where "+name+" returns "+t.text(ty))
	return nil
}

// textOr is n's text, "" for nil.
func (t *tr) textOr(n *sitter.Node) string {
	if n == nil {
		return ""
	}
	return t.text(n)
}
