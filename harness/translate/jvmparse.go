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
//	try { s.toDouble } catch { case _: Exception => 0.0 }
//	Try(s.toInt).getOrElse(0), Try(s.toDouble).toOption
//
// Integer.parseInt throws NumberFormatException on null, on text that is
// not an optional sign and digits (Character.digit's, any script's, read
// char by char) and beyond the type; package jdkcase gives the SQL of
// that, proved against the JDK over every digit it reads.
// Double.parseDouble throws NumberFormatException on text it does not
// read and NullPointerException on null; jdkcase gives its SQL too. The
// try's body must be the parse alone (or a Writable of it), so that the
// fallback replaces exactly what the parse would have returned. Its
// argument is evaluated first: under a catch of NumberFormatException
// alone (or IllegalArgumentException) what the argument throws is not
// caught and raises as anywhere else; a broader catch (Exception,
// Throwable, NullPointerException, Scala's case _ and NonFatal, Try)
// would catch that too, so there the argument must not throw.

//
// URLDecoder.decode(x, "UTF-8") (or StandardCharsets.UTF_8) is a parse of
// its own kind: it throws IllegalArgumentException on a malformed
// %-escape, which a catch of NumberFormatException does not catch, and
// NullPointerException on null.

// parseKind is what a parse call parses.
type parseKind int

const (
	parsesInt parseKind = iota
	parsesLong
	parsesDouble
	parsesURLDecode
)

// caught is what a catch clause catches of a parse and its argument.
type caught struct {
	nfe bool // NumberFormatException: the parse's failure
	iae bool // IllegalArgumentException: URLDecoder.decode's failure
	npe bool // NullPointerException: Double.parseDouble(null)
	any bool // every exception, the argument's as well
}

// catches reports whether c catches the failure of a parse of kind.
func (c caught) catches(kind parseKind) bool {
	if kind == parsesURLDecode {
		return c.iae
	}
	return c.nfe
}

// catchOf classifies the exception classes a catch names; ok is false
// for one udfx does not classify.
func catchOf(classes []string) (c caught, ok bool) {
	for _, cl := range classes {
		switch strings.TrimPrefix(strings.TrimSpace(cl), "java.lang.") {
		case "NumberFormatException":
			c.nfe = true
		case "IllegalArgumentException":
			c.nfe, c.iae = true, true
		case "NullPointerException":
			c.npe = true
		case "Exception", "RuntimeException", "Throwable":
			c.any = true
		case "UnsupportedEncodingException", "java.io.UnsupportedEncodingException":
			// Checked, and never thrown for UTF-8.
		default:
			return caught{}, false
		}
	}
	if c.any {
		c.nfe, c.iae, c.npe = true, true, true
	}
	return c, true
}

// parseCall is the argument of Integer.parseInt/valueOf,
// Long.parseLong/valueOf or Double.parseDouble/valueOf (Java, or called
// from Scala), or of Scala's x.toInt/x.toLong/x.toDouble, with what it
// parses; nil when n is none.
func (t *tr) parseCall(n *sitter.Node) (arg *sitter.Node, kind parseKind) {
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
		if n.Kind() == "method_invocation" && obj != nil && name != nil && len(args) == 2 &&
			strings.TrimPrefix(t.text(obj), "java.net.") == "URLDecoder" && t.text(name) == "decode" {
			switch strings.TrimPrefix(t.text(args[1]), "java.nio.charset.") {
			case `"UTF-8"`, `"utf-8"`, `"UTF8"`, "StandardCharsets.UTF_8":
				return args[0], parsesURLDecode
			}
		}
		if obj == nil || name == nil || len(args) != 1 {
			return nil, 0
		}
		switch strings.TrimPrefix(t.text(obj), "java.lang.") + "." + t.text(name) {
		case "Integer.parseInt", "Integer.valueOf":
			return args[0], parsesInt
		case "Long.parseLong", "Long.valueOf":
			return args[0], parsesLong
		case "Double.parseDouble", "Double.valueOf":
			return args[0], parsesDouble
		}
	case "field_expression":
		switch t.text(n.ChildByFieldName("field")) {
		case "toInt":
			return n.ChildByFieldName("value"), parsesInt
		case "toLong":
			return n.ChildByFieldName("value"), parsesLong
		case "toDouble":
			return n.ChildByFieldName("value"), parsesDouble
		}
	}
	return nil, 0
}

// parseOrElse is the parse of x (translated by expr) with the fallback
// fb where it throws what c catches; nil where declined. what names the
// construct for a decline.
func (t *tr) parseOrElse(n, x *sitter.Node, kind parseKind, c caught, fb *binding, expr func(*sitter.Node) *binding, what string) *binding {
	xb := expr(x)
	if xb == nil {
		return nil
	}
	if !isString(xb.e) {
		t.decline(x, what+" of "+typeName(xb.e), "only the parse of a String is translated")
		return nil
	}
	if (c.any || c.npe) && containsRaise(xb.e) {
		t.decline(x, "a parse whose argument may throw, under a catch of "+map[bool]string{true: "every exception", false: "NullPointerException"}[c.any],
			"the catch gives the fallback for that too; not translated")
		return nil
	}
	ty := map[parseKind]*udf.Type{parsesInt: tInt, parsesLong: tLong, parsesDouble: tDouble, parsesURLDecode: tString}[kind]
	f := fb.e
	switch {
	case f.Type() == nil:
		f = &ir.Lit{T: ty}
	case f.Type().Equal(ty):
	case kind == parsesLong && f.Type().Kind == udf.Int, kind == parsesDouble && ir.IsIntegral(f.Type()):
		// The fallback converts to the try's type, as Java's return and
		// Scala's weak conformance convert it.
		f = widen(f, ty)
	default:
		t.decline(n, what+" with a fallback of "+typeName(f), "the fallback must be of the parse's type or null")
		return nil
	}
	if kind == parsesURLDecode {
		var res ir.Expr = &ir.Call{Fn: ir.JVMURLDecodeOrElse, Args: []ir.Expr{xb.e, f}, T: ty}
		if !c.npe && xb.nullable {
			res = raiseWhereNull(xb.e, res, "NullPointerException where "+t.text(x)+" is URL-decoded and is null")
		}
		return &binding{e: res, nullable: fb.nullable || fb.e.Type() == nil}
	}
	var res ir.Expr = &ir.Call{Fn: ir.JVMParseOrElse, Args: []ir.Expr{xb.e, f}, T: ty}
	if kind == parsesDouble && !c.npe {
		res = raiseWhereNull(xb.e, res, "NullPointerException where "+t.text(x)+" is parsed as a double and is null")
	} else if kind != parsesDouble {
		t.jdkCase = jdkcase.JDK()
	}
	return &binding{e: res, nullable: fb.nullable || fb.e.Type() == nil}
}

