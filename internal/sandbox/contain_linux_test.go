//go:build linux

package sandbox

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// contained runs a bash script through Wrap under mode and returns its
// combined output and error.
func contained(t *testing.T, mode Mode, p Paths, dir, script string) (string, error) {
	t.Helper()
	d, err := Decide(mode)
	require.NoError(t, err, "the sandbox tests need bubblewrap: apt-get install bubblewrap")
	require.Equal(t, mode == On, d.Contained())
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "UDFX_SANDBOX_TEST=kept")
	require.NoError(t, d.Wrap(cmd, p))
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestWritesOutsideTheWritableFolders: contained, a write into a folder
// of the host fails (read-only file system) and leaves nothing there; a
// writable folder and the private /tmp take writes, the latter without
// the host seeing them; the working folder and the environment are the
// caller's. Uncontained, the same write lands.
func TestWritesOutsideTheWritableFolders(t *testing.T) {
	host := t.TempDir()
	scratch := t.TempDir()
	work := t.TempDir()
	private := fmt.Sprintf("/tmp/udfx-sandbox-test-%d", time.Now().UnixNano())
	script := fmt.Sprintf(`pwd; echo "env=$UDFX_SANDBOX_TEST"
echo x > %[1]s/escaped && echo host-write-ok
echo x > %[2]s/out && echo scratch-write-ok
echo x > %[3]s && echo tmp-write-ok
exit 0`, host, scratch, private)

	out, err := contained(t, On, Paths{Writable: []string{scratch}}, work, script)
	require.NoError(t, err, out)
	assert.Contains(t, out, work+"\nenv=kept\n")
	assert.Contains(t, out, "escaped: Read-only file system")
	assert.NotContains(t, out, "host-write-ok")
	assert.NoFileExists(t, filepath.Join(host, "escaped"))
	assert.Contains(t, out, "scratch-write-ok")
	assert.FileExists(t, filepath.Join(scratch, "out"))
	assert.Contains(t, out, "tmp-write-ok")
	assert.NoFileExists(t, private, "the sandbox's /tmp is its own")

	out, err = contained(t, Off, Paths{}, work, script)
	require.NoError(t, err, out)
	assert.Contains(t, out, "host-write-ok")
	assert.FileExists(t, filepath.Join(host, "escaped"))
	require.NoError(t, os.Remove(private))
}

// TestNoNetwork: contained, a connection to a listener of the host on
// 127.0.0.1 reaches the sandbox's own loopback, where nothing listens;
// the listener gets nothing. Uncontained, it connects.
func TestNoNetwork(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	accepted := make(chan struct{}, 4)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
			accepted <- struct{}{}
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	script := fmt.Sprintf(`echo hi > /dev/tcp/127.0.0.1/%d && echo connected`, port)

	out, err := contained(t, On, Paths{}, t.TempDir(), script)
	require.Error(t, err, out)
	assert.Contains(t, out, "Connection refused")
	select {
	case <-accepted:
		t.Fatal("the listener on the host got a connection from the sandbox")
	case <-time.After(200 * time.Millisecond):
	}

	out, err = contained(t, Off, Paths{}, t.TempDir(), script)
	require.NoError(t, err, out)
	assert.Equal(t, "connected\n", out)
	select {
	case <-accepted:
	case <-time.After(5 * time.Second):
		t.Fatal("uncontained, the listener got no connection")
	}
}

// TestRootCannotRemount: the file system stays read-only for root in the
// sandbox, which has no capabilities to remount it.
func TestRootCannotRemount(t *testing.T) {
	host := t.TempDir()
	out, err := contained(t, On, Paths{}, host, fmt.Sprintf(`grep CapEff /proc/self/status
mount -o remount,rw / 2>&1 || echo remount-refused
echo x > %s/after-remount && echo wrote
exit 0`, host))
	require.NoError(t, err, out)
	assert.Contains(t, out, "CapEff:\t0000000000000000")
	assert.Contains(t, out, "remount-refused")
	assert.NotContains(t, out, "wrote")
	assert.NoFileExists(t, filepath.Join(host, "after-remount"))
}

// TestProgramFromPATHAndRelativeFolder: a program found on PATH runs
// under its resolved path, and a relative cmd.Dir resolves against the
// process's folder.
func TestProgramFromPATHAndRelativeFolder(t *testing.T) {
	d, err := Decide(On)
	require.NoError(t, err)
	cmd := exec.Command("pwd")
	cmd.Dir = "."
	require.NoError(t, d.Wrap(cmd, Paths{}))
	require.Equal(t, d.tool.Path, cmd.Path)
	wd, err := os.Getwd()
	require.NoError(t, err)
	require.Equal(t, []string{"--chdir", wd, "--"}, cmd.Args[len(cmd.Args)-4:len(cmd.Args)-1])
	out, err := cmd.Output()
	require.NoError(t, err)
	assert.Equal(t, wd, strings.TrimSpace(string(out)))
}
