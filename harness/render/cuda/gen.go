package cuda

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/udfx/udfx/harness/translate/ir"
	"github.com/udfx/udfx/harness/udf"
)

// target is the name RenderErrors carry.
const target = "CUDA C++"

func renderErr(what string) error { return &ir.RenderError{Target: target, What: what} }

// scalar is what both dialects need to know about one Spark type the
// per-row function handles.
type scalar struct {
	Cpp, Java, Boxed  string // C++ type, Java primitive, Java box
	CppZero, JavaZero string // the value a null slot holds
	Cudf              string // cudf::type_id
	Token             byte   // the driver's cell kind
}

var scalars = map[udf.TypeKind]scalar{
	udf.Double:  {"double", "double", "Double", "0.0", "0.0", "FLOAT64", 'd'},
	udf.Float:   {"float", "float", "Float", "0.0f", "0.0f", "FLOAT32", 'f'},
	udf.Int:     {"int32_t", "int", "Integer", "0", "0", "INT32", 'i'},
	udf.Long:    {"int64_t", "long", "Long", "0", "0L", "INT64", 'i'},
	udf.Boolean: {"bool", "boolean", "Boolean", "false", "false", "BOOL8", 'b'},
}

// scalarOf returns t's description, or a RenderError for a type a kernel
// cannot take straight from a fixed-width column of the same layout.
func scalarOf(t *udf.Type, where string) (scalar, error) {
	if t == nil {
		return scalar{}, renderErr(where + " of unknown type")
	}
	s, ok := scalars[t.Kind]
	if !ok {
		return scalar{}, renderErr(fmt.Sprintf("%s of type %s (only double, float, int, bigint and boolean)", where, t))
	}
	return s, nil
}

// gen turns an IR expression into straight-line code: one value variable
// and one validity variable per node. Every operation it emits is total
// (see gpu/include/udfx_jvm.h), so both arms of a conditional can be
// computed before one is selected; a null operand makes the result null,
// as in Spark, which is what the translator's IR assumes.
type gen struct {
	java   bool
	params map[string]int
	lines  []string
	n      int
}

// operand is a node's code: its value and its validity, each a variable
// or a literal.
type operand struct{ Val, OK string }

func (g *gen) fresh() int { g.n++; return g.n }

func (g *gen) emit(t *udf.Type, val, ok string) (operand, error) {
	s, err := scalarOf(t, "a value")
	if err != nil {
		return operand{}, err
	}
	id := g.fresh()
	v, k := fmt.Sprintf("v%d", id), fmt.Sprintf("k%d", id)
	if g.java {
		g.lines = append(g.lines, fmt.Sprintf("final boolean %s = %s;", k, ok), fmt.Sprintf("final %s %s = %s;", s.Java, v, val))
	} else {
		g.lines = append(g.lines, fmt.Sprintf("const bool %s = %s;", k, ok), fmt.Sprintf("const %s %s = %s;", s.Cpp, v, val))
	}
	return operand{v, k}, nil
}

func both(a, b operand) string {
	switch {
	case a.OK == "true":
		return b.OK
	case b.OK == "true":
		return a.OK
	}
	return a.OK + " && " + b.OK
}

func (g *gen) expr(e ir.Expr) (operand, error) {
	switch e := e.(type) {
	case *ir.Lit:
		return g.lit(e)
	case *ir.Col:
		i, ok := g.params[e.Name]
		if !ok {
			return operand{}, renderErr("the unknown column " + strconv.Quote(e.Name))
		}
		return operand{fmt.Sprintf("in%d", i), fmt.Sprintf("in%d_valid", i)}, nil
	case *ir.IsNull:
		x, err := g.expr(e.X)
		if err != nil {
			return operand{}, err
		}
		return g.emit(e.Type(), "!("+x.OK+")", "true")
	case *ir.If:
		c, err := g.expr(e.Cond)
		if err != nil {
			return operand{}, err
		}
		th, err := g.expr(e.Then)
		if err != nil {
			return operand{}, err
		}
		el, err := g.expr(e.Else)
		if err != nil {
			return operand{}, err
		}
		// Spark's CASE WHEN takes the ELSE arm for a NULL condition.
		sel := "(" + c.OK + " && " + c.Val + ")"
		return g.emit(e.Type(), fmt.Sprintf("%s ? %s : %s", sel, th.Val, el.Val), fmt.Sprintf("%s ? %s : %s", sel, th.OK, el.OK))
	case *ir.Unary:
		return g.unary(e)
	case *ir.Binary:
		return g.binary(e)
	case *ir.Cast:
		return g.cast(e)
	case *ir.Call:
		return g.call(e)
	}
	return operand{}, renderErr(fmt.Sprintf("the node %T", e))
}