// javaTry translates try { return <parse>; } catch (NumberFormatException
// e) { return <fallback>; }.
func (t *tr) javaTry(s *sitter.Node, e env) *binding {
	const form = "only try { return Integer.parseInt(x); } catch (NumberFormatException e) { return fallback; } is translated (Long.parseLong, Double.parseDouble, valueOf, or a Writable of the parse)"
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
	classes := ""
	for _, c := range namedNonComment(param) {
		if c.Kind() == "catch_type" {
			classes = t.text(c)
		}
	}
	c, ok := catchOf(strings.Split(classes, "|"))
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
	x, kind := t.parseCall(body)
	if x == nil {
		t.decline(body, "Java try_statement", form)
		return nil
	}
	if !ok || !c.catches(kind) {
		t.decline(param, "catch ("+classes+")", "only a catch of NumberFormatException, IllegalArgumentException, NullPointerException, Exception, RuntimeException or Throwable that catches the parse's NumberFormatException (URLDecoder.decode's IllegalArgumentException) is translated")
		return nil
	}
	if kind == parsesURLDecode && box != "" {
		t.decline(body, "new "+box+" of URLDecoder.decode", "not translated")
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
	res := t.parseOrElse(s, x, kind, c, fb, func(x *sitter.Node) *binding { return t.javaExpr(x, e) }, "a parse")
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
	const form = "only try { x.toInt } catch { case _: NumberFormatException => fallback } is translated (toLong, toDouble, Integer.parseInt)"
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
	c, ok := t.scalaCaught(pat)
	if !ok || !c.nfe || cases[0].ChildByFieldName("guard") != nil {
		t.decline(cases[0], "case "+t.textOr(pat), "only a case of NumberFormatException, IllegalArgumentException, NullPointerException, Exception, Throwable, NonFatal(_) or _ that catches the parse's NumberFormatException is translated")
		return nil
	}
	x, kind := t.parseCall(body)
	if x == nil {
		t.decline(body, "Scala try_expression", form)
		return nil
	}
	fb := t.scalaExpr(cases[0].ChildByFieldName("body"), e, false)
	if fb == nil {
		return nil
	}
	return t.parseOrElse(n, x, kind, c, fb, func(x *sitter.Node) *binding { return t.scalaExpr(x, e, false) }, "a parse")
}

// scalaTryOf translates Try(<parse>).getOrElse(fallback) (fb) and
// Try(<parse>).toOption (fb nil: None is NULL to Spark). Try catches
// every exception, so the parse's argument must not raise.
func (t *tr) scalaTryOf(n, try *sitter.Node, fb *binding, e env) *binding {
	args := namedNonComment(try.ChildByFieldName("arguments"))
	var x *sitter.Node
	var kind parseKind
	if len(args) == 1 {
		x, kind = t.parseCall(args[0])
	}
	if x == nil {
		t.decline(try, "Try of "+t.text(try), "only Try(x.toInt) (toLong, toDouble, Integer.parseInt) is translated")
		return nil
	}
	if fb == nil {
		fb = &binding{e: &ir.Lit{}, nullable: true}
	}
	return t.parseOrElse(n, x, kind, caught{nfe: true, npe: true, any: true}, fb, func(x *sitter.Node) *binding { return t.scalaExpr(x, e, false) }, "Try of a parse")
}

// scalaCaught classifies a catch case's pattern: `_: T` or `e: T` for
// the classes catchOf knows, and `_`, `e` and NonFatal(…), which catch
// every exception a parse or its argument throws.
func (t *tr) scalaCaught(pat *sitter.Node) (caught, bool) {
	switch {
	case pat == nil:
		return caught{}, false
	case pat.Kind() == "typed_pattern":
		return catchOf([]string{t.text(pat.ChildByFieldName("type"))})
	case pat.Kind() == "wildcard", pat.Kind() == "identifier":
		return catchOf([]string{"Throwable"})
	case pat.Kind() == "case_class_pattern":
		if ty := t.text(pat.ChildByFieldName("type")); ty == "NonFatal" || ty == "scala.util.control.NonFatal" {
			return catchOf([]string{"Exception"})
		}
	}
	return caught{}, false
}

// isTry: n is Try(…) (scala.util.Try).
func isTry(t *tr, n *sitter.Node) bool {
	if n == nil || n.Kind() != "call_expression" {
		return false
	}
	f := t.text(n.ChildByFieldName("function"))
	return f == "Try" || f == "scala.util.Try"
}
