// Package progress tells a person at a terminal what a long udfx run is
// doing: one line per step, with the time since the run began, so that a
// first run that builds a Python environment, compiles the original and
// starts a JVM never sits silent. JSON and CI output stay clean because a
// command makes a Reporter only when stderr is a terminal.
package progress

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// Reporter writes step lines. A nil *Reporter is silent, so callers need
// no terminal checks of their own.
type Reporter struct {
	mu    sync.Mutex
	w     io.Writer
	now   func() time.Time
	start time.Time
	last  string
}

// New starts a reporter on w; now is the clock (time.Now when nil; tests
// pass a fake one so the lines are golden).
func New(w io.Writer, now func() time.Time) *Reporter {
	if now == nil {
		now = time.Now
	}
	return &Reporter{w: w, now: now, start: now()}
}

// Step announces a step. A step repeated at once is not printed again.
func (r *Reporter) Step(step string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if step == r.last {
		return
	}
	r.last = step
	fmt.Fprintf(r.w, "udfx [%6.1fs] %s\n", r.now().Sub(r.start).Seconds(), step)
}

// Stepf is Step with formatting.
func (r *Reporter) Stepf(format string, args ...any) {
	if r == nil {
		return
	}
	r.Step(fmt.Sprintf(format, args...))
}

// Func is Step as a callback for the library options that take one; nil
// for a nil reporter, which those options treat as quiet.
func (r *Reporter) Func() func(string) {
	if r == nil {
		return nil
	}
	return r.Step
}
