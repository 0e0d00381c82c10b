// Package verify is the CI gate behind `udfx verify`: it finds every
// evidence record and every rewrite file below a folder and checks that
// each rewrite is still proved. A rewrite fails the gate when the UDF, the
// rewrite or the code the rewrite was inlined into changed since its
// record was written (stale), when it has no record (unverified), when
// the record's own hashes do not regenerate (inconsistent-record), when
// its record does not say verified (failed), when it claims a relaxation
// the repository's udfx.yaml does not grant (undeclared-relaxation), or
// when the differential test, re-run now under the project's policy rather
// than the record's, finds a counterexample (mismatch).
//
// The record is a claim, not a trust anchor: everything in it can be
// edited in a pull request. What the gate trusts is the repository's
// code and its reviewed udfx.yaml (docs/threat-model.md).
package verify

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/udfx/udfx/harness/config"
	"github.com/udfx/udfx/harness/difftest"
	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/inputs"
	"github.com/udfx/udfx/harness/pyenv"
	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/runner/jvm"
	"github.com/udfx/udfx/harness/runner/python"
	"github.com/udfx/udfx/harness/spark"
	"github.com/udfx/udfx/harness/translate"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/udf/frontends"
	"github.com/udfx/udfx/internal/confine"
	"github.com/udfx/udfx/internal/notebook"
	"github.com/udfx/udfx/internal/patch"
	"github.com/udfx/udfx/internal/sparkversion"
	"github.com/udfx/udfx/internal/typeinfer"
)

// Status is the verdict on one rewrite file. The failure statuses double
// as the SARIF rule ids; the set is part of the JSON schema
// (docs/verify-json.md): add to it, never rename.
type Status string

const (
	Pass Status = "pass"
	// StaleUDF: the original's definition changed (or is gone) since the
	// record was written.
	StaleUDF Status = "stale-udf"
	// StaleRewrite: the rewrite file changed (or is gone).
	StaleRewrite Status = "stale-rewrite"
	// Unverified: a rewrite file whose marker names no readable record,
	// or a record that does not list it.
	Unverified Status = "unverified"
	// Failed: the record itself says the rewrite was not verified.
	Failed Status = "failed"
	// Mismatch: the differential test, re-run now, disagrees.
	Mismatch Status = "mismatch"
	// Error: udfx could not check the rewrite (the original cannot be
	// run, a file cannot be read). It is not the user's failure, so the
	// gate exits with the internal-error code.
	Error Status = "error"
	// WrongEngine: the record was proved on another engine than the gate
	// requires (--require-engine).
	WrongEngine Status = "wrong-engine"
	// StaleUseSite: a use site the patch inlined the rewrite into no
	// longer holds what rewrite.sql gives for it, or the record's use site
	// does not follow from rewrite.sql.
	StaleUseSite Status = "stale-use-site"
	// UndeclaredRelaxation: the record claims a tolerance, NULL for an
	// error or another ANSI mode that udfx.yaml does not grant.
	UndeclaredRelaxation Status = "undeclared-relaxation"
	// InconsistentRecord: the record's own hashes (of the inputs its seed
	// and rows generate) do not match what udfx regenerates from it, or a
	// path it names leads outside the repository.
	InconsistentRecord Status = "inconsistent-record"
	// InterruptedApply: an `udfx rewrite --apply` was interrupted and its
	// journal is still open, so the tree may hold some of its files new
	// and others old. verify reports it and never repairs it.
	InterruptedApply Status = "interrupted-apply"
)

// FailureStatuses lists the statuses that fail the gate, in the order
// reports describe them.
var FailureStatuses = []Status{InterruptedApply, StaleUDF, StaleUseSite, StaleRewrite, Unverified, InconsistentRecord, Failed, UndeclaredRelaxation, Mismatch, WrongEngine, Error}

// Describe says what a status means, for SARIF rules and help text.
func Describe(s Status) string {
	switch s {
	case Pass:
		return "The rewrite's record matches the UDF and the rewrite, and the differential test passes."
	case StaleUDF:
		return "The original UDF changed (or is gone) since its rewrite was verified: re-run udfx rewrite."
	case StaleRewrite:
		return "The rewrite file changed (or is gone) since it was verified: re-run udfx rewrite or restore it."
	case Unverified:
		return "A rewrite file has no evidence record that lists it: it was never proved."
	case Failed:
		return "The evidence record says the rewrite did not pass its differential test."
	case Mismatch:
		return "Re-running the differential test now finds an input where the rewrite and the original disagree."
	case WrongEngine:
		return "The rewrite was proved on another engine than the gate requires: re-run udfx rewrite with --engine as required."
	case StaleUseSite:
		return "Code the rewrite was inlined into (a DataFrame call or SQL string) no longer holds what rewrite.sql gives for it: re-run udfx rewrite or restore it."
	case UndeclaredRelaxation:
		return "The evidence record claims a relaxation (a tolerance, NULL where the original throws, ANSI off) that the repository's udfx.yaml does not grant."
	case InconsistentRecord:
		return "The evidence record's hashes do not regenerate from its own seed and rows: it was edited by hand or written by another tool; re-run udfx rewrite."
	case Error:
		return "udfx could not check the rewrite, for example because the original UDF cannot be run."
	case InterruptedApply:
		return "An udfx rewrite --apply was interrupted: the tree may hold some of its files new and others old. verify does not repair it: run `udfx rewrite --recover` locally to roll it back."
	}
	return string(s)
}

// Item is the verdict on one rewrite file.
type Item struct {
	// UDF is the original's name (the record's folder name when there is
	// no readable record).
	UDF string `json:"udf"`
	// Target is the rewrite's target (sql, columnar, cuda); for a file
	// without a record it is guessed from the extension.
	Target string `json:"target"`
	// File is the rewrite file, relative to the verified folder,
	// slash-separated.
	File string `json:"file"`
	// Record is the evidence record's path, relative to the verified
	// folder; empty when there is none.
	Record string `json:"record"`
	// Original is the UDF's source file, relative to the verified folder.
	Original string `json:"original,omitempty"`
	Status   Status `json:"status"`
	Detail   string `json:"detail"`
	// Location is where a reviewer should look: the original's definition
	// for stale-udf, the rewrite file otherwise.
	Location Location `json:"location"`
	// Rerun says whether the differential test was re-run for this file.
	Rerun bool `json:"rerun"`
	// Cached says the re-run was not done now: an earlier run's passing
	// re-run of the same content was taken from the proof cache.
	Cached         bool                     `json:"cached"`
	Counterexample *difftest.Counterexample `json:"counterexample,omitempty"`
	// Policy is what the re-run was held to (comparison, ANSI, errors,
	// rows, seeds); empty when nothing was re-run.
	Policy string `json:"policy,omitempty"`
	// Relaxations are the relaxations in force for this rewrite, each
	// with where udfx.yaml declares it and why; empty when bit-exact with
	// ANSI on and errors compared.
	Relaxations []string `json:"relaxations"`
	// relaxedAt is the udfx.yaml entry granting them, for SARIF.
	relaxedAt Location
	// artifactNote says how the RapidsUDF jar built from this file was
	// checked (checkArtifacts).
	artifactNote string
	// renderedNote says the columnar or cuda file was rendered again and
	// matched (checkRendered).
	renderedNote string
}

// Location is a file (relative to the verified folder) and a 1-based
// line.
type Location struct {
	File string `json:"file"`
	Line int    `json:"line"`
}

