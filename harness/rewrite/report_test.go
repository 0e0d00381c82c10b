package rewrite

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/plan"
	"github.com/udfx/udfx/harness/udf"
)

// coverage reads a real Comet 1.2.0 plan and report pair from
// harness/plan's fixtures.
func coverage(t *testing.T, name string) *plan.NativeCoverage {
	t.Helper()
	dir := filepath.Join("..", "plan", "testdata", "comet")
	p, err := os.ReadFile(filepath.Join(dir, name+".txt"))
	require.NoError(t, err)
	r, err := os.ReadFile(filepath.Join(dir, name+".report.txt"))
	require.NoError(t, err)
	c, err := plan.CometCoverage(string(p), string(r), "f")
	require.NoError(t, err)
	return c
}

func TestReportSaysWhetherTheRewriteRunsNatively(t *testing.T) {
	var native strings.Builder
	writeNative(&native, &evidence.Plans{Original: evidence.Plan{Native: coverage(t, "python-udf")}, Rewrite: evidence.Plan{Native: coverage(t, "sql-rewrite")}})
	assert.Contains(t, native.String(), "the rewrite's projection (CometProject) runs natively in Comet")
	assert.Contains(t, native.String(), "| original | 3 of 9 | 2 | Project, not native: Project runs in Spark; CometColumnarToRow below Project | BatchEvalPython: BatchEvalPython is not supported | none |")
	assert.Contains(t, native.String(), "| rewrite | 6 of 6 | 1 | CometProject, native | none | none |")

	// An exact rewrite Comet runs through its JVM codegen dispatcher is
	// verified, not native.
	var dispatched strings.Builder
	writeNative(&dispatched, &evidence.Plans{Original: evidence.Plan{Native: coverage(t, "python-udf")}, Rewrite: evidence.Plan{Native: coverage(t, "sql-dispatch")}})
	assert.Contains(t, dispatched.String(), "Native: verified, not native. The rewrite is exact, but Comet does not run its projection (CometProject) natively: JVM codegen dispatcher: add, bround, divide, multiply.")
	assert.Contains(t, dispatched.String(), "| rewrite | 6 of 6 | 1 | CometProject, not native: JVM codegen dispatcher: add, bround, divide, multiply | none | CometProject: JVM codegen dispatcher: add, bround, divide, multiply; CometFilter: JVM codegen dispatcher: add, bround, divide, multiply; CometNativeScan: JVM codegen dispatcher: add, bround, divide, multiply |")
}

// A verified rewrite measured slower than the original is reported as
// such: the summary and the last paragraph say to keep the original
// instead of recommending --apply, and the record says faster: false.
func TestReportSaysARewriteThatIsNotFasterIsNotWorthApplying(t *testing.T) {
	outcome := func(originalS, rewriteS float64) *Outcome {
		b := &Bench{Rows: 1000, Runs: 5, OriginalS: []float64{originalS}, RewriteS: []float64{rewriteS}}
		b.summarize()
		best := &Tried{Index: 1, Candidate: Candidate{Target: TargetSQL, SQL: "least(greatest(x, 0.0D), 1.0D)"}, Accepted: true, Bench: b}
		return &Outcome{UDF: &udf.UDF{Name: "clamp", Language: udf.Scala}, Targets: []string{TargetSQL}, Agent: "builtin",
			Tried: []*Tried{best}, Best: best, Optimize: "budget of 3 attempts spent", PatchPath: "rewrite.patch", Record: &evidence.Record{}}
	}
	slow := outcome(0.010, 0.014)
	require.True(t, slow.NotFaster())
	md := Markdown(slow)
	want := "not faster: the verified rewrite's median run took 0.0140 s, the original's 0.0100 s (0.71×, 5 runs each, same run); keep the original, applying the rewrite is not recommended on this engine"
	assert.Contains(t, md, "- verdict: **"+want+"**\n")
	assert.Contains(t, md, "**Verified, "+want+".**")
	assert.NotContains(t, md, "Apply it with")
	assert.False(t, slow.Best.Bench.record(TargetSQL).Faster)

	fast := outcome(0.014, 0.010)
	assert.False(t, fast.NotFaster())
	md = Markdown(fast)
	assert.NotContains(t, md, "not faster")
	assert.Contains(t, md, "Apply it with `udfx rewrite ... --apply`")
	assert.True(t, fast.Best.Bench.record(TargetSQL).Faster)
}
