//go:build unix && !linux

package runner

import "syscall"

// adoptOrphans does nothing where there is no child subreaper.
func adoptOrphans() {}

// killTree kills root's process group: without /proc, that is all there
// is.
func killTree(root int, mark string) {
	_ = syscall.Kill(-root, syscall.SIGKILL)
}