// Result is the outcome of one gate run.
type Result struct {
	// Root is the verified folder as given.
	Root      string `json:"root"`
	Records   int    `json:"records"`
	SkipRerun bool   `json:"skip_rerun"`
	// Python is the interpreter the originals were re-run with, and
	// PythonFrom where it came from (Options).
	Python     string `json:"python,omitempty"`
	PythonFrom string `json:"python_from,omitempty"`
	// PythonSHA256 is the hash of the interpreter's executable (links
	// followed), so that a report says which binary ran, not only where.
	PythonSHA256 string `json:"python_sha256,omitempty"`
	// ProofCache says how the proof cache was used: "" with none,
	// "incremental" (records unchanged since a passing re-run were taken
	// from it), or "full" (every record re-run); Reran and FromCache
	// count records.
	ProofCache string `json:"proof_cache,omitempty"`
	Reran      int    `json:"reran"`
	FromCache  int    `json:"from_cache"`
	Items      []Item `json:"items"`
}

// executableHash is the SHA-256 of the file path names, links followed;
// "" when it cannot be read.
func executableHash(path string) string {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return ""
	}
	f, err := os.Open(real)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Counts returns how many items have each status.
func (r *Result) Counts() map[Status]int {
	m := map[Status]int{}
	for _, it := range r.Items {
		m[it.Status]++
	}
	return m
}

// Passed reports whether every item passed.
func (r *Result) Passed() bool {
	for _, it := range r.Items {
		if it.Status != Pass {
			return false
		}
	}
	return true
}

// HasErrors reports whether some item could not be checked.
func (r *Result) HasErrors() bool { return r.Counts()[Error] > 0 }

// Options configure a gate run.
type Options struct {
	// Root is the folder to verify (absolute, or relative to the process's
	// working directory); Display is how it is named in reports.
	Root    string
	Display string
	// SkipRerun checks the hashes only, without running the original.
	SkipRerun bool
	// RequireEngine, when set, fails every record proved on another
	// engine ("spark": only records of a test on real Spark pass).
	RequireEngine string
	// StartSpark starts the Spark session that records proved on Spark
	// are re-run in (once per gate run and engine, for the first such
	// UDF; the session takes the next UDFs' jars itself). engine is the
	// record's: "spark", or "comet" for Spark with the Comet plugin;
	// version is the Spark (major.minor) the record is a proof for, which
	// the session must run. Nil: such records are errors unless SkipRerun.
	StartSpark func(ctx context.Context, u *udf.UDF, engine, version string) (*spark.Session, error)
	Limits     runner.Limits
	// NewRunner starts the original's runner (runners.WithPython(Python)
	// in production).
	NewRunner func(ctx context.Context, u *udf.UDF, limits runner.Limits) (runner.Runner, error)
	// Python is the interpreter Python originals and rewrites are re-run
	// in, and PythonFrom where it came from; both are named in the
	// result. "" lets the runner look (UDFX_PYTHON, a .venv above the
	// UDF), which trusts the repository's .venv: the gate's caller
	// chooses instead.
	Python, PythonFrom string
	// Progress, when set, hears what the gate is doing.
	Progress func(stage string)
	// Jobs is how many records are checked at once (at least 1).
	// Records proved on Spark take turns on its one session.
	Jobs int
	// Cache, when set, lets records unchanged since a passing re-run skip
	// theirs (ProofCache).
	Cache *ProofCache
	// IncludeTestdata walks testdata folders too. They are skipped by
	// default: Go and many other tool chains keep test fixtures there,
	// among them golden copies of rewrites with their markers, which are
	// inputs of tests and not rewrites of the repository.
	IncludeTestdata bool
}

// InputError is a PATH that cannot be verified: it does not exist or is
// not a folder.
type InputError struct {
	Path string
	Err  error
}

func (e *InputError) Error() string { return fmt.Sprintf("%s: %v", e.Path, e.Err) }
func (e *InputError) Unwrap() error { return e.Err }

// skipDirs are not walked: version control, udfx's own workspaces (they
// hold candidates that were never applied; only their journals of
// interrupted applies are looked at) and vendored code.
var skipDirs = map[string]bool{
	".git": true, ".udfx": true, "vendor": true, "third_party": true,
	"node_modules": true, "site-packages": true, "__pycache__": true,
	"venv": true, ".venv": true,
}

// maxMarkerScan bounds how much of a file is read looking for a marker in
// its first 20 lines: a longer prefix is not a rewrite udfx wrote.
const maxMarkerScan = 64 << 10

// Run verifies every rewrite below opts.Root.
func Run(ctx context.Context, opts Options) (*Result, error) {
	progress := func(string) {}
	if opts.Progress != nil {
		// Records are checked in parallel; the caller's func need not be
		// safe for that.
		var mu sync.Mutex
		progress = func(stage string) {
			mu.Lock()
			defer mu.Unlock()
			opts.Progress(stage)
		}
	}
	root, err := filepath.Abs(opts.Root)
	if err != nil {
		return nil, &InputError{Path: opts.Display, Err: err}
	}
	fi, err := os.Stat(root)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, &InputError{Path: opts.Display, Err: errors.New("no such file or directory")}
		}
		return nil, &InputError{Path: opts.Display, Err: err}
	}
	if !fi.IsDir() {
		return nil, &InputError{Path: opts.Display, Err: errors.New("not a folder")}
	}
	progress("finding records and rewrites")
	tree, err := walk(root, opts.IncludeTestdata)
	if err != nil {
		return nil, err
	}
	records, marked, repos := tree.records, tree.marked, tree.repos
	top := patch.RepoRoot(root)
	v := &verifier{root: root, top: top, opts: opts, progress: progress}
	// Relaxations come from the udfx.yaml at the repository root and from
	// nowhere else: a nested one would grant tolerances to the records
	// below it where a reviewer of the root's file never looks, so it
	// stops the gate. The root's is read before anything is checked: a
	// config udfx cannot read stops the gate instead of being ignored.
	for _, c := range tree.configs {
		if filepath.Dir(c) != top {
			return nil, &config.Error{File: v.rel(c), Msg: fmt.Sprintf("udfx reads relaxations only from the %s at the repository root (%s), so a nested one would grant what no reviewer of that file saw: move its entries there, with file: naming each UDF's file from the root, or remove it", config.File, v.rel(filepath.Join(top, config.File)))}
		}
	}
	if v.config, err = config.Load(top, v.rel(filepath.Join(top, config.File))); err != nil {
		return nil, err
	}
	defer v.closeSessions()
	res := &Result{Root: opts.Display, Records: len(records), SkipRerun: opts.SkipRerun, Python: opts.Python, PythonFrom: opts.PythonFrom}
	if opts.Python != "" {
		res.PythonSHA256 = executableHash(opts.Python)
	}
	interrupted, err := v.interruptedApplies(append([]string{top}, repos...))
	if err != nil {
		return nil, err
	}
	res.Items = append(res.Items, interrupted...)
	for _, d := range tree.unreadable {
		rel := v.rel(d.path)
		res.Items = append(res.Items, Item{UDF: "-", Target: "-", File: rel, Status: Error,
			Detail:   fmt.Sprintf("the folder %s cannot be read (%v), so no record or rewrite in it was checked", rel, d.err),
			Location: Location{File: rel, Line: 1}})
	}
	if opts.Cache != nil && !opts.SkipRerun {
		v.proofs = openProofStore(opts.Cache, root, top)
		res.ProofCache = "incremental"
		if opts.Cache.Full {
			res.ProofCache = "full"
		}
	}
	listed := map[string]bool{} // absolute rewrite paths some record lists
	for _, items := range v.checkRecords(ctx, records) {
		for _, it := range items {
			listed[filepath.Join(root, filepath.FromSlash(it.File))] = true
		}
		res.Items = append(res.Items, items...)
	}
	res.Reran, res.FromCache = cachedCounts(res.Items)
	if v.proofs != nil {
		// Only after the last original has ended: one of them could have
		// written the file while it ran.
		v.closeSessions()
		if err := v.proofs.save(); err != nil {
			return nil, err
		}
	}
	for _, m := range marked {
		if listed[m.abs] {
			continue
		}
		res.Items = append(res.Items, v.checkOrphan(m))
	}
	sort.SliceStable(res.Items, func(i, j int) bool {
		a, b := res.Items[i], res.Items[j]
		if a.UDF != b.UDF {
			return a.UDF < b.UDF
		}
		return a.File < b.File
	})
	return res, nil
}

