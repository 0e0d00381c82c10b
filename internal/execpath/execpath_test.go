package execpath

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLook(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	write := func(p string, mode os.FileMode) {
		require.NoError(t, os.WriteFile(p, []byte("#!/bin/sh\n"), mode))
	}
	write(filepath.Join(a, "tool"), 0o644) // not executable: skipped
	write(filepath.Join(b, "tool"), 0o755)
	require.NoError(t, os.Mkdir(filepath.Join(a, "dir"), 0o755)) // a folder: skipped
	path := "" + string(filepath.ListSeparator) + a + string(filepath.ListSeparator) + b

	assert.Equal(t, filepath.Join(b, "tool"), Look("tool", path))
	assert.Equal(t, "", Look("dir", path))
	assert.Equal(t, "", Look("missing", path))
	assert.Equal(t, "", Look("tool", ""))
}
