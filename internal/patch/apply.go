package patch

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"

	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/internal/applyjournal"
	"github.com/udfx/udfx/internal/confine"
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

// OutsideError refuses to write a file whose path leads out of the
// repository through a symbolic link (a committed udfx-rewrites -> /tmp).
type OutsideError struct{ File, Resolved string }

func (e *OutsideError) Error() string {
	return fmt.Sprintf("refusing to apply: %s leads outside the repository, to %s, through a symbolic link", e.File, e.Resolved)
}

// DroppedUseSitesError refuses to replace an evidence record by one that
// lacks use sites it lists: an earlier --apply rewrote them, and the source
// no longer calls the UDF there (it holds the earlier rewrite, or the line
// is gone). Without them in the record, verify would stop checking that
// those sites hold the proved expression.
type DroppedUseSitesError struct {
	Record string
	Sites  []string // file:line:column of each dropped site
}

func (e *DroppedUseSitesError) Error() string {
	return fmt.Sprintf("refusing to apply: %s records use sites that an earlier --apply rewrote and that the source no longer has as calls of the UDF (%s); this apply would drop them from the record, and verify would stop checking them. Undo the earlier apply (or remove %s) to rewrite the UDF again",
		e.Record, strings.Join(e.Sites, ", "), path.Dir(e.Record))
}

// checkUseSitesKept returns a *DroppedUseSitesError when c replaces an
// evidence record by one without every use site the old one lists.
func checkUseSitesKept(c FileChange) error {
	if path.Base(c.Path) != evidence.FileName || c.Old == nil || c.New == nil {
		return nil
	}
	var old, cur evidence.Record
	if json.Unmarshal(c.Old, &old) != nil || json.Unmarshal(c.New, &cur) != nil {
		return nil // not a record udfx reads: nothing of it to keep
	}
	kept := map[string]bool{}
	for _, s := range cur.UseSites {
		kept[s.File+"\x00"+s.Old] = true
	}
	var dropped []string
	for _, s := range old.UseSites {
		if !kept[s.File+"\x00"+s.Old] {
			dropped = append(dropped, fmt.Sprintf("%s:%d:%d", s.File, s.Span.Start.Line, s.Span.Start.Column))
		}
	}
	if len(dropped) > 0 {
		return &DroppedUseSitesError{Record: c.Path, Sites: dropped}
	}
	return nil
}

// CheckRecordKept returns a *DroppedUseSitesError when one of changes
// replaces an evidence record by one without every use site the old one
// lists, as Apply refuses to.
func CheckRecordKept(changes []FileChange) error {
	for _, c := range changes {
		if err := checkUseSitesKept(c); err != nil {
			return err
		}
	}
	return nil
}

