package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/pflag"

	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/rewrite"
	"github.com/udfx/udfx/harness/runner/jvm"
	pyrunner "github.com/udfx/udfx/harness/runner/python"
	"github.com/udfx/udfx/harness/scan"
	"github.com/udfx/udfx/harness/spark"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/udf/frontends"
	"github.com/udfx/udfx/internal/batch"
	"github.com/udfx/udfx/internal/patch"
	"github.com/udfx/udfx/internal/termsafe"
)

// repoOptions are rewrite's flags for a run over folders: which UDFs it
// takes and how it reports them.
type repoOptions struct {
	langs        []string
	kinds        []string
	names        []string
	changedSince string
	format       string
	jobs         int
	noCache      bool
	prBody       string
	branch       string
}

func addRepoFlags(f *pflag.FlagSet, o *repoOptions) {
	f.StringSliceVar(&o.langs, "lang", nil, "over folders: only UDFs in these languages (scala, java, python)")
	f.StringSliceVar(&o.kinds, "kind", nil, "over folders: only UDFs of these kinds (as udfx scan names them: python-udf, udf-class, ...)")
	f.StringSliceVar(&o.names, "name", nil, "over folders: only UDFs whose name or registered SQL name matches one of these globs")
	f.StringVar(&o.changedSince, "changed-since", "", "over folders: only UDFs in files changed since this git commit, branch or tag (committed, uncommitted or new)")
	f.StringVarP(&o.format, "format", "f", "table", "over folders: summary format, table or json")
	f.StringVar(&o.prBody, "pr-body", "", "over folders: also write a pull-request description of the run to this Markdown file")
	f.StringVar(&o.branch, "branch", "", "over folders: commit the verified rewrites on a new git branch of this name, one commit per UDF, from HEAD; the working tree and the current branch are left as they are")
	f.BoolVar(&o.noCache, "no-cache", false, "over folders: prove every UDF again, taking none from earlier runs")
	f.IntVarP(&o.jobs, "jobs", "j", runtime.NumCPU(), "over folders: UDFs rewritten at once (each one's benchmark then runs beside the others': --jobs 1 for quieter figures)")
}

// repoFlagNames are the flags that make rewrite a run over folders.
var repoFlagNames = []string{"lang", "kind", "name", "changed-since", "format", "jobs", "no-cache", "pr-body", "branch"}

// isRepoRun is whether rewrite's arguments ask for a run over folders:
// a folder among them, several of them, or a filter or --format given.
func isRepoRun(e *env, f *pflag.FlagSet, args []string) bool {
	if len(args) > 1 {
		return true
	}
	for _, n := range repoFlagNames {
		if f.Changed(n) {
			return true
		}
	}
	for _, a := range args {
		if st, err := os.Stat(e.abs(a)); err == nil && st.IsDir() {
			return true
		}
	}
	return false
}

// checkRepoRun refuses what a run over folders cannot do yet or does not
// mean, before anything runs.
func (opts *rewriteOptions) checkRepoRun(f *pflag.FlagSet) error {
	for _, n := range []string{"types", "workspace"} {
		if f.Changed(n) {
			why := map[string]string{
				"types":     "types belong to one UDF: give them as FILE:NAME(TYPES) to a run of that UDF",
				"workspace": "every UDF's workspace is <repo>/.udfx/<udf>",
			}[n]
			return usageErrorf("--%s does not apply to a run over folders: %s", n, why)
		}
	}
	if opts.repo.branch != "" && opts.apply {
		return usageErrorf("--branch and --apply: one or the other. --apply writes the verified rewrites into the working tree; --branch commits them on a new branch and leaves the working tree alone")
	}
	if f.Changed("branch") && opts.repo.branch == "" {
		return usageErrorf("--branch needs a name for the new branch")
	}
	if opts.repo.jobs < 1 {
		return usageErrorf("--jobs must be 1 or more, got %d", opts.repo.jobs)
	}
	if opts.repo.format != "table" && opts.repo.format != "json" {
		return usageErrorf("unknown --format %q: want table or json", opts.repo.format)
	}
	return nil
}