func (g *gen) lit(e *ir.Lit) (operand, error) {
	s, err := scalarOf(e.T, "a literal")
	if err != nil {
		return operand{}, err
	}
	if e.Value == nil {
		if g.java {
			return operand{s.JavaZero, "false"}, nil
		}
		return operand{s.CppZero, "false"}, nil
	}
	bad := renderErr(fmt.Sprintf("the %s literal %v", e.T, e.Value))
	switch v := e.Value.(type) {
	case bool:
		if e.T.Kind != udf.Boolean {
			return operand{}, bad
		}
		return operand{strconv.FormatBool(v), "true"}, nil
	case int64:
		switch e.T.Kind {
		case udf.Int:
			if v < math.MinInt32 || v > math.MaxInt32 {
				return operand{}, bad
			}
			if g.java {
				return operand{javaInt(v, ""), "true"}, nil
			}
			if v == math.MinInt32 {
				return operand{"INT32_MIN", "true"}, nil
			}
			return operand{"int32_t(" + strconv.FormatInt(v, 10) + ")", "true"}, nil
		case udf.Long:
			if g.java {
				return operand{javaInt(v, "L"), "true"}, nil
			}
			if v == math.MinInt64 {
				return operand{"INT64_MIN", "true"}, nil
			}
			return operand{"int64_t(" + strconv.FormatInt(v, 10) + "LL)", "true"}, nil
		case udf.Double:
			return operand{doubleLit(float64(v), g.java), "true"}, nil
		}
	case float64:
		switch e.T.Kind {
		case udf.Double:
			return operand{doubleLit(v, g.java), "true"}, nil
		case udf.Float:
			if float64(float32(v)) != v && !math.IsNaN(v) {
				return operand{}, bad
			}
			return operand{floatLit(float32(v), g.java), "true"}, nil
		}
	}
	return operand{}, bad
}

// doubleLit writes a double exactly: a hexadecimal literal (C++17 and
// Java both read it without rounding), or the bits for NaN and the
// infinities.
func doubleLit(v float64, java bool) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		if java {
			return fmt.Sprintf("Double.longBitsToDouble(0x%016xL)", math.Float64bits(v))
		}
		return fmt.Sprintf("udfx_f64(0x%016xull)", math.Float64bits(v))
	}
	s := strconv.FormatFloat(v, 'x', -1, 64)
	if strings.HasPrefix(s, "-") {
		return "(" + s + ")"
	}
	return s
}

func floatLit(v float32, java bool) string {
	f := float64(v)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		if java {
			return fmt.Sprintf("Float.intBitsToFloat(0x%08x)", math.Float32bits(v))
		}
		return fmt.Sprintf("udfx_f32(0x%08xu)", math.Float32bits(v))
	}
	s := strconv.FormatFloat(f, 'x', -1, 32) + "f"
	if strings.HasPrefix(s, "-") {
		return "(" + s + ")"
	}
	return s
}

func isFloating(t *udf.Type) bool { return t != nil && (t.Kind == udf.Double || t.Kind == udf.Float) }

// intSuffix names the udfx_jvm.h helper family for an integral type.
func intSuffix(t *udf.Type) (string, bool) {
	switch {
	case t == nil:
		return "", false
	case t.Kind == udf.Int:
		return "i32", true
	case t.Kind == udf.Long:
		return "i64", true
	}
	return "", false
}

