//go:build unix

package applyjournal

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/filelock"
)

// An apply or a roll back running in another process holds the journal:
// neither a commit nor a recovery touches it then.
func TestAJournalInUseIsLeftAlone(t *testing.T) {
	f := newFixture(t)
	f.crashAfter(t, len(f.files)+3)
	half := snapshot(t, f.root)
	unlock, err := filelock.TryLock(lockPath(f.dir))
	require.NoError(t, err)
	_, err = Recover(f.root, f.dir)
	var be *BusyError
	require.ErrorAs(t, err, &be)
	err = (&Commit{Root: f.root, Dir: f.dir, UDF: "to_fahrenheit", Files: f.files}).Run()
	require.ErrorAs(t, err, &be)
	assert.Equal(t, half, snapshot(t, f.root))
	unlock()

	// Free, the open journal stops a new apply until it is rolled back.
	err = (&Commit{Root: f.root, Dir: f.dir, UDF: "to_fahrenheit", Files: f.files}).Run()
	var oe *OpenError
	require.ErrorAs(t, err, &oe)
	assert.Equal(t, half, snapshot(t, f.root))
}
