package engine

import (
	"math"
	"math/big"
	"strconv"

	"github.com/udfx/udfx/harness/udf"
)

// unaryDouble registers functions of one double argument returning a
// double; nullIf marks inputs for which Spark returns NULL (ln of x <= 0).
func unaryDouble(names string, f func(float64) float64, nullIf func(float64) bool) {
	reg(names, 1, 1, func(a *analyzer, name string, args []node) (node, error) {
		if err := a.checkApprox(name); err != nil {
			return nil, err
		}
		x, err := a.numericArg(name, args[0], tDouble)
		if err != nil {
			return nil, err
		}
		return a.fn(name, tDouble, []node{x}, strictRow(tDouble, func(v []any) (any, *RowError) {
			d := v[0].(float64)
			if nullIf != nil && nullIf(d) {
				return nil, nil
			}
			return f(d), nil
		})), nil
	})
}

// numericArg implicitly casts a numeric (or, as Spark allows, string)
// argument to t.
func (a *analyzer) numericArg(name string, x node, t *udf.Type) (node, error) {
	xt := x.typ()
	if !xt.IsNumeric() && xt.Kind != udf.String && !isVoid(xt) {
		return nil, mismatch(name, x, "numeric")
	}
	return a.cast(x, t, false, false)
}

// intLiteralArg reads a constant integer argument (a scale).
func intLiteralArg(name string, n node) (int, error) {
	l, ok := n.(*litNode)
	if !ok || !isIntegral(l.t) || l.v == nil {
		return 0, typeErrf("DATATYPE_MISMATCH.NON_FOLDABLE_INPUT", "the second argument of %s must be a constant integer", name)
	}
	return int(l.v.(int64)), nil
}

