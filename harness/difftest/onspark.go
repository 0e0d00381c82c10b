package difftest

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/udfx/udfx/harness/engine"
	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/inputs"
	"github.com/udfx/udfx/harness/plan"
	"github.com/udfx/udfx/harness/pyenv"
	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/runner/jvm"
	"github.com/udfx/udfx/harness/spark"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/value"
	"github.com/udfx/udfx/internal/sandbox"
)

// runOnSpark is the test with real Spark as the authority: both sides run
// as queries of one session over the same rows, the original registered
// as its source registers it. What Spark returns is what a job stores, so
// the original's results need no sparkStores adjustment. The rewrite's
// executed plan must hold no UDF node, or the rewrite removed nothing.
func runOnSpark(ctx context.Context, u *udf.UDF, rw Rewrite, opts Options, params []inputs.Param, rec arrow.RecordBatch, rows [][]value.Value, rep *Report, mem memory.Allocator) (*Report, error) {
	st := &sparkTest{s: opts.Spark, u: u, rw: rw, opts: opts, params: params, ansi: opts.ANSI, mem: mem, progress: opts.Progress}
	if st.progress == nil {
		st.progress = func(string) {}
	}
	// The allow-list, before any job: Spark's own parse and analysis are
	// checked again by the driver (classic and Connect alike).
	if err := guard(rw.SQL, params); err != nil {
		return nil, &UsageError{Err: fmt.Errorf("rewrite %q: %w", rw.SQL, err)}
	}
	info := st.s.Info()
	rep.Engine, rep.EngineVersion, rep.Master = "spark", info.SparkVersion, info.Master
	if info.Comet != "" {
		rep.Engine, rep.CometVersion = "comet", info.Comet
	}
	st.progress(fmt.Sprintf("running both sides on %s (%s), %d rows", info.Name(), info.Master, len(rows)))
	res, err := st.job(ctx, rec)
	if err != nil {
		return nil, err
	}
	// at maps a row of those compared to its row of the generated inputs.
	at := func(i int) int { return i }
	var thrown *thrownRows
	if e := res.Original.Err; e != nil && (opts.LeaveOutThrowingRows || opts.ProveThrowingRows) {
		again, err := st.withoutThrowingRows(ctx, rows, e)
		if err != nil {
			return nil, err
		}
		defer again.rec.Release()
		if opts.ProveThrowingRows {
			if thrown, err = thrownBy(rows, again.kept, e); err != nil {
				return nil, err
			}
		} else {
			rep.LeftOutRows = len(rows) - len(again.kept)
		}
		res, rows = again.res, again.rows
		at = func(i int) int { return again.kept[i] }
	}
	rep.Runtime = sparkRuntime(u, info, res.Original.Call)
	if u.Language == udf.Python {
		rep.PythonUnicode = info.PythonUnicode
	} else if info.JavaVersion != "" {
		rep.JDK = strconv.Itoa(jvm.JavaMajor(info.JavaVersion))
	}
	rep.OriginalSeconds, rep.RewriteSeconds = res.Original.Seconds, res.Rewrite.Seconds
	plans, err := st.jobEvidence(info, res)
	if err != nil {
		return nil, err
	}
	rep.Plans = plans
	if err := originalShowsItsUDF(u, plans); err != nil {
		return nil, err
	}
	if e := res.Rewrite.Err; e == nil && !arrow.TypeEqual(res.Original.Type, res.Rewrite.Type) {
		return nil, &UsageError{Err: fmt.Errorf("rewrite %q returns %s where %s returns %s in Spark: values that compare equal would still change the column's type; cast it", rw.SQL, typeName(res.Rewrite.Type), u.Name, typeName(res.Original.Type))}
	}
	if e := res.Rewrite.Err; e != nil {
		return st.rewriteJobFailed(ctx, rep, res, e, rows, at)
	}
	// Last, the costly part: a rewrite refuted on the other rows needs no
	// job per thrown row.
	if thrown != nil {
		if err := thrown.run(ctx, st); err != nil {
			return nil, err
		}
		thrown.tallyInto(rep, st.params, opts)
	}
	return st.compare(ctx, rep, res, plans, rows, at)
}

// sparkTest is what every Spark job of one test needs.
type sparkTest struct {
	s        *spark.Session
	u        *udf.UDF
	rw       Rewrite
	opts     Options
	params   []inputs.Param
	ansi     bool
	mem      memory.Allocator
	progress func(string)
}

// job runs both sides on rec; an original that cannot be compiled or
// called is an *OriginalError.
func (st *sparkTest) job(ctx context.Context, rec arrow.RecordBatch) (*spark.Result, error) {
	ansi := st.ansi
	res, err := st.s.Run(ctx, spark.Job{UDF: st.u, Rewrite: st.rw.SQL, Input: rec, ANSI: &ansi})
	if err != nil {
		var ce *runner.CompileError
		var nc *runner.NotCallableError
		if errors.As(err, &ce) || errors.As(err, &nc) {
			return nil, &OriginalError{Err: err}
		}
		return nil, err
	}
	return res, nil
}

