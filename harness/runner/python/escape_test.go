//go:build linux

package python

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/runner/internal/proctest"
	"github.com/udfx/udfx/harness/value"
	"github.com/udfx/udfx/internal/sandbox"
)

// TestNoDescendantOutlivesRun: an original that starts `setsid sleep n`
// (which leaves the worker's process group and session) neither hangs
// Run or Close, with the worker's stderr inherited or not, nor leaves
// the sleep running afterwards, in the sandbox or not.
func TestNoDescendantOutlivesRun(t *testing.T) {
	for _, mode := range []sandbox.Mode{sandbox.On, sandbox.Off} {
		for _, name := range []string{"inherit", "bare"} {
			t.Run(string(mode)+"/"+name, func(t *testing.T) {
				u := parseUDF(t, "testdata/escape.py", name)
				r, err := New(context.Background(), u, Options{Limits: runner.Limits{Timeout: 15 * time.Second, MemoryMB: 512, Sandbox: mode}, Python: venvPython(t)})
				require.NoError(t, err)
				n := int64(100000 + rand.IntN(800000)) // a sleep no other process runs
				start := time.Now()
				got, err := r.Run(context.Background(), [][]value.Value{{value.IntOf(n)}})
				require.NoError(t, err)
				require.Equal(t, []string{fmt.Sprintf("i%d", n)}, tokens(got))
				require.NotEmpty(t, proctest.WaitForSleepers(n, 3*time.Second), "the UDF did not start its sleep")
				require.NoError(t, r.Close())
				require.Less(t, time.Since(start), 20*time.Second)
				require.Empty(t, proctest.Sleepers(n), "sleep %d outlived the run", n)
				require.Empty(t, proctest.ZombieChildren(), "dead descendants left unreaped")
			})
		}
	}
}

// TestTimeoutKillsTheTree: an original that starts `setsid sleep n` and
// then never returns times out, and the kill reaches the sleep too, in
// the sandbox (where the interpreter is bwrap's grandchild, in a process
// namespace of its own) or not.
func TestTimeoutKillsTheTree(t *testing.T) {
	for _, mode := range []sandbox.Mode{sandbox.On, sandbox.Off} {
		t.Run(string(mode), func(t *testing.T) {
			u := parseUDF(t, "testdata/escape.py", "spin")
			r := newRunner(t, u, runner.Limits{Timeout: 3 * time.Second, MemoryMB: 512, Sandbox: mode})
			n := int64(100000 + rand.IntN(800000))
			started := make(chan bool, 1)
			go func() { started <- len(proctest.WaitForSleepers(n, 3*time.Second)) > 0 }()
			start := time.Now()
			_, err := r.Run(context.Background(), [][]value.Value{{value.IntOf(n)}})
			var te *runner.TimeoutError
			require.ErrorAs(t, err, &te)
			require.True(t, <-started, "the UDF did not start its sleep")
			require.Less(t, time.Since(start), 15*time.Second)
			require.Empty(t, proctest.Sleepers(n), "sleep %d outlived the timeout", n)
			require.Empty(t, proctest.ZombieChildren(), "dead descendants left unreaped")
		})
	}
}
