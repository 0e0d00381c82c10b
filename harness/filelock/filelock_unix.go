//go:build unix

// Package filelock takes exclusive locks on files with flock, so that two
// udfx runs (or parallel test packages) never build the same cache or work
// in the same workspace at once. A lock ends with its process, so a
// crashed holder never blocks the next run.
package filelock

import (
	"context"
	"errors"
	"os"
	"syscall"
	"time"
)

// ErrHeld is returned when the lock is taken: by TryLock at once, by Lock
// when its context ends while it waits.
var ErrHeld = errors.New("another udfx run holds the lock")

// Lock waits for an exclusive lock on path (created if missing), calling
// waiting once if it has to wait, and returns the function that releases
// it.
func Lock(ctx context.Context, path string, waiting func()) (func(), error) {
	said := false
	for {
		unlock, err := TryLock(path)
		if !errors.Is(err, ErrHeld) {
			return unlock, err
		}
		if !said && waiting != nil {
			waiting()
			said = true
		}
		select {
		case <-ctx.Done():
			return nil, ErrHeld
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// TryLock takes the lock on path if it is free and returns ErrHeld at
// once if not.
func TryLock(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if err == nil {
		return func() { syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }, nil
	}
	f.Close()
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return nil, ErrHeld
	}
	return nil, err
}
