package python

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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

// movingAverage is vectors.py's smooth() in Go. The samples are small
// integers, so every float32 window sum is exact whatever order numpy adds
// in, and dividing by 128 (the kernel is 1/128 = 2^-7) is exact too.
func movingAverage(xs []float32) []float32 {
	const window = 128
	if len(xs) < window {
		return xs
	}
	out := make([]float32, len(xs)-window+1)
	for i := range out {
		var s float32
		for _, x := range xs[i : i+window] {
			s += x
		}
		out[i] = s * (1.0 / window)
	}
	return out
}

func TestMovingAverage(t *testing.T) {
	u := parseUDF(t, vectorsPath, "moving_average")
	require.Equal(t, udf.PandasSeriesToSeries, u.PandasFlavor)
	r := newRunner(t, u, runner.DefaultLimits)
	assert.False(t, r.IsScalarAggregate())
	var inputs [][]float32
	for _, n := range []int{0, 3, 127, 128, 129, 300} {
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
}

func TestMeanPairwiseDiffIsOneResultPerGroup(t *testing.T) {
	u := parseUDF(t, vectorsPath, "mean_pairwise_abs_diff")
	require.Equal(t, udf.PandasSeriesToScalar, u.PandasFlavor)
	r := newRunner(t, u, runner.DefaultLimits)
	require.True(t, r.IsScalarAggregate())
	rows := [][]value.Value{
		{floatArray([]float32{1, 2})},
		{floatArray([]float32{4})},
		{floatArray([]float32{})},
	}
	got, err := r.Run(context.Background(), rows)
	require.NoError(t, err)
	// |1-2|+|1-4|+|2-4| = 6, counted both ways = 12, over 3*2 pairs.
	assert.Equal(t, []string{value.Token(value.FloatOf(2))}, tokens(got))

	// One value in the group: the UDF returns NaN, which pyspark's
	// _create_array masks as null (pa.Array.from_pandas with
	// mask=series.isnull()), so Spark stores NULL.
	got, err = r.Run(context.Background(), [][]value.Value{{floatArray([]float32{7})}})
	require.NoError(t, err)
	assert.Equal(t, []string{"N"}, tokens(got))
}
