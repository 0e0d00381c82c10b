package patch

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/udfx/udfx/harness/filelock"
)

// LockedError is a UDF's workspace held by another udfx run: two runs on
// one UDF would overwrite each other's inputs, evidence and reports.
type LockedError struct {
	Path string
}

func (e *LockedError) Error() string {
	return fmt.Sprintf("another udfx run holds this UDF (%s): wait for it to finish", e.Path)
}

// LockWorkspace creates the UDF's workspace folder dir if needed and takes
// an exclusive lock for this run on dir+".lock" (beside it, in the .udfx
// folder that ignores itself); a *LockedError when another run (another
// process, or another command in this one) holds it. The lock ends with
// unlock or with the process, so a crashed run never blocks the next one.
func LockWorkspace(dir string) (unlock func(), err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("workspace %s: %w", dir, err)
	}
	unlock, err = filelock.TryLock(filepath.Clean(dir) + ".lock")
	if errors.Is(err, filelock.ErrHeld) {
		return nil, &LockedError{Path: dir}
	}
	if err != nil {
		return nil, fmt.Errorf("workspace %s: lock: %w", dir, err)
	}
	return unlock, nil
}
