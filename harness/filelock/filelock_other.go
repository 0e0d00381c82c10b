//go:build !unix

package filelock

import (
	"context"
	"errors"
)

// ErrHeld is returned when the lock is taken.
var ErrHeld = errors.New("another udfx run holds the lock")

// Lock is a no-op where flock does not exist: two runs at once may then
// both build the same cache.
func Lock(ctx context.Context, path string, waiting func()) (func(), error) {
	return func() {}, nil
}

// TryLock is a no-op where flock does not exist.
func TryLock(path string) (func(), error) { return func() {}, nil }
