//go:build linux

package python

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/value"
	"github.com/udfx/udfx/internal/sandbox"
)

// hostileRunner starts a UDF of testdata/hostile.py, copied into a
// temporary folder of the test as a repository's file would be, under
// the sandbox mode.
func hostileRunner(t *testing.T, name string, mode sandbox.Mode) *Runner {
	t.Helper()
	src, err := os.ReadFile("testdata/hostile.py")
	require.NoError(t, err)
	file := filepath.Join(t.TempDir(), "hostile.py")
	require.NoError(t, os.WriteFile(file, src, 0o644))
	r := newRunner(t, parseUDF(t, file, name), runner.Limits{Timeout: 30 * time.Second, MemoryMB: 512, Sandbox: mode})
	if mode == sandbox.On {
		assert.Contains(t, r.Describe(), "; sandboxed (bubblewrap: read-only file system, private /tmp, no network)")
	} else {
		assert.Contains(t, r.Describe(), "; not sandboxed (--sandbox off)")
	}
	return r
}

// TestSandboxStopsWrites: an original that writes into a folder of the
// host (another temporary folder of the test, writable to it) fails with
// the sandbox on, and the file is not there; with it off, the file is
// written.
func TestSandboxStopsWrites(t *testing.T) {
	for _, mode := range []sandbox.Mode{sandbox.On, sandbox.Off} {
		t.Run(string(mode), func(t *testing.T) {
			r := hostileRunner(t, "write_file", mode)
			target := filepath.Join(t.TempDir(), "escaped")
			got, err := r.Run(context.Background(), [][]value.Value{{value.StringOf(target)}})
			require.NoError(t, err)
			require.Len(t, got, 1)
			if mode == sandbox.On {
				assert.Equal(t, value.ErrorOf("OSError", "[Errno 30] Read-only file system: '"+target+"'"), got[0])
				assert.NoFileExists(t, target)
				return
			}
			assert.Equal(t, value.StringOf("written"), got[0])
			assert.FileExists(t, target)
		})
	}
}

// TestSandboxStopsConnections: an original that connects to a listener
// the test opens on 127.0.0.1 fails with the sandbox on (its loopback is
// its own: nothing listens there) and the listener gets no connection;
// with it off, it connects.
func TestSandboxStopsConnections(t *testing.T) {
	for _, mode := range []sandbox.Mode{sandbox.On, sandbox.Off} {
		t.Run(string(mode), func(t *testing.T) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			require.NoError(t, err)
			defer ln.Close()
			accepted := make(chan struct{}, 1)
			go func() {
				if c, err := ln.Accept(); err == nil {
					c.Close()
					accepted <- struct{}{}
				}
			}()
			r := hostileRunner(t, "connect", mode)
			port := int64(ln.Addr().(*net.TCPAddr).Port)
			got, err := r.Run(context.Background(), [][]value.Value{{value.IntOf(port)}})
			require.NoError(t, err)
			require.Len(t, got, 1)
			if mode == sandbox.On {
				assert.Equal(t, value.ErrorOf("ConnectionRefusedError", "[Errno 111] Connection refused"), got[0])
				select {
				case <-accepted:
					t.Fatal("the listener got a connection from the sandbox")
				case <-time.After(200 * time.Millisecond):
				}
				return
			}
			assert.Equal(t, value.StringOf("connected"), got[0])
			select {
			case <-accepted:
			case <-time.After(5 * time.Second):
				t.Fatal("the listener got no connection")
			}
		})
	}
}
