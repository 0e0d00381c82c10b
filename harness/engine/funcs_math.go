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
	unaryDouble("cbrt", math.Cbrt, nil)
	unaryDouble("exp", math.Exp, nil)
	unaryDouble("ln", math.Log, nonPos)
	unaryDouble("log10", math.Log10, nonPos)
	unaryDouble("log2", func(d float64) float64 { return math.Log(d) / math.Log(2) }, nonPos)
	unaryDouble("sin", math.Sin, nil)
	unaryDouble("cos", math.Cos, nil)
	unaryDouble("tan", math.Tan, nil)
	unaryDouble("asin", math.Asin, nil)
	unaryDouble("acos", math.Acos, nil)
	unaryDouble("atan", math.Atan, nil)
	unaryDouble("sinh", math.Sinh, nil)
	unaryDouble("cosh", math.Cosh, nil)
	unaryDouble("tanh", math.Tanh, nil)
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
			return math.Log(d) / math.Log(base), nil
		})), nil
	})
	binDouble := func(names string, f func(x, y float64) float64) {
		reg(names, 2, 2, func(a *analyzer, name string, args []node) (node, error) {
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
	binDouble("pow power", math.Pow)
	binDouble("atan2", math.Atan2)
	binDouble("hypot", math.Hypot)
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
	reg("ceil ceiling floor", 1, 1, func(a *analyzer, name string, args []node) (node, error) {
		x := args[0]
		t := x.typ()
		up := name != "floor"
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
		return a.fn(name, t, []node{x}, strictRow(t, func(v []any) (any, *RowError) {
			r := new(big.Int).Mul(roundTo(big.NewInt(v[0].(int64)), 0, d), pow10(-d))
			if !r.IsInt64() || !fitsInt(r.Int64(), t) {
				return nil, errUnsupportedValue("rounding that overflows its integral type")
			}
			return r.Int64(), nil
		})), nil
	case t.Kind == udf.Decimal:
		// RoundBase's result type: one more integral digit than the input.
		var rt *udf.Type
		if d < 0 {
			rt = boundedDecimal(t.Precision-t.Scale+1-d, 0)
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
