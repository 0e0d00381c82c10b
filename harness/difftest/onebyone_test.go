package difftest

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/runner/runners"
	"github.com/udfx/udfx/harness/spark"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/value"
)

// A Python division throws ZeroDivisionError on a zero divisor, so its
// Spark job fails and says on no row which. With ProveThrowingRows the
// other rows are compared in one job and each zero-divisor row in jobs of
// its own, on Spark with ANSI off, where a plain / gives NULL: the
// rewrite that raises there is verified on every row, the plain one is
// refuted on a row where the original throws and it returns NULL.
func TestThrowingRowsAreComparedOneByOneOnSpark(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	u := udfsIn(t, "testdata/onebyone/per_unit.py", udf.Python)["per_unit"]
	require.NotNil(t, u)
	u.File = abs(t, u.File)
	s := startSpark(t, ctx, spark.Config{ANSI: false, Dir: moduleRoot(t)})
	defer s.Close()
	opts := Options{Seed: 7, Rows: 300, ANSI: false, Spark: s, ProveThrowingRows: true, NewRunner: runners.New}

	guarded := "CASE WHEN total IS NULL OR units IS NULL THEN CAST(NULL AS DOUBLE) WHEN units = 0.0D THEN raise_error('udfx: ZeroDivisionError') ELSE total / units END"
	start := time.Now()
	rep, err := Run(ctx, u, Rewrite{SQL: guarded}, opts)
	require.NoError(t, err)
	t.Logf("%d rows, %d of them one by one, in %s", rep.Rows, rep.OneByOneRows, time.Since(start).Round(time.Millisecond))
	assert.True(t, rep.Equal, "mismatches %d, counterexample %+v", rep.Mismatches, rep.Counterexample)
	require.Positive(t, rep.OneByOneRows, "the inputs hold zero divisors")
	assert.Equal(t, rep.OneByOneRows, rep.ErrorRowsMatched)
	assert.Equal(t, rep.OneByOneRows, rep.OriginalExceptions["ZeroDivisionError"])
	assert.Zero(t, rep.LeftOutRows)

	rep, err = Run(ctx, u, Rewrite{SQL: "total / units"}, opts)
	require.NoError(t, err)
	assert.False(t, rep.Equal)
	assert.Equal(t, rep.OneByOneRows, rep.Mismatches, "NULL on every zero divisor, right elsewhere")
	ce := rep.Counterexample
	require.NotNil(t, ce)
	assert.Equal(t, value.Error, ce.Original.Kind)
	assert.Equal(t, "ZeroDivisionError", ce.Original.Class)
	assert.True(t, ce.Rewrite.IsNull())
	assert.Equal(t, 0.0, ce.Inputs[1].Value.Float64())

	// RunEachRow itself: a zero divisor fails the original's job and the
	// plain rewrite gives NULL; a non-zero one gives the quotient on
	// both.
	rows := [][]value.Value{
		{value.DoubleOf(1), value.DoubleOf(0)}, {value.DoubleOf(3), value.DoubleOf(2)},
		{value.DoubleOf(-1), value.DoubleOf(math.Copysign(0, -1))}, {value.NullValue(), value.DoubleOf(0)},
	}
	params, _, err := signature(u)
	require.NoError(t, err)
	rec, err := BuildRecord(params, rows, memory.NewGoAllocator())
	require.NoError(t, err)
	defer rec.Release()
	each, err := s.RunEachRow(ctx, spark.Job{UDF: u, Rewrite: "total / units", Input: rec, ANSI: new(bool)})
	require.NoError(t, err)
	t.Logf("4 rows one by one: original %.2fs, rewrite %.2fs", each.Original.Seconds, each.Rewrite.Seconds)
	want := []struct{ orig, rw string }{{"ZeroDivisionError", "NULL"}, {"1.5", "1.5"}, {"ZeroDivisionError", "NULL"}, {"NULL", "NULL"}}
	for i, w := range want {
		o, r := each.Original.Values[i], each.Rewrite.Values[i]
		if o.Kind == value.Error {
			assert.Equal(t, w.orig, o.Class, "row %d", i)
			assert.NotNil(t, each.Original.Errs[i])
		} else {
			assert.Equal(t, w.orig, o.String(), "row %d", i)
			assert.Nil(t, each.Original.Errs[i])
		}
		assert.Equal(t, w.rw, r.String(), "row %d", i)
	}

	// Without the option, nothing is compared on Spark: the original's
	// job failed.
	opts.ProveThrowingRows = false
	_, err = Run(ctx, u, Rewrite{SQL: guarded}, opts)
	var oe *OriginalError
	require.ErrorAs(t, err, &oe)
	assert.Contains(t, err.Error(), "ZeroDivisionError")
}
