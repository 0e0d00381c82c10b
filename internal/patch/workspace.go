package patch

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// WorkspaceDirName is the folder udfx keeps its scratch work in, inside
// the user's repository: reports, inputs, compiled originals, Spark logs.
// What a rewrite leaves for version control goes to udfx-rewrites/.
const WorkspaceDirName = ".udfx"

const workspaceIgnore = "# udfx's scratch workspace (reports, inputs, logs): not for version control.\n*\n"

// MarkWorkspace creates the .udfx folder that path lies in (path itself
// or one of its parents) and gives it a .gitignore that ignores it whole,
// so a first run does not show up in the user's git status. A path with
// no .udfx component (a --workspace elsewhere) is left alone.
func MarkWorkspace(path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	for d := abs; ; d = filepath.Dir(d) {
		if filepath.Base(d) == WorkspaceDirName {
			if err := os.MkdirAll(d, 0o755); err != nil {
				return fmt.Errorf("workspace %s: %w", d, err)
			}
			f, err := os.OpenFile(filepath.Join(d, ".gitignore"), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
			if errors.Is(err, os.ErrExist) {
				return nil
			}
			if err != nil {
				return fmt.Errorf("workspace %s: %w", d, err)
			}
			if _, err := f.WriteString(workspaceIgnore); err != nil {
				f.Close()
				return fmt.Errorf("workspace %s: %w", d, err)
			}
			return f.Close()
		}
		if filepath.Dir(d) == d {
			return nil
		}
	}
}

// SafeName makes a UDF name usable as a folder name.
func SafeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '_'
	}, s)
}

func ReadIfExists(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		// The prefix udfx rewrite and --apply have always printed.
		return nil, fmt.Errorf("rewrite: %w", err)
	}
	return b, nil
}
