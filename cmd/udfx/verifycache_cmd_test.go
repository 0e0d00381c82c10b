package main

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/evidence"
)

// The gate's proof cache end to end, against real CPython: a second run
// over an unchanged repository takes the re-run from the cache and says
// so, --full re-runs it, and the cache may not lie in the repository.
func TestVerifyReRunsOnlyWhatChanged(t *testing.T) {
	dir := verifyRepo(t)
	out, err := exec.Command("git", "-C", dir, "init", "-q").CombinedOutput()
	require.NoError(t, err, "%s", out)

	stdout, stderr, code := runCLI(t, dir, "verify")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.Contains(t, stdout, "re-run now: 1 records; unchanged since a passing re-run, from the proof cache: 0 (--full re-runs every record)\n")
	assert.Contains(t, stdout, "20060 of 20060 rows agree")

	stdout, stderr, code = runCLI(t, dir, "verify", "--format", "json")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	var doc struct {
		ProofCache string `json:"proof_cache"`
		Reran      int    `json:"reran"`
		FromCache  int    `json:"from_cache"`
		Items      []struct {
			Status string `json:"status"`
			Rerun  bool   `json:"rerun"`
			Cached bool   `json:"cached"`
			Detail string `json:"detail"`
		} `json:"items"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &doc))
	assert.Equal(t, "incremental", doc.ProofCache)
	assert.Equal(t, [2]int{0, 1}, [2]int{doc.Reran, doc.FromCache})
	require.Len(t, doc.Items, 1)
	assert.Equal(t, "pass", doc.Items[0].Status)
	assert.True(t, doc.Items[0].Cached)
	assert.False(t, doc.Items[0].Rerun)
	assert.Contains(t, doc.Items[0].Detail, "20060 of 20060 rows agree")
	assert.Contains(t, doc.Items[0].Detail, "not re-run now: unchanged since udfx re-ran it on ")

	// A module beside the UDF changes what an import could give.
	writeFile(t, filepath.Join(dir, "jobs", "helpers.py"), "OFFSET = 32.0\n")
	stdout, _, code = runCLI(t, dir, "verify", "--jobs", "2")
	require.Equal(t, exitOK, code, stdout)
	assert.Contains(t, stdout, "re-run now: 1 records; unchanged since a passing re-run, from the proof cache: 0")

	stdout, _, code = runCLI(t, dir, "verify", "--full")
	require.Equal(t, exitOK, code, stdout)
	assert.Contains(t, stdout, "re-run now: 1 records (--full)\n")

	// The gate fails what a cached proof would have passed: the checks
	// before the re-run run every time.
	forgeRecord(t, dir, "celsius * 9.0D / 5.0D + 33.0D", func(*evidence.Record) {})
	stdout, _, code = runCLI(t, dir, "verify")
	assert.Equal(t, exitFailed, code, stdout)
	assert.Contains(t, stdout, "mismatch")
}

func TestVerifyCacheFlags(t *testing.T) {
	dir := verifyRepo(t)
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--cache-dir", filepath.Join(dir, "ci-cache")}, "lies inside the repository"},
		{[]string{"--cache-dir", "ci-cache"}, "lies inside the repository"},
		{[]string{"--jobs", "0"}, "--jobs 0: want at least 1"},
		{[]string{"--skip-rerun", "--full"}, "--skip-rerun re-runs nothing"},
	} {
		_, stderr, code := runCLI(t, dir, append([]string{"verify"}, tc.args...)...)
		assert.Equal(t, exitUsage, code, "%v: %s", tc.args, stderr)
		assert.Contains(t, stderr, tc.msg, tc.args)
	}
	// A folder outside the repository is taken.
	stdout, stderr, code := runCLI(t, dir, "verify", "--cache-dir", t.TempDir())
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stdout, "1 pass")
}
