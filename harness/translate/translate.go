// Package translate is udfx's built-in, offline translator: it reads a
// UDF's body (Scala, Java or Python), builds the typed IR of package ir
// with the original language's semantics, and renders it as a Spark SQL
// expression that computes the same value on every input with
// spark.sql.ansi.enabled=true.
//
// A construct without an exact translation is declined with its reason;
// the translator never guesses. When anything is declined, Result.SQL is
// empty. The differential test (package difftest) is the final judge of
// every rewrite; docs/translator.md lists each construct with the test that
// runs the real original against its rewrite.
package translate

import (
	"errors"
	"fmt"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tsjava "github.com/tree-sitter/tree-sitter-java/bindings/go"
	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"
	tsscala "github.com/tree-sitter/tree-sitter-scala/bindings/go"

	"github.com/udfx/udfx/harness/render/sparksql"
	"github.com/udfx/udfx/harness/translate/ir"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/udf/scala"
)

// Result is a translation: the IR and its SQL, or the declines that
// stopped it.
type Result struct {
	// IR is the body's expression; nil when anything was declined.
	IR ir.Expr
	// SQL is the Spark SQL rewrite; "" when anything was declined.
	SQL string
	// Declines lists every construct without an exact translation.
	Declines []Decline
	// PythonUnicode, when set, is the version of CPython's Unicode
	// database (unicodedata.unidata_version) the translation is exact
	// for: it reads str.lower()/upper() or Unicode digits as that
	// CPython does. The original must run on a CPython with it.
	PythonUnicode string
	// JDKCase, when set, is the feature version of the JDK ("17") whose
	// String.toUpperCase() or toLowerCase() the translation follows, in the locale udfx's
	// JVM runner gives originals (package jdkcase). The original must run
	// on that JDK.
	JDKCase string
}

// Decline is one construct the translator will not translate.
type Decline struct {
	// Construct names it ("Java unboxing of a possibly-null parameter").
	Construct string
	// Reason says why no exact translation exists.
	Reason string
	Span   udf.Span
}

func (d Decline) String() string {
	return fmt.Sprintf("%s: %s: %s", d.Span, d.Construct, d.Reason)
}

// BodyNotFoundError says the UDF's body span does not match the source:
// the file changed since it was scanned, or the span is not a body.
type BodyNotFoundError struct {
	UDF  string
	Span udf.Span
}

func (e *BodyNotFoundError) Error() string {
	return fmt.Sprintf("translate %s: no function body at %s in the source", e.UDF, e.Span)
}

// Translate translates u, whose file's content is src. An error means
// the input is unusable (no body at u.BodySpan, a syntax error); a UDF
// the translator cannot handle gives a Result with Declines.
func Translate(u *udf.UDF, src []byte) (*Result, error) {
	var lang *sitter.Language
	switch u.Language {
	case udf.Scala:
		lang = sitter.NewLanguage(tsscala.Language())
	case udf.Java:
		lang = sitter.NewLanguage(tsjava.Language())
	case udf.Python:
		lang = sitter.NewLanguage(tspython.Language())
	default:
		return nil, fmt.Errorf("translate %s: no translator for %s UDFs", u.Name, u.Language)
	}
	p := sitter.NewParser()
	defer p.Close()
	if err := p.SetLanguage(lang); err != nil {
		return nil, fmt.Errorf("translate %s: grammar: %w", u.Name, err)
	}
	tree := p.Parse(src, nil)
	if tree == nil {
		return nil, fmt.Errorf("translate %s: the parser gave no tree", u.Name)
	}
	if u.Language == udf.Scala && tree.RootNode().HasError() {
		// The front-end read it with $"col" as s"col" (scala.ColumnSyntax):
		// the same offsets, so the text stays the file's.
		if fixed := scala.ColumnSyntax(src); fixed != nil {
			if ft := p.Parse(fixed, nil); ft != nil {
				tree.Close()
				tree = ft
			}
		}
	}
	defer tree.Close()
	t := &tr{u: u, src: src, lines: udf.NewLines(src), root: tree.RootNode()}
	defer t.closeModules()
	body := t.findSpan(tree.RootNode(), u.BodySpan)
	if body == nil {
		return nil, &BodyNotFoundError{UDF: u.Name, Span: u.BodySpan}
	}
	if body.HasError() {
		return nil, fmt.Errorf("translate %s: syntax error in the body at %s", u.Name, t.span(body))
	}
	if u.Kind == udf.KindPandasUDF {
		// s / 100.0 over a Series gives NaN, and Spark NULL, for a
		// missing value where per-row Python raises: the same text
		// means something else, read by its own rules.
		return t.result(t.pandasFunction(body))
	}
	if u.Return == nil {
		t.decline(body, "the UDF's return type", "the Spark return type is not known from the source")
		return t.result(nil)
	}
	env, ok := t.paramEnv(body)
	if !ok {
		return t.result(nil)
	}
	var e ir.Expr
	switch u.Language {
	case udf.Scala:
		e = t.scalaFunction(body, env)
	case udf.Java:
		e = t.javaMethod(body, env)
	case udf.Python:
		e = t.pythonFunction(body, env)
	}
	if e == nil {
		return t.result(nil)
	}
	e = t.fitReturn(body, e)
	if e == nil || t.declineLoneSurrogates(body, e) {
		return t.result(nil)
	}
	return t.result(t.hiveOverloadGuard(body, t.hiveNullsThrow(t.skipNulls(e))))
}

