// Package columnar renders udfx's columnar target: a RAPIDS RapidsUDF for a
// Java or Scala UDF class. The generated Java class extends the user's class,
// so the CPU method Spark falls back to is the original itself, and adds
// evaluateColumnar built from cuDF Java operations.
//
// Each IR node renders only where the cuDF operation computes exactly what
// the original language computes (checked against libcudf's
// cpp/src/binaryop/compiled/operation.cuh and the cuDF Java API of
// ai.rapids:cudf 26.08.1); every other node is an *ir.RenderError, never an
// approximation. The differential test stays the final judge.
package columnar

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
	"text/template"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/translate/ir"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/internal/tmplsrc"
)

// Target names this renderer in errors and evidence records.
const Target = string(udf.TargetColumnar)

// File is one generated file, its path relative to the repository root.
type File struct {
	Path    string
	Content []byte
}

// tmpl holds the template of templates/columnar (templates.go, generated).
var tmpl = tmplsrc.Parse(template.New("columnar"), templateFiles)

func renderErr(what string) error { return &ir.RenderError{Target: "cuDF", What: what} }

// Render renders the RapidsUDF for u, whose body is e, for a class in the
// default package. For a class in a package use RenderIn.
func Render(u *udf.UDF, e ir.Expr, recordPath string) ([]File, error) {
	return RenderIn(u, e, recordPath, "")
}

// RenderIn renders the RapidsUDF for u, whose body is e, into pkg, the
// Java package of the original class (PackageOf reads it from the source):
// the generated class extends the original, so it lives beside it.
func RenderIn(u *udf.UDF, e ir.Expr, recordPath, pkg string) ([]File, error) {
	if u == nil || e == nil {
		return nil, fmt.Errorf("columnar: nil UDF or expression")
	}
	if u.Language != udf.Java && u.Language != udf.Scala {
		return nil, renderErr(fmt.Sprintf("a %s UDF (RapidsUDF is for JVM classes)", u.Language))
	}
	if u.Kind != udf.KindFunctionClass && u.Kind != udf.KindUDFClass {
		return nil, renderErr(fmt.Sprintf("a UDF of kind %s (a RapidsUDF extends a named class)", u.Kind))
	}
	if u.Language == udf.Scala && u.ReturnPrimitive && !anyPrimitive(u.Params) {
		// Scala's Boolean is Object in the generic signature
		// (Function1<String, Object>) but boolean in apply(String): to
		// javac, a subclass inherits an apply(String) that overrides the
		// interface's apply(T1) with an incompatible return type, and it
		// rejects the class (as it did HasPrefix of the corpus). A
		// primitive parameter makes the two applys different methods.
		return nil, renderErr(fmt.Sprintf("a Java subclass of a Scala class whose method takes only reference types and returns a primitive %s (javac rejects the subclass)", u.Return))
	}
	if !javaIdent(u.Name) {
		return nil, renderErr(fmt.Sprintf("the class name %q (not a Java identifier)", u.Name))
	}
	if pkg != "" {
		for _, part := range strings.Split(pkg, ".") {
			if !javaIdent(part) {
				return nil, fmt.Errorf("columnar %s: package %q is not a Java package name", u.Name, pkg)
			}
		}
	}
	if u.Return == nil {
		return nil, renderErr("a UDF whose return type is unknown")
	}
	if _, err := DType(u.Return); err != nil {
		return nil, err
	}
	if !sameType(e.Type(), u.Return) && !isNullLit(e) {
		return nil, renderErr(fmt.Sprintf("a body of type %s for a UDF returning %s", e.Type(), u.Return))
	}
	g := &gen{params: map[string]int{}, ret: u.Return}
	for i, p := range u.Params {
		if p.Type == nil {
			return nil, renderErr(fmt.Sprintf("the parameter %s of unknown type", p.Name))
		}
		if _, err := DType(p.Type); err != nil {
			return nil, err
		}
		g.params[p.Name] = i
		g.ptypes = append(g.ptypes, p.Type)
	}
	out, err := g.expr(e)
	if err != nil {
		return nil, err
	}
	result, err := g.result(out)
	if err != nil {
		return nil, err
	}
	class := u.Name + "RapidsUDF"
	data := struct {
		Marker, Package, Class, Original, Result string
		Arity                                    int
		Decls                                    []decl
	}{
		Marker:   evidence.MarkerLine(".java", recordPath),
		Package:  pkg,
		Class:    class,
		Original: u.Name,
		Result:   result,
		Arity:    len(u.Params),
		Decls:    g.decls,
	}
	var b bytes.Buffer
	if err := tmpl.ExecuteTemplate(&b, "rapidsudf.java.tmpl", data); err != nil {
		return nil, fmt.Errorf("columnar %s: template: %w", u.Name, err)
	}
	return []File{{
		Path:    evidence.Dir + "/" + u.Name + "/columnar/" + class + ".java",
		Content: b.Bytes(),
	}}, nil
}

