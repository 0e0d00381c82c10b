package spark

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/udfx/udfx/harness/engine"
	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/value"
	"github.com/udfx/udfx/internal/notebook"
)

// Job is one evaluation of an original UDF and its rewrite on the same
// input in the same session.
type Job struct {
	// UDF is the original; nil evaluates the rewrite only.
	UDF *udf.UDF
	// Rewrite is a Spark SQL expression over the input's columns; empty
	// evaluates the original only. The driver refuses it before any job
	// unless Spark's parse and analysis of it hold only functions of
	// engine.AllowedFunctions over the input columns (no subquery, UDF,
	// reflection, input file, clock or chance): classic sessions check
	// the parsed and analyzed trees, Connect the server's analyzed plan.
	Rewrite string
	// Input has one column per UDF parameter, named like it (more columns
	// are allowed: the rewrite may use them).
	Input arrow.RecordBatch
	// ANSI overrides the session's spark.sql.ansi.enabled for this job.
	ANSI *bool

	// sqlName registers a JVM original under this name instead of udfx's
	// own (tests: a UDF under a built-in's name).
	sqlName string
}

// Result is what a job gave for each side it ran.
type Result struct {
	Rows     int
	Original *SideResult // nil when the job had no UDF
	Rewrite  *SideResult // nil when the job had no rewrite
}

// SideResult is one side of a job.
type SideResult struct {
	// Values has one value per input row, in input order; nil when the
	// job failed.
	Values []value.Value
	// Type is the Arrow type of the result column as Spark returned it
	// (nil when the job failed): a rewrite must return the original's
	// type, which rows alone cannot show (int and bigint values compare
	// equal).
	Type arrow.DataType
	// Err is the failed job: Spark stops at the first failing row and
	// does not say which it was, so a failure is the side's, not a row's.
	Err *JobError
	// Plan is the executed physical plan: the DataFrame's
	// queryExecution().executedPlan() after toArrow ran it (AQE's final
	// plan where AQE applies), as Spark's explain() prints its physical
	// part. For Connect, df.explain's simple text. Empty when the query
	// did not get past analysis.
	Plan string
	// UDFs are the executed plan's user-defined expressions and operators
	// found by class in the JVM's plan tree (ScalaUDF, PythonUDF,
	// HiveSimpleUDF, BatchEvalPythonExec, ...), whatever name they print
	// under; nil where the tree is not reachable (Spark Connect) and only
	// the plan text can be read.
	UDFs []UDFExpr
	// Seconds is the wall time of the side's query, from building the
	// DataFrame to having its rows in the driver.
	Seconds float64
	// Call says how the original was registered (JVM UDFs).
	Call string
	// NativeReport is Comet's account of the executed plan (sessions
	// with Config.Comet): its fallback report, the tree with a [COMET:
	// ...] reason on each operator that did not run natively and the
	// "Comet accelerated N out of M eligible operators" line, as
	// org.apache.comet.ExtendedExplainInfo prints it. package plan reads
	// it. Empty without Comet.
	NativeReport string
	// Function is the SQL name a JVM original is registered under
	// (RegisteredPrefix + a hash): Spark prints a ScalaUDF in a plan by
	// that name, "udfx_orig_....(celsius#1)", not as "ScalaUDF".
	Function string
}

// ResultColumn is the column both sides of a job and of a benchmark
// compute ("... AS result"): the alias by which a plan reader finds the
// operator that evaluates the UDF or the rewrite.
const ResultColumn = "result"

// RegisteredPrefix starts the SQL name of every JVM original udfx
// registers, so that a plan analyzer can tell its calls apart.
const RegisteredPrefix = "udfx_orig_"

// Err returns the first side's job failure, or nil.
func (r *Result) Err() error {
	for _, s := range []*SideResult{r.Original, r.Rewrite} {
		if s != nil && s.Err != nil {
			return s.Err
		}
	}
	return nil
}

