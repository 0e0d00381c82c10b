package translate

import (
	"strings"

	"github.com/udfx/udfx/harness/translate/ir"
	"github.com/udfx/udfx/harness/udf"
)

// raises is what a Python try needs to know of its body's translation:
// BOOLEAN expressions, never NULL, true exactly on the rows where CPython
// raises while evaluating it (any) and where the first exception raised
// is one the except clause catches (caught); nil is never. Spark
// evaluates CASE lazily, so neither reaches a raise_error of the body:
// each part is tested only where the parts before it did not raise.
type raises struct{ any, caught ir.Expr }

// raiseCondition is the raises of e under an except clause that catches
// what catches accepts. ok is false where e holds a node whose raising
// udfx does not track (a Spark function whose ANSI error stands for a
// CPython exception, such as a str index): a try around it is declined
// rather than guessed.
func raiseCondition(e ir.Expr, catches func(string) bool) (r raises, ok bool) {
	switch x := e.(type) {
	case nil, *ir.Lit, *ir.Col:
		return raises{}, true
	case *ir.Raise:
		class, ok := raisedClass(x)
		r = raises{any: boolLit(true)}
		if catches(class) {
			r.caught = boolLit(true)
		}
		return r, ok
	case *ir.IsNull:
		return raiseCondition(x.X, catches)
	case *ir.Unary:
		if x.Op != ir.Not && x.Op != ir.DoubleNeg {
			return raises{}, false
		}
		return raiseCondition(x.X, catches)
	case *ir.Cast:
		if x.Kind != ir.Widen && x.Kind != ir.IntToString && x.Kind != ir.LongToInt {
			return raises{}, false
		}
		return raiseCondition(x.X, catches)
	case *ir.If:
		c, ok1 := raiseCondition(x.Cond, catches)
		th, ok2 := raiseCondition(x.Then, catches)
		el, ok3 := raiseCondition(x.Else, catches)
		if !ok1 || !ok2 || !ok3 {
			return raises{}, false
		}
		return then(c, raises{any: ifOr(x.Cond, th.any, el.any), caught: ifOr(x.Cond, th.caught, el.caught)}), true
	case *ir.Binary:
		l, ok1 := raiseCondition(x.L, catches)
		r, ok2 := raiseCondition(x.R, catches)
		if !ok1 || !ok2 {
			return raises{}, false
		}
		switch x.Op {
		case ir.And:
			// CPython evaluates the right operand only where the left
			// one is true.
			r = raises{any: ifOr(x.L, r.any, nil), caught: ifOr(x.L, r.caught, nil)}
		case ir.Or:
			r = raises{any: ifOr(x.L, nil, r.any), caught: ifOr(x.L, nil, r.caught)}
		case ir.DoubleAdd, ir.DoubleSub, ir.DoubleMul, ir.DoubleDivNonZero, ir.DoubleDivGuarded, ir.DoubleRemGuarded,
			ir.PyFloatModConst, ir.PyIntModConst, ir.PyIntFloorDivConst, ir.PyIntMod, ir.PyIntFloorDiv,
			ir.PyIntAdd, ir.PyIntSub, ir.PyIntMul, ir.StrEqNullSafe, ir.CodePointAdd,
			ir.Eq, ir.Ne, ir.Lt, ir.Le, ir.Gt, ir.Ge:
			// Raise nothing of their own: what raises is in the operands
			// (a zero divisor's raise is put before the guarded ones).
		default:
			return raises{}, false
		}
		return then(l, r), true
	case *ir.Call:
		return callRaiseCondition(x, catches)
	}
	return raises{}, false
}

