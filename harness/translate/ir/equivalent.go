package ir

// WithoutNullGuard returns e without the null guards at its top that
// Spark's own null propagation already gives, and whether it removed
// any: CASE WHEN c IS NULL THEN NULL ELSE f END is f when f returns NULL
// whenever the column c is NULL. That holds here only for an f built of
// columns, non-NULL constants and IEEE double arithmetic (+ - * and
// division or remainder by a non-zero constant, negation), with c in it:
// Spark's operators on DOUBLE return NULL for a NULL operand, with ANSI
// on or off, and raise nothing. For any other f the guard is kept. The
// form without the guard is one less branch per row; the optimize stage
// proves it with the same differential test before it may replace the
// guarded form, and keeps it only when it is faster.
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
	if !f.Type().Equal(g.Then.Type()) || !strictDouble(f) || !mentions(f, c.Name) {
		return e, false
	}
	return f, true
}

// strictDouble tells whether e is built only of columns, non-NULL
// constants and the IEEE double operators whose Spark SQL form is the
// plain operator, which returns NULL for a NULL operand.
func strictDouble(e Expr) bool {
	switch x := e.(type) {
	case *Col:
		return true
	case *Lit:
		return x.Value != nil
	case *Unary:
		return x.Op == DoubleNeg && strictDouble(x.X)
	case *Binary:
		switch x.Op {
		case DoubleAdd, DoubleSub, DoubleMul:
		case DoubleDivNonZero, DoubleRemNonZero:
			if !NonZeroConst(x.R) {
				return false
			}
		default:
			return false
		}
		return strictDouble(x.L) && strictDouble(x.R)
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
	}
	return false
}