// sparkRerun is a second run of both sides on the rows kept.
type sparkRerun struct {
	res  *spark.Result
	rows [][]value.Value
	// kept are the indexes of rows among those of the first run.
	kept []int
	// rec holds rows; the caller releases it.
	rec arrow.RecordBatch
}

// withoutThrowingRows runs both sides again without the rows on which
// the original throws in udfx's runner, after its Spark job failed
// (failed); the job on the rest must not fail.
func (st *sparkTest) withoutThrowingRows(ctx context.Context, rows [][]value.Value, failed *spark.JobError) (*sparkRerun, error) {
	st.progress("finding the rows on which the original throws in udfx's runner")
	kept, err := answeredRows(ctx, st.u, st.opts, rows, failed)
	if err != nil {
		return nil, err
	}
	sub := make([][]value.Value, len(kept))
	for j, i := range kept {
		sub[j] = rows[i]
	}
	subRec, err := BuildRecord(st.params, sub, st.mem)
	if err != nil {
		return nil, err
	}
	st.progress(fmt.Sprintf("running both sides again without the %d rows the original throws on", len(rows)-len(kept)))
	res, err := st.job(ctx, subRec)
	if err != nil {
		subRec.Release()
		return nil, err
	}
	if e2 := res.Original.Err; e2 != nil {
		subRec.Release()
		return nil, &OriginalError{Err: fmt.Errorf("the original's Spark job fails (%w) even without the %d rows on which it throws in udfx's runner, which returned values on all the others: Spark and the runner disagree about the original", e2, len(rows)-len(kept))}
	}
	return &sparkRerun{res: res, rows: sub, kept: kept, rec: subRec}, nil
}

// sparkRuntime describes where both sides ran and how the original was
// called.
func sparkRuntime(u *udf.UDF, info spark.Info, call string) string {
	if call == "" {
		call = fmt.Sprintf("%s imported from %s and called as its decorator declares", u.Name, u.File)
	}
	where := fmt.Sprintf("%s (%s)", info.Name(), info.Master)
	if info.Connect {
		where += " through Spark Connect"
	} else {
		where += ", Java " + info.JavaVersion
	}
	return fmt.Sprintf("%s, Python %s; %s; %s", where, info.PythonVersion, call, sandbox.OnSpark)
}

// jobEvidence refuses an original whose job failed and a rewrite Spark
// rejected, and reads both executed plans: their UDF nodes and, on
// Comet, what ran natively.
func (st *sparkTest) jobEvidence(info spark.Info, res *spark.Result) (*evidence.Plans, error) {
	if e := res.Original.Err; e != nil {
		return nil, &OriginalError{Err: fmt.Errorf("the original's Spark job failed: %w. Spark stops a job at its first exception without saying on which row, so --engine spark can only test originals that do not throw on the generated inputs; --engine embedded compares exceptions row by row (for Spark %s, whose SQL it follows)", e, pyenv.DefaultSpark())}
	}
	if e := res.Rewrite.Err; e != nil && !isPlan(res.Rewrite.Plan) {
		// Spark rejected the expression before running it.
		return nil, &UsageError{Err: fmt.Errorf("rewrite %q: Spark rejects it: %w", st.rw.SQL, e)}
	}
	plans, err := planEvidence(res.Original.Plan, res.Rewrite.Plan)
	if err != nil {
		return nil, err
	}
	plans, err = withUDFsByClass(plans, res.Original.UDFs, res.Rewrite.UDFs)
	if err != nil {
		return nil, err
	}
	if info.Comet != "" && res.Rewrite.Err == nil {
		if err := nativeEvidence(plans, res); err != nil {
			return nil, err
		}
	}
	return plans, nil
}

// rewriteJobFailed reports the rewrite's Spark job failing (e) where the
// original returned values: a runtime error (ANSI overflow, a bad cast).
// The counterexample is the row it fails on, found by halves on Spark
// itself.
func (st *sparkTest) rewriteJobFailed(ctx context.Context, rep *Report, res *spark.Result, e *spark.JobError, rows [][]value.Value, at func(int) int) (*Report, error) {
	st.progress("locating the row the rewrite's Spark job fails on")
	row, rowErr, err := failingRow(ctx, st.s, st.rw, st.params, rows, st.ansi, st.mem)
	if err != nil {
		return nil, err
	}
	rep.Mismatches = 1
	name := e.Condition
	if name == "" {
		name = e.Class
	}
	rep.RewriteExceptions[name]++
	rep.Refuted = fmt.Sprintf("the rewrite's Spark job failed (%s) where the original returned values; Spark stops at the first failing row, so further failing rows are not counted", e.Error())
	if row >= 0 {
		rep.Counterexample = &Counterexample{Original: JSONValue{res.Original.Values[row]}, Rewrite: JSONValue{rowErr}, Row: at(row)}
		for i, p := range st.params {
			rep.Counterexample.Inputs = append(rep.Counterexample.Inputs, NamedValue{Name: p.Name, Value: JSONValue{rows[row][i]}})
		}
	}
	return rep, nil
}