func registerMath() {
	nonPos := func(d float64) bool { return d <= 0 }
	unaryDouble("sqrt", math.Sqrt, nil)
	// Spark's Exp calls StrictMath.exp (so HotSpot's Math.exp intrinsic
	// never runs), and its Tanh and Cbrt call Math.tanh/cbrt, which JDK 17
	// delegates to StrictMath without an intrinsic: all three are fdlibm's,
	// exact here (checked bit for bit against Spark 4.1.1 on 139,561
	// doubles; Go's math.Exp, Tanh and Cbrt missed on 12,960, 7,404 and
	// 12,569 of them).
	unaryDouble("cbrt", fdlibmCbrt, nil)
	unaryDouble("exp", fdlibmExp, nil)
	// Spark's Log, Log10, Log2 and Logarithm use java.lang.StrictMath, so
	// these are exact (fdlibm.go; checked bit for bit against Spark 4.1.1 on
	// 97,685 doubles, subnormals, powers of 2 and 10 included). Log2 is
	// StrictMath.log(x) / StrictMath.log(2).
	unaryDouble("ln", fdlibmLog, nonPos)
	unaryDouble("log10", fdlibmLog10, nonPos)
	unaryDouble("log2", func(d float64) float64 { return fdlibmLog(d) / fdlibmLog(2) }, nonPos)
	unaryDouble("sin", jSin, nil)
	unaryDouble("cos", jCos, nil)
	unaryDouble("tan", jTan, nil)
	unaryDouble("asin", math.Asin, nil)
	unaryDouble("acos", math.Acos, nil)
	unaryDouble("atan", math.Atan, nil)
	unaryDouble("sinh", func(d float64) float64 { return hyperbolic(d, true) }, nil)
	unaryDouble("cosh", func(d float64) float64 { return hyperbolic(d, false) }, nil)
	unaryDouble("tanh", fdlibmTanh, nil)
	// java.lang.Math.toDegrees/toRadians multiply by a constant (JDK 17).
	unaryDouble("degrees", func(d float64) float64 { return d * 57.29577951308232 }, nil)
	unaryDouble("radians", func(d float64) float64 { return d * 0.017453292519943295 }, nil)
	unaryDouble("signum sign", func(d float64) float64 {
		switch {
		case d > 0:
			return 1
		case d < 0:
			return -1
		}
		return d // NaN, 0.0 and -0.0 stay
	}, nil)
	reg("log", 1, 2, func(a *analyzer, name string, args []node) (node, error) {
		if len(args) == 1 {
			return builtins["ln"].build(a, "ln", args)
		}
		if err := a.checkApprox(name); err != nil {
			return nil, err
		}
		b, err := a.numericArg(name, args[0], tDouble)
		if err != nil {
			return nil, err
		}
		x, err := a.numericArg(name, args[1], tDouble)
		if err != nil {
			return nil, err
		}
		return a.fn(name, tDouble, []node{b, x}, strictRow(tDouble, func(v []any) (any, *RowError) {
			base, d := v[0].(float64), v[1].(float64)
			if base <= 0 || d <= 0 {
				return nil, nil
			}
			return fdlibmLog(d) / fdlibmLog(base), nil
		})), nil
	})
	binDouble := func(names string, f func(x, y float64) float64) {
		reg(names, 2, 2, func(a *analyzer, name string, args []node) (node, error) {
			if err := a.checkApprox(name); err != nil {
				return nil, err
			}
			x, err := a.numericArg(name, args[0], tDouble)
			if err != nil {
				return nil, err
			}
			y, err := a.numericArg(name, args[1], tDouble)
			if err != nil {
				return nil, err
			}
			return a.fn(name, tDouble, []node{x, y}, strictRow(tDouble, func(v []any) (any, *RowError) {
				return f(v[0].(float64), v[1].(float64)), nil
			})), nil
		})
	}
	binDouble("pow power", javaPow)
	// Spark's Atan2 adds 0.0 to both arguments, so -0.0 is 0.0
	// (conformance atan2/double: atan2(0.0, -0.0) is 0.0).
	binDouble("atan2", func(y, x float64) float64 { return math.Atan2(y+0.0, x+0.0) })
	binDouble("hypot", javaHypot)
	reg("abs", 1, 1, func(a *analyzer, name string, args []node) (node, error) {
		x := args[0]
		t := x.typ()
		if !t.IsNumeric() {
			return nil, mismatch(name, x, "numeric")
		}
		ansi := a.ansi
		return a.fn(name, t, args, strictRow(t, func(v []any) (any, *RowError) {
			switch x := v[0].(type) {
			case int64:
				if x == minOf(t) {
					if ansi {
						return nil, rowErr(classArithmetic, "ARITHMETIC_OVERFLOW", "%s overflow. If necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass this error.", overflowName(t))
					}
					return x, nil
				}
				return absI(x), nil
			case float64:
				return math.Abs(x), nil
			case float32:
				return float32(math.Abs(float64(x))), nil
			case *big.Int:
				return new(big.Int).Abs(x), nil
			}
			return nil, nil
		})), nil
	})
	reg("ceil ceiling floor", 1, 2, func(a *analyzer, name string, args []node) (node, error) {
		x := args[0]
		t := x.typ()
		up := name != "floor"
		if len(args) == 2 {
			return a.ceilFloorScale(name, x, args[1], up)
		}
		switch {
		case isIntegral(t):
			return a.cast(x, tLong, false, false)
		case t.Kind == udf.Decimal:
			rt := boundedDecimal(t.Precision-t.Scale+1, 0)
			return a.fn(name, rt, args, strictRow(rt, func(v []any) (any, *RowError) {
				u := v[0].(*big.Int)
				q, r := new(big.Int).QuoRem(u, pow10(t.Scale), new(big.Int))
				if up && r.Sign() > 0 {
					q.Add(q, big.NewInt(1))
				}
				if !up && r.Sign() < 0 {
					q.Sub(q, big.NewInt(1))
				}
				return q, nil
			})), nil
		case t.IsNumeric() || t.Kind == udf.String:
			d, err := a.cast(x, tDouble, false, false)
			if err != nil {
				return nil, err
			}
			return a.fn(name, tLong, []node{d}, strictRow(tLong, func(v []any) (any, *RowError) {
				f := v[0].(float64)
				if up {
					return javaD2L(math.Ceil(f)), nil
				}
				return javaD2L(math.Floor(f)), nil
			})), nil
		}
		return nil, mismatch(name, x, "numeric")
	})
	reg("round bround", 1, 2, func(a *analyzer, name string, args []node) (node, error) {
		d := 0
		if len(args) == 2 {
			var err error
			if d, err = intLiteralArg(name, args[1]); err != nil {
				return nil, err
			}
		}
		return a.round(name, args[0], d, name == "round")
	})
	reg("greatest least", 2, -1, func(a *analyzer, name string, args []node) (node, error) {
		for _, x := range args[1:] {
			if !isVoid(x.typ()) && !isVoid(args[0].typ()) && (x.typ().Kind == udf.String) != (args[0].typ().Kind == udf.String) {
				return nil, typeErrf("DATATYPE_MISMATCH.DATA_DIFF_TYPES", "input to `%s` should all be the same type", name)
			}
		}
		args, t, err := a.common(name, args)
		if err != nil {
			return nil, err
		}
		greatest := name == "greatest"
		return a.fn(name, t, args, anyRow(t, func(v []any) (any, *RowError) {
			var best any
			for _, x := range v {
				if x == nil {
					continue
				}
				if best == nil || (compareVals(t, x, best) > 0) == greatest && compareVals(t, x, best) != 0 {
					best = x
				}
			}
			return best, nil
		})), nil
	})
	reg("pi", 0, 0, func(a *analyzer, name string, args []node) (node, error) {
		return &litNode{t: tDouble, v: math.Pi}, nil
	})
	reg("isnan", 1, 1, func(a *analyzer, name string, args []node) (node, error) {
		x, err := a.numericArg(name, args[0], tDouble)
		if err != nil {
			return nil, err
		}
		return a.fn(name, tBool, []node{x}, anyRow(tBool, func(v []any) (any, *RowError) {
			return v[0] != nil && math.IsNaN(v[0].(float64)), nil
		})), nil
	})
	reg("nanvl", 2, 2, func(a *analyzer, name string, args []node) (node, error) {
		x, err := a.numericArg(name, args[0], tDouble)
		if err != nil {
			return nil, err
		}
		y, err := a.numericArg(name, args[1], tDouble)
		if err != nil {
			return nil, err
		}
		return a.fn(name, tDouble, []node{x, y}, anyRow(tDouble, func(v []any) (any, *RowError) {
			if v[0] != nil && math.IsNaN(v[0].(float64)) {
				return v[1], nil
			}
			return v[0], nil
		})), nil
	})
}

