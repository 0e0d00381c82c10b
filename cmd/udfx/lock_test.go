//go:build unix

package main

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/internal/patch"
)

// TestSecondRunOnAUDFIsRefused: while one run holds a UDF's workspace,
// scaffold, rewrite and test on the same UDF stop at once with exit 3 and
// say which workspace is held; once it is free, the next run proceeds.
func TestSecondRunOnAUDFIsRefused(t *testing.T) {
	repo := scaffoldRepo(t)
	ws := filepath.Join(repo, ".udfx", "to_fahrenheit")
	unlock, err := patch.LockWorkspace(ws)
	require.NoError(t, err)
	const target = "examples/python-celsius/celsius.py:to_fahrenheit"
	for _, args := range [][]string{
		{"scaffold", target, "--rows", "50"},
		{"rewrite", target, "--rows", "50"},
		{"test", target, "--sql", "celsius * 9.0D / 5.0D + 32.0D", "--rows", "50"},
	} {
		stdout, stderr, code := runWith(t, repo, args...)
		assert.Equal(t, exitInternal, code, "%v: stdout %s", args, stdout)
		assert.Contains(t, stderr, "another udfx run holds this UDF ("+ws+")", "%v", args)
	}
	unlock()
	stdout, stderr, code := runWith(t, repo, "scaffold", target, "--rows", "50")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
}
