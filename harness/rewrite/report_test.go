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
