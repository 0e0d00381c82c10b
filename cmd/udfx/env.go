package main

import (
	"io"
	"path/filepath"
	"time"

	"github.com/udfx/udfx/harness/progress"
	"github.com/udfx/udfx/harness/spark"
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
	// Now is the clock of progress lines (time.Now when nil; tests fix it
	// so the lines are golden).
	Now func() time.Time
	// Spark, when set, keeps Spark sessions running between the commands
	// this process runs, and commands take theirs from it; nil starts a
	// session per command and stops it at the command's end.
	Spark *spark.Pool
	// CacheDir is where udfx keeps what outlives a run, the proofs of
	// folder runs (proofs/) among them; os.UserCacheDir()/udfx when
	// empty. Tests give each their own.
	CacheDir string

	// branchCommitted, when set, is called after each commit of a
	// --branch build with the commits made so far; an error stops the
	// build there (tests stop one midway).
	branchCommitted func(n int) error

	// applyStep, when set, is the journal's AfterStep of a folder run's
	// --apply (applyjournal.Commit): tests stop the apply after any step,
	// as a kill would.
	applyStep func(step int) error

	rep *progress.Reporter
	// recovered counts the interrupted applies this command rolled back
	// before it ran (recoverApplies).
	recovered int
}

// progress is the run's step reporter: on a terminal, one line per step
// with the time since the command began; nil, which is silent, when
// stderr is a file or a pipe, so JSON and CI output stay clean.
func (e *env) progress() *progress.Reporter {
	if !e.StderrTTY {
		return nil
	}
	if e.rep == nil {
		e.rep = progress.New(e.Stderr, e.Now)
	}
	return e.rep
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
