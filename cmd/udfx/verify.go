package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"time"

	"github.com/spf13/cobra"

	"github.com/udfx/udfx/harness/config"
	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/mavenjar"
	"github.com/udfx/udfx/harness/pyenv"
	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/runner/jvm"
	pyrunner "github.com/udfx/udfx/harness/runner/python"
	"github.com/udfx/udfx/harness/runner/runners"
	"github.com/udfx/udfx/harness/spark"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/verify"
	"github.com/udfx/udfx/internal/sandbox"
)

// verifyOptions are the flags of `udfx verify`.
type verifyOptions struct {
	format string
	// reports are more formats written to files by the same run
	// (--json, --sarif, --junit), by format.
	reports       map[string]*string
	skipRerun     bool
	full          bool
	jobs          int
	cacheDir      string
	testdata      bool
	requireEngine string
	spark         sparkOptions
	timeout       time.Duration
	memoryMB      int
	sandbox       string
	python        string
}

func newVerifyCmd(e *env) *cobra.Command {
	opts := &verifyOptions{reports: map[string]*string{"json": new(string), "sarif": new(string), "junit": new(string)}}
	cmd := &cobra.Command{
		Use:   "verify [PATH]",
		Short: "CI gate: check that every rewrite is still proved by its evidence record",
		Long: `Verify finds every evidence record (udfx-rewrites/<udf>/evidence.json) and every
rewrite file (a file whose first 20 lines carry a "udfx:rewrite record=" marker)
below PATH (default: the current folder; .git, .udfx and vendored folders are
skipped) and checks each rewrite:

  interrupted-apply      an udfx rewrite --apply was interrupted and its
                         journal (.udfx/<udf>/apply-journal/) is open: the
                         tree may hold some of its files new and others
                         old. verify never repairs; udfx rewrite --recover
                         (or rewrite, test, scaffold, bench) rolls it back
  stale-udf              the UDF's definition, its signature (wherever its
                         types are declared, registrations included) or what
                         it reads outside its definition in the same file
                         (the body of udf(f, T), module constants, helpers)
                         no longer hashes as recorded, or it is gone
  stale-use-site         code the rewrite was inlined into (expr("..."), a
                         SQL string) no longer holds what rewrite.sql gives
  stale-rewrite          the rewrite file no longer hashes as recorded
  unverified             a rewrite file whose marker names a missing record,
                         or a record that does not list it
  inconsistent-record    the inputs the record's seed and rows generate do
                         not hash as the record says, a path it names leads
                         outside the repository, or it lists rewrites
                         verify cannot prove (two sql files, a target
                         udfx does not write)
  failed                 the record's result is not "verified"
  undeclared-relaxation  the record claims a tolerance, NULL where the
                         original throws, or ANSI off, and udfx.yaml does not
                         grant it
  mismatch               the differential test, re-run now, finds a
                         counterexample
  wrong-engine           with --require-engine: the record was proved on
                         another engine (--require-engine spark accepts only
                         records of a test on real Apache Spark)

The re-run holds every rewrite to the project's policy, never the record's:
bit-exact, ANSI on, the original's errors compared, at least 10000 rows, for
the record's seed and each of udfx's own seeds. A relaxation (ulp, rel, abs,
signed_zero: lenient, allow_error_to_null, ansi: false) counts only when the
repository's reviewed udfx.yaml declares it for the UDF with a reason; every
relaxation in force is printed in each output format. See
docs/threat-model.md.

The re-run executes the repository's code, the originals, as its own tests
would. --sandbox (default auto) contains each original with bubblewrap: the
file system read-only but for the runner's scratch folders, a private /tmp, no
network, no process left behind; auto runs it uncontained where bubblewrap
does not work and says so, on refuses to, off trusts the repository. Records
proved on Spark re-run in Spark's own workers, uncontained.

The originals run in --python, else $UDFX_PYTHON, else udfx's own Python
environment (created the first time), and never in a .venv of the
repository under test, which a pull request could change; each output
names the interpreter. Pass --python .venv/bin/python to trust the
repository's environment, for originals that import its packages.

The re-run is the slow part, so verify keeps a proof cache: after a record's
re-run passes, the key of everything it read is kept (the record and its
folder, the rewrite files, the repository's files that can change a UDF of
that language, udfx.yaml among them, udfx itself, the Python and its
packages, the JDK, Scala and Spark, these flags). A later run re-runs a
record only when that key changed, checks everything else as always, and
says which records it re-ran and which it took from the cache. --full
re-runs every record (use it for pull requests from forks). The cache lives
in --cache-dir, default os.UserCacheDir()/udfx/verify, never inside the
repository: a pull request can write nothing the gate takes for a proof.
Records are checked --jobs at a time; those proved on Spark take turns on
its one session.

--skip-rerun checks the hashes only: a drift check for a pre-commit hook, not
a proof. Anyone who can edit the record can edit its hashes, so only the
full verify (the re-run) proves a rewrite; run it in CI. A record proved on
Spark (engine spark) is re-run on Spark, in local mode or on --spark-master /
--spark-remote.

Output is a table, or --format json (docs/verify-json.md), sarif (2.1.0, a
rule per failure kind, a note per relaxation) or junit; --json, --sarif and
--junit FILE write those formats to files as well, from the same run, so CI
proves each rewrite once whatever it uploads. When
GITHUB_ACTIONS=true, udfx also writes an ::error annotation per failing
rewrite (at most 10; to stdout with the table, to stderr with the other
formats) and appends the table as Markdown to the file named by
$GITHUB_STEP_SUMMARY.

Exit codes: 0 every rewrite passes, 1 the gate failed, 2 bad usage (including
an udfx.yaml udfx cannot accept: the message names its line), 3 udfx could
not check a rewrite (for example the original cannot be run, or --sandbox on
finds no working bubblewrap).`,
		Example: `  udfx verify
  udfx verify --skip-rerun
  udfx verify --full --jobs 4
  udfx verify --cache-dir "$RUNNER_TEMP/udfx-proofs"
  udfx verify --require-engine spark
  udfx verify services/etl --format sarif > udfx.sarif
  udfx verify --sarif udfx.sarif --junit udfx-junit.xml`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			path := "."
			if len(args) == 1 {
				path = args[0]
			}
			return runVerify(cmd, e, opts, path)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&opts.format, "format", "f", "table", "output format: table, json, sarif or junit")
	f.StringVar(opts.reports["json"], "json", "", "also write the JSON report to `FILE`")
	f.StringVar(opts.reports["sarif"], "sarif", "", "also write the SARIF report to `FILE`")
	f.StringVar(opts.reports["junit"], "junit", "", "also write the JUnit report to `FILE`")
	f.BoolVar(&opts.full, "full", false, "re-run every record's differential test, taking none from the proof cache (recommended for pull requests from forks)")
	f.IntVarP(&opts.jobs, "jobs", "j", runtime.NumCPU(), "check this many records at once")
	f.StringVar(&opts.cacheDir, "cache-dir", "", "the proof cache's `folder`, outside the repository (default udfx's cache folder: os.UserCacheDir()/udfx/verify)")
	f.BoolVar(&opts.skipRerun, "skip-rerun", false, "check the hashes only, without re-running the differential tests: a drift check, not a proof (forged hashes pass it)")
	f.BoolVar(&opts.testdata, "include-testdata", false, "also verify rewrites under testdata folders (skipped by default: they hold test fixtures)")
	f.StringVar(&opts.requireEngine, "require-engine", "", "accept only records proved on this engine: embedded, spark or comet")
	f.StringVar(&opts.spark.master, "spark-master", "", "the master records proved on Spark are re-run on (default "+spark.DefaultMaster+")")
	f.StringVar(&opts.spark.remote, "spark-remote", "", "a Spark Connect server (sc://host:port) to re-run records proved on Spark")
	f.StringVar(&opts.spark.cometJar, "comet-jar", "", "the Comet jar records proved on engine comet are re-run with (default "+mavenjar.Comet+" from the local Maven repository)")
	f.DurationVar(&opts.timeout, "timeout", runner.DefaultLimits.Timeout, "time limit for running each original")
	f.IntVar(&opts.memoryMB, "memory", runner.DefaultLimits.MemoryMB, "memory limit of each original's process, MiB")
	f.StringVar(&opts.python, "python", "", "the Python the originals are re-run with (default $UDFX_PYTHON, else udfx's own environment; never a .venv of the repository unless named here)")
	addSandboxFlag(f, &opts.sandbox)
	return cmd
}

