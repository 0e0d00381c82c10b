// Package difftest proves or refutes a rewrite: it runs the real original
// UDF and the rewrite on the same generated inputs (every special value of
// every parameter type, seeded random values, nulls, the user's samples)
// and compares the results row by row under a stated policy. On a
// mismatch it shrinks the failing input to a minimal counterexample.
package difftest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/udfx/udfx/harness/engine"
	"github.com/udfx/udfx/harness/inputs"
	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/spark"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/value"
	"github.com/udfx/udfx/internal/typeinfer"
)

// Options configure one differential test.
type Options struct {
	Seed int64
	// Rows is how many input rows to test (special values included).
	Rows int
	// Samples is a Parquet, CSV or JSON Lines file of rows the user wants
	// always tested.
	Samples string
	// ANSI is spark.sql.ansi.enabled for the rewrite (Spark 4: true).
	ANSI   bool
	Policy value.Policy
	// AllowErrorToNull accepts a NULL from the rewrite where the original
	// threw.
	AllowErrorToNull bool
	Limits           runner.Limits
	// Workspace, when set, is the folder the inputs are saved in.
	Workspace string
	// NewRunner starts the original's runner (runners.New in production).
	NewRunner func(ctx context.Context, u *udf.UDF, limits runner.Limits) (runner.Runner, error)
	// NearMisses adds NearMissRows after the generated rows (and the
	// samples): the literals of the original's file and of the rewrite,
	// their one-character neighbours and numeric neighbours
	// (inputs.NearMissRows). They are not part of the seeded inputs a
	// record hashes.
	NearMisses bool
	// NewBatchRunner, when set, starts a runner of a Python rewrite that
	// takes each Run call's rows as one batch (python.New in
	// production): RunPython then runs the rewrite again in batches of
	// many sizes, as Spark would call it (RunPython).
	NewBatchRunner func(ctx context.Context, u *udf.UDF, limits runner.Limits) (runner.Runner, error)
	// Progress, when set, hears what the test is doing.
	Progress func(stage string)
	// Spark, when set, runs both sides in this real Spark session instead
	// of the original's runner and the embedded engine: the original
	// registered as its source does, the rewrite as a SQL expression, on
	// the same generated inputs.
	Spark *spark.Session
	// LeaveOutThrowingRows lets a test on Spark take an original that
	// throws on some rows. Spark stops a job at its first exception
	// without saying on which row, so when the original's job fails, the
	// rows on which it throws in udfx's own runner (NewRunner) are left
	// out and both sides run again on the rest; Report.LeftOutRows counts
	// them. Spark's failure must be an exception the runner threw, and the
	// job on the rest must not fail: either would be Spark and the runner
	// disagreeing about the original.
	LeaveOutThrowingRows bool
	// ProveThrowingRows lets a test on Spark prove an original that
	// throws on some rows. As with LeaveOutThrowingRows, the rest are
	// compared in one job; then both sides run on each row the original
	// throws on in udfx's runner, each row a Spark job of its own
	// (spark.Session.RunEachRow), and those rows are compared as the
	// embedded engine compares them: where the original throws, the
	// rewrite must fail too. It costs two Spark jobs a row, so at most
	// MaxRowsOneByOne rows.
	ProveThrowingRows bool
}

// MaxRowsOneByOne bounds the rows ProveThrowingRows runs one job each
// for: an original that throws on more of the generated rows is not
// proved on Spark.
const MaxRowsOneByOne = 400

// Rewrite is the candidate under test: a Spark SQL expression over the
// UDF's parameters.
type Rewrite struct {
	SQL string
}

// UsageError is a problem with what the user asked for: a rewrite the
// embedded engine cannot evaluate, a type mismatch, a bad samples file.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// OriginalError says the original could not be run: see runner's errors.
type OriginalError struct{ Err error }

func (e *OriginalError) Error() string { return "cannot run the original: " + e.Err.Error() }
func (e *OriginalError) Unwrap() error { return e.Err }

