// Package treetest snapshots a folder for tests that must show a tree is
// exactly what it was: every file's bytes and mode, every folder.
package treetest

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Snapshot maps each file below root (relative, slash-separated) to its
// mode and content, and each folder, as the path with a trailing /, to its
// mode. A symbolic link maps to its mode and target (it is not followed);
// another file that is not a regular one (a named pipe, a socket) to its
// mode only, since reading it could block. The top-level entries named in
// skip (.git, .udfx) are left out.
func Snapshot(t testing.TB, root string, skip ...string) map[string]string {
	t.Helper()
	skipped := map[string]bool{}
	for _, s := range skip {
		skipped[s] = true
	}
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == root {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if skipped[rel] {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			out[rel+"/"] = info.Mode().String()
			return nil
		case info.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			out[rel] = fmt.Sprintf("%s\n-> %s", info.Mode(), target)
			return err
		case !info.Mode().IsRegular():
			out[rel] = info.Mode().String()
			return nil
		}
		b, err := os.ReadFile(p)
		out[rel] = fmt.Sprintf("%s\n%s", info.Mode(), b)
		return err
	})
	if err != nil {
		t.Fatalf("snapshot %s: %v", root, err)
	}
	return out
}

// Copy copies the tree below from to to: folders, and regular files with
// their permission bits (a test's repository, .git included, as a user's
// clone would be).
func Copy(t testing.TB, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, p)
		if err != nil {
			return err
		}
		target := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, info.Mode().Perm())
	})
	if err != nil {
		t.Fatalf("copy %s to %s: %v", from, to, err)
	}
}

// GitRepo is a new git repository in a temporary folder, with run (git
// with an identity of its own, failing the test on an error) and write
// (a file's content, its folders made).
func GitRepo(t testing.TB) (dir string, run func(args ...string), write func(name, text string)) {
	t.Helper()
	dir = t.TempDir()
	run = func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.email=t@example.com", "-c", "user.name=t"}, args...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
	}
	write = func(name, text string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run("init", "-q")
	return dir, run, write
}
