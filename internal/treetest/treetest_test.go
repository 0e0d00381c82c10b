//go:build unix

package treetest

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestSnapshotOfSpecialFiles: a named pipe is not opened (that would
// block), a symbolic link, even one to itself, is recorded by its target.
func TestSnapshotOfSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("loop", filepath.Join(dir, "loop")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"pipe", "a.txt"} { // whatever the umask
		if err := os.Chmod(filepath.Join(dir, name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := Snapshot(t, dir)
	want := map[string]string{"pipe": "prw-r--r--", "loop": "Lrwxrwxrwx\n-> loop", "a.txt": "-rw-r--r--\na\n"}
	if len(got) != len(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: got %q, want %q", k, got[k], v)
		}
	}
}
