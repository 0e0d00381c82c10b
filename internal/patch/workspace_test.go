package patch

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMarkWorkspaceIgnoresItselfOnce(t *testing.T) {
	repo := t.TempDir()
	ws := filepath.Join(repo, ".udfx", "ToFahrenheit")
	require.NoError(t, MarkWorkspace(ws))
	ignore := filepath.Join(repo, ".udfx", ".gitignore")
	b, err := os.ReadFile(ignore)
	require.NoError(t, err)
	assert.Contains(t, string(b), "\n*\n")

	// A user's own edit of the file is kept.
	require.NoError(t, os.WriteFile(ignore, []byte("mine\n"), 0o644))
	require.NoError(t, MarkWorkspace(filepath.Join(repo, ".udfx", "spark")))
	b, err = os.ReadFile(ignore)
	require.NoError(t, err)
	assert.Equal(t, "mine\n", string(b))

	// A workspace outside any .udfx folder gets nothing.
	other := filepath.Join(repo, "scratch")
	require.NoError(t, MarkWorkspace(other))
	assert.NoDirExists(t, other)
}
