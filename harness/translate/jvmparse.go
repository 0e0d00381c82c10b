package translate

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/udfx/udfx/harness/jdkcase"
	"github.com/udfx/udfx/harness/translate/ir"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/udf/java"
)

// A parse with a fallback is the commonest try in real JVM UDFs:
//
//	try { return Integer.parseInt(s.trim()); } catch (NumberFormatException e) { return 0; }
//	try { s.trim.toInt } catch { case _: NumberFormatException => 0 }
//	Try(s.toInt).getOrElse(0), Try(s.toInt).toOption
//
// Integer.parseInt throws NumberFormatException on null, on text that is
// not an optional sign and digits (Character.digit's, any script's, read
// char by char) and beyond the type; package jdkcase gives the SQL of
// that, proved against the JDK over every digit it reads. The try's body
// must be the parse alone (or a Writable of it), so that the fallback
// replaces exactly what the parse would have returned; its argument is
// evaluated first, and what it throws (a null's NullPointerException) is
// not the caught exception, so it raises as anywhere else. Try catches
// every exception, so there the argument must not throw.

// parseCall is the argument of Integer.parseInt/valueOf or
// Long.parseLong/valueOf (Java, or called from Scala), or of Scala's
// x.toInt/x.toLong, with whether it parses a long; nil when n is none.
func (t *tr) parseCall(n *sitter.Node) (arg *sitter.Node, long bool) {
	switch n.Kind() {
	case "method_invocation", "call_expression":
		var obj, name *sitter.Node
		var args []*sitter.Node
		if n.Kind() == "method_invocation" {
			obj, name = n.ChildByFieldName("object"), n.ChildByFieldName("name")
			args = namedNonComment(n.ChildByFieldName("arguments"))
		} else if fn := n.ChildByFieldName("function"); fn != nil && fn.Kind() == "field_expression" {
			obj, name = fn.ChildByFieldName("value"), fn.ChildByFieldName("field")
			args = namedNonComment(n.ChildByFieldName("arguments"))
		}
		if obj == nil || name == nil || len(args) != 1 {
			return nil, false
		}
		switch strings.TrimPrefix(t.text(obj), "java.lang.") + "." + t.text(name) {
		case "Integer.parseInt", "Integer.valueOf":
			return args[0], false
		case "Long.parseLong", "Long.valueOf":
			return args[0], true
		}
	case "field_expression":
		switch t.text(n.ChildByFieldName("field")) {
		case "toInt":
			return n.ChildByFieldName("value"), false
		case "toLong":
			return n.ChildByFieldName("value"), true
		}
	}
	return nil, false
}

// parseOrElse is the parse of x (translated by expr) with the fallback
// fb where it throws NumberFormatException; nil where declined. what
// names the construct for a decline.
func (t *tr) parseOrElse(n, x *sitter.Node, long bool, fb *binding, expr func(*sitter.Node) *binding, what string) *binding {
	xb := expr(x)
	if xb == nil {
		return nil
	}
	if !isString(xb.e) {
		t.decline(x, what+" of "+typeName(xb.e), "only the parse of a String is translated")
		return nil
	}
	ty := tInt
	if long {
		ty = tLong
	}
	f := fb.e
	switch {
	case f.Type() == nil:
		f = &ir.Lit{T: ty}
	case f.Type().Equal(ty):
	case long && f.Type().Kind == udf.Int:
		f = widen(f, tLong)
	default:
		t.decline(n, what+" with a fallback of "+typeName(f), "the fallback must be of the parse's type or null")
		return nil
	}
	t.jdkCase = jdkcase.JDK()
	return &binding{e: &ir.Call{Fn: ir.JVMParseOrElse, Args: []ir.Expr{xb.e, f}, T: ty}, nullable: fb.nullable || fb.e.Type() == nil}
}

