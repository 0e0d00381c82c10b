//go:build unix

package python

import (
	"os/exec"
	"syscall"
)

// setGroup puts the interpreter in a process group of its own, so that a
// kill also ends anything the UDF started.
func setGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

func killGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	// The group id is the interpreter's pid (Setpgid with Pgid 0).
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		cmd.Process.Kill()
	}
}
