//go:build unix

package patch

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLockWorkspace: a second run on the same UDF is refused with the
// path while the first holds it, and may run once it is done.
func TestLockWorkspace(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".udfx", "to_fahrenheit")
	unlock, err := LockWorkspace(dir)
	require.NoError(t, err)
	_, err = LockWorkspace(dir)
	var le *LockedError
	require.ErrorAs(t, err, &le)
	assert.Equal(t, "another udfx run holds this UDF ("+dir+"): wait for it to finish", err.Error())
	other, err := LockWorkspace(filepath.Join(filepath.Dir(dir), "other"))
	require.NoError(t, err, "another UDF is not held")
	other()
	unlock()
	unlock, err = LockWorkspace(dir)
	require.NoError(t, err)
	unlock()
}
