package sandbox

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseMode(t *testing.T) {
	for _, s := range []string{"auto", "on", "off"} {
		m, err := ParseMode(s)
		require.NoError(t, err)
		assert.Equal(t, Mode(s), m)
	}
	for _, s := range []string{"", "yes", "ON"} {
		_, err := ParseMode(s)
		assert.EqualError(t, err, `unknown --sandbox "`+s+`": want auto, on or off`)
	}
}

// TestArgs pins the bwrap command line: the read-only root first, the
// private /tmp before the folders under it, a tree in /tmp bound whole
// from its entry in /tmp, the writable folders last and parents first,
// the namespaces, and the command after "--".
func TestArgs(t *testing.T) {
	got := Args("/usr/bin/bwrap", "/repo/src", Paths{
		Writable: []string{"/home/u/.cache/udfx/jvm/classes/.build-1/out", "/home/u/.cache/udfx/jvm/classes/.build-1", "", "/tmp/udfx-w", "/tmp/udfx-w"},
		Readable: []string{"/tmp/TestX123/001/udf.py", "/tmp/TestX123/002", "/usr/lib/jvm/java-17", "/tmpfoo/x", "", "/tmp/udfx-python-9/driver.py"},
	}, 4, []string{"/usr/bin/python3", "-u", "driver.py"})
	want := []string{"/usr/bin/bwrap",
		"--ro-bind", "/", "/",
		"--dev", "/dev",
		"--proc", "/proc",
		"--tmpfs", "/tmp",
		"--ro-bind", "/tmp/TestX123", "/tmp/TestX123",
		"--ro-bind", "/tmp/udfx-python-9", "/tmp/udfx-python-9",
		"--bind", "/home/u/.cache/udfx/jvm/classes/.build-1", "/home/u/.cache/udfx/jvm/classes/.build-1",
		"--bind", "/home/u/.cache/udfx/jvm/classes/.build-1/out", "/home/u/.cache/udfx/jvm/classes/.build-1/out",
		"--bind", "/tmp/udfx-w", "/tmp/udfx-w",
		"--unshare-net", "--unshare-pid", "--unshare-ipc", "--as-pid-1",
		"--new-session", "--die-with-parent",
		"--cap-drop", "ALL",
		"--seccomp", "4",
		"--chdir", "/repo/src",
		"--", "/usr/bin/python3", "-u", "driver.py"}
	assert.Equal(t, want, got)
}

// A path that is /tmp itself shows the real /tmp, read-only, in place of
// the private one: binding its entries would not make the path readable.
func TestArgsReadableTmp(t *testing.T) {
	got := Args("bwrap", "/tmp", Paths{Readable: []string{"/tmp/a/b", "/tmp", "/tmp/"}}, -1, []string{"x"})
	assert.Equal(t, []string{"bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp",
		"--ro-bind", "/tmp", "/tmp",
		"--unshare-net", "--unshare-pid", "--unshare-ipc", "--as-pid-1", "--new-session", "--die-with-parent", "--cap-drop", "ALL",
		"--chdir", "/tmp", "--", "x"}, got)
}

// The seccomp filter exists for the architectures whose system call
// numbers udfx knows; elsewhere bwrap runs without one.
func TestFilter(t *testing.T) {
	assert.Len(t, filter("amd64"), 15*8)
	assert.Len(t, filter("arm64"), 15*8)
	assert.Nil(t, filter("riscv64"))
}

func TestDecideWithoutBwrap(t *testing.T) {
	t.Setenv(BwrapVar, filepath.Join(t.TempDir(), "no-bwrap"))

	_, err := Decide(On)
	var ue *UnavailableError
	require.True(t, errors.As(err, &ue), "got %v", err)
	assert.Equal(t, "bubblewrap not found", ue.Reason)
	assert.Contains(t, err.Error(), "apt-get install bubblewrap")
	assert.Contains(t, err.Error(), "--sandbox off")

	for _, m := range []Mode{Auto, ""} {
		d, err := Decide(m)
		require.NoError(t, err)
		assert.False(t, d.Contained())
		assert.Equal(t, "not sandboxed (bubblewrap not found)", d.String())
	}
	d, err := Decide(Off)
	require.NoError(t, err)
	assert.Equal(t, "not sandboxed (--sandbox off)", d.String())
}

// A bwrap that cannot create namespaces (a container that forbids them)
// fails the probe: unavailable, with bwrap's own words.
func TestDecideWithBrokenBwrap(t *testing.T) {
	fake := filepath.Join(t.TempDir(), "bwrap")
	require.NoError(t, os.WriteFile(fake, []byte("#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n"), 0o755))
	t.Setenv(BwrapVar, fake)

	_, err := Decide(On)
	var ue *UnavailableError
	require.True(t, errors.As(err, &ue), "got %v", err)
	assert.Equal(t, "bubblewrap does not work here", ue.Reason)
	assert.Contains(t, ue.Detail, "No permissions to create new namespace")
	assert.Contains(t, err.Error(), "it needs namespaces (user, mount, pid, network) that this machine or container refuses")
	assert.NotContains(t, err.Error(), "apt-get install")
	d, err := Decide(Auto)
	require.NoError(t, err)
	assert.Equal(t, "not sandboxed (bubblewrap does not work here)", d.String())
}

// TestUnderTmpFollowsLinks: a path under /tmp whose link leads into
// another /tmp folder (a test repository's .venv linking to a checkout
// kept in /tmp) binds that folder too.
func TestUnderTmpFollowsLinks(t *testing.T) {
	a, err := os.MkdirTemp("/tmp", "udfx-links-a")
	require.NoError(t, err)
	defer os.RemoveAll(a)
	b, err := os.MkdirTemp("/tmp", "udfx-links-b")
	require.NoError(t, err)
	defer os.RemoveAll(b)
	require.NoError(t, os.MkdirAll(filepath.Join(b, "venv", "bin"), 0o755))
	require.NoError(t, os.Symlink(filepath.Join(b, "venv"), filepath.Join(a, ".venv")))
	got := underTmp([]string{filepath.Join(a, ".venv", "bin", "python")})
	assert.Equal(t, []string{a, b}, got)
}
