package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/udfx/udfx/harness/difftest"
	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/pyenv"
	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/runner/runners"
	"github.com/udfx/udfx/harness/spark"
	"github.com/udfx/udfx/harness/value"
	"github.com/udfx/udfx/internal/patch"
)

// testOptions are the flags of `udfx test`.
type testOptions struct {
	sql         string
	rewriteFile string
	seed        int64
	rows        int
	samples     string
	ansi        bool
	// ansiSet: --ansi was given; otherwise the project's Spark decides.
	ansiSet          bool
	signedZero       string
	ulp              int64
	rel, abs         float64
	allowErrorToNull bool
	timeout          time.Duration
	memoryMB         int
	sandbox          string
	format           string
	workspace        string
	types            string
	spark            sparkOptions
}

func newTestCmd(e *env) *cobra.Command {
	opts := &testOptions{}
	cmd := &cobra.Command{
		Use:   "test SOURCE[:NAME] (--sql EXPR | --rewrite FILE)",
		Short: "Differential test: run the real original UDF against a rewrite on every special value",
		Long: `Test runs the original UDF for real (Scala and Java compiled and run in a JVM,
Python in CPython, as Spark would call them) and the rewrite on udfx's embedded
Spark SQL engine, or with --engine spark both in one real Apache Spark
session (the original registered as its source does; the rewritten query's
physical plan must hold no UDF node), on the same inputs: every special value of every parameter
type, seeded random values, NULLs, and the rows of --samples. It compares the
results row by row and, on a mismatch, shrinks the failing input to a minimal
counterexample.

NAME picks a UDF when the file defines several (its name or registered name).
The rewrite is a Spark SQL expression over the UDF's parameter names.

Comparison is bit-exact by default: NaN equals NaN whatever its payload, -0.0
differs from 0.0 unless --signed-zero=lenient. Where the original throws, the
rewrite must fail too, unless --allow-error-to-null.

The original is the repository's code, and udfx runs it: --sandbox (default
auto) runs it, and the compiler of its source, under bubblewrap, with the file
system read-only, a private /tmp and no network; auto runs it uncontained
where bubblewrap does not work and says so, on refuses to, off trusts the
repository. --engine spark runs the original in Spark's own workers,
uncontained.

Exit codes: 0 equal, 1 mismatch, 2 bad usage (including a rewrite the engine
cannot evaluate), 3 the original could not be run (no JDK, no Scala compiler,
a compile error, a timeout, --sandbox on without a working bubblewrap), 4 an interrupted --apply could not be rolled
back (see udfx rewrite --help).`,
		Example: `  udfx test examples/scala-to-fahrenheit/ToFahrenheit.scala:ToFahrenheit --sql "celsius * 9.0 / 5.0 + 32.0"
  udfx test examples/python-celsius/celsius.py --sql "celsius * 1.8 + 32.0" --format json
  udfx test src/Udfs.java:parse_amount --rewrite parse_amount.sql --samples rows.jsonl --ansi=false
  udfx test examples/python-celsius/celsius.py --sql "celsius * 9.0D / 5.0D + 32.0D" --engine spark`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ansiSet = cmd.Flags().Changed("ansi")
			return runTest(cmd.Context(), e, opts, args[0])
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.sql, "sql", "", "the rewrite: a Spark SQL expression over the UDF's parameters")
	f.StringVar(&opts.rewriteFile, "rewrite", "", "a file holding the rewrite's SQL expression (-- comments allowed)")
	f.Int64Var(&opts.seed, "seed", 1, "seed of the random inputs")
	f.IntVar(&opts.rows, "rows", 10_000, "rows to test, special values included")
	f.StringVar(&opts.samples, "samples", "", "Parquet, CSV or JSON Lines file of rows always tested")
	f.BoolVar(&opts.ansi, "ansi", true, "spark.sql.ansi.enabled for both sides (default: the mode of the Spark the project declares, its udfx.yaml's spark: ansi: if stated)")
	f.StringVar(&opts.signedZero, "signed-zero", "strict", "strict: -0.0 differs from 0.0; lenient: they are equal")
	f.Int64Var(&opts.ulp, "ulp", 0, "accept floating-point results this many ulps apart")
	f.Float64Var(&opts.rel, "rel", 0, "accept floating-point results within this relative difference")
	f.Float64Var(&opts.abs, "abs", 0, "accept floating-point results within this absolute difference")
	f.BoolVar(&opts.allowErrorToNull, "allow-error-to-null", false, "accept NULL from the rewrite where the original throws")
	f.DurationVar(&opts.timeout, "timeout", runner.DefaultLimits.Timeout, "time limit for running the original")
	f.IntVar(&opts.memoryMB, "memory", runner.DefaultLimits.MemoryMB, "memory limit of the original's process, MiB")
	addSandboxFlag(f, &opts.sandbox)
	f.StringVarP(&opts.format, "format", "f", "text", "output format: text or json")
	f.StringVar(&opts.workspace, "workspace", ".udfx", "folder for the saved inputs (<workspace>/<udf>/inputs.arrow)")
	addTypesFlag(f, &opts.types)
	addSparkFlags(f, &opts.spark)
	return cmd
}

