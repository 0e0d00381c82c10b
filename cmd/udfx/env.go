package main

import (
	"io"
	"path/filepath"
)

// env is what a command may touch of the outside world. main fills it from
// the process; tests inject buffers and a work directory so the whole CLI
// runs in-process.
type env struct {
	Stdin     io.Reader
	Stdout    io.Writer
	Stderr    io.Writer
	WorkDir   string
	StdoutTTY bool
	StderrTTY bool
}

// abs resolves a path argument against the work directory.
func (e *env) abs(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(e.WorkDir, p)
}
