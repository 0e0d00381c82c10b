//go:build !unix

package runner

import (
	"context"
	"os/exec"
)

// SetProcessGroup bounds how long Wait waits for output pipes; there are
// no process groups here.
func SetProcessGroup(cmd *exec.Cmd) {
	if cmd.WaitDelay == 0 {
		cmd.WaitDelay = WaitDelay
	}
}

// KillProcessGroup kills cmd.
func KillProcessGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}

// Command is exec.CommandContext with Wait bounded as SetProcessGroup says.
func Command(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	SetProcessGroup(cmd)
	return cmd
}
