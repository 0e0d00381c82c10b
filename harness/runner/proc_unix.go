//go:build unix

package runner

import (
	"context"
	"os"
	"os/exec"
	"syscall"
)

// SetProcessGroup makes cmd start in a process group of its own and marks
// it and every process it starts (through their inherited environment),
// so that KillProcessGroup also ends whatever the UDF started: its process
// group, its descendants, and on Linux those that left the group with
// setsid or were orphaned. It also bounds how long Wait waits for output
// pipes that a surviving grandchild holds open.
func SetProcessGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	if cmd.WaitDelay == 0 {
		cmd.WaitDelay = WaitDelay
	}
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	cmd.Env = append(cmd.Env, markerVar+"="+newMarker())
	adoptOrphans()
}

// KillProcessGroup kills cmd's process group (its id is cmd's pid), every
// process that descends from cmd or carries its mark, then cmd itself in
// case the group is already gone.
func KillProcessGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	killTree(cmd.Process.Pid, markerOf(cmd))
	_ = cmd.Process.Kill()
}

// Command is exec.CommandContext for a tool that runs user code or a
// runtime (a compiler, a JVM): in its own process group, killed whole
// when ctx ends, with Wait bounded as SetProcessGroup says.
func Command(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	SetProcessGroup(cmd)
	cmd.Cancel = func() error {
		KillProcessGroup(cmd)
		return nil
	}
	return cmd
}