// round implements round (HALF_UP) and bround (HALF_EVEN) to d digits.
// Doubles and floats are rounded in their shortest decimal form, as Spark
// does through BigDecimal(x): round(2.675D, 2) is 2.68.
func (a *analyzer) round(name string, x node, d int, halfUp bool) (node, error) {
	t := x.typ()
	div := divHalfEven
	if halfUp {
		div = divHalfUp
	}
	roundTo := func(u *big.Int, from, to int) *big.Int {
		if to >= from {
			return rescaleExact(u, from, to)
		}
		return div(u, pow10(from-to))
	}
	switch {
	case isFractional(t):
		return a.fn(name, t, []node{x}, strictRow(t, func(v []any) (any, *RowError) {
			f, is32 := 0.0, false
			switch x := v[0].(type) {
			case float32:
				f, is32 = float64(x), true
			case float64:
				f = x
			}
			if math.IsNaN(f) || math.IsInf(f, 0) {
				return v[0], nil
			}
			u, s := decimalFromFloat(f)
			r := roundTo(u, s, d)
			var out float64
			if d >= 0 {
				out, _ = strconv.ParseFloat(decString(r, d), 64)
			} else {
				out, _ = strconv.ParseFloat(new(big.Int).Mul(r, pow10(-d)).String(), 64)
			}
			if is32 {
				return float32(out), nil
			}
			return out, nil
		})), nil
	case isIntegral(t):
		if d >= 0 {
			return x, nil
		}
		ansi := a.ansi
		return a.fn(name, t, []node{x}, strictRow(t, func(v []any) (any, *RowError) {
			r := new(big.Int).Mul(roundTo(big.NewInt(v[0].(int64)), 0, d), pow10(-d))
			if !r.IsInt64() {
				return nil, errUnsupportedValue("rounding that overflows bigint")
			}
			if !fitsInt(r.Int64(), t) {
				// Checked (conformance round/int-negative-scale, round/tinyint-overflow):
				// ANSI raises, otherwise the value wraps (round(2147483647, -1) is -2147483646).
				if ansi {
					return nil, rowErr(classArithmetic, "ARITHMETIC_OVERFLOW", "%s overflow. If necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass this error.", overflowName(t))
				}
				return wrapInt(r.Int64(), t), nil
			}
			return r.Int64(), nil
		})), nil
	case t.Kind == udf.Decimal:
		// RoundBase's result type: one more integral digit than the input.
		var rt *udf.Type
		if d < 0 {
			// RoundBase: max(p - s + 1, -d + 1) integral digits
			// (conformance round/decimal-neg-scale: decimal(10,3), -2 is decimal(8,0)).
			rt = boundedDecimal(max(t.Precision-t.Scale+1, -d+1), 0)
		} else {
			ns := min(t.Scale, d)
			rt = boundedDecimal(t.Precision-t.Scale+1+ns, ns)
		}
		return a.fn(name, rt, []node{x}, strictRow(rt, func(v []any) (any, *RowError) {
			var r *big.Int
			if d < 0 {
				r = new(big.Int).Mul(roundTo(v[0].(*big.Int), t.Scale, d), pow10(-d))
			} else {
				r = roundTo(v[0].(*big.Int), t.Scale, rt.Scale)
			}
			if !fitsPrecision(r, rt.Precision) {
				return nil, nil
			}
			return r, nil
		})), nil
	}
	return nil, mismatch(name, x, "numeric")
}