func (g *gen) unary(e *ir.Unary) (operand, error) {
	x, err := g.expr(e.X)
	if err != nil {
		return operand{}, err
	}
	switch {
	case e.Op == ir.Not && e.T.Kind == udf.Boolean:
		return g.emit(e.T, "!"+x.Val, x.OK)
	case e.Op == ir.DoubleNeg && isFloating(e.T):
		// Negation flips the sign bit in C++ as the JVM's dneg does.
		return g.emit(e.T, "-("+x.Val+")", x.OK)
	case e.Op == ir.IntNegWrap || e.Op == ir.LongNegWrap && e.T.Kind == udf.Long:
		if sfx, ok := intSuffix(e.T); ok {
			if g.java {
				return g.emit(e.T, "-("+x.Val+")", x.OK)
			}
			return g.emit(e.T, "udfx_neg_"+sfx+"("+x.Val+")", x.OK)
		}
	}
	return operand{}, renderErr(fmt.Sprintf("the unary operator %s on %s", e.Op, e.T))
}

// longOp are the operators the translator uses on BIGINT only.
var longOp = map[ir.Op]bool{ir.JavaLongAdd: true, ir.JavaLongSub: true, ir.JavaLongMul: true, ir.JavaLongDiv: true}

func (g *gen) binary(e *ir.Binary) (operand, error) {
	l, err := g.expr(e.L)
	if err != nil {
		return operand{}, err
	}
	r, err := g.expr(e.R)
	if err != nil {
		return operand{}, err
	}
	ok := both(l, r)
	infix := func(op string) (operand, error) { return g.emit(e.T, "("+l.Val+" "+op+" "+r.Val+")", ok) }
	sfx, integral := intSuffix(e.T)
	switch e.Op {
	case ir.DoubleAdd, ir.DoubleSub, ir.DoubleMul:
		if isFloating(e.T) {
			return infix(strings.TrimPrefix(string(e.Op), "double"))
		}
	case ir.DoubleDivNonZero, ir.PyFloatDiv:
		if !ir.NonZeroConst(e.R) {
			// The JVM gives ±Infinity/NaN, CPython raises: a kernel cannot
			// raise, and the renderer does not guess which the caller wants.
			return operand{}, renderErr("a floating-point division by a divisor that may be zero")
		}
		if isFloating(e.T) {
			return infix("/")
		}
	case ir.DoubleRemNonZero:
		if !ir.NonZeroConst(e.R) {
			return operand{}, renderErr("a floating-point remainder by a divisor that may be zero")
		}
		switch {
		case g.java && isFloating(e.T):
			return infix("%")
		case e.T.Kind == udf.Double:
			// Java's drem is C's fmod: exact, the dividend's sign.
			return g.emit(e.T, "fmod("+l.Val+", "+r.Val+")", ok)
		case e.T.Kind == udf.Float:
			return g.emit(e.T, "fmodf("+l.Val+", "+r.Val+")", ok)
		}
	case ir.JavaIntAdd, ir.JavaIntSub, ir.JavaIntMul, ir.JavaLongAdd, ir.JavaLongSub, ir.JavaLongMul:
		// The long forms are the int ones on 64 bits: two's complement,
		// wrapping (the translator names them apart because their SQL
		// differs, not their meaning).
		if integral && (e.T.Kind == udf.Long || !longOp[e.Op]) {
			if g.java {
				return infix(map[ir.Op]string{ir.JavaIntAdd: "+", ir.JavaIntSub: "-", ir.JavaIntMul: "*", ir.JavaLongAdd: "+", ir.JavaLongSub: "-", ir.JavaLongMul: "*"}[e.Op])
			}
			name := map[ir.Op]string{ir.JavaIntAdd: "add", ir.JavaIntSub: "sub", ir.JavaIntMul: "mul", ir.JavaLongAdd: "add", ir.JavaLongSub: "sub", ir.JavaLongMul: "mul"}[e.Op]
			return g.emit(e.T, fmt.Sprintf("udfx_%s_%s(%s, %s)", name, sfx, l.Val, r.Val), ok)
		}
	case ir.JavaIntDiv, ir.JavaIntRem, ir.JavaLongDiv:
		if !ir.NonZeroConst(e.R) {
			// The JVM throws ArithmeticException; a kernel cannot.
			return operand{}, renderErr("a Java integer division or remainder by a divisor that may be zero (ArithmeticException)")
		}
		if integral && (e.T.Kind == udf.Long || !longOp[e.Op]) {
			if g.java {
				return infix(map[ir.Op]string{ir.JavaIntDiv: "/", ir.JavaIntRem: "%", ir.JavaLongDiv: "/"}[e.Op])
			}
			name := map[ir.Op]string{ir.JavaIntDiv: "div", ir.JavaIntRem: "rem", ir.JavaLongDiv: "div"}[e.Op]
			return g.emit(e.T, fmt.Sprintf("udfx_%s_%s(%s, %s)", name, sfx, l.Val, r.Val), ok)
		}
	case ir.Eq, ir.Ne, ir.Lt, ir.Le, ir.Gt, ir.Ge:
		// C++ and Java comparisons are IEEE's: a NaN operand makes all but
		// != false, and -0.0 equals 0.0. Ordering booleans is not Java.
		lt := e.L.Type()
		if lt != nil && lt.Kind == udf.Boolean && e.Op != ir.Eq && e.Op != ir.Ne {
			break
		}
		if _, err := scalarOf(lt, "a comparison operand"); err != nil {
			return operand{}, err
		}
		return infix(string(e.Op))
	case ir.And, ir.Or:
		if e.T.Kind == udf.Boolean {
			return g.logic(e.Op, l, r)
		}
	}
	return operand{}, renderErr(fmt.Sprintf("the operator %s on %s", e.Op, e.T))
}