// UDFExpr is a user-defined expression or operator in an executed plan.
type UDFExpr struct {
	// Class is its class's simple name: ScalaUDF, PythonUDF,
	// HiveGenericUDF, BatchEvalPythonExec, ArrowEvalPythonExec, ...
	Class string `json:"class"`
	// Name is the function's name as Spark prints it (empty for an
	// operator).
	Name string `json:"name"`
	// Operator is the plan node that holds it.
	Operator string `json:"operator"`
	// Text is the expression or operator as Spark prints it.
	Text string `json:"text"`
}

type sideWire struct {
	UDFs    []UDFExpr  `json:"udfs"`
	Plan    string     `json:"plan"`
	Native  string     `json:"native_report"`
	Seconds float64    `json:"seconds"`
	Rows    int        `json:"rows"`
	Out     string     `json:"out"`
	Error   *wireError `json:"error"`
}

// Run evaluates the job. A side whose Spark job failed has Err set; Run's
// own error is for what stops the job as a whole: the UDF's source does
// not compile or import (*runner.CompileError), it cannot be registered
// (*runner.NotCallableError), the environment (*EnvError), the session
// died (*SessionError), or ctx ended (the session is then unusable).
func (s *Session) Run(ctx context.Context, job Job) (*Result, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var reply struct {
		Original *sideWire `json:"original"`
		Rewrite  *sideWire `json:"rewrite"`
	}
	req, err := s.callJob(ctx, job, "run", &reply)
	if err != nil {
		return nil, err
	}
	rows := int(job.Input.NumRows())
	res := &Result{Rows: rows}
	if res.Original, err = s.side(Original, reply.Original, req.orig != nil, rows); err != nil {
		return nil, err
	}
	if res.Original != nil {
		res.Original.Call = req.call
		if f, ok := req.orig["sql_name"].(string); ok {
			res.Original.Function = f
		}
	}
	if res.Rewrite, err = s.side(Rewrite, reply.Rewrite, job.Rewrite != "", rows); err != nil {
		return nil, err
	}
	return res, nil
}

// callJob sends job to the driver's op and reads its reply into reply;
// the caller holds s.mu.
func (s *Session) callJob(ctx context.Context, job Job, op string, reply any) (*jobRequest, error) {
	req, err := s.jobRequest(ctx, job, op)
	if err != nil {
		return nil, err
	}
	raw, werr, err := s.call(ctx, req.wire, nil)
	if err != nil {
		return nil, err
	}
	if werr != nil {
		return nil, s.requestError(werr, job.UDF)
	}
	if err := json.Unmarshal(raw, reply); err != nil {
		return nil, &SessionError{Msg: fmt.Sprintf("bad %s reply: %v", op, err), Log: s.logPath}
	}
	return req, nil
}

// jobRequest is a job as the driver's op takes it: its input written
// where the driver reads it, the original compiled and described.
type jobRequest struct {
	wire map[string]any
	orig map[string]any
	call string
}

func (s *Session) jobRequest(ctx context.Context, job Job, op string) (*jobRequest, error) {
	if s.dead != nil {
		return nil, s.dead
	}
	if job.Input == nil {
		return nil, fmt.Errorf("spark: the job has no input")
	}
	if job.UDF == nil && job.Rewrite == "" {
		return nil, fmt.Errorf("spark: the job has neither a UDF nor a rewrite")
	}
	var params []string
	jr := &jobRequest{}
	if job.UDF != nil {
		var err error
		if params, err = paramColumns(job.UDF, job.Input.Schema()); err != nil {
			return nil, err
		}
		if jr.orig, jr.call, err = s.original(ctx, job.UDF); err != nil {
			return nil, err
		}
		if job.sqlName != "" && jr.orig["sql_name"] != nil {
			jr.orig["sql_name"] = job.sqlName
		}
	}
	s.jobs++
	dir := filepath.Join(s.ws, "job-"+strconv.Itoa(s.jobs))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("spark: %w", err)
	}
	rec, err := withRowNumbers(job.Input, memory.NewGoAllocator())
	if err != nil {
		return nil, fmt.Errorf("spark: %w", err)
	}
	defer rec.Release()
	input := filepath.Join(dir, "input.parquet")
	if err := WriteParquet(input, rec); err != nil {
		return nil, fmt.Errorf("spark: job input: %w", err)
	}
	jr.wire = map[string]any{
		"op": op, "input": input, "params": params,
		"out_original": filepath.Join(dir, "original.arrow"), "out_rewrite": filepath.Join(dir, "rewrite.arrow"),
	}
	if jr.orig != nil {
		jr.wire["original"] = jr.orig
	}
	if job.Rewrite != "" {
		jr.wire["rewrite"] = job.Rewrite
		jr.wire["allow"] = engine.AllowedFunctions()
	}
	if job.ANSI != nil {
		jr.wire["ansi"] = *job.ANSI
	}
	return jr, nil
}

