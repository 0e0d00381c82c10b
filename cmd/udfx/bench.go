package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/udfx/udfx/harness/bench"
	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/runner/runners"
	"github.com/udfx/udfx/harness/spark"
	"github.com/udfx/udfx/harness/translate"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/internal/notebook"
	"github.com/udfx/udfx/internal/patch"
)

// benchOptions are the flags of `udfx bench`.
type benchOptions struct {
	sql    string
	rows   int
	runs   int
	warmup int
	seed   int64
	// samples: a file of rows timed instead of generated ones.
	samples string
	ansi    bool
	// ansiSet: --ansi was given; otherwise the project's Spark decides.
	ansiSet  bool
	format   string
	chart    string
	timeout  time.Duration
	memoryMB int
	sandbox  string
	types    string
	spark    sparkOptions
}

func newBenchCmd(e *env) *cobra.Command {
	opts := &benchOptions{}
	cmd := &cobra.Command{
		Use:   "bench SOURCE[:NAME] [--engine embedded|spark] [--rows N] [--sql EXPR]",
		Short: "Time the original UDF against its rewrite, alternating runs on the same inputs",
		Long: `Bench times the original UDF and its rewrite on the same generated inputs
(special values and NULLs included): warm-up runs of each side first, then
--runs timed runs that alternate original and rewrite, so that a noisy,
shared machine slows both alike. It reports each side's median and spread
(slowest − fastest run) and the ratio of the medians.

--engine embedded (default) times evaluation only: the original through
udfx's JVM or CPython driver, the rewrite on udfx's embedded engine.
--engine spark times whole Spark jobs in one session: read the inputs from
Parquet, evaluate, write to the noop sink; the original registered as its
source does, the rewrite as a SQL expression.

The rewrite is --sql, else the SQL rewrite applied in the repository
(udfx-rewrites/), else the built-in translator's.

--samples FILE times the rows of FILE (Parquet, CSV or JSON Lines, as
udfx test reads them), repeated in order to --rows, instead of generated
inputs. A rewrite can take a faster branch for the values real data
holds: a date formatter's SQL uses Spark's date functions for years 1582
to 9999 and arithmetic beyond, where most random longs fall.

--chart FILE writes an SVG bar chart (medians, whiskers from fastest to
slowest run, every run as a dot).

Exit codes: 0 measured, 2 bad usage (including a rewrite that does not
compile), 3 the original or Spark could not be run, 4 an interrupted
--apply could not be rolled back (see udfx rewrite --help).`,
		Example: `  udfx bench examples/python-celsius/celsius.py
  udfx bench examples/scala-to-fahrenheit/ToFahrenheit.scala --engine spark --rows 10000000 --chart bench.svg
  udfx bench jobs/udfs.py:parse_amount --sql "try_cast(s AS DECIMAL(12,2))" --format json
  udfx bench src/EpochToDate.java --engine spark --samples last_week.parquet`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ansiSet = cmd.Flags().Changed("ansi")
			return runBench(cmd.Context(), e, opts, args[0])
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.sql, "sql", "", "the rewrite (default: the applied rewrite, else the built-in translator's)")
	f.IntVar(&opts.rows, "rows", 1_000_000, "rows per run, special values included")
	f.IntVar(&opts.runs, "runs", 5, "timed runs of each side")
	f.IntVar(&opts.warmup, "warmup", 1, "untimed runs of each side first")
	f.Int64Var(&opts.seed, "seed", 1, "seed of the random inputs")
	f.StringVar(&opts.samples, "samples", "", "time these rows (Parquet, CSV or JSON Lines, as udfx test --samples) repeated to --rows, instead of generated inputs: your data's distribution decides which branch of a rewrite runs")
	f.BoolVar(&opts.ansi, "ansi", true, "spark.sql.ansi.enabled for both sides (default on --engine spark: the mode of the Spark the project declares)")
	f.StringVarP(&opts.format, "format", "f", "text", "output format: text or json")
	f.StringVar(&opts.chart, "chart", "", "write an SVG bar chart to this file")
	f.DurationVar(&opts.timeout, "timeout", 10*time.Minute, "time limit for each run of the original")
	f.IntVar(&opts.memoryMB, "memory", runner.DefaultLimits.MemoryMB, "memory limit of the original's process, MiB")
	addSandboxFlag(f, &opts.sandbox)
	addTypesFlag(f, &opts.types)
	addSparkFlags(f, &opts.spark)
	return cmd
}

