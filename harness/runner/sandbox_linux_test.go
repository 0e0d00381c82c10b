//go:build linux

package runner

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/runner/internal/proctest"
	"github.com/udfx/udfx/internal/sandbox"
)

// TestContainedCommandLeavesNoZombie: a contained process that exits on
// its own (a compiler) leaves nothing for udfx, the subreaper of what its
// runners start, to reap: bwrap waits for its command itself.
func TestContainedCommandLeavesNoZombie(t *testing.T) {
	d, err := sandbox.Decide(sandbox.On)
	require.NoError(t, err, "the sandbox tests need bubblewrap: apt-get install bubblewrap")
	for range 3 {
		cmd := Command(context.Background(), "true")
		require.NoError(t, d.Start(cmd, sandbox.Paths{}))
		require.NoError(t, cmd.Wait())
	}
	time.Sleep(500 * time.Millisecond) // a process bwrap left behind has exited by now
	require.Empty(t, proctest.ZombieChildren(), "dead processes left to udfx")
}
