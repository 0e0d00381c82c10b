//go:build unix

package runner

import (
	"os/exec"
	"syscall"
)

// SetProcessGroup makes cmd start in a process group of its own, so that
// KillProcessGroup also ends whatever the UDF started.
func SetProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// KillProcessGroup kills cmd's process group (its id is cmd's pid), then
// cmd itself in case the group is already gone.
func KillProcessGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	_ = cmd.Process.Kill()
}
