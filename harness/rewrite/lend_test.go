package rewrite

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/value"
)

type countingRunner struct {
	runs, closes int
}

func (r *countingRunner) Run(_ context.Context, rows [][]value.Value) ([]value.Value, error) {
	r.runs++
	return make([]value.Value, len(rows)), nil
}
func (r *countingRunner) Describe() string       { return "counting" }
func (r *countingRunner) Close() error           { r.closes++; return nil }
func (r *countingRunner) JDK() string            { return "17.0.15" }
func (r *countingRunner) UnicodeVersion() string { return "15.0.0" }

// A candidate's test runs the original in the scaffold's runner, already
// started, for the same UDF under the same limits: it neither starts the
// runtime again nor stops the scaffold's.
func TestTheScaffoldLendsItsRunnerToTheTestsOfItsUDF(t *testing.T) {
	u := &udf.UDF{Name: "to_fahrenheit"}
	own := &countingRunner{}
	sc := &scaffolded{u: u, run: own, limits: runner.DefaultLimits}
	started := 0
	start := func(context.Context, *udf.UDF, runner.Limits) (runner.Runner, error) {
		started++
		return &countingRunner{}, nil
	}
	lend := sc.lendRunner(start)
	ctx := context.Background()

	for range 2 {
		r, err := lend(ctx, u, runner.DefaultLimits)
		require.NoError(t, err)
		_, err = r.Run(ctx, make([][]value.Value, 3))
		require.NoError(t, err)
		assert.Equal(t, "counting", r.Describe())
		assert.Equal(t, "17.0.15", r.(interface{ JDK() string }).JDK(), "what the report records")
		assert.Equal(t, "15.0.0", r.(interface{ UnicodeVersion() string }).UnicodeVersion())
		require.NoError(t, r.Close())
		require.NoError(t, r.Close(), "closing twice gives it back once")
	}
	assert.Equal(t, 2, own.runs)
	assert.Zero(t, own.closes, "the scaffold's runner keeps running")
	assert.Zero(t, started)

	copyOfU := *u
	_, err := lend(ctx, &copyOfU, runner.DefaultLimits)
	require.NoError(t, err)
	other := runner.DefaultLimits
	other.MemoryMB++
	_, err = lend(ctx, u, other)
	require.NoError(t, err)
	assert.Equal(t, 2, started, "another UDF (a per-type copy) or other limits start their own")
}
