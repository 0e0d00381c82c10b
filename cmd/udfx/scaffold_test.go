package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// scaffoldRepo makes a temporary repository holding the Python Celsius
// example at the same path as in udfx's tree, so output naming it matches
// the golden files wherever the test runs, and points the Python runner
// at the repository's .venv (none lies above a temporary folder).
func scaffoldRepo(t *testing.T) string {
	t.Helper()
	if _, err := os.Stat(filepath.Join(repoRoot(t), ".venv", "bin", "python")); err == nil {
		t.Setenv("UDFX_PYTHON", filepath.Join(repoRoot(t), ".venv", "bin", "python"))
	}
	dir := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(dir, ".git"), 0o755))
	src, err := os.ReadFile(filepath.Join(repoRoot(t), "examples", "python-celsius", "celsius.py"))
	require.NoError(t, err)
	writeFile(t, filepath.Join(dir, "examples", "python-celsius", "celsius.py"), string(src))
	return dir
}

// runtimeVersions masks the interpreter's and pyspark's versions, which
// belong to the machine, not to udfx's output.
var runtimeVersions = regexp.MustCompile(`CPython [0-9][^,]*, PySpark [0-9][^;]*;`)

// The scaffold-* golden cases hold args (not cmd: TestGolden runs in
// udfx's own tree, and scaffold writes a workspace): each runs in a fresh
// scaffoldRepo.
func TestScaffoldGolden(t *testing.T) {
	cases, err := filepath.Glob(filepath.Join("testdata", "golden", "scaffold-*", "args"))
	require.NoError(t, err)
	require.NotEmpty(t, cases)
	for _, argsFile := range cases {
		dir := filepath.Dir(argsFile)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			line, err := os.ReadFile(argsFile)
			require.NoError(t, err)
			repo := scaffoldRepo(t)
			stdout, stderr, code := runWith(t, repo, strings.Fields(string(line))...)
			stdout = runtimeVersions.ReplaceAllString(stdout, "CPython <version>, PySpark <version>;")
			checkGoldenRun(t, dir, stdout, stderr, code)
		})
	}
}

func TestScaffoldWritesTheStageEvidence(t *testing.T) {
	repo := scaffoldRepo(t)
	stdout, stderr, code := runWith(t, repo, "scaffold", "examples/python-celsius/celsius.py:to_fahrenheit", "--rows", "300", "--seed", "5")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.Contains(t, stdout, "  workspace      .udfx/to_fahrenheit\n", "default workspace: <repo>/.udfx")
	ws := filepath.Join(repo, ".udfx", "to_fahrenheit")
	spec, err := os.ReadFile(filepath.Join(ws, "spec.json"))
	require.NoError(t, err)
	assert.Contains(t, string(spec), `"file": "examples/python-celsius/celsius.py"`)
	baseline, err := os.ReadFile(filepath.Join(ws, "baseline.tokens"))
	require.NoError(t, err)
	assert.Equal(t, 300, strings.Count(string(baseline), "\n"), "one result per input row")
	inputs, err := os.ReadFile(filepath.Join(ws, "inputs.arrow"))
	require.NoError(t, err)

	// udfx test with the same seed and rows sees the same inputs: it saves
	// them over the scaffold's, byte for byte.
	stdout, stderr, code = runWith(t, repo, "test", "examples/python-celsius/celsius.py", "--sql", "celsius * 9.0 / 5.0 + 32.0", "--rows", "300", "--seed", "5")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	again, err := os.ReadFile(filepath.Join(ws, "inputs.arrow"))
	require.NoError(t, err)
	assert.Equal(t, inputs, again)
	assert.Contains(t, stdout, "EQUAL: 330 of 330 rows agree") // and 30 near misses of the literals

	// The repository itself is untouched.
	entries, err := os.ReadDir(repo)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	assert.Equal(t, []string{".git", ".udfx", "examples"}, names)
}

func TestScaffoldStopsOnANondeterministicOriginal(t *testing.T) {
	repo := scaffoldRepo(t)
	writeFile(t, filepath.Join(repo, "jobs", "jitter.py"), `import random

from pyspark.sql.functions import udf
from pyspark.sql.types import DoubleType


@udf(returnType=DoubleType())
def jitter(x: float) -> float:
    if x is None:
        return None
    return x + random.random()
`)
	stdout, stderr, code := runWith(t, repo, "scaffold", "jobs/jitter.py", "--rows", "100", "--workspace", "ws")
	assert.Equal(t, exitFailed, code, "stdout: %s", stdout)
	assert.Empty(t, stdout)
	assert.Regexp(t, `^udfx: jitter is not deterministic: two runs on the same inputs differ on \d+ rows \(first at row \d+, .*\); no rewrite can be proved equal to it\n$`, stderr)
}

func TestScaffoldCannotRunTheOriginal(t *testing.T) {
	repo := scaffoldRepo(t)
	t.Setenv("UDFX_PYTHON", filepath.Join(repo, "no-such-python"))
	_, stderr, code := runWith(t, repo, "scaffold", "examples/python-celsius/celsius.py", "--rows", "10")
	assert.Equal(t, exitInternal, code)
	assert.Contains(t, stderr, "udfx: cannot run the original: ")
}