func (s *Session) side(side Side, w *sideWire, asked bool, rows int) (*SideResult, error) {
	if !asked {
		return nil, nil
	}
	if w == nil {
		return nil, &SessionError{Msg: fmt.Sprintf("the driver sent no %s result", side), Log: s.logPath}
	}
	r := &SideResult{Plan: w.Plan, UDFs: w.UDFs, Seconds: w.Seconds, NativeReport: w.Native}
	if w.Error != nil {
		r.Err = w.Error.jobError(side, s.logPath)
		return r, nil
	}
	if w.Rows != rows {
		return nil, &SessionError{Msg: fmt.Sprintf("Spark returned %d rows for the %s, not %d", w.Rows, side, rows), Log: s.logPath}
	}
	vals, typ, err := readResults(w.Out, rows)
	if err != nil {
		return nil, fmt.Errorf("spark: %w", err)
	}
	os.Remove(w.Out)
	r.Values, r.Type = vals, typ
	return r, nil
}

// requestError turns a driver error outside a job into a typed error.
func (s *Session) requestError(w *wireError, u *udf.UDF) error {
	switch w.Kind {
	case "compile":
		return &runner.CompileError{File: w.File, Line: w.Line, Msg: w.Msg}
	case "notcallable":
		name := w.UDF
		if name == "" && u != nil {
			name = u.Name
		}
		return &runner.NotCallableError{UDF: name, Reason: w.Reason}
	case "env":
		return &EnvError{What: w.What, Msg: w.Msg}
	case "job":
		if w.Error != nil {
			return w.Error.jobError(Side(w.Side), s.logPath)
		}
	}
	msg := w.Msg
	if msg == "" {
		msg = w.Class + ": " + firstLine(w.Message)
	}
	return &SessionError{Msg: msg, Log: s.logPath}
}

// paramColumns checks that the input has a column per UDF parameter.
func paramColumns(u *udf.UDF, schema *arrow.Schema) ([]string, error) {
	names := make([]string, len(u.Params))
	for i, p := range u.Params {
		if len(schema.FieldIndices(p.Name)) == 0 {
			return nil, fmt.Errorf("spark: the input has no column %s for parameter %d of %s", p.Name, i+1, u.Name)
		}
		names[i] = p.Name
	}
	return names, nil
}

