package filelock

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLockExcludesAndWaits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	unlock, err := TryLock(path)
	require.NoError(t, err)
	_, err = TryLock(path)
	assert.ErrorIs(t, err, ErrHeld, "flock excludes a second open file description in the same process too")

	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	waited := 0
	_, err = Lock(ctx, path, func() { waited++ })
	assert.ErrorIs(t, err, ErrHeld)
	assert.Equal(t, 1, waited, "says it waits once")

	unlock()
	unlock2, err := Lock(context.Background(), path, nil)
	require.NoError(t, err)
	unlock2()
}
