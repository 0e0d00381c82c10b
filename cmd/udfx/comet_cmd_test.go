package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/spark"
)

// --engine comet runs real Apache Spark with the real DataFusion Comet
// 1.2.0 jar (fetched into the local Maven repository by the first run).
// The three commands share one Comet session through sparkPool: rewrite
// proves and records, verify re-runs the record on Comet, bench times both
// jobs. The 10M-row figures are `task bench-comet`'s.
func TestCometRewriteRecordsNativeCoverageVerifyAndBenchRerunOnComet(t *testing.T) {
	dir := tempRepo(t)
	stdout, stderr, code := runCLI(t, dir, "rewrite", "examples/python-celsius/celsius.py", "--engine", "comet", "--target", "sql",
		"--rows", "2000", "--apply")
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	assert.Contains(t, stdout, "engine         Apache Spark 4.1.1 with DataFusion Comet "+spark.CometVersion+" (local[2])")
	assert.Contains(t, stdout, "native         rewrite: 2 of 2 operators in Comet, 1 transition; CometProject native")

	rec, err := evidence.Read(filepath.Join(dir, evidence.Dir, "to_fahrenheit", evidence.FileName))
	require.NoError(t, err)
	assert.Equal(t, evidence.Verified, rec.Result)
	assert.Equal(t, evidence.Engine{Name: "comet", ANSI: true, Version: "4.1.1", Master: "local[2]", Comet: spark.CometVersion}, rec.Engine)
	require.NotNil(t, rec.Plans)
	orig, rw := rec.Plans.Original.Native, rec.Plans.Rewrite.Native
	require.NotNil(t, orig)
	require.NotNil(t, rw)
	// The Python UDF is opaque to Comet: its projection runs in Spark
	// behind a columnar-to-row transition, and Comet says why.
	assert.False(t, orig.ProjectionNative)
	assert.Equal(t, "Project", orig.Projection)
	assert.Contains(t, orig.NotNative, "CometColumnarToRow below Project")
	assert.Contains(t, orig.Fallbacks, "BatchEvalPython: BatchEvalPython is not supported")
	assert.Less(t, orig.OperatorsAccelerated, orig.OperatorsEligible)
	// The rewrite runs natively: a CometProject over the native scan.
	assert.True(t, rw.ProjectionNative, rw.NotNative)
	assert.Equal(t, "CometProject", rw.Projection)
	assert.Equal(t, rw.OperatorsEligible, rw.OperatorsAccelerated)
	assert.Empty(t, rw.Fallbacks)
	assert.Empty(t, rw.Dispatched)
	assert.Contains(t, rw.Summary, "Comet accelerated 2 out of 2 eligible operators")

	report, err := os.ReadFile(filepath.Join(dir, ".udfx", "to_fahrenheit", "report.md"))
	require.NoError(t, err)
	assert.Contains(t, string(report), "The test ran on Apache Spark 4.1.1 with DataFusion Comet "+spark.CometVersion)
	assert.Contains(t, string(report), "the rewrite's projection (CometProject) runs natively in Comet")
	assert.Contains(t, string(report), "| original | 1 of 3 | 1 | Project, not native: Project runs in Spark; CometColumnarToRow below Project | BatchEvalPython: BatchEvalPython is not supported | none |")

	// verify re-runs the record on the engine that proved it.
	stdout, stderr, code = runCLI(t, dir, "verify", "--format", "json")
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	var gate struct {
		Items []struct {
			Status string `json:"status"`
			Detail string `json:"detail"`
		} `json:"items"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &gate), stdout)
	require.Len(t, gate.Items, 1)
	assert.Equal(t, "pass", gate.Items[0].Status)
	assert.Contains(t, gate.Items[0].Detail, "on Apache Spark 4.1.1 with DataFusion Comet "+spark.CometVersion+" (local[2])")

	// bench times both jobs on Comet and shows both plans' coverage.
	stdout, stderr, code = runCLI(t, dir, "bench", "examples/python-celsius/celsius.py", "--engine", "comet",
		"--rows", "20000", "--warmup", "0", "--runs", "1")
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	assert.Contains(t, stdout, "engine    comet;")
	assert.Contains(t, stdout, "DataFusion Comet "+spark.CometVersion)
	assert.Regexp(t, `native    original: \d+ of \d+ operators in Comet, \d+ transitions?; not native: Project runs in Spark`, stdout)
	assert.Regexp(t, `native    rewrite:  2 of 2 operators in Comet, \d+ transitions?; CometProject native`, stdout)
}

func TestCometFlagsAreChecked(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"test", "examples/python-celsius/celsius.py", "--sql", "celsius", "--comet-jar", "x.jar"}, "--comet-jar needs --engine comet"},
		{[]string{"test", "examples/python-celsius/celsius.py", "--sql", "celsius", "--engine", "comet", "--spark-remote", "sc://localhost:15002"}, "--engine comet cannot use --spark-remote"},
		{[]string{"bench", "examples/python-celsius/celsius.py", "--engine", "velox"}, "want embedded, spark or comet"},
	} {
		_, stderr, code := runCLI(t, repoRoot(t), tc.args...)
		assert.Equal(t, 2, code, "%v: %s", tc.args, stderr)
		assert.Contains(t, stderr, tc.want, tc.args)
	}
	// A jar that is not Comet's is refused before any JVM starts.
	notComet := filepath.Join(t.TempDir(), "not-comet.jar")
	require.NoError(t, os.WriteFile(notComet, []byte("not a jar"), 0o644))
	_, stderr, code := runCLI(t, repoRoot(t), "test", "examples/python-celsius/celsius.py", "--sql", "celsius", "--engine", "comet",
		"--comet-jar", notComet, "--workspace", t.TempDir())
	assert.Equal(t, 3, code, stderr)
	assert.Contains(t, stderr, "not-comet.jar")
}
