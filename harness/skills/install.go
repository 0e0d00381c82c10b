package skills

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Status says what Install did with one skill.
type Status string

const (
	// StatusInstalled: the folder did not exist and was written.
	StatusInstalled Status = "installed"
	// StatusReplaced: a different folder of that name was replaced (force).
	StatusReplaced Status = "replaced"
	// StatusUnchanged: the folder already held exactly these files.
	StatusUnchanged Status = "unchanged"
)

// Installed is one skill's outcome.
type Installed struct {
	Name   string `json:"name"`
	Path   string `json:"path"`
	Status Status `json:"status"`
}

// ConflictError is Install refusing to replace folders that hold
// something other than the skill: an older or edited copy, or another
// skill of the same name. Nothing was written.
type ConflictError struct {
	Dir     string
	Folders []string
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("%s already holds %s: %s (replace with --force)",
		e.Dir, plural(len(e.Folders), "a different skill folder", "different skill folders"), strings.Join(e.Folders, ", "))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Install writes each skill as the folder dir/<name>, creating dir when
// needed. All skills are validated and every existing folder compared
// before anything is written; a folder holding different files is a
// *ConflictError unless force. Each folder is written in full to a
// temporary folder beside it and renamed into place, and if any rename
// fails the ones before are undone, so a failure leaves dir as it was:
// no partial folder, no half-installed set. Files are written 0644.
func Install(dir string, skills []*Skill, force bool) ([]Installed, error) {
	if err := validateForInstall(skills); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("skills folder: %w", err)
	}
	out, jobs, err := planInstall(dir, skills, force)
	if err != nil {
		return nil, err
	}
	if err := stageFolders(dir, jobs); err != nil {
		return nil, err
	}
	if err := swapIn(jobs); err != nil {
		return nil, err
	}
	for _, j := range jobs {
		if j.backup != "" {
			if err := os.RemoveAll(j.backup); err != nil {
				return out, fmt.Errorf("installed, but could not remove the old folder %s: %w", j.backup, err)
			}
		}
	}
	return out, nil
}

// validateForInstall checks every skill before anything is written:
// each must parse, be given once, and keep its files inside its folder.
// The parse problems of all skills come back together.
func validateForInstall(skills []*Skill) error {
	var problems []*Problem
	names := map[string]bool{}
	for _, s := range skills {
		src, ok := s.Files[FileName]
		if !ok {
			return fmt.Errorf("skill %s has no %s", s.Name, FileName)
		}
		if _, err := Parse(s.Name+"/"+FileName, s.Name, src); err != nil {
			var ve *ValidationError
			if errors.As(err, &ve) {
				problems = append(problems, ve.Problems...)
				continue
			}
			return err
		}
		if names[s.Name] {
			return fmt.Errorf("skill %s is given twice", s.Name)
		}
		names[s.Name] = true
		for rel := range s.Files {
			if !filepath.IsLocal(filepath.FromSlash(rel)) {
				return fmt.Errorf("skill %s: file %q is outside its folder", s.Name, rel)
			}
		}
	}
	if len(problems) > 0 {
		return &ValidationError{Problems: problems}
	}
	return nil
}

// installJob is one skill folder to write, and how far its writing got.
type installJob struct {
	s       *Skill
	target  string
	exists  bool
	staged  string
	backup  string
	renamed bool
}

// planInstall compares each skill with the folder it would replace: out is
// every skill's outcome, jobs the folders to write. Any folder holding
// different files, without force, is a *ConflictError naming them all.
func planInstall(dir string, skills []*Skill, force bool) ([]Installed, []*installJob, error) {
	var out []Installed
	var jobs []*installJob
	var conflicts []string
	for _, s := range skills {
		target := filepath.Join(dir, s.Name)
		st := StatusInstalled
		same, exists, err := holds(target, s.Files)
		if err != nil {
			return nil, nil, err
		}
		switch {
		case same:
			st = StatusUnchanged
		case exists && !force:
			conflicts = append(conflicts, s.Name)
			continue
		case exists:
			st = StatusReplaced
		}
		out = append(out, Installed{Name: s.Name, Path: target, Status: st})
		if st != StatusUnchanged {
			jobs = append(jobs, &installJob{s: s, target: target, exists: exists})
		}
	}
	if len(conflicts) > 0 {
		return nil, nil, &ConflictError{Dir: dir, Folders: conflicts}
	}
	return out, jobs, nil
}

// removeStaged removes the temporary folders of jobs not yet renamed
// into place.
func removeStaged(jobs []*installJob) {
	for _, j := range jobs {
		if j.staged != "" {
			os.RemoveAll(j.staged)
		}
	}
}

// stageFolders writes every folder to a temporary folder in dir first:
// a failing write leaves only temporary folders, which are removed.
func stageFolders(dir string, jobs []*installJob) error {
	for _, j := range jobs {
		tmp, err := os.MkdirTemp(dir, ".udfx-skill-"+j.s.Name+"-")
		if err != nil {
			removeStaged(jobs)
			return fmt.Errorf("install %s: %w", j.s.Name, err)
		}
		j.staged = tmp
		if err := os.Chmod(tmp, 0o755); err != nil {
			removeStaged(jobs)
			return fmt.Errorf("install %s: %w", j.s.Name, err)
		}
		if err := writeFiles(tmp, j.s.Files); err != nil {
			removeStaged(jobs)
			return fmt.Errorf("install %s: %w", j.s.Name, err)
		}
	}
	return nil
}

// swapIn renames the staged folders into place, moving any old folder
// aside; if one rename fails, every swap is undone.
func swapIn(jobs []*installJob) error {
	undo := func() {
		for i := len(jobs) - 1; i >= 0; i-- {
			j := jobs[i]
			if j.renamed {
				os.RemoveAll(j.target)
			}
			if j.backup != "" {
				os.Rename(j.backup, j.target)
			}
		}
		removeStaged(jobs)
	}
	for _, j := range jobs {
		if j.exists {
			j.backup = j.staged + ".old"
			if err := os.Rename(j.target, j.backup); err != nil {
				j.backup = ""
				undo()
				return fmt.Errorf("install %s: move the old folder aside: %w", j.s.Name, err)
			}
		}
		if err := os.Rename(j.staged, j.target); err != nil {
			undo()
			return fmt.Errorf("install %s: %w", j.s.Name, err)
		}
		j.staged, j.renamed = "", true
	}
	return nil
}

// holds reports whether folder holds exactly files, and whether anything
// exists at that path.
func holds(folder string, files map[string][]byte) (same, exists bool, err error) {
	st, err := os.Lstat(folder)
	if errors.Is(err, fs.ErrNotExist) {
		return false, false, nil
	}
	if err != nil {
		return false, false, fmt.Errorf("skills folder: %w", err)
	}
	if !st.IsDir() {
		return false, true, nil
	}
	have := map[string]bool{}
	same = true
	err = filepath.WalkDir(folder, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(folder, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		want, ok := files[rel]
		if !ok || !d.Type().IsRegular() {
			same = false
			return nil
		}
		got, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		have[rel] = true
		if !bytes.Equal(got, want) {
			same = false
		}
		return nil
	})
	if err != nil {
		return false, true, fmt.Errorf("compare %s: %w", folder, err)
	}
	return same && len(have) == len(files), true, nil
}

func writeFiles(root string, files map[string][]byte) error {
	rels := make([]string, 0, len(files))
	for rel := range files {
		rels = append(rels, rel)
	}
	sort.Strings(rels)
	for _, rel := range rels {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return err
		}
		_, err = f.Write(files[rel])
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("write %s: %w", rel, err)
		}
	}
	return nil
}
