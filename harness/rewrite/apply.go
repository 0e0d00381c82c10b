package rewrite

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/udf"
)

// DirtyError refuses to apply a patch over uncommitted changes.
type DirtyError struct{ Files []string }

func (e *DirtyError) Error() string {
	return fmt.Sprintf("refusing to apply: uncommitted changes in %s (commit or stash them, or use --force)", strings.Join(e.Files, ", "))
}

// ChangedError says a file changed between the rewrite and applying it.
type ChangedError struct{ File string }

func (e *ChangedError) Error() string {
	return fmt.Sprintf("refusing to apply: %s changed since the rewrite was made; run udfx rewrite again", e.File)
}

// RepoRoot is the nearest folder at or above dir that holds .git, else
// dir itself.
func RepoRoot(dir string) string {
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// Apply writes changes into the repository at root. Every file is first
// checked: unchanged since the rewrite, and (unless force) without
// uncommitted changes. Each file is written through a temporary file and
// a rename; if any write fails, the files already written are restored
// and the created ones removed, so the repository is left as it was.
func Apply(root string, changes []FileChange, force bool) error {
	var dirty []string
	for _, c := range changes {
		path := filepath.Join(root, filepath.FromSlash(c.Path))
		cur, err := readIfExists(path)
		if err != nil {
			return err
		}
		if (cur == nil) != (c.Old == nil) || !bytes.Equal(cur, c.Old) {
			return &ChangedError{File: c.Path}
		}
		if !force && cur != nil {
			d, err := gitDirty(root, c.Path)
			if err != nil {
				return err
			}
			if d {
				dirty = append(dirty, c.Path)
			}
		}
	}
	if len(dirty) > 0 {
		return &DirtyError{Files: dirty}
	}
	var done []FileChange
	for _, c := range changes {
		path := filepath.Join(root, filepath.FromSlash(c.Path))
		if err := evidence.WriteFileAtomic(path, c.New, 0o644); err != nil {
			rollback(root, done)
			return fmt.Errorf("apply %s: %w (nothing was changed)", c.Path, err)
		}
		done = append(done, c)
	}
	return nil
}

func rollback(root string, done []FileChange) {
	for i := len(done) - 1; i >= 0; i-- {
		c := done[i]
		path := filepath.Join(root, filepath.FromSlash(c.Path))
		if c.Old == nil {
			os.Remove(path)
			// Remove the folders the rewrite created, if now empty.
			for d := filepath.Dir(path); d != root && len(d) > len(root); d = filepath.Dir(d) {
				if os.Remove(d) != nil {
					break
				}
			}
			continue
		}
		_ = evidence.WriteFileAtomic(path, c.Old, 0o644)
	}
}

// gitDirty reports whether git sees uncommitted changes in path. Outside
// a git repository there is nothing to compare with: not dirty.
func gitDirty(root, path string) (bool, error) {
	if _, err := os.Stat(filepath.Join(root, ".git")); errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	cmd := exec.Command("git", "status", "--porcelain", "--", path)
	cmd.Dir = root
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		return false, fmt.Errorf("git status %s: %w: %s", path, err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(out.String()) != "", nil
}

// AppliedSQL finds the SQL rewrite of u applied in the repository at
// root: the sql file listed by an evidence record under evidence.Dir whose
// original is u (u.File relative to root, slash-separated). It returns the
// expression and the file's path relative to root; ok is false when there
// is none.
func AppliedSQL(root string, u *udf.UDF) (sql, path string, ok bool, err error) {
	recs, err := filepath.Glob(filepath.Join(root, evidence.Dir, "*", evidence.FileName))
	if err != nil {
		return "", "", false, err
	}
	for _, p := range recs {
		rec, err := evidence.Read(p)
		if err != nil || rec.Original.File != u.File || rec.Original.Name != u.Name {
			continue
		}
		for _, rw := range rec.Rewrites {
			if rw.Target != TargetSQL {
				continue
			}
			b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rw.Path)))
			if err != nil {
				return "", "", false, fmt.Errorf("read the rewrite of %s: %w", u.Name, err)
			}
			return evidence.StripSQLComments(string(b)), rw.Path, true, nil
		}
	}
	return "", "", false, nil
}