// logic is AND and OR as Spark's three-valued logic gives them, which
// the translator's short-circuit && and || are where the left operand is
// never NULL: false AND NULL is false and true OR NULL is true, so the
// right operand's NULL (x > 0 where x is NULL, after x != null &&) does
// not make the result NULL.
func (g *gen) logic(op ir.Op, l, r operand) (operand, error) {
	lv, rv := "("+l.OK+" && "+l.Val+")", "("+r.OK+" && "+r.Val+")"
	if op == ir.And {
		// Decided false by either side; else valid only where both are.
		decided := "((" + l.OK + " && !" + l.Val + ") || (" + r.OK + " && !" + r.Val + "))"
		return g.emit(udf.Prim(udf.Boolean), "("+lv+" && "+rv+")", "("+decided+" || ("+l.OK+" && "+r.OK+"))")
	}
	decided := "(" + lv + " || " + rv + ")"
	return g.emit(udf.Prim(udf.Boolean), decided, "("+decided+" || ("+l.OK+" && "+r.OK+"))")
}

func (g *gen) cast(e *ir.Cast) (operand, error) {
	x, err := g.expr(e.X)
	if err != nil {
		return operand{}, err
	}
	from, to := e.X.Type(), e.To
	if from == nil || to == nil {
		return operand{}, renderErr("a conversion of unknown type")
	}
	s, err := scalarOf(to, "a conversion result")
	if err != nil {
		return operand{}, err
	}
	conv := fmt.Sprintf("(%s)%s", s.Cpp, x.Val)
	if g.java {
		conv = fmt.Sprintf("(%s)%s", s.Java, x.Val)
	}
	switch e.Kind {
	case ir.Widen:
		// int→long, int→double and float→double are exact; long→double
		// and int→float round to nearest in the JVM (JLS 5.1.2) as in C++
		// on x86-64 and CUDA (cvt.rn).
		switch {
		case from.Kind == udf.Int && (to.Kind == udf.Long || to.Kind == udf.Double || to.Kind == udf.Float),
			from.Kind == udf.Long && (to.Kind == udf.Double || to.Kind == udf.Float),
			from.Kind == udf.Float && to.Kind == udf.Double:
			return g.emit(to, conv, x.OK)
		}
	case ir.JVMDoubleToInt, ir.JVMDoubleToLong:
		want := udf.Int
		if e.Kind == ir.JVMDoubleToLong {
			want = udf.Long
		}
		if from.Kind == udf.Double && to.Kind == want {
			if g.java {
				return g.emit(to, conv, x.OK)
			}
			fn := map[udf.TypeKind]string{udf.Int: "udfx_d2i", udf.Long: "udfx_d2l"}[want]
			return g.emit(to, fn+"("+x.Val+")", x.OK)
		}
	}
	return operand{}, renderErr(fmt.Sprintf("the conversion %s from %s to %s", e.Kind, from, to))
}

