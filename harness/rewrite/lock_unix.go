//go:build unix

package rewrite

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// LockWorkspace creates the UDF's workspace folder dir if needed and takes
// an exclusive flock on it for this run; a *LockedError when another run
// (another process, or another command in this one) holds it. The lock
// ends with unlock or with the process, so a crashed run never blocks the
// next one.
func LockWorkspace(dir string) (unlock func(), err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("workspace %s: %w", dir, err)
	}
	f, err := os.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("workspace %s: %w", dir, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, &LockedError{Path: dir}
		}
		return nil, fmt.Errorf("workspace %s: lock: %w", dir, err)
	}
	return func() { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }, nil
}
