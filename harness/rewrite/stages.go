package rewrite

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/udfx/udfx/harness/bench"
	"github.com/udfx/udfx/harness/difftest"
	"github.com/udfx/udfx/harness/engine"
	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/inputs"
	"github.com/udfx/udfx/harness/spark"
	"github.com/udfx/udfx/harness/value"
	"github.com/udfx/udfx/internal/typeinfer"
)

// evalInputs is the inputs as the engine reads them.
type evalInputs struct {
	rec  arrow.RecordBatch
	cols []engine.Column
}

// scaffold is stage 1: the spec, the inputs, and the original run twice
// on them; the baseline is saved only when both runs agree row for row.
func scaffold(ctx context.Context, opts Options) (*scaffolded, error) {
	u := opts.UDF
	if u.Root != opts.RepoRoot {
		return nil, fmt.Errorf("scaffold: %s is relative to %q, not to the repository %q", u.File, u.Root, opts.RepoRoot)
	}
	if err := typeinfer.Missing(u); err != nil {
		return nil, &OriginalError{Err: err}
	}
	spec, err := json.MarshalIndent(u, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("scaffold: spec: %w", err)
	}
	spec = append(spec, '\n')
	if err := evidence.WriteFileAtomic(filepath.Join(opts.Workspace, "spec.json"), spec, 0o644); err != nil {
		return nil, fmt.Errorf("scaffold: spec: %w", err)
	}
	sc := &scaffolded{specJSON: spec, mem: memory.NewGoAllocator(), ansi: opts.ansi()}
	cols := make([]engine.Column, len(u.Params))
	for i, p := range u.Params {
		sc.params = append(sc.params, inputs.Param{Name: p.Name, Type: p.Type})
		cols[i] = engine.Column{Name: p.Name, Type: p.Type}
	}
	say := func(s string) {
		if opts.Progress != nil {
			opts.Progress("scaffold: " + s)
		}
	}
	say(fmt.Sprintf("generating %d inputs (special values first)", opts.Rows))
	rec, _, err := inputs.Generate(sc.params, inputs.Options{Seed: opts.Seed, Rows: opts.Rows}, sc.mem)
	if err != nil {
		return nil, fmt.Errorf("scaffold: generate inputs: %w", err)
	}
	sc.rec = rec
	sc.eval = &evalInputs{rec: rec, cols: cols}
	path := filepath.Join(opts.Workspace, "inputs.arrow")
	if err := inputs.WriteIPC(path, rec); err != nil {
		sc.close()
		return nil, fmt.Errorf("scaffold: %w", err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		sc.close()
		return nil, fmt.Errorf("scaffold: %w", err)
	}
	sc.inputsHash = evidence.SHA256(b)
	sc.rows = make([][]value.Value, rec.NumRows())
	for i := range sc.rows {
		row := make([]value.Value, rec.NumCols())
		for j, c := range rec.Columns() {
			row[j] = value.FromArrow(c, i)
		}
		sc.rows[i] = row
	}

	sc.u = u
	say(difftest.StartingStep(u))
	r, err := opts.NewRunner(ctx, u, opts.Limits)
	if err != nil {
		sc.close()
		return nil, &OriginalError{Err: err}
	}
	sc.run, sc.limits = r, opts.Limits
	sc.runtime = r.Describe()
	say(fmt.Sprintf("running the original twice on %d rows (is it deterministic?)", len(sc.rows)))
	first, err := r.Run(ctx, sc.rows)
	if err != nil {
		sc.close()
		return nil, &OriginalError{Err: err}
	}
	second, err := r.Run(ctx, sc.rows)
	if err != nil {
		sc.close()
		return nil, &OriginalError{Err: err}
	}
	if len(first) != len(sc.rows) || len(second) != len(sc.rows) {
		sc.close()
		return nil, &OriginalError{Err: fmt.Errorf("the runner returned %d and %d results for %d rows", len(first), len(second), len(sc.rows))}
	}
	var nd *NondeterministicError
	for i := range first {
		a, b := value.Token(first[i]), value.Token(second[i])
		if a == b {
			continue
		}
		if nd == nil {
			nd = &NondeterministicError{UDF: u.Name, Row: i, Inputs: describeRow(sc.params, sc.rows[i]), First: first[i].String(), Second: second[i].String()}
		}
		nd.DifferingResults++
	}
	if nd != nil {
		sc.close()
		return nil, nd
	}
	sc.baseline = first
	var tok strings.Builder
	for _, v := range first {
		tok.WriteString(value.Token(v))
		tok.WriteByte('\n')
	}
	if err := evidence.WriteFileAtomic(filepath.Join(opts.Workspace, "baseline.tokens"), []byte(tok.String()), 0o644); err != nil {
		sc.close()
		return nil, fmt.Errorf("scaffold: baseline: %w", err)
	}
	return sc, nil
}

func describeRow(params []inputs.Param, row []value.Value) string {
	parts := make([]string, len(params))
	for i, p := range params {
		parts[i] = p.Name + " = " + row[i].String()
	}
	return strings.Join(parts, ", ")
}

// checkScaffold re-reads stage 1's files and checks them against what
// the stage computed before convert may start.
func checkScaffold(ws string, sc *scaffolded) error {
	fail := func(msg string) error { return &EvidenceError{Stage: "convert", Msg: msg} }
	spec, err := os.ReadFile(filepath.Join(ws, "spec.json"))
	if err != nil || evidence.SHA256(spec) != evidence.SHA256(sc.specJSON) {
		return fail("spec.json is missing or changed")
	}
	in, err := os.ReadFile(filepath.Join(ws, "inputs.arrow"))
	if err != nil || evidence.SHA256(in) != sc.inputsHash {
		return fail("inputs.arrow is missing or changed")
	}
	base, err := os.ReadFile(filepath.Join(ws, "baseline.tokens"))
	if err != nil {
		return fail("no baseline: " + err.Error())
	}
	if n := strings.Count(string(base), "\n"); n != len(sc.rows) || len(sc.baseline) != len(sc.rows) {
		return fail(fmt.Sprintf("the baseline has %d results for %d input rows", n, len(sc.rows)))
	}
	return nil
}

// Bench is one benchmark: the original through its runner and the
// rewrite on the embedded engine, alternating on the same inputs.
type Bench struct {
	Rows            int       `json:"rows"`
	Runs            int       `json:"runs"`
	OriginalS       []float64 `json:"original_s"`
	RewriteS        []float64 `json:"rewrite_s"`
	OriginalMedianS float64   `json:"original_median_s"`
	RewriteMedianS  float64   `json:"rewrite_median_s"`
	OriginalSpreadS float64   `json:"original_spread_s"` // max - min
	RewriteSpreadS  float64   `json:"rewrite_spread_s"`
	Speedup         float64   `json:"speedup"`
	Original        string    `json:"original"`
	Engine          string    `json:"engine"`
	Machine         string    `json:"machine"`
}

func (b *Bench) summarize() {
	b.OriginalMedianS, b.OriginalSpreadS = bench.MedianSpread(b.OriginalS)
	b.RewriteMedianS, b.RewriteSpreadS = bench.MedianSpread(b.RewriteS)
	if b.RewriteMedianS > 0 {
		b.Speedup = b.OriginalMedianS / b.RewriteMedianS
	}
}

// result is the benchmark as package bench draws it.
func (b *Bench) result(udfName string) *bench.Result {
	r := &bench.Result{UDF: udfName, Rows: b.Rows, Warmup: 1, Engine: b.Engine, Original: b.Original, Rewrite: b.Engine,
		Machine: b.Machine, OriginalS: b.OriginalS, RewriteS: b.RewriteS}
	r.Summarize()
	return r
}

// Faster is whether the rewrite's median run took less time than the
// original's, both measured in the same run.
func (b *Bench) Faster() bool {
	return b.RewriteMedianS < b.OriginalMedianS
}

func (b *Bench) record(target string) evidence.Benchmark {
	return evidence.Benchmark{
		Target: target, Rows: b.Rows, Runs: b.Runs,
		OriginalMedianS: b.OriginalMedianS, RewriteMedianS: b.RewriteMedianS, Speedup: b.Speedup, Faster: b.Faster(),
		Where: b.Engine + " vs " + b.Original + "; " + b.Machine,
	}
}

// benchmark is stage 3: one warm-up of each side, then runs timed runs
// of each, alternating so that drift in the machine hits both alike.
func benchmark(ctx context.Context, sc *scaffolded, c Candidate, runs int) (*Bench, error) {
	if sc.spark != nil {
		return benchmarkOnSpark(ctx, sc, c, runs)
	}
	rewrite, err := embeddedSide(sc, c)
	if err != nil {
		return nil, err
	}
	original := func(ctx context.Context) (time.Duration, error) {
		start := time.Now()
		res, err := sc.run.Run(ctx, sc.rows)
		d := time.Since(start)
		if err != nil {
			return 0, &OriginalError{Err: err}
		}
		if len(res) != len(sc.rows) {
			return 0, &OriginalError{Err: errors.New("the runner returned a result per row no more")}
		}
		return d, nil
	}
	origS, rewS, err := bench.Alternate(ctx, 1, runs, original, rewrite, nil)
	if err != nil {
		var oe *OriginalError
		if errors.As(err, &oe) {
			return nil, oe
		}
		return nil, err
	}
	b := &Bench{
		Rows: len(sc.rows), Runs: runs, Original: sc.runtime, Engine: "udfx embedded engine (ANSI)",
		Machine: bench.Machine(), OriginalS: origS, RewriteS: rewS,
	}
	b.summarize()
	return b, nil
}

// embeddedSide is one timed evaluation of c's SQL over the scaffold's
// inputs on the embedded engine.
func embeddedSide(sc *scaffolded, c Candidate) (bench.Side, error) {
	expr, err := engine.Compile(c.SQL, sc.eval.cols, engine.Options{ANSI: true, TimeZone: "UTC"})
	if err != nil {
		return nil, fmt.Errorf("compile the candidate: %w", err)
	}
	return func(context.Context) (time.Duration, error) {
		start := time.Now()
		res, err := expr.Eval(sc.eval.rec, sc.mem)
		d := time.Since(start)
		if err != nil {
			return 0, fmt.Errorf("evaluate the candidate: %w", err)
		}
		res.Values.Release()
		return d, nil
	}, nil
}

// headToHead times two rewrites against each other on the embedded
// engine, alternating in one run, and returns their medians: which is
// faster is decided within one run, as every ratio udfx reports is.
func headToHead(ctx context.Context, sc *scaffolded, a, b Candidate, runs int) (aMedian, bMedian float64, err error) {
	sa, err := embeddedSide(sc, a)
	if err != nil {
		return 0, 0, err
	}
	sb, err := embeddedSide(sc, b)
	if err != nil {
		return 0, 0, err
	}
	as, bs, err := bench.Alternate(ctx, 1, runs, sa, sb, nil)
	if err != nil {
		return 0, 0, err
	}
	am, _ := bench.MedianSpread(as)
	bm, _ := bench.MedianSpread(bs)
	return am, bm, nil
}

// benchmarkOnSpark times the original's Spark job against the rewritten
// one on the scaffold's inputs: read Parquet, evaluate, write to the noop
// sink, alternating.
func benchmarkOnSpark(ctx context.Context, sc *scaffolded, c Candidate, runs int) (*Bench, error) {
	if sc.parquet == "" {
		path := filepath.Join(sc.workspace, "inputs.parquet")
		rec, ok := sc.rec.(arrow.RecordBatch)
		if !ok {
			return nil, errors.New("benchmark: the scaffold's inputs are not an Arrow record")
		}
		// A job stops at the original's first exception: time the rows
		// on which the baseline returned a value.
		var answered [][]value.Value
		for i, v := range sc.baseline {
			if v.Kind != value.Error {
				answered = append(answered, sc.rows[i])
			}
		}
		if len(answered) < len(sc.rows) {
			sub, err := difftest.BuildRecord(sc.params, answered, sc.mem)
			if err != nil {
				return nil, fmt.Errorf("benchmark: %w", err)
			}
			defer sub.Release()
			rec = sub
		}
		if err := spark.WriteParquet(path, rec); err != nil {
			return nil, fmt.Errorf("benchmark: %w", err)
		}
		sc.parquet, sc.parquetRows = path, int(rec.NumRows())
	}
	ansi := sc.ansi
	res, err := sc.spark.Bench(ctx, spark.BenchJob{UDF: sc.u, Rewrite: c.SQL, Input: sc.parquet, Warmup: 1, Runs: runs, ANSI: &ansi})
	if err != nil {
		return nil, fmt.Errorf("benchmark on Spark: %w", err)
	}
	info := sc.spark.Info()
	b := &Bench{
		Rows: sc.parquetRows, Runs: runs, OriginalS: res.Original, RewriteS: res.Rewrite,
		Original: fmt.Sprintf("Spark job with the original (%s)", res.Call),
		Engine:   fmt.Sprintf("Spark job with the SQL rewrite, %s (%s); each job reads Parquet and writes to the noop sink", info.Name(), info.Master),
		Machine:  bench.Machine(),
	}
	b.summarize()
	return b, nil
}
