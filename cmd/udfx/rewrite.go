package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/udfx/udfx/gpu/toolkit"
	"github.com/udfx/udfx/harness/config"
	"github.com/udfx/udfx/harness/rewrite"
	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/runner/runners"
	"github.com/udfx/udfx/harness/spark"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/value"
	"github.com/udfx/udfx/internal/applyjournal"
	"github.com/udfx/udfx/internal/batch"
	"github.com/udfx/udfx/internal/patch"
	"github.com/udfx/udfx/internal/termsafe"
)

// rewriteOptions are the flags of `udfx rewrite`.
type rewriteOptions struct {
	targets   []string
	apply     bool
	force     bool
	native    bool
	recover   bool
	seed      int64
	rows      int
	timeout   time.Duration
	memoryMB  int
	sandbox   string
	workspace string
	types     string
	// sparkVersion is --spark: the Spark the job runs on, when not what
	// the repository declares.
	sparkVersion string
	agent        agentOptions
	spark        sparkOptions
	repo         repoOptions
	// relaxed are the hidden tolerance flags of udfx test: rewrite refuses
	// them and points at udfx.yaml.
	relaxed relaxedFlags
}

// relaxedFlags are udfx test's relaxation flags. rewrite accepts none of
// them: a record's relaxation would be the record's own claim, and the
// gate honours relaxations only from the reviewed udfx.yaml.
type relaxedFlags struct {
	ulp              int64
	rel, abs         float64
	signedZero       string
	allowErrorToNull bool
	ansi             bool
}

var relaxedFlagNames = []string{"ulp", "rel", "abs", "signed-zero", "allow-error-to-null", "ansi"}

func addRelaxedFlags(f *pflag.FlagSet, r *relaxedFlags) {
	f.Int64Var(&r.ulp, "ulp", 0, "refused: see udfx.yaml")
	f.Float64Var(&r.rel, "rel", 0, "refused: see udfx.yaml")
	f.Float64Var(&r.abs, "abs", 0, "refused: see udfx.yaml")
	f.StringVar(&r.signedZero, "signed-zero", "strict", "refused: see udfx.yaml")
	f.BoolVar(&r.allowErrorToNull, "allow-error-to-null", false, "refused: see udfx.yaml")
	f.BoolVar(&r.ansi, "ansi", true, "refused: see udfx.yaml")
	for _, n := range relaxedFlagNames {
		_ = f.MarkHidden(n)
	}
}

// checkRelaxedFlags refuses any relaxation flag given to rewrite.
func checkRelaxedFlags(f *pflag.FlagSet) error {
	for _, n := range relaxedFlagNames {
		if f.Changed(n) {
			return usageErrorf("udfx rewrite has no --%s: it proves rewrites bit-exact, with ANSI on and the original's errors compared. "+
				"A relaxation is a reviewed decision: declare it for the UDF, with a reason, in udfx.yaml at the repository root "+
				"(docs/threat-model.md); udfx verify honours only what that file grants. To see how far a rewrite is off, use udfx test --%s", n, n)
		}
	}
	return nil
}

