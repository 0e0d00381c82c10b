package difftest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/udfx/udfx/harness/inputs"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/value"
	"github.com/udfx/udfx/internal/typeinfer"
)

// EngineCPython names the engine of a test whose rewrite is Python code
// (the vectorized-python target): it runs in CPython, as the original
// does, not on a SQL engine.
const EngineCPython = "cpython"

// RunPython tests a Python rewrite against u: rw is the rewrite as a UDF
// (its File the rewrite's module, its name, kind and types u's), and both
// run in real CPython through opts.NewRunner on the same generated inputs,
// which opts.Workspace keeps as Run keeps them, and, for arrays of
// floats, inputs.LongArrayRows after them. The comparison is opts'
// policy; a row where the original raises must raise in the rewrite too.
// There is no shrinking: the counterexample is the first differing row.
func RunPython(ctx context.Context, u, rw *udf.UDF, opts Options) (*Report, error) {
	progress := opts.Progress
	if progress == nil {
		progress = func(string) {}
	}
	if opts.Rows <= 0 {
		opts.Rows = 10_000
	}
	if u.Language != udf.Python || rw.Language != udf.Python {
		return nil, &UsageError{Err: fmt.Errorf("a Python rewrite is tested against a Python UDF; %s is %s", u.Name, u.Language)}
	}
	if err := typeinfer.Missing(u); err != nil {
		return nil, &UsageError{Err: err}
	}
	params, _, err := signature(u)
	if err != nil {
		return nil, &UsageError{Err: err}
	}
	mem := memory.NewGoAllocator()
	progress("generating inputs")
	rec, stats, err := inputs.Generate(params, inputs.Options{Seed: opts.Seed, Rows: opts.Rows}, mem)
	if err != nil {
		return nil, fmt.Errorf("generate inputs: %w", err)
	}
	defer rec.Release()
	if err := saveInputs(opts.Workspace, rec); err != nil {
		return nil, err
	}
	rows := recordRows(rec)
	long := inputs.LongArrayRows(params, opts.Seed)
	rows = append(rows, long...)
	var near [][]value.Value
	if opts.NearMisses {
		rwSource, _ := readHead(rw.File)
		near = nearMissRows(params, rows, stats, u.Path(), rwSource)
		rows = append(rows, near...)
	}
	rep := &Report{
		UDF: u.Name, Language: string(u.Language), File: u.File, RewriteFile: rw.File,
		Engine: EngineCPython, ANSI: opts.ANSI, Policy: opts.Policy, Seed: opts.Seed,
		Rows: len(rows), SpecialRows: stats.SpecialRows, NullRows: stats.NullRows, LongArrayRows: len(long), NearMissRows: len(near),
		OriginalExceptions: map[string]int{}, RewriteExceptions: map[string]int{},
	}

	progress(StartingStep(u))
	orig, origTime, describe, err := runPythonSide(ctx, u, rows, params, opts)
	if err != nil {
		return nil, &OriginalError{Err: err}
	}
	progress("running the rewrite in CPython")
	got, rwTime, _, err := runPythonSide(ctx, rw, rows, params, opts)
	if err != nil {
		return nil, fmt.Errorf("the rewrite %s: %w", rw.File, err)
	}
	for i := range orig {
		orig[i] = sparkStores(u.Language, u.Return, orig[i], opts.ANSI)
		got[i] = sparkStores(rw.Language, rw.Return, got[i], opts.ANSI)
	}
	rep.Runtime = describe
	rep.OriginalSeconds, rep.RewriteSeconds = origTime.Seconds(), rwTime.Seconds()
	firstBad := tally(rep, opts, orig, got)
	batch := 0
	if firstBad < 0 && opts.NewBatchRunner != nil {
		progress("running the rewrite in CPython again, in batches of many sizes")
		bad, n, v, err := runBatches(ctx, rw, rows, params, opts, orig)
		if err != nil {
			return nil, fmt.Errorf("the rewrite %s in batches: %w", rw.File, err)
		}
		if bad >= 0 {
			rep.Mismatches++
			firstBad, batch, got[bad] = bad, n, v
		}
	}
	rep.Equal = rep.Mismatches == 0
	if firstBad >= 0 {
		ce := &Counterexample{Original: JSONValue{orig[firstBad]}, Rewrite: JSONValue{got[firstBad]}, Row: firstBad, Batch: batch}
		for i, p := range params {
			ce.Inputs = append(ce.Inputs, NamedValue{Name: p.Name, Value: JSONValue{rows[firstBad][i]}})
		}
		rep.Counterexample = ce
	}
	return rep, nil
}

