package scan

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"unicode/utf8"

	gitignore "github.com/sabhiram/go-gitignore"

	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/internal/regular"
)

// languageOf maps a file extension to the language of its front-end.
var languageOf = map[string]udf.Language{
	".scala": udf.Scala,
	".sc":    udf.Scala,
	".java":  udf.Java,
	".py":    udf.Python,
	// A Jupyter notebook: its code cells, as Python (internal/notebook).
	".ipynb": udf.Python,
}

// vendoredDirs are folders of third-party or generated code: their UDFs
// are not the user's to rewrite.
var vendoredDirs = map[string]bool{
	"vendor": true, "third_party": true, "node_modules": true,
	"site-packages": true, "__pycache__": true, "venv": true,
	// udfx's own workspaces hold copies of the user's UDFs.
	".udfx": true,
}

// binarySniffLen is how much of a file is checked for NUL bytes.
const binarySniffLen = 8000

// MaxFileSize bounds what is read: larger "source" files are generated.
// The commands that read one named source file keep to it too.
const MaxFileSize = 4 << 20

// tooLarge is the reason a file over MaxFileSize is skipped.
var tooLarge = "larger than " + regular.Size(MaxFileSize) + ": generated code?"

// InputError is a path argument that cannot be scanned: it does not exist
// or is not a source file. It is the user's mistake, not udfx's.
type InputError struct {
	Path string
	Err  error
}

func (e *InputError) Error() string { return fmt.Sprintf("%s: %v", e.Path, e.Err) }
func (e *InputError) Unwrap() error { return e.Err }

// file is one source file found by the walk.
type file struct {
	path string // as shown to the user: relative to the base dir, slash-separated
	abs  string
	lang udf.Language
}

// Skipped is a file the walk found but did not parse, with the reason.
type Skipped struct {
	File   string `json:"file"`
	Reason string `json:"reason"`
}

// walker collects the source files below the roots.
type walker struct {
	base    string
	files   []file
	seen    map[string]bool // absolute paths already listed
	visited map[fileID]bool // directories entered, to stop symlink loops
	skipped []Skipped
}

type fileID struct{ dev, ino uint64 }

func idOf(fi fs.FileInfo) (fileID, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}, false
	}
	return fileID{dev: uint64(st.Dev), ino: uint64(st.Ino)}, true
}

// ignoreRule is a .gitignore and the folder its patterns are relative to.
type ignoreRule struct {
	dir string
	gi  *gitignore.GitIgnore
}

func (w *walker) display(abs string) string {
	if rel, err := filepath.Rel(w.base, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(abs)
}

// add walks one root argument.
func (w *walker) add(arg string) error {
	abs := arg
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(w.base, arg)
	}
	abs = filepath.Clean(abs)
	fi, err := os.Stat(abs)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return &InputError{Path: arg, Err: errors.New("no such file or directory")}
		}
		return &InputError{Path: arg, Err: err}
	}
	if !fi.IsDir() {
		lang, ok := languageOf[filepath.Ext(abs)]
		if !ok {
			return &InputError{Path: arg, Err: errors.New("not a Scala (.scala, .sc), Java (.java) or Python (.py) file")}
		}
		if !fi.Mode().IsRegular() {
			// A named pipe would block the scan in open; a device never ends.
			return &InputError{Path: arg, Err: fmt.Errorf("%s, not a regular file", regular.Describe(fi.Mode()))}
		}
		w.addFile(abs, lang, fi)
		return nil
	}
	return w.walkDir(abs, w.ignoresAbove(abs), true)
}

// ignoresAbove loads the .gitignore files between the repository root (the
// nearest folder above dir holding .git) and dir's parent, so scanning a
// subfolder honours the rules a whole-repo scan would.
func (w *walker) ignoresAbove(dir string) []ignoreRule {
	var chain []string
	for d := filepath.Dir(dir); ; d = filepath.Dir(d) {
		chain = append(chain, d)
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			break
		}
		if filepath.Dir(d) == d {
			// No repository above: only the scanned folder's own rules apply.
			return nil
		}
	}
	var rules []ignoreRule
	for i := len(chain) - 1; i >= 0; i-- {
		if gi := loadIgnore(chain[i]); gi != nil {
			rules = append(rules, ignoreRule{dir: chain[i], gi: gi})
		}
	}
	return rules
}

