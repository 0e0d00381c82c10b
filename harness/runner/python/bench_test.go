package python

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/value"
)

// BenchmarkRunPythonUDF runs the Celsius example on 1M rows in a started
// interpreter and reports rows/s.
func BenchmarkRunPythonUDF(b *testing.B) {
	r := newRunner(b, parseUDF(b, celsiusPath, "to_fahrenheit"), runner.Limits{Timeout: 10 * time.Minute})
	const n = 1_000_000
	rows := make([][]value.Value, n)
	for i := range rows {
		rows[i] = []value.Value{value.DoubleOf(float64(i%4000)/10 - 200)}
	}
	b.ResetTimer()
	start := time.Now()
	for range b.N {
		got, err := r.Run(context.Background(), rows)
		require.NoError(b, err)
		require.Equal(b, math.Float64bits(float64(-200)*9.0/5.0+32.0), got[0].Bits)
	}
	b.ReportMetric(float64(n*b.N)/time.Since(start).Seconds(), "rows/s")
}