// repoFilter turns the filter flags into a batch.Filter; --changed-since
// asks git which files changed.
func (opts *rewriteOptions) repoFilter(ctx context.Context, e *env) (batch.Filter, error) {
	var f batch.Filter
	for _, l := range opts.repo.langs {
		f.Languages = append(f.Languages, udf.Language(l))
	}
	for _, k := range opts.repo.kinds {
		f.Kinds = append(f.Kinds, udf.Kind(k))
	}
	f.Names = opts.repo.names
	if err := f.Check(); err != nil {
		return f, usageError(err)
	}
	if opts.repo.changedSince != "" {
		files, err := batch.ChangedFiles(ctx, e.WorkDir, opts.repo.changedSince)
		if err != nil {
			return f, usageError(err)
		}
		f.Files = files
	}
	return f, nil
}

// runRewriteRepo is udfx rewrite over folders: every UDF scan finds that
// the filters keep, each rewritten as `udfx rewrite FILE:NAME` would,
// --jobs at a time, with one line per UDF as it ends, a summary, and with
// --apply the verified patches written together at the end.
func runRewriteRepo(ctx context.Context, e *env, opts *rewriteOptions, flags *pflag.FlagSet, paths []string) error {
	if err := opts.validate(); err != nil {
		return err
	}
	for _, p := range paths {
		if _, err := os.Stat(e.abs(p)); err != nil {
			if ref := parseUDFRef(p, func(string) bool { return false }); ref.name != "" {
				return usageErrorf("%s names one UDF, and a run over several takes files and folders: pick UDFs with --name %s", p, ref.name)
			}
		}
	}
	filter, err := opts.repoFilter(ctx, e)
	if err != nil {
		return err
	}
	var branch *branchRepo
	if opts.repo.branch != "" {
		if branch, err = checkBranch(ctx, e, opts.repo.branch, paths); err != nil {
			return err
		}
	}
	found, err := scan.Run(ctx, scan.Options{Paths: paths, BaseDir: e.WorkDir, NewFrontend: frontends.New})
	if err != nil {
		var inErr *scan.InputError
		if errors.As(err, &inErr) {
			return usageError(fmt.Errorf("rewrite %w", err))
		}
		return internalError(err)
	}
	for _, pe := range found.Errors {
		fmt.Fprintf(e.Stderr, "warning: %v (file skipped)\n", pe)
	}
	items := batch.Select(found.UDFs, filter, func(file string) string { return resolvedPath(e.abs(file)) })
	if len(items) == 0 {
		return usageErrorf("no UDF to rewrite: scan found %d in %d files, and the filters keep none", len(found.UDFs), found.FilesScanned)
	}
	skipSharedWorkspaces(e, items)
	for i := range items {
		it := &items[i]
		if it.Skip != "" || len(opts.targets) == 0 {
			continue
		}
		if isPipeline(&it.UDF) {
			if !slices.Contains(opts.targets, rewrite.TargetDataFrame) {
				it.Skip = "an RDD chain, whose only target is dataframe, not asked for by --target"
			}
		} else if err := rewrite.CheckTargets(&it.UDF, opts.targets); err != nil {
			it.Skip = err.Error()
		}
	}

	// The Python environment is made before the UDFs run at once, so
	// that no two of them create it.
	python, err := e.ensurePython(ctx, e.WorkDir)
	if err != nil {
		return internalError(err)
	}
	cache, keys, err := opts.proofCache(e, flags, python)
	if err != nil {
		return err
	}
	// Scala and Java originals compile on warm compilers shared by the
	// run (one JVM per toolchain instead of one per UDF), each reading
	// the folders given.
	stderr := &lockedWriter{w: e.Stderr}
	compilers := &jvm.CompilePool{Warn: warnTo(stderr)}
	for _, p := range paths {
		compilers.Readable = append(compilers.Readable, e.abs(p))
	}
	defer compilers.Close()
	ctx = jvm.WithCompilePool(ctx, compilers)
	// Python originals fork from warm interpreters (pyspark imported
	// once per interpreter, not once per UDF), each contained as the
	// UDF's own would be and cleared between UDFs.
	interpreters := &pyrunner.WarmPool{Readable: compilers.Readable, Warn: compilers.Warn}
	defer interpreters.Close()
	ctx = pyrunner.WithWarmPool(ctx, interpreters)
	// Python UDFs share Spark sessions across the run (JVM ones differ
	// in their jars): the sessions stop at the end. Each UDF's own
	// account is its report; what its run says on stderr is kept whole
	// line by line.
	child := *e
	child.Stdout, child.Stderr, child.StderrTTY, child.rep = io.Discard, stderr, false, nil
	if child.Spark == nil {
		pool := &spark.Pool{}
		defer pool.Close()
		child.Spark = pool
	}
	// Each UDF's run only proves; --apply writes the verified patches at
	// the end, all in one transaction.
	each := *opts
	each.apply, each.force = false, false
	var mu sync.Mutex
	results := map[*batch.Item]*udfResult{}
	one := func(ctx context.Context, it *batch.Item) batch.Row {
		var key string
		var files []string
		cacheable := false
		if cache != nil {
			key, files, cacheable = keys.key(ctx, e, it)
		}
		if cacheable {
			if row, ok := cache.Get(key); ok {
				row.Cached = true
				return row
			}
		}
		r := &udfResult{}
		if err := rewriteUDF(ctx, &child, &each, it.Ref, r); err != nil && r.row.Status == "" {
			r.row.Status, r.row.Reason = batch.Error, err.Error()
		}
		mu.Lock()
		results[it] = r
		mu.Unlock()
		row := r.row
		// Runtimes name files by absolute path; the summary by the
		// path the user gave.
		row.Reason = strings.ReplaceAll(row.Reason, e.WorkDir+string(filepath.Separator), "")
		if cacheable && batch.Cacheable(row.Status) && ctx.Err() == nil {
			if err := cache.Put(key, row, files); err != nil {
				fmt.Fprintf(child.Stderr, "warning: %v\n", err)
			}
		}
		return row
	}

	lines := e.Stdout
	if opts.repo.format == "json" {
		lines = e.Stderr
	}
	bar := newRepoBar(e, len(items))
	res := batch.Run(ctx, items, one, opts.repo.jobs, batch.Hooks{
		Start: func(it *batch.Item) { bar.start(it) },
		Done: func(done, n int, row *batch.Row) {
			bar.clear()
			fmt.Fprintln(lines, batch.Line(done, n, row))
			bar.done()
		},
	})
	bar.finish()
	if opts.repo.format == "json" {
		err = batch.WriteJSON(e.Stdout, res, "udfx "+version)
	} else {
		fmt.Fprintln(e.Stdout)
		err = batch.WriteTable(e.Stdout, res)
	}
	if err != nil {
		return internalError(fmt.Errorf("write the summary: %w", err))
	}
	// The branch is built once every UDF is proved, as --apply writes.
	var branchErr error
	pr := batch.PRBody{Tool: "udfx " + version, Command: reproduceCommand(flags, paths)}
	if branch != nil && !res.Stopped {
		n, err := buildBranch(ctx, lines, e, branch, items, results)
		if err != nil {
			branchErr = internalError(err)
		} else if n > 0 {
			pr.Branch, pr.BranchCommits = branch.name, n
		}
	}
	if opts.repo.prBody != "" {
		var b bytes.Buffer
		if err := batch.WritePRBody(&b, res, pr); err != nil {
			return internalError(err)
		}
		if err := evidence.WriteFileAtomic(e.abs(opts.repo.prBody), b.Bytes(), 0o644); err != nil {
			return internalError(fmt.Errorf("--pr-body: %w", err))
		}
	}
	if branchErr != nil {
		return branchErr
	}
	if opts.apply && !res.Stopped {
		if err := applyAll(lines, e, items, results, opts.force); err != nil {
			return err
		}
	}
	switch {
	case res.Stopped:
		return internalError(fmt.Errorf("stopped after %d of %d UDFs: %w", len(res.Rows), len(items), ctx.Err()))
	case res.Count(batch.Verified) == 0:
		return &exitError{code: exitFailed, err: fmt.Errorf("no rewrite of the %d UDFs passed; each one's report says why", len(res.Rows))}
	}
	return nil
}