// compare tallies the values both jobs returned, refutes a rewrite whose
// plan still holds a UDF node, and shrinks the first mismatch on Spark.
func (st *sparkTest) compare(ctx context.Context, rep *Report, res *spark.Result, plans *evidence.Plans, rows [][]value.Value, at func(int) int) (*Report, error) {
	got := res.Rewrite.Values
	firstBad := tally(rep, st.opts, res.Original.Values, got)
	rep.Equal = rep.Mismatches == 0
	if len(plans.Rewrite.UDFNodes) > 0 {
		rep.Equal = false
		rep.Refuted = "the rewritten query's physical plan still holds a UDF node: " + strings.Join(plans.Rewrite.UDFNodes, "; ")
	}
	if firstBad >= 0 {
		// A mismatch among the rows compared one by one is already the
		// counterexample; one here replaces it, shrunk.
		st.progress("shrinking the counterexample on Spark")
		ce, err := shrink(ctx, sparkEvaluator(st.s, st.u, st.rw, st.params, st.ansi, st.mem), st.params, rows[firstBad], res.Original.Values[firstBad], got[firstBad], st.opts)
		if err != nil {
			return nil, err
		}
		ce.Row = at(firstBad)
		rep.Counterexample = ce
	}
	return rep, nil
}

// answeredRows runs the original in udfx's runner on rows and returns
// those on which it returns a value, as Spark would store it. Spark's
// failure (failed) must be an exception the runner threw on some row, or
// the two disagree about the original and leaving rows out would hide it.
func answeredRows(ctx context.Context, u *udf.UDF, opts Options, rows [][]value.Value, failed *spark.JobError) ([]int, error) {
	if opts.NewRunner == nil {
		return nil, fmt.Errorf("difftest: LeaveOutThrowingRows runs the original in udfx's runner, and Options has no NewRunner")
	}
	r, err := opts.NewRunner(ctx, u, opts.Limits)
	if err != nil {
		return nil, &OriginalError{Err: err}
	}
	defer r.Close()
	vals, err := r.Run(ctx, rows)
	if err != nil {
		return nil, &OriginalError{Err: err}
	}
	if len(vals) != len(rows) {
		return nil, &OriginalError{Err: fmt.Errorf("the runner returned %d results for %d rows", len(vals), len(rows))}
	}
	var kept []int
	threw := map[string]int{}
	for i, v := range vals {
		if v = sparkStores(u.Language, u.Return, v, opts.ANSI); v.Kind == value.Error {
			threw[v.Class]++
			continue
		}
		kept = append(kept, i)
	}
	if threw[failed.Class] == 0 {
		return nil, &OriginalError{Err: fmt.Errorf("the original's Spark job failed (%w), but in udfx's runner (%s) it threw that on no row (it threw on %s): Spark and the runner disagree about the original", failed, r.Describe(), countText(threw))}
	}
	return kept, nil
}

// guard checks a candidate against engine.Guard's allow-list: one
// scalar expression over the parameters, only deterministic built-in
// functions from an explicit list, no subquery, no other relation or
// column, no reflection, UDF, input file, clock or chance. Text tricks
// (comments, backquotes, strings) do not hide a call: the check reads
// the parsed expression, not the text.
func guard(sql string, params []inputs.Param) error {
	names := make([]string, len(params))
	for i, p := range params {
		names[i] = p.Name
	}
	return engine.Guard(sql, names)
}

func isPlan(text string) bool {
	_, err := plan.Parse(text, plan.EngineSpark)
	return text != "" && err == nil
}

func typeName(t arrow.DataType) string {
	if t == nil {
		return "no type"
	}
	return t.String()
}

// originalShowsItsUDF: the check that the rewrite's plan holds no UDF node
// proves something only if udfx can see the UDF in the original's plan.
func originalShowsItsUDF(u *udf.UDF, plans *evidence.Plans) error {
	if len(plans.Original.UDFNodes) > 0 {
		return nil
	}
	return fmt.Errorf("cannot find %s in Spark's plan of the original query, so the check that the rewrite removed it would prove nothing; the plan was:\n%s", u.Name, plans.Original.Text)
}

