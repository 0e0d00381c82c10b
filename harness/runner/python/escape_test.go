package python

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

	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/value"
)

// TestNoDescendantOutlivesRun: an original that starts `setsid sleep n`
// (which leaves the worker's process group and session) neither hangs
// Run or Close, with the worker's stderr inherited or not, nor leaves
// the sleep running afterwards.
func TestNoDescendantOutlivesRun(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("finding descendants needs /proc")
	}
	for _, name := range []string{"inherit", "bare"} {
		t.Run(name, func(t *testing.T) {
			u := parseUDF(t, "testdata/escape.py", name)
			r, err := New(context.Background(), u, Options{Limits: runner.Limits{Timeout: 15 * time.Second, MemoryMB: 512}, Python: venvPython(t)})
			require.NoError(t, err)
			n := 100000 + rand.IntN(800000) // a sleep no other process runs
			start := time.Now()
			got, err := r.Run(context.Background(), [][]value.Value{{value.IntOf(int64(n))}})
			require.NoError(t, err)
			require.Equal(t, []string{fmt.Sprintf("i%d", n)}, tokens(got))
			// setsid execs sleep after Popen returns: give it a moment.
			for wait := time.Now(); len(sleepers(n)) == 0 && time.Since(wait) < 3*time.Second; {
				time.Sleep(20 * time.Millisecond)
			}
			require.NotEmpty(t, sleepers(n), "the UDF did not start its sleep")
			require.NoError(t, r.Close())
			require.Less(t, time.Since(start), 20*time.Second)
			require.Empty(t, sleepers(n), "sleep %d outlived the run", n)
			require.Empty(t, zombieChildren(), "dead descendants left unreaped")
		})
	}
}

// sleepers lists the live processes that run `sleep n`.
func sleepers(n int) []string {
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

// zombieChildren lists this process's children that died and were not
// reaped: descendants re-parented to it (the subreaper) and left behind.
func zombieChildren() []string {
	self := fmt.Sprintf(" %d ", os.Getpid())
	var out []string
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		st, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		i := strings.LastIndexByte(string(st), ')')
		if i < 0 {
			continue
		}
		// ") Z ppid ..."
		if rest := string(st[i+1:]); strings.HasPrefix(rest, " Z") && strings.HasPrefix(rest[2:], self) {
			out = append(out, e.Name())
		}
	}
	return out
}
