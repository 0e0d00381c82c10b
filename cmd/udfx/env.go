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
	// Getenv reads the environment (os.Getenv in main); nil reads an
	// empty one, so tests do not pick up the CI they run in.
	Getenv func(string) string
}

// getenv reads one variable through Getenv.
func (e *env) getenv(key string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(key)
}

// abs resolves a path argument against the work directory.
func (e *env) abs(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(e.WorkDir, p)
}