func anyPrimitive(ps []udf.Param) bool {
	for _, p := range ps {
		if p.Primitive {
			return true
		}
	}
	return false
}

// DType is the cuDF Java expression for the DType that holds Spark type t,
// as spark-rapids maps them: a decimal goes to the narrowest of
// DECIMAL32/64/128 that holds its precision, with cuDF's negated scale.
func DType(t *udf.Type) (string, error) {
	if t == nil {
		return "", renderErr("a value of unknown type")
	}
	switch t.Kind {
	case udf.Boolean:
		return "DType.BOOL8", nil
	case udf.Byte:
		return "DType.INT8", nil
	case udf.Short:
		return "DType.INT16", nil
	case udf.Int:
		return "DType.INT32", nil
	case udf.Long:
		return "DType.INT64", nil
	case udf.Float:
		return "DType.FLOAT32", nil
	case udf.Double:
		return "DType.FLOAT64", nil
	case udf.String:
		return "DType.STRING", nil
	case udf.Date:
		return "DType.TIMESTAMP_DAYS", nil
	case udf.Timestamp:
		return "DType.TIMESTAMP_MICROSECONDS", nil
	case udf.Decimal:
		var enum string
		switch {
		case t.Precision < 1 || t.Precision > udf.MaxDecimalPrecision || t.Scale < 0 || t.Scale > t.Precision:
			return "", renderErr(fmt.Sprintf("the decimal type %s", t))
		case t.Precision <= 9:
			enum = "DECIMAL32"
		case t.Precision <= 18:
			enum = "DECIMAL64"
		default:
			enum = "DECIMAL128"
		}
		return fmt.Sprintf("DType.create(DType.DTypeEnum.%s, %d)", enum, -t.Scale), nil
	}
	// binary is a LIST of UINT8 and nested types are not a single DType;
	// neither can be named by one DType constant.
	return "", renderErr(fmt.Sprintf("the Spark type %s as a single cuDF DType", t))
}

// decl is one intermediate in the try-with-resources header.
type decl struct{ Type, Name, Init string }

// val is a rendered node: a Java variable holding a Scalar or a
// ColumnVector (or an input column, args[i], which is never closed).
type val struct {
	name   string
	scalar bool
	t      *udf.Type
}

type gen struct {
	params map[string]int
	ptypes []*udf.Type
	ret    *udf.Type
	decls  []decl
}

func (g *gen) declare(typ, init string, t *udf.Type) val {
	prefix := "c"
	if typ == "Scalar" {
		prefix = "s"
	}
	name := prefix + strconv.Itoa(len(g.decls))
	g.decls = append(g.decls, decl{Type: typ, Name: name, Init: init})
	return val{name: name, scalar: typ == "Scalar", t: t}
}

func (g *gen) column(init string, t *udf.Type) val { return g.declare("ColumnVector", init, t) }

// asColumn turns a scalar into a column of numRows copies, for the cuDF
// operations that take no scalar.
func (g *gen) asColumn(v val) val {
	if !v.scalar {
		return v
	}
	return g.column("ColumnVector.fromScalar("+v.name+", numRows)", v.t)
}

// result is the Java expression returned: a column the caller owns. An
// intermediate (or an input) gets a reference of its own, so closing the
// try block leaves it alive.
func (g *gen) result(v val) (string, error) {
	if v.scalar {
		v = g.asColumn(v)
	}
	return v.name + ".incRefCount()", nil
}

