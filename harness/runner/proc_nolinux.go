//go:build unix && !linux

package runner

// adoptOrphans does nothing where there is no child subreaper.
func adoptOrphans() {}

// killMarked does nothing where there is no /proc: the process group
// kill is all there is.
func killMarked(root int, mark string) {}