func (t *tr) result(e ir.Expr) (*Result, error) {
	if len(t.declines) > 0 || e == nil {
		if len(t.declines) == 0 {
			return nil, errors.New("translate: internal error: no expression and no decline")
		}
		return &Result{Declines: t.declines}, nil
	}
	sql, err := sparksql.Render(e)
	if err != nil {
		var re *ir.RenderError
		if errors.As(err, &re) {
			return &Result{Declines: []Decline{{Construct: re.What, Reason: re.Error(), Span: t.u.BodySpan}}}, nil
		}
		return nil, fmt.Errorf("translate %s: %w", t.u.Name, err)
	}
	return &Result{IR: e, SQL: sql, PythonUnicode: t.pythonUnicode, JDKCase: t.jdkCase}, nil
}

// tr is one translation.
type tr struct {
	u        *udf.UDF
	src      []byte
	lines    *udf.Lines
	declines []Decline
	// root is the file's tree, where constants are looked up.
	root       *sitter.Node
	constDepth int
	// inlineDepth counts the helpers being inlined (helpers.go).
	inlineDepth int
	// pythonUnicode is Result.PythonUnicode.
	pythonUnicode string
	// jdkCase is Result.JDKCase.
	jdkCase string
	// wildcards binds the _ of a function argument (_.trim in
	// Option(s).map(_.trim)) to its value, by the _'s span.
	wildcards map[udf.Span]binding
	// parent is the translation that read this module (pyimport.go),
	// nil for the UDF's own file; file is the module's path.
	parent *tr
	file   string
	// modules are the modules the translation read, by path.
	modules map[string]*pyModule
}

// binding is what a name stands for in the body.
type binding struct {
	e ir.Expr
	// nullable: the value may be null (a boxed JVM value, a Python
	// value). Spark hands a null input as null.
	nullable bool
	// boxed: a Java reference (Double, Integer, ...), even once known not
	// to be null: Java's == on two of them compares identities, not
	// values.
	boxed bool
	// char: a Scala or Java char literal, held as a one-character
	// string; only string concatenation uses it (char arithmetic is on
	// its code, which is not modelled).
	char bool
	// writable: a Hadoop or Hive Writable box (Text, IntWritable, ...)
	// holding e: only get(), toString(), a null check and string
	// concatenation read it as its value (Text.equals("x") is false).
	writable bool
	// off, for an int, is the same value as a UTF-16 offset into a
	// string that the translator can follow in code points (utf16.go).
	off *strOffset
	// prefixes, for a string, are literals it is known to start with
	// (the branch of s.startsWith("x") where it does).
	prefixes []string
	// suffixes likewise, from s.endsWith("x").
	suffixes []string
	// dict, for a Python local bound to a dict display, is the dict;
	// only lookups read it (pydict.go).
	dict *pyDict
	// unassigned: a Java local declared without a value, not yet
	// assigned on this path; e is a NULL of its declared type.
	unassigned bool
	// nonZero, for a number, says it is neither 0 nor -0.0 on this path
	// (the else branch of b == 0.0): dividing by it cannot divide by
	// zero (divisor.go).
	nonZero bool
	// dateFormat, for a JVM local holding a SimpleDateFormat, is its
	// pattern and time zone; e is a NULL, which nothing reads
	// (jvmdate.go).
	dateFormat *jvmDateFormat
}