// original describes the UDF for the driver: a Python file and name, or a
// JVM UDF's jar and shim (compiled here, cached on disk).
func (s *Session) original(ctx context.Context, u *udf.UDF) (map[string]any, string, error) {
	switch u.Language {
	case udf.Python:
		if u.Kind == udf.KindRDDLambda {
			return nil, "", &runner.NotCallableError{UDF: u.Name, Reason: "an RDD lambda runs inside a Spark job and is not a UDF object udfx can import"}
		}
		file, err := filepath.Abs(u.Path())
		if err != nil {
			return nil, "", fmt.Errorf("spark: %w", err)
		}
		ret := ""
		if u.Return != nil {
			ret = u.Return.String()
		}
		o := map[string]any{"language": "python", "kind": string(u.Kind), "file": file, "name": u.Name, "return_type": ret}
		if args, ok := u.Factory.Callable(); ok {
			o["factory"] = map[string]any{"name": u.Factory.Name, "args": args}
		}
		if notebook.IsNotebook(file) {
			// The driver loads the code cells' Python from a file named by
			// its hash, with the notebook as the module's file.
			dir := filepath.Join(s.ws, "notebooks")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return nil, "", fmt.Errorf("spark: %w", err)
			}
			src, err := notebook.Materialize(dir, file)
			if err != nil {
				return nil, "", &runner.CompileError{File: u.File, Msg: err.Error()}
			}
			o["source"] = src
		}
		return o, "", nil
	case udf.Scala, udf.Java:
		abs, err := filepath.Abs(u.Path())
		if err != nil {
			return nil, "", fmt.Errorf("spark: %w", err)
		}
		st, err := os.Stat(abs)
		if err != nil {
			return nil, "", fmt.Errorf("spark: reading the UDF's source: %w", err)
		}
		key := strings.Join([]string{abs, st.ModTime().String(), u.Name, string(u.Kind)}, "\x00")
		if s.info.Connect && u.Language == udf.Scala {
			return nil, "", &runner.NotCallableError{UDF: u.Name, Reason: "a Scala UDF is registered by Scala code, whose TypeTags decide its encoders and null handling, through the driver's JVM (py4j), which a Spark Connect client does not have; use a local or cluster master"}
		}
		j := s.jvm[key]
		if j == nil {
			if j, err = prepareJVM(ctx, u, s.in, s.env, s.cfg.CacheDir); err != nil {
				return nil, "", err
			}
			s.jvm[key] = j
		}
		if j.Hive != "" {
			if s.info.Connect {
				return nil, "", &runner.NotCallableError{UDF: u.Name, Reason: "a Hive UDF is registered with CREATE TEMPORARY FUNCTION in a Hive-enabled session, and a Spark Connect client cannot enable Hive in the server's; use a local or cluster master"}
			}
			if err := s.withJars(ctx, j.jars(), true); err != nil {
				return nil, "", err
			}
			return map[string]any{"language": string(u.Language), "name": u.Name, "jar": j.Jar, "shim": j.Shim,
				"sql_name": j.sqlName(), "hive": j.Hive}, j.Call, nil
		}
		if s.info.Connect {
			// The jar goes to the server as an artifact of this session
			// and the shim, a UDFn calling the original, is registered
			// by its class name.
			if !j.UDFn {
				return nil, "", &runner.NotCallableError{UDF: u.Name, Reason: "over Spark Connect a Java UDF is registered by its UDFn class (registerJavaFunction); one held as a UserDefinedFunction has none; use a local or cluster master"}
			}
			call := fmt.Sprintf("spark.addArtifacts(%q); spark.udf.registerJavaFunction(name, %q, %q)", filepath.Base(j.Jar), j.Shim, u.Return.String())
			return map[string]any{"language": string(u.Language), "name": u.Name, "jar": j.Jar, "libs": j.Libs, "shim": j.Shim,
				"sql_name": j.sqlName(), "return_type": u.Return.String()}, call, nil
		}
		if err := s.withJars(ctx, j.jars(), false); err != nil {
			return nil, "", err
		}
		return map[string]any{"language": string(u.Language), "name": u.Name, "jar": j.Jar, "shim": j.Shim,
			"sql_name": j.sqlName()}, j.Call, nil
	}
	return nil, "", &runner.NotCallableError{UDF: u.Name, Reason: fmt.Sprintf("udfx's Spark engine does not run %s UDFs", u.Language)}
}

// BenchJob times an original UDF against its rewrite on one Parquet file.
type BenchJob struct {
	UDF     *udf.UDF
	Rewrite string
	// Input is a Parquet file with a column per UDF parameter (see
	// WriteParquet).
	Input string
	// Warmup runs of each side come first and are reported apart; then
	// Runs of each side, alternating.
	Warmup, Runs int
	ANSI         *bool
	// Progress, when set, hears every run as it ends.
	Progress func(BenchRun)
}