func (g *gen) expr(e ir.Expr) (val, error) {
	switch e := e.(type) {
	case *ir.Lit:
		return g.lit(e)
	case *ir.Col:
		i, ok := g.params[e.Name]
		if !ok {
			return val{}, fmt.Errorf("columnar: column %q is not a parameter", e.Name)
		}
		if !sameType(e.T, g.ptypes[i]) {
			return val{}, renderErr(fmt.Sprintf("the parameter %s read as %s", e.Name, e.T))
		}
		return val{name: "args[" + strconv.Itoa(i) + "]", t: e.T}, nil
	case *ir.IsNull:
		x, err := g.expr(e.X)
		if err != nil {
			return val{}, err
		}
		return g.column(g.asColumn(x).name+".isNull()", udf.Prim(udf.Boolean)), nil
	case *ir.If:
		return g.ifElse(e)
	case *ir.Unary:
		return g.unary(e)
	case *ir.Binary:
		return g.binary(e)
	case *ir.Cast:
		return g.cast(e)
	case *ir.Call:
		return g.call(e)
	}
	return val{}, renderErr(fmt.Sprintf("the node %T", e))
}

func (g *gen) lit(e *ir.Lit) (val, error) {
	dt, err := DType(e.T)
	if err != nil {
		return val{}, err
	}
	if e.Value == nil {
		return g.declare("Scalar", "Scalar.fromNull("+dt+")", e.T), nil
	}
	var init string
	switch v := e.Value.(type) {
	case bool:
		if e.T.Kind == udf.Boolean {
			init = "Scalar.fromBool(" + strconv.FormatBool(v) + ")"
		}
	case int64:
		switch e.T.Kind {
		case udf.Int:
			if v >= math.MinInt32 && v <= math.MaxInt32 {
				init = "Scalar.fromInt(" + javaInt(v) + ")"
			}
		case udf.Long:
			init = "Scalar.fromLong(" + javaLong(v) + ")"
		case udf.Double:
			if float64(v) == math.Trunc(float64(v)) && int64(float64(v)) == v {
				init = "Scalar.fromDouble(" + javaDouble(float64(v)) + ")"
			}
		}
	case float64:
		if e.T.Kind == udf.Double {
			init = "Scalar.fromDouble(" + javaDouble(v) + ")"
		}
	case string:
		if e.T.Kind == udf.String {
			s, ok := javaString(v)
			if !ok {
				return val{}, renderErr("a string literal that is not valid Unicode")
			}
			init = "Scalar.fromString(" + s + ")"
		}
	}
	if init == "" {
		return val{}, renderErr(fmt.Sprintf("the %s literal %v", e.T, e.Value))
	}
	return g.declare("Scalar", init, e.T), nil
}

func (g *gen) ifElse(e *ir.If) (val, error) {
	t := e.Type()
	if !sameType(e.Then.Type(), t) && !isNullLit(e.Then) || !sameType(e.Else.Type(), t) && !isNullLit(e.Else) {
		return val{}, renderErr(fmt.Sprintf("a conditional whose branches are %s and %s", e.Then.Type(), e.Else.Type()))
	}
	c, err := g.expr(e.Cond)
	if err != nil {
		return val{}, err
	}
	th, err := g.branch(e.Then, t)
	if err != nil {
		return val{}, err
	}
	el, err := g.branch(e.Else, t)
	if err != nil {
		return val{}, err
	}
	// cuDF evaluates both branches on every row; that is exact because
	// every operation rendered here is total (none can fail on a value),
	// and ifElse keeps each row's chosen value.
	return g.column(g.asColumn(c).name+".ifElse("+th.name+", "+el.name+")", t), nil
}

// branch renders a branch of type t; an untyped NULL becomes a null
// scalar of t, since cuDF's ifElse needs both sides of one DType.
func (g *gen) branch(x ir.Expr, t *udf.Type) (val, error) {
	if l, ok := x.(*ir.Lit); ok && l.Value == nil {
		return g.lit(&ir.Lit{T: t})
	}
	return g.expr(x)
}