func runVerify(cmd *cobra.Command, e *env, opts *verifyOptions, path string) error {
	switch opts.format {
	case "table", "json", "sarif", "junit":
	default:
		return usageErrorf("unknown --format %q: want table, json, sarif or junit", opts.format)
	}
	if opts.timeout <= 0 || opts.memoryMB <= 0 {
		return usageErrorf("--timeout and --memory must be positive")
	}
	if opts.jobs < 1 {
		return usageErrorf("--jobs %d: want at least 1", opts.jobs)
	}
	if opts.skipRerun && (opts.full || opts.cacheDir != "") {
		return usageErrorf("--skip-rerun re-runs nothing, so --full and --cache-dir do not apply")
	}
	seen := map[string]string{}
	for _, format := range []string{"json", "sarif", "junit"} {
		p := *opts.reports[format]
		if p == "" {
			continue
		}
		if other, ok := seen[e.abs(p)]; ok {
			return usageErrorf("--%s and --%s both name %s", other, format, p)
		}
		seen[e.abs(p)] = format
		if st, err := os.Stat(filepath.Dir(e.abs(p))); err != nil || !st.IsDir() {
			return usageErrorf("--%s %s: no folder %s to write it in", format, p, filepath.Dir(p))
		}
	}
	if opts.spark.master != "" && opts.spark.remote != "" {
		return usageErrorf("give one of --spark-master and --spark-remote, not both")
	}
	switch opts.requireEngine {
	case "", engineEmbedded, engineSpark, engineComet:
	default:
		return usageErrorf("unknown --require-engine %q: want embedded, spark or comet", opts.requireEngine)
	}
	sandboxMode, err := sandbox.ParseMode(opts.sandbox)
	if err != nil {
		return usageError(err)
	}
	var python, pythonFrom string
	if !opts.skipRerun { // else no original runs
		if sandboxMode, err = e.sandboxMode(opts.sandbox, false); err != nil {
			return err
		}
		if python, pythonFrom, err = gatePython(cmd.Context(), e, opts.python); err != nil {
			return err
		}
	}
	cache, err := gateCache(e, opts, e.abs(path), python, sandboxMode)
	if err != nil {
		return err
	}
	progress := e.progress().Func()
	// The records' Scala and Java originals compile on warm compilers
	// shared by the gate (one JVM per toolchain, not one per record).
	stderr := &lockedWriter{w: e.Stderr}
	compilers := &jvm.CompilePool{Readable: []string{e.abs(path)}, Warn: warnTo(stderr)}
	defer compilers.Close()
	// Their Python originals fork from warm interpreters, cleared
	// between records.
	interpreters := &pyrunner.WarmPool{Readable: compilers.Readable, Warn: compilers.Warn}
	defer interpreters.Close()
	ctx := pyrunner.WithWarmPool(jvm.WithCompilePool(cmd.Context(), compilers), interpreters)
	res, err := verify.Run(ctx, verify.Options{
		Jobs: opts.jobs, Cache: cache,
		Python: python, PythonFrom: pythonFrom,
		Root: e.abs(path), Display: path, SkipRerun: opts.skipRerun, RequireEngine: opts.requireEngine, IncludeTestdata: opts.testdata,
		StartSpark: e.sparkStarter(sandboxMode, func(ctx context.Context, u *udf.UDF, engine, version string) (*spark.Session, error) {
			// A record is re-run on the engine and the Spark that proved
			// it: for a version other than the default, in udfx's
			// environment of that version unless the gate was given a
			// Python.
			so := opts.spark
			so.engine, so.python = engine, python
			if pythonFrom == gateManagedPython && version != pyenv.DefaultSpark() {
				// Only then: for the default version the gate's own
				// interpreter stays, never a .venv the pull request
				// could have changed.
				so.python = ""
			}
			py, ansi, err := sparkPythonFor(ctx, e, &so, &evidence.SparkTarget{Version: version})
			if err != nil {
				return nil, err
			}
			so.python = py
			return startSpark(ctx, e, &so, u, ansi, filepath.Join(e.abs(path), ".udfx", "spark"))
		}),
		Limits:    runner.Limits{Timeout: opts.timeout, MemoryMB: opts.memoryMB, Sandbox: sandboxMode},
		NewRunner: runners.WithPython(python), Progress: progress,
	})
	if progress != nil {
		fmt.Fprint(e.Stderr, "\r\033[K")
	}
	if err != nil {
		var ie *verify.InputError
		var ce *config.Error
		if errors.As(err, &ie) || errors.As(err, &ce) {
			return usageError(err)
		}
		return internalError(err)
	}

	if err := writeVerifyReport(e.Stdout, res, opts.format); err != nil {
		return internalError(fmt.Errorf("write report: %w", err))
	}
	for _, format := range []string{"json", "sarif", "junit"} {
		p := *opts.reports[format]
		if p == "" {
			continue
		}
		var b bytes.Buffer
		if err := writeVerifyReport(&b, res, format); err != nil {
			return internalError(fmt.Errorf("write the %s report: %w", format, err))
		}
		// Whole or not at all: a CI step uploads whatever is there.
		if err := evidence.WriteFileAtomic(e.abs(p), b.Bytes(), 0o644); err != nil {
			return internalError(fmt.Errorf("write the %s report: %w", format, err))
		}
	}
	if e.getenv("GITHUB_ACTIONS") == "true" {
		if err := githubOutputs(e, opts, res); err != nil {
			return internalError(err)
		}
	}

	switch {
	case res.HasErrors():
		return internalError(fmt.Errorf("could not check every rewrite: %s", res.Summary()))
	case !res.Passed():
		return &exitError{code: exitFailed, err: fmt.Errorf("gate failed: %s", res.Summary())}
	}
	return nil
}

