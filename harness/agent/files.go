package agent

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ScratchDir is the workspace folder the model's write_file writes to.
const ScratchDir = "agent-files"

// maxScratch bounds one scratch file.
const maxScratch = 1 << 20

// PathError is a write the model asked for outside its folder.
type PathError struct {
	Path   string
	Reason string
}

func (e *PathError) Error() string {
	return fmt.Sprintf("write_file %q refused: %s; write relative paths inside %s/", e.Path, e.Reason, ScratchDir)
}

// writeScratch writes data to <workspace>/agent-files/<rel> and returns
// the path relative to the workspace. The path must be relative, stay
// inside the folder once cleaned, and pass through no symbolic link, so
// that nothing the model names can land outside the workspace.
func writeScratch(workspace, rel string, data []byte) (string, error) {
	switch {
	case rel == "":
		return "", &PathError{rel, "the path is empty"}
	case filepath.IsAbs(rel) || strings.HasPrefix(rel, "/") || strings.HasPrefix(rel, `\`) || filepath.VolumeName(rel) != "":
		return "", &PathError{rel, "the path is absolute"}
	case strings.ContainsRune(rel, 0):
		return "", &PathError{rel, "the path contains a NUL byte"}
	case len(data) > maxScratch:
		return "", &PathError{rel, fmt.Sprintf("%d bytes, more than %d", len(data), maxScratch)}
	}
	root := filepath.Join(workspace, ScratchDir)
	target := filepath.Join(root, filepath.FromSlash(rel))
	inside, err := filepath.Rel(root, target)
	if err != nil || inside == "." || inside == ".." || strings.HasPrefix(inside, ".."+string(filepath.Separator)) {
		return "", &PathError{rel, "the path leaves " + ScratchDir + "/"}
	}
	// No component from the workspace down may be a symbolic link: one
	// planted there would redirect the write.
	check := workspace
	for _, part := range strings.Split(filepath.Join(ScratchDir, inside), string(filepath.Separator)) {
		check = filepath.Join(check, part)
		fi, err := os.Lstat(check)
		if errors.Is(err, fs.ErrNotExist) {
			break
		}
		if err != nil {
			return "", fmt.Errorf("write_file: %w", err)
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return "", &PathError{rel, "it goes through a symbolic link"}
		}
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return "", fmt.Errorf("write_file: %w", err)
	}
	if err := os.WriteFile(target, data, 0o644); err != nil {
		return "", fmt.Errorf("write_file: %w", err)
	}
	return filepath.ToSlash(filepath.Join(ScratchDir, inside)), nil
}
