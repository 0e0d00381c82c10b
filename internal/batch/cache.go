package batch

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/udfx/udfx/harness/evidence"
)

// Cache keeps how each UDF of earlier folder runs ended, by a key of
// everything its proof depends on (Key), so that a run over an unchanged
// repository, or one re-run after an interruption, takes the finished
// UDFs from it and says so. An entry also holds the hashes of the
// workspace files its row stands on (the report, the record, the patch):
// when one of them changed or is gone, the entry is not used.
//
// It lives in the user's cache folder, written only by udfx; the gate
// (udfx verify) never reads it.
type Cache struct {
	Dir string
}

// cacheVersion changes when an entry's meaning does.
const cacheVersion = 1

type cacheEntry struct {
	Version int `json:"version"`
	Row     Row `json:"row"`
	// Files are the workspace files the row stands on: absolute path to
	// sha256.
	Files map[string]string `json:"files"`
}

// Cacheable is whether a row may be kept: a verdict of the proof. An
// error may be the machine's (a module not installed yet), and a skip is
// decided afresh by every run.
func Cacheable(s Status) bool { return s == Verified || s == Declined || s == Refuted }

// Get returns the row kept under key, when its workspace files are as
// they were.
func (c *Cache) Get(key string) (Row, bool) {
	b, err := os.ReadFile(c.path(key))
	if err != nil {
		return Row{}, false
	}
	var e cacheEntry
	if json.Unmarshal(b, &e) != nil || e.Version != cacheVersion || !Cacheable(e.Row.Status) {
		return Row{}, false
	}
	for path, sum := range e.Files {
		if got, err := fileSHA256(path); err != nil || got != sum {
			return Row{}, false
		}
	}
	return e.Row, true
}

// Put keeps row under key with the hashes of files, those of them that
// exist. It writes atomically: a reader sees the old entry or the new.
func (c *Cache) Put(key string, row Row, files []string) error {
	e := cacheEntry{Version: cacheVersion, Row: row, Files: map[string]string{}}
	for _, f := range files {
		sum, err := fileSHA256(f)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("proof cache: %w", err)
		}
		e.Files[f] = sum
	}
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(c.Dir, 0o755); err != nil {
		return fmt.Errorf("proof cache: %w", err)
	}
	if err := evidence.WriteFileAtomic(c.path(key), b, 0o644); err != nil {
		return fmt.Errorf("proof cache: %w", err)
	}
	return nil
}

func (c *Cache) path(key string) string { return filepath.Join(c.Dir, key+".json") }

func fileSHA256(path string) (string, error) {
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

// Key is a cache key: the sha256 of its parts, each length-prefixed so
// that no two lists of parts give the same bytes.
func Key(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%d:%s;", len(p), p)
	}
	return hex.EncodeToString(h.Sum(nil))
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

// SourcesDigest is a digest of the name and content of every file of the
// git repository at root that family keeps, tracked or new (ignored files
// aside): any change to one changes it. A folder that is no git
// repository has none, and its runs are not cached.
func SourcesDigest(ctx context.Context, root string, family Family) (string, error) {
	list, err := git(ctx, root, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	if err != nil {
		return "", fmt.Errorf("proof cache: %w", err)
	}
	h := sha256.New()
	seen := map[string]bool{}
	for _, name := range strings.Split(list, "\x00") {
		if name == "" || seen[name] || !family(name) {
			continue
		}
		seen[name] = true
		sum, err := fileSHA256(filepath.Join(root, filepath.FromSlash(name)))
		if errors.Is(err, os.ErrNotExist) {
			// Deleted in the working tree, still in the index.
			sum = "deleted"
		} else if err != nil {
			return "", fmt.Errorf("proof cache: %w", err)
		}
		fmt.Fprintf(h, "%d:%s %s\n", len(name), name, sum)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
