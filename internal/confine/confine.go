// Package confine keeps paths that come from a repository inside it. A
// record, a patch or a config is the pull request's text: a relative path
// in it may climb out with "..", and a committed symbolic link may point
// anywhere, so every such path is resolved, links followed, before udfx
// reads, runs or writes the file it names.
package confine

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// OutsideError is a path that resolves outside the repository.
type OutsideError struct {
	// Path is the path as given, relative to the repository.
	Path string
	// Resolved is where it leads.
	Resolved string
	// NotRelative says the path is not one relative to the repository at
	// all (empty, absolute, with a backslash or a NUL).
	NotRelative bool
}

func (e *OutsideError) Error() string {
	if e.NotRelative {
		return fmt.Sprintf("%q is not a path relative to the repository", e.Path)
	}
	return fmt.Sprintf("%s leads outside the repository, to %s", e.Path, e.Resolved)
}

// Join returns root/rel when rel, and the deepest of its folders that
// exists, resolve inside root once symbolic links are followed; else an
// *OutsideError. rel is slash-separated and relative: an absolute path
// or one with a backslash is refused too, since its meaning would depend
// on the machine.
func Join(root, rel string) (string, error) {
	switch {
	case rel == "":
		return "", &OutsideError{Path: rel, NotRelative: true}
	case strings.HasPrefix(rel, "/") || filepath.IsAbs(rel) || strings.ContainsRune(rel, '\\') || strings.ContainsRune(rel, 0):
		return "", &OutsideError{Path: rel, NotRelative: true}
	}
	abs := filepath.Join(root, filepath.FromSlash(rel))
	if !Within(root, abs) {
		return "", &OutsideError{Path: rel, Resolved: abs}
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", err
	}
	// The deepest part of the path that exists decides where the rest
	// will be: a link anywhere on the way counts.
	p, tail := abs, ""
	for {
		real, err := filepath.EvalSymlinks(p)
		if errors.Is(err, os.ErrNotExist) && p != root {
			p, tail = filepath.Dir(p), filepath.Join(filepath.Base(p), tail)
			continue
		}
		if err != nil {
			return "", err
		}
		if !Within(realRoot, real) {
			return "", &OutsideError{Path: rel, Resolved: filepath.Join(real, tail)}
		}
		return abs, nil
	}
}

// Check is Join without the path.
func Check(root, rel string) error {
	_, err := Join(root, rel)
	return err
}

// Within reports whether the path p is root or below it, by name (no
// link is followed).
func Within(root, p string) bool {
	r, err := filepath.Rel(root, p)
	return err == nil && local(r)
}

func local(rel string) bool {
	return rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
