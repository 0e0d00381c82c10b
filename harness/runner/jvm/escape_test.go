//go:build linux

package jvm

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/runner/internal/proctest"
	"github.com/udfx/udfx/harness/value"
)

// TestNoDescendantOutlivesRun: a Java original that starts `setsid sleep
// n` with the JVM's stdio inherited neither hangs Run or Close nor leaves
// the sleep running afterwards, nor, for a sleep 1 that would end by
// itself after the JVM, a zombie re-parented to udfx.
func TestNoDescendantOutlivesRun(t *testing.T) {
	u := parseUDF(t, "harness/runner/jvm/testdata/Escape.java", "Escape")
	r, err := New(context.Background(), u, Options{Limits: runner.Limits{Timeout: 15 * time.Second, MemoryMB: 256}, CacheDir: testCache})
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
}
