package translate

import (
	"fmt"
	"slices"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/udfx/udfx/harness/translate/ir"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/udf/scala"
)

// constant resolves a name that is not a parameter or local: a constant
// the file defines once, with a value the translator can compute — a
// Java `static final` (or `final`) field with an initializer, a Scala
// `val` in an object or class (or an enclosing block the lambda
// captures), a Python module-level name assigned exactly once. Anything
// else is declined: a mutable or twice-defined name could hold another
// value when the UDF runs.
func (t *tr) constant(n *sitter.Node) *binding {
	return t.constantNamed(n, t.text(n))
}

// constantNamed is constant for name, declined at n (nil: the body).
func (t *tr) constantNamed(n *sitter.Node, name string) *binding {
	if t.constDepth > 8 {
		t.decline(n, "constant "+name, "defined in terms of itself")
		return nil
	}
	if b, ok := t.factoryParam(n, name); ok {
		return b
	}
	defs, others := t.nameDefs(name)
	if len(defs) == 0 {
		if b, imported := t.importedConstant(n, name); imported {
			return b
		}
		t.decline(n, "name "+name, "not a parameter, local or constant defined in this file")
		return nil
	}
	if len(defs) > 1 || len(others) > 0 {
		t.decline(n, "name "+name, "defined more than once in the file; which value the UDF sees is not known")
		return nil
	}
	d := defs[0]
	t.constDepth++
	defer func() { t.constDepth-- }()
	switch t.u.Language {
	case "java":
		return t.javaConstant(n, name, d)
	case "scala":
		return t.scalaConstant(n, name, d)
	default:
		return t.pyConstant(n, name, d)
	}
}

// nameRole is what a node of the file is to a name.
type nameRole int

const (
	roleNone  nameRole = iota
	roleDef            // a definition the constant's value may come from
	roleOther          // another meaning of the name somewhere in the file
)

// nameDefs walks the whole file for the nodes that define name, by the
// rules of the UDF's language: defs, where a constant's value may come
// from, and others, which give the name another meaning somewhere.
func (t *tr) nameDefs(name string) (defs, others []*sitter.Node) {
	var role func(x *sitter.Node, name string) nameRole
	switch t.u.Language {
	case "java":
		role = t.javaNameRole
	case "scala":
		role = t.scalaNameRole
	case "python":
		role = t.pyNameRole
	default:
		role = func(*sitter.Node, string) nameRole { return roleNone }
	}
	var walk func(x *sitter.Node)
	walk = func(x *sitter.Node) {
		switch role(x, name) {
		case roleDef:
			defs = append(defs, x)
		case roleOther:
			others = append(others, x)
		}
		for i := uint(0); i < x.NamedChildCount(); i++ {
			walk(x.NamedChild(i))
		}
	}
	walk(t.root)
	return defs, others
}

// javaNameRole: a variable declarator is a definition (constant takes
// only a final field's); a parameter is another meaning.
func (t *tr) javaNameRole(x *sitter.Node, name string) nameRole {
	switch x.Kind() {
	case "variable_declarator":
		if nm := x.ChildByFieldName("name"); nm != nil && t.text(nm) == name {
			return roleDef
		}
	case "formal_parameter", "catch_formal_parameter", "enhanced_for_statement":
		// A parameter of the same name may be what the name means
		// where the UDF is written.
		if nm := x.ChildByFieldName("name"); nm != nil && t.text(nm) == name {
			return roleOther
		}
	}
	return roleNone
}

// scalaNameRole: a val binding a plain identifier is a definition; a
// parameter, var, def or val pattern is another meaning.
func (t *tr) scalaNameRole(x *sitter.Node, name string) nameRole {
	switch x.Kind() {
	case "parameter", "class_parameter", "binding":
		// A parameter (of an enclosing def, a class or a lambda)
		// of the same name may be what the name means there.
		if nm := x.ChildByFieldName("name"); nm != nil && t.text(nm) == name {
			return roleOther
		}
	case "val_definition", "var_definition", "function_definition":
		nm := x.ChildByFieldName("pattern")
		if nm == nil {
			nm = x.ChildByFieldName("name")
		}
		if nm != nil && t.text(nm) == name {
			if x.Kind() == "val_definition" && nm.Kind() == "identifier" {
				return roleDef
			}
			return roleOther
		}
	}
	return roleNone
}

// pyNameRole: an assignment is a definition (constant takes only a
// module-level one); a global, nonlocal, for target, import, def or
// class is another meaning.
func (t *tr) pyNameRole(x *sitter.Node, name string) nameRole {
	switch x.Kind() {
	case "assignment", "augmented_assignment":
		if l := x.ChildByFieldName("left"); l != nil && t.text(l) == name {
			return roleDef
		}
	case "global_statement", "nonlocal_statement", "for_statement", "import_from_statement", "import_statement", "function_definition", "class_definition":
		if x.Kind() == "function_definition" || x.Kind() == "class_definition" {
			if nm := x.ChildByFieldName("name"); nm != nil && t.text(nm) == name {
				return roleOther
			}
		} else if containsIdent(t, x, name) && x.Kind() != "for_statement" {
			return roleOther
		} else if x.Kind() == "for_statement" {
			if l := x.ChildByFieldName("left"); l != nil && containsIdent(t, l, name) {
				return roleOther
			}
		}
	}
	return roleNone
}

