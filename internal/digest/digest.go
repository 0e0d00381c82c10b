// Package digest names content by its sha256: a key over a list of
// parts, a file's bytes, and every file of a git repository that can
// change what a UDF in one language computes. The proof caches of folder
// runs (internal/batch) and of the gate (harness/verify) key their
// entries with it, so the two agree on what "unchanged" means.
package digest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Key is the sha256 of its parts, each length-prefixed so that no two
// lists of parts give the same bytes.
func Key(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%d:%s;", len(p), p)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// File is the sha256 of the file at path.
func File(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Family says which of a repository's files can change what a UDF in one
// language computes.
type Family func(path string) bool

var pythonFiles = []string{".py", ".pyi", ".ipynb", ".pth", ".cfg", ".toml", ".txt", ".lock", ".yaml", ".yml", ".json"}
var jvmFiles = []string{".java", ".scala", ".sc", ".sbt", ".gradle", ".kts", ".xml", ".properties", ".jar", ".yaml", ".yml", ".conf"}

// PythonFamily is the files a Python UDF's meaning can depend on: the
// repository's Python and notebooks, the files that pin its packages,
// and configuration a module may read, udfx.yaml among them.
func PythonFamily(path string) bool { return hasExt(path, pythonFiles) }

// JVMFamily is the same for a Java or Scala UDF: JVM sources, build
// files (Maven, sbt, Gradle), jars and configuration.
func JVMFamily(path string) bool { return hasExt(path, jvmFiles) }

func hasExt(path string, exts []string) bool {
	ext := strings.ToLower(filepath.Ext(path))
	for _, e := range exts {
		if ext == e {
			return true
		}
	}
	return false
}

// Sources is a digest of the name and content of every file of the git
// repository at root that family keeps, tracked or new (ignored files
// aside): any change to one changes it. A folder that is no git
// repository has none: an error.
func Sources(ctx context.Context, root string, family Family) (string, error) {
	cmd := exec.CommandContext(ctx, "git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	list, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return "", fmt.Errorf("git ls-files in %s: %s", root, msg)
		}
		return "", fmt.Errorf("git ls-files in %s: %w", root, err)
	}
	h := sha256.New()
	seen := map[string]bool{}
	for _, name := range strings.Split(string(list), "\x00") {
		if name == "" || seen[name] || !family(name) {
			continue
		}
		seen[name] = true
		sum, err := File(filepath.Join(root, filepath.FromSlash(name)))
		if errors.Is(err, os.ErrNotExist) {
			// Deleted in the working tree, still in the index.
			sum = "deleted"
		} else if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%d:%s %s\n", len(name), name, sum)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
