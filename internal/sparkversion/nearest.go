package sparkversion

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Nearest is the declarations of the project a file belongs to: those of
// the nearest folder, from the file's own up to root, that declares a
// Spark version in its files (with its requirements/ and project/
// folders). A repository may hold several projects on several Spark
// versions; the one whose build holds the file is the one its job runs
// on, and a sibling project's declaration says nothing about it.
func Nearest(root, file string) ([]Declared, error) {
	root = filepath.Clean(root)
	dir := filepath.Dir(filepath.Clean(file))
	for {
		decls, err := declaredIn(root, dir)
		if err != nil || len(decls) > 0 {
			return decls, err
		}
		if dir == root || !strings.HasPrefix(dir, root+string(filepath.Separator)) {
			return nil, nil
		}
		dir = filepath.Dir(dir)
	}
}

// declaredIn reads the declarations of the files of dir, not below it,
// but for the requirements/ and project/ folders that belong to its build.
func declaredIn(root, dir string) ([]Declared, error) {
	var out []Declared
	for _, d := range []string{dir, filepath.Join(dir, "requirements"), filepath.Join(dir, "project")} {
		entries, err := os.ReadDir(d)
		if err != nil {
			if d != dir || errors.Is(err, fs.ErrNotExist) {
				continue // no such folder here
			}
			return nil, fmt.Errorf("sparkversion: reading %s: %w", d, err)
		}
		for _, e := range entries {
			if !e.Type().IsRegular() {
				continue
			}
			p := filepath.Join(d, e.Name())
			rel, err := filepath.Rel(root, p)
			if err != nil || strings.HasPrefix(rel, "..") {
				rel = p
			}
			rel = filepath.ToSlash(rel)
			parse := parserFor(rel)
			if parse == nil {
				continue
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return nil, fmt.Errorf("sparkversion: reading %s: %w", rel, err)
			}
			out = append(out, parse(rel, data)...)
		}
	}
	sortDecls(out)
	return out, nil
}

var minorRE = regexp.MustCompile(`^(\d+)\.(\d+)`)

// Minor is the major.minor of a Spark version ("4.1" of "4.1.1"), the
// unit Declared.Version names; "" when v has none.
func Minor(v string) string {
	m := minorRE.FindStringSubmatch(v)
	if m == nil {
		return ""
	}
	return m[1] + "." + m[2]
}