// markedFile is a file carrying a rewrite marker.
type markedFile struct {
	abs    string
	record string // as the marker names it
	line   int
}

// tree is what walk finds below the verified folder.
type tree struct {
	records []string // Dir/<udf>/FileName
	marked  []markedFile
	repos   []string // folders holding a .udfx workspace
	configs []string // every config.File
	// unreadable are the folders and files walk could not look into:
	// a record there would go unchecked.
	unreadable []unreadable
}

type unreadable struct {
	path string
	err  error
}

// walk finds what the gate checks below root.
func walk(root string, includeTestdata bool) (*tree, error) {
	t := &tree{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return err
			}
			if u := errors.Unwrap(err); u != nil {
				err = u // the path is said separately
			}
			t.unreadable = append(t.unreadable, unreadable{p, err})
			return nil
		}
		if d.IsDir() {
			if d.Name() == patch.WorkspaceDirName {
				t.repos = append(t.repos, filepath.Dir(p))
			}
			if p != root && (skipDirs[d.Name()] || d.Name() == "testdata" && !includeTestdata) {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		if d.Name() == config.File {
			t.configs = append(t.configs, p)
		}
		if d.Name() == evidence.FileName && filepath.Base(filepath.Dir(filepath.Dir(p))) == evidence.Dir {
			t.records = append(t.records, p)
			return nil
		}
		rec, line, ok := markerOf(p)
		if ok {
			t.marked = append(t.marked, markedFile{abs: p, record: rec, line: line})
		}
		return nil
	})
	if err != nil {
		return nil, &InputError{Path: root, Err: err}
	}
	return t, nil
}

// interruptedApplies gives an item per open journal of an interrupted
// --apply in the repositories repos (each once). They are reported, never
// rolled back: the gate checks the tree, it does not change it.
func (v *verifier) interruptedApplies(repos []string) ([]Item, error) {
	var items []Item
	seen := map[string]bool{}
	for _, repo := range repos {
		if seen[repo] {
			continue
		}
		seen[repo] = true
		journals, err := patch.OpenJournals(repo)
		if err != nil {
			return nil, err
		}
		for _, j := range journals {
			rel := v.rel(j.Path)
			detail := fmt.Sprintf("udfx rewrite --apply of %s was interrupted: its journal is open, so of the files it writes (%s) some may be new and others old. "+
				"verify does not repair a tree: run `udfx rewrite --recover` (or any udfx command but verify) in the repository to roll the apply back, then apply again",
				j.UDF, strings.Join(j.Files, ", "))
			if j.Err != nil {
				detail = fmt.Sprintf("an interrupted udfx rewrite --apply of %s left a journal udfx cannot read, so the tree may be half-applied: %v", j.UDF, j.Err)
			}
			items = append(items, Item{UDF: j.UDF, Target: "-", File: rel, Status: InterruptedApply, Detail: detail,
				Location: Location{File: rel, Line: 1}})
		}
	}
	return items, nil
}

// markerOf reads the start of p looking for a rewrite marker.
func markerOf(p string) (record string, line int, ok bool) {
	f, err := os.Open(p)
	if err != nil {
		return "", 0, false
	}
	defer f.Close()
	buf := make([]byte, maxMarkerScan)
	n, _ := io.ReadFull(f, buf)
	buf = buf[:n]
	if bytes.IndexByte(buf, 0) >= 0 {
		return "", 0, false // binary
	}
	rec, err := evidence.FindMarker(buf)
	if err != nil {
		return "", 0, false
	}
	for i, l := range strings.SplitN(string(buf), "\n", 21) {
		if strings.Contains(l, "udfx:rewrite record=") {
			return rec, i + 1, true
		}
	}
	return rec, 1, true
}

type verifier struct {
	root     string
	opts     Options
	progress func(string)
	// sessions are the Spark sessions re-runs of records proved on
	// Spark share, by engine (spark, comet) and Spark version, each
	// started on the first record of its engine and version.
	sessions map[string]*spark.Session
	// sparkMu is held by the re-run that uses a Spark session, and by
	// whoever starts or stops one.
	sparkMu sync.Mutex
	// top is the repository root (patch.RepoRoot of root), whose
	// udfx.yaml is config.
	top    string
	config *config.Config
	// proofs is the proof cache of this run, nil without one.
	proofs *proofStore
}

// checkRecords checks every record, opts.Jobs at a time, and returns
// their items in the records' order.
func (v *verifier) checkRecords(ctx context.Context, records []string) [][]Item {
	out := make([][]Item, len(records))
	jobs := min(max(v.opts.Jobs, 1), max(len(records), 1))
	next := make(chan int)
	var wg sync.WaitGroup
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i] = v.checkRecord(ctx, records[i])
			}
		}()
	}
	for i := range records {
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}

// closeSessions stops the Spark sessions, once.
func (v *verifier) closeSessions() {
	v.sparkMu.Lock()
	defer v.sparkMu.Unlock()
	for engine, s := range v.sessions {
		s.Close()
		delete(v.sessions, engine)
	}
}

// sparkFor returns the shared Spark session of engine and Spark version
// (major.minor), starting it for u. The caller holds sparkMu: re-runs take
// turns on a session.
func (v *verifier) sparkFor(ctx context.Context, u *udf.UDF, engine, version string) (*spark.Session, error) {
	key := engine + " " + version
	if s := v.sessions[key]; s != nil {
		return s, nil
	}
	if v.opts.StartSpark == nil {
		return nil, errors.New("the record was proved on Spark and this gate has no Spark configured")
	}
	v.progress(fmt.Sprintf("starting Spark %s for the records proved on %s", version, engine))
	s, err := v.opts.StartSpark(ctx, u, engine, version)
	if err != nil {
		return nil, err
	}
	if got := sparkversion.Minor(s.Version()); got != version {
		s.Close()
		return nil, fmt.Errorf("the record is a proof for Spark %s, and the gate's Python runs Spark %s: give verify a Python with pyspark %s (--python), or let udfx use its own", version, s.Version(), version)
	}
	if v.sessions == nil {
		v.sessions = map[string]*spark.Session{}
	}
	v.sessions[key] = s
	return s, nil
}

// rel names an absolute path relative to the verified folder.
func (v *verifier) rel(abs string) string {
	if r, err := filepath.Rel(v.root, abs); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(r)
	}
	return filepath.ToSlash(abs)
}