// planEvidence reads both executed plans with package plan.
func planEvidence(original, rewrite string) (*evidence.Plans, error) {
	ps := &evidence.Plans{Original: evidence.Plan{Text: original}, Rewrite: evidence.Plan{Text: rewrite}}
	for _, p := range []*evidence.Plan{&ps.Original, &ps.Rewrite} {
		parsed, err := plan.Parse(p.Text, plan.EngineSpark)
		if err != nil {
			return nil, fmt.Errorf("read Spark's plan: %w", err)
		}
		r := plan.Analyze(parsed)
		p.UDFNodes = []string{}
		for _, n := range r.UDFs {
			p.UDFNodes = append(p.UDFNodes, n.Operator+" "+n.Call)
		}
		p.Transitions = r.TotalTransitions
	}
	return ps, nil
}

// nativeEvidence reads Comet's account of both executed queries: what
// ran natively, and whether the projection computing the result did.
func nativeEvidence(plans *evidence.Plans, res *spark.Result) error {
	for _, side := range []struct {
		p   *evidence.Plan
		res *spark.SideResult
	}{{&plans.Original, res.Original}, {&plans.Rewrite, res.Rewrite}} {
		c, err := plan.CometCoverage(side.res.Plan, side.res.NativeReport, spark.ResultColumn)
		if err != nil {
			return fmt.Errorf("native coverage: %w", err)
		}
		side.p.Native = c
	}
	return nil
}

// withUDFsByClass adds the user-defined expressions the driver found by
// class in the executed plans' JVM trees to what the text showed. The
// text names a ScalaUDF only by the name it was registered under, so a
// UDF registered as upper or abs reads like the built-in; the tree does
// not (nil lists: Spark Connect, where only the text is there).
func withUDFsByClass(plans *evidence.Plans, original, rewrite []spark.UDFExpr) (*evidence.Plans, error) {
	for _, side := range []struct {
		p    *evidence.Plan
		udfs []spark.UDFExpr
	}{{&plans.Original, original}, {&plans.Rewrite, rewrite}} {
		for _, u := range side.udfs {
			node := u.Class + " " + u.Text
			if u.Name != "" && u.Class != u.Operator {
				node = u.Operator + " " + u.Class + " " + u.Text
			}
			if !holdsNode(side.p.UDFNodes, u) {
				side.p.UDFNodes = append(side.p.UDFNodes, node)
			}
		}
	}
	return plans, nil
}

// holdsNode says whether the text parser already reported u (a Python
// operator by its name, a ScalaUDF by its call), so it is not listed
// twice.
func holdsNode(nodes []string, u spark.UDFExpr) bool {
	for _, n := range nodes {
		if u.Name == "" && strings.HasPrefix(strings.TrimSuffix(u.Class, "Exec"), strings.Fields(n)[0]) {
			return true
		}
		if u.Name != "" && strings.Contains(n, " "+u.Name+"(") {
			return true
		}
	}
	return false
}

// sparkEvaluator runs candidate rows through both sides on Spark, for
// shrinking.
func sparkEvaluator(s *spark.Session, u *udf.UDF, rw Rewrite, params []inputs.Param, ansi bool, mem memory.Allocator) evaluator {
	return func(ctx context.Context, rows [][]value.Value) ([]value.Value, []value.Value, error) {
		rec, err := BuildRecord(params, rows, mem)
		if err != nil {
			return nil, nil, err
		}
		defer rec.Release()
		res, err := s.Run(ctx, spark.Job{UDF: u, Rewrite: rw.SQL, Input: rec, ANSI: &ansi})
		if err != nil {
			return nil, nil, err
		}
		if err := res.Err(); err != nil {
			return nil, nil, err
		}
		return res.Original.Values, res.Rewrite.Values, nil
	}
}

// failingRow finds a row on which the rewrite's Spark job fails, halving
// the rows and keeping a half that still fails; -1 when the failure does
// not reproduce on any single row.
func failingRow(ctx context.Context, s *spark.Session, rw Rewrite, params []inputs.Param, rows [][]value.Value, ansi bool, mem memory.Allocator) (int, value.Value, error) {
	fails := func(lo, hi int) (*spark.JobError, error) {
		rec, err := BuildRecord(params, rows[lo:hi], mem)
		if err != nil {
			return nil, err
		}
		defer rec.Release()
		res, err := s.Run(ctx, spark.Job{Rewrite: rw.SQL, Input: rec, ANSI: &ansi})
		if err != nil {
			return nil, err
		}
		return res.Rewrite.Err, nil
	}
	lo, hi := 0, len(rows)
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		e, err := fails(lo, mid)
		if err != nil {
			return -1, value.Value{}, err
		}
		if e != nil {
			hi = mid
			continue
		}
		lo = mid
	}
	e, err := fails(lo, hi)
	if err != nil || e == nil {
		return -1, value.Value{}, err
	}
	v := value.ErrorOf(e.Class, e.Message)
	v.Condition = e.Condition
	return lo, v, nil
}
