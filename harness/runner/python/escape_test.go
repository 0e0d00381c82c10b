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
)

// TestNoDescendantOutlivesRun: an original that starts `setsid sleep n`
// (which leaves the worker's process group and session) neither hangs
// Run or Close, with the worker's stderr inherited or not, nor leaves
// the sleep running afterwards.
func TestNoDescendantOutlivesRun(t *testing.T) {
	for _, name := range []string{"inherit", "bare"} {
		t.Run(name, func(t *testing.T) {
			u := parseUDF(t, "testdata/escape.py", name)
			r, err := New(context.Background(), u, Options{Limits: runner.Limits{Timeout: 15 * time.Second, MemoryMB: 512}, Python: venvPython(t)})
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