// repoOf is the repository root a record belongs to: the folder holding
// its Dir. Paths inside the record are relative to it.
func repoOf(recordAbs string) string {
	return filepath.Dir(filepath.Dir(filepath.Dir(recordAbs)))
}

// checkRecord verifies one record and returns an item per rewrite file it
// lists.
func (v *verifier) checkRecord(ctx context.Context, recAbs string) []Item {
	c, items := v.newRecordCheck(recAbs)
	if c == nil {
		return items
	}
	// Every path the record names must stay in the repository before any
	// is read or run: the record is the pull request's text. Every entry
	// must be one verify proves again: a second proved entry, or one of a
	// target verify does not know, would pass on its hash.
	for _, problem := range []string{outsidePath(c.repo, c.rec), unprovedEntries(c.rec)} {
		if problem != "" {
			c.fail(InconsistentRecord, problem, c.recordLoc())
			return c.items
		}
	}
	if c.rec.Original.Kind == string(udf.KindRDDPipeline) {
		v.checkPipeline(ctx, c)
		return c.items
	}

	// The original: its definition, signature and what it depends on
	// outside its span must hash as they did.
	u, open, defLine, udfProblem, udfErr := v.original(ctx, c.rec, c.repo)
	if udfErr != nil {
		c.fail(Error, udfErr.Error(), nil)
		return c.items
	}
	if udfProblem != "" {
		c.fail(StaleUDF, udfProblem, &Location{File: v.rel(c.origAbs), Line: max(defLine, 1)})
		return c.items
	}
	files := c.readRewrites()
	if !c.checkTypeGuard(u, open, files) || !c.checkDerived(u, files) || !c.checkClaims(u) {
		return c.items
	}
	c.passDetails()
	var key string
	if v.proofs != nil {
		if key = v.proofs.recordKey(ctx, c, u, files); v.proofs.reuse(key, c) {
			return c.items
		}
	}
	c.rerun(ctx, u, files)
	c.rerunPerType(ctx, u, files)
	if v.proofs != nil {
		v.proofs.remember(key, c)
	}
	return c.items
}

// recordCheck is the check of one record: the record, where it and its
// original lie, and an item per rewrite file it lists.
type recordCheck struct {
	v       *verifier
	rec     *evidence.Record
	recAbs  string
	recRel  string
	repo    string // the repository root the record's paths are relative to
	origAbs string
	pol     *policy
	// decls are the Spark declarations nearest the original
	// (sparkversion.Nearest), declsErr why they cannot be read.
	decls    []sparkversion.Declared
	declsErr error
	items    []Item
	// guardNames and guardEntries are the record's per-type tests as
	// checkTypeGuard read them, for rerunPerType.
	guardNames   []string
	guardEntries []perTypeEntry
}

// newRecordCheck reads the record and makes its items. A record that
// cannot be read or lists no rewrite gives a single item and no check.
func (v *verifier) newRecordCheck(recAbs string) (*recordCheck, []Item) {
	recRel := v.rel(recAbs)
	folder := filepath.Base(filepath.Dir(recAbs))
	rec, err := evidence.Read(recAbs)
	if err != nil {
		return nil, []Item{{UDF: folder, Target: "-", File: recRel, Record: recRel, Status: Unverified,
			Detail: fmt.Sprintf("the record cannot be read, so nothing it lists is proved: %v", err), Location: Location{File: recRel, Line: 1}}}
	}
	repo := repoOf(recAbs)
	if len(rec.Rewrites) == 0 {
		return nil, []Item{{UDF: rec.Original.Name, Target: "-", File: recRel, Record: recRel, Status: Unverified,
			Detail: "the record lists no rewrite files", Location: Location{File: recRel, Line: 1}}}
	}
	origAbs := filepath.Join(repo, filepath.FromSlash(rec.Original.File))
	decls, declsErr := sparkversion.Nearest(repo, origAbs)
	c := &recordCheck{v: v, rec: rec, recAbs: recAbs, recRel: recRel, repo: repo, origAbs: origAbs,
		decls: decls, declsErr: declsErr, pol: v.policyFor(repo, rec, decls, declsErr)}
	c.items = make([]Item, len(rec.Rewrites))
	for i, rw := range rec.Rewrites {
		abs := filepath.Join(repo, filepath.FromSlash(rw.Path))
		c.items[i] = Item{UDF: rec.Original.Name, Target: rw.Target, File: v.rel(abs), Record: recRel,
			Original: v.rel(c.origAbs), Status: Pass, Location: Location{File: v.rel(abs), Line: 1},
			Relaxations: c.pol.relaxations()}
		if g := c.pol.grant; g != nil {
			c.items[i].relaxedAt = Location{File: g.ConfigPath, Line: g.Line}
		}
	}
	return c, nil
}

// fail gives every item still passing a status.
func (c *recordCheck) fail(st Status, detail string, loc *Location) {
	for i := range c.items {
		if c.items[i].Status == Pass {
			c.items[i].Status, c.items[i].Detail = st, detail
			if loc != nil {
				c.items[i].Location = *loc
			}
		}
	}
}

// recordLoc points at the record itself.
func (c *recordCheck) recordLoc() *Location { return &Location{File: c.recRel, Line: 1} }

// rewriteFiles are the record's rewrite files as read: each one's bytes,
// and the first SQL and vectorized Python rewrites (-1 when none).
type rewriteFiles struct {
	content        [][]byte
	sqlIdx, pyIdx  int
	sqlText, pyAbs string
}

// readRewrites reads each rewrite file: its bytes must hash as they did
// and its marker, if any, must name this record.
func (c *recordCheck) readRewrites() rewriteFiles {
	f := rewriteFiles{content: make([][]byte, len(c.rec.Rewrites)), sqlIdx: -1, pyIdx: -1}
	for i, rw := range c.rec.Rewrites {
		abs := filepath.Join(c.repo, filepath.FromSlash(rw.Path))
		b, ok := readRewrite(&c.items[i], abs, rw)
		if !ok {
			continue
		}
		f.content[i] = b
		if rw.Target == string(udf.TargetSQL) && f.sqlIdx < 0 {
			f.sqlIdx, f.sqlText = i, evidence.StripSQLComments(string(b))
		}
		if (rw.Target == string(udf.TargetVectorizedPython) || rw.Target == string(udf.TargetVectorizedPythonFast)) && f.pyIdx < 0 {
			f.pyIdx, f.pyAbs = i, abs
		}
	}
	return f
}

// checkDerived checks what must follow from the proved SQL: the columnar
// and cuda files udfx renders from it, the RapidsUDF jar where it is here,
// and the use sites the job runs. It reports whether checking goes on.
func (c *recordCheck) checkDerived(u *udf.UDF, f rewriteFiles) bool {
	if f.sqlIdx >= 0 {
		recDir, _ := filepath.Rel(c.repo, filepath.Dir(c.recAbs))
		checkRendered(c.rec, u, c.origAbs, filepath.ToSlash(recDir), f.sqlText, c.items, f.content)
	}
	c.v.checkArtifacts(c.repo, c.rec, c.items)
	if len(c.rec.UseSites) == 0 {
		return true
	}
	if f.sqlIdx < 0 {
		c.fail(StaleUseSite, "the record lists inlined use sites but no SQL rewrite they follow from", nil)
		return false
	}
	if it := &c.items[f.sqlIdx]; it.Status == Pass {
		if problem, loc := c.v.checkUseSites(c.repo, c.rec, u, f.sqlText); problem != "" {
			it.Status, it.Detail, it.Location = StaleUseSite, problem, loc
		}
	}
	return true
}