// env maps names to bindings; it is copied on write so branches refine
// it independently.
type env map[string]binding

func (e env) with(name string, b binding) env {
	out := make(env, len(e)+1)
	for k, v := range e {
		out[k] = v
	}
	out[name] = b
	return out
}

func (t *tr) decline(n *sitter.Node, construct, reason string) {
	sp := t.u.BodySpan
	if n != nil {
		sp = t.span(n)
	}
	t.declines = append(t.declines, Decline{Construct: construct, Reason: reason, Span: sp})
}

func (t *tr) text(n *sitter.Node) string { return string(t.src[n.StartByte():n.EndByte()]) }

// pos converts a byte offset to udf's 1-based line and code-point column.
func (t *tr) pos(off uint) udf.Position { return t.lines.Position(int(off)) }

func (t *tr) span(n *sitter.Node) udf.Span {
	return udf.Span{Start: t.pos(n.StartByte()), End: t.pos(n.EndByte())}
}

// findSpan returns the outermost node whose span is s.
func (t *tr) findSpan(n *sitter.Node, s udf.Span) *sitter.Node {
	if t.span(n) == s {
		return n
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		cs := t.span(c)
		if before(s.Start, cs.Start) || before(cs.End, s.End) {
			continue
		}
		if f := t.findSpan(c, s); f != nil {
			return f
		}
	}
	return nil
}

func before(a, b udf.Position) bool {
	return a.Line < b.Line || (a.Line == b.Line && a.Column < b.Column)
}

// paramEnv binds the parameters. A Scala primitive parameter is never
// null inside the body (Spark skips the call); every other one may be.
func (t *tr) paramEnv(body *sitter.Node) (env, bool) {
	e := env{}
	for _, p := range t.u.Params {
		if p.Type == nil {
			t.decline(body, "parameter "+p.Name, "its Spark type is not known from the source")
			return nil, false
		}
		switch p.Type.Kind {
		case udf.Double, udf.Int, udf.Long, udf.Boolean, udf.String:
		case udf.Date:
			if t.u.Language != udf.Python {
				t.decline(body, "parameter "+p.Name+" of type date", "JVM UDFs see a java.sql.Date in the hybrid Julian calendar; only Python's datetime.date is translated")
				return nil, false
			}
		default:
			t.decline(body, "parameter "+p.Name+" of type "+p.Type.String(), "the translator handles double, int, bigint, boolean and string parameters (and date in Python)")
			return nil, false
		}
		nullable := !(t.u.NullSkipsCall && p.Primitive)
		if t.u.Kind == udf.KindHiveUDF && p.Primitive {
			// Hive's evaluate gets no value for NULL: the query fails
			// before the body runs (hiveNullsThrow).
			nullable = false
		} else if t.u.Language != udf.Python && p.Primitive && !t.u.NullSkipsCall {
			// A primitive parameter of a Java UDF1 or an untyped Scala
			// function gets a default value for NULL; that is not
			// modelled.
			t.decline(body, "primitive parameter "+p.Name, "Spark does not skip the call for this kind of UDF, and a NULL input's default value is not modelled")
			return nil, false
		}
		e[p.Name] = binding{e: &ir.Col{Name: p.Name, T: p.Type}, nullable: nullable,
			boxed: t.u.Language == udf.Java && !p.Primitive, writable: t.u.Language == udf.Java && isWritable(p.SourceType)}
	}
	return e, true
}

