package sparksql_test

import (
	"math"
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

// The renderer's output is what the engine and Spark read: each form is
// proved against real originals in package translate; these pin the text.
func TestSQL(t *testing.T) {
	cases := []struct {
		e    ir.Expr
		want string
	}{
		{&ir.Lit{T: dbl, Value: 9.0}, "9.0D"},
		{&ir.Lit{T: dbl, Value: nil}, "CAST(NULL AS DOUBLE)"},
		{&ir.Binary{Op: ir.DoubleMul, L: x, R: &ir.Lit{T: dbl, Value: 9.0}, T: dbl}, "(`x` * 9.0D)"},
		{&ir.IsNull{X: x}, "(`x` IS NULL)"},
		{&ir.If{Cond: &ir.IsNull{X: x}, Then: &ir.Lit{T: dbl, Value: nil}, Else: x}, "CASE WHEN (`x` IS NULL) THEN CAST(NULL AS DOUBLE) ELSE `x` END"},
	}
	for _, c := range cases {
		got, err := sparksql.Render(c.e)
		require.NoError(t, err)
		assert.Equal(t, c.want, got)
	}
	// Every int op wraps like the JVM; the exact text is long, its shape is
	// what matters.
	got, err := sparksql.Render(&ir.Binary{Op: ir.JavaIntAdd, L: n, R: &ir.Lit{T: i32, Value: int64(1)}, T: i32})
	require.NoError(t, err)
	assert.Contains(t, got, "pmod(")
	assert.Contains(t, got, "4294967296L")
}

func TestNonFiniteLiteralsAndNonZeroDivisors(t *testing.T) {
	// Spark has no literal for them; the cast of the string is exact.
	for v, want := range map[float64]string{math.Inf(1): "CAST('Infinity' AS DOUBLE)", math.Inf(-1): "CAST('-Infinity' AS DOUBLE)"} {
		got, err := sparksql.Render(&ir.Lit{T: dbl, Value: v})
		require.NoError(t, err)
		assert.Equal(t, want, got)
	}
	got, err := sparksql.Render(&ir.Lit{T: dbl, Value: math.NaN()})
	require.NoError(t, err)
	assert.Equal(t, "CAST('NaN' AS DOUBLE)", got)
	// A double division whose divisor may be zero is not DoubleDivNonZero:
	// the translator must never build that node, and NonZeroConst says so.
	assert.False(t, ir.NonZeroConst(x))
	assert.True(t, ir.NonZeroConst(&ir.Lit{T: dbl, Value: 5.0}))
	assert.False(t, ir.NonZeroConst(&ir.Lit{T: dbl, Value: 0.0}))
	assert.False(t, ir.NonZeroConst(&ir.Lit{T: dbl, Value: math.Copysign(0, -1)}))
}