// checkClaims checks what the record claims of itself: its hashes must
// regenerate from what it says, its result must be verified, and any
// relaxation or engine must be one the gate accepts. It reports whether
// checking goes on.
func (c *recordCheck) checkClaims(u *udf.UDF) bool {
	rec := c.rec
	if problem, err := checkInputs(rec, u); err != nil {
		c.fail(Error, err.Error(), nil)
		return false
	} else if problem != "" {
		c.fail(InconsistentRecord, problem, c.recordLoc())
		return false
	}
	if rec.Result != evidence.Verified {
		c.fail(Failed, fmt.Sprintf("the record's result is %q, not %q (%d mismatches)", rec.Result, evidence.Verified, rec.Mismatches), nil)
		return false
	}
	if claims := c.pol.undeclared(rec); len(claims) > 0 {
		c.fail(UndeclaredRelaxation, fmt.Sprintf("the record claims %s, which %s does not grant to %s; the gate holds every rewrite to bit-exact results, ANSI on and errors compared unless udfx.yaml declares otherwise with a reason",
			strings.Join(claims, ", "), c.pol.configName, rec.Original.Name), c.recordLoc())
		return false
	}
	if req := c.v.opts.RequireEngine; req != "" && rec.Engine.Name != req {
		c.fail(WrongEngine, fmt.Sprintf("the record was proved on engine %q; this gate requires %q", rec.Engine.Name, req), nil)
		return false
	}
	if problem, err := sparkProblem(c.decls, c.declsErr, rec); err != nil {
		c.fail(Error, err.Error(), nil)
		return false
	} else if problem != "" {
		c.fail(WrongEngine, problem, nil)
		return false
	}
	if problem := c.pol.modeProblem(rec); problem != "" {
		c.fail(WrongEngine, problem, nil)
		return false
	}
	return true
}

// passDetails says of every item still passing what was checked.
func (c *recordCheck) passDetails() {
	for i := range c.items {
		if c.items[i].Status == Pass {
			c.items[i].Detail = "hashes match the record"
			if n := c.items[i].renderedNote; n != "" {
				c.items[i].Detail += "; " + n
			}
			if n := c.items[i].artifactNote; n != "" {
				c.items[i].Detail += "; " + n
			}
		}
	}
}

// rerun runs the differential test again on the SQL rewrite, or on the
// vectorized Python one where the record has no SQL rewrite.
func (c *recordCheck) rerun(ctx context.Context, u *udf.UDF, f rewriteFiles) {
	v, items := c.v, c.items
	if !v.opts.SkipRerun && f.sqlIdx < 0 && f.pyIdx >= 0 && items[f.pyIdx].Status == Pass {
		v.rerunPython(ctx, c.rec, u, &items[f.pyIdx], f.pyAbs, c.pol)
		return
	}
	if v.opts.SkipRerun || f.sqlIdx < 0 || items[f.sqlIdx].Status != Pass {
		if !v.opts.SkipRerun {
			for i := range items {
				if items[i].Status == Pass && items[i].Target != string(udf.TargetSQL) {
					items[i].Detail += "; the differential test re-runs SQL rewrites only"
				}
			}
		}
		return
	}
	v.rerun(ctx, c.rec, u, &items[f.sqlIdx], f.sqlText, c.pol)
	for i := range items {
		if i != f.sqlIdx && items[i].Status == Pass {
			items[i].Detail += "; the differential test re-runs SQL rewrites only"
		}
	}
}

// original finds the record's UDF in its source and checks its span hash,
// its signature and what it depends on outside its span. problem is
// non-empty when the UDF is stale; err when it cannot be checked at all.
func (v *verifier) original(ctx context.Context, rec *evidence.Record, repo string) (u *udf.UDF, open []string, line int, problem string, err error) {
	src, rerr := os.ReadFile(filepath.Join(repo, filepath.FromSlash(rec.Original.File)))
	if errors.Is(rerr, fs.ErrNotExist) {
		return nil, nil, 0, fmt.Sprintf("the UDF changed: its file %s is gone", rec.Original.File), nil
	}
	if rerr != nil {
		return nil, nil, 0, "", fmt.Errorf("read the original %s: %w", rec.Original.File, rerr)
	}
	// A notebook is read as its code cells' Python.
	if src, rerr = notebook.Code(rec.Original.File, src); rerr != nil {
		return nil, nil, 0, fmt.Sprintf("the UDF changed: %v", rerr), nil
	}
	lang := udf.Language(rec.Original.Language)
	switch lang {
	case udf.Scala, udf.Java, udf.Python:
	default:
		return nil, nil, 0, "", fmt.Errorf("record %s: unknown language %q", rec.Original.Name, rec.Original.Language)
	}
	fe := frontends.New(lang)
	defer fe.Close()
	udfs, perr := fe.Parse(rec.Original.File, src)
	if perr != nil {
		return nil, nil, 0, fmt.Sprintf("the UDF changed: %s no longer parses: %v", rec.Original.File, perr), nil
	}
	for i := range udfs {
		if udfs[i].Name != rec.Original.Name {
			continue
		}
		u = &udfs[i]
		u.Root = repo
		line = u.Span.Start.Line
		text, terr := evidence.SpanText(src, u.Span)
		if terr != nil {
			return nil, nil, line, "", fmt.Errorf("%s: %w", rec.Original.File, terr)
		}
		if got := evidence.SpanHash(text); got != rec.Original.SpanSHA256 {
			return nil, nil, line, fmt.Sprintf("the UDF changed: %s at %s:%d hashes to %s, the record has %s",
				u.Name, rec.Original.File, line, short(got), short(rec.Original.SpanSHA256)), nil
		}
		// Types are resolved from the file as it is now (hints, udfx
		// comments, casts and schemas that remain); only what it leaves
		// unknown comes from the record (the call site a type was read
		// from may be gone after --apply). The signature hash below then
		// catches a type the file now gives differently.
		opts := typeinfer.Options{Compiled: jvm.MissingTypes(ctx, u, jvm.Options{Limits: v.opts.Limits, Env: v.runnerEnv()})}
		if err := typeinfer.Resolve(u, src, opts); err != nil {
			return nil, nil, line, fmt.Sprintf("the UDF changed: its types no longer resolve: %v", err), nil
		}
		if open, err = recordTypes(u, rec); err != nil {
			return nil, nil, line, "", fmt.Errorf("record %s: %w", rec.Original.Name, err)
		}
		recordFactory(u, rec)
		if problem := useTypesDrift(fe, u, src, rec, open); problem != "" {
			return nil, nil, line, problem, nil
		}
		if rec.Original.SignatureSHA256 == "" {
			return nil, nil, line, fmt.Sprintf("the record of %s has no signature hash (written by an udfx that did not check signatures, use sites and inputs, or edited): re-run udfx rewrite", u.Name), nil
		}
		if got := evidence.SignatureHash(u); got != rec.Original.SignatureSHA256 {
			return nil, nil, line, fmt.Sprintf("the UDF changed: the signature of %s (%s) hashes to %s, the record has %s; a parameter or return type changed, possibly where it is registered",
				u.Name, signatureText(u), short(got), short(rec.Original.SignatureSHA256)), nil
		}
		if msg := dependencyDrift(rec.Original.DependsOn, evidence.Dependencies(u, src)); msg != "" {
			return nil, nil, line, fmt.Sprintf("the UDF changed: %s depends on code outside its definition in %s that changed: %s", u.Name, rec.Original.File, msg), nil
		}
		return u, open, line, "", nil
	}
	return nil, nil, 0, fmt.Sprintf("the UDF changed: %s no longer defines %s", rec.Original.File, rec.Original.Name), nil
}

