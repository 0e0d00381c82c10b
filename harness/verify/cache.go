package verify

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/internal/confine"
	"github.com/udfx/udfx/internal/digest"
)

// ProofCache lets a gate run skip the differential re-run of a record
// that an earlier run of udfx re-ran and passed while everything the
// re-run depends on was as it is now. Everything else the gate checks
// (the hashes, the claims, the use sites, the policy) is checked on
// every run; only the re-run, the slow part, is taken from the cache.
//
// An entry's key (recordKey) covers what the re-run reads: the record
// and every file of its folder, the rewrite files, the policy udfx.yaml
// gives the UDF, the engine, and every file of the repository that can
// change what a UDF of its language computes (digest.Sources, the
// original and what it imports included); Base covers the rest (udfx
// itself, the runtimes and their packages, the flags). So a key found is
// a re-run that would read the same bytes.
//
// The cache is one file per repository, read once before any original
// runs and written whole, atomically, after the last one has ended: an
// original run during the gate that writes the file is overwritten, not
// believed. The caller keeps Dir outside every repository the gate
// reads, so nothing a pull request holds is read as a proof.
type ProofCache struct {
	// Dir holds the cache's files.
	Dir string
	// Base is the key of what the caller knows a re-run depends on
	// beyond the repository: the udfx executable, the Python and its
	// packages, the JDK, Scala and Spark found, the limits, the sandbox
	// and the Spark master.
	Base string
	// Full re-runs every record, reading no entry; what passes is kept.
	Full bool
}

// proofFileVersion changes when an entry's meaning does.
const proofFileVersion = 1

type proofFile struct {
	Version int                   `json:"version"`
	Root    string                `json:"root"`
	Entries map[string]proofEntry `json:"entries"`
}

// proofEntry is one passing re-run of a record: when, and what each of
// its items' details and policy said.
type proofEntry struct {
	Record  string    `json:"record"` // path, absolute, to prune by
	Proved  time.Time `json:"proved"`
	Details []string  `json:"details"`
	Policy  []string  `json:"policy"`
}

// proofStore is a run's view of the cache: the entries as read at its
// start, and those it keeps.
type proofStore struct {
	cache *ProofCache
	path  string
	root  string
	top   string
	mu    sync.Mutex
	old   map[string]proofEntry
	keep  map[string]proofEntry
	// sources are the repositories' sources digests by repository and
	// family, "" where there is none (no git): those records are re-run.
	sources map[string]string
}

// openProofStore reads the repository's cache file; a missing or
// unreadable one is an empty cache.
func openProofStore(c *ProofCache, root, top string) *proofStore {
	s := &proofStore{cache: c, root: root, top: top, old: map[string]proofEntry{}, keep: map[string]proofEntry{}, sources: map[string]string{},
		path: filepath.Join(c.Dir, digest.Key("udfx verify proofs", top)+".json")}
	b, err := os.ReadFile(s.path)
	if err != nil {
		return s
	}
	var f proofFile
	if json.Unmarshal(b, &f) == nil && f.Version == proofFileVersion && f.Root == top {
		for k, e := range f.Entries {
			s.old[k] = e
		}
	}
	return s
}

// recordKey is the key of c's re-run, "" when it cannot be cached.
func (s *proofStore) recordKey(ctx context.Context, c *recordCheck, u *udf.UDF, f rewriteFiles) string {
	family, name := digest.PythonFamily, "python"
	if u.Language != udf.Python {
		family, name = digest.JVMFamily, "jvm"
	}
	sources := s.sourcesOf(ctx, c.repo, name, family)
	if sources == "" {
		return ""
	}
	folder, err := folderDigest(filepath.Dir(c.recAbs))
	if err != nil {
		return ""
	}
	parts := []string{s.cache.Base, "record", c.repo, c.recRel, folder, sources, c.rec.Engine.Name,
		fmt.Sprintf("%+v ansi=%v errors-to-null=%v", c.pol.compare, c.pol.ansi, c.pol.allowErrorToNull)}
	for i, rw := range c.rec.Rewrites {
		if f.content[i] == nil {
			return ""
		}
		parts = append(parts, rw.Path, rw.Target, evidence.SHA256(f.content[i]))
	}
	return digest.Key(parts...)
}

