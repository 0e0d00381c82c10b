// Package applyjournal makes `udfx rewrite --apply` all or nothing across
// a crash. An apply writes several files (rewrite.sql, evidence.json, the
// use sites in the user's sources); each is replaced atomically by a
// rename, but a process killed between two renames would leave some new
// and some old, a tree that is neither before nor after the apply.
//
// So before the first rename, a commit writes a journal: for every file,
// its path, the sha256 of its old content (or "absent") and of its new
// content, where the new content is staged (a temporary file next to the
// target, so the rename stays within one folder) and where a copy of the
// old content is kept. The journal is synced to disk, then the renames
// run, then the journal is removed: that removal is the commit point.
//
// A journal still there means the apply did not finish. The policy is to
// roll back: every file goes back to its old content, files the apply
// created are removed, and so are the folders it created. Rolling back
// needs only the old copies, which are complete before any rename, so it
// is possible after a crash at any step; rolling forward would need every
// staged file, which a crash while staging leaves incomplete. A file that
// holds neither its old nor its new content was changed by someone since:
// it is never overwritten, and the roll back stops before touching
// anything.
package applyjournal

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"github.com/udfx/udfx/harness/filelock"
)

// Absent is the old hash of a file the apply creates.
const Absent = "absent"

// FileName is the journal inside its folder. Its presence is what makes
// the journal open.
const FileName = "journal.json"

const (
	format  = "udfx apply journal"
	version = 1
)

// File is one file an apply creates or replaces. Path is relative to the
// repository root, slash-separated; Old is nil for a file the apply
// creates.
type File struct {
	Path string
	Old  []byte
	New  []byte
}

// manifest is journal.json.
type manifest struct {
	Format  string `json:"format"`
	Version int    `json:"version"`
	// UDF names the rewrite being applied, for messages.
	UDF   string  `json:"udf"`
	Files []entry `json:"files"`
	// CreatedDirs are the folders the apply creates, relative to the
	// root, each after its parent.
	CreatedDirs []string `json:"created_dirs"`
}

type entry struct {
	// Path is the file, relative to the root, slash-separated.
	Path string `json:"path"`
	// OldSHA256 is Absent for a file the apply creates.
	OldSHA256 string `json:"old_sha256"`
	NewSHA256 string `json:"new_sha256"`
	// Mode is the file's permission bits: the old file's, kept by the
	// new content and given back by a roll back.
	Mode uint32 `json:"mode"`
	// Staged is the temporary file holding the new content, in Path's
	// folder, relative to the root.
	Staged string `json:"staged"`
	// Backup is the copy of the old content, a file in the journal's
	// folder; empty for a file the apply creates.
	Backup string `json:"backup,omitempty"`
}

// Commit applies Files to the tree at Root through the journal in the
// folder Dir.
type Commit struct {
	Root string
	Dir  string
	// UDF names the rewrite, for the journal and its messages.
	UDF   string
	Files []File
	// AfterStep, set only by tests, runs after each step (Steps lists
	// them). An error from it stops the commit at once and is returned as
	// it is, with nothing cleaned up or rolled back: the state a process
	// killed after that step leaves.
	AfterStep func(step int) error
}

// Steps is the number of steps of a commit of n files, the arguments
// AfterStep sees: 1 the journal is written and synced; 2 to n+1 file i's
// new content is staged and its old content copied; n+2 to 2n+1 file i is
// renamed into place; 2n+2 the journal is removed, and the apply is
// committed.
func Steps(n int) int { return 2*n + 2 }

// BusyError is a journal another udfx process holds: it is applying right
// now.
type BusyError struct{ Dir string }

func (e *BusyError) Error() string {
	return fmt.Sprintf("another udfx run is applying a rewrite through %s: wait for it to finish", e.Dir)
}

// OpenError refuses to start an apply beside an interrupted one that was
// not rolled back.
type OpenError struct{ Path string }

func (e *OpenError) Error() string {
	return fmt.Sprintf("an interrupted --apply is still open (%s): roll it back first with `udfx rewrite --recover`", e.Path)
}

// DamagedError is a journal, or a copy of an old file it keeps, that udfx
// cannot read or that does not hold what the journal says.
type DamagedError struct {
	// Path is the damaged file.
	Path string
	Err  error
}