func newRewriteCmd(e *env) *cobra.Command {
	opts := &rewriteOptions{}
	cmd := &cobra.Command{
		Use:   "rewrite (FILE[:NAME] [--target sql,columnar,cuda] [--apply] [--force] | PATH... [--lang L] [--kind K] [--name GLOB] [--changed-since REF] | --recover)",
		Short: "Rewrite a UDF, prove the rewrite with a differential test, and write a patch",
		Long: `Rewrite runs four stages on one UDF with the agent chosen by --agent (default
the built-in, offline translator; openai drives a model, see docs/agent.md):
scaffold (the spec, the inputs, the original run twice to prove it
deterministic), convert (candidates accepted only when the differential test
passes, bit-exact in the target Spark's ANSI mode), benchmark (original vs rewrite on the same
inputs) and optimize (with --optimize the built-in agent also proposes the
translation's equivalent forms, each proved, raced against the best in one
run and kept only when faster). It writes the workspace <repo>/.udfx/<udf>/ (spec.json,
inputs.arrow, baseline.tokens, candidates/, report.md, evidence.json,
rewrite.patch). The patch adds udfx-rewrites/<udf>/rewrite.sql and its
evidence.json and changes the use sites; --apply applies it to the working
tree (refusing files with uncommitted changes unless --force). Without
--apply the repository is untouched.

--apply is all or nothing. Before the first file is replaced it writes a
journal (.udfx/<udf>/apply-journal/journal.json: each file's path and the
sha256 of its old and new content, the old content kept beside it, the new
staged next to the file), then renames the files into place, then removes
the journal. If udfx is killed halfway, the next rewrite, test, scaffold or
bench on the repository first rolls the tree back to before the apply and
says so on stderr; rewrite --recover does only that. A file changed since
the interrupted apply is not overwritten: the roll back stops, names it and
exits 4. udfx verify never repairs: while a journal is open it fails with
interrupted-apply.

Targets (--target, default all that apply: sql,columnar,cuda for a Java or
Scala UDF, sql for a Python one, vectorized-python for a pandas_udf, with
sql first where it is series-to-series over double columns):
columnar and cuda render from the translator's IR, so they are offered only
beside a verified sql rewrite of it (sql is then included).
vectorized-python renders the per-row loops of a Python UDF as a numba
kernel in a pandas_udf (udfx-rewrites/<udf>/vectorized.py), proved
bit-exact against the original, both in CPython, one row per batch.
vectorized-python-fast (never a default) is the same with a faster
algorithm that rounds differently (pairwise differences from sorted
values, a moving average from a running sum): it is proved only within a
tolerance that udfx.yaml at the repository root declares for the UDF, and
refused without one. dataframe is the target of an RDD chain (scan's
rdd-pipeline): the whole chain as DataFrame code, proved on Spark by
comparing what both collect as multisets (docs/pipelines.md). cuda
is accepted only when its per-row function, built with g++, equals the
original on every row bit-exact; --native also builds its kernel and JNI
bridge with nvcc into the RapidsUDF jar. columnar (a RapidsUDF under
udfx-rewrites/<udf>/columnar/) needs a GPU to run: it is compiled with
javac against the cuDF and RAPIDS jars when they are in the local Maven
repository, not differentially tested. A target
that cannot be rendered exactly is declined in report.md.

Over folders (a folder, several paths, or a filter given), rewrite takes
every UDF udfx scan finds there that --lang, --kind, --name (globs over
names and registered SQL names) and --changed-since REF (files changed in
git since REF, committed or not, and new files) keep, and runs each as
udfx rewrite FILE:NAME would, --jobs at a time (default: one per CPU):
one workspace each, the same proof. It prints a line per UDF as it ends (a progress bar with
an estimate of the time left on a terminal) and a summary table: result
(verified, declined, refuted, error, skipped), target, speedup, time, and
the reason or the report; --format json writes the summary as JSON on
stdout and the lines on stderr; --pr-body FILE also writes a pull-request
description in Markdown (the verified rewrites with their speedups and
evidence records, the UDFs left as they are and why, how to check it
again). A UDF that fails is an error row and the run goes on. Verdicts
are kept in the user's cache folder, keyed by everything they depend on:
a run over an unchanged repository, or one re-run after an interruption,
takes them from there and marks them cached (--no-cache: prove all
again). A UDF whose workspace another UDF of the run already has
(names differing only in case) is skipped with the command that runs it
alone. Without --apply such a run changes no file of the repository;
with it, once every UDF is proved, the patches of all verified ones are
written in one all-or-nothing transaction (its journal in
.udfx/.folder-run/), except a patch that edits a file another patch of
the set edits or that defines a UDF of the set: that one is named, with
the command that applies it afterwards.

--branch NAME (over folders, not with --apply: one or the other) commits
the verified rewrites on a new git branch NAME instead, one commit per UDF
(its message names the UDF, file, target, speedup and evidence record),
built from HEAD with git's plumbing in a temporary index: the working
tree, the index and the current branch are left as they are, and the
branch is created only after its last commit, so an interrupted run
leaves none. Uncommitted changes are not on it: a UDF whose file or
patch differs from HEAD is left out and named, and the same clash rule
as --apply holds. A configured git identity is used; udfx <udfx@localhost>
only where none is.

Exit codes: 0 a verified rewrite was produced, 1 none passed (declined or
refuted; see report.md), 2 bad usage (including --apply over uncommitted
changes, filters that keep no UDF, and a --branch that exists), 3 the
original could not be run (over folders: udfx could not scan them, or the
--branch could not be made; a UDF whose original does not run is an error
row), 4 an interrupted --apply could not be rolled back (a
file changed since, or a damaged journal).`,
		Example: `  udfx rewrite examples/scala-to-fahrenheit/ToFahrenheit.scala
  udfx rewrite . --lang python --format json > summary.json
  udfx rewrite src jobs --changed-since origin/main
  udfx rewrite . --branch udfx/rewrites --pr-body PR.md
  udfx rewrite examples/python-celsius/celsius.py:to_fahrenheit --apply
  udfx rewrite examples/python-vectors/vectors.py:moving_average
  udfx rewrite examples/python-vectors/vectors.py:moving_average --target vectorized-python-fast
  udfx rewrite examples/python-wordcount/wordcount.py:counts --apply
  udfx rewrite --recover`,
		Args: func(cmd *cobra.Command, args []string) error {
			if opts.recover {
				if len(args) > 0 || opts.apply || opts.force {
					return usageErrorf("--recover takes no FILE, --apply or --force: it only rolls back every interrupted --apply in the repository of the current folder")
				}
				return nil
			}
			if len(args) == 0 {
				return usageErrorf("udfx rewrite takes a UDF (FILE[:NAME]), or files and folders to rewrite every UDF in them (.: the current folder)")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkRelaxedFlags(cmd.Flags()); err != nil {
				return err
			}
			if opts.recover {
				// recoverApplies did the work before RunE.
				fmt.Fprintf(e.Stdout, "%d interrupted --apply rolled back in %s\n", e.recovered, udfRepo(e, nil))
				return nil
			}
			if isRepoRun(e, cmd.Flags(), args) {
				if err := opts.checkRepoRun(cmd.Flags()); err != nil {
					return err
				}
				return runRewriteRepo(cmd.Context(), e, opts, cmd.Flags(), args)
			}
			return runRewrite(cmd.Context(), e, opts, args[0])
		},
	}
	f := cmd.Flags()
	f.StringSliceVar(&opts.targets, "target", nil, "rewrite targets: "+udf.TargetNames()+" (default all that apply to the UDF)")
	f.BoolVar(&opts.apply, "apply", false, "apply the patch to the working tree")
	f.BoolVar(&opts.force, "force", false, "with --apply: apply over uncommitted changes")
	f.BoolVar(&opts.recover, "recover", false, "only roll back an interrupted --apply in the current folder's repository")
	f.BoolVar(&opts.native, "native", false, "with the cuda target: build the kernel and JNI bridge with nvcc into the RapidsUDF jar (installs the CUDA toolkit from PyPI into the user cache the first time; minutes)")
	f.Int64Var(&opts.seed, "seed", 1, "seed of the random inputs")
	f.IntVar(&opts.rows, "rows", 10_000, "rows to test, special values included")
	f.DurationVar(&opts.timeout, "timeout", runner.DefaultLimits.Timeout, "time limit for each run of the original")
	f.IntVar(&opts.memoryMB, "memory", runner.DefaultLimits.MemoryMB, "memory limit of the original's process, MiB")
	addSandboxFlag(f, &opts.sandbox)
	f.StringVar(&opts.workspace, "workspace", "", "workspace folder (default <repo>/.udfx)")
	addTypesFlag(f, &opts.types)
	f.StringVar(&opts.sparkVersion, "spark", "", "the Spark `VERSION` (major.minor) the job runs on, when the repository does not declare it (default: the version its requirements or build files declare; udfx proves for the Spark it runs and declines a UDF whose project declares another)")
	addAgentFlags(f, &opts.agent)
	addSparkFlags(f, &opts.spark)
	addRelaxedFlags(f, &opts.relaxed)
	addRepoFlags(f, &opts.repo)
	return cmd
}

func runRewrite(ctx context.Context, e *env, opts *rewriteOptions, target string) error {
	return rewriteUDF(ctx, e, opts, target, nil)
}

// udfResult is how one UDF's rewrite ended, for a run over folders: its
// summary row and, for a verified rewrite, its patch and the repository
// the patch is for.
type udfResult struct {
	row     batch.Row
	root    string
	changes []patch.FileChange
}

// rewriteUDF is udfx rewrite of one UDF. When res is not nil it is filled
// with how the rewrite ended.
func rewriteUDF(ctx context.Context, e *env, opts *rewriteOptions, target string, res *udfResult) error {
	if err := opts.validate(); err != nil {
		return err
	}
	sandboxMode, err := e.sandboxMode(opts.sandbox, opts.spark.onSpark())
	if err != nil {
		return err
	}
	loc, err := locateUDF(e, target, opts.workspace, udfTypes{flag: opts.types, limits: runner.Limits{Timeout: opts.timeout, MemoryMB: opts.memoryMB, Sandbox: sandboxMode}})
	if err != nil {
		return err
	}
	unlock, err := lockWorkspace(loc.Workspace)
	if err != nil {
		return err
	}
	defer unlock()
	python, err := e.ensurePython(ctx, filepath.Dir(loc.UDF.Path()))
	if err != nil {
		return internalError(err)
	}
	if isPipeline(loc.UDF) {
		return runPipelineRewrite(ctx, e, opts, loc, python, res)
	}
	u, src, root, ws := loc.UDF, loc.Source, loc.Root, loc.Workspace
	targets, err := opts.targetsFor(ctx, e, u)
	if err != nil {
		return err
	}
	var tolerance *value.Policy
	var toleranceFrom string
	if slices.Contains(targets, rewrite.TargetVectorizedPythonFast) {
		if tolerance, toleranceFrom, err = declaredTolerance(root, u); err != nil {
			return err
		}
	}
	agent, err := newAgent(e, &opts.agent, ws)
	if err != nil {
		return err
	}
	sparkFor, sparkDecline, err := sparkTarget(opts.sparkVersion, root, u, &opts.spark)
	if err != nil {
		return err
	}
	var session *spark.Session
	if opts.spark.onSpark() && sparkDecline == "" {
		so := opts.spark
		var ansi bool
		if so.python, ansi, err = sparkPythonFor(ctx, e, &so, sparkFor); err != nil {
			return err
		}
		if session, err = startSpark(ctx, e, &so, u, ansi, filepath.Join(filepath.Dir(ws), "spark")); err != nil {
			return err
		}
		defer session.Close()
		if sparkDecline = sessionProblem(session, sparkFor); sparkDecline != "" {
			sparkFor = nil
		}
	}
	out, err := rewrite.Run(ctx, rewrite.Options{
		SparkTarget: sparkFor, SparkDecline: sparkDecline,
		UDF: u, Source: src, RepoRoot: root, Workspace: ws, Targets: targets,
		Agent: agent, Seed: opts.seed, Rows: opts.rows,
		Limits:    runner.Limits{Timeout: opts.timeout, MemoryMB: opts.memoryMB, Sandbox: sandboxMode},
		NewRunner: runners.New, Tool: "udfx " + version, Progress: e.progress().Func(), Spark: session,
		BuildNative: opts.native, Tolerance: tolerance, ToleranceFrom: toleranceFrom,
	})
	if err != nil {
		var nd *rewrite.NondeterministicError
		if errors.As(err, &nd) {
			return &exitError{code: exitFailed, err: err}
		}
		return internalError(err)
	}
	if res != nil {
		res.row = rowOf(e, out)
		if out.Verified() {
			res.root, res.changes = root, out.Changes
		}
	}
	if err := printRewrite(e, out); err != nil {
		return err
	}
	if opts.apply {
		if err := patch.Apply(root, u.Name, out.Changes, opts.force); err != nil {
			return applyError(err)
		}
		fmt.Fprintf(e.Stdout, "  applied        %d files changed in %s\n", len(out.Changes), root)
	}
	return nil
}

// validate refuses flags that cannot work together before anything runs.
func (opts *rewriteOptions) validate() error {
	for _, t := range opts.targets {
		if _, ok := udf.InfoOf(t); !ok {
			return usageErrorf("unknown --target %q: udfx rewrites to: %s", t, udf.TargetNames())
		}
	}
	if opts.rows <= 0 || opts.timeout <= 0 || opts.memoryMB <= 0 {
		return usageErrorf("--rows, --timeout and --memory must be positive")
	}
	if opts.force && !opts.apply {
		return usageErrorf("--force only makes sense with --apply")
	}
	return opts.spark.check()
}

// targetsFor is the targets to try for u: those asked for, or all that
// apply to it. With --native it makes sure nvcc is at hand.
func (opts *rewriteOptions) targetsFor(ctx context.Context, e *env, u *udf.UDF) ([]string, error) {
	targets := opts.targets
	if len(targets) == 0 {
		targets = rewrite.DefaultTargets(u)
	}
	if err := rewrite.CheckTargets(u, targets); err != nil {
		return nil, usageErrorf("--target: %w", err)
	}
	if !opts.native {
		return targets, nil
	}
	if !slices.Contains(targets, rewrite.TargetCUDA) {
		return nil, usageErrorf("--native builds the cuda target's kernel, and the targets here are %s: add --target cuda (Java and Scala UDFs)", strings.Join(targets, ","))
	}
	return targets, ensureNVCC(ctx, e)
}

// printRewrite writes the rewrite's summary: each candidate's verdict and,
// for a verified rewrite, the engine, plans, speed, report and patch. An
// unverified rewrite is an exitFailed error.
func printRewrite(e *env, out *rewrite.Outcome) error {
	w, u := e.Stdout, out.UDF
	// Names and reasons quote the repository's text: printed quoted when
	// they hold a newline or an escape sequence.
	fmt.Fprintf(w, "%s (%s, %s)\n", termsafe.String(u.Name), u.Language, termsafe.String(u.File))
	fmt.Fprintf(w, "  targets tried  %s (agent: %s)\n", strings.Join(out.Targets, ", "), out.Agent)
	for _, t := range out.Tried {
		verdict := "verified"
		if !t.Accepted {
			verdict = t.Reason
		}
		fmt.Fprintf(w, "  candidate %d    %s: %s\n", t.Index, t.Candidate.Target, termsafe.String(verdict))
	}
	for _, r := range out.Rendered {
		verdict := r.Note
		if !r.Accepted {
			verdict = r.Reason
		}
		fmt.Fprintf(w, "  %-14s %s\n", r.Target, termsafe.String(verdict))
	}
	for _, v := range out.PerType {
		// One line per assignment of types; the translator's declines
		// behind each are in the report.
		line := v.Types + ": " + v.Verdict
		if v.Reason != "" {
			line += " (" + v.Reason + ")"
		}
		fmt.Fprintf(w, "  per type       %s\n", termsafe.String(line))
	}
	if len(out.PerType) == 0 {
		for _, d := range out.Declines {
			fmt.Fprintf(w, "  declined       %s\n", termsafe.String(d.String()))
		}
	}
	rel := workRel(e, out.ReportPath)
	if !out.Verified() {
		fmt.Fprintf(w, "  result         no verified rewrite\n  report         %s\n", termsafe.String(rel))
		return &exitError{code: exitFailed, err: fmt.Errorf("no rewrite of %s passed; see %s", u.Name, rel)}
	}
	b := out.Best.Bench
	if f := out.Best.Candidate.File; f != "" {
		fmt.Fprintf(w, "  result         verified: %s %s (%d rows, %s, each row against CPython)\n", out.Best.Candidate.Target, f, out.Record.Rows, out.Record.Policy)
	} else {
		fmt.Fprintf(w, "  result         verified: %s (%d rows, bit-exact, %s)\n", out.Best.Candidate.SQL, out.Record.Rows, rewrite.ANSIName(out.Record.Engine.ANSI))
	}
	switch eng := out.Record.Engine; eng.Name {
	case engineSpark:
		fmt.Fprintf(w, "  engine         Apache Spark %s (%s)\n", eng.Version, eng.Master)
	case engineComet:
		fmt.Fprintf(w, "  engine         Apache Spark %s with DataFusion Comet %s (%s)\n", eng.Version, eng.Comet, eng.Master)
	}
	if p := out.Record.Plans; p != nil {
		fmt.Fprintf(w, "  plan           UDF nodes %d -> %d, row/columnar transitions %d -> %d\n", len(p.Original.UDFNodes), len(p.Rewrite.UDFNodes), p.Original.Transitions, p.Rewrite.Transitions)
		if p.Original.Native != nil && p.Rewrite.Native != nil {
			fmt.Fprintf(w, "  native         original: %s\n", p.Original.Native.Line())
			fmt.Fprintf(w, "  native         rewrite: %s\n", p.Rewrite.Native.Line())
		}
	}
	if rewrite.IsVectorized(out.Best.Candidate.Target) {
		// One row per batch and the kernel's compile: the proof's time,
		// not the rewrite's speed, which task bench-vectors measures.
		fmt.Fprintf(w, "  test time      %.4fs original vs %.4fs rewrite (one row per batch, numba compiling; not a benchmark)\n", b.OriginalMedianS, b.RewriteMedianS)
	} else {
		fmt.Fprintf(w, "  speedup        %.1f× (median %.4fs original vs %.4fs rewrite, %d runs)\n", b.Speedup, b.OriginalMedianS, b.RewriteMedianS, b.Runs)
	}
	if out.NotFaster() {
		fmt.Fprintf(w, "  verdict        verified, %s\n", out.NotFasterNote())
	}
	fmt.Fprintf(w, "  report         %s\n", termsafe.String(rel))
	fmt.Fprintf(w, "  patch          %s\n", termsafe.String(workRel(e, out.PatchPath)))
	return nil
}

// ensureNVCC finds nvcc and the cuDF headers the CUDA build compiles
// against, or installs them from PyPI into the user cache (gpu/toolkit),
// so that --native builds the library rather than silently skipping it.
func ensureNVCC(ctx context.Context, e *env) error {
	opts := toolkit.Options{Progress: e.progress().Func()}
	if _, err := toolkit.Ensure(ctx, opts); err != nil {
		return internalError(fmt.Errorf("--native: no nvcc: %w", err))
	}
	if _, err := toolkit.EnsureCudfHeaders(ctx, opts); err != nil {
		return internalError(fmt.Errorf("--native: no cuDF headers for the JNI bridge: %w", err))
	}
	return nil
}

// declaredTolerance is the tolerance udfx.yaml at the repository root
// declares for u, and where: the fast vectorized-python form is proved
// within it. None declared is a usage error that says how to declare one.
func declaredTolerance(root string, u *udf.UDF) (*value.Policy, string, error) {
	cfg, err := config.Load(root, config.File)
	if err != nil {
		return nil, "", usageError(err)
	}
	g := cfg.For(u.Name, u.File)
	if g == nil || (g.ULP == 0 && g.Rel == 0 && g.Abs == 0) {
		return nil, "", usageErrorf("--target %s rewrites %s with a faster algorithm that rounds differently, so it is proved only within a tolerance the project declares: add to %s at the repository root\n\n  version: 1\n  relaxations:\n    - udf: %s\n      file: %s\n      rel: 1e-5\n      reason: <why this UDF's callers accept results that far apart>\n\nthen review it like code; udfx verify holds the rewrite to it",
			rewrite.TargetVectorizedPythonFast, u.Name, config.File, u.Name, u.File)
	}
	p := g.Policy()
	return &p, g.DeclaredAt, nil
}

// applyError maps what --apply refuses (uncommitted or changed files, a
// path outside the repository, dropped use sites) to usage errors and an
// interrupted earlier apply to the state error.
func applyError(err error) error {
	var de *patch.DirtyError
	var ce *patch.ChangedError
	var out *patch.OutsideError
	var du *patch.DroppedUseSitesError
	var oe *applyjournal.OpenError
	switch {
	case errors.As(err, &de) || errors.As(err, &ce) || errors.As(err, &out) || errors.As(err, &du):
		return usageError(err)
	case errors.As(err, &oe):
		return stateError(err)
	}
	return internalError(err)
}
