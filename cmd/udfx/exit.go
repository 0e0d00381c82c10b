package main

import (
	"errors"
	"fmt"
)

// Exit codes, shared by every command (README, "Exit codes").
const (
	exitOK       = 0
	exitFailed   = 1 // a check failed: a mismatch, a failed gate
	exitUsage    = 2 // bad flags, arguments or input paths
	exitInternal = 3 // udfx could not do its job
	// exitState: the repository is in a state udfx will not change on its
	// own, an interrupted --apply it cannot roll back (a file changed
	// since, a damaged journal).
	exitState = 4
)

// exitError carries an exit code up to main with the error to print.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func usageErrorf(format string, args ...any) error {
	return &exitError{code: exitUsage, err: fmt.Errorf(format, args...)}
}

func usageError(err error) error { return &exitError{code: exitUsage, err: err} }

func internalError(err error) error { return &exitError{code: exitInternal, err: err} }

func stateError(err error) error { return &exitError{code: exitState, err: err} }

// exitCode maps an error from a command to the process exit code. Errors
// that are not exitErrors come from cobra's own parsing of the command
// line, before any command ran: those are usage errors.
func exitCode(err error) int {
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	return exitUsage
}