// setJournalName names the journal of a folder run's --apply: its folder
// is <repo>/.udfx/.folder-run/, which no UDF's workspace can be (a UDF's
// name never starts with a dot).
const setJournalName = ".folder-run"

// applyAll writes the patches of every verified UDF of a folder run as
// one transaction per repository: all of them or none (the journal of
// internal/applyjournal, rolled back by the next udfx command if this one
// is killed). A patch that clashes with another (verifiedPatches) is left
// out and named, with the command that applies it after.
func applyAll(w io.Writer, e *env, items []batch.Item, results map[*batch.Item]*udfResult, force bool) error {
	type set struct {
		changes []patch.FileChange
		udfs    []string
	}
	sets := map[string]*set{}
	var roots []string
	picked, left := verifiedPatches(e, items, results)
	for _, p := range picked {
		s := sets[p.res.root]
		if s == nil {
			s = &set{}
			sets[p.res.root] = s
			roots = append(roots, p.res.root)
		}
		s.changes = append(s.changes, p.res.changes...)
		s.udfs = append(s.udfs, p.item.UDF.Name)
	}
	for _, root := range roots {
		s := sets[root]
		if err := patch.ApplyStepped(root, setJournalName, s.changes, force, e.applyStep); err != nil {
			return applyError(fmt.Errorf("--apply of %d verified rewrites: %w", len(s.udfs), err))
		}
		fmt.Fprintf(w, "applied        %d verified rewrites, %d files changed in %s\n", len(s.udfs), len(s.changes), root)
	}
	if len(roots) == 0 {
		fmt.Fprintln(w, "applied        nothing: no verified rewrite")
	}
	for _, l := range left {
		fmt.Fprintf(w, "not applied    %s\n", termsafe.String(fmt.Sprintf("%s: %s; apply it afterwards with udfx rewrite %s --apply", l.item.UDF.Name, l.why, l.item.Ref)))
	}
	return nil
}