// javaTry translates try { return <parse>; } catch (NumberFormatException
// e) { return <fallback>; }.
func (t *tr) javaTry(s *sitter.Node, e env) *binding {
	const form = "only try { return Integer.parseInt(x); } catch (NumberFormatException e) { return fallback; } is translated (Long.parseLong, valueOf, or a Writable of the parse)"
	var catches []*sitter.Node
	for _, c := range namedNonComment(s) {
		switch c.Kind() {
		case "catch_clause":
			catches = append(catches, c)
		case "finally_clause":
			t.decline(s, "Java try_statement with finally", form)
			return nil
		}
	}
	ret := func(block *sitter.Node) *sitter.Node {
		if block == nil {
			return nil
		}
		st := namedNonComment(block)
		if len(st) != 1 || st[0].Kind() != "return_statement" || st[0].NamedChildCount() == 0 {
			return nil
		}
		return st[0].NamedChild(0)
	}
	body := ret(s.ChildByFieldName("body"))
	if body == nil || len(catches) != 1 {
		t.decline(s, "Java try_statement", form)
		return nil
	}
	var param *sitter.Node
	for _, c := range namedNonComment(catches[0]) {
		if c.Kind() == "catch_formal_parameter" {
			param = c
		}
	}
	fallback := ret(catches[0].ChildByFieldName("body"))
	if param == nil || fallback == nil {
		t.decline(s, "Java try_statement", form)
		return nil
	}
	caught := ""
	for _, c := range namedNonComment(param) {
		if c.Kind() == "catch_type" {
			caught = strings.TrimPrefix(t.text(c), "java.lang.")
		}
	}
	if caught != "NumberFormatException" {
		t.decline(param, "catch ("+caught+")", "only NumberFormatException is caught: a broader catch also catches what the argument throws (a null's NullPointerException)")
		return nil
	}
	box := ""
	if body.Kind() == "object_creation_expression" {
		ty := t.text(body.ChildByFieldName("type"))
		args := namedNonComment(body.ChildByFieldName("arguments"))
		if _, ok := java.WritableKind(ty); !ok || len(args) != 1 {
			t.decline(body, "Java try_statement", form)
			return nil
		}
		box, body = ty, args[0]
	}
	x, long := t.parseCall(body)
	if x == nil {
		t.decline(body, "Java try_statement", form)
		return nil
	}
	fb := t.javaExpr(fallback, e)
	if fb == nil {
		return nil
	}
	if box != "" && !fb.writable && fb.e.Type() != nil {
		t.decline(fallback, "a fallback that is not a "+box, "not translated")
		return nil
	}
	res := t.parseOrElse(s, x, long, fb, func(x *sitter.Node) *binding { return t.javaExpr(x, e) }, "Integer.parseInt")
	if res != nil && box != "" {
		if k, _ := java.WritableKind(box); res.e.Type().Kind != k {
			t.decline(body, "new "+box+" of a "+typeName(res.e), "only a value of the box's own type is translated")
			return nil
		}
		res.writable = true
	}
	return res
}

// scalaTry translates try { <parse> } catch { case _: NumberFormatException
// => <fallback> } (the pattern may name the exception).
func (t *tr) scalaTry(n *sitter.Node, e env) *binding {
	const form = "only try { x.toInt } catch { case _: NumberFormatException => fallback } is translated (toLong, Integer.parseInt)"
	body := n.ChildByFieldName("body")
	if body != nil && body.Kind() == "block" {
		if st := namedNonComment(body); len(st) == 1 {
			body = st[0]
		} else {
			body = nil
		}
	}
	var cases []*sitter.Node
	for _, c := range namedNonComment(n) {
		switch c.Kind() {
		case "catch_clause":
			for _, b := range namedNonComment(c) {
				if b.Kind() == "case_block" {
					cases = append(cases, namedNonComment(b)...)
				}
			}
		case "finally_clause":
			t.decline(n, "Scala try_expression with finally", form)
			return nil
		}
	}
	if body == nil || len(cases) != 1 || cases[0].Kind() != "case_clause" {
		t.decline(n, "Scala try_expression", form)
		return nil
	}
	pat := cases[0].ChildByFieldName("pattern")
	if pat == nil || pat.Kind() != "typed_pattern" || strings.TrimPrefix(t.text(pat.ChildByFieldName("type")), "java.lang.") != "NumberFormatException" || cases[0].ChildByFieldName("guard") != nil {
		t.decline(cases[0], "case "+t.textOr(pat), "only NumberFormatException is caught: a broader case also catches what the argument throws (a null's NullPointerException)")
		return nil
	}
	x, long := t.parseCall(body)
	if x == nil {
		t.decline(body, "Scala try_expression", form)
		return nil
	}
	fb := t.scalaExpr(cases[0].ChildByFieldName("body"), e, false)
	if fb == nil {
		return nil
	}
	return t.parseOrElse(n, x, long, fb, func(x *sitter.Node) *binding { return t.scalaExpr(x, e, false) }, "toInt")
}

// scalaTryOf translates Try(<parse>).getOrElse(fallback) (fb) and
// Try(<parse>).toOption (fb nil: None is NULL to Spark). Try catches
// every exception, so the parse's argument must not raise.
func (t *tr) scalaTryOf(n, try *sitter.Node, fb *binding, e env) *binding {
	args := namedNonComment(try.ChildByFieldName("arguments"))
	var x *sitter.Node
	long := false
	if len(args) == 1 {
		x, long = t.parseCall(args[0])
	}
	if x == nil {
		t.decline(try, "Try of "+t.text(try), "only Try(x.toInt) (toLong, Integer.parseInt) is translated")
		return nil
	}
	if fb == nil {
		fb = &binding{e: &ir.Lit{}, nullable: true}
	}
	res := t.parseOrElse(n, x, long, fb, func(x *sitter.Node) *binding { return t.scalaExpr(x, e, false) }, "Try(toInt)")
	if res != nil && containsRaise(res.e.(*ir.Call).Args[0]) {
		t.decline(x, "Try of a parse whose argument may throw", "Try catches that too and gives the fallback; not translated")
		return nil
	}
	return res
}

// isTry: n is Try(…) (scala.util.Try).
func isTry(t *tr, n *sitter.Node) bool {
	if n == nil || n.Kind() != "call_expression" {
		return false
	}
	f := t.text(n.ChildByFieldName("function"))
	return f == "Try" || f == "scala.util.Try"
}
