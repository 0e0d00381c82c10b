// Package execpath finds executables on a PATH the caller gives, not the
// process's own, so that the runners' tests can inject one.
package execpath

import (
	"os"
	"path/filepath"
)

// Look returns the first executable file named name in the folders of
// path (a PATH value), "" when there is none.
func Look(name, path string) string {
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			continue
		}
		p := filepath.Join(dir, name)
		if IsExecutable(p) {
			return p
		}
	}
	return ""
}

// IsExecutable reports whether p is a file (not a folder) with an execute
// bit set.
func IsExecutable(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir() && st.Mode()&0o111 != 0
}