func (e *DamagedError) Error() string {
	return fmt.Sprintf("the journal of an interrupted --apply is damaged: %s: %v; the files it lists may be half-applied: check them (git diff), then remove its folder %s",
		e.Path, e.Err, filepath.Dir(e.Path))
}

func (e *DamagedError) Unwrap() error { return e.Err }

// ConflictError is a roll back refused because files changed after the
// interrupted apply: they hold neither what they held before it nor what
// it wrote, so restoring them would lose someone's work.
type ConflictError struct {
	// Journal is the journal file.
	Journal string
	UDF     string
	// Files are the changed files, relative to the root.
	Files []string
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("cannot roll back the interrupted --apply of %s: %s changed since (neither what the apply found nor what it wrote), and udfx does not overwrite it; nothing was rolled back. "+
		"Put back either content (the old one is kept in %s), or keep the tree as it is and remove %s",
		e.UDF, strings.Join(e.Files, ", "), filepath.Dir(e.Journal), filepath.Dir(e.Journal))
}

// Report says what a roll back did.
type Report struct {
	UDF string
	// Restored are the files given back their old content, Removed the
	// files the apply had created, relative to the root.
	Restored []string
	Removed  []string
}

// Summary is the report in one line.
func (r *Report) Summary() string {
	var parts []string
	if len(r.Restored) > 0 {
		parts = append(parts, "restored "+strings.Join(r.Restored, ", "))
	}
	if len(r.Removed) > 0 {
		parts = append(parts, "removed "+strings.Join(r.Removed, ", "))
	}
	if len(parts) == 0 {
		return "no file had been changed yet"
	}
	return strings.Join(parts, "; ")
}

// Journal is an open journal.
type Journal struct {
	root string
	dir  string
	m    manifest
}

// UDF names the rewrite whose apply the journal belongs to.
func (j *Journal) UDF() string { return j.m.UDF }

// Path is the journal file.
func (j *Journal) Path() string { return filepath.Join(j.dir, FileName) }

// Files are the files the apply creates or replaces, relative to the
// root.
func (j *Journal) Files() []string {
	out := make([]string, len(j.m.Files))
	for i, e := range j.m.Files {
		out[i] = e.Path
	}
	return out
}

// IsOpen reports whether the folder dir holds an open journal.
func IsOpen(dir string) bool {
	_, err := os.Lstat(filepath.Join(dir, FileName))
	return err == nil
}

// Open reads the open journal in dir, for the tree at root: an error
// wrapping fs.ErrNotExist when there is none, a *DamagedError when it
// cannot be read or does not hold a well-formed journal.
func Open(root, dir string) (*Journal, error) {
	p := filepath.Join(dir, FileName)
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if err != nil {
		return nil, &DamagedError{Path: p, Err: err}
	}
	j := &Journal{root: root, dir: dir}
	if err := json.Unmarshal(b, &j.m); err != nil {
		return nil, &DamagedError{Path: p, Err: fmt.Errorf("not a journal: %w", err)}
	}
	if err := j.m.check(); err != nil {
		return nil, &DamagedError{Path: p, Err: err}
	}
	return j, nil
}

// check validates a manifest read back: every path it names must lie
// inside the root (or, for copies, inside the journal's folder), so that
// a damaged journal cannot make a roll back write elsewhere.
func (m *manifest) check() error {
	if m.Format != format || m.Version != version {
		return fmt.Errorf("format %q version %d, this udfx reads %q version %d", m.Format, m.Version, format, version)
	}
	if len(m.Files) == 0 {
		return errors.New("it lists no files")
	}
	for _, e := range m.Files {
		if !local(e.Path) || !local(e.Staged) || path.Dir(e.Staged) != path.Dir(e.Path) || e.Staged == e.Path {
			return fmt.Errorf("file %q staged at %q: not a file of the tree", e.Path, e.Staged)
		}
		if !isHash(e.NewSHA256) || (e.OldSHA256 != Absent && !isHash(e.OldSHA256)) {
			return fmt.Errorf("file %q: hashes %q and %q are not sha256", e.Path, e.OldSHA256, e.NewSHA256)
		}
		if (e.OldSHA256 == Absent) != (e.Backup == "") || (e.Backup != "" && (e.Backup == FileName || !local(e.Backup) || strings.Contains(e.Backup, "/"))) {
			return fmt.Errorf("file %q: copy %q of its old content is not a file of the journal", e.Path, e.Backup)
		}
		if e.Mode&^0o777 != 0 {
			return fmt.Errorf("file %q: mode %o is not permission bits", e.Path, e.Mode)
		}
	}
	for _, d := range m.CreatedDirs {
		if !local(d) {
			return fmt.Errorf("created folder %q is not a folder of the tree", d)
		}
	}
	return nil
}