func (g *gen) unary(e *ir.Unary) (val, error) {
	switch e.Op {
	case ir.Not:
		x, err := g.expr(e.X)
		if err != nil {
			return val{}, err
		}
		return g.column(g.asColumn(x).name+".unaryOp(UnaryOp.NOT)", e.T), nil
	case ir.IntNegWrap:
		return g.binary(&ir.Binary{Op: ir.JavaIntSub, L: &ir.Lit{T: e.T, Value: int64(0)}, R: e.X, T: e.T})
	case ir.DoubleNeg:
		// cuDF's Java UnaryOp has no negation; 0.0 - x loses -0.0 and
		// x * -1.0 does not promise the JVM's NaN sign bit.
		return val{}, renderErr("double negation (no cuDF unary minus)")
	}
	return val{}, renderErr("the unary operator " + string(e.Op))
}

var doubleOps = map[ir.Op]string{
	ir.DoubleAdd: "ADD", ir.DoubleSub: "SUB", ir.DoubleMul: "MUL",
	// libcudf's DIV on FLOAT64 is C++ `/`, IEEE like the JVM's; MOD is
	// fmod, which is Java's double `%` (exact, the dividend's sign).
	ir.DoubleDivNonZero: "DIV", ir.DoubleRemNonZero: "MOD",
}

var cmpOps = map[ir.Op]string{
	ir.Eq: "EQUAL", ir.Ne: "NOT_EQUAL", ir.Lt: "LESS", ir.Le: "LESS_EQUAL", ir.Gt: "GREATER", ir.Ge: "GREATER_EQUAL",
}

// op renders l OP r with the given output DType; at least one side is
// made a column, as cuDF has no scalar-scalar binaryOp.
func (g *gen) op(l, r val, op, dtype string, t *udf.Type) val {
	if l.scalar && r.scalar {
		l = g.asColumn(l)
	}
	return g.column(l.name+".binaryOp(BinaryOp."+op+", "+r.name+", "+dtype+")", t)
}

func (g *gen) operands(e *ir.Binary) (val, val, error) {
	l, err := g.expr(e.L)
	if err != nil {
		return val{}, val{}, err
	}
	r, err := g.expr(e.R)
	if err != nil {
		return val{}, val{}, err
	}
	return l, r, nil
}

func (g *gen) binary(e *ir.Binary) (val, error) {
	switch e.Op {
	case ir.DoubleAdd, ir.DoubleSub, ir.DoubleMul, ir.DoubleDivNonZero, ir.DoubleRemNonZero:
		if !ir.IsDouble(e.T) || !ir.IsDouble(e.L.Type()) || !ir.IsDouble(e.R.Type()) {
			return val{}, renderErr(fmt.Sprintf("%s on %s and %s", e.Op, e.L.Type(), e.R.Type()))
		}
		l, r, err := g.operands(e)
		if err != nil {
			return val{}, err
		}
		// Each binaryOp is its own kernel writing memory, so no fused
		// multiply-add can merge two roundings into one.
		return g.op(l, r, doubleOps[e.Op], "DType.FLOAT64", e.T), nil
	case ir.JavaIntAdd, ir.JavaIntSub, ir.JavaIntMul, ir.JavaIntDiv, ir.JavaIntRem:
		return g.intWrap(e)
	case ir.Eq, ir.Ne, ir.Lt, ir.Le, ir.Gt, ir.Ge:
		return g.compare(e)
	case ir.And, ir.Or:
		l, r, err := g.operands(e)
		if err != nil {
			return val{}, err
		}
		// Spark's three-valued AND and OR (false AND NULL is false, true
		// OR NULL is true), which are the IR's short-circuit && and ||
		// where the right operand is NULL only where the left one decides
		// (x != null && x > 0); cuDF's LOGICAL_AND would give NULL there.
		// Evaluating both sides is exact because no rendered operation
		// can fail.
		op := map[ir.Op]string{ir.And: "NULL_LOGICAL_AND", ir.Or: "NULL_LOGICAL_OR"}[e.Op]
		return g.op(l, r, op, "DType.BOOL8", e.T), nil
	case ir.PyFloatDiv:
		return val{}, renderErr("Python float division (cuDF cannot raise ZeroDivisionError)")
	}
	return val{}, renderErr("the operator " + string(e.Op))
}

