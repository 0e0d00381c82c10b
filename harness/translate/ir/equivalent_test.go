package ir

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/udf"
)

// TestWithoutNullGuard: a guard goes only where Spark's arithmetic on
// DOUBLE already returns NULL for the guarded column; the optimize stage
// then proves the unguarded form against the original
// (cmd/udfx TestRewriteOptimizeTriesEquivalentForms).
func TestWithoutNullGuard(t *testing.T) {
	null := &Lit{T: dbl, Value: nil}
	y := &Col{Name: "y", T: dbl}
	nine, five, zero := &Lit{T: dbl, Value: 9.0}, &Lit{T: dbl, Value: 5.0}, &Lit{T: dbl, Value: 0.0}
	fahrenheit := &Binary{Op: DoubleAdd, L: &Binary{Op: DoubleDivNonZero, L: &Binary{Op: DoubleMul, L: x, R: nine, T: dbl}, R: five, T: dbl}, R: &Lit{T: dbl, Value: 32.0}, T: dbl}
	guard := func(c *Col, then, els Expr) Expr { return &If{Cond: &IsNull{X: c}, Then: then, Else: els} }
	str := udf.Prim(udf.String)
	s := &Col{Name: "s", T: str}
	nullOf := func(t *udf.Type) Expr { return &Lit{T: t} }
	cases := []struct {
		name string
		e    Expr
		want string // "" when the guard stays
	}{
		{"ToFahrenheit", guard(x, null, fahrenheit), "(((`x` * 9.0D) / 5.0D) + 32.0D)"},
		{"negation", guard(x, null, &Unary{Op: DoubleNeg, X: x, T: dbl}), "(- `x`)"},
		{"two guards, two columns", guard(x, null, guard(y, null, &Binary{Op: DoubleSub, L: x, R: y, T: dbl})), "(`x` - `y`)"},
		{"the guarded column is not used", guard(x, null, &Binary{Op: DoubleMul, L: y, R: nine, T: dbl}), ""},
		{"a default, not NULL", guard(x, zero, fahrenheit), ""},
		{"a NULL constant in the body", guard(x, null, &Binary{Op: DoubleAdd, L: x, R: null, T: dbl}), ""},
		{"division by a column", guard(x, null, &Binary{Op: DoubleDivNonZero, L: nine, R: x, T: dbl}), ""},
		{"CPython's float division by a constant", guard(x, null, &Binary{Op: PyFloatDiv, L: x, R: five, T: dbl}), "(`x` / 5.0D)"},
		{"CPython's float division by a column, which may raise", guard(x, null, &Binary{Op: PyFloatDiv, L: five, R: x, T: dbl}), ""},
		{"a widening cast", guard(n, nullOf(dbl), &Binary{Op: DoubleDivNonZero, L: &Cast{Kind: Widen, X: n, To: dbl}, R: five, T: dbl}), "(CAST(`n` AS DOUBLE) / 5.0D)"},
		{"a cast that clamps", guard(x, nullOf(i32), &Cast{Kind: JVMDoubleToInt, X: x, To: i32}), ""},
		{"concat", guard(s, nullOf(str), &Call{Fn: Concat, Args: []Expr{&Lit{T: str, Value: "Hello, "}, s}, T: str}), "concat('Hello, ', `s`)"},
		{"a field of split", guard(s, nullOf(str), &Call{Fn: ElementAt, Args: []Expr{&Call{Fn: PySplit, Args: []Expr{s, &Lit{T: str, Value: ","}}, T: udf.ArrayOf(str)}, &Lit{T: i32, Value: int64(1)}}, T: str}), "element_at(split(`s`, ','), 1)"},
		{"size, -1 for NULL with ANSI off", guard(s, nullOf(i32), &Call{Fn: Size, Args: []Expr{&Call{Fn: PySplit, Args: []Expr{s, &Lit{T: str, Value: ","}}, T: udf.ArrayOf(str)}}, T: i32}), ""},
		{"not a guard", fahrenheit, ""},
		{"a guard on a comparison", guard(x, null, &If{Cond: &Binary{Op: Gt, L: x, R: zero, T: dbl}, Then: x, Else: zero}), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := WithoutNullGuard(c.e)
			if c.want == "" {
				assert.False(t, ok)
				assert.Same(t, c.e, got)
				return
			}
			require.True(t, ok)
			sql, err := SQL(got)
			require.NoError(t, err)
			assert.Equal(t, c.want, sql)
		})
	}
}
