//go:build linux

package jvm

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/runner/internal/proctest"
	"github.com/udfx/udfx/harness/value"
	"github.com/udfx/udfx/internal/sandbox"
)

// TestNoDescendantOutlivesRun: a Java original that starts `setsid sleep
// n` with the JVM's stdio inherited neither hangs Run or Close nor leaves
// the sleep running afterwards, in the sandbox or not, nor, for a sleep 1
// that would end by itself after the JVM, a zombie re-parented to udfx.
func TestNoDescendantOutlivesRun(t *testing.T) {
	for _, mode := range []sandbox.Mode{sandbox.On, sandbox.Off} {
		t.Run(string(mode), func(t *testing.T) {
			u := parseUDF(t, "harness/runner/jvm/testdata/Escape.java", "Escape")
			r, err := New(context.Background(), u, Options{Limits: runner.Limits{Timeout: 15 * time.Second, MemoryMB: 256, Sandbox: mode}, CacheDir: testCache})
			if err != nil {
				t.Fatal(err)
			}
			n := int64(100000 + rand.IntN(800000)) // a sleep no other process runs
			got, err := r.Run(context.Background(), column(value.IntOf(n), value.IntOf(1)))
			if err != nil || len(got) != 2 || value.Token(got[0]) != fmt.Sprintf("i%d", n) {
				t.Fatalf("got %v, %v; want [%d 1]", got, err, n)
			}
			if len(proctest.WaitForSleepers(n, 3*time.Second)) == 0 {
				t.Fatal("the UDF did not start its sleep")
			}
			start := time.Now()
			if err := r.Close(); err != nil {
				t.Fatal(err)
			}
			if took := time.Since(start); took > 10*time.Second {
				t.Errorf("Close took %v", took)
			}
			if s := proctest.Sleepers(n); len(s) > 0 {
				t.Errorf("sleep %d outlived the run: pids %v", n, s)
			}
			time.Sleep(1500 * time.Millisecond) // past the end of sleep 1
			if z := proctest.ZombieChildren(); len(z) > 0 {
				t.Errorf("dead descendants left unreaped: pids %v", z)
			}
		})
	}
}

// TestTimeoutKillsTheTree: a Java original that starts `setsid sleep n`
// and then never returns times out, and the kill reaches the sleep too,
// in the sandbox (where the JVM is bwrap's grandchild, in a process
// namespace of its own) or not.
func TestTimeoutKillsTheTree(t *testing.T) {
	for _, mode := range []sandbox.Mode{sandbox.On, sandbox.Off} {
		t.Run(string(mode), func(t *testing.T) {
			u := parseUDF(t, "harness/runner/jvm/testdata/EscapeSpin.java", "EscapeSpin")
			r := newRunner(t, u, runner.Limits{Timeout: 5 * time.Second, MemoryMB: 256, Sandbox: mode})
			n := int64(100000 + rand.IntN(800000))
			started := make(chan bool, 1)
			go func() { started <- len(proctest.WaitForSleepers(n, 60*time.Second)) > 0 }()
			_, err := r.Run(context.Background(), column(value.IntOf(n)))
			var te *runner.TimeoutError
			if !errors.As(err, &te) {
				t.Fatalf("got %v, want a TimeoutError", err)
			}
			if !<-started {
				t.Fatal("the UDF did not start its sleep")
			}
			if s := proctest.Sleepers(n); len(s) > 0 {
				t.Errorf("sleep %d outlived the timeout: pids %v", n, s)
			}
			if z := proctest.ZombieChildren(); len(z) > 0 {
				t.Errorf("dead descendants left unreaped: %v", z)
			}
		})
	}
}
