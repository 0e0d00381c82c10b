//go:build linux

package jvm

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/value"
	"github.com/udfx/udfx/internal/sandbox"
)

// TestSandboxStopsWrites: a Java original (its source in a temporary
// folder of the test, as a repository's would be) that writes into
// another folder of the test fails with the sandbox on, its exception
// naming the read-only file system, and the file is not there; with the
// sandbox off, the file is written. The compiler runs in the sandbox too.
func TestSandboxStopsWrites(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(repoRoot(t), "harness/runner/jvm/testdata/Hostile.java"))
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "Hostile.java")
	if err := os.WriteFile(file, src, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []sandbox.Mode{sandbox.On, sandbox.Off} {
		// Beside the source, in the test's own temporary folder: the
		// sandbox shows that tree read-only.
		target := filepath.Join(t.TempDir(), "escaped")
		t.Run(string(mode), func(t *testing.T) {
			r := newRunner(t, parseUDF(t, file, "Hostile"), runner.Limits{Timeout: 60 * time.Second, MemoryMB: 256, Sandbox: mode})
			got, err := r.Run(context.Background(), column(value.StringOf(target)))
			if err != nil || len(got) != 1 {
				t.Fatalf("got %v, %v; want one result", got, err)
			}
			_, statErr := os.Stat(target)
			if mode == sandbox.On {
				want := value.ErrorOf("java.nio.file.FileSystemException", target+": Read-only file system")
				if got[0].Class != want.Class || got[0].Message != want.Message {
					t.Errorf("got %v, want %v", got[0], want)
				}
				if statErr == nil {
					t.Error("the original wrote outside the sandbox")
				}
				if d := r.Describe(); !strings.HasSuffix(d, "; sandboxed (bubblewrap: read-only file system, private /tmp, no network)") {
					t.Errorf("Describe() = %q: it does not say the original ran sandboxed", d)
				}
				return
			}
			if value.Token(got[0]) != value.Token(value.StringOf("written")) || statErr != nil {
				t.Errorf("got %v (file: %v), want the file written", got[0], statErr)
			}
			if d := r.Describe(); !strings.HasSuffix(d, "; not sandboxed (--sandbox off)") {
				t.Errorf("Describe() = %q: it does not say the original ran unsandboxed", d)
			}
		})
	}
}

// TestSandboxStopsConnections: a Java original that connects to a
// listener the test opens on 127.0.0.1 fails with the sandbox on (its
// loopback is its own: nothing listens there) and the listener gets no
// connection; with the sandbox off, it connects.
func TestSandboxStopsConnections(t *testing.T) {
	u := parseUDF(t, "harness/runner/jvm/testdata/HostileConnect.java", "HostileConnect")
	for _, mode := range []sandbox.Mode{sandbox.On, sandbox.Off} {
		t.Run(string(mode), func(t *testing.T) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			accepted := make(chan struct{}, 1)
			go func() {
				if c, err := ln.Accept(); err == nil {
					c.Close()
					accepted <- struct{}{}
				}
			}()
			r := newRunner(t, u, runner.Limits{Timeout: 60 * time.Second, MemoryMB: 256, Sandbox: mode})
			got, err := r.Run(context.Background(), column(value.IntOf(int64(ln.Addr().(*net.TCPAddr).Port))))
			if err != nil || len(got) != 1 {
				t.Fatalf("got %v, %v; want one result", got, err)
			}
			if mode == sandbox.On {
				if got[0].Class != "java.net.ConnectException" || !strings.Contains(got[0].Message, "Connection refused") {
					t.Errorf("got %v, want a java.net.ConnectException: Connection refused", got[0])
				}
				select {
				case <-accepted:
					t.Error("the listener got a connection from the sandbox")
				case <-time.After(200 * time.Millisecond):
				}
				return
			}
			if value.Token(got[0]) != value.Token(value.StringOf("connected")) {
				t.Errorf("got %v, want connected", got[0])
			}
			select {
			case <-accepted:
			case <-time.After(5 * time.Second):
				t.Error("the listener got no connection with the sandbox off")
			}
		})
	}
}