// writeVerifyReport writes res in one output format.
func writeVerifyReport(w io.Writer, res *verify.Result, format string) error {
	switch format {
	case "json":
		return res.WriteJSON(w, version)
	case "sarif":
		return res.WriteSARIF(w, version)
	case "junit":
		return res.WriteJUnit(w)
	}
	return res.WriteTable(w)
}

// githubOutputs writes the annotations and the step summary. Annotations
// go to stdout beside the table; with a machine-readable format they go to
// stderr, which the Actions runner reads for workflow commands too, so
// stdout stays a valid document.
func githubOutputs(e *env, opts *verifyOptions, res *verify.Result) error {
	var w io.Writer = e.Stdout
	if opts.format != "table" {
		w = e.Stderr
	}
	if err := res.WriteAnnotations(w); err != nil {
		return fmt.Errorf("write annotations: %w", err)
	}
	summary := e.getenv("GITHUB_STEP_SUMMARY")
	if summary == "" {
		return nil
	}
	f, err := os.OpenFile(e.abs(summary), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("step summary: %w", err)
	}
	if err := res.WriteMarkdown(f); err != nil {
		f.Close()
		return fmt.Errorf("step summary: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("step summary: %w", err)
	}
	return nil
}

// gatePython is the interpreter verify re-runs originals with: --python,
// else $UDFX_PYTHON (the CI job's own setting), else udfx's managed
// environment, created the first time. A .venv in the repository is never
// taken unasked: the pull request under test could have changed it.
func gatePython(ctx context.Context, e *env, flag string) (string, string, error) {
	switch {
	case flag != "":
		p, err := exec.LookPath(e.abs(flag))
		if err != nil {
			return "", "", usageErrorf("--python %s: %v", flag, err)
		}
		return p, "--python", nil
	case e.getenv("UDFX_PYTHON") != "":
		return e.getenv("UDFX_PYTHON"), "UDFX_PYTHON", nil
	}
	p, err := pyenv.Ensure(ctx, pyenv.Options{Progress: e.progress().Func()})
	if err != nil {
		return "", "", internalError(fmt.Errorf("udfx needs its Python environment to re-run the originals and could not create it: %w (or pass --python)", err))
	}
	return p, gateManagedPython, nil
}

// gateManagedPython is gatePython's origin when it chose udfx's own
// environment, which a record for another Spark version replaces with
// that version's.
const gateManagedPython = "udfx's environment"