// Run tests rw against u.
func Run(ctx context.Context, u *udf.UDF, rw Rewrite, opts Options) (*Report, error) {
	progress := opts.Progress
	if progress == nil {
		progress = func(string) {}
	}
	if opts.Rows <= 0 {
		opts.Rows = 10_000
	}
	if err := typeinfer.Missing(u); err != nil {
		return nil, &UsageError{Err: err}
	}
	params, cols, err := signature(u)
	if err != nil {
		return nil, &UsageError{Err: err}
	}
	// On Spark the rewrite is Spark's to analyze: the embedded engine's
	// coverage does not limit it.
	var expr *engine.Expr
	approx := false
	if opts.Spark == nil {
		var policy value.Policy
		expr, approx, policy, err = compileForEngine(u, rw, cols, opts)
		if err != nil {
			return nil, err
		}
		opts.Policy = policy
	}

	mem := memory.NewGoAllocator()
	progress("generating inputs")
	in, err := makeTestRows(u, rw, opts, params, mem)
	if err != nil {
		return nil, err
	}
	defer in.release()
	rep := &Report{
		UDF: u.Name, Language: string(u.Language), File: u.File,
		RewriteSQL: rw.SQL, Engine: "embedded", ANSI: opts.ANSI, Policy: opts.Policy, ApproxMath: approx,
		AllowErrorToNull: opts.AllowErrorToNull, Seed: opts.Seed,
		Rows: len(in.rows), SpecialRows: in.stats.SpecialRows, NullRows: in.stats.NullRows, SampleRows: in.sampleRows,
		NearMissRows:       in.nearMisses,
		OriginalExceptions: map[string]int{}, RewriteExceptions: map[string]int{},
	}
	if opts.Spark != nil {
		return runOnSpark(ctx, u, rw, opts, params, in.rec, in.rows, rep, mem)
	}
	return runEmbedded(ctx, u, expr, opts, params, in, rep, mem, progress)
}

// compileForEngine compiles rw for the embedded engine, which must give
// it u's return type.
func compileForEngine(u *udf.UDF, rw Rewrite, cols []engine.Column, opts Options) (*engine.Expr, bool, value.Policy, error) {
	expr, approx, policy, err := compileRewrite(rw.SQL, cols, opts)
	if err != nil {
		return nil, false, policy, &UsageError{Err: fmt.Errorf("rewrite %q: %w", rw.SQL, err)}
	}
	if !expr.Type().Equal(u.Return) {
		return nil, false, policy, &UsageError{Err: fmt.Errorf("rewrite %q has type %s but %s returns %s: cast it or fix the expression", rw.SQL, expr.Type(), u.Name, u.Return)}
	}
	return expr, approx, policy, nil
}

// testRows are the rows a test runs, as one record and as values: the
// generated rows, the samples after them, and the near misses last.
type testRows struct {
	rec        arrow.RecordBatch
	rows       [][]value.Value
	stats      inputs.Stats
	sampleRows int
	nearMisses int
	// releases free the records made on the way; release runs them
	// last first.
	releases []func()
}

func (in *testRows) release() {
	for i := len(in.releases) - 1; i >= 0; i-- {
		in.releases[i]()
	}
}

// makeTestRows generates the seeded inputs, adds the user's samples,
// saves them in the workspace, and adds the near misses after them.
func makeTestRows(u *udf.UDF, rw Rewrite, opts Options, params []inputs.Param, mem memory.Allocator) (_ *testRows, err error) {
	rec, stats, err := inputs.Generate(params, inputs.Options{Seed: opts.Seed, Rows: opts.Rows}, mem)
	if err != nil {
		return nil, fmt.Errorf("generate inputs: %w", err)
	}
	in := &testRows{rec: rec, stats: stats, releases: []func(){rec.Release}}
	// A failure releases what was made before it.
	defer func() {
		if err != nil {
			in.release()
		}
	}()
	if opts.Samples != "" {
		samples, err := inputs.LoadSamples(opts.Samples, params, mem)
		if err != nil {
			return nil, &UsageError{Err: err}
		}
		in.releases = append(in.releases, samples.Release)
		in.sampleRows = int(samples.NumRows())
		joined, err := concat(in.rec, samples, mem)
		if err != nil {
			return nil, err
		}
		in.releases = append(in.releases, joined.Release)
		in.rec = joined
	}
	// The saved inputs are the seeded ones (and the samples): what a
	// record's seed and rows regenerate. The near misses come after.
	if err := saveInputs(opts.Workspace, in.rec); err != nil {
		return nil, err
	}
	in.rows = recordRows(in.rec)
	if opts.NearMisses {
		near := nearMissRows(params, in.rows, stats, u.Path(), rw.SQL)
		if len(near) > 0 {
			joined, err := appendRows(in.rec, near, mem)
			if err != nil {
				return nil, err
			}
			in.releases = append(in.releases, joined.Release)
			in.rec, in.rows, in.nearMisses = joined, append(in.rows, near...), len(near)
		}
	}
	return in, nil
}

