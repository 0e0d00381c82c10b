package batch

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/internal/digest"
)

// Cache keeps how each UDF of earlier folder runs ended, by a key of
// everything its proof depends on (a digest.Key), so that a run over an unchanged
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
		if got, err := digest.File(path); err != nil || got != sum {
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
		sum, err := digest.File(f)
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
