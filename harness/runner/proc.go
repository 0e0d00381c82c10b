package runner

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"io"
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

// Pipes makes cmd a child udfx talks to over its standard streams: in its
// own process group (SetProcessGroup, so a kill reaches its children),
// with a pipe to its stdin and a buffered reader of its stdout. Call it
// after cmd's environment is set (the group's mark is added to it) and
// before the command starts.
func Pipes(cmd *exec.Cmd) (stdin io.WriteCloser, stdout *bufio.Reader, err error) {
	SetProcessGroup(cmd)
	if stdin, err = cmd.StdinPipe(); err != nil {
		return nil, nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, err
	}
	return stdin, bufio.NewReaderSize(out, 1<<16), nil
}