func local(p string) bool {
	return p != "" && filepath.IsLocal(filepath.FromSlash(p)) && path.Clean(p) == p
}

func isHash(s string) bool {
	if len(s) != 64 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil && strings.ToLower(s) == s
}

func hashOf(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// lockPath is the lock an apply and a roll back hold on a journal's
// folder: beside it, since the folder itself comes and goes.
func lockPath(dir string) string { return filepath.Clean(dir) + ".lock" }

// stopped is an AfterStep error: a simulated crash.
type stopped struct{ err error }

func (s *stopped) Error() string { return s.err.Error() }

// Run applies the files. On an error the files already written are given
// back their old content and the journal is removed, so the tree is left
// as it was.
func (c *Commit) Run() error {
	if len(c.Files) == 0 {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(c.Dir), 0o755); err != nil {
		return fmt.Errorf("apply: %w", err)
	}
	unlock, err := filelock.TryLock(lockPath(c.Dir))
	if errors.Is(err, filelock.ErrHeld) {
		return &BusyError{Dir: c.Dir}
	}
	if err != nil {
		return fmt.Errorf("apply: lock %s: %w", c.Dir, err)
	}
	defer unlock()
	if IsOpen(c.Dir) {
		return &OpenError{Path: filepath.Join(c.Dir, FileName)}
	}
	// A folder without a journal is what a crash left before the journal
	// was written or after it was removed: nothing depends on it.
	if err := os.RemoveAll(c.Dir); err != nil {
		return fmt.Errorf("apply: %w", err)
	}
	j, err := c.plan()
	if err != nil {
		return err
	}
	err = c.run(j)
	var s *stopped
	switch {
	case err == nil:
		return nil
	case errors.As(err, &s):
		return s.err
	}
	if _, rerr := j.rollBack(); rerr != nil {
		return fmt.Errorf("%w; rolling it back failed too, so the journal %s is kept: %v", err, j.Path(), rerr)
	}
	return fmt.Errorf("%w (nothing was changed)", err)
}

// plan builds the journal of the commit: the hashes, the staged and copy
// names, and the folders that do not exist yet.
func (c *Commit) plan() (*Journal, error) {
	var token [6]byte
	if _, err := rand.Read(token[:]); err != nil {
		return nil, fmt.Errorf("apply: %w", err)
	}
	j := &Journal{root: c.Root, dir: c.Dir, m: manifest{Format: format, Version: version, UDF: c.UDF}}
	created := map[string]bool{}
	for i, f := range c.Files {
		if !local(f.Path) {
			return nil, fmt.Errorf("apply %s: not a path inside the repository", f.Path)
		}
		e := entry{Path: f.Path, OldSHA256: Absent, NewSHA256: hashOf(f.New), Mode: 0o644,
			Staged: path.Join(path.Dir(f.Path), "."+path.Base(f.Path)+".udfx-apply-"+hex.EncodeToString(token[:]))}
		if f.Old != nil {
			e.OldSHA256, e.Backup = hashOf(f.Old), fmt.Sprintf("old-%d", i)
			if st, err := os.Stat(j.abs(f.Path)); err == nil {
				e.Mode = uint32(st.Mode().Perm())
			}
		}
		var dirs []string
		for d := path.Dir(f.Path); d != "." && !created[d]; d = path.Dir(d) {
			if st, err := os.Stat(j.abs(d)); err == nil && st.IsDir() {
				break
			}
			created[d] = true
			dirs = append(dirs, d)
		}
		for k := len(dirs) - 1; k >= 0; k-- {
			j.m.CreatedDirs = append(j.m.CreatedDirs, dirs[k])
		}
		j.m.Files = append(j.m.Files, e)
	}
	return j, nil
}

func (c *Commit) after(step int) error {
	if c.AfterStep == nil {
		return nil
	}
	if err := c.AfterStep(step); err != nil {
		return &stopped{err}
	}
	return nil
}

func (c *Commit) run(j *Journal) error {
	n := len(c.Files)
	if err := j.write(); err != nil {
		return err
	}
	if err := c.after(1); err != nil {
		return err
	}
	dirs := map[string]bool{}
	for i, f := range c.Files {
		e := j.m.Files[i]
		if e.Backup != "" {
			if err := writeSynced(filepath.Join(j.dir, e.Backup), f.Old, 0o600); err != nil {
				return fmt.Errorf("apply %s: keep its old content: %w", f.Path, err)
			}
		}
		if err := os.MkdirAll(filepath.Dir(j.abs(f.Path)), 0o755); err != nil {
			return fmt.Errorf("apply %s: %w", f.Path, err)
		}
		if err := writeSynced(j.abs(e.Staged), f.New, fs.FileMode(e.Mode)); err != nil {
			return fmt.Errorf("apply %s: %w", f.Path, err)
		}
		dirs[path.Dir(f.Path)] = true
		if err := c.after(2 + i); err != nil {
			return err
		}
	}
	// The copies must be on disk before a rename may be.
	if err := syncDir(j.dir); err != nil {
		return fmt.Errorf("apply: %w", err)
	}
	for _, d := range j.m.CreatedDirs {
		dirs[path.Dir(d)] = true
	}
	if err := j.syncDirs(dirs); err != nil {
		return err
	}
	for i, e := range j.m.Files {
		if err := os.Rename(j.abs(e.Staged), j.abs(e.Path)); err != nil {
			return fmt.Errorf("apply %s: %w", e.Path, err)
		}
		if err := c.after(2 + n + i); err != nil {
			return err
		}
	}
	// The renames must be on disk before the journal goes.
	if err := j.syncDirs(dirs); err != nil {
		return err
	}
	if err := j.close(); err != nil {
		return err
	}
	return c.after(Steps(n))
}

func (j *Journal) abs(rel string) string { return filepath.Join(j.root, filepath.FromSlash(rel)) }

// write writes journal.json through a rename and syncs it and the folders
// that hold it.
func (j *Journal) write() error {
	b, err := json.MarshalIndent(j.m, "", "  ")
	if err != nil {
		return fmt.Errorf("apply: journal: %w", err)
	}
	if err := os.Mkdir(j.dir, 0o755); err != nil {
		return fmt.Errorf("apply: journal: %w", err)
	}
	tmp := filepath.Join(j.dir, FileName+".tmp")
	if err := writeSynced(tmp, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("apply: journal: %w", err)
	}
	if err := os.Rename(tmp, j.Path()); err != nil {
		return fmt.Errorf("apply: journal: %w", err)
	}
	if err := syncDir(j.dir); err != nil {
		return fmt.Errorf("apply: journal: %w", err)
	}
	if err := syncDir(filepath.Dir(j.dir)); err != nil {
		return fmt.Errorf("apply: journal: %w", err)
	}
	return nil
}

// close removes the journal file, durably, then the rest of its folder.
func (j *Journal) close() error {
	// A commit that failed before its journal was written has none.
	if err := os.Remove(j.Path()); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("close the journal: %w", err)
	}
	if err := syncDir(j.dir); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("close the journal: %w", err)
	}
	// What is left are copies nothing reads any more.
	_ = os.RemoveAll(j.dir)
	return nil
}

