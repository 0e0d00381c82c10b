//go:build !unix

package rewrite

import (
	"fmt"
	"os"
)

// LockWorkspace creates the UDF's workspace folder; there is no flock
// here, so concurrent runs on one UDF are not detected.
func LockWorkspace(dir string) (unlock func(), err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("workspace %s: %w", dir, err)
	}
	return func() {}, nil
}