// intWrap renders 32-bit JVM arithmetic: widen to INT64, where + - * of
// two ints cannot overflow (and / and % of a non-zero constant are C++'s
// truncating ones, as Java's), then narrow to INT32, which keeps the low
// 32 bits: two's complement wrapping. A plain INT32 kernel would rely on
// signed overflow, which C++ leaves undefined; a BIGINT operation has no
// wider type to do this in, so it is refused.
func (g *gen) intWrap(e *ir.Binary) (val, error) {
	if e.T == nil || e.T.Kind != udf.Int || e.L.Type() == nil || e.L.Type().Kind != udf.Int || e.R.Type() == nil || e.R.Type().Kind != udf.Int {
		return val{}, renderErr(fmt.Sprintf("wrapping %s on %s", e.Op, e.T))
	}
	if (e.Op == ir.JavaIntDiv || e.Op == ir.JavaIntRem) && !ir.NonZeroConst(e.R) {
		// The JVM throws ArithmeticException; libcudf's integer division
		// by zero has no defined result.
		return val{}, renderErr("an int division by a divisor that may be zero")
	}
	l, err := g.wide(e.L)
	if err != nil {
		return val{}, err
	}
	r, err := g.wide(e.R)
	if err != nil {
		return val{}, err
	}
	op := map[ir.Op]string{ir.JavaIntAdd: "ADD", ir.JavaIntSub: "SUB", ir.JavaIntMul: "MUL", ir.JavaIntDiv: "DIV", ir.JavaIntRem: "MOD"}[e.Op]
	wide := g.op(l, r, op, "DType.INT64", udf.Prim(udf.Long))
	return g.column(wide.name+".castTo(DType.INT32)", e.T), nil
}

// wide renders an INT operand as INT64: a literal as a long scalar of the
// same value, anything else by an exact cast.
func (g *gen) wide(x ir.Expr) (val, error) {
	if l, ok := x.(*ir.Lit); ok {
		if _, isInt := l.Value.(int64); isInt {
			return g.lit(&ir.Lit{T: udf.Prim(udf.Long), Value: l.Value})
		}
	}
	v, err := g.expr(x)
	if err != nil {
		return val{}, err
	}
	return g.column(g.asColumn(v).name+".castTo(DType.INT64)", udf.Prim(udf.Long)), nil
}

// compare renders a comparison with the JVM's meaning. libcudf's LESS,
// GREATER, LESS_EQUAL and GREATER_EQUAL are C++'s < > <= >=, false for a
// NaN operand as on the JVM; on integers and booleans EQUAL/NOT_EQUAL are
// == and !=. Floating-point equality is refused: libcudf's equality
// dispatch is not established here to treat NaN as unequal to itself.
func (g *gen) compare(e *ir.Binary) (val, error) {
	lt, rt := e.L.Type(), e.R.Type()
	if !sameType(lt, rt) {
		return val{}, renderErr(fmt.Sprintf("a comparison of %s with %s", lt, rt))
	}
	switch {
	case ir.IsIntegral(lt):
	case lt.Kind == udf.Double && e.Op != ir.Eq && e.Op != ir.Ne:
	case lt.Kind == udf.Boolean && (e.Op == ir.Eq || e.Op == ir.Ne):
	default:
		return val{}, renderErr(fmt.Sprintf("the comparison %s on %s", e.Op, lt))
	}
	l, r, err := g.operands(e)
	if err != nil {
		return val{}, err
	}
	return g.op(l, r, cmpOps[e.Op], "DType.BOOL8", udf.Prim(udf.Boolean)), nil
}

func (g *gen) cast(e *ir.Cast) (val, error) {
	from, to := e.X.Type(), e.To
	if e.Kind != ir.Widen || from == nil || to == nil {
		// The JVM's (int)/(long) of a double maps NaN to 0 and clamps;
		// libcudf's cast is a C++ static_cast, undefined there.
		return val{}, renderErr("the conversion " + string(e.Kind))
	}
	exact := from.Kind == udf.Int && (to.Kind == udf.Long || to.Kind == udf.Double) ||
		// long to double rounds to nearest even on the JVM and in CUDA's
		// __ll2double_rn; float to double is exact.
		from.Kind == udf.Long && to.Kind == udf.Double ||
		from.Kind == udf.Float && to.Kind == udf.Double
	if !exact {
		return val{}, renderErr(fmt.Sprintf("a widening from %s to %s", from, to))
	}
	x, err := g.expr(e.X)
	if err != nil {
		return val{}, err
	}
	dt, err := DType(to)
	if err != nil {
		return val{}, err
	}
	return g.column(g.asColumn(x).name+".castTo("+dt+")", to), nil
}