// javaModifiers is the text of a Java declaration's modifiers
// ("private static final"), "" when it has none.
func (t *tr) javaModifiers(decl *sitter.Node) string {
	for i := uint(0); i < decl.NamedChildCount(); i++ {
		if c := decl.NamedChild(i); c.Kind() == "modifiers" {
			return t.text(c)
		}
	}
	return ""
}

// javaConstant is the value of a final field's declarator d.
func (t *tr) javaConstant(n *sitter.Node, name string, d *sitter.Node) *binding {
	decl := d.Parent()
	mods := t.javaModifiers(decl)
	if decl.Kind() != "field_declaration" || !containsWord(mods, "final") {
		t.decline(n, "name "+name, "not a final field; its value may change")
		return nil
	}
	return t.javaLocal(decl, t.text(decl.ChildByFieldName("type")), d.ChildByFieldName("value"), env{})
}

// scalaFactoryArg is the literal a Scala factory's parameter name (the
// i-th) is given, at arg in the file or, with arg nil, as text only,
// converted to the parameter's declared type as passing it does: an Int
// literal to a Double or Long parameter widens. Other declared types are
// declined.
func (t *tr) scalaFactoryArg(n *sitter.Node, name string, arg *sitter.Node, text string, types []string, i int) *binding {
	if i >= len(types) {
		t.decline(n, "name "+name, "the type of this parameter of the factory is not known")
		return nil
	}
	want := map[string]*udf.Type{"Double": tDouble, "Long": tLong, "Int": tInt, "String": tString, "Boolean": tBool}[types[i]]
	if want == nil {
		t.decline(n, "name "+name, "a factory parameter of type "+types[i]+": only Int, Long, Double, String and Boolean parameters are read as constants")
		return nil
	}
	var b *binding
	if arg != nil {
		b = t.scalaExpr(arg, env{}, false)
	} else {
		b = t.scalaLiteralText(n, text)
	}
	if b == nil {
		return nil
	}
	switch got := b.e.Type(); {
	case got == nil:
		t.decline(n, "name "+name, "the literal "+text+" has no type the translator knows")
		return nil
	case got.Equal(want):
		return b
	case want == tDouble && ir.IsIntegral(got), want == tLong && got.Kind == tInt.Kind:
		return lit(widen(b.e, want))
	}
	t.decline(n, "name "+name, fmt.Sprintf("the literal %s is a %s, passed to a %s parameter", text, b.e.Type(), types[i]))
	return nil
}

// scalaLiteralText reads a Scala number, string or boolean literal from
// its text alone (a record's, which names no place in the file): what
// scala.PlainLiteral, which the runner holds it to, accepts.
func (t *tr) scalaLiteralText(n *sitter.Node, s string) *binding {
	switch {
	case !scala.PlainLiteral(s):
	case s == "true" || s == "false":
		return lit(&ir.Lit{T: tBool, Value: s == "true"})
	case strings.HasPrefix(s, `"`):
		if v, ok := scalaString(s); ok {
			return lit(&ir.Lit{T: tString, Value: v})
		}
	case strings.Trim(s, "-0123456789._eEfFdDlLxXabcABC") == "":
		hex := strings.HasPrefix(strings.TrimPrefix(s, "-"), "0x") || strings.HasPrefix(strings.TrimPrefix(s, "-"), "0X")
		floating := !hex && strings.ContainsAny(s, ".eEfFdD")
		if e := t.jvmNumber(n, s, floating); e != nil {
			return lit(e)
		}
		return nil
	}
	t.decline(n, "literal "+s, "not a Scala literal the translator reads")
	return nil
}

// scalaConstant is the value of the val definition d, widened to its
// declared Double or Long type.
func (t *tr) scalaConstant(n *sitter.Node, name string, d *sitter.Node) *binding {
	val := d.ChildByFieldName("value")
	if val == nil {
		t.decline(n, "name "+name, "an abstract val")
		return nil
	}
	b := t.scalaExpr(val, env{}, false)
	if b == nil {
		return nil
	}
	if ty := d.ChildByFieldName("type"); ty != nil {
		switch t.text(ty) {
		case "Double":
			if ir.IsIntegral(b.e.Type()) {
				return lit(widen(b.e, tDouble))
			}
		case "Long":
			if b.e.Type() != nil && b.e.Type().Kind == tInt.Kind {
				return lit(widen(b.e, tLong))
			}
		}
	}
	return b
}

