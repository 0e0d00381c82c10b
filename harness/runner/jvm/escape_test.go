package jvm

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/value"
)

// TestNoDescendantOutlivesRun: a Java original that starts `setsid sleep
// n` with the JVM's stdio inherited neither hangs Run or Close nor leaves
// the sleep running afterwards.
func TestNoDescendantOutlivesRun(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("finding descendants needs /proc")
	}
	u := parseUDF(t, "harness/runner/jvm/testdata/Escape.java", "Escape")
	r, err := New(context.Background(), u, Options{Limits: runner.Limits{Timeout: 15 * time.Second, MemoryMB: 256}, CacheDir: testCache})
	if err != nil {
		t.Fatal(err)
	}
	n := int64(100000 + rand.IntN(800000)) // a sleep no other process runs
	got, err := r.Run(context.Background(), column(value.IntOf(n)))
	if err != nil || len(got) != 1 || value.Token(got[0]) != fmt.Sprintf("i%d", n) {
		t.Fatalf("got %v, %v; want [%d]", got, err, n)
	}
	if len(sleepers(n)) == 0 {
		t.Fatal("the UDF did not start its sleep")
	}
	start := time.Now()
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("Close took %v", took)
	}
	if s := sleepers(n); len(s) > 0 {
		t.Errorf("sleep %d outlived the run: pids %v", n, s)
	}
}

// sleepers lists the live processes that run `sleep n`.
func sleepers(n int64) []string {
	want := fmt.Sprintf("sleep\x00%d\x00", n)
	var out []string
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !strings.HasSuffix(string(b), want) {
			continue
		}
		st, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if i := strings.LastIndexByte(string(st), ')'); i >= 0 && strings.HasPrefix(string(st[i+1:]), " Z") {
			continue
		}
		out = append(out, e.Name())
	}
	return out
}
