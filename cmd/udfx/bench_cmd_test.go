package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBenchCommandTimesTheTranslatorsRewriteThenTheAppliedOne(t *testing.T) {
	t.Parallel()
	dir := tempRepo(t)
	chart := filepath.Join(t.TempDir(), "bench.svg")
	stdout, stderr, code := runCLI(t, dir, "bench", "examples/python-celsius/celsius.py", "--rows", "3000", "--runs", "3", "--format", "json", "--chart", chart)
	require.Equal(t, 0, code, stderr)
	var res struct {
		UDF           string    `json:"udf"`
		Engine        string    `json:"engine"`
		RewriteSQL    string    `json:"rewrite_sql"`
		RewriteOrigin string    `json:"rewrite_origin"`
		Rows          int       `json:"rows"`
		Runs          int       `json:"runs"`
		OriginalS     []float64 `json:"original_s"`
		Speedup       float64   `json:"speedup"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &res), stdout)
	assert.Equal(t, "to_fahrenheit", res.UDF)
	assert.Equal(t, "embedded", res.Engine)
	assert.Equal(t, "built-in translator", res.RewriteOrigin)
	assert.Contains(t, res.RewriteSQL, "`celsius` * 9.0D")
	assert.Equal(t, 3000, res.Rows)
	assert.Equal(t, 3, res.Runs)
	assert.Len(t, res.OriginalS, 3)
	assert.Positive(t, res.Speedup)
	svg, err := os.ReadFile(chart)
	require.NoError(t, err)
	assert.Contains(t, string(svg), "to_fahrenheit: ")

	// Once a rewrite is applied, bench times that one.
	_, stderr, code = runCLI(t, dir, "rewrite", "examples/python-celsius/celsius.py", "--apply")
	require.Equal(t, 0, code, stderr)
	stdout, stderr, code = runCLI(t, dir, "bench", "examples/python-celsius/celsius.py", "--rows", "500", "--runs", "1")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "(udfx-rewrites/to_fahrenheit/rewrite.sql)")
	assert.Contains(t, stdout, "speedup ")
}

func TestBenchCommandUsage(t *testing.T) {
	dir := repoRoot(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"bench", "examples/python-celsius/celsius.py", "--engine", "duckdb"}, `unknown --engine "duckdb"`},
		{[]string{"bench", "examples/python-celsius/celsius.py", "--spark-master", "local[1]"}, "need --engine spark"},
		{[]string{"bench", "examples/python-celsius/celsius.py", "--runs", "0"}, "must be positive"},
		{[]string{"bench", "examples/python-celsius/celsius.py", "--sql", "celsius +", "--rows", "10", "--runs", "1"}, "compile the rewrite"},
		{[]string{"bench", "examples/python-celsius/celsius.py", "--format", "xml"}, `unknown --format "xml"`},
	} {
		_, stderr, code := runCLI(t, dir, tc.args...)
		assert.Equal(t, 2, code, "%v: %s", tc.args, stderr)
		assert.Contains(t, stderr, tc.want, "%v", tc.args)
	}
}

// TestBenchCommandTimesTheRowsOfSamples: --samples times the file's rows,
// repeated in order to --rows, and says so; a file that does not fit the
// UDF is bad usage, naming the file.
func TestBenchCommandTimesTheRowsOfSamples(t *testing.T) {
	t.Parallel()
	dir := tempRepo(t)
	samples := filepath.Join(dir, "week.jsonl")
	require.NoError(t, os.WriteFile(samples, []byte("{\"celsius\": 21.5}\n{\"celsius\": -3.0}\n{\"celsius\": null}\n"), 0o644))
	stdout, stderr, code := runCLI(t, dir, "bench", "examples/python-celsius/celsius.py", "--samples", "week.jsonl", "--rows", "1000", "--runs", "1", "--format", "json")
	require.Equal(t, 0, code, stderr)
	var res struct {
		Rows    int    `json:"rows"`
		Samples string `json:"samples"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &res), stdout)
	assert.Equal(t, 1000, res.Rows)
	assert.Equal(t, samples, res.Samples)

	stdout, stderr, code = runCLI(t, dir, "bench", "examples/python-celsius/celsius.py", "--samples", "week.jsonl", "--rows", "10", "--runs", "1")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "inputs    the rows of "+samples+", repeated to 10")

	require.NoError(t, os.WriteFile(filepath.Join(dir, "wrong.jsonl"), []byte("{\"kelvin\": 1.0}\n"), 0o644))
	_, stderr, code = runCLI(t, dir, "bench", "examples/python-celsius/celsius.py", "--samples", "wrong.jsonl", "--rows", "10", "--runs", "1")
	assert.Equal(t, 2, code, stderr)
	assert.Contains(t, stderr, "wrong.jsonl")
}
