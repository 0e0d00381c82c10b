//go:build linux

package sandbox

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// contained runs a program (bash -c script by default) through Start
// under mode and returns its combined output and error.
func contained(t *testing.T, mode Mode, p Paths, dir, script string, argv ...string) (string, error) {
	t.Helper()
	d, err := Decide(mode)
	require.NoError(t, err, "the sandbox tests need bubblewrap: apt-get install bubblewrap")
	require.Equal(t, mode == On, d.Contained())
	if argv == nil {
		argv = []string{"bash", "-c", script}
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "UDFX_SANDBOX_TEST=kept")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	require.NoError(t, d.Start(cmd, p))
	err = cmd.Wait()
	return out.String(), err
}

// listening accepts connections on ln until the test ends, and signals
// each.
func listening(t *testing.T, ln net.Listener) <-chan struct{} {
	t.Cleanup(func() { ln.Close() })
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
	return accepted
}

func noConnection(t *testing.T, accepted <-chan struct{}) {
	t.Helper()
	select {
	case <-accepted:
		t.Fatal("the listener of the host got a connection from the sandbox")
	case <-time.After(200 * time.Millisecond):
	}
}

func aConnection(t *testing.T, accepted <-chan struct{}) {
	t.Helper()
	select {
	case <-accepted:
	case <-time.After(5 * time.Second):
		t.Fatal("uncontained, the listener got no connection")
	}
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
	accepted := listening(t, ln)
	port := ln.Addr().(*net.TCPAddr).Port
	script := fmt.Sprintf(`echo hi > /dev/tcp/127.0.0.1/%d && echo connected`, port)

	out, err := contained(t, On, Paths{}, t.TempDir(), script)
	require.Error(t, err, out)
	assert.Contains(t, out, "Connection refused")
	noConnection(t, accepted)

	out, err = contained(t, Off, Paths{}, t.TempDir(), script)
	require.NoError(t, err, out)
	assert.Equal(t, "connected\n", out)
	aConnection(t, accepted)
}

// TestNoUnixSockets: a Unix socket in the file system (a daemon's, here
// the test's own in its temporary folder) is out of reach contained: the
// original cannot create a Unix socket at all; it can still make a
// socketpair, which connects it only to itself. Uncontained, it connects.
func TestNoUnixSockets(t *testing.T) {
	dir := t.TempDir()
	sock := filepath.Join(dir, "daemon.sock")
	ln, err := net.Listen("unix", sock)
	require.NoError(t, err)
	accepted := listening(t, ln)
	script := fmt.Sprintf(`import socket
a, b = socket.socketpair()
print("socketpair ok")
c = socket.socket(socket.AF_UNIX)
c.connect(%q)
print("connected")`, sock)

	out, err := contained(t, On, Paths{}, dir, "", "python3", "-c", script)
	require.Error(t, err, out)
	assert.Contains(t, out, "socketpair ok\n")
	assert.Contains(t, out, "PermissionError: [Errno 1] Operation not permitted")
	assert.NotContains(t, out, "connected")
	noConnection(t, accepted)

	out, err = contained(t, Off, Paths{}, dir, "", "python3", "-c", script)
	require.NoError(t, err, out)
	assert.Equal(t, "socketpair ok\nconnected\n", out)
	aConnection(t, accepted)
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
	pwd, err := exec.LookPath("pwd")
	require.NoError(t, err)
	cmd := exec.Command("pwd")
	cmd.Dir = "."
	var out bytes.Buffer
	cmd.Stdout = &out
	require.NoError(t, d.Start(cmd, Paths{}))
	require.NoError(t, cmd.Wait())
	require.Equal(t, d.tool.Path, cmd.Path)
	wd, err := os.Getwd()
	require.NoError(t, err)
	at := slices.Index(cmd.Args, "--chdir")
	require.GreaterOrEqual(t, at, 0, cmd.Args)
	require.Equal(t, []string{"--chdir", wd, "--", "/bin/sh", "-c", launcher, "udfx-init"}, cmd.Args[at:at+7])
	require.Empty(t, cmd.Env, "the launcher's shells get no environment; the command gets its own through env(1)")
	require.Equal(t, pwd, cmd.Args[len(cmd.Args)-1])
	assert.Equal(t, wd, strings.TrimSpace(out.String()))
}

// Issue 26, forgery 9: repository code that checks whether it is PID 1
// (or its parent is) at import can behave one way under verify and
// another in the job. Contained, the command looks at itself and sees
// what it sees uncontained: an ordinary PID and parent, exactly the same
// environment, user, host name and folder, and the exit status it chose.
// (What the file system shows differs by design: a private /tmp, no
// writes. bash, for one, drops an inherited OLDPWD that names a folder it
// cannot see, so the environment is read by env(1) itself.)
func TestTheCommandCannotTellItIsContained(t *testing.T) {
	const look = `echo "pid=$$ ppid=$PPID"; id -u; id -g; hostname; pwd; exit 7`
	// A variable whose name is no shell name: a shell between udfx and
	// the command would drop it.
	t.Setenv("UDFX-SANDBOX-TEST", "kept")
	envTool, err := exec.LookPath("env")
	require.NoError(t, err)
	dir := t.TempDir()
	seen, envs := map[Mode]string{}, map[Mode]string{}
	for _, mode := range []Mode{Off, On} {
		out, err := contained(t, mode, Paths{}, dir, look)
		var exit *exec.ExitError
		require.ErrorAs(t, err, &exit, out)
		assert.Equal(t, 7, exit.ExitCode(), "the command's own exit status comes back (%s)", mode)
		first, rest, _ := strings.Cut(out, "\n")
		var pid, ppid int
		_, err = fmt.Sscanf(first, "pid=%d ppid=%d", &pid, &ppid)
		require.NoError(t, err, out)
		assert.Greater(t, pid, 2, "%s: %s", mode, first)
		assert.Greater(t, ppid, 2, "%s: %s", mode, first)
		seen[mode] = rest

		env, err := contained(t, mode, Paths{}, dir, "", envTool)
		require.NoError(t, err, env)
		lines := strings.Split(strings.TrimSpace(env), "\n")
		slices.Sort(lines)
		assert.Contains(t, lines, "UDFX-SANDBOX-TEST=kept", mode)
		envs[mode] = strings.Join(lines, "\n")
	}
	assert.Equal(t, seen[Off], seen[On])
	assert.Equal(t, envs[Off], envs[On], "the environment, byte for byte")

	// The PID differs from one start to the next, so it does not mark
	// the sandbox either.
	pids := map[string]bool{}
	for range 3 {
		out, err := contained(t, On, Paths{}, dir, `echo $$`)
		require.NoError(t, err, out)
		pids[out] = true
	}
	assert.Greater(t, len(pids), 1)
}