func (g *gen) call(e *ir.Call) (val, error) {
	unary := map[ir.Func]string{
		// CUDA's double sqrt is correctly rounded (IEEE), as Math.sqrt;
		// fabs, floor and ceil are exact and keep NaN, infinities and
		// signed zeros as Math.abs/floor/ceil do.
		ir.Sqrt: "SQRT", ir.AbsDouble: "ABS", ir.FloorDouble: "FLOOR", ir.CeilDouble: "CEIL",
	}
	switch e.Fn {
	case ir.Sqrt, ir.AbsDouble, ir.FloorDouble, ir.CeilDouble:
		if len(e.Args) != 1 || !ir.IsDouble(e.Args[0].Type()) {
			return val{}, renderErr(fmt.Sprintf("%s of %d argument(s)", e.Fn, len(e.Args)))
		}
		x, err := g.expr(e.Args[0])
		if err != nil {
			return val{}, err
		}
		return g.column(g.asColumn(x).name+".unaryOp(UnaryOp."+unary[e.Fn]+")", e.T), nil
	case ir.MaxInt, ir.MinInt:
		if len(e.Args) != 2 || !ir.IsIntegral(e.T) || !sameType(e.Args[0].Type(), e.T) || !sameType(e.Args[1].Type(), e.T) {
			return val{}, renderErr(fmt.Sprintf("%s on these arguments", e.Fn))
		}
		l, err := g.expr(e.Args[0])
		if err != nil {
			return val{}, err
		}
		r, err := g.expr(e.Args[1])
		if err != nil {
			return val{}, err
		}
		// NULL_MAX/NULL_MIN skip a NULL operand as Spark's greatest/least
		// do; on two values they are the integer max/min.
		op := map[ir.Func]string{ir.MaxInt: "NULL_MAX", ir.MinInt: "NULL_MIN"}[e.Fn]
		dt, err := DType(e.T)
		if err != nil {
			return val{}, err
		}
		return g.op(l, r, op, dt, e.T), nil
	case ir.StartsWith, ir.EndsWith, ir.Contains:
		return g.strPredicate(e)
	}
	return val{}, renderErr("the function " + string(e.Fn))
}

// strPredicate renders startsWith/endsWith/contains with a literal,
// non-empty pattern. Spark hands the JVM strings decoded from UTF-8, so
// they are valid UTF-16, and for valid text a UTF-8 byte match is a
// UTF-16 code-unit match. An empty pattern is refused: the original is
// true for it, and libcudf's answer for an empty target is not
// established here.
func (g *gen) strPredicate(e *ir.Call) (val, error) {
	if len(e.Args) != 2 || e.Args[0].Type() == nil || e.Args[0].Type().Kind != udf.String {
		return val{}, renderErr(string(e.Fn) + " on these arguments")
	}
	pat, ok := e.Args[1].(*ir.Lit)
	var s string
	if ok {
		s, ok = pat.Value.(string)
	}
	if !ok {
		return val{}, renderErr(string(e.Fn) + " with a pattern that is not a string literal")
	}
	if s == "" {
		return val{}, renderErr(string(e.Fn) + " with an empty pattern")
	}
	x, err := g.expr(e.Args[0])
	if err != nil {
		return val{}, err
	}
	p, err := g.lit(pat)
	if err != nil {
		return val{}, err
	}
	method := map[ir.Func]string{ir.StartsWith: "startsWith", ir.EndsWith: "endsWith", ir.Contains: "stringContains"}[e.Fn]
	return g.column(g.asColumn(x).name+"."+method+"("+p.name+")", udf.Prim(udf.Boolean)), nil
}

