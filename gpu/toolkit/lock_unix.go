//go:build unix

package toolkit

import (
	"context"
	"errors"
	"os"
	"syscall"
	"time"
)

// errLocked is lockFile's answer when the context ends while it waits.
var errLocked = errors.New("another udfx run holds the lock")

// lockFile takes an exclusive flock on path, as harness/pyenv does for the
// Python environment: parallel test packages and two udfx runs wait for
// the one that installs. The lock ends with the process.
func lockFile(ctx context.Context, path string, waiting func()) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	said := false
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() { syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }, nil
		}
		if err != syscall.EWOULDBLOCK {
			f.Close()
			return nil, err
		}
		if !said {
			waiting()
			said = true
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, errLocked
		case <-time.After(200 * time.Millisecond):
		}
	}
}
