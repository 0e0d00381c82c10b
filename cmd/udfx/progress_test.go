package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeClock advances one second each time it is read, so progress lines
// carry deterministic times.
func fakeClock() func() time.Time {
	t := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	return func() time.Time {
		now := t
		t = t.Add(time.Second)
		return now
	}
}

// TestRewriteTalksOnATerminal pins the lines README's first command shows
// on a terminal: every step, with the time since the command began. That
// nothing of the kind is printed when stderr is not a terminal,
// TestRewriteCommandWritesAVerifiedSQLRewrite checks on the same example.
// Regenerate with go test ./cmd/udfx -run TestRewriteTalksOnATerminal -update.
func TestRewriteTalksOnATerminal(t *testing.T) {
	t.Parallel()
	dir := tempRepo(t)
	var stdout, stderr bytes.Buffer
	code := run([]string{"rewrite", "examples/scala-to-fahrenheit/ToFahrenheit.scala", "--target", "sql"},
		&env{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, WorkDir: dir, StderrTTY: true, Now: fakeClock()})
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
	got := stderr.String()
	// The benchmark's run count depends on how fast the machine is.
	got = regexp.MustCompile(`candidate \d+`).ReplaceAllString(got, "candidate N")
	golden := filepath.Join("testdata", "progress", "rewrite-scala.golden")
	if *update || os.Getenv("UDFX_UPDATE_GOLDEN") == "1" {
		require.NoError(t, os.WriteFile(golden, []byte(got), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	assert.Equal(t, string(want), got, "progress lines differ (regenerate with -update and review the diff)")
}
