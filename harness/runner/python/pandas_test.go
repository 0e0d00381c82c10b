package python

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/udfx/udfx/harness/inputs"
	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/value"
)

const vectorsPath = "../../../examples/python-vectors/vectors.py"

func floatArray(xs []float32) value.Value {
	elems := make([]value.Value, len(xs))
	for i, x := range xs {
		elems[i] = value.FloatOf(x)
	}
	return value.ArrayOf(elems...)
}

// movingAverage is vectors.py's moving_average in Go. With numpy 2 the
// Python float accumulator becomes a float32 at its first float32 element
// (NEP 50), so the sum is a float32 sum, divided by 128 in float32. The
// samples are small integers, so every window sum is exact anyway.
func movingAverage(xs []float32) []float32 {
	const window = 128
	out := make([]float32, len(xs)-window+1)
	for i := range out {
		var s float32
		for _, x := range xs[i : i+window] {
			s += x
		}
		out[i] = s / window
	}
	return out
}

func TestMovingAverage(t *testing.T) {
	u := parseUDF(t, vectorsPath, "moving_average")
	require.Equal(t, udf.PandasSeriesToSeries, u.PandasFlavor)
	r := newRunner(t, u, runner.DefaultLimits)
	assert.False(t, r.IsScalarAggregate())
	var inputs [][]float32
	for _, n := range []int{127, 128, 129, 300} {
		xs := make([]float32, n)
		for i := range xs {
			xs[i] = float32((i*37)%101 - 50)
		}
		inputs = append(inputs, xs)
	}
	rows := make([][]value.Value, len(inputs))
	for i, xs := range inputs {
		rows[i] = []value.Value{floatArray(xs)}
	}
	got, err := r.Run(context.Background(), rows)
	require.NoError(t, err)
	require.Len(t, got, len(inputs))
	for i, xs := range inputs {
		assert.Equal(t, value.Token(floatArray(movingAverage(xs))), value.Token(got[i]), "array of %d", len(xs))
	}
	t.Log(r.Describe())

	// Shorter than 127: np.empty of a negative size raises, and the whole
	// batch fails with it, as the Spark task would.
	got, err = r.Run(context.Background(), [][]value.Value{{floatArray(make([]float32, 300))}, {floatArray([]float32{1, 2})}})
	require.NoError(t, err)
	for _, v := range got {
		assert.Equal(t, value.Error, v.Kind)
		assert.Equal(t, "ValueError", v.Class)
	}
}

func TestMeanPairwiseDiffPerRow(t *testing.T) {
	u := parseUDF(t, vectorsPath, "mean_pairwise_abs_diff")
	require.Equal(t, udf.PandasSeriesToSeries, u.PandasFlavor)
	r := newRunner(t, u, runner.DefaultLimits)
	require.False(t, r.IsScalarAggregate())
	rows := [][]value.Value{
		{floatArray([]float32{1, 2})},
		{floatArray([]float32{1, 2, 4})},
	}
	got, err := r.Run(context.Background(), rows)
	require.NoError(t, err)
	// |1-2| = 1 over 1 pair; |1-2|+|1-4|+|2-4| = 6 over 3 pairs.
	assert.Equal(t, []string{value.Token(value.FloatOf(1)), value.Token(value.FloatOf(2))}, tokens(got))

	// One value: no pair, 0.0 / 0 raises, and the batch fails with it.
	got, err = r.Run(context.Background(), [][]value.Value{{floatArray([]float32{1, 2})}, {floatArray([]float32{7})}})
	require.NoError(t, err)
	for _, v := range got {
		assert.Equal(t, value.Error, v.Kind)
		assert.Equal(t, "ZeroDivisionError", v.Class)
	}
}

// TestArrayBatchWithinTheMemoryLimit: the 500 rows udfx generates for
// an array<float> parameter run as one batch under the default memory
// limit. pyarrow's default memory pool reserves address space in large
// chunks, which RLIMIT_AS counts: the batch died with MemoryError at row 0
// until the runner made pyarrow use the system allocator.
func TestArrayBatchWithinTheMemoryLimit(t *testing.T) {
	u := parseUDF(t, vectorsPath, "moving_average")
	// The type the file's schema gives the column (udfx rewrite finds it).
	u.Params[0].Type = udf.ArrayOf(udf.Prim(udf.Float))
	r := newRunner(t, u, runner.DefaultLimits)
	rec, _, err := inputs.Generate([]inputs.Param{{Name: u.Params[0].Name, Type: u.Params[0].Type}}, inputs.Options{Seed: 1, Rows: 500}, memory.NewGoAllocator())
	require.NoError(t, err)
	defer rec.Release()
	rows := make([][]value.Value, rec.NumRows())
	for i := range rows {
		rows[i] = []value.Value{value.FromArrow(rec.Column(0), i)}
	}
	got, err := r.Run(context.Background(), rows)
	require.NoError(t, err)
	require.Len(t, got, len(rows))
	for i, v := range got {
		// Arrays shorter than the window make np.empty raise, and with
		// it the whole batch, as in a Spark task: every row the same.
		assert.Equal(t, value.Token(got[0]), value.Token(v), "row %d", i)
	}
	assert.NotEqual(t, "MemoryError", got[0].Class, "the batch ran out of memory")
}