func (g *gen) call(e *ir.Call) (operand, error) {
	args := make([]operand, len(e.Args))
	for i, a := range e.Args {
		if _, err := scalarOf(a.Type(), "an argument of "+string(e.Fn)); err != nil {
			return operand{}, err
		}
		o, err := g.expr(a)
		if err != nil {
			return operand{}, err
		}
		args[i] = o
	}
	ok := "true"
	for _, a := range args {
		ok = both(operand{OK: ok}, a)
	}
	one := func(cpp, java string) (operand, error) {
		if len(args) != 1 || e.T.Kind != udf.Double || !ir.IsDouble(e.Args[0].Type()) {
			return operand{}, renderErr(fmt.Sprintf("%s on (%d arguments) returning %s", e.Fn, len(args), e.T))
		}
		if g.java {
			return g.emit(e.T, java+"("+args[0].Val+")", ok)
		}
		return g.emit(e.T, cpp+"("+args[0].Val+")", ok)
	}
	switch e.Fn {
	case ir.Sqrt:
		// Correctly rounded in IEEE 754, glibc and CUDA (--prec-sqrt=true).
		return one("sqrt", "Math.sqrt")
	case ir.AbsDouble:
		return one("fabs", "Math.abs")
	case ir.FloorDouble:
		return one("floor", "Math.floor")
	case ir.CeilDouble:
		return one("ceil", "Math.ceil")
	case ir.MaxInt, ir.MinInt:
		sfx, integral := intSuffix(e.T)
		if !integral || len(args) != 2 || !e.Args[0].Type().Equal(e.T) || !e.Args[1].Type().Equal(e.T) {
			break
		}
		name := map[ir.Func]string{ir.MaxInt: "max", ir.MinInt: "min"}[e.Fn]
		if g.java {
			return g.emit(e.T, fmt.Sprintf("Math.%s(%s, %s)", name, args[0].Val, args[1].Val), ok)
		}
		return g.emit(e.T, fmt.Sprintf("udfx_%s_%s(%s, %s)", name, sfx, args[0].Val, args[1].Val), ok)
	case ir.MaxDouble, ir.MinDouble:
		if e.T.Kind != udf.Double || len(args) != 2 || !ir.IsDouble(e.Args[0].Type()) || !ir.IsDouble(e.Args[1].Type()) {
			break
		}
		name := map[ir.Func]string{ir.MaxDouble: "max", ir.MinDouble: "min"}[e.Fn]
		if g.java {
			return g.emit(e.T, fmt.Sprintf("Math.%s(%s, %s)", name, args[0].Val, args[1].Val), ok)
		}
		return g.emit(e.T, fmt.Sprintf("udfx_%s_f64(%s, %s)", name, args[0].Val, args[1].Val), ok)
	case ir.AbsIntegral:
		sfx, integral := intSuffix(e.T)
		if !integral || len(args) != 1 || !e.Args[0].Type().Equal(e.T) {
			break
		}
		if g.java {
			return g.emit(e.T, fmt.Sprintf("Math.abs(%s)", args[0].Val), ok)
		}
		return g.emit(e.T, fmt.Sprintf("udfx_abs_%s(%s)", sfx, args[0].Val), ok)
	case ir.RoundDoubleToLong:
		if e.T.Kind != udf.Long || len(args) != 1 || !ir.IsDouble(e.Args[0].Type()) {
			break
		}
		if g.java {
			return g.emit(e.T, fmt.Sprintf("Math.round(%s)", args[0].Val), ok)
		}
		return g.emit(e.T, fmt.Sprintf("udfx_round_d2l(%s)", args[0].Val), ok)
	}
	return operand{}, renderErr(fmt.Sprintf("the function %s returning %s", e.Fn, e.T))
}

// javaInt writes an integer literal; a negative one in parentheses, so
// that no operator before it forms -- with its sign.
func javaInt(v int64, suffix string) string {
	s := strconv.FormatInt(v, 10) + suffix
	if v < 0 {
		return "(" + s + ")"
	}
	return s
}