// batchSizes is the cycle of batch sizes the rewrite is called on again:
// Spark hands a pandas_udf batches of up to 10,000 rows
// (spark.sql.execution.arrow.maxRecordsPerBatch), the last one short, so
// a rewrite must give each row the same result whatever batch it is in;
// the per-row run calls it on batches of one only. 0 stands for a size
// drawn from the seed.
var batchSizes = []int{2, 7, 0, 1, fullBatch, 3, 0}

// fullBatch is the rows of a full batch in Spark.
const fullBatch = 10_000

// runBatches calls the rewrite on the rows where the original gave a
// value, in successive batches of the sizes batchSizes cycles through,
// and compares each row with orig. It returns the first row that differs
// (-1 if none), the size of its batch and the rewrite's result there.
func runBatches(ctx context.Context, rw *udf.UDF, rows [][]value.Value, params []inputs.Param, opts Options, orig []value.Value) (int, int, value.Value, error) {
	r, err := opts.NewBatchRunner(ctx, rw, opts.Limits)
	if err != nil {
		return -1, 0, value.Value{}, err
	}
	defer r.Close()
	if agg, ok := r.(interface{ IsScalarAggregate() bool }); ok && agg.IsScalarAggregate() {
		return -1, 0, value.Value{}, nil // one group, one result: no batches
	}
	// The rows the original gives a value on: Spark fails a batch in
	// which a row raises, whichever side, so those were compared alone.
	var clean []int
	for i := range orig {
		if orig[i].Kind != value.Error {
			clean = append(clean, i)
		}
	}
	rng := rand.New(rand.NewPCG(uint64(opts.Seed), 0x62617463686573))
	var batches [][]int
	for start, k := 0, 0; start < len(clean); k++ {
		n := batchSizes[k%len(batchSizes)]
		if n == 0 {
			n = 3 + rng.IntN(997)
		}
		batches = append(batches, clean[start:min(start+n, len(clean))])
		start += n
	}
	// Where fewer rows than a full batch give a value, none of the
	// batches above is as large as production's: a rewrite that behaves
	// one way in small batches and another in large ones would pass. One
	// more batch holds the rows over and over, up to a full batch.
	if len(clean) > 0 && len(clean) < fullBatch {
		full := make([]int, fullBatch)
		for j := range full {
			full[j] = clean[j%len(clean)]
		}
		batches = append(batches, full)
	}
	for _, idx := range batches {
		batch := make([][]value.Value, len(idx))
		for j, i := range idx {
			batch[j] = rows[i]
		}
		out, _, err := runRows(ctx, r, batch, params)
		if err != nil {
			return -1, 0, value.Value{}, err
		}
		for j, i := range idx {
			if g := sparkStores(rw.Language, rw.Return, out[j], opts.ANSI); verdict(opts, orig[i], g) == disagree {
				return i, len(idx), g, nil
			}
		}
	}
	return -1, 0, value.Value{}, nil
}

// runPythonSide runs one side on every row and says what ran it.
func runPythonSide(ctx context.Context, u *udf.UDF, rows [][]value.Value, params []inputs.Param, opts Options) ([]value.Value, time.Duration, string, error) {
	r, err := opts.NewRunner(ctx, u, opts.Limits)
	if err != nil {
		return nil, 0, "", err
	}
	defer r.Close()
	out, took, err := runRows(ctx, r, rows, params)
	if err != nil {
		return nil, 0, "", err
	}
	return out, took, r.Describe(), nil
}
