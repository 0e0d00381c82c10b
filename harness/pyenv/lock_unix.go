//go:build unix

package pyenv

import (
	"context"
	"os"
	"syscall"
	"time"
)

// lockFile takes an exclusive flock on path, waiting (and saying so once
// through waiting) while another process holds it. The lock ends with the
// process, so a crashed holder never blocks the next run.
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
			return nil, ErrLocked
		case <-time.After(200 * time.Millisecond):
		}
	}
}