func signatureText(u *udf.UDF) string {
	ps := make([]string, len(u.Params))
	for i, p := range u.Params {
		ps[i] = p.Name + ": " + typeName(p.Type)
	}
	return "(" + strings.Join(ps, ", ") + ") -> " + typeName(u.Return)
}

func typeName(t *udf.Type) string {
	if t == nil {
		return "?"
	}
	return t.String()
}

// dependencyDrift says how the dependencies found now differ from the
// recorded ones ("" when they are the same).
func dependencyDrift(recorded, now []evidence.Dependency) string {
	key := func(d evidence.Dependency) string { return d.Kind + " " + d.Name }
	was := map[string][]string{}
	for _, d := range recorded {
		was[key(d)] = append(was[key(d)], d.SHA256)
	}
	is := map[string][]string{}
	for _, d := range now {
		is[key(d)] = append(is[key(d)], d.SHA256)
	}
	for _, d := range now {
		k := key(d)
		if _, ok := was[k]; !ok {
			return fmt.Sprintf("%s %s is not in the record", d.Kind, d.Name)
		}
		if strings.Join(was[k], ",") != strings.Join(is[k], ",") {
			return fmt.Sprintf("%s %s hashes differently", d.Kind, d.Name)
		}
	}
	for _, d := range recorded {
		if _, ok := is[key(d)]; !ok {
			return fmt.Sprintf("%s %s is gone", d.Kind, d.Name)
		}
	}
	return ""
}

func quoteShort(s string) string {
	s = oneLine(s)
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return strconv.Quote(s)
}

// MaxRows bounds the rows a record may claim: the gate will not generate
// more than this to check a record's hashes or re-run its test.
const MaxRows = 10_000_000

// checkInputs regenerates the inputs the record's seed and rows give for
// the UDF's signature and compares their hash with the record's.
func checkInputs(rec *evidence.Record, u *udf.UDF) (problem string, err error) {
	switch {
	case rec.Rows <= 0 || rec.Rows > MaxRows:
		return fmt.Sprintf("the record claims %d rows; udfx tests 1 to %d", rec.Rows, MaxRows), nil
	case rec.InputsSHA256 == "":
		return "the record has no inputs hash", nil
	}
	got, err := InputsHash(u, rec.Seed, rec.Rows)
	if err != nil {
		return "", fmt.Errorf("regenerate the inputs of %s: %w", u.Name, err)
	}
	if got != rec.InputsSHA256 {
		return fmt.Sprintf("the inputs that seed %d and %d rows generate for %s hash to %s, the record has %s",
			rec.Seed, rec.Rows, u.Name, short(got), short(rec.InputsSHA256)), nil
	}
	return "", nil
}

