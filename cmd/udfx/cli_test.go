package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestHelpAndVersion(t *testing.T) {
	stdout, stderr, code := runCLI(t, repoRoot(t), "--help")
	assert.Equal(t, 0, code)
	assert.Empty(t, stderr)
	assert.Contains(t, stdout, "scan")
	assert.Contains(t, stdout, "Find the UDFs in Scala, Java and Python source")

	stdout, _, code = runCLI(t, repoRoot(t), "scan", "--help")
	assert.Equal(t, 0, code)
	for _, want := range []string{"--format", "table, json or sarif", "Exit codes", "udfx scan examples"} {
		assert.Contains(t, stdout, want)
	}

	stdout, _, code = runCLI(t, repoRoot(t), "version")
	assert.Equal(t, 0, code)
	assert.True(t, strings.HasPrefix(stdout, "udfx "+version+" "), stdout)

	_, stderr, code = runCLI(t, repoRoot(t), "frobnicate")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, `unknown command "frobnicate"`)
}

func TestScanNoUDFsExitsZero(t *testing.T) {
	dir := t.TempDir()
	stdout, stderr, code := runCLI(t, dir, "scan")
	assert.Equal(t, 0, code)
	assert.Empty(t, stderr)
	assert.Equal(t, "0 UDFs in 0 files scanned\n", stdout)
}

func TestScanTableWarnsAboutUnparsableFiles(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "bad.py"), []byte("def f(:\n"), 0o644))
	stdout, stderr, code := runCLI(t, dir, "scan")
	assert.Equal(t, 0, code)
	assert.Equal(t, "0 UDFs in 1 file scanned, 1 file could not be parsed\n", stdout)
	assert.Regexp(t, `^warning: bad\.py:1:\d+: syntax error.* \(file skipped\)\n$`, stderr)
}

func TestScanShowsProgressOnATerminalOnly(t *testing.T) {
	root := repoRoot(t)
	scanWith := func(tty bool) string {
		var stdout, stderr bytes.Buffer
		e := &env{Stdout: &stdout, Stderr: &stderr, WorkDir: root, StderrTTY: tty}
		cmd := newRootCmd(e)
		// Show the bar at once instead of after a moment.
		scanCmd, _, err := cmd.Find([]string{"scan"})
		require.NoError(t, err)
		scanCmd.RunE = func(c *cobra.Command, args []string) error {
			return runScan(c, e, &scanOptions{format: "json", progressAfter: -time.Second}, args)
		}
		cmd.SetArgs([]string{"scan", "examples"})
		require.NoError(t, cmd.Execute())
		assert.Contains(t, stdout.String(), `"udfs"`, "the report still goes to stdout")
		return stderr.String()
	}
	assert.Contains(t, scanWith(true), "scanning")
	assert.Empty(t, scanWith(false))
}

// README shows the main job's output; keep it what udfx really prints.
func TestREADMEShowsTheRealScanOfTheExamples(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(repoRoot(t), "README.md"))
	require.NoError(t, err)
	stdout, _, code := runCLI(t, repoRoot(t), "scan", "examples")
	require.Equal(t, 0, code)
	assert.Contains(t, string(readme), "go run ./cmd/udfx scan examples")
	assert.Contains(t, string(readme), "```\n"+stdout+"```", "README's example output is stale: paste the output of `go run ./cmd/udfx scan examples`")
}