// leftOut is a verified UDF whose patch a folder run does not write, and
// why.
type leftOut struct {
	item *batch.Item
	why  string
}

// verifiedPatches are the verified UDFs of a folder run whose patches are
// written together, in the run's order, and those left out. A patch's
// record hashes its UDF's definition as that patch leaves the file: a
// patch that edits a file an earlier UDF's patch edits too, or the file
// that defines an earlier UDF of the set, is left out: two rewrites of
// one file are never merged by guess.
func verifiedPatches(e *env, items []batch.Item, results map[*batch.Item]*udfResult) ([]branchCommit, []leftOut) {
	edits := map[string]string{}   // root and path: the UDF whose patch edits it
	defines := map[string]string{} // root and path: a UDF of the set defined there
	var picked []branchCommit
	var left []leftOut
	for i := range items {
		r := results[&items[i]]
		if r == nil || r.row.Status != batch.Verified || len(r.changes) == 0 {
			continue
		}
		name := items[i].UDF.Name
		src := r.root + "\x00" + repoPath(r.root, e.abs(items[i].UDF.File))
		clash := ""
		if o, ok := edits[src]; ok {
			clash = fmt.Sprintf("the patch of %s edits the file that defines it", o)
		}
		for _, c := range r.changes {
			key := r.root + "\x00" + c.Path
			if o, ok := edits[key]; ok && clash == "" {
				clash = fmt.Sprintf("its patch edits %s, which the patch of %s edits too", c.Path, o)
			}
			if o, ok := defines[key]; ok && clash == "" {
				clash = fmt.Sprintf("its patch edits %s, which defines %s", c.Path, o)
			}
		}
		if clash != "" {
			left = append(left, leftOut{item: &items[i], why: clash})
			continue
		}
		for _, c := range r.changes {
			edits[r.root+"\x00"+c.Path] = name
		}
		defines[src] = name
		picked = append(picked, branchCommit{item: &items[i], res: r})
	}
	return picked, left
}

// repoPath is abs relative to root, slash-separated, as patches name
// files.
func repoPath(root, abs string) string {
	if r, err := filepath.Rel(root, abs); err == nil {
		return filepath.ToSlash(r)
	}
	return filepath.ToSlash(abs)
}

// reproduceCommand is the folder run as a reviewer would type it: its
// paths and the filters, without what only changes how it reports.
func reproduceCommand(flags *pflag.FlagSet, paths []string) string {
	words := []string{"udfx", "rewrite"}
	for _, p := range paths {
		words = append(words, shellQuote(p))
	}
	flags.Visit(func(fl *pflag.Flag) {
		switch fl.Name {
		case "format", "jobs", "pr-body", "no-cache", "apply", "force", "branch":
			return
		}
		v := fl.Value.String()
		if sv, ok := fl.Value.(pflag.SliceValue); ok {
			v = strings.Join(sv.GetSlice(), ",")
		}
		words = append(words, "--"+fl.Name+"="+shellQuote(v))
	})
	return strings.Join(words, " ")
}

// shellQuote is s as one word of a POSIX shell.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:=,@%+-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// proofCache is the cache of earlier runs' verdicts and how to key it;
// nil with --no-cache, and for a model agent, whose answers differ from
// one run to the next.
func (opts *rewriteOptions) proofCache(e *env, flags *pflag.FlagSet, python string) (*batch.Cache, *proofKeys, error) {
	// --apply and --branch need each verified UDF's patch in hand: none comes from
	// the cache.
	if opts.repo.noCache || opts.apply || opts.repo.branch != "" || opts.agent.name != "builtin" {
		return nil, nil, nil
	}
	dir := e.CacheDir
	if dir == "" {
		d, err := os.UserCacheDir()
		if err != nil {
			return nil, nil, nil
		}
		dir = filepath.Join(d, "udfx")
	}
	keys, err := newProofKeys(e, flags, python)
	if err != nil {
		return nil, nil, internalError(err)
	}
	return &batch.Cache{Dir: filepath.Join(dir, "proofs")}, keys, nil
}

