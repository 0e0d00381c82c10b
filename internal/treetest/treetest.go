// Package treetest snapshots a folder for tests that must show a tree is
// exactly what it was: every file's bytes and mode, every folder.
package treetest

import (
	"fmt"
	"io/fs"
	"os"
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
