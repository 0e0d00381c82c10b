package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/evidence"
)

// These tests run real Apache Spark from the repository's .venv (CI
// installs it): each command starts one local session.

func TestTestOnSparkPassesForTheExamplesAndShowsThePlans(t *testing.T) {
	for _, ex := range rewriteExamples {
		if ex.name == "java" {
			// The command's path for a Java UDF is the Scala one's (a jar
			// on the class path from the start, registered by class), and
			// harness/spark's TestJavaToFahrenheit runs the Java example's
			// job and checks its plans. Its jar's class has the Scala
			// example's name, so it would need a Spark session of its own.
			continue
		}
		t.Run(ex.name, func(t *testing.T) {
			dir := tempRepo(t)
			stdout, stderr, code := runCLI(t, dir, "test", ex.target, "--engine", "spark", "--rows", "2000", "--format", "json",
				"--sql", "CASE WHEN celsius IS NULL THEN NULL ELSE celsius * 9.0D / 5.0D + 32.0D END")
			require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
			var rep struct {
				Engine        string `json:"engine"`
				EngineVersion string `json:"engine_version"`
				Master        string `json:"spark_master"`
				Equal         bool   `json:"equal"`
				Rows          int    `json:"rows"`
				Plans         *evidence.Plans
			}
			require.NoError(t, json.Unmarshal([]byte(stdout), &rep))
			assert.Equal(t, "spark", rep.Engine)
			assert.Equal(t, "4.1.1", rep.EngineVersion)
			assert.Equal(t, "local[2]", rep.Master)
			assert.True(t, rep.Equal)
			assert.Equal(t, 2030, rep.Rows, "2000 rows and 30 near misses of the literals")
			require.NotNil(t, rep.Plans)
			assert.NotEmpty(t, rep.Plans.Original.UDFNodes, "the original's plan holds its UDF")
			assert.Empty(t, rep.Plans.Rewrite.UDFNodes)
		})
	}
}

