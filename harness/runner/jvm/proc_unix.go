//go:build unix

package jvm

import (
	"os/exec"
	"syscall"
)

// setGroup starts the JVM in its own process group, so that a kill reaches
// every process it started.
func setGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

func killGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	// The group's id is the JVM's pid; kill the group, then the JVM in
	// case the group is already gone.
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	_ = cmd.Process.Kill()
}