// fitReturn checks the body's value against the declared return type.
func (t *tr) fitReturn(body *sitter.Node, e ir.Expr) ir.Expr {
	if n := unboundedIntUse(e, true); n != "" {
		t.decline(body, n+" used in a computation", "Python goes on computing with the unbounded int; only a returned int(x), round(x), math.floor(x), math.ceil(x) or int arithmetic is translated")
		return nil
	}
	if l, ok := e.(*ir.Lit); ok && l.Value == nil {
		return &ir.Lit{T: t.u.Return}
	}
	fixNulls(e, t.u.Return)
	if et := e.Type(); et != nil && !et.Equal(t.u.Return) && ir.IsIntegral(et) {
		// Widening to the declared result: the JVM's (and Scala's)
		// numeric widening; for Python only int to bigint, since a
		// Python int stays an int.
		if t.u.Return.Kind == udf.Long && et.Kind == udf.Int ||
			t.u.Language != udf.Python && ir.IsDouble(t.u.Return) {
			e = widenAll(e, t.u.Return)
		}
		// PySpark stores a Python int for an int UDF by keeping its low
		// 32 bits; the body's BIGINT is the Python int itself (Python int
		// arithmetic is translated only where it stays within BIGINT).
		if t.u.Language == udf.Python && t.u.Return.Kind == udf.Int && et.Kind == udf.Long {
			e = narrowAll(e)
		}
	}
	if e.Type() == nil || !e.Type().Equal(t.u.Return) {
		got := "unknown"
		if e.Type() != nil {
			got = e.Type().String()
		}
		reason := fmt.Sprintf("the body computes %s but the UDF returns %s", got, t.u.Return)
		if t.u.Language == udf.Python {
			reason += " (a plain @udf turns a value of another Python type into NULL)"
		}
		t.decline(body, "the returned value", reason)
		return nil
	}
	return e
}

// narrowAll is e's low 32 bits, pushed into the branches of conditionals
// as widenAll does.
func narrowAll(e ir.Expr) ir.Expr {
	switch x := e.(type) {
	case *ir.If:
		return &ir.If{Cond: x.Cond, Then: narrowAll(x.Then), Else: narrowAll(x.Else)}
	case *ir.Lit:
		if x.Value == nil {
			return &ir.Lit{T: tInt}
		}
		if v, ok := x.Value.(int64); ok {
			return &ir.Lit{T: tInt, Value: int64(int32(v))}
		}
	case *ir.Raise:
		return &ir.Raise{Msg: x.Msg, T: tInt}
	}
	if e.Type() != nil && e.Type().Kind == udf.Int {
		return e
	}
	return &ir.Cast{Kind: ir.LongToInt, X: e, To: tInt}
}

// widenAll widens e to ty, pushing the conversion into the branches of
// conditionals so that every branch has the result's type.
func widenAll(e ir.Expr, ty *udf.Type) ir.Expr {
	if c, ok := e.(*ir.If); ok {
		return &ir.If{Cond: c.Cond, Then: widenAll(c.Then, ty), Else: widenAll(c.Else, ty)}
	}
	if l, ok := e.(*ir.Lit); ok && l.Value == nil {
		return &ir.Lit{T: ty}
	}
	if r, ok := e.(*ir.Raise); ok {
		return &ir.Raise{Msg: r.Msg, T: ty}
	}
	return widen(e, ty)
}

// fixNulls gives untyped NULL literals in the branches of conditionals
// the type of the whole.
func fixNulls(e ir.Expr, ty *udf.Type) {
	if c, ok := e.(*ir.If); ok {
		for _, x := range []*ir.Expr{&c.Then, &c.Else} {
			if l, ok := (*x).(*ir.Lit); ok && l.Value == nil && l.T == nil {
				*x = &ir.Lit{T: ty}
			} else {
				fixNulls(*x, ty)
			}
		}
	}
}

// skipNulls reproduces Spark's null handling for a typed Scala function
// with primitive parameters: a NULL input gives NULL without calling
// it. The guard is left out when the body already returns NULL for a
// NULL in that parameter (it propagates through strict operators only).
func (t *tr) skipNulls(e ir.Expr) ir.Expr {
	if !t.u.NullSkipsCall {
		return e
	}
	var cond ir.Expr
	for _, p := range t.u.Params {
		if !p.Primitive || strictIn(e, p.Name) {
			continue
		}
		c := ir.Expr(&ir.IsNull{X: &ir.Col{Name: p.Name, T: p.Type}})
		if cond == nil {
			cond = c
		} else {
			cond = &ir.Binary{Op: ir.Or, L: cond, R: c, T: udf.Prim(udf.Boolean)}
		}
	}
	if cond == nil {
		return e
	}
	return &ir.If{Cond: cond, Then: &ir.Lit{T: t.u.Return}, Else: e}
}

