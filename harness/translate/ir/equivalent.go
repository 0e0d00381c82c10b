package ir

// WithoutNullGuard returns e without the null guards at its top that
// Spark's own null propagation already gives, and whether it removed
// any: CASE WHEN c IS NULL THEN NULL ELSE f END is f when f returns NULL
// whenever the column c is NULL. That holds here only when every node of
// f on the way down to c is one whose Spark SQL form returns NULL for a
// NULL operand and raises nothing for it (nullPropagating): IEEE double
// arithmetic (+ - * and division or remainder by a non-zero constant,
// negation), widening casts, and string functions such as concat,
// replace, regexp_replace, split and element_at. For any other f the
// guard is kept. The form without the guard is one branch less per row;
// the optimize stage proves it with the same differential test, whose
// inputs hold NULL in every column, before it may replace the guarded
// form, and keeps it only when it is faster.
func WithoutNullGuard(e Expr) (Expr, bool) {
	g, ok := e.(*If)
	if !ok {
		return e, false
	}
	isNull, ok := g.Cond.(*IsNull)
	if !ok {
		return e, false
	}
	c, ok := isNull.X.(*Col)
	if !ok {
		return e, false
	}
	if lit, ok := g.Then.(*Lit); !ok || lit.Value != nil {
		return e, false
	}
	f, _ := WithoutNullGuard(g.Else)
	if !f.Type().Equal(g.Then.Type()) || !nullPropagating(f) || !mentions(f, c.Name) {
		return e, false
	}
	return f, true
}

// nullPropagating tells whether e is built only of columns, non-NULL
// constants and nodes whose Spark SQL form is a plain operator, CAST or
// function that returns NULL for a NULL operand and raises nothing for
// it. (size() is not among them: with ANSI off it gives -1 for NULL.)
func nullPropagating(e Expr) bool {
	switch x := e.(type) {
	case *Col:
		return true
	case *Lit:
		return x.Value != nil
	case *Unary:
		return x.Op == DoubleNeg && nullPropagating(x.X)
	case *Binary:
		switch x.Op {
		case DoubleAdd, DoubleSub, DoubleMul:
		case DoubleDivNonZero, DoubleRemNonZero, PyFloatDiv:
			// CPython's / raises only on a zero divisor.
			if !NonZeroConst(x.R) {
				return false
			}
		default:
			return false
		}
		return nullPropagating(x.L) && nullPropagating(x.R)
	case *Cast:
		return (x.Kind == Widen || x.Kind == IntToString) && nullPropagating(x.X)
	case *Call:
		switch x.Fn {
		case Sqrt, AbsDouble, StartsWith, EndsWith, Contains, Replace, RegexpReplace, Concat, PySplit, ElementAt:
		default:
			return false
		}
		for _, a := range x.Args {
			if !nullPropagating(a) {
				return false
			}
		}
		return true
	}
	return false
}

// mentions tells whether the column name occurs in e.
func mentions(e Expr, name string) bool {
	switch x := e.(type) {
	case *Col:
		return x.Name == name
	case *Unary:
		return mentions(x.X, name)
	case *Binary:
		return mentions(x.L, name) || mentions(x.R, name)
	case *Cast:
		return mentions(x.X, name)
	case *Call:
		for _, a := range x.Args {
			if mentions(a, name) {
				return true
			}
		}
	}
	return false
}