// skipSharedWorkspaces skips a UDF whose workspace (<repo>/.udfx/<name>)
// and rewrite folder (udfx-rewrites/<name>) an earlier UDF of the run
// has: a second run there would overwrite the first one's evidence. Names
// are compared without case, as a case-insensitive file system would.
func skipSharedWorkspaces(e *env, items []batch.Item) {
	first := map[string]*batch.Item{}
	for i := range items {
		it := &items[i]
		if it.Skip != "" {
			continue
		}
		root := patch.RepoRoot(filepath.Dir(e.abs(it.UDF.File)))
		key := root + "\x00" + strings.ToLower(patch.SafeName(it.UDF.Name))
		if prev, ok := first[key]; ok {
			it.Skip = fmt.Sprintf("its workspace %s/%s is that of %s in %s (names that differ only in case share a folder on macOS and Windows): rewrite it alone with udfx rewrite %s",
				patch.WorkspaceDirName, patch.SafeName(it.UDF.Name), prev.UDF.Name, prev.UDF.File, it.Ref)
			continue
		}
		first[key] = it
	}
}

// warnTo prints a warm runtime's warning (the run goes on, slower) as a
// line of w.
func warnTo(w io.Writer) func(error) {
	return func(err error) { fmt.Fprintf(w, "warning: %v\n", err) }
}

// lockedWriter lets UDFs rewritten at once share one stream.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// resolvedPath is p with symbolic links resolved, as git reports paths,
// slash-separated; p itself when it cannot be resolved.
func resolvedPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		p = r
	}
	return filepath.ToSlash(p)
}

// rowOf is the summary row of one UDF's rewrite outcome.
func rowOf(e *env, out *rewrite.Outcome) batch.Row {
	row := batch.Row{Report: workRel(e, out.ReportPath), RewriteDir: out.RewriteDir}
	if out.Verified() {
		row.Status, row.Target = batch.Verified, out.Best.Candidate.Target
		if b := out.Best.Bench; b != nil && !rewrite.IsVectorized(row.Target) {
			row.Speedup = b.Speedup
		}
		return row
	}
	for _, t := range out.Tried {
		if !t.Accepted && t.Report != nil {
			row.Status, row.Reason = batch.Refuted, t.Candidate.Target+": "+t.Reason
			return row
		}
	}
	row.Status = batch.Declined
	switch {
	case len(out.Declines) > 0:
		d := out.Declines[0]
		row.Reason = d.Construct + ": " + d.Reason
	case len(out.PerType) > 0:
		v := out.PerType[0]
		row.Reason = v.Types + ": " + v.Verdict + " " + v.Reason
	case len(out.Tried) > 0:
		row.Reason = out.Tried[0].Candidate.Target + ": " + out.Tried[0].Reason
	default:
		row.Reason = "no candidate"
	}
	return row
}

// repoBar is the progress bar of a run over folders on a terminal: the
// UDFs done of all, the one running, and an estimate of the time left.
// Without a terminal it does nothing.
type repoBar struct {
	bar *progressbar.ProgressBar
	n   int
}

func newRepoBar(e *env, n int) *repoBar {
	if !e.StderrTTY {
		return &repoBar{}
	}
	return &repoBar{n: n, bar: progressbar.NewOptions(n,
		progressbar.OptionSetWriter(e.Stderr),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionFullWidth(),
		progressbar.OptionClearOnFinish(),
	)}
}

func (b *repoBar) start(it *batch.Item) {
	if b.bar != nil {
		b.bar.Describe(termsafe.String(it.UDF.Name))
	}
}

// clear takes the bar off its line so that a UDF's line can be printed.
func (b *repoBar) clear() {
	if b.bar != nil {
		_ = b.bar.Clear()
	}
}

func (b *repoBar) done() {
	if b.bar != nil {
		_ = b.bar.Add(1)
	}
}

func (b *repoBar) finish() {
	if b.bar != nil {
		_ = b.bar.Finish()
	}
}