// checkInside returns an *OutsideError when the file rel, or the deepest
// of its folders that exists, resolves outside the repository at root.
func checkInside(root, rel string) error {
	err := confine.Check(root, rel)
	var oe *confine.OutsideError
	if errors.As(err, &oe) {
		return &OutsideError{File: rel, Resolved: oe.Resolved}
	}
	return err
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

// Apply writes changes, the patch of the rewrite of the UDF name, into
// the repository at root. Every file is first checked: unchanged since
// the rewrite, inside the repository once symbolic links are followed,
// not dropping use sites from an evidence record, and (unless force)
// without uncommitted changes. Then the
// files are replaced all or nothing, through a journal in the UDF's
// workspace at root (JournalDir): if a write fails, the files already
// written get their old content back; if udfx is killed halfway, the next
// udfx command rolls the tree back with Recover.
func Apply(root, name string, changes []FileChange, force bool) error {
	return ApplyStepped(root, name, changes, force, nil)
}

// ApplyStepped is Apply with the journal's AfterStep (applyjournal.Commit):
// tests stop it after any step, as a kill would.
func ApplyStepped(root, name string, changes []FileChange, force bool, afterStep func(step int) error) error {
	var dirty []string
	for _, c := range changes {
		if err := checkInside(root, c.Path); err != nil {
			return err
		}
		if err := checkUseSitesKept(c); err != nil {
			return err
		}
		path := filepath.Join(root, filepath.FromSlash(c.Path))
		cur, err := ReadIfExists(path)
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
	dir := JournalDir(root, name)
	if err := MarkWorkspace(dir); err != nil {
		return err
	}
	files := make([]applyjournal.File, len(changes))
	for i, c := range changes {
		files[i] = applyjournal.File{Path: c.Path, Old: c.Old, New: c.New}
	}
	return (&applyjournal.Commit{Root: root, Dir: dir, UDF: name, Files: files, AfterStep: afterStep}).Run()
}

// JournalDirName is the folder in a UDF's workspace that holds the journal
// of an apply while it runs, and after one that was interrupted.
const JournalDirName = "apply-journal"

// JournalDir is the journal folder of the apply of the UDF name's rewrite:
// <root>/.udfx/<udf>/apply-journal, in the repository's own workspace
// whatever --workspace says, so that every later command on the
// repository finds it.
func JournalDir(root, name string) string {
	return filepath.Join(root, WorkspaceDirName, SafeName(name), JournalDirName)
}

// journalDirs lists the journal folders holding an open journal in the
// repository at root.
func journalDirs(root string) ([]string, error) {
	ws := filepath.Join(root, WorkspaceDirName)
	entries, err := os.ReadDir(ws)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("look for interrupted applies: %w", err)
	}
	var dirs []string
	for _, e := range entries {
		d := filepath.Join(ws, e.Name(), JournalDirName)
		if e.IsDir() && applyjournal.IsOpen(d) {
			dirs = append(dirs, d)
		}
	}
	return dirs, nil
}

// OpenJournal is the journal of an interrupted apply, found open in a
// repository.
type OpenJournal struct {
	// Path is the journal file.
	Path string
	// UDF names the rewrite being applied (the workspace folder's name
	// when the journal cannot be read).
	UDF string
	// Files are the files the apply creates or replaces, relative to the
	// repository root.
	Files []string
	// Err says why the journal cannot be read, when it cannot
	// (*applyjournal.DamagedError).
	Err error
}

// OpenJournals lists the interrupted applies in the repository at root,
// changing nothing.
func OpenJournals(root string) ([]OpenJournal, error) {
	dirs, err := journalDirs(root)
	if err != nil {
		return nil, err
	}
	var out []OpenJournal
	for _, d := range dirs {
		oj := OpenJournal{Path: filepath.Join(d, applyjournal.FileName), UDF: filepath.Base(filepath.Dir(d))}
		j, err := applyjournal.Open(root, d)
		if err != nil {
			oj.Err = err
		} else {
			oj.UDF, oj.Files = j.UDF(), j.Files()
		}
		out = append(out, oj)
	}
	return out, nil
}

// Recover rolls back every interrupted apply in the repository at root to
// the tree before it (applyjournal's policy), and says what each roll
// back did. A journal another udfx process holds is applying right now
// and is left alone. It stops at the first journal it cannot roll back:
// a file changed since (*applyjournal.ConflictError) or a damaged
// journal (*applyjournal.DamagedError), with that apply left as it is.
func Recover(root string) ([]*applyjournal.Report, error) {
	dirs, err := journalDirs(root)
	if err != nil {
		return nil, err
	}
	var reps []*applyjournal.Report
	for _, d := range dirs {
		rep, err := applyjournal.Recover(root, d)
		var be *applyjournal.BusyError
		switch {
		case errors.As(err, &be), errors.Is(err, os.ErrNotExist):
			// Another run is applying, or has just rolled it back.
			continue
		case err != nil:
			return reps, err
		}
		reps = append(reps, rep)
	}
	return reps, nil
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
			if rw.Target != string(udf.TargetSQL) {
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
