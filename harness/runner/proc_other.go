//go:build !unix

package runner

import "os/exec"

// SetProcessGroup does nothing where there are no process groups.
func SetProcessGroup(cmd *exec.Cmd) {}

// KillProcessGroup kills cmd.
func KillProcessGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