// callRaiseCondition is raiseCondition of a call: its arguments, each
// evaluated in turn, and what the function itself raises.
func callRaiseCondition(x *ir.Call, catches func(string) bool) (raises, bool) {
	args := x.Args
	var own raises
	switch x.Fn {
	case ir.PySplit, ir.PySplitWords, ir.Size, ir.Concat, ir.Replace, ir.RegexpReplace, ir.StartsWith, ir.EndsWith, ir.Contains,
		ir.TrimBoth, ir.TrimLeading, ir.TrimTrailing, ir.PyLower, ir.PyUpper, ir.PyTitle, ir.PyCapitalize, ir.CodePointLength, ir.UTF8Length,
		ir.PySlice, ir.IsEmpty, ir.MaxInt, ir.MinInt, ir.AbsDouble, ir.Sqrt, ir.PyStrptimeValid, ir.PyStrptimeStrftime:
		// No error of their own in Spark.
	case ir.PyFloatOrElse, ir.PyIntOrElse:
		// The fallback is evaluated only where the text does not parse.
		if len(args) < 2 || containsRaise(args[1]) {
			return raises{}, false
		}
		args = args[:1]
	case ir.ElementAt:
		// A list index: IndexError where the list is shorter.
		k, ok := args[1].(*ir.Lit)
		if !ok {
			return raises{}, false
		}
		idx, ok := k.Value.(int64)
		if !ok || idx == 0 {
			return raises{}, false
		}
		if idx < 0 {
			idx = -idx
		}
		args = args[:1]
		own.any = &ir.Binary{Op: ir.Lt, L: &ir.Call{Fn: ir.Size, Args: []ir.Expr{x.Args[0]}, T: tInt}, R: &ir.Lit{T: tInt, Value: idx}, T: tBool}
		if catches("IndexError") {
			own.caught = own.any
		}
	default:
		return raises{}, false
	}
	var r raises
	for _, a := range args {
		ar, ok := raiseCondition(a, catches)
		if !ok {
			return raises{}, false
		}
		r = then(r, ar)
	}
	return then(r, own), true
}

// then is the raises of a evaluated and, where it did not raise, b.
func then(a, b raises) raises {
	switch {
	case a.any == nil:
		return b
	case b.any == nil:
		return a
	}
	return raises{
		any:    &ir.If{Cond: a.any, Then: boolLit(true), Else: b.any},
		caught: ifOr(a.any, a.caught, b.caught),
	}
}

// ifOr is IF(cond, a, b) with nil for false, and nil where both are.
func ifOr(cond, a, b ir.Expr) ir.Expr {
	if a == nil && b == nil {
		return nil
	}
	if l, ok := a.(*ir.Lit); ok && l.Value == true && b == nil {
		return cond // never NULL
	}
	return &ir.If{Cond: cond, Then: orFalse(a), Else: orFalse(b)}
}

// raisedClass is the CPython exception class a Raise stands for, which
// its message names ("udfx: the original throws KeyError in …").
func raisedClass(r *ir.Raise) (string, bool) {
	rest, ok := strings.CutPrefix(r.Msg, "udfx: the original throws ")
	if !ok {
		return "", false
	}
	class, _, _ := strings.Cut(rest, " ")
	if class == "" || !strings.HasSuffix(class, "Error") {
		return "", false
	}
	return class, true
}

// pyCatches reports whether an except clause naming caught (none: a bare
// except) catches CPython's class, through the built-in hierarchy.
func pyCatches(caught []string, class string) bool {
	if len(caught) == 0 {
		return true
	}
	parents := map[string][]string{
		"IndexError":        {"LookupError"},
		"KeyError":          {"LookupError"},
		"ZeroDivisionError": {"ArithmeticError"},
		"OverflowError":     {"ArithmeticError"},
	}[class]
	for _, c := range caught {
		if c == class || c == "Exception" || c == "BaseException" {
			return true
		}
		for _, p := range parents {
			if c == p {
				return true
			}
		}
	}
	return false
}

func orFalse(e ir.Expr) ir.Expr {
	if e == nil {
		return boolLit(false)
	}
	return e
}

func boolLit(v bool) ir.Expr { return &ir.Lit{T: udf.Prim(udf.Boolean), Value: v} }
