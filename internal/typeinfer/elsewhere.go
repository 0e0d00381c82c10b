package typeinfer

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/udfx/udfx/internal/regular"
)

// The dataflow trace types a function's parameter from the calls in the
// UDF's file (udf.FlowType.Through). Another module that imports the
// function could call it with another DataFrame, so the type holds only
// when no other Python source or notebook of the repository names it.

// Limits of the walk: past them the answer is "named", never a guess.
const (
	elsewhereMaxFiles = 20000
	elsewhereMaxSize  = 4 << 20
)

// skipElsewhere are folders no module of the job lives in.
var skipElsewhere = map[string]bool{
	".git": true, ".udfx": true, "node_modules": true, "site-packages": true, "__pycache__": true,
	".venv": true, "venv": true, ".tox": true,
}

// namedElsewhere reports whether a .py or .ipynb file of the repository
// holding path, other than path itself, names any of names as a word. A
// file outside a git repository, an unreadable folder, or a repository
// past the walk's limits gives true.
func namedElsewhere(path string, names []string) bool {
	abs, err := filepath.Abs(path)
	if err != nil {
		return true
	}
	root := repoRootOf(filepath.Dir(abs))
	if root == "" {
		return true
	}
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = regexp.QuoteMeta(n)
	}
	word := regexp.MustCompile(`\b(?:` + strings.Join(quoted, "|") + `)\b`)
	files := 0
	errNamed := errors.New("named")
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && skipElsewhere[d.Name()] {
				return filepath.SkipDir
			}
			return nil
		}
		ext := filepath.Ext(p)
		if (ext != ".py" && ext != ".ipynb") || p == abs {
			return nil
		}
		if files++; files > elsewhereMaxFiles {
			return errNamed
		}
		src, err := regular.ReadFile(p, elsewhereMaxSize)
		if err != nil || word.Match(src) {
			return errNamed
		}
		return nil
	})
	return err != nil
}

// repoRootOf is the nearest folder at or above dir holding .git; "" when
// there is none.
func repoRootOf(dir string) string {
	for {
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			return ""
		}
		dir = up
	}
}