// hiveNullsThrow reproduces Spark's HiveSimpleUDF for an evaluate with
// primitive parameters: a NULL for one fails the query (Method.invoke's
// IllegalArgumentException, wrapped in a HiveException) before the body
// runs, whatever the other arguments.
func (t *tr) hiveNullsThrow(e ir.Expr) ir.Expr {
	if t.u.Kind != udf.KindHiveUDF {
		return e
	}
	for i := len(t.u.Params) - 1; i >= 0; i-- {
		if p := t.u.Params[i]; p.Primitive {
			e = raiseWhereNull(&ir.Col{Name: p.Name, T: p.Type}, e, "IllegalArgumentException where the primitive "+p.Name+" of evaluate gets NULL")
		}
	}
	return e
}

// hiveOverloadGuard keeps the rewrite of one evaluate of a Hive UDF
// class that has others of the same arity to the argument types it was
// proved for. Spark calls the evaluate Hive's resolver picks for the
// types a query gives it: the same SQL text applied to a bigint column
// would compute what another method computes. The guard makes Spark fail
// such a query instead; typeof folds, so the proved types keep one branch.
func (t *tr) hiveOverloadGuard(body *sitter.Node, e ir.Expr) ir.Expr {
	if t.u.Kind != udf.KindHiveUDF || len(t.u.Params) == 0 || evaluateOverloads(body, t.src) < 2 {
		return e
	}
	var cond ir.Expr
	var proved []string
	for _, p := range t.u.Params {
		is := &ir.Call{Fn: ir.TypeIs, Args: []ir.Expr{&ir.Col{Name: p.Name, T: p.Type}, &ir.Lit{T: udf.Prim(udf.String), Value: p.Type.String()}}, T: udf.Prim(udf.Boolean)}
		proved = append(proved, p.Name+" "+p.Type.String())
		if cond == nil {
			cond = is
		} else {
			cond = &ir.Binary{Op: ir.And, L: cond, R: is, T: udf.Prim(udf.Boolean)}
		}
	}
	msg := fmt.Sprintf("udfx: %s has other evaluate methods; this rewrite was proved only for (%s)", asciiSnippet(t.u.Name), strings.Join(proved, ", "))
	return &ir.If{Cond: cond, Then: e, Else: &ir.Raise{Msg: msg, T: e.Type()}}
}

// evaluateOverloads counts the evaluate methods of the class that
// declares method m that take as many parameters as m.
func evaluateOverloads(m *sitter.Node, src []byte) int {
	arity := func(n *sitter.Node) int {
		ps := n.ChildByFieldName("parameters")
		if ps == nil {
			return -1
		}
		k := 0
		for _, c := range namedNonComment(ps) {
			if c.Kind() == "formal_parameter" || c.Kind() == "spread_parameter" {
				k++ // not a // comment between them
			}
		}
		return k
	}
	class := m.Parent()
	if class == nil || class.Kind() != "class_body" {
		return 0
	}
	n := 0
	for _, c := range namedNonComment(class) {
		if name := c.ChildByFieldName("name"); c.Kind() == "method_declaration" && name != nil &&
			name.Utf8Text(src) == "evaluate" && arity(c) == arity(m) {
			n++
		}
	}
	return n
}

// strictIn reports whether e is NULL in Spark whenever column name is:
// e is built only from arithmetic (which propagates NULL) over name.
func strictIn(e ir.Expr, name string) bool {
	switch e := e.(type) {
	case *ir.Col:
		return e.Name == name
	case *ir.Unary:
		return e.Op != ir.Not && strictIn(e.X, name)
	case *ir.Binary:
		switch e.Op {
		case ir.DoubleAdd, ir.DoubleSub, ir.DoubleMul, ir.DoubleDivNonZero, ir.DoubleRemNonZero:
			return strictIn(e.L, name) || strictIn(e.R, name)
		}
	case *ir.Call:
		if e.Fn == ir.Sqrt || e.Fn == ir.AbsDouble {
			return strictIn(e.Args[0], name)
		}
	}
	return false
}

