package translate

import "github.com/udfx/udfx/harness/translate/ir"

// A double division by a value that may be zero has no exact SQL: the
// JVM gives ±Infinity or NaN, Spark with ANSI on raises. But real UDFs
// check first: `if (b == null || b == 0.0) null else a / b`, `if (secs ==
// 0) 0.0 else pages * 60.0 / secs`. Where the branch shows the divisor is
// not 0 (`==` and `!=` compare numerically, so -0.0 counts as 0; NaN is
// not 0 and divides to NaN in both), the division is Spark's.

// nonZeroFacts marks name non-zero in the branch of `name op 0` where it
// is: the else branch of ==, the then branch of !=, < and >.
func nonZeroFacts(te, fe env, name, op string) (env, env) {
	mark := func(e env) env {
		b, ok := e[name]
		if !ok || b.e.Type() == nil || !(ir.IsDouble(b.e.Type()) || ir.IsIntegral(b.e.Type())) {
			return e
		}
		b.nonZero = true
		return e.with(name, b)
	}
	switch op {
	case "==":
		return te, mark(fe)
	case "!=", "<", ">":
		return mark(te), fe
	}
	return te, fe
}

// isZeroLit: b is a numeric literal 0 (or 0.0, -0.0).
func isZeroLit(b *binding) bool {
	if b == nil {
		return false
	}
	l, ok := b.e.(*ir.Lit)
	if !ok {
		return false
	}
	switch v := l.Value.(type) {
	case float64:
		return v == 0
	case int64:
		return v == 0
	}
	return false
}