func (s *proofStore) sourcesOf(ctx context.Context, repo, name string, family digest.Family) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := repo + "\x00" + name
	d, seen := s.sources[id]
	if !seen {
		d, _ = digest.Sources(ctx, repo, family)
		s.sources[id] = d
	}
	return d
}

// folderDigest names every file of dir and its subfolders (the columnar
// and cuda renderings) with its content.
func folderDigest(dir string) (string, error) {
	var parts []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir():
			return nil
		case !d.Type().IsRegular():
			// A link or device in a record's folder is nothing udfx
			// writes: no key, the record is re-run.
			return fmt.Errorf("%s is not a plain file", p)
		}
		sum, err := digest.File(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		parts = append(parts, filepath.ToSlash(rel), sum)
		return nil
	})
	if err != nil {
		return "", err
	}
	return digest.Key(parts...), nil
}

// reuse gives c's items the details of a passing re-run kept under key,
// and reports whether there was one.
func (s *proofStore) reuse(key string, c *recordCheck) bool {
	if key == "" || s.cache.Full {
		return false
	}
	s.mu.Lock()
	e, ok := s.old[key]
	if ok {
		s.keep[key] = e
	}
	s.mu.Unlock()
	if !ok || len(e.Details) != len(c.items) || len(e.Policy) != len(c.items) {
		return false
	}
	for i := range c.items {
		if c.items[i].Status != Pass {
			return false
		}
	}
	for i := range c.items {
		it := &c.items[i]
		it.Detail = fmt.Sprintf("%s; not re-run now: unchanged since udfx re-ran it on %s (proof cache; --full re-runs it)", e.Details[i], e.Proved.UTC().Format("2006-01-02 15:04 UTC"))
		it.Policy, it.Cached = e.Policy[i], true
	}
	return true
}

// remember keeps c's re-run under key when every item passed and one was
// re-run.
func (s *proofStore) remember(key string, c *recordCheck) {
	if key == "" {
		return
	}
	rerun := false
	e := proofEntry{Record: c.recAbs, Proved: time.Now()}
	for _, it := range c.items {
		if it.Status != Pass {
			return
		}
		rerun = rerun || it.Rerun
		e.Details, e.Policy = append(e.Details, it.Detail), append(e.Policy, it.Policy)
	}
	if !rerun {
		return
	}
	s.mu.Lock()
	s.keep[key] = e
	s.mu.Unlock()
}

// save writes the entries this run used or made, and those of records
// outside the verified folder, which this run did not look at.
func (s *proofStore) save() error {
	f := proofFile{Version: proofFileVersion, Root: s.top, Entries: map[string]proofEntry{}}
	for k, e := range s.old {
		if !confine.Within(s.root, e.Record) {
			f.Entries[k] = e
		}
	}
	for k, e := range s.keep {
		f.Entries[k] = e
	}
	b, err := json.MarshalIndent(f, "", " ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(s.cache.Dir, 0o755); err != nil {
		return fmt.Errorf("proof cache: %w", err)
	}
	if err := evidence.WriteFileAtomic(s.path, b, 0o644); err != nil {
		return fmt.Errorf("proof cache: %w", err)
	}
	return nil
}

// cachedCounts is how many records were re-run and how many taken from
// the cache, for the summary.
func cachedCounts(items []Item) (reran, cached int) {
	reranRec, cachedRec := map[string]bool{}, map[string]bool{}
	for _, it := range items {
		if it.Cached {
			cachedRec[it.Record] = true
		} else if it.Rerun {
			reranRec[it.Record] = true
		}
	}
	return len(reranRec), len(cachedRec)
}