// pyConstant is the value of the assignment d, which must be at module
// level.
func (t *tr) pyConstant(n *sitter.Node, name string, d *sitter.Node) *binding {
	if d.Kind() != "assignment" || d.Parent() == nil || d.Parent().Parent() == nil || d.Parent().Parent().Kind() != "module" {
		t.decline(n, "name "+name, "not a module-level constant assigned once")
		return nil
	}
	return t.pyExpr(d.ChildByFieldName("right"), env{})
}

func containsIdent(t *tr, x *sitter.Node, name string) bool {
	if x.Kind() == "identifier" || x.Kind() == "dotted_name" {
		if t.text(x) == name {
			return true
		}
	}
	for i := uint(0); i < x.NamedChildCount(); i++ {
		if containsIdent(t, x.NamedChild(i), name) {
			return true
		}
	}
	return false
}

func containsWord(s, w string) bool {
	for _, f := range strings.Fields(s) {
		if f == w {
			return true
		}
	}
	return false
}

// definesType reports whether the file defines a class or object called
// name, whose constants Name.CONST may then refer to.
func (t *tr) definesType(name string) bool {
	var walk func(x *sitter.Node) bool
	walk = func(x *sitter.Node) bool {
		switch x.Kind() {
		case "object_definition", "class_definition", "class_declaration", "interface_declaration", "enum_declaration":
			if nm := x.ChildByFieldName("name"); nm != nil && t.text(nm) == name {
				return true
			}
		}
		for i := uint(0); i < x.NamedChildCount(); i++ {
			if walk(x.NamedChild(i)) {
				return true
			}
		}
		return false
	}
	return walk(t.root)
}

// factoryParam resolves a name the UDF reads from the function that
// makes it (udf.Factory): a parameter of that function, bound to the
// literal every call in the file gives it. ok is false when name is not
// such a parameter where n is written; a parameter the function assigns
// again, or a factory whose calls give no one set of literals, is
// declined.
func (t *tr) factoryParam(n *sitter.Node, name string) (*binding, bool) {
	fac := t.u.Factory
	if fac == nil || t.parent != nil || n == nil {
		return nil, false
	}
	fn := t.factoryFunction(fac.Name, n)
	if fn == nil || n.StartByte() < fn.StartByte() || n.EndByte() > fn.EndByte() || !slices.Contains(fac.Params, name) {
		return nil, false
	}
	if fac.Problem != "" {
		t.decline(n, "name "+name, "a parameter of "+fac.Name+", which makes the UDF: "+fac.Problem)
		return nil, true
	}
	if t.u.Language == "python" && t.assignsIn(fn, name) {
		t.decline(n, "name "+name, "a parameter of "+fac.Name+" that the function assigns again")
		return nil, true
	}
	for i, a := range fac.Args {
		if a.Param != name {
			continue
		}
		if t.u.Language == "scala" && a.Span == (udf.Span{}) {
			// Bound from a proof's record (verify's recordFactory): the
			// file no longer calls the factory.
			return t.scalaFactoryArg(n, name, nil, a.Literal, fac.Types, i), true
		}
		lit := t.findSpan(t.root, a.Span)
		if lit == nil || t.text(lit) != a.Literal {
			t.decline(n, "name "+name, "the argument of "+fac.Name+" for it is not where scan found it")
			return nil, true
		}
		if t.u.Language == "scala" {
			return t.scalaFactoryArg(n, name, lit, a.Literal, fac.Types, i), true
		}
		return t.pyExpr(lit, env{}), true
	}
	t.decline(n, "name "+name, "no argument of "+fac.Name+" binds it")
	return nil, true
}

// factoryFunction is the function called name that makes the UDF: a
// module-level def (Python), the def around n (Scala).
func (t *tr) factoryFunction(name string, n *sitter.Node) *sitter.Node {
	if t.u.Language == "scala" {
		for p := n; p != nil; p = p.Parent() {
			if p.Kind() == "function_definition" {
				if nm := p.ChildByFieldName("name"); nm != nil && t.text(nm) == name {
					return p
				}
			}
		}
		return nil
	}
	for _, c := range namedNonComment(t.root) {
		if c.Kind() == "function_definition" {
			if nm := c.ChildByFieldName("name"); nm != nil && t.text(nm) == name {
				return c
			}
		}
	}
	return nil
}

// assignsIn reports whether anything inside fn binds name again: an
// assignment, a for target, a nonlocal or global statement, a def.
func (t *tr) assignsIn(fn *sitter.Node, name string) bool {
	body := fn.ChildByFieldName("body")
	if body == nil {
		return false
	}
	var walk func(x *sitter.Node) bool
	walk = func(x *sitter.Node) bool {
		if t.pyNameRole(x, name) != roleNone {
			return true
		}
		if x.Kind() == "named_expression" {
			if nm := x.ChildByFieldName("name"); nm != nil && t.text(nm) == name {
				return true
			}
		}
		for _, c := range namedNonComment(x) {
			if walk(c) {
				return true
			}
		}
		return false
	}
	return walk(body)
}
