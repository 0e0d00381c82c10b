package ir

import "github.com/udfx/udfx/harness/udf"

// Spark's own integral + - * with spark.sql.ansi.enabled=false: INT and
// BIGINT arithmetic that wraps as two's complement, as the JVM's does.
// With ANSI on the same operators raise ARITHMETIC_OVERFLOW, so only
// ForANSIOff produces these ops, for a proof on a Spark that runs with
// ANSI off (Spark 3.5's default); their meaning is that of the Java ops
// they replace.
const (
	ANSIOffIntAdd  Op = "int+ansi-off"
	ANSIOffIntSub  Op = "int-ansi-off"
	ANSIOffIntMul  Op = "int*ansi-off"
	ANSIOffLongAdd Op = "long+ansi-off"
	ANSIOffLongSub Op = "long-ansi-off"
	ANSIOffLongMul Op = "long*ansi-off"
)

// ANSIOffLongToInt is LongToInt by Spark's CAST(x AS INT) with ANSI off,
// which keeps the low 32 bits as Java's (int) does; with ANSI on the cast
// raises CAST_OVERFLOW.
const ANSIOffLongToInt CastKind = "long-to-int-ansi-off"

var ansiOffOps = map[Op]Op{
	JavaIntAdd: ANSIOffIntAdd, JavaIntSub: ANSIOffIntSub, JavaIntMul: ANSIOffIntMul,
	JavaLongAdd: ANSIOffLongAdd, JavaLongSub: ANSIOffLongSub, JavaLongMul: ANSIOffLongMul,
}

// zeroDivisorRaises are the divisions whose zero divisor fails the row
// in the original, and whose Spark operator raises DIVIDE_BY_ZERO there
// only with ANSI on: with ANSI off it gives NULL.
var zeroDivisorRaises = map[Op]string{
	JavaIntDiv:  "udfx: the original throws ArithmeticException (/ by zero)",
	JavaLongDiv: "udfx: the original throws ArithmeticException (/ by zero)",
	JavaIntRem:  "udfx: the original throws ArithmeticException (/ by zero)",
	PyFloatDiv:  "udfx: the original throws ZeroDivisionError (float division by zero)",
}

// ForANSIOff is e for a Spark with ANSI off: the JVM's wrapping + - * on
// int and long, and the keeping of a long's low 32 bits, become Spark's
// plain operators and CAST, which compute the same there; a division
// that relies on Spark raising DIVIDE_BY_ZERO raises itself where the
// divisor is zero, and an element_at that relies on its out-of-range
// error where the array is too short. ok is false when e has none of them (e is returned as
// it is).
func ForANSIOff(e Expr) (Expr, bool) {
	switch x := e.(type) {
	case *Binary:
		l, lok := ForANSIOff(x.L)
		r, rok := ForANSIOff(x.R)
		if msg, raises := zeroDivisorRaises[x.Op]; raises {
			zero := &Lit{T: r.Type(), Value: int64(0)}
			if x.Op == PyFloatDiv {
				zero.Value = 0.0
			}
			// r appears twice; it is a pure expression of the row.
			return &If{
				Cond: &Binary{Op: Eq, L: r, R: zero, T: udf.Prim(udf.Boolean)},
				Then: &Raise{Msg: msg, T: x.T},
				Else: &Binary{Op: x.Op, L: l, R: r, T: x.T},
			}, true
		}
		op, swap := ansiOffOps[x.Op]
		if !swap {
			op = x.Op
		}
		if !lok && !rok && !swap {
			return e, false
		}
		return &Binary{Op: op, L: l, R: r, T: x.T}, true
	case *Cast:
		in, ok := ForANSIOff(x.X)
		kind := x.Kind
		if kind == LongToInt {
			kind, ok = ANSIOffLongToInt, true
		}
		if !ok {
			return e, false
		}
		return &Cast{Kind: kind, X: in, To: x.To}, true
	case *Unary:
		in, ok := ForANSIOff(x.X)
		if !ok {
			return e, false
		}
		return &Unary{Op: x.Op, X: in, T: x.T}, true
	case *IsNull:
		in, ok := ForANSIOff(x.X)
		if !ok {
			return e, false
		}
		return &IsNull{X: in}, true
	case *If:
		c, cok := ForANSIOff(x.Cond)
		t, tok := ForANSIOff(x.Then)
		f, fok := ForANSIOff(x.Else)
		if !cok && !tok && !fok {
			return e, false
		}
		return &If{Cond: c, Then: t, Else: f}, true
	case *Call:
		if x.Fn == ElementAt {
			return elementAtANSIOff(x)
		}
		args := make([]Expr, len(x.Args))
		changed := false
		for i, a := range x.Args {
			var ok bool
			args[i], ok = ForANSIOff(a)
			changed = changed || ok
		}
		if !changed {
			return e, false
		}
		return &Call{Fn: x.Fn, Args: args, T: x.T}, true
	}
	return e, false
}

// elementAtANSIOff is element_at for ANSI off, where an index beyond the
// array gives NULL (with ANSI on, INVALID_ARRAY_INDEX_IN_ELEMENT_AT, as
// the original's IndexError or ArrayIndexOutOfBoundsException): for a
// constant index the rewrite raises itself where the array is shorter.
// Any other index is left as it is, for the proof to judge.
func elementAtANSIOff(x *Call) (Expr, bool) {
	arr, _ := ForANSIOff(x.Args[0])
	k, isLit := x.Args[1].(*Lit)
	n, isInt := int64(0), false
	if isLit {
		n, isInt = k.Value.(int64)
	}
	if !isInt || n == 0 {
		in, ok := ForANSIOff(x.Args[0])
		if !ok {
			return x, false
		}
		return &Call{Fn: x.Fn, Args: []Expr{in, x.Args[1]}, T: x.T}, true
	}
	if n < 0 {
		n = -n
	}
	size := &Call{Fn: Size, Args: []Expr{arr}, T: udf.Prim(udf.Int)}
	return &If{
		Cond: &Binary{Op: Lt, L: size, R: &Lit{T: udf.Prim(udf.Int), Value: n}, T: udf.Prim(udf.Boolean)},
		Then: &Raise{Msg: "udfx: the original throws (index out of range)", T: x.T},
		Else: &Call{Fn: x.Fn, Args: []Expr{arr, x.Args[1]}, T: x.T},
	}, true
}
