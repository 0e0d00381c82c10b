package main

import (
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

	"github.com/udfx/udfx/harness/rewrite"
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
}

func addRepoFlags(f *pflag.FlagSet, o *repoOptions) {
	f.StringSliceVar(&o.langs, "lang", nil, "over folders: only UDFs in these languages (scala, java, python)")
	f.StringSliceVar(&o.kinds, "kind", nil, "over folders: only UDFs of these kinds (as udfx scan names them: python-udf, udf-class, ...)")
	f.StringSliceVar(&o.names, "name", nil, "over folders: only UDFs whose name or registered SQL name matches one of these globs")
	f.StringVar(&o.changedSince, "changed-since", "", "over folders: only UDFs in files changed since this git commit, branch or tag (committed, uncommitted or new)")
	f.StringVarP(&o.format, "format", "f", "table", "over folders: summary format, table or json")
	f.BoolVar(&o.noCache, "no-cache", false, "over folders: prove every UDF again, taking none from earlier runs")
	f.IntVarP(&o.jobs, "jobs", "j", runtime.NumCPU(), "over folders: UDFs rewritten at once (each one's benchmark then runs beside the others': --jobs 1 for quieter figures)")
}

// repoFlagNames are the flags that make rewrite a run over folders.
var repoFlagNames = []string{"lang", "kind", "name", "changed-since", "format", "jobs", "no-cache"}

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
	for _, n := range []string{"apply", "force", "types", "workspace"} {
		if f.Changed(n) {
			why := map[string]string{
				"apply":     "it applies one UDF's patch: run udfx rewrite FILE:NAME --apply for each verified UDF in the summary (each workspace also holds its rewrite.patch for git apply)",
				"force":     "it goes with --apply, which takes one UDF",
				"types":     "types belong to one UDF: give them as FILE:NAME(TYPES) to a run of that UDF",
				"workspace": "every UDF's workspace is <repo>/.udfx/<udf>",
			}[n]
			return usageErrorf("--%s does not apply to a run over folders: %s", n, why)
		}
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
// the filters keep, each rewritten as `udfx rewrite FILE:NAME` would, one
// after the other, with one line per UDF as it ends and a summary.
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
	// Python UDFs share Spark sessions across the run (JVM ones differ
	// in their jars): the sessions stop at the end. Each UDF's own
	// account is its report; what its run says on stderr is kept whole
	// line by line.
	child := *e
	child.Stdout, child.Stderr, child.StderrTTY, child.rep = io.Discard, &lockedWriter{w: e.Stderr}, false, nil
	if child.Spark == nil {
		pool := &spark.Pool{}
		defer pool.Close()
		child.Spark = pool
	}
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
		var row batch.Row
		if err := rewriteUDF(ctx, &child, opts, it.Ref, &row); err != nil && row.Status == "" {
			row.Status, row.Reason = batch.Error, err.Error()
		}
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
	switch {
	case res.Stopped:
		return internalError(fmt.Errorf("stopped after %d of %d UDFs: %w", len(res.Rows), len(items), ctx.Err()))
	case res.Count(batch.Verified) == 0:
		return &exitError{code: exitFailed, err: fmt.Errorf("no rewrite of the %d UDFs passed; each one's report says why", len(res.Rows))}
	}
	return nil
}

// proofCache is the cache of earlier runs' verdicts and how to key it;
// nil with --no-cache, and for a model agent, whose answers differ from
// one run to the next.
func (opts *rewriteOptions) proofCache(e *env, flags *pflag.FlagSet, python string) (*batch.Cache, *proofKeys, error) {
	if opts.repo.noCache || opts.agent.name != "builtin" {
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
	row := batch.Row{Report: workRel(e, out.ReportPath)}
	if out.Verified() {
		row.Status, row.Target = batch.Verified, out.Best.Candidate.Target
		// A vectorized rewrite's test runs one row per batch: its times
		// are the proof's, not a speed (printRewrite says the same).
		vectorized := row.Target == rewrite.TargetVectorizedPython || row.Target == rewrite.TargetVectorizedPythonFast
		if b := out.Best.Bench; b != nil && !vectorized {
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
