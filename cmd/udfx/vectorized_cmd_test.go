package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/evidence"
)

// vectorsRepo is a repository holding examples/python-vectors alone.
func vectorsRepo(t *testing.T) string {
	return exampleRepo(t, "python-vectors", "vectors.py")
}

// exampleRepo is a repository holding one example's file alone, with the
// project's .venv linked in.
func exampleRepo(t *testing.T, example, file string) string {
	t.Helper()
	dir := t.TempDir()
	src := repoRoot(t)
	b, err := os.ReadFile(filepath.Join(src, "examples", example, file))
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "examples", example), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "examples", example, file), b, 0o644))
	require.NoError(t, os.Symlink(filepath.Join(src, ".venv"), filepath.Join(dir, ".venv")))
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".gitignore"), []byte(".venv\n.udfx/\n__pycache__/\n"), 0o644))
	git(t, dir, "init", "-q")
	git(t, dir, "add", ".")
	git(t, dir, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "examples")
	return dir
}

// TestRewriteVectorsToNumba: the moving average pandas_udf is rewritten
// to its numba kernel, proved against the original in CPython, applied,
// and passes verify's hash checks; a changed rewrite is caught.
func TestRewriteVectorsToNumba(t *testing.T) {
	t.Parallel()
	dir := vectorsRepo(t)
	stdout, stderr, code := runCLI(t, dir, "rewrite", "examples/python-vectors/vectors.py:moving_average", "--rows", "200", "--apply")
	require.Equal(t, exitOK, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	assert.Contains(t, stdout, "targets tried  vectorized-python")
	assert.Contains(t, stdout, "candidate 1    vectorized-python: verified")
	assert.Contains(t, stdout, "result         verified: vectorized-python udfx-rewrites/moving_average/vectorized.py (200 rows, bit-exact")
	assert.Contains(t, stdout, "applied        2 files changed")
	assert.Contains(t, stdout, "not a benchmark")
	assert.NotContains(t, stdout, "speedup")

	py := filepath.Join(dir, "udfx-rewrites", "moving_average", "vectorized.py")
	b, err := os.ReadFile(py)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(b), "# udfx:rewrite record=udfx-rewrites/moving_average/evidence.json\n"))
	assert.Contains(t, string(b), "@numba.njit(cache=True")
	rec, err := evidence.Read(filepath.Join(dir, "udfx-rewrites", "moving_average", evidence.FileName))
	require.NoError(t, err)
	require.Len(t, rec.Rewrites, 1)
	assert.Equal(t, "vectorized-python", rec.Rewrites[0].Target)
	assert.Equal(t, "cpython", rec.Engine.Name)
	assert.Equal(t, evidence.Verified, rec.Result)
	// The use sites stay: the rewrite module is imported in their place.
	orig, err := os.ReadFile(filepath.Join(dir, "examples", "python-vectors", "vectors.py"))
	require.NoError(t, err)
	assert.Contains(t, string(orig), `sdf.withColumn("func", moving_average("vector"))`)

	// The hashes only: the full re-run (10,000 rows per seed, each row
	// its own batch, in both CPython sides) takes a minute, too long for
	// the suite; harness/difftest's TestRunPython tests prove and refute
	// with the same RunPython the re-run calls.
	stdout, stderr, code = runCLI(t, dir, "verify", "--skip-rerun")
	require.Equal(t, exitOK, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	assert.Contains(t, stdout, "moving_average  vectorized-python  pass")
	assert.Contains(t, stdout, "1 rewrite checked (1 records, hashes only): 1 pass")

	// A kernel edited by hand no longer hashes as proved.
	require.NoError(t, os.WriteFile(py, []byte(strings.Replace(string(b), "(v_s_32 / _t14)", "(v_s_32 * _t13)", 1)), 0o644))
	stdout, _, code = runCLI(t, dir, "verify", "--skip-rerun")
	assert.Equal(t, exitFailed, code)
	assert.Contains(t, stdout, "stale-rewrite")
}