// ceilFloorScale is ceil/floor(x, scale) (RoundCeil/RoundFloor), checked in
// Spark 4.1.1: scale must be an INT literal; x is implicitly cast to a
// decimal (integral types to their decimal, float to decimal(14,7), double
// to decimal(30,15), string to decimal(38,18); NaN and infinities become
// NULL, an overflow is NUMERIC_VALUE_OUT_OF_RANGE with ANSI on and NULL
// with it off), then rounded towards +/- infinity. The result is
// decimal(p - s + 1 + min(s, scale), min(s, scale)) for scale >= 0 and
// decimal(max(p - s + 1, 1 - scale), 0) below, at most 38 digits:
// ceil(1.25D, 1) is 1.3 as decimal(17,1), ceil(15, -1) 20 as decimal(11,0).
func (a *analyzer) ceilFloorScale(name string, x, sc node, up bool) (node, error) {
	l, ok := sc.(*litNode)
	if !ok || l.t.Kind != udf.Int || l.v == nil {
		return nil, typeErrf("NON_FOLDABLE_ARGUMENT", "the function `%s` requires the parameter `scale` to be a foldable expression of the type \"INT\"", name)
	}
	scale := int(l.v.(int64))
	t := x.typ()
	var dt *udf.Type
	switch {
	case t.Kind == udf.Decimal:
		dt = t
	case isIntegral(t):
		dt = decimalFor(t)
	case t.Kind == udf.Float:
		dt = udf.DecimalOf(14, 7)
	case t.Kind == udf.Double:
		dt = udf.DecimalOf(30, 15)
	case t.Kind == udf.String:
		dt = udf.DecimalOf(38, 18)
	default:
		return nil, mismatch(name, x, "numeric")
	}
	x, err := a.cast(x, dt, false, false)
	if err != nil {
		return nil, err
	}
	p, s := dt.Precision, dt.Scale
	var rt *udf.Type
	if scale < 0 {
		rt = boundedDecimal(max(p-s+1, 1-scale), 0)
	} else {
		ns := min(s, scale)
		rt = boundedDecimal(p-s+1+ns, ns)
	}
	return a.fn(name, rt, []node{x}, strictRow(rt, func(v []any) (any, *RowError) {
		u := v[0].(*big.Int)
		drop := s - rt.Scale
		if scale < 0 {
			drop = s - scale
		}
		r := u
		if drop > 0 {
			q, m := new(big.Int).QuoRem(u, pow10(drop), new(big.Int))
			if up && m.Sign() > 0 {
				q.Add(q, big.NewInt(1))
			}
			if !up && m.Sign() < 0 {
				q.Sub(q, big.NewInt(1))
			}
			r = q
			if scale < 0 {
				r = new(big.Int).Mul(q, pow10(-scale))
			}
		}
		if !fitsPrecision(r, rt.Precision) {
			return nil, errUnsupportedValue(name + " with a scale whose result overflows decimal(38)")
		}
		return r, nil
	})), nil
}

// transcendental names the functions Options.ApproxMath admits.
var transcendental = map[string]bool{
	"pow": true, "power": true, "sin": true, "cos": true, "tan": true, "asin": true, "acos": true,
	"atan": true, "atan2": true, "hypot": true}

func (a *analyzer) checkApprox(name string) error {
	if transcendental[name] && !a.approxMath {
		return &UnsupportedFunctionError{Name: name, Approx: true}
	}
	return nil
}

// javaPow is Math.pow's special cases where Go's differ: a NaN exponent
// gives NaN (Go: pow(1, NaN) = 1), and |x| = 1 with an infinite exponent
// gives NaN (Go: 1). Checked: pow(1.0D, NaN) and pow(-1.0D, Infinity) are
// NaN in Spark 4.1.1.
func javaPow(x, y float64) float64 {
	switch {
	case math.IsNaN(y):
		return math.NaN()
	case math.IsInf(y, 0) && math.Abs(x) == 1:
		return math.NaN()
	case y == math.Trunc(y) && math.Abs(y) <= 1<<20 && x != 0 && !math.IsInf(x, 0) && !math.IsNaN(x):
		return powInt(x, int64(y))
	case y == 0 || x == 0 || math.IsInf(x, 0) || math.IsNaN(x) || math.IsInf(y, 0):
		return math.Pow(x, y) // exact special cases
	case x > 0:
		return bigPow(x, y)
	case y == math.Trunc(y):
		// x < 0, |y| > 2^20 integral: the sign is (-1)^y.
		r := bigPow(-x, y)
		if math.Abs(y) < 1<<53 && int64(y)%2 != 0 {
			r = -r
		}
		return r
	}
	return math.NaN() // a negative base with a non-integral exponent
}

// hyperbolic is sinh or cosh: Java's Math.sinh/cosh are StrictMath's, so
// fdlibm's (fdlibm.go), bit for bit (checked on 240,000 values against
// Spark 4.1.1, including sinh(710D) = 1.1169973830808557E308 between
// ln(MAX_VALUE) and the overflow threshold).
func hyperbolic(d float64, sinh bool) float64 {
	if sinh {
		return fdlibmSinh(d)
	}
	return fdlibmCosh(d)
}
