package translate

import (
	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/udfx/udfx/harness/translate/ir"
	"github.com/udfx/udfx/harness/udf"
)

// An option is a Scala Option built from a value: Option(x) holds x where
// x is not null; map(f) holds f of what it held (which may be null:
// Some(null) is not None); filter(p) holds it where p is true. present
// says whether it holds a value (never NULL), val is the value where it
// does.
type option struct {
	present ir.Expr
	val     *binding
}

// scalaOption reads n as an Option chain, Option(x) followed by map and
// filter calls; ok is false when n is not one, and the option nil when a
// part of it was declined.
func (t *tr) scalaOption(n *sitter.Node, e env) (o *option, ok bool) {
	if n == nil || n.Kind() != "call_expression" {
		return nil, false
	}
	fn, argsNode := n.ChildByFieldName("function"), n.ChildByFieldName("arguments")
	if fn == nil || argsNode == nil {
		return nil, false
	}
	args := namedNonComment(argsNode)
	if fn.Kind() == "identifier" && t.text(fn) == "Option" {
		if _, local := e["Option"]; local || len(args) != 1 {
			return nil, false
		}
		x := t.scalaExpr(args[0], e, false)
		if x == nil {
			return nil, true
		}
		v := *x
		present := ir.Expr(&ir.Lit{T: tBool, Value: true})
		if v.nullable {
			present = &ir.Unary{Op: ir.Not, X: &ir.IsNull{X: v.e}, T: tBool}
			v.nullable = false
		}
		return &option{present: present, val: &v}, true
	}
	if fn.Kind() != "field_expression" || len(args) != 1 {
		return nil, false
	}
	name := t.text(fn.ChildByFieldName("field"))
	if name != "map" && name != "filter" {
		return nil, false
	}
	in, ok := t.scalaOption(fn.ChildByFieldName("value"), e)
	if !ok || in == nil {
		return in, ok
	}
	// The function runs only where the option holds a value.
	r := t.scalaApplyLambda(args[0], *in.val, e)
	if r == nil {
		return nil, true
	}
	if name == "map" {
		if r.e.Type() == nil {
			t.decline(args[0], "Option.map to null", "the type of Some(null) is not known")
			return nil, true
		}
		return &option{present: in.present, val: r}, true
	}
	if !isBool(r.e.Type()) || r.nullable {
		t.decline(args[0], "Option.filter with "+t.text(args[0]), "only a Boolean that is never null is translated")
		return nil, true
	}
	return &option{present: andThen(in.present, r.e), val: in.val}, true
}

// andThen is a && b with b evaluated only where a holds.
func andThen(a, b ir.Expr) ir.Expr {
	if l, ok := a.(*ir.Lit); ok && l.Value == true {
		return b
	}
	return &ir.If{Cond: a, Then: b, Else: &ir.Lit{T: tBool, Value: false}}
}

// scalaOptionEnd translates the end of an Option chain: getOrElse(d) (d
// nil for orNull), a String either way; nil where declined.
func (t *tr) scalaOptionEnd(n *sitter.Node, o *option, d *binding) *binding {
	if !isString(o.val.e) || d != nil && d.e.Type() != nil && !isString(d.e) {
		t.decline(n, "Option(…) of "+typeName(o.val.e), "only strings are translated (for a boxed number getOrElse gives a boxed Any)")
		return nil
	}
	if d == nil {
		d = &binding{e: &ir.Lit{T: tString}, nullable: true}
	}
	if l, ok := o.present.(*ir.Lit); ok && l.Value == true {
		return o.val
	}
	if u, ok := o.present.(*ir.Unary); ok && u.Op == ir.Not {
		return t.ifOf(n, u.X, d, o.val)
	}
	return t.ifOf(n, o.present, o.val, d)
}

// scalaApplyLambda translates f(x) for a function argument f: a lambda
// of one parameter, or an expression with one placeholder (_.trim) whose
// way up to f passes only through method calls and operators, so that
// Scala reads f as x => that expression.
func (t *tr) scalaApplyLambda(f *sitter.Node, x binding, e env) *binding {
	if f.Kind() == "lambda_expression" {
		params := f.ChildByFieldName("parameters")
		var name *sitter.Node
		switch {
		case params != nil && params.Kind() == "identifier":
			name = params
		case params != nil && params.Kind() == "bindings" && params.NamedChildCount() == 1:
			name = params.NamedChild(0).ChildByFieldName("name")
		}
		if name == nil {
			t.decline(f, "function "+t.text(f), "only functions of one parameter are translated")
			return nil
		}
		inner := env{}
		for k, v := range e {
			inner[k] = v
		}
		inner[t.text(name)] = x
		return t.scalaExpr(f.NamedChild(f.NamedChildCount()-1), inner, false)
	}
	w := soleWildcard(f)
	if w == nil {
		t.decline(f, "function "+t.text(f), "only a lambda of one parameter or an expression with one _ on a chain of calls is translated")
		return nil
	}
	sp := t.span(w)
	if t.wildcards == nil {
		t.wildcards = map[udf.Span]binding{}
	}
	t.wildcards[sp] = x
	defer delete(t.wildcards, sp)
	return t.scalaExpr(f, e, false)
}

// soleWildcard is the one _ in f, when f has one and each node from it up
// to f is the receiver of a member, the function of a call or an operand
// of an operator: Scala's placeholder then stands for f's parameter.
func soleWildcard(f *sitter.Node) *sitter.Node {
	var found []*sitter.Node
	var walk func(n *sitter.Node)
	walk = func(n *sitter.Node) {
		if n.Kind() == "wildcard" {
			found = append(found, n)
		}
		for i := uint(0); i < n.NamedChildCount(); i++ {
			walk(n.NamedChild(i))
		}
	}
	walk(f)
	if len(found) != 1 {
		return nil
	}
	w := found[0]
	for n := w; n.Id() != f.Id(); {
		p := n.Parent()
		if p == nil {
			return nil
		}
		switch {
		case p.Kind() == "field_expression" && p.ChildByFieldName("value").Id() == n.Id():
		case p.Kind() == "call_expression" && p.ChildByFieldName("function").Id() == n.Id():
		case p.Kind() == "infix_expression":
		default:
			return nil
		}
		n = p
	}
	return w
}