// runEmbedded is the test with the original in its own runner and the
// rewrite, expr, on the embedded engine.
func runEmbedded(ctx context.Context, u *udf.UDF, expr *engine.Expr, opts Options, params []inputs.Param, in *testRows, rep *Report, mem memory.Allocator, progress func(string)) (*Report, error) {
	rows := in.rows
	progress(StartingStep(u))
	r, err := opts.NewRunner(ctx, u, opts.Limits)
	if err != nil {
		return nil, &OriginalError{Err: err}
	}
	defer r.Close()
	if in.nearMisses > 0 {
		progress(fmt.Sprintf("running the original on %d rows and %d near misses of the literals", len(rows)-in.nearMisses, in.nearMisses))
	} else {
		progress(fmt.Sprintf("running the original on %d rows", len(rows)))
	}
	orig, origTime, err := runRows(ctx, r, rows, params)
	if err != nil {
		return nil, &OriginalError{Err: err}
	}
	for i := range orig {
		orig[i] = sparkStores(u.Language, u.Return, orig[i], opts.ANSI)
	}

	progress("evaluating the rewrite")
	start := time.Now()
	got, err := evalRewrite(expr, in.rec, mem)
	rwTime := time.Since(start)
	if err != nil {
		return nil, err
	}

	rep.Runtime, rep.PythonUnicode, rep.JDK = r.Describe(), unicodeOf(r), jdkOf(r)
	rep.OriginalSeconds, rep.RewriteSeconds = origTime.Seconds(), rwTime.Seconds()
	firstBad := tally(rep, opts, orig, got)
	rep.Equal = rep.Mismatches == 0
	if firstBad >= 0 {
		progress("shrinking the counterexample")
		ce, err := shrink(ctx, embeddedEvaluator(r, expr, params, u, opts, mem), params, rows[firstBad], orig[firstBad], got[firstBad], opts)
		if err != nil {
			return nil, err
		}
		ce.Row = firstBad
		rep.Counterexample = ce
	}
	return rep, nil
}

// tally compares the two sides row by row into rep and returns the first
// row where they disagree, or -1.
func tally(rep *Report, opts Options, orig, got []value.Value) int {
	firstBad := -1
	for i := range orig {
		o, g := orig[i], got[i]
		if o.Kind == value.Error {
			rep.OriginalExceptions[o.Class]++
		}
		if g.Kind == value.Error {
			rep.RewriteExceptions[errorName(g)]++
		}
		switch verdict(opts, o, g) {
		case agree:
			if o.Kind == value.Error {
				rep.ErrorRowsMatched++
			}
		case agreeErrorToNull:
			rep.ErrorRowsNull++
		case disagree:
			rep.Mismatches++
			if firstBad < 0 {
				firstBad = i
			}
		}
	}
	return firstBad
}

// compileRewrite compiles the rewrite for the embedded engine. The engine
// computes pow, hypot and the trigonometric functions within 1 ulp of the
// JVM, not bit for bit (exp, the logarithms, sinh, cosh, tanh and cbrt are
// exact, as fdlibm): it admits them only when the user
// accepts at least 2 ulps, and then compares with one ulp less, so that
// what passes here is within the user's tolerance of what Spark computes.
func compileRewrite(sql string, cols []engine.Column, opts Options) (*engine.Expr, bool, value.Policy, error) {
	eopts := engine.Options{ANSI: opts.ANSI, TimeZone: "UTC"}
	expr, err := engine.Compile(sql, cols, eopts)
	var ufe *engine.UnsupportedFunctionError
	if err == nil || !errors.As(err, &ufe) || !ufe.Approx || opts.Policy.ULP < 2 {
		return expr, false, opts.Policy, err
	}
	eopts.ApproxMath = true
	expr, err = engine.Compile(sql, cols, eopts)
	policy := opts.Policy
	policy.ULP--
	return expr, true, policy, err
}

type outcome int

const (
	agree outcome = iota
	agreeErrorToNull
	disagree
)

// verdict compares one row. Where the original throws, the rewrite must
// fail too (any error: the rewrite's is Spark's, not the JVM's), or, with
// AllowErrorToNull, may return NULL.
func verdict(opts Options, o, g value.Value) outcome {
	if o.Kind == value.Error {
		switch {
		case g.Kind == value.Error:
			return agree
		case g.Kind == value.Null && opts.AllowErrorToNull:
			return agreeErrorToNull
		}
		return disagree
	}
	if opts.Policy.Equal(o, g) {
		return agree
	}
	return disagree
}

func errorName(v value.Value) string {
	if v.Condition != "" {
		return v.Condition
	}
	return v.Class
}

