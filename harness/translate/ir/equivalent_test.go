package ir_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/render/sparksql"
	"github.com/udfx/udfx/harness/translate/ir"
	"github.com/udfx/udfx/harness/udf"
)

var (
	dbl = udf.Prim(udf.Double)
	i32 = udf.Prim(udf.Int)
	x   = &ir.Col{Name: "x", T: dbl}
	n   = &ir.Col{Name: "n", T: i32}
)

// TestWithoutNullGuard: a guard goes only where Spark's arithmetic on
// DOUBLE already returns NULL for the guarded column; the optimize stage
// then proves the unguarded form against the original
// (cmd/udfx TestRewriteOptimizeTriesEquivalentForms).
func TestWithoutNullGuard(t *testing.T) {
	null := &ir.Lit{T: dbl, Value: nil}
	y := &ir.Col{Name: "y", T: dbl}
	nine, five, zero := &ir.Lit{T: dbl, Value: 9.0}, &ir.Lit{T: dbl, Value: 5.0}, &ir.Lit{T: dbl, Value: 0.0}
	fahrenheit := &ir.Binary{Op: ir.DoubleAdd, L: &ir.Binary{Op: ir.DoubleDivNonZero, L: &ir.Binary{Op: ir.DoubleMul, L: x, R: nine, T: dbl}, R: five, T: dbl}, R: &ir.Lit{T: dbl, Value: 32.0}, T: dbl}
	guard := func(c *ir.Col, then, els ir.Expr) ir.Expr {
		return &ir.If{Cond: &ir.IsNull{X: c}, Then: then, Else: els}
	}
	str := udf.Prim(udf.String)
	s := &ir.Col{Name: "s", T: str}
	nullOf := func(t *udf.Type) ir.Expr { return &ir.Lit{T: t} }
	cases := []struct {
		name string
		e    ir.Expr
		want string // "" when the guard stays
	}{
		{"ToFahrenheit", guard(x, null, fahrenheit), "(((`x` * 9.0D) / 5.0D) + 32.0D)"},
		{"negation", guard(x, null, &ir.Unary{Op: ir.DoubleNeg, X: x, T: dbl}), "(- `x`)"},
		{"two guards, two columns", guard(x, null, guard(y, null, &ir.Binary{Op: ir.DoubleSub, L: x, R: y, T: dbl})), "(`x` - `y`)"},
		{"the guarded column is not used", guard(x, null, &ir.Binary{Op: ir.DoubleMul, L: y, R: nine, T: dbl}), ""},
		{"a default, not NULL", guard(x, zero, fahrenheit), ""},
		{"a NULL constant in the body", guard(x, null, &ir.Binary{Op: ir.DoubleAdd, L: x, R: null, T: dbl}), ""},
		{"division by a column", guard(x, null, &ir.Binary{Op: ir.DoubleDivNonZero, L: nine, R: x, T: dbl}), ""},
		{"CPython's float division by a constant", guard(x, null, &ir.Binary{Op: ir.PyFloatDiv, L: x, R: five, T: dbl}), "(`x` / 5.0D)"},
		{"CPython's float division by a column, which may raise", guard(x, null, &ir.Binary{Op: ir.PyFloatDiv, L: five, R: x, T: dbl}), ""},
		{"a widening cast", guard(n, nullOf(dbl), &ir.Binary{Op: ir.DoubleDivNonZero, L: &ir.Cast{Kind: ir.Widen, X: n, To: dbl}, R: five, T: dbl}), "(CAST(`n` AS DOUBLE) / 5.0D)"},
		{"a cast that clamps", guard(x, nullOf(i32), &ir.Cast{Kind: ir.JVMDoubleToInt, X: x, To: i32}), ""},
		{"concat", guard(s, nullOf(str), &ir.Call{Fn: ir.Concat, Args: []ir.Expr{&ir.Lit{T: str, Value: "Hello, "}, s}, T: str}), "concat('Hello, ', `s`)"},
		{"a field of split", guard(s, nullOf(str), &ir.Call{Fn: ir.ElementAt, Args: []ir.Expr{&ir.Call{Fn: ir.PySplit, Args: []ir.Expr{s, &ir.Lit{T: str, Value: ","}}, T: udf.ArrayOf(str)}, &ir.Lit{T: i32, Value: int64(1)}}, T: str}), "element_at(split(`s`, ','), 1)"},
		{"size, -1 for NULL with ANSI off", guard(s, nullOf(i32), &ir.Call{Fn: ir.Size, Args: []ir.Expr{&ir.Call{Fn: ir.PySplit, Args: []ir.Expr{s, &ir.Lit{T: str, Value: ","}}, T: udf.ArrayOf(str)}}, T: i32}), ""},
		{"not a guard", fahrenheit, ""},
		{"a guard on a comparison", guard(x, null, &ir.If{Cond: &ir.Binary{Op: ir.Gt, L: x, R: zero, T: dbl}, Then: x, Else: zero}), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := ir.WithoutNullGuard(c.e)
			if c.want == "" {
				assert.False(t, ok)
				assert.Same(t, c.e, got)
				return
			}
			require.True(t, ok)
			sql, err := sparksql.Render(got)
			require.NoError(t, err)
			assert.Equal(t, c.want, sql)
		})
	}
}
