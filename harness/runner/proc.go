package runner

import (
	"crypto/rand"
	"encoding/hex"
	"os/exec"
	"strings"
	"time"
)

// WaitDelay bounds how long exec.Cmd.Wait waits, once the process is
// gone, for a grandchild that inherited its stdout or stderr to close
// them: without it a UDF that starts `setsid sleep 1000` hangs udfx.
const WaitDelay = 2 * time.Second

// markerVar names the environment variable that marks every process a
// runner starts; descendants inherit it, which finds them after they left
// the process group.
const markerVar = "UDFX_RUN_MARK"

func newMarker() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// markerOf is cmd's mark, "" when SetProcessGroup did not mark it.
func markerOf(cmd *exec.Cmd) string {
	for i := len(cmd.Env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(cmd.Env[i], markerVar+"="); ok {
			return v
		}
	}
	return ""
}