// BenchRun is one timed run.
type BenchRun struct {
	Side    Side
	Warmup  bool
	Index   int
	Seconds float64
}

// BenchResult holds every run's wall time in seconds, in the order they
// ran, per side.
type BenchResult struct {
	Original, Rewrite             []float64
	WarmupOriginal, WarmupRewrite []float64
	// Plans are the executed physical plans of the first run of each side.
	OriginalPlan, RewritePlan string
	// NativeReports are Comet's reports on those plans (see
	// SideResult.NativeReport); empty without Comet.
	OriginalNativeReport, RewriteNativeReport string
	Call                                      string
}

// benchEvents passes the driver's progress events of timed runs to
// progress, which may be nil.
func benchEvents(progress func(BenchRun)) func([]byte) {
	return func(line []byte) {
		if progress == nil {
			return
		}
		var ev struct {
			Side    string  `json:"side"`
			Phase   string  `json:"phase"`
			Run     int     `json:"run"`
			Seconds float64 `json:"seconds"`
		}
		if json.Unmarshal(line, &ev) == nil {
			progress(BenchRun{Side: Side(ev.Side), Warmup: ev.Phase == "warmup", Index: ev.Run, Seconds: ev.Seconds})
		}
	}
}

// Bench times the original job and the rewritten job end to end: read the
// Parquet file, evaluate, write to Spark's noop sink (every row computed,
// nothing stored). Measured runs alternate between the sides, and each
// pair swaps which side goes first (original, rewrite, rewrite, original,
// ...), so drift in the machine's speed weighs on both. A run that fails
// ends the benchmark with its *JobError.
func (s *Session) Bench(ctx context.Context, job BenchJob) (*BenchResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dead != nil {
		return nil, s.dead
	}
	if job.UDF == nil || job.Rewrite == "" {
		return nil, fmt.Errorf("spark: a benchmark needs the UDF and its rewrite")
	}
	if job.Runs <= 0 {
		job.Runs = 1
	}
	if job.Warmup < 0 {
		job.Warmup = 0
	}
	input, err := filepath.Abs(job.Input)
	if err != nil {
		return nil, fmt.Errorf("spark: %w", err)
	}
	if _, err := os.Stat(input); err != nil {
		return nil, fmt.Errorf("spark: benchmark input: %w", err)
	}
	orig, call, err := s.original(ctx, job.UDF)
	if err != nil {
		return nil, err
	}
	params := make([]string, len(job.UDF.Params))
	for i, p := range job.UDF.Params {
		params[i] = p.Name
	}
	req := map[string]any{"op": "bench", "input": input, "params": params, "original": orig,
		"rewrite": job.Rewrite, "allow": engine.AllowedFunctions(), "warmup": job.Warmup, "runs": job.Runs}
	if job.ANSI != nil {
		req["ansi"] = *job.ANSI
	}
	raw, werr, err := s.call(ctx, req, benchEvents(job.Progress))
	if err != nil {
		return nil, err
	}
	if werr != nil {
		return nil, s.requestError(werr, job.UDF)
	}
	var reply struct {
		Warmup        struct{ Original, Rewrite []float64 }
		Runs          struct{ Original, Rewrite []float64 }
		Plans         struct{ Original, Rewrite string }
		NativeReports struct{ Original, Rewrite string } `json:"native_reports"`
	}
	if err := json.Unmarshal(raw, &reply); err != nil {
		return nil, &SessionError{Msg: fmt.Sprintf("bad bench reply: %v", err), Log: s.logPath}
	}
	return &BenchResult{
		Original: reply.Runs.Original, Rewrite: reply.Runs.Rewrite,
		WarmupOriginal: reply.Warmup.Original, WarmupRewrite: reply.Warmup.Rewrite,
		OriginalPlan: reply.Plans.Original, RewritePlan: reply.Plans.Rewrite, Call: call,
		OriginalNativeReport: reply.NativeReports.Original, RewriteNativeReport: reply.NativeReports.Rewrite,
	}, nil
}