// signature gives the generator's parameters and the engine's columns.
func signature(u *udf.UDF) ([]inputs.Param, []engine.Column, error) {
	params := make([]inputs.Param, len(u.Params))
	cols := make([]engine.Column, len(u.Params))
	for i, p := range u.Params {
		if p.Type == nil {
			return nil, nil, typeinfer.Missing(u)
		}
		params[i] = inputs.Param{Name: p.Name, Type: p.Type}
		cols[i] = engine.Column{Name: p.Name, Type: p.Type}
	}
	return params, cols, nil
}

func recordRows(rec arrow.RecordBatch) [][]value.Value {
	n := int(rec.NumRows())
	rows := make([][]value.Value, n)
	cols := rec.Columns()
	flat := make([]value.Value, n*len(cols))
	for i := range rows {
		rows[i] = flat[i*len(cols) : (i+1)*len(cols) : (i+1)*len(cols)]
		for j, c := range cols {
			rows[i][j] = value.FromArrow(c, i)
		}
	}
	return rows
}

// evalRewrite evaluates the rewrite and returns one value per row, with
// the engine's per-row errors in place of values.
func evalRewrite(expr *engine.Expr, rec arrow.RecordBatch, mem memory.Allocator) ([]value.Value, error) {
	res, err := expr.Eval(rec, mem)
	if err != nil {
		return nil, fmt.Errorf("evaluate the rewrite: %w", err)
	}
	defer res.Values.Release()
	out := make([]value.Value, res.Values.Len())
	for i := range out {
		out[i] = value.FromArrow(res.Values, i)
	}
	for _, e := range res.Errors {
		v := value.ErrorOf(e.Class, e.Message)
		v.Condition = e.Condition
		out[e.Row] = v
	}
	return out, nil
}

func describeRow(params []inputs.Param, row []value.Value) string {
	s := ""
	for i, p := range params {
		if i > 0 {
			s += ", "
		}
		s += p.Name + " = " + row[i].String()
	}
	return s
}

// StartingStep names what starting the original involves, since on a first
// run compiling it is the slow part: scalac or javac (cached by content
// hash afterwards), then a JVM; or CPython importing the module.
func StartingStep(u *udf.UDF) string {
	base := filepath.Base(u.File)
	switch u.Language {
	case udf.Scala:
		return "compiling " + base + " with scalac (cached after the first run) and starting a JVM"
	case udf.Java:
		return "compiling " + base + " with javac (cached after the first run) and starting a JVM"
	case udf.Python:
		return "importing " + base + " in CPython"
	}
	return "starting the original"
}

// saveInputs writes the generated inputs to the workspace, when there is
// one, as inputs.arrow.
func saveInputs(workspace string, rec arrow.RecordBatch) error {
	if workspace == "" {
		return nil
	}
	if err := os.MkdirAll(workspace, 0o755); err != nil {
		return fmt.Errorf("workspace: %w", err)
	}
	if err := inputs.WriteIPC(filepath.Join(workspace, "inputs.arrow"), rec); err != nil {
		return fmt.Errorf("save inputs: %w", err)
	}
	return nil
}

// runRows runs r on every row and times it. A runaway or a crash names
// the input it happened on; a runner that answers for fewer or more rows
// than it was given is an error.
func runRows(ctx context.Context, r runner.Runner, rows [][]value.Value, params []inputs.Param) ([]value.Value, time.Duration, error) {
	start := time.Now()
	out, err := r.Run(ctx, rows)
	took := time.Since(start)
	if err != nil {
		var te *runner.TimeoutError
		var ce *runner.CrashError
		switch {
		case errors.As(err, &te) && !te.Starting && te.Row < len(rows):
			return nil, 0, fmt.Errorf("%w; input: %s", err, describeRow(params, rows[te.Row]))
		case errors.As(err, &ce) && ce.Row < len(rows):
			return nil, 0, fmt.Errorf("%w; input: %s", err, describeRow(params, rows[ce.Row]))
		}
		return nil, 0, err
	}
	if len(out) != len(rows) {
		return nil, 0, fmt.Errorf("the runner returned %d results for %d rows", len(out), len(rows))
	}
	return out, took, nil
}

// unicodeOf is the Unicode version of a Python runner's interpreter; ""
// for other runners.
// jdkOf is the JDK feature version of a JVM runner, "" for others.
func jdkOf(r runner.Runner) string {
	if p, ok := r.(interface{ JDK() string }); ok {
		return p.JDK()
	}
	return ""
}

func unicodeOf(r runner.Runner) string {
	if p, ok := r.(interface{ UnicodeVersion() string }); ok {
		return p.UnicodeVersion()
	}
	return ""
}