func loadIgnore(dir string) *gitignore.GitIgnore {
	gi, err := gitignore.CompileIgnoreFile(filepath.Join(dir, ".gitignore"))
	if err != nil {
		return nil
	}
	return gi
}

func ignored(rules []ignoreRule, abs string, isDir bool) bool {
	for _, r := range rules {
		rel, err := filepath.Rel(r.dir, abs)
		if err != nil || strings.HasPrefix(rel, "..") {
			continue
		}
		rel = filepath.ToSlash(rel)
		if isDir {
			rel += "/"
		}
		if r.gi.MatchesPath(rel) {
			return true
		}
	}
	return false
}

func (w *walker) walkDir(dir string, rules []ignoreRule, root bool) error {
	fi, err := os.Stat(dir)
	if err != nil {
		w.skipped = append(w.skipped, Skipped{File: w.display(dir), Reason: err.Error()})
		return nil
	}
	if id, ok := idOf(fi); ok {
		if w.visited[id] {
			return nil // a symlink back into a folder already walked
		}
		w.visited[id] = true
	}
	if gi := loadIgnore(dir); gi != nil {
		rules = append(rules[:len(rules):len(rules)], ignoreRule{dir: dir, gi: gi})
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		if root {
			return &InputError{Path: w.display(dir), Err: err}
		}
		w.skipped = append(w.skipped, Skipped{File: w.display(dir), Reason: err.Error()})
		return nil
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	for _, e := range entries {
		name := e.Name()
		p := filepath.Join(dir, name)
		typ := e.Type()
		var info fs.FileInfo
		if typ&fs.ModeSymlink != 0 {
			info, err = os.Stat(p)
			if err != nil {
				continue // a dangling link
			}
		} else if info, err = e.Info(); err != nil {
			continue
		}
		if info.IsDir() {
			if name == ".git" || vendoredDirs[name] || strings.HasPrefix(name, ".") || ignored(rules, p, true) {
				continue
			}
			if err := w.walkDir(p, rules, false); err != nil {
				return err
			}
			continue
		}
		lang, ok := languageOf[filepath.Ext(name)]
		if !ok || ignored(rules, p, false) {
			continue
		}
		if !info.Mode().IsRegular() {
			w.skipped = append(w.skipped, Skipped{File: w.display(p), Reason: regular.Describe(info.Mode()) + ", not a regular file"})
			continue
		}
		w.addFile(p, lang, info)
	}
	return nil
}

func (w *walker) addFile(abs string, lang udf.Language, info fs.FileInfo) {
	real := abs
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		real = r
	}
	if w.seen[real] {
		return
	}
	w.seen[real] = true
	if info.Size() > MaxFileSize {
		w.skipped = append(w.skipped, Skipped{File: w.display(abs), Reason: tooLarge})
		return
	}
	// A name that is not UTF-8 cannot be passed on intact: JSON, the
	// records and the runtimes' file names would each spell it
	// differently, and a rewrite of it failed with FileNotFoundError.
	if !utf8.ValidString(w.display(abs)) {
		w.skipped = append(w.skipped, Skipped{File: w.display(abs), Reason: notUTF8})
		return
	}
	w.files = append(w.files, file{path: w.display(abs), abs: abs, lang: lang})
}

// notUTF8 is the reason a file whose name is not UTF-8 is skipped.
const notUTF8 = "its name is not valid UTF-8, which udfx cannot hand on intact to the runtimes and records; rename it"

// isBinary reports whether the start of a file holds a NUL byte, as git's
// own heuristic does.
func isBinary(src []byte) bool {
	if len(src) > binarySniffLen {
		src = src[:binarySniffLen]
	}
	return bytes.IndexByte(src, 0) >= 0
}