func TestTestOnSparkRefutesAWrongRewriteWithACounterexample(t *testing.T) {
	stdout, stderr, code := runCLI(t, repoRoot(t), "test", "examples/python-celsius/celsius.py", "--engine", "spark", "--rows", "2000",
		"--sql", "celsius * 1.8D + 32.0D", "--workspace", t.TempDir())
	assert.Equal(t, 1, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	assert.Contains(t, stdout, "Apache Spark 4.1.1 (local[2]), both sides in one session")
	assert.Contains(t, stdout, "minimal counterexample")
	assert.Regexp(t, `original → \S+\n  rewrite  → \S+`, stdout)
	assert.Contains(t, stdout, "MISMATCH")
	assert.Contains(t, stderr, "the rewrite differs from to_fahrenheit")
}

func TestTestOnSparkRefusesARewriteSparkRejects(t *testing.T) {
	_, stderr, code := runCLI(t, repoRoot(t), "test", "examples/python-celsius/celsius.py", "--engine", "spark", "--rows", "100",
		"--sql", "abs(celsius, celsius)", "--workspace", t.TempDir())
	assert.Equal(t, 2, code, stderr)
	assert.Contains(t, stderr, "Spark rejects it")
	assert.Contains(t, stderr, "WRONG_NUM_ARGS")
}

func TestRewriteOnSparkRecordsTheEngineAndThePlans(t *testing.T) {
	for _, ex := range rewriteExamples {
		if ex.name == "java" {
			// A Java UDF's Spark registration is the Scala one's path
			// (a jar on the class path, registered by class); the test
			// command above runs it on Spark. One Spark start saved.
			continue
		}
		t.Run(ex.name, func(t *testing.T) {
			dir := tempRepo(t)
			stdout, stderr, code := runCLI(t, dir, "rewrite", ex.target, "--engine", "spark", "--target", "sql")
			require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
			assert.Contains(t, stdout, "engine         Apache Spark 4.1.1 (local[2])")
			assert.Regexp(t, `plan           UDF nodes [1-9]\d* -> 0`, stdout)
			rec, err := evidence.Read(filepath.Join(dir, ".udfx", ex.udf, evidence.FileName))
			require.NoError(t, err)
			assert.Equal(t, evidence.Verified, rec.Result)
			assert.Equal(t, evidence.Engine{Name: "spark", ANSI: true, Version: "4.1.1", Master: "local[2]"}, rec.Engine)
			require.NotNil(t, rec.Plans)
			assert.NotEmpty(t, rec.Plans.Original.UDFNodes)
			assert.Empty(t, rec.Plans.Rewrite.UDFNodes)
			assert.NotEmpty(t, rec.Plans.Rewrite.Text)
			require.Len(t, rec.Benchmarks, 1)
			assert.Contains(t, rec.Benchmarks[0].Where, "Spark job with the SQL rewrite")
			report, err := os.ReadFile(filepath.Join(dir, ".udfx", ex.udf, "report.md"))
			require.NoError(t, err)
			assert.Contains(t, string(report), "## Spark plans")
			assert.FileExists(t, filepath.Join(dir, ".udfx", ex.udf, "benchmark.svg"))
		})
	}
}

func TestTestOnSparkLocatesTheRowARewritesJobFailsOn(t *testing.T) {
	stdout, stderr, code := runCLI(t, repoRoot(t), "test", "examples/python-celsius/celsius.py", "--engine", "spark", "--rows", "500",
		"--sql", "CAST(celsius AS INT) * 1.0D", "--workspace", t.TempDir(), "--format", "json")
	assert.Equal(t, 1, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	var rep struct {
		Refuted        string `json:"refuted"`
		Counterexample *struct {
			Row     int `json:"row"`
			Rewrite struct {
				Text string `json:"text"`
			} `json:"rewrite"`
		} `json:"counterexample"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &rep))
	assert.Contains(t, rep.Refuted, "the rewrite's Spark job failed")
	require.NotNil(t, rep.Counterexample, "the failing row is found by halving on Spark")
	assert.Contains(t, rep.Counterexample.Rewrite.Text, "CAST_OVERFLOW")
}

// The whole-job figures at 10M rows are `task bench-spark`'s; this checks
// the command's path end to end on a small input.
func TestBenchOnSparkTimesWholeJobs(t *testing.T) {
	dir := tempRepo(t)
	chart := filepath.Join(t.TempDir(), "bench.svg")
	stdout, stderr, code := runCLI(t, dir, "bench", "examples/scala-to-fahrenheit/ToFahrenheit.scala", "--engine", "spark",
		"--rows", "2000", "--warmup", "0", "--runs", "2", "--format", "json", "--chart", chart)
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	var res struct {
		Engine    string    `json:"engine"`
		Original  string    `json:"original"`
		Rewrite   string    `json:"rewrite"`
		Rows      int       `json:"rows"`
		OriginalS []float64 `json:"original_s"`
		RewriteS  []float64 `json:"rewrite_s"`
		Speedup   float64   `json:"speedup"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &res), stdout)
	assert.Equal(t, "spark", res.Engine)
	assert.Contains(t, res.Original, "Spark job: read Parquet, the original")
	assert.Contains(t, res.Rewrite, "Apache Spark 4.1.1 (local[2])")
	assert.Equal(t, 2000, res.Rows)
	assert.Len(t, res.OriginalS, 2)
	assert.Len(t, res.RewriteS, 2)
	assert.Positive(t, res.Speedup)
	assert.FileExists(t, chart)
	// The Parquet input is not left behind in the repository's workspace.
	left, err := filepath.Glob(filepath.Join(dir, ".udfx", "spark", "bench-*.parquet"))
	require.NoError(t, err)
	assert.Empty(t, left)
}

func TestTestOnSparkRefusesRewritesThatAreNotFunctionsOfTheirInputs(t *testing.T) {
	for _, tc := range []struct{ sql, want string }{
		// The row column the driver keeps beside the inputs is out of reach.
		{"CASE WHEN _udfx_row < 0 THEN 0.0D ELSE celsius * 9.0D / 5.0D + 32.0D END", "the column _udfx_row at offset 10 is refused"},
		// Reads a file into the counterexample (issue 11). Calls that know
		// the row (monotonically_increasing_id()), the clock or chance are
		// refused the same way (engine.TestGuard, difftest.TestGuardBeforeAnySparkJob).
		{"celsius * 0.0D + ascii(substr((SELECT first(value) FROM text.`/etc/hostname`), 2, 1))", "a subquery (SELECT ...)"},
		// Equal values, another type: spliced into a query it changes the column.
		{"CAST(celsius * 9.0D / 5.0D + 32.0D AS FLOAT)", "returns float32 where to_fahrenheit returns float64"},
	} {
		_, stderr, code := runCLI(t, repoRoot(t), "test", "examples/python-celsius/celsius.py", "--engine", "spark", "--rows", "200",
			"--sql", tc.sql, "--workspace", t.TempDir())
		assert.Equal(t, 2, code, "%s: %s", tc.sql, stderr)
		assert.Contains(t, stderr, tc.want, tc.sql)
	}
}
