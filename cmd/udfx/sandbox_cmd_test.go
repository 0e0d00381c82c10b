//go:build linux

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/internal/sandbox"
)

// The runner tests show what the sandbox stops; these show that
// --sandbox reaches the runners from every command that runs an original,
// and what each mode says.

// noBwrap makes bubblewrap missing for the rest of the test, and returns
// where udfx looks for it.
func noBwrap(t *testing.T) string {
	p := filepath.Join(t.TempDir(), "no-bwrap")
	t.Setenv(sandbox.BwrapVar, p)
	return p
}

const autoNote = "udfx: no sandbox (bubblewrap not found): the original runs with your permissions; install bubblewrap or pass --sandbox off to silence this\n"

// celsiusTest is `udfx test` of the Celsius example with its exact
// rewrite, on few rows, as JSON.
func celsiusTest(sandboxFlag ...string) []string {
	return append([]string{"test", "examples/python-celsius/celsius.py", "--sql", translatedSQL, "--rows", "200", "--format", "json", "--workspace", ""}, sandboxFlag...)
}

func originalRuntime(t *testing.T, stdout string) string {
	t.Helper()
	var rep struct {
		Runtime string `json:"original_runtime"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &rep), stdout)
	return rep.Runtime
}

// TestSandboxModesInTheReport: the report of `udfx test` says whether the
// original ran sandboxed; auto where bubblewrap is missing runs it and
// says so once on stderr.
func TestSandboxModesInTheReport(t *testing.T) {
	cases := []struct {
		name    string
		flag    []string
		missing bool
		runtime string
		stderr  string
	}{
		{"default", nil, false, "; sandboxed (bubblewrap: read-only file system, private /tmp, no network)", ""},
		{"on", []string{"--sandbox", "on"}, false, "; sandboxed (bubblewrap: read-only file system, private /tmp, no network)", ""},
		{"off", []string{"--sandbox", "off"}, false, "; not sandboxed (--sandbox off)", ""},
		{"auto without bubblewrap", []string{"--sandbox", "auto"}, true, "; not sandboxed (bubblewrap not found)", autoNote},
		{"off without bubblewrap", []string{"--sandbox", "off"}, true, "; not sandboxed (--sandbox off)", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.missing {
				noBwrap(t)
			}
			stdout, stderr, code := runCLI(t, repoRoot(t), celsiusTest(tc.flag...)...)
			require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
			assert.True(t, strings.HasSuffix(originalRuntime(t, stdout), tc.runtime), "runtime %q, want it to end in %q", originalRuntime(t, stdout), tc.runtime)
			assert.Equal(t, tc.stderr, stderr)
		})
	}
}

// TestSandboxOnWithoutBubblewrap: on refuses to run the original
// uncontained, as a missing prerequisite, naming bwrap and its package;
// every command that runs an original takes the flag.
func TestSandboxOnWithoutBubblewrap(t *testing.T) {
	bwrap := noBwrap(t)
	for _, args := range [][]string{
		celsiusTest("--sandbox", "on"),
		{"scaffold", "examples/python-celsius/celsius.py", "--sandbox", "on", "--workspace", t.TempDir()},
		{"rewrite", "examples/python-celsius/celsius.py", "--sandbox", "on", "--workspace", t.TempDir()},
		{"bench", "examples/python-celsius/celsius.py", "--sandbox", "on"},
		{"verify", "examples", "--sandbox", "on"},
	} {
		t.Run(args[0], func(t *testing.T) {
			stdout, stderr, code := runCLI(t, repoRoot(t), args...)
			assert.Equal(t, exitInternal, code, "stdout: %s", stdout)
			assert.Equal(t, "udfx: --sandbox on, and bubblewrap not found (no "+bwrap+" in UDFX_BWRAP): udfx contains the original with bubblewrap; install it (on Debian or Ubuntu: apt-get install bubblewrap), or pass --sandbox off to run the original with your permissions\n", stderr)
		})
	}
}

func TestSandboxUsage(t *testing.T) {
	for _, args := range [][]string{
		celsiusTest("--sandbox", "yes"),
		{"verify", "--skip-rerun", "--sandbox", "yes"},
	} {
		_, stderr, code := runCLI(t, repoRoot(t), args...)
		assert.Equal(t, exitUsage, code, stderr)
		assert.Contains(t, stderr, `unknown --sandbox "yes": want auto, on or off`)
	}
	_, stderr, code := runCLI(t, repoRoot(t), celsiusTest("--sandbox", "on", "--engine", "spark")...)
	assert.Equal(t, exitUsage, code, stderr)
	assert.Contains(t, stderr, "--sandbox on: --engine spark runs the original in Spark's own workers, which udfx cannot contain")
}

// hostileRepo is a repository whose Celsius UDF module, on import, writes
// a file into another folder of the test: the path it returns.
func hostileRepo(t *testing.T) (dir, target string) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(repoRoot(t), ".venv", "bin", "python")); err == nil {
		t.Setenv("UDFX_PYTHON", filepath.Join(repoRoot(t), ".venv", "bin", "python"))
	}
	dir = t.TempDir()
	target = filepath.Join(t.TempDir(), "escaped")
	src, err := os.ReadFile(filepath.Join(repoRoot(t), "examples", "python-celsius", "celsius.py"))
	require.NoError(t, err)
	hostile := strings.Replace(string(src), "\n\n@udf", fmt.Sprintf("\nopen(%q, \"w\").write(\"escaped\\n\")\n\n\n@udf", target), 1)
	require.NotEqual(t, string(src), hostile)
	writeFile(t, filepath.Join(dir, "jobs", "celsius.py"), hostile)
	return dir, target
}

// TestSandboxStopsAnOriginalOfTheRepository: `udfx test` of a module
// that writes outside its run on import fails with the sandbox on, the
// compile error naming the read-only file system, and writes nothing;
// with it off, the module writes its file.
func TestSandboxStopsAnOriginalOfTheRepository(t *testing.T) {
	dir, target := hostileRepo(t)
	args := []string{"test", "jobs/celsius.py", "--sql", translatedSQL, "--rows", "200", "--workspace", ""}

	stdout, stderr, code := runCLI(t, dir, append(args, "--sandbox", "on")...)
	assert.Equal(t, exitInternal, code, "stdout: %s", stdout)
	assert.Contains(t, stderr, "Read-only file system")
	assert.NoFileExists(t, target)

	stdout, stderr, code = runCLI(t, dir, append(args, "--sandbox", "off")...)
	assert.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.FileExists(t, target)
}

// TestVerifyRunsTheOriginalInTheSandbox: verify's re-run executes the
// repository's code; contained, a record whose module writes on import
// cannot be checked (exit 3) and writes nothing.
func TestVerifyRunsTheOriginalInTheSandbox(t *testing.T) {
	dir := verifyRepo(t)
	target := filepath.Join(t.TempDir(), "escaped")
	path := filepath.Join(dir, "jobs", "celsius.py")
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	// A statement the UDF does not read: the record stays current.
	writeFile(t, path, string(src)+fmt.Sprintf("\nopen(%q, \"w\").write(\"escaped\\n\")\n", target))

	stdout, stderr, code := runCLI(t, dir, "verify", "--skip-rerun")
	require.Equal(t, exitOK, code, "the record still holds: stderr: %s\nstdout: %s", stderr, stdout)

	stdout, stderr, code = runCLI(t, dir, "verify", "--sandbox", "on")
	assert.Equal(t, exitInternal, code, "stdout: %s", stdout)
	assert.Contains(t, stdout+stderr, "Read-only file system")
	assert.NoFileExists(t, target)

	stdout, stderr, code = runCLI(t, dir, "verify", "--sandbox", "off")
	assert.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.FileExists(t, target)
}

const sparkNote = "udfx: no sandbox for --engine spark: Spark's workers run the original with your permissions; pass --sandbox off to silence this\n"

// TestSandboxSaysSparkIsNotContained: --engine spark runs the original in
// Spark's workers; auto says so on stderr and in the report's runtime,
// off silences it.
func TestSandboxSaysSparkIsNotContained(t *testing.T) {
	stdout, stderr, code := runCLI(t, repoRoot(t), celsiusTest("--engine", "spark")...)
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.True(t, strings.HasSuffix(originalRuntime(t, stdout), "; "+sandbox.OnSpark), originalRuntime(t, stdout))
	assert.Equal(t, sparkNote, stderr)

	// The note comes before the UDF is looked up: a missing file shows
	// it without starting Spark.
	missing := []string{"test", "no-such.py", "--sql", "1", "--engine", "spark"}
	_, stderr, code = runCLI(t, repoRoot(t), missing...)
	assert.Equal(t, exitUsage, code)
	assert.True(t, strings.HasPrefix(stderr, sparkNote), stderr)
	_, stderr, code = runCLI(t, repoRoot(t), append(missing, "--sandbox", "off")...)
	assert.Equal(t, exitUsage, code)
	assert.NotContains(t, stderr, "no sandbox")
}

// Issue 26, forgery 9: a module that makes the UDF behave like a wrong
// rewrite only where it looks contained (PID 1, or a parent that is)
// passed the contained re-run. The original now sees an ordinary PID and
// parent, so the re-run refutes the rewrite with the sandbox as without.
func TestVerifyRefutesCodeThatLooksForTheSandbox(t *testing.T) {
	dir := verifyRepo(t)
	path := filepath.Join(dir, "jobs", "celsius.py")
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	// Statements the UDF does not read, so the record stays current.
	writeFile(t, path, string(src)+`
import os as _os
if _os.getpid() <= 2 or _os.getppid() <= 2:
    to_fahrenheit.func.__code__ = (lambda celsius: None if celsius is None else celsius * 9.0 / 5.0 + 33.0).__code__
`)
	forgeRecord(t, dir, "CASE WHEN (`celsius` IS NULL) THEN CAST(NULL AS DOUBLE) ELSE (((`celsius` * 9.0D) / 5.0D) + 33.0D) END", func(*evidence.Record) {})
	for _, mode := range []string{"on", "off"} {
		stdout, stderr, code := runCLI(t, dir, "verify", "--sandbox", mode)
		assert.Equal(t, exitFailed, code, "--sandbox %s: stderr: %s\nstdout: %s", mode, stderr, stdout)
		assert.Contains(t, stdout, "mismatch", mode)
	}
}