func sameType(a, b *udf.Type) bool {
	return a != nil && b != nil && a.String() == b.String()
}

func isNullLit(e ir.Expr) bool {
	l, ok := e.(*ir.Lit)
	return ok && l.Value == nil
}

func javaIdent(s string) bool {
	if s == "" || javaKeywords[s] {
		return false
	}
	for i, r := range s {
		ok := r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9'
		if !ok {
			return false
		}
	}
	return true
}

var javaKeywords = map[string]bool{}

func init() {
	for _, k := range strings.Fields(`abstract assert boolean break byte case catch char class const continue
		default do double else enum extends final finally float for goto if implements import instanceof
		int interface long native new package private protected public return short static strictfp super
		switch synchronized this throw throws transient try void volatile while true false null _`) {
		javaKeywords[k] = true
	}
}

func javaInt(v int64) string {
	if v == math.MinInt32 {
		return "Integer.MIN_VALUE"
	}
	return strconv.FormatInt(v, 10)
}

func javaLong(v int64) string {
	if v == math.MinInt64 {
		return "Long.MIN_VALUE"
	}
	return strconv.FormatInt(v, 10) + "L"
}

// javaDouble writes v so that javac reads back exactly v: the shortest
// round-tripping decimal, and names for what has no decimal.
func javaDouble(v float64) string {
	switch {
	case math.IsNaN(v):
		return "Double.NaN"
	case math.IsInf(v, 1):
		return "Double.POSITIVE_INFINITY"
	case math.IsInf(v, -1):
		return "Double.NEGATIVE_INFINITY"
	}
	return strconv.FormatFloat(v, 'g', -1, 64) + "d"
}

// javaString writes s as a Java string literal: control characters as
// octal escapes (javac turns a \u escape into its character before
// lexing, so \u000a would end the literal), the rest of non-ASCII as
// UTF-16 \u escapes.
func javaString(s string) (string, bool) {
	if !utf8.ValidString(s) {
		return "", false
	}
	var b strings.Builder
	b.WriteByte('"')
	for _, u := range utf16.Encode([]rune(s)) {
		switch {
		case u == '"' || u == '\\':
			b.WriteByte('\\')
			b.WriteByte(byte(u))
		case u >= 0x20 && u < 0x7f:
			b.WriteByte(byte(u))
		case u < 0x20 || u == 0x7f:
			fmt.Fprintf(&b, "\\%03o", u)
		default:
			fmt.Fprintf(&b, "\\u%04x", u)
		}
	}
	b.WriteByte('"')
	return b.String(), true
}

// PackageOf reads the package of a Java or Scala source: its package
// clauses before the first definition, joined (Scala's chained `package
// a` `package b` is a.b). "" is the default package. A packaging block
// (`package a { ... }`) is an error: its classes' package depends on
// where they sit in it.
func PackageOf(src []byte) (string, error) {
	var parts []string
	inComment := false
	for _, line := range strings.Split(string(src), "\n") {
		l := strings.TrimSpace(line)
		if inComment {
			end := strings.Index(l, "*/")
			if end < 0 {
				continue
			}
			l = strings.TrimSpace(l[end+2:])
			inComment = false
		}
		if strings.HasPrefix(l, "/*") {
			end := strings.Index(l[2:], "*/")
			if end < 0 {
				inComment = true
				continue
			}
			l = strings.TrimSpace(l[end+4:])
		}
		if l == "" || strings.HasPrefix(l, "//") || strings.HasPrefix(l, "@") && !strings.HasPrefix(l, "package") {
			continue
		}
		rest, ok := strings.CutPrefix(l, "package ")
		if !ok {
			break
		}
		if strings.HasPrefix(rest, "object ") {
			break // a package object is a definition, not a clause
		}
		rest = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), ";"))
		if strings.ContainsAny(rest, "{}") {
			return "", fmt.Errorf("columnar: packaging block %q: the class's package depends on its place in the block", l)
		}
		for _, p := range strings.Split(rest, ".") {
			p = strings.Trim(strings.TrimSpace(p), "`")
			if !javaIdent(p) {
				return "", fmt.Errorf("columnar: package clause %q is not a Java package name", l)
			}
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, "."), nil
}