func (j *Journal) syncDirs(dirs map[string]bool) error {
	names := make([]string, 0, len(dirs))
	for d := range dirs {
		names = append(names, d)
	}
	sort.Strings(names)
	for _, d := range names {
		if err := syncDir(j.abs(d)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("sync %s: %w", d, err)
		}
	}
	return nil
}

// Recover rolls back the open journal in dir for the tree at root. It
// returns an error wrapping fs.ErrNotExist when there is none, a
// *BusyError when another process is applying through it now, a
// *DamagedError or a *ConflictError when it cannot roll back; then it
// has changed nothing.
func Recover(root, dir string) (*Report, error) {
	if !IsOpen(dir) {
		return nil, fmt.Errorf("no journal in %s: %w", dir, fs.ErrNotExist)
	}
	unlock, err := filelock.TryLock(lockPath(dir))
	if errors.Is(err, filelock.ErrHeld) {
		return nil, &BusyError{Dir: dir}
	}
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	defer unlock()
	j, err := Open(root, dir)
	if err != nil {
		return nil, err
	}
	return j.rollBack()
}

type state int

const (
	isOld state = iota
	isNew
)

// rollBack gives every file its old content. It first looks at every
// file and changes nothing when one holds neither content; it may be run
// again after a crash of its own.
func (j *Journal) rollBack() (*Report, error) {
	states := make([]state, len(j.m.Files))
	var changed []string
	for i, e := range j.m.Files {
		cur, err := currentHash(j.abs(e.Path))
		if err != nil {
			return nil, fmt.Errorf("roll back %s: %w", e.Path, err)
		}
		switch cur {
		case e.OldSHA256:
			states[i] = isOld
		case e.NewSHA256:
			states[i] = isNew
			if e.Backup != "" {
				p := filepath.Join(j.dir, e.Backup)
				b, err := os.ReadFile(p)
				if err != nil {
					return nil, &DamagedError{Path: p, Err: fmt.Errorf("the copy of %s's old content: %w", e.Path, err)}
				}
				if hashOf(b) != e.OldSHA256 {
					return nil, &DamagedError{Path: p, Err: fmt.Errorf("the copy of %s's old content does not hash as the journal says", e.Path)}
				}
			}
		default:
			changed = append(changed, e.Path)
		}
	}
	if len(changed) > 0 {
		return nil, &ConflictError{Journal: j.Path(), UDF: j.m.UDF, Files: changed}
	}
	rep := &Report{UDF: j.m.UDF}
	dirs := map[string]bool{}
	for i := len(j.m.Files) - 1; i >= 0; i-- {
		e := j.m.Files[i]
		staged := j.abs(e.Staged)
		if states[i] == isNew {
			if e.Backup == "" {
				if err := os.Remove(j.abs(e.Path)); err != nil {
					return nil, fmt.Errorf("roll back %s: %w", e.Path, err)
				}
				rep.Removed = append(rep.Removed, e.Path)
			} else {
				b, err := os.ReadFile(filepath.Join(j.dir, e.Backup))
				if err != nil {
					return nil, fmt.Errorf("roll back %s: %w", e.Path, err)
				}
				// The staged name is free: its file was renamed into
				// place. A crash here leaves it for the next roll back
				// to remove.
				if err := writeSynced(staged, b, fs.FileMode(e.Mode)); err != nil {
					return nil, fmt.Errorf("roll back %s: %w", e.Path, err)
				}
				if err := os.Rename(staged, j.abs(e.Path)); err != nil {
					return nil, fmt.Errorf("roll back %s: %w", e.Path, err)
				}
				rep.Restored = append(rep.Restored, e.Path)
			}
			dirs[path.Dir(e.Path)] = true
		}
		if err := os.Remove(staged); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("roll back %s: %w", e.Path, err)
		}
	}
	// The folders the apply created, children first, where now empty: a
	// folder someone put a file in since stays.
	for i := len(j.m.CreatedDirs) - 1; i >= 0; i-- {
		d := j.m.CreatedDirs[i]
		if os.Remove(j.abs(d)) == nil {
			dirs[path.Dir(d)] = true
		}
	}
	if err := j.syncDirs(dirs); err != nil {
		return nil, fmt.Errorf("roll back: %w", err)
	}
	if err := j.close(); err != nil {
		return nil, fmt.Errorf("roll back: %w", err)
	}
	sort.Strings(rep.Restored)
	sort.Strings(rep.Removed)
	return rep, nil
}

// currentHash is the sha256 of the file at p, or Absent; what is not a
// file matches neither hash.
func currentHash(p string) (string, error) {
	if st, err := os.Stat(p); err == nil && !st.Mode().IsRegular() {
		return "not a file", nil
	}
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return Absent, nil
	}
	if err != nil {
		return "", err
	}
	return hashOf(b), nil
}

// writeSynced writes data to p (created or truncated) with mode and syncs
// it to disk.
func writeSynced(p string, data []byte, mode fs.FileMode) error {
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, mode)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	// The umask may have narrowed mode.
	if err := f.Chmod(mode); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// syncDir syncs a folder, so the names created, renamed or removed in it
// survive a crash of the machine. Windows cannot open a folder to sync
// it; there udfx syncs the files only.
func syncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