// TestRewriteFastFormOnlyWithinADeclaredTolerance: the fast vectorized
// form is refused until udfx.yaml declares a tolerance for the UDF (the
// message says how), refuted under a tolerance tighter than its rounding
// (so the test runs the fast kernel, not only the exact one behind it),
// and verified under a sufficient one, which the record and verify name;
// verify fails it once the declaration is gone.
func TestRewriteFastFormOnlyWithinADeclaredTolerance(t *testing.T) {
	t.Parallel()
	dir := vectorsRepo(t)
	args := []string{"rewrite", "examples/python-vectors/vectors.py:moving_average", "--target", "vectorized-python-fast", "--rows", "100"}
	stdout, stderr, code := runCLI(t, dir, args...)
	require.Equal(t, exitUsage, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	assert.Contains(t, stderr, "proved only within a tolerance the project declares: add to udfx.yaml")
	assert.Contains(t, stderr, "    - udf: moving_average\n      file: examples/python-vectors/vectors.py\n      rel: 1e-5\n")

	yaml := func(rel string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "udfx.yaml"), []byte("version: 1\nrelaxations:\n  - udf: moving_average\n    rel: "+rel+"\n    reason: a running sum rounds differently\n"), 0o644))
		git(t, dir, "add", "udfx.yaml")
		git(t, dir, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "tolerance "+rel)
	}
	yaml("1e-9")
	stdout, stderr, code = runCLI(t, dir, args...)
	require.Equal(t, exitFailed, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	assert.Regexp(t, `candidate 1    vectorized-python-fast: refuted: differs on \d+ of \d+ rows \(within relative 1e-09\)`, stdout)

	yaml("1e-5")
	stdout, stderr, code = runCLI(t, dir, append(args, "--apply")...)
	require.Equal(t, exitOK, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	assert.Contains(t, stdout, "result         verified: vectorized-python-fast udfx-rewrites/moving_average/vectorized_fast.py (100 rows, within relative 1e-05, each row against CPython)")
	rec, err := evidence.Read(filepath.Join(dir, "udfx-rewrites", "moving_average", evidence.FileName))
	require.NoError(t, err)
	assert.Equal(t, "vectorized-python-fast", rec.Rewrites[0].Target)
	assert.Equal(t, 1e-5, rec.Policy.Rel)
	git(t, dir, "add", ".")
	git(t, dir, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "fast")
	stdout, stderr, code = runCLI(t, dir, "verify")
	require.Equal(t, exitOK, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	assert.Contains(t, stdout, "rows agree (within relative 1e-05, ANSI on, errors compared;")
	assert.Contains(t, stdout, "moving_average: within relative 1e-05 (udfx.yaml:3: a running sum rounds differently)")

	require.NoError(t, os.Remove(filepath.Join(dir, "udfx.yaml")))
	stdout, stderr, code = runCLI(t, dir, "verify", "--skip-rerun")
	require.Equal(t, exitFailed, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	assert.Contains(t, stdout, "undeclared-relaxation")
}

// TestRewritePlainLoopUDFToNumba: a plain @udf that loops is declined by
// sql and rendered as a numba kernel inside a plain @udf of the same
// type, proved against the original on the generated ints (every 64-bit
// edge among them), and verify re-runs it.
func TestRewritePlainLoopUDFToNumba(t *testing.T) {
	t.Parallel()
	dir := exampleRepo(t, "python-loops", "loops.py")

	stdout, stderr, code := runCLI(t, dir, "rewrite", "examples/python-loops/loops.py:collatz_steps", "--rows", "300", "--apply")
	require.Equal(t, exitOK, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	assert.Contains(t, stdout, "targets tried  sql, vectorized-python")
	assert.Contains(t, stdout, "(sql): Python while_statement: not translated")
	assert.Contains(t, stdout, "result         verified: vectorized-python udfx-rewrites/collatz_steps/vectorized.py (300 rows, bit-exact, each row against CPython)")
	py, err := os.ReadFile(filepath.Join(dir, "udfx-rewrites", "collatz_steps", "vectorized.py"))
	require.NoError(t, err)
	assert.Contains(t, string(py), "@udf('int')\ndef collatz_steps(n):")
	git(t, dir, "add", ".")
	git(t, dir, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "rewrite")
	stdout, stderr, code = runCLI(t, dir, "verify")
	require.Equal(t, exitOK, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	assert.Regexp(t, `collatz_steps +vectorized-python +pass .*differential test re-run in CPython`, stdout)
}