// InputsHash is the sha256 of the Arrow IPC file of the inputs udfx
// generates for u with seed and rows, as `udfx rewrite` saves them
// (inputs.arrow) and records them (inputs_sha256).
func InputsHash(u *udf.UDF, seed int64, rows int) (string, error) {
	params := make([]inputs.Param, len(u.Params))
	for i, p := range u.Params {
		if p.Type == nil {
			return "", fmt.Errorf("the Spark type of parameter %s is not known from the source", p.Name)
		}
		params[i] = inputs.Param{Name: p.Name, Type: p.Type}
	}
	rec, _, err := inputs.Generate(params, inputs.Options{Seed: seed, Rows: rows}, memory.NewGoAllocator())
	if err != nil {
		return "", err
	}
	defer rec.Release()
	dir, err := os.MkdirTemp("", "udfx-verify-inputs-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "inputs.arrow")
	if err := inputs.WriteIPC(path, rec); err != nil {
		return "", err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	return evidence.SHA256(b), nil
}

// rerun runs the differential test again under the project's policy:
// the record's seed and udfx's own seeds, at least DefaultRows rows.
func (v *verifier) rerun(ctx context.Context, rec *evidence.Record, u *udf.UDF, it *Item, sql string, pol *policy) {
	it.Rerun = true
	if sql == "" {
		it.Status, it.Detail = Failed, "the SQL rewrite file holds no expression"
		return
	}
	if v.opts.NewRunner == nil {
		it.Status, it.Detail = Error, "no runner for the original is configured"
		return
	}
	rows, seeds := v.rerunInputs(rec, u, it, pol, "")
	// A record is re-run on the engine that proved it.
	var session *spark.Session
	if rec.Engine.Name == "spark" || rec.Engine.Name == "comet" {
		v.sparkMu.Lock()
		defer v.sparkMu.Unlock()
		var err error
		if session, err = v.sparkFor(ctx, u, rec.Engine.Name, recordSpark(rec)); err != nil {
			it.Status, it.Detail = Error, fmt.Sprintf("cannot re-run the test on %s: %v", rec.Engine.Name, err)
			return
		}
	}
	rep, total, ok := reRunSeeds(it, seeds, Error, func(seed int64) (*difftest.Report, error) {
		return difftest.Run(ctx, u, difftest.Rewrite{SQL: sql}, difftest.Options{
			Seed: seed, Rows: rows, ANSI: pol.ansi, Policy: pol.compare,
			AllowErrorToNull: pol.allowErrorToNull, Limits: v.opts.Limits, NewRunner: v.opts.NewRunner,
			Spark: session, NearMisses: true, ProveThrowingRows: true,
		})
	})
	if !ok {
		return
	}
	if problem := unicodeProblem(rec, u, rep) + jdkProblem(rec, u, rep); problem != "" {
		it.Status, it.Detail = Failed, problem
		return
	}
	if rep.Equal {
		it.Detail = fmt.Sprintf("hashes match the record; differential test re-run: %d of %d rows agree (%s%s)", total, total, it.Policy, nearMissNote(rep))
		switch {
		case rep.Engine == "comet":
			it.Detail += fmt.Sprintf(" on Apache Spark %s with DataFusion Comet %s (%s), no UDF node in the rewritten plan", rep.EngineVersion, rep.CometVersion, rep.Master)
			if n := rep.Plans.Rewrite.Native; n != nil && !n.ProjectionNative {
				it.Detail += "; verified, not native: " + n.NotNative
			}
		case session != nil:
			it.Detail += fmt.Sprintf(" on Apache Spark %s (%s), no UDF node in the rewritten plan", rep.EngineVersion, rep.Master)
		}
		return
	}
	mismatch(it, u, rep)
}

// unicodeProblem says why a re-run on a CPython with another Unicode than
// the proof's proves nothing: where CPython's Unicode database changed,
// str.lower(), str.upper() and float() may give what the inputs never
// show. jdkProblem says the same of a JVM original and the JDK, whose
// case mappings and parseInt digits change with its Unicode.
func unicodeProblem(rec *evidence.Record, u *udf.UDF, rep *difftest.Report) string {
	if u.Language != udf.Python {
		return ""
	}
	return runtimeDataProblem(u, rep.PythonUnicode, rec.PythonUnicode, func(r *translate.Result) string { return r.PythonUnicode }, runtimeData{
		proved:  "the record was proved on a CPython whose Unicode is %s",
		unnamed: "the record does not say which CPython it was proved on, and udfx's translation of the UDF follows CPython's Unicode %s",
		reran:   "the CPython that re-ran it has Unicode %s, whose case mappings and digits may differ: re-run udfx rewrite on this CPython",
	})
}

func jdkProblem(rec *evidence.Record, u *udf.UDF, rep *difftest.Report) string {
	if u.Language == udf.Python {
		return ""
	}
	return runtimeDataProblem(u, rep.JDK, rec.JDKCase, func(r *translate.Result) string { return r.JDKCase }, runtimeData{
		proved:  "the record was proved on JDK %s",
		unnamed: "the record does not say which JDK it was proved on, and udfx's translation of the UDF follows the case mappings and digits of JDK %s",
		reran:   "the original re-ran on JDK %s, whose case mappings and digits may differ: re-run udfx rewrite on this JDK",
	})
}

// runtimeData words a runtimeDataProblem; each holds one %s.
type runtimeData struct{ proved, unnamed, reran string }

// runtimeDataProblem compares the runtime data version a re-run had
// (have) with the record's (recorded); a record that names none, of a UDF
// whose translation follows such data (translated), is checked against
// the translator's.
func runtimeDataProblem(u *udf.UDF, have, recorded string, translated func(*translate.Result) string, words runtimeData) string {
	want, from := recorded, fmt.Sprintf(words.proved, recorded)
	if want == "" {
		src, err := os.ReadFile(u.Path())
		if err != nil {
			return ""
		}
		res, err := translate.Translate(u, src)
		if err != nil || translated(res) == "" {
			return ""
		}
		want, from = translated(res), fmt.Sprintf(words.unnamed, translated(res))
	}
	if have == want {
		return ""
	}
	if have == "" {
		have = "unknown"
	}
	return from + "; " + fmt.Sprintf(words.reran, have)
}

// rerunPython re-runs the differential test of a vectorized-python
// rewrite: the original and the rewrite module, both in CPython, one row
// per batch, under the project's policy and seeds, as rerun does for SQL.
func (v *verifier) rerunPython(ctx context.Context, rec *evidence.Record, u *udf.UDF, it *Item, rewriteAbs string, pol *policy) {
	it.Rerun = true
	rows, seeds := v.rerunInputs(rec, u, it, pol, " (CPython against CPython)")
	// The rewrite module is a UDF of its own, in its own file.
	rw := *u
	rw.File, rw.Root = rewriteAbs, ""
	rep, total, ok := reRunSeeds(it, seeds, Failed, func(seed int64) (*difftest.Report, error) {
		return difftest.RunPython(ctx, u, &rw, difftest.Options{
			Seed: seed, Rows: rows, ANSI: pol.ansi, Policy: pol.compare,
			AllowErrorToNull: pol.allowErrorToNull, Limits: v.opts.Limits, NewRunner: v.pythonRunner(1),
			NewBatchRunner: v.pythonRunner(python.DefaultBatchSize), NearMisses: true,
		})
	})
	if !ok {
		return
	}
	if rep.Equal {
		it.Detail = fmt.Sprintf("hashes match the record; differential test re-run in CPython: %d of %d rows agree (%s%s)", total, total, it.Policy, nearMissNote(rep))
		return
	}
	mismatch(it, u, rep)
}

// rerunInputs is what every re-run of a record's differential test
// starts from: the rows (at least DefaultRows) and seeds (the record's and
// udfx's own) of the project's policy, described on it. how is said in
// the progress line.
func (v *verifier) rerunInputs(rec *evidence.Record, u *udf.UDF, it *Item, pol *policy, how string) (rows int, seeds []int64) {
	rows = min(max(rec.Rows, DefaultRows), MaxRows)
	seeds = seedsFor(rec.Seed)
	it.Policy = pol.describe(rows, seeds)
	v.progress(fmt.Sprintf("re-running the differential test of %s%s", u.Name, how))
	return rows, seeds
}

// reRunSeeds runs the differential test once per seed until one run is
// not equal, and returns the last report and the rows that agreed. A run
// that ends in an error sets it.Status (a rewrite that can no longer
// be evaluated fails; an original that cannot run is an error; anything
// else is other) and returns ok false.
func reRunSeeds(it *Item, seeds []int64, other Status, run func(seed int64) (*difftest.Report, error)) (rep *difftest.Report, total int, ok bool) {
	for _, seed := range seeds {
		var err error
		if rep, err = run(seed); err != nil {
			var ue *difftest.UsageError
			var oe *difftest.OriginalError
			switch {
			case errors.As(err, &ue):
				// The record said verified, yet the rewrite no longer even
				// evaluates (for example a newer engine rejects it).
				it.Status, it.Detail = Failed, fmt.Sprintf("the rewrite cannot be tested now: %v", err)
			case errors.As(err, &oe):
				it.Status, it.Detail = Error, fmt.Sprintf("cannot run the original: %v", oe.Err)
			case other == Failed:
				it.Status, it.Detail = Failed, fmt.Sprintf("the rewrite cannot be run now: %v", err)
			default:
				it.Status, it.Detail = other, fmt.Sprintf("differential test: %v", err)
			}
			return nil, 0, false
		}
		if !rep.Equal {
			break
		}
		total += rep.Rows
	}
	return rep, total, true
}

// mismatch records a re-run that was not equal: the refutation, or the
// rows that differ and a counterexample.
func mismatch(it *Item, u *udf.UDF, rep *difftest.Report) {
	if rep.Refuted != "" && rep.Counterexample == nil {
		it.Status, it.Detail = Mismatch, "the re-run refutes the rewrite: "+rep.Refuted
		return
	}
	it.Status = Mismatch
	it.Counterexample = rep.Counterexample
	it.Detail = fmt.Sprintf("the rewrite differs from %s on %d of %d rows (seed %d; %s%s)", u.Name, rep.Mismatches, rep.Rows, rep.Seed, it.Policy, nearMissNote(rep))
	if ce := rep.Counterexample; ce != nil {
		it.Detail += "; counterexample: " + CounterexampleText(ce)
	}
}

// CounterexampleText writes a counterexample on one line.
func CounterexampleText(ce *difftest.Counterexample) string {
	ins := make([]string, len(ce.Inputs))
	for i, in := range ce.Inputs {
		ins[i] = fmt.Sprintf("%s = %s", in.Name, in.Value)
	}
	batch := ""
	if ce.Batch > 0 {
		batch = fmt.Sprintf(" (in a batch of %d rows; on the row alone the rewrite agreed)", ce.Batch)
	}
	return fmt.Sprintf("%s → original %s, rewrite %s%s", strings.Join(ins, ", "), ce.Original, ce.Rewrite, batch)
}

// checkOrphan judges a marked file that no record lists.
func (v *verifier) checkOrphan(m markedFile) Item {
	rel := v.rel(m.abs)
	it := Item{UDF: "-", Target: targetOf(m.abs), File: rel, Status: Unverified, Location: Location{File: rel, Line: m.line}}
	recAbs, ok := findRecord(m.abs, m.record)
	if !ok {
		it.Detail = fmt.Sprintf("its marker names %s, which does not exist", m.record)
		return it
	}
	it.Record = v.rel(recAbs)
	it.UDF = filepath.Base(filepath.Dir(recAbs))
	if rec, err := evidence.Read(recAbs); err == nil && rec.Original.Name != "" {
		it.UDF = rec.Original.Name
	}
	it.Detail = fmt.Sprintf("its record %s does not list this file", it.Record)
	return it
}

// findRecord resolves a marker's record path, which is relative to the
// repository root: it tries the file's folder and each folder above it,
// stopping at the repository root (the folder holding .git).
func findRecord(fileAbs, record string) (string, bool) {
	if filepath.IsAbs(record) || strings.Contains(record, "..") {
		return "", false
	}
	for d := filepath.Dir(fileAbs); ; d = filepath.Dir(d) {
		p := filepath.Join(d, filepath.FromSlash(record))
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return p, true
		}
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil || filepath.Dir(d) == d {
			return "", false
		}
	}
}

// targetOf guesses a rewrite file's target from its extension.
func targetOf(p string) string {
	switch strings.ToLower(filepath.Ext(p)) {
	case ".sql":
		return string(udf.TargetSQL)
	case ".java", ".scala":
		return string(udf.TargetColumnar)
	case ".cu", ".cuh", ".cpp", ".cc", ".h", ".hpp", ".txt", ".cmake":
		return string(udf.TargetCUDA)
	case ".py":
		return string(udf.TargetVectorizedPython)
	}
	return "-"
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	if h == "" {
		return "(none)"
	}
	return h
}

// recordFactory binds the arguments of the function that makes u from
// the record, where the file no longer calls it (--apply replaced the
// calls with the rewrite), as recordTypes fills the types those calls
// gave. Where the file still calls it, its arguments are the file's, and
// the dependency hashes compare them with the proof's.
func recordFactory(u *udf.UDF, rec *evidence.Record) {
	f := rec.Original.Factory
	if u.Factory == nil || !u.Factory.NotCalled || f == nil || f.Name != u.Factory.Name {
		return
	}
	var args []udf.FactoryArg
	for _, a := range f.Args {
		args = append(args, udf.FactoryArg{Param: a.Param, Literal: a.Literal})
	}
	u.Factory = u.Factory.Bind(args)
}

// recordTypes gives u the types its record was proved with: the types
// udfx read from use (a schema, a --types flag) may no longer be in the
// source once the use sites were rewritten, and the test holds for those
// types only.
func recordTypes(u *udf.UDF, rec *evidence.Record) (filled []string, err error) {
	for _, ts := range rec.TypeSources {
		if ts.Type == "" {
			continue
		}
		t, err := udf.ParseType(ts.Type)
		if err != nil {
			return nil, fmt.Errorf("type of %s: %w", ts.Name, err)
		}
		// Only what the source leaves unknown: a type the source gives
		// is never replaced by the record's claim.
		if ts.Name == "return" {
			if u.Return == nil || u.ReturnDefault {
				u.Return = t
			}
			continue
		}
		for i := range u.Params {
			if u.Params[i].Name == ts.Name && u.Params[i].Type == nil {
				u.Params[i].Type = t
				filled = append(filled, ts.Name)
			}
		}
	}
	return filled, nil
}

// readRewrite reads a rewrite file and checks its hash against the
// record; a file gone, unreadable or changed sets its status and is not
// ok.
func readRewrite(it *Item, abs string, rw evidence.RewriteFile) ([]byte, bool) {
	b, err := os.ReadFile(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		it.Status, it.Detail = StaleRewrite, "the rewrite changed: the file is gone"
		return nil, false
	case err != nil:
		it.Status, it.Detail = Error, fmt.Sprintf("read the rewrite: %v", err)
		return nil, false
	}
	if got := evidence.SHA256(b); got != rw.SHA256 {
		it.Status, it.Detail = StaleRewrite, fmt.Sprintf("the rewrite changed: sha256 %s, the record has %s", short(got), short(rw.SHA256))
		return nil, false
	}
	return b, true
}

// outsidePath names the first path of rec (the original, a rewrite file, a
// use site's file, an artifact) that leads outside the repository at repo,
// by "..", an absolute name or a symbolic link; "" when none does.
func outsidePath(repo string, rec *evidence.Record) string {
	problem := ""
	check := func(field, p string) {
		if problem != "" {
			return
		}
		err := confine.Check(repo, p)
		var oe *confine.OutsideError
		switch {
		case errors.As(err, &oe):
			problem = fmt.Sprintf("the record's %s %s; verify reads and runs only files inside the repository", field, oe.Error())
		case err != nil:
			problem = fmt.Sprintf("the record's %s %q cannot be resolved in the repository: %v", field, p, err)
		}
	}
	check("original.file", rec.Original.File)
	for i, rw := range rec.Rewrites {
		check(fmt.Sprintf("rewrites[%d].path", i), rw.Path)
	}
	for i, s := range rec.UseSites {
		check(fmt.Sprintf("use_sites[%d].file", i), s.File)
	}
	for i, a := range rec.Artifacts {
		check(fmt.Sprintf("artifacts[%d].path", i), a.Path)
	}
	return problem
}

// unprovedEntries says why the record lists an entry verify would not
// prove: two proved entries (verify re-runs one), an entry of an unknown
// target, or columnar and cuda files without the sql entry they follow
// from. "" when every entry is proved.
func unprovedEntries(rec *evidence.Record) string {
	var proved []string
	provedTarget := ""
	var rendered *evidence.RewriteFile // the first columnar or cuda file
	for i, rw := range rec.Rewrites {
		// A record holds exactly one entry of a target verify re-runs
		// against the original (udf.TargetInfo.Proved); the columnar and
		// cuda files come with a sql entry: udfx renders them from its IR.
		ti, known := udf.InfoOf(rw.Target)
		switch {
		case known && ti.Proved:
			proved, provedTarget = append(proved, rw.Target+" ("+rw.Path+")"), rw.Target
		case known && ti.FromSQL:
			if rendered == nil {
				rendered = &rec.Rewrites[i]
			}
		default:
			return fmt.Sprintf("the record lists %s as a rewrite of target %q, which udfx does not write and verify cannot prove", rw.Path, rw.Target)
		}
	}
	if len(proved) != 1 {
		return fmt.Sprintf("the record lists %d rewrites that verify proves (%s); udfx writes exactly one, and another would pass on its hash alone", len(proved), strings.Join(proved, ", "))
	}
	if rendered != nil && provedTarget != string(udf.TargetSQL) {
		return fmt.Sprintf("the record lists the %s file %s beside a %s rewrite; udfx renders %s files only from a proved SQL rewrite", rendered.Target, rendered.Path, provedTarget, rendered.Target)
	}
	return ""
}

// pythonRunner starts Python runners in the gate's interpreter with
// batches of batch rows (python.NewPerRow and python.NewBatched, in
// Options.Python).
func (v *verifier) pythonRunner(batch int) func(ctx context.Context, u *udf.UDF, limits runner.Limits) (runner.Runner, error) {
	return func(ctx context.Context, u *udf.UDF, limits runner.Limits) (runner.Runner, error) {
		return python.New(ctx, u, python.Options{Limits: limits, Python: v.opts.Python, BatchSize: batch})
	}
}

// nearMissNote says how many rows of each seed's run were built from the
// literals of the original and the rewrite ("" when none).
func nearMissNote(rep *difftest.Report) string {
	if rep.NearMissRows == 0 {
		return ""
	}
	return fmt.Sprintf(", each with %d near misses of the original's and the rewrite's literals", rep.NearMissRows)
}

// runnerEnv is the environment a JVM original is compiled in: Spark's jars
// come from the gate's own Python, never from a .venv of the repository
// under test ("" leaves the runner's own lookup, as NewRunner does).
func (v *verifier) runnerEnv() func(string) string {
	if v.opts.Python == "" {
		return nil
	}
	return pyenv.WithPython(os.Getenv, v.opts.Python)
}
