package bench

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/udfx/udfx/harness/engine"
	"github.com/udfx/udfx/harness/inputs"
	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/value"
	"github.com/udfx/udfx/internal/typeinfer"
)

// Options configure one benchmark.
type Options struct {
	// UDF is the original; its File must be readable by the runners
	// (absolute, or relative to the working folder).
	UDF *udf.UDF
	// SQL is the rewrite: a Spark SQL expression over the parameters.
	SQL  string
	Rows int
	Seed int64
	// Samples, when set, is a file of rows (Parquet, CSV or JSON Lines,
	// as udfx test reads them) timed instead of generated inputs,
	// repeated to Rows: the distribution of the user's data (timestamps
	// of this decade, not random longs) decides which branch of a
	// rewrite runs.
	Samples string
	Warmup  int
	Runs    int
	ANSI    bool
	Limits  runner.Limits
	// NewRunner starts the original's runner (runners.New in production).
	NewRunner func(ctx context.Context, u *udf.UDF, limits runner.Limits) (runner.Runner, error)
	Progress  func(string)
}

// Inputs generates the benchmark's inputs: the same generator as the
// differential test, so special values and NULLs are timed too; or,
// with samples set, that file's rows repeated to rows.
func Inputs(u *udf.UDF, rows int, seed int64, samples string, mem memory.Allocator) (arrow.RecordBatch, []engine.Column, error) {
	params := make([]inputs.Param, len(u.Params))
	cols := make([]engine.Column, len(u.Params))
	for i, p := range u.Params {
		if p.Type == nil {
			return nil, nil, typeinfer.Missing(u)
		}
		params[i] = inputs.Param{Name: p.Name, Type: p.Type}
		cols[i] = engine.Column{Name: p.Name, Type: p.Type}
	}
	if samples != "" {
		rec, err := inputs.LoadSamples(samples, params, mem)
		if err != nil {
			return nil, nil, &SamplesError{Path: samples, Err: err}
		}
		defer rec.Release()
		if rec.NumRows() == 0 {
			return nil, nil, &SamplesError{Path: samples, Err: errors.New("no rows to time")}
		}
		out, err := repeatRows(rec, rows, mem)
		if err != nil {
			return nil, nil, fmt.Errorf("samples %s: %w", samples, err)
		}
		return out, cols, nil
	}
	rec, _, err := inputs.Generate(params, inputs.Options{Seed: seed, Rows: rows}, mem)
	if err != nil {
		return nil, nil, fmt.Errorf("generate inputs: %w", err)
	}
	return rec, cols, nil
}

// SamplesError is a file of rows to time that cannot be read for the
// UDF: the user's input, not udfx's failure.
type SamplesError struct {
	Path string
	Err  error
}

func (e *SamplesError) Error() string { return "samples " + e.Path + ": " + e.Err.Error() }

func (e *SamplesError) Unwrap() error { return e.Err }

// repeatRows is rec's rows repeated, in order, to exactly rows rows.
func repeatRows(rec arrow.RecordBatch, rows int, mem memory.Allocator) (arrow.RecordBatch, error) {
	n := int(rec.NumRows())
	copies := (rows + n - 1) / n
	cols := make([]arrow.Array, rec.NumCols())
	for i, c := range rec.Columns() {
		parts := make([]arrow.Array, copies)
		for k := range parts {
			parts[k] = c
		}
		whole, err := array.Concatenate(parts, mem)
		if err != nil {
			return nil, err
		}
		cols[i] = array.NewSlice(whole, 0, int64(rows))
		whole.Release()
	}
	out := array.NewRecordBatch(rec.Schema(), cols, int64(rows))
	for _, c := range cols {
		c.Release()
	}
	return out, nil
}

// Embedded times the original through its runner (a JVM or CPython
// process, rows already in memory) against the rewrite on udfx's embedded
// engine. It measures evaluation only, not a Spark job: Spark measures
// the job (package spark).
func Embedded(ctx context.Context, opts Options) (*Result, error) {
	u := opts.UDF
	mem := memory.NewGoAllocator()
	rec, cols, err := Inputs(u, opts.Rows, opts.Seed, opts.Samples, mem)
	if err != nil {
		return nil, err
	}
	defer rec.Release()
	expr, err := engine.Compile(opts.SQL, cols, engine.Options{ANSI: opts.ANSI, TimeZone: "UTC"})
	if err != nil {
		return nil, &RewriteError{Err: err}
	}
	rows := make([][]value.Value, rec.NumRows())
	for i := range rows {
		row := make([]value.Value, rec.NumCols())
		for j, c := range rec.Columns() {
			row[j] = value.FromArrow(c, i)
		}
		rows[i] = row
	}
	r, err := opts.NewRunner(ctx, u, opts.Limits)
	if err != nil {
		return nil, &OriginalError{Err: err}
	}
	defer r.Close()
	original := func(ctx context.Context) (time.Duration, error) {
		start := time.Now()
		res, err := r.Run(ctx, rows)
		d := time.Since(start)
		if err != nil {
			return 0, &OriginalError{Err: err}
		}
		if len(res) != len(rows) {
			return 0, &OriginalError{Err: fmt.Errorf("the runner returned %d results for %d rows", len(res), len(rows))}
		}
		return d, nil
	}
	rewrite := func(context.Context) (time.Duration, error) {
		start := time.Now()
		res, err := expr.Eval(rec, mem)
		d := time.Since(start)
		if err != nil {
			return 0, fmt.Errorf("evaluate the rewrite: %w", err)
		}
		res.Values.Release()
		// A row the engine refused was not computed: timing it would
		// flatter the rewrite (a column past engine.MaxColumnBytes).
		for _, re := range res.Errors {
			if re.Condition == engine.CondUnsupported {
				return 0, fmt.Errorf("evaluate the rewrite: the embedded engine refused row %d (%s); time it with --engine spark", re.Row, re.Message)
			}
		}
		return d, nil
	}
	origS, rewS, err := Alternate(ctx, opts.Warmup, opts.Runs, original, rewrite, opts.Progress)
	if err != nil {
		return nil, err
	}
	res := &Result{
		UDF: u.Name, File: u.File, SQL: opts.SQL, Rows: int(rec.NumRows()), Samples: opts.Samples, Warmup: opts.Warmup,
		Engine: "embedded", Original: r.Describe(), Rewrite: fmt.Sprintf("udfx embedded engine (ANSI %v)", opts.ANSI),
		Machine: Machine(), OriginalS: origS, RewriteS: rewS,
	}
	res.Summarize()
	return res, nil
}

// RewriteError is a rewrite the embedded engine cannot compile.
type RewriteError struct{ Err error }

func (e *RewriteError) Error() string { return "compile the rewrite: " + e.Err.Error() }
func (e *RewriteError) Unwrap() error { return e.Err }

// OriginalError says the original could not be run.
type OriginalError struct{ Err error }

func (e *OriginalError) Error() string { return "cannot run the original: " + e.Err.Error() }
func (e *OriginalError) Unwrap() error { return e.Err }