func runTest(ctx context.Context, e *env, opts *testOptions, target string) error {
	if (opts.sql == "") == (opts.rewriteFile == "") {
		return usageErrorf("give the rewrite with exactly one of --sql or --rewrite")
	}
	if opts.format != "text" && opts.format != "json" {
		return usageErrorf("unknown --format %q: want text or json", opts.format)
	}
	policy := value.Policy{ULP: opts.ulp, Rel: opts.rel, Abs: opts.abs}
	switch opts.signedZero {
	case "strict":
	case "lenient":
		policy.LenientSignedZero = true
	default:
		return usageErrorf("unknown --signed-zero %q: want strict or lenient", opts.signedZero)
	}
	if opts.ulp < 0 || opts.rel < 0 || opts.abs < 0 || opts.rows < 0 || opts.timeout <= 0 || opts.memoryMB <= 0 {
		return usageErrorf("--ulp, --rel, --abs and --rows must not be negative; --timeout and --memory must be positive")
	}
	sql := opts.sql
	if opts.rewriteFile != "" {
		b, err := os.ReadFile(e.abs(opts.rewriteFile))
		if err != nil {
			return usageErrorf("read --rewrite: %w", err)
		}
		sql = evidence.StripSQLComments(string(b))
		if sql == "" {
			return usageErrorf("%s holds no SQL expression", opts.rewriteFile)
		}
	}
	if err := opts.spark.check(); err != nil {
		return err
	}
	sandboxMode, err := e.sandboxMode(opts.sandbox, opts.spark.onSpark())
	if err != nil {
		return err
	}
	u, err := findUDF(e, target, udfTypes{flag: opts.types, samples: opts.samples, limits: runner.Limits{Timeout: opts.timeout, MemoryMB: opts.memoryMB, Sandbox: sandboxMode}})
	if err != nil {
		return err
	}
	if _, err := e.ensurePython(ctx, filepath.Dir(u.Path())); err != nil {
		return internalError(err)
	}
	samples := ""
	if opts.samples != "" {
		samples = e.abs(opts.samples)
	}
	workspace := ""
	if opts.workspace != "" {
		workspace = filepath.Join(e.abs(opts.workspace), patch.SafeName(u.Name))
		if err := patch.MarkWorkspace(workspace); err != nil {
			return internalError(err)
		}
		unlock, err := lockWorkspace(workspace)
		if err != nil {
			return err
		}
		defer unlock()
	}
	progress := e.progress().Func()
	if !opts.spark.onSpark() && !opts.ansiSet {
		// The embedded engine follows the default Spark: in the mode the
		// project states for it, if it does.
		if target, decline, err := sparkTarget("", patch.RepoRoot(filepath.Dir(u.Path())), u, &opts.spark); err == nil && decline == "" && target.Version == pyenv.DefaultSpark() {
			opts.ansi = target.Mode(pyenv.DefaultANSI)
		}
	}
	var session *spark.Session
	if opts.spark.onSpark() {
		sws := filepath.Join(e.abs(".udfx"), "spark")
		if opts.workspace != "" {
			sws = filepath.Join(e.abs(opts.workspace), "spark")
		}
		// On the Spark the project declares, in its mode unless --ansi
		// says otherwise.
		target, err := projectSpark(ctx, e, &opts.spark, u, &opts.ansi, opts.ansiSet)
		if err != nil {
			return err
		}
		if session, err = startSpark(ctx, e, &opts.spark, u, opts.ansi, sws); err != nil {
			return err
		}
		defer session.Close()
		if problem := sessionProblem(session, target); problem != "" {
			return usageErrorf("%s", problem)
		}
	}
	rep, err := difftest.Run(ctx, u, difftest.Rewrite{SQL: sql}, difftest.Options{
		Seed: opts.seed, Rows: opts.rows, Samples: samples, ANSI: opts.ansi,
		Policy: policy, AllowErrorToNull: opts.allowErrorToNull,
		Limits:    runner.Limits{Timeout: opts.timeout, MemoryMB: opts.memoryMB, Sandbox: sandboxMode},
		Workspace: workspace, NewRunner: runners.New, Progress: progress, Spark: session,
		// As rewrite tests a candidate: a rewrite off by one character in
		// a literal fails here too, not only once rewrite or verify
		// runs it.
		NearMisses: true,
		// On Spark, the rows the original throws on are compared one by
		// one, as the embedded engine compares every row.
		ProveThrowingRows: true,
	})
	if err != nil {
		var ue *difftest.UsageError
		var oe *difftest.OriginalError
		switch {
		case errors.As(err, &ue):
			return usageError(err)
		case errors.As(err, &oe):
			return internalError(err)
		}
		return sparkError(err)
	}
	if opts.format == "json" {
		err = rep.WriteJSON(e.Stdout)
	} else {
		err = rep.WriteText(e.Stdout)
	}
	if err != nil {
		return internalError(fmt.Errorf("write report: %w", err))
	}
	if !rep.Equal {
		if rep.Refuted != "" {
			return &exitError{code: exitFailed, err: fmt.Errorf("the rewrite is refuted: %s", rep.Refuted)}
		}
		return &exitError{code: exitFailed, err: fmt.Errorf("the rewrite differs from %s on %d of %d rows", u.Name, rep.Mismatches, rep.Rows)}
	}
	return nil
}