var (
	tDouble = udf.Prim(udf.Double)
	tInt    = udf.Prim(udf.Int)
	tLong   = udf.Prim(udf.Long)
	tBool   = udf.Prim(udf.Boolean)
	tString = udf.Prim(udf.String)
)

func isBool(t *udf.Type) bool { return t != nil && t.Kind == udf.Boolean }

// logicCond translates `l || r` and `l && r` as conditions: the right
// operand is evaluated only where the left one lets it, so it sees what
// the left one proved (`x == null || x > 1`), and each branch learns what
// both operands prove there.
func (t *tr) logicCond(n *sitter.Node, or bool, e env, cond func(*sitter.Node, env) (ir.Expr, env, env)) (ir.Expr, env, env) {
	l, lt, lf := cond(n.ChildByFieldName("left"), e)
	if l == nil {
		return nil, nil, nil
	}
	if or {
		r, _, rf := cond(n.ChildByFieldName("right"), lf)
		if r == nil {
			return nil, nil, nil
		}
		return &ir.Binary{Op: ir.Or, L: l, R: r, T: tBool}, e, rf
	}
	r, rt, _ := cond(n.ChildByFieldName("right"), lt)
	if r == nil {
		return nil, nil, nil
	}
	return &ir.Binary{Op: ir.And, L: l, R: r, T: tBool}, rt, e
}

// unhandledReason says why a statement or expression kind the
// translator has no rule for is declined, as specifically as the kind
// allows.
func unhandledReason(kind, text string) string {
	switch kind {
	case "try_statement", "try_expression", "try_with_resources_statement":
		if strings.Contains(text, "parseInt") || strings.Contains(text, "toInt") || strings.Contains(text, "parseLong") || strings.Contains(text, "toLong") || strings.Contains(text, "parseDouble") || strings.Contains(text, "toDouble") {
			return "a parse with a fallback is translated only as try { return Integer.parseInt(x); } catch (NumberFormatException e) { return fallback; } (Long, Double, valueOf, Scala's toInt, toLong, toDouble and Try), its body the parse alone"
		}
		return "exceptions caught by try/catch are not modelled"
	case "for_statement", "enhanced_for_statement", "while_statement", "do_statement", "for_expression", "while_expression":
		return "loops are not translated (Spark's higher-order functions are not used for them yet)"
	case "throw_statement", "throw_expression":
		return "an explicit throw is not translated"
	case "expression_statement", "assignment_expression", "update_expression":
		return "assignments to existing variables (mutation) are not translated"
	case "lambda_expression", "lambda":
		return "nested lambdas are not translated"
	}
	return "no rule translates this construct"
}

// unboundedIntUse names a CPython float-to-int conversion that is not
// the UDF's result (result: e is returned as it is, or is a branch of a
// returned conditional), or is "".
func unboundedIntUse(e ir.Expr, result bool) string {
	switch e := e.(type) {
	case *ir.If:
		if s := unboundedIntUse(e.Cond, false); s != "" {
			return s
		}
		if s := unboundedIntUse(e.Then, result); s != "" {
			return s
		}
		return unboundedIntUse(e.Else, result)
	case *ir.Call:
		switch e.Fn {
		case ir.PyIntOfFloat, ir.PyRoundOfFloat, ir.PyFloorOfFloat, ir.PyCeilOfFloat, ir.PyIntOrElse, ir.PyIntExact:
			if !result {
				return map[ir.Func]string{ir.PyIntOfFloat: "int()", ir.PyRoundOfFloat: "round()", ir.PyFloorOfFloat: "math.floor()", ir.PyCeilOfFloat: "math.ceil()", ir.PyIntOrElse: "int()", ir.PyIntExact: "int arithmetic past BIGINT"}[e.Fn]
			}
		}
		for _, a := range e.Args {
			if s := unboundedIntUse(a, false); s != "" {
				return s
			}
		}
	case *ir.Unary:
		return unboundedIntUse(e.X, false)
	case *ir.Binary:
		if s := unboundedIntUse(e.L, false); s != "" {
			return s
		}
		return unboundedIntUse(e.R, false)
	case *ir.Cast:
		return unboundedIntUse(e.X, false)
	case *ir.IsNull:
		return unboundedIntUse(e.X, false)
	}
	return ""
}
