// Package runner runs an original UDF for real, row by row (or batch by
// batch for pandas_udf), as Spark would call it: the JVM runner compiles
// the user's Scala or Java source and calls it through a generated driver,
// the Python runner imports the user's module in CPython. Values cross the
// process boundary in the token codec of package value, exactly.
//
// This package holds what both runners share: the Runner interface, the
// limits every run has, and the typed errors that tell a user why the
// original could not be run.
package runner

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/udfx/udfx/harness/value"
	"github.com/udfx/udfx/internal/sandbox"
)

// Runner calls one UDF.
type Runner interface {
	// Run calls the UDF on each row (one value per parameter) and returns
	// one result per row: a value, or a value.Error for a row on which
	// the UDF threw. On a timeout it returns the results so far and a
	// *TimeoutError.
	Run(ctx context.Context, rows [][]value.Value) ([]value.Value, error)
	// Describe names the runtime, how the UDF is called and whether it
	// runs in the sandbox, for reports ("OpenJDK 17.0.15, scalac 2.13.17;
	// new ToFahrenheit().apply; sandboxed (bubblewrap: ...)").
	Describe() string
	// Close ends the process and removes temporary files.
	Close() error
}

// Limits bound every run: a runaway UDF is reported, not waited on.
type Limits struct {
	// Timeout bounds one Run call's evaluation of rows. Starting the
	// runtime and loading the UDF is bounded apart, by StartTimeout, so a
	// JVM that starts slowly on a loaded machine is not taken for a UDF
	// that loops.
	Timeout time.Duration
	// StartTimeout bounds starting the runtime and loading the UDF (JVM
	// start-up and class loading, CPython start-up and the module's
	// import); DefaultStartTimeout when zero.
	StartTimeout time.Duration
	// MemoryMB bounds the process's heap (JVM -Xmx; Python RLIMIT_AS).
	MemoryMB int
	// Sandbox says whether the processes that compile and run the
	// original are contained (package sandbox); the zero value is
	// sandbox.Auto.
	Sandbox sandbox.Mode
}

// DefaultLimits are generous for a UDF over a few hundred thousand rows.
var DefaultLimits = Limits{Timeout: 60 * time.Second, MemoryMB: 1024}

// DefaultStartTimeout bounds start-up when Limits.StartTimeout is zero:
// a JVM start with Spark's class path can take a minute on a busy 2-core
// machine.
const DefaultStartTimeout = 5 * time.Minute

// Start is the start-up bound in force.
func (l Limits) Start() time.Duration {
	if l.StartTimeout > 0 {
		return l.StartTimeout
	}
	return DefaultStartTimeout
}

// Contain decides how a runner's processes run under l.Sandbox. Where
// the sandbox is required and bubblewrap cannot provide it, the error is
// an *EnvError.
func (l Limits) Contain() (sandbox.Decision, error) {
	d, err := sandbox.Decide(l.Sandbox)
	var ue *sandbox.UnavailableError
	if errors.As(err, &ue) {
		return d, &EnvError{What: "sandbox", Msg: "--sandbox on, and " + ue.Error()}
	}
	return d, err
}

// EnvError says the machine lacks what running the original needs: no
// JDK, a JDK too old, no Scala compiler, no Python or pandas.
type EnvError struct {
	What string // "JDK", "Scala compiler", "Python", ...
	Msg  string // what is wrong and how to fix it
}

func (e *EnvError) Error() string {
	return e.What + ": " + e.Msg
}

// CompileError is the user's source failing to compile or import.
type CompileError struct {
	File string
	Line int // 0 when unknown
	Msg  string
}

func (e *CompileError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// NotCallableError says the UDF cannot be called on its own: a lambda
// registered inside main(), an RDD lambda, a class without a public
// no-argument constructor.
type NotCallableError struct {
	UDF    string
	Reason string
}

func (e *NotCallableError) Error() string {
	return fmt.Sprintf("cannot call %s outside its job: %s", e.UDF, e.Reason)
}

// TimeoutError is a run that hit Limits.Timeout; Row is the row being
// evaluated when it was stopped.
type TimeoutError struct {
	After time.Duration
	Row   int
	// Starting is true when the time ran out before the first row:
	// while the runtime started or the UDF's code loaded.
	Starting bool
}

func (e *TimeoutError) Error() string {
	if e.Starting {
		return fmt.Sprintf("starting the original (the runtime's start-up and loading the UDF's code, before any row) did not finish within %s: a very busy machine, or a static initializer or module import that never ends", e.After)
	}
	return fmt.Sprintf("the original did not finish evaluating its rows within %s (stopped at row %d; start-up is not counted): an endless loop, or raise --timeout", e.After, e.Row)
}

// CrashError is the process dying for another reason: out of memory,
// killed, a driver bug. Output holds the end of its stderr.
type CrashError struct {
	Row    int
	Reason string
	Output string
}

func (e *CrashError) Error() string {
	return fmt.Sprintf("the original's process died at row %d: %s", e.Row, e.Reason)
}
