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

// TestRewriteProvesPerTypeWhenNoSourceTypesAParameter: band's column comes
// from a Parquet file whose schema the job does not show. udfx proves it
// for each type the translator accepts, writes one typeof guard over the
// verified ones, and verify re-runs each; the types the translator
// declines are listed with the reason.
func TestRewriteProvesPerTypeWhenNoSourceTypesAParameter(t *testing.T) {
	t.Parallel()
	dir := exampleRepo(t, "python-per-type", "scores.py")
	stdout, stderr, code := runCLI(t, dir, "rewrite", "examples/python-per-type/scores.py:band", "--rows", "2000", "--apply")
	require.Equal(t, exitOK, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	for _, line := range []string{
		"targets tried  sql (agent: built-in translator, per type)",
		"per type       score double: verified\n",
		"per type       score bigint: verified\n",
		"per type       score int: verified\n",
		"per type       score string: declined (comparison of string and int",
		"ELSE raise_error('udfx: band was proved only for (score) of types (double); (bigint); (int)') END (2000 rows, bit-exact, ANSI on)",
	} {
		assert.Contains(t, stdout, line)
	}
	rec, err := evidence.Read(filepath.Join(dir, evidence.Dir, "band", evidence.FileName))
	require.NoError(t, err)
	require.Len(t, rec.PerType, 3)
	assert.Equal(t, []evidence.ParamType{{Name: "score", Type: "bigint"}}, rec.PerType[1].Types)
	assert.Equal(t, rec.InputsSHA256, rec.PerType[0].InputsSHA256, "the top-level test is the first type's")
	assert.NotEqual(t, rec.PerType[0].InputsSHA256, rec.PerType[1].InputsSHA256)
	assert.Equal(t, "per-type", rec.TypeSources[0].Source)
	job, err := os.ReadFile(filepath.Join(dir, "examples", "python-per-type", "scores.py"))
	require.NoError(t, err)
	assert.Contains(t, string(job), `select(expr("CASE WHEN typeof(`+"`score`"+`) = 'double' THEN`)
	report, err := os.ReadFile(filepath.Join(dir, ".udfx", "band", "report.md"))
	require.NoError(t, err)
	assert.Contains(t, string(report), "| score timestamp | declined | parameter score of type timestamp")

	stdout, stderr, code = runCLI(t, dir, "verify")
	require.Equal(t, exitOK, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	assert.Contains(t, stdout, "the type guard re-run the same way with score bigint; score int")
	assert.Equal(t, 1, strings.Count(stdout, " pass "))
}

// A UDF whose body no type satisfies is declined per type, exit 1, with
// no record and the repository untouched.
func TestRewritePerTypeDeclinedForEveryType(t *testing.T) {
	t.Parallel()
	dir := exampleRepo(t, "python-per-type", "scores.py")
	path := filepath.Join(dir, "examples", "python-per-type", "scores.py")
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	src := strings.Replace(string(b), `return "high" if score > 50 else "low"`, `return "high" if score ** 2 > 50 else "low"`, 1)
	require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
	git(t, dir, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qam", "power")
	stdout, stderr, code := runCLI(t, dir, "rewrite", "examples/python-per-type/scores.py:band", "--apply")
	require.Equal(t, exitFailed, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	assert.Contains(t, stdout, "per type       score double: declined (Python **: CPython raises OverflowError")
	assert.Contains(t, stdout, "result         no verified rewrite")
	assert.NoDirExists(t, filepath.Join(dir, evidence.Dir))
	assert.Empty(t, git(t, dir, "status", "--porcelain"))
}
