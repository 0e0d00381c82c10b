package verify

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/evidence"
)

// Golden copies of rewrites in a testdata folder carry markers, but they
// are test inputs: the gate skips them unless asked to include them.
func TestWalkSkipsTestdataUnlessIncluded(t *testing.T) {
	root := t.TempDir()
	for _, rel := range []string{"jobs/rewrite.sql", "cmd/testdata/golden/rewrite.sql"} {
		p := filepath.Join(root, filepath.FromSlash(rel))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(evidence.MarkerLine(".sql", "udfx-rewrites/f/evidence.json")+"\nSELECT 1\n"), 0o644))
	}
	found, err := walk(root, false)
	require.NoError(t, err)
	require.Len(t, found.marked, 1)
	assert.Equal(t, filepath.Join(root, "jobs", "rewrite.sql"), found.marked[0].abs)

	found, err = walk(root, true)
	require.NoError(t, err)
	assert.Len(t, found.marked, 2)
}