func runBench(ctx context.Context, e *env, opts *benchOptions, target string) error {
	if opts.format != "text" && opts.format != "json" {
		return usageErrorf("unknown --format %q: want text or json", opts.format)
	}
	if opts.rows <= 0 || opts.runs <= 0 || opts.warmup < 0 || opts.timeout <= 0 || opts.memoryMB <= 0 {
		return usageErrorf("--rows, --runs, --timeout and --memory must be positive, --warmup not negative")
	}
	if err := opts.spark.check(); err != nil {
		return err
	}
	sandboxMode, err := e.sandboxMode(opts.sandbox, opts.spark.onSpark())
	if err != nil {
		return err
	}
	u, err := findUDF(e, target, udfTypes{flag: opts.types, limits: runner.Limits{Timeout: opts.timeout, MemoryMB: opts.memoryMB, Sandbox: sandboxMode}})
	if err != nil {
		return err
	}
	if _, err := e.ensurePython(ctx, filepath.Dir(u.Path())); err != nil {
		return internalError(err)
	}
	if opts.samples != "" {
		if isPipeline(u) {
			return usageErrorf("--samples times one UDF's rows; %s is an RDD pipeline, timed on its generated lines", u.Name)
		}
		opts.samples = e.abs(opts.samples)
	}
	abs, err := filepath.Abs(u.Path())
	if err != nil {
		return internalError(err)
	}
	var progress func(string)
	if rep := e.progress(); rep != nil {
		progress = func(s string) { rep.Step(u.Name + ": " + s) }
	}
	var res *bench.Result
	var origin string
	if isPipeline(u) {
		res, origin, err = benchPipeline(ctx, e, opts, u, abs, progress)
	} else {
		var sql string
		if sql, origin, err = benchSQL(e, opts.sql, abs, u); err != nil {
			return err
		}
		bopts := bench.Options{
			UDF: u, SQL: sql, Rows: opts.rows, Seed: opts.seed, Samples: opts.samples, Warmup: opts.warmup, Runs: opts.runs, ANSI: opts.ansi,
			Limits: runner.Limits{Timeout: opts.timeout, MemoryMB: opts.memoryMB, Sandbox: sandboxMode}, NewRunner: runners.New, Progress: progress,
		}
		if opts.spark.onSpark() {
			// On the Spark the project declares, in its mode unless
			// --ansi says otherwise.
			if _, err := projectSpark(ctx, e, &opts.spark, u, &bopts.ANSI, opts.ansiSet); err != nil {
				return err
			}
			res, err = benchOnSpark(ctx, e, &opts.spark, bopts)
		} else {
			res, err = bench.Embedded(ctx, bopts)
		}
	}
	if progress != nil {
		fmt.Fprint(e.Stderr, "\r\033[K")
	}
	if err != nil {
		return benchError(err)
	}
	res.File = u.File
	if opts.chart != "" {
		if err := evidence.WriteFileAtomic(e.abs(opts.chart), bench.SVG(res), 0o644); err != nil {
			return usageErrorf("--chart: %w", err)
		}
	}
	if opts.format == "json" {
		enc := json.NewEncoder(e.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			*bench.Result
			RewriteOrigin string `json:"rewrite_origin"`
		}{res, origin})
	}
	writeBenchText(e, res, origin)
	return nil
}

// benchSQL picks the rewrite to time: the flag, the applied rewrite, or
// the built-in translator's.
func benchSQL(e *env, flag, abs string, u *udf.UDF) (sql, origin string, err error) {
	if flag != "" {
		return flag, "--sql", nil
	}
	root := patch.RepoRoot(filepath.Dir(abs))
	rel, err := filepath.Rel(root, abs)
	if err != nil {
		return "", "", internalError(err)
	}
	byRepo := *u
	byRepo.File, byRepo.Root = filepath.ToSlash(rel), root
	sql, path, ok, err := patch.AppliedSQL(root, &byRepo)
	if err != nil {
		return "", "", usageError(err)
	}
	if ok {
		return sql, path, nil
	}
	src, err := notebook.ReadCode(abs)
	if err != nil {
		return "", "", usageErrorf("read %s: %w", u.File, err)
	}
	tr, err := translate.Translate(u, src)
	if err != nil {
		return "", "", internalError(err)
	}
	if tr.SQL == "" {
		reasons := make([]string, len(tr.Declines))
		for i, d := range tr.Declines {
			reasons[i] = fmt.Sprintf("%s: %s", d.Construct, d.Reason)
		}
		return "", "", usageErrorf("%s has no applied rewrite and the built-in translator declines it (%s): give the rewrite with --sql", u.Name, strings.Join(reasons, "; "))
	}
	return tr.SQL, "built-in translator", nil
}

func benchError(err error) error {
	var oe *bench.OriginalError
	var re *bench.RewriteError
	var se *bench.SamplesError
	var je *spark.JobError
	switch {
	case errors.As(err, &se):
		return usageError(err)
	case errors.As(err, &oe):
		return internalError(err)
	case errors.As(err, &re):
		return usageError(err)
	case errors.As(err, &je) && je.Side == spark.Rewrite:
		// Spark rejected or failed the rewrite's job.
		return usageError(err)
	}
	return sparkError(err)
}

func writeBenchText(e *env, r *bench.Result, origin string) {
	w := e.Stdout
	fmt.Fprintf(w, "%s (%s)\n", r.UDF, r.File)
	fmt.Fprintf(w, "  rewrite   %s (%s)\n", r.SQL, origin)
	fmt.Fprintf(w, "  engine    %s; %d rows, %d warm-up and %d timed runs of each side, alternating\n", r.Engine, r.Rows, r.Warmup, r.Runs)
	if r.Samples != "" {
		fmt.Fprintf(w, "  inputs    the rows of %s, repeated to %d\n", r.Samples, r.Rows)
	}
	fmt.Fprintf(w, "  original  %s\n  rewrite   %s\n  machine   %s\n\n", r.Original, r.Rewrite, r.Machine)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "side\tmedian\tspread\truns\t")
	fmt.Fprintf(tw, "original\t%.4fs\t%.4fs\t%s\t\n", r.OriginalMedianS, r.OriginalSpreadS, secondsList(r.OriginalS))
	fmt.Fprintf(tw, "rewrite\t%.4fs\t%.4fs\t%s\t\n", r.RewriteMedianS, r.RewriteSpreadS, secondsList(r.RewriteS))
	tw.Flush()
	fmt.Fprintf(w, "\nspeedup %.2f× (original median / rewrite median)\n", r.Speedup)
	if r.OriginalNative != nil && r.RewriteNative != nil {
		fmt.Fprintf(w, "native    original: %s\n", r.OriginalNative.Line())
		fmt.Fprintf(w, "native    rewrite:  %s\n", r.RewriteNative.Line())
	}
}

func secondsList(xs []float64) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprintf("%.4f", x)
	}
	return strings.Join(parts, " ")
}
