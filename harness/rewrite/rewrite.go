package rewrite

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/udfx/udfx/harness/difftest"
	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/inputs"
	"github.com/udfx/udfx/harness/pertype"
	"github.com/udfx/udfx/harness/plan"
	"github.com/udfx/udfx/harness/pyenv"
	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/spark"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/udf/frontends"
	"github.com/udfx/udfx/harness/value"
	"github.com/udfx/udfx/internal/notebook"
	"github.com/udfx/udfx/internal/patch"
	"github.com/udfx/udfx/internal/typeinfer"
)

// Options configure one rewrite.
type Options struct {
	// UDF is the UDF as the front-end found it; its File is relative to
	// RepoRoot (slash-separated), Source that file's content.
	UDF    *udf.UDF
	Source []byte
	// RepoRoot is the repository the patch is relative to.
	RepoRoot string
	// Workspace is this UDF's folder (.udfx/<udf>).
	Workspace string
	// Targets are sql, columnar and cuda (CheckTargets); sql is always
	// added, since the other targets are only offered beside a verified
	// sql rewrite of the same IR.
	Targets []string
	Agent   Agent
	Seed    int64
	Rows    int
	Limits  runner.Limits
	// NewRunner starts the original's runner (runners.New in production).
	NewRunner func(ctx context.Context, u *udf.UDF, limits runner.Limits) (runner.Runner, error)
	// Spark, when set, is the engine of the differential test and the
	// benchmark: both sides run in this real Spark session.
	Spark *spark.Session
	// BenchRuns is the number of timed runs of each side (at least 5).
	BenchRuns int
	// BuildNative builds the CUDA rewrite's kernel and JNI bridge with
	// nvcc into the RapidsUDF jar, when nvcc and the cuDF headers are
	// found (gpu/toolkit); it takes minutes, so callers opt in.
	BuildNative bool
	// CacheDir holds what the RapidsUDF build compiles: the original's
	// classes (under jvm/, shared with the JVM runner) and the generated
	// classes (under rapidsudf/), by their inputs; default
	// os.UserCacheDir()/udfx.
	CacheDir string
	// Tolerance is the comparison the project's udfx.yaml declares for
	// the UDF, ToleranceFrom where ("udfx.yaml:LINE"): the fast
	// vectorized-python form is proved within it, and only it.
	Tolerance     *value.Policy
	ToleranceFrom string
	// SparkTarget is the Spark version the proof is for, recorded in the
	// evidence; nil records none. SparkDecline, when set, is why udfx
	// cannot prove for the Spark the repository declares: Run declines at
	// once with it, running nothing.
	SparkTarget  *evidence.SparkTarget
	SparkDecline string
	// OptimizeBudget is how many optimize attempts the agent gets.
	OptimizeBudget int
	// Tool is "udfx <version>" for the record.
	Tool     string
	Progress func(stage string)

	// perType are the tests of a type guard, one per assignment of types
	// to the parameters no source types (runPerType); they go into the
	// record.
	perType []evidence.TypedProof
	// pythonUnicode is Candidate.PythonUnicode of any branch of a type
	// guard (runPerType): the guard is exact only for that CPython.
	pythonUnicode string
}

// NondeterministicError stops the loop: the original gave different
// results on two runs over the same inputs, so no rewrite can be proved
// equal to it.
type NondeterministicError struct {
	UDF              string
	Row              int
	Inputs           string
	First, Second    string
	DifferingResults int
}

func (e *NondeterministicError) Error() string {
	return fmt.Sprintf("%s is not deterministic: two runs on the same inputs differ on %d rows (first at row %d, %s: %s, then %s); no rewrite can be proved equal to it",
		e.UDF, e.DifferingResults, e.Row, e.Inputs, e.First, e.Second)
}

// OriginalError says the original could not be run.
type OriginalError struct{ Err error }

func (e *OriginalError) Error() string { return "cannot run the original: " + e.Err.Error() }
func (e *OriginalError) Unwrap() error { return e.Err }

// EvidenceError is a stage finding the evidence of the one before it
// missing or inconsistent: an internal failure, never a verified result.
type EvidenceError struct {
	Stage string
	Msg   string
}

func (e *EvidenceError) Error() string {
	return fmt.Sprintf("%s: the evidence of the stage before is not sound: %s", e.Stage, e.Msg)
}

// Tried is one candidate and its verdict.
type Tried struct {
	Index     int              `json:"index"`
	Candidate Candidate        `json:"candidate"`
	Stage     string           `json:"stage"` // convert or optimize
	Accepted  bool             `json:"accepted"`
	Reason    string           `json:"reason,omitempty"`
	Report    *difftest.Report `json:"report,omitempty"`
	Bench     *Bench           `json:"benchmark,omitempty"`
}

// Outcome is what a rewrite produced.
type Outcome struct {
	UDF      *udf.UDF
	Agent    string
	Targets  []string
	Tried    []*Tried
	Declines []Decline
	// Rendered are the columnar and CUDA rewrites of the best candidate's
	// IR, or why each was not offered.
	Rendered    []*Rendered
	Best        *Tried
	Optimize    string
	UseEdits    []patch.UseEdit
	Record      *evidence.Record
	RewriteDir  string // relative to the repository root
	Changes     []patch.FileChange
	Workspace   string
	PatchPath   string
	ReportPath  string
	Determinism string
	// Transcripts are the agent's saved conversations, relative to the
	// workspace (a model agent's; none for the built-in translator).
	Transcripts []string
	// PerType are the verdicts per assignment of types when no source
	// gave some parameter's type (runPerType); the verified ones are the
	// branches of the rewrite's type guard.
	PerType []pertype.Verdict
}

// judged returns the tried candidate with c's target and SQL, if any:
// an agent's Check already ran the differential test on it.
func (o *Outcome) judged(c Candidate) *Tried {
	for _, t := range o.Tried {
		// A test that ended in an error (a runner or a Spark session that
		// failed) gave no verdict: the candidate is tested again.
		verdict := t.Accepted || t.Reason != "" || t.Report != nil
		if verdict && t.Candidate.Target == c.Target && t.Candidate.SQL == c.SQL {
			return t
		}
	}
	return nil
}

// Verified reports whether a rewrite passed.
func (o *Outcome) Verified() bool { return o.Best != nil }

// NotFaster reports whether the verified rewrite was measured no faster
// than the original: exact, but no reason to change the job. A
// vectorized-python rewrite's times are its proof's, one row per batch
// with numba compiling, not a benchmark (task bench-vectors measures it),
// so they say nothing either way.
func (o *Outcome) NotFaster() bool {
	return o.Best != nil && o.Best.Bench != nil && o.Best.Candidate.Target != TargetVectorizedPython && !o.Best.Bench.Faster()
}

// NotFasterNote says so, with the medians, for the summary and report.md.
func (o *Outcome) NotFasterNote() string {
	b := o.Best.Bench
	return fmt.Sprintf("not faster: the verified rewrite's median run took %.4f s, the original's %.4f s (%.2f×, %d runs each, same run); keep the original, applying the rewrite is not recommended on this engine",
		b.RewriteMedianS, b.OriginalMedianS, b.Speedup, b.Runs)
}

// Scaffolded is what the scaffold stage alone proved and wrote.
type Scaffolded struct {
	Workspace string `json:"workspace"`
	// Files are the stage's evidence: spec.json, inputs.arrow and
	// baseline.tokens, in the workspace.
	Files       []string `json:"files"`
	Rows        int      `json:"rows"`
	Runtime     string   `json:"original_runtime"`
	Determinism string   `json:"determinism"`
}

// Scaffold runs stage 1 alone, for agents outside udfx that drive the
// stages themselves: the spec, the inputs and the baseline, with the
// original run twice.
func Scaffold(ctx context.Context, opts Options) (*Scaffolded, error) {
	opts.defaults()
	if err := os.MkdirAll(opts.Workspace, 0o755); err != nil {
		return nil, fmt.Errorf("workspace: %w", err)
	}
	sc, err := scaffold(ctx, opts)
	if err != nil {
		return nil, err
	}
	defer sc.close()
	if err := checkScaffold(opts.Workspace, sc); err != nil {
		return nil, err
	}
	return &Scaffolded{
		Workspace:   opts.Workspace,
		Files:       []string{"spec.json", "inputs.arrow", "baseline.tokens"},
		Rows:        len(sc.rows),
		Runtime:     sc.runtime,
		Determinism: sc.determinism(),
	}, nil
}

func (s *scaffolded) determinism() string {
	return fmt.Sprintf("The original ran twice on %d rows (%s) with identical results", len(s.rows), s.runtime)
}

func (o *Options) defaults() {
	if o.Rows <= 0 {
		o.Rows = 10_000
	}
	if o.BenchRuns < 5 {
		o.BenchRuns = 5
	}
	if o.OptimizeBudget <= 0 {
		o.OptimizeBudget = 3
	}
}

// Run runs the four stages and writes the workspace. The repository is
// not touched; Apply applies the outcome's changes.
func Run(ctx context.Context, opts Options) (*Outcome, error) {
	progress := opts.Progress
	if progress == nil {
		progress = func(string) {}
	}
	opts.defaults()
	u := opts.UDF
	if err := CheckTargets(u, opts.Targets); err != nil {
		return nil, err
	}
	if opts.SparkDecline != "" {
		// A proof for another Spark than the job runs on proves nothing
		// about the job: not even the original is run.
		out := &Outcome{UDF: u, Agent: opts.Agent.Name(), Targets: opts.Targets, Workspace: opts.Workspace,
			Declines: []Decline{{Target: TargetSQL, Construct: "the repository's Spark version", Reason: opts.SparkDecline, Where: "-"}}}
		if err := os.MkdirAll(opts.Workspace, 0o755); err != nil {
			return nil, fmt.Errorf("workspace: %w", err)
		}
		if err := writeWorkspace(opts, out); err != nil {
			return nil, err
		}
		return out, nil
	}
	if openParams(opts) {
		return runPerType(ctx, opts)
	}
	if !wants(opts.Targets, TargetSQL) && !vectorizedOnly(opts.Targets) {
		opts.Targets = append([]string{TargetSQL}, opts.Targets...)
	}
	out := &Outcome{UDF: u, Agent: opts.Agent.Name(), Targets: opts.Targets, Workspace: opts.Workspace}
	if err := os.MkdirAll(filepath.Join(opts.Workspace, "candidates"), 0o755); err != nil {
		return nil, fmt.Errorf("workspace: %w", err)
	}

	// Stage 1: scaffold.
	progress("scaffold: spec and inputs")
	sc, err := scaffold(ctx, opts)
	if err != nil {
		return nil, err
	}
	defer sc.close()
	sc.spark, sc.workspace = opts.Spark, opts.Workspace
	out.Determinism = sc.determinism()
	if err := checkScaffold(opts.Workspace, sc); err != nil {
		return nil, err
	}

	if vectorizedOnly(opts.Targets) {
		// Stages 2 to 4 in one: the renderer gives one candidate, its
		// test in CPython is the proof, and the test's timings the
		// benchmark.
		if err := tryVectorized(ctx, opts, sc, out, opts.Targets[0] == TargetVectorizedPythonFast); err != nil {
			return nil, err
		}
		if err := writeWorkspace(opts, out); err != nil {
			return nil, err
		}
		return out, nil
	}

	// Stage 2: convert.
	progress("convert: asking the agent")
	stage := "convert"
	spec := &Spec{UDF: u, Source: opts.Source, Targets: opts.Targets, ANSIOff: !opts.ansi()}
	spec.Check = func(ctx context.Context, c Candidate) (*Tried, error) {
		t, err := tryCandidate(ctx, opts, sc, out, c, stage)
		if t == nil {
			return nil, err
		}
		// The agent gets a copy: the verdict in the outcome is the
		// harness's alone.
		cp := *t
		return &cp, err
	}
	spec.Bench = func(ctx context.Context, c Candidate) (*Bench, error) {
		return benchmark(ctx, sc, c, opts.BenchRuns)
	}
	cands, declines, err := opts.Agent.Convert(ctx, spec)
	if err != nil {
		return nil, fmt.Errorf("convert: %w", err)
	}
	out.Declines = declines
	for _, c := range cands {
		t := out.judged(c)
		if t == nil {
			if t, err = tryCandidate(ctx, opts, sc, out, c, stage); err != nil {
				return nil, err
			}
		}
		if t.Accepted && out.Best == nil {
			out.Best = t
		}
	}

	if out.Best != nil {
		// Stage 3: benchmark, only over accepted candidates.
		for _, t := range out.Tried {
			if !t.Accepted {
				continue
			}
			progress("benchmark: candidate " + fmt.Sprint(t.Index))
			b, err := benchmark(ctx, sc, t.Candidate, opts.BenchRuns)
			if err != nil {
				return nil, fmt.Errorf("benchmark: %w", err)
			}
			t.Bench = b
		}
		out.Best = fastest(out.Tried)

		// Stage 4: optimize.
		progress("optimize")
		stage = "optimize"
		if err := optimize(ctx, opts, sc, spec, out); err != nil {
			return nil, err
		}
		if err := buildRewrite(ctx, opts, sc, out); err != nil {
			return nil, err
		}
	}
	if out.Best == nil && wants(opts.Targets, TargetVectorizedPython) {
		if err := tryVectorized(ctx, opts, sc, out, false); err != nil {
			return nil, err
		}
	}
	if tp, ok := opts.Agent.(interface{ Transcripts() []string }); ok {
		out.Transcripts = tp.Transcripts()
	} else {
		// A model's conversations from an earlier run are not this run's.
		_ = os.RemoveAll(filepath.Join(opts.Workspace, "transcripts"))
	}
	if err := writeWorkspace(opts, out); err != nil {
		return nil, err
	}
	return out, nil
}

func fastest(tried []*Tried) *Tried {
	var best *Tried
	for _, t := range tried {
		if t.Accepted && t.Bench != nil && (best == nil || t.Bench.RewriteMedianS < best.Bench.RewriteMedianS) {
			best = t
		}
	}
	return best
}

// ANSIName is "ANSI on" or "ANSI off", for reports.
func ANSIName(on bool) string {
	if on {
		return "ANSI on"
	}
	return "ANSI off"
}

// ansi is the ANSI mode of the Spark the proof is for: the one the
// project states, else that version's default (on from Spark 4.0, off in
// 3.5).
func (opts Options) ansi() bool {
	return opts.SparkTarget == nil || opts.SparkTarget.Mode(pyenv.DefaultANSI)
}

// tryCandidate runs the differential test on a candidate: the target
// Spark's ANSI mode, bit-exact, the scaffold's seed and rows.
func tryCandidate(ctx context.Context, opts Options, sc *scaffolded, out *Outcome, c Candidate, stage string) (*Tried, error) {
	t := &Tried{Index: len(out.Tried) + 1, Candidate: c, Stage: stage}
	out.Tried = append(out.Tried, t)
	dir := filepath.Join(opts.Workspace, "candidates", fmt.Sprint(t.Index))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("workspace: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "rewrite.sql"), []byte(c.SQL+"\n"), 0o644); err != nil {
		return nil, fmt.Errorf("workspace: %w", err)
	}
	if c.Target != TargetSQL {
		t.Reason = "target " + c.Target + " cannot be tested by this udfx"
		return t, nil
	}
	if opts.Progress != nil {
		opts.Progress(stage + ": testing candidate " + fmt.Sprint(t.Index))
	}
	var testProgress func(string)
	if opts.Progress != nil {
		testProgress = func(s string) { opts.Progress(fmt.Sprintf("%s: candidate %d: %s", stage, t.Index, s)) }
	}
	rep, err := difftest.Run(ctx, opts.UDF, difftest.Rewrite{SQL: c.SQL}, difftest.Options{
		Seed: opts.Seed, Rows: opts.Rows, ANSI: opts.ansi(), Policy: value.Policy{},
		Limits: opts.Limits, Workspace: dir, NewRunner: sc.lendRunner(opts.NewRunner), Spark: opts.Spark,
		Progress: testProgress, NearMisses: true, ProveThrowingRows: true,
	})
	if err != nil {
		var ue *difftest.UsageError
		var oe *difftest.OriginalError
		switch {
		case errors.As(err, &ue):
			t.Reason = "the engine cannot evaluate it: " + ue.Error()
			if opts.Spark == nil {
				t.Reason = "the embedded engine cannot evaluate it: " + ue.Error()
			}
			return t, nil
		case errors.As(err, &oe):
			var je *spark.JobError
			if v := opts.SparkTarget; v != nil && v.Version != pyenv.DefaultSpark() && errors.As(oe.Err, &je) {
				// No engine but that Spark proves for it, and there the
				// rows the original throws on could not all be compared.
				t.Reason = fmt.Sprintf("only real Spark %s proves for Spark %s, and there %v", v.Version, v.Version, oe.Err)
				return t, nil
			}
			return nil, &OriginalError{Err: oe.Err}
		}
		return nil, fmt.Errorf("%s: candidate %d: %w", stage, t.Index, err)
	}
	rep.File = opts.UDF.File
	t.Report = rep
	// The test must have seen the scaffold's inputs, byte for byte.
	b, err := os.ReadFile(filepath.Join(dir, "inputs.arrow"))
	if err != nil {
		return nil, &EvidenceError{Stage: stage, Msg: "the differential test saved no inputs: " + err.Error()}
	}
	if evidence.SHA256(b) != sc.inputsHash {
		return nil, &EvidenceError{Stage: stage, Msg: "the differential test's inputs differ from the scaffold's"}
	}
	_ = os.Remove(filepath.Join(dir, "inputs.arrow"))
	if err := writeJSON(filepath.Join(dir, "report.json"), rep); err != nil {
		return nil, err
	}
	if need := c.PythonUnicode; need != "" && rep.PythonUnicode != need {
		t.Reason = unicodeMismatch(need, rep.PythonUnicode)
		return t, nil
	}
	if need := c.JDKCase; need != "" && rep.JDK != need {
		t.Reason = jdkMismatch(need, rep.JDK)
		return t, nil
	}
	switch {
	case !rep.Equal && rep.Refuted != "":
		t.Reason = "refuted: " + rep.Refuted
	case !rep.Equal:
		t.Reason = fmt.Sprintf("refuted: differs on %d of %d rows", rep.Mismatches, rep.Rows)
	case !rep.Policy.Exact() || rep.ApproxMath || rep.ANSI != opts.ansi():
		t.Reason = "not a bit-exact test in the target Spark's ANSI mode"
	case rep.Rows-rep.NearMissRows != len(sc.rows):
		return nil, &EvidenceError{Stage: stage, Msg: fmt.Sprintf("the test ran %d rows besides its near misses, the scaffold has %d", rep.Rows-rep.NearMissRows, len(sc.rows))}
	default:
		t.Accepted = true
	}
	return t, nil
}

// optimize gives the agent its budget of attempts; a candidate replaces
// the best only when it passes the differential test and is faster: on
// the embedded engine in a head-to-head race with the best, on Spark by
// the medians of its own run beside the original's; on Comet a candidate
// whose projection runs natively beats one that does not, whatever the
// times (nativeFirst). Each race is one clause of out.Optimize.
func optimize(ctx context.Context, opts Options, sc *scaffolded, spec *Spec, out *Outcome) error {
	tried, faster := 0, 0
	var races []string
	defer func() {
		if len(races) > 0 && out.Optimize != "" {
			out.Optimize += " (" + strings.Join(races, "; ") + ")"
		}
	}()
	for attempt := 1; attempt <= opts.OptimizeBudget; attempt++ {
		cands, err := opts.Agent.Optimize(ctx, spec, out.Best.Candidate, attempt)
		if err != nil {
			return fmt.Errorf("optimize: %w", err)
		}
		if len(cands) == 0 {
			out.Optimize = fmt.Sprintf("budget of %d attempts: the agent (%s) had no further candidate after attempt %d; kept candidate %d", opts.OptimizeBudget, opts.Agent.Name(), attempt, out.Best.Index)
			return nil
		}
		improved := false
		for _, c := range cands {
			t := out.judged(c)
			if t == out.Best {
				continue
			}
			tried++
			if t == nil {
				var err error
				if t, err = tryCandidate(ctx, opts, sc, out, c, "optimize"); err != nil {
					return err
				}
			}
			if !t.Accepted {
				continue
			}
			// Re-measure the best beside the new one: a ratio only means
			// something within one run.
			b, err := benchmark(ctx, sc, c, opts.BenchRuns)
			if err != nil {
				return fmt.Errorf("optimize: %w", err)
			}
			t.Bench = b
			again, err := benchmark(ctx, sc, out.Best.Candidate, opts.BenchRuns)
			if err != nil {
				return fmt.Errorf("optimize: %w", err)
			}
			out.Best.Bench = again
			better := b.RewriteMedianS < again.RewriteMedianS
			race := fmt.Sprintf("candidate %d vs %d, each timed beside the original in its own run: median %.4fs vs %.4fs", t.Index, out.Best.Index, b.RewriteMedianS, again.RewriteMedianS)
			if sc.spark == nil {
				// On the embedded engine the two rewrites also run
				// head to head, alternating, and that decides.
				bestS, candS, err := headToHead(ctx, sc, out.Best.Candidate, c, opts.BenchRuns)
				if err != nil {
					return fmt.Errorf("optimize: %w", err)
				}
				better = candS < bestS
				race = fmt.Sprintf("candidate %d vs %d head to head: median %.6fs vs %.6fs", t.Index, out.Best.Index, candS, bestS)
			}
			if native, why := nativeFirst(out.Best, t); why != "" {
				better = native
				race += "; " + why
			}
			if better {
				race += ", replaced"
			} else {
				race += ", kept"
			}
			races = append(races, race)
			if better {
				out.Best = t
				improved = true
				faster++
			}
		}
		if !improved {
			out.Optimize = fmt.Sprintf("stopped at attempt %d of %d: no faster candidate that passes; %d tried, kept candidate %d", attempt, opts.OptimizeBudget, tried, out.Best.Index)
			return nil
		}
	}
	out.Optimize = fmt.Sprintf("budget of %d attempts spent: %d candidates tried, %d faster; kept candidate %d", opts.OptimizeBudget, tried, faster, out.Best.Index)
	return nil
}

// nativeFirst decides between the best and a candidate on Comet when
// only one of them has its projection run natively: that one wins,
// whatever the times, since a projection Comet does not run natively
// puts the rows back on the JVM. why is "" when it does not decide (not
// on Comet, or both or neither native).
func nativeFirst(best, cand *Tried) (candWins bool, why string) {
	cov := func(t *Tried) *plan.NativeCoverage {
		if t == nil || t.Report == nil || t.Report.Plans == nil {
			return nil
		}
		return t.Report.Plans.Rewrite.Native
	}
	b, c := cov(best), cov(cand)
	if b == nil || c == nil || b.ProjectionNative == c.ProjectionNative {
		return false, ""
	}
	if c.ProjectionNative {
		return true, fmt.Sprintf("candidate %d runs natively in Comet and candidate %d does not (%s)", cand.Index, best.Index, b.NotNative)
	}
	return false, fmt.Sprintf("candidate %d does not run natively in Comet (%s) and candidate %d does", cand.Index, c.NotNative, best.Index)
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %w", filepath.Base(path), err)
	}
	if err := evidence.WriteFileAtomic(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// buildRewrite makes the rewrite files, the record and the changes to
// the repository from the best candidate.
func buildRewrite(ctx context.Context, opts Options, sc *scaffolded, out *Outcome) error {
	u := opts.UDF
	best := out.Best
	dir, err := rewriteDir(opts.RepoRoot, u)
	if err != nil {
		return err
	}
	out.RewriteDir = dir
	if err := renderTargets(ctx, opts, sc, out, dir); err != nil {
		return err
	}
	recPath := dir + "/" + evidence.FileName
	sqlPath := dir + "/rewrite.sql"
	sqlFile := []byte(evidence.MarkerLine(".sql", recPath) + "\n" + best.Candidate.SQL + "\n")
	// The use-site edits may fall inside the definition (a Java class's
	// main method calls its own UDF), so the record hashes the definition
	// as it stands once the patch is applied: that is what verify sees.
	newSrc, edits, err := patch.RewriteUseSites(u, opts.Source, best.Candidate.SQL)
	if err != nil {
		return fmt.Errorf("use sites: %w", err)
	}
	out.UseEdits = edits
	after, spanText, err := definitionAfter(u, newSrc)
	if err != nil {
		return &EvidenceError{Stage: "rewrite", Msg: err.Error()}
	}
	// What was tested must be what the applied file declares, with the
	// types resolved as verify will resolve them: from the patched file,
	// and what it leaves unknown (a call site the patch replaced was the
	// source) from what was tested, which the record carries.
	if err := typeinfer.Resolve(after, newSrc, typeinfer.Options{}); err != nil {
		return &EvidenceError{Stage: "rewrite", Msg: "the patched file's types do not resolve: " + err.Error()}
	}
	fillUnknownTypes(after, u)
	if after.Factory != nil && after.Factory.NotCalled && u.Factory != nil && after.Factory.Name == u.Factory.Name {
		// The patch replaced every call of the factory: the record keeps
		// the arguments the proof used, and verify calls it with those.
		after.Factory = after.Factory.Bind(u.Factory.Args)
	}
	if evidence.SignatureHash(after) != evidence.SignatureHash(u) {
		return &EvidenceError{Stage: "rewrite", Msg: "the use-site edits change the UDF's signature as the front-end reads it"}
	}
	rec := &evidence.Record{
		SchemaVersion: evidence.SchemaVersion,
		Tool:          opts.Tool,
		Original: evidence.Original{
			File: u.File, Name: u.Name, Language: string(u.Language), SpanSHA256: evidence.SpanHash(spanText),
			SignatureSHA256: evidence.SignatureHash(after), DependsOn: evidence.Dependencies(after, newSrc),
			Factory: evidence.FactoryOf(u),
		},
		UseSites:     patch.RecordUseSites(u.File, newSrc, edits),
		Rewrites:     []evidence.RewriteFile{{Target: TargetSQL, Path: sqlPath, SHA256: evidence.SHA256(sqlFile)}},
		SpecSHA256:   evidence.SHA256(sc.specJSON),
		InputsSHA256: sc.inputsHash,
		Seed:         opts.Seed,
		Rows:         len(sc.rows), // the seeded rows, without the near misses
		Engine: evidence.Engine{Name: best.Report.Engine, ANSI: best.Report.ANSI,
			Version: best.Report.EngineVersion, Master: best.Report.Master, Comet: best.Report.CometVersion},
		Policy:        best.Report.Policy,
		Result:        evidence.Verified,
		Mismatches:    best.Report.Mismatches,
		Plans:         best.Report.Plans,
		TypeSources:   recordTypeSources(u.TypeSources),
		PerType:       opts.perType,
		PythonUnicode: best.Candidate.PythonUnicode,
		JDKCase:       best.Candidate.JDKCase,
		Spark:         opts.SparkTarget,
	}
	files := []renderedFile{{sqlPath, sqlFile}}
	for _, r := range out.Rendered {
		if !r.Accepted {
			continue
		}
		// The record's result stays verified only because the sql rewrite
		// is; these files are listed so that verify hash-checks them.
		for _, f := range r.Files {
			rec.Rewrites = append(rec.Rewrites, evidence.RewriteFile{Target: r.Target, Path: f.path, SHA256: evidence.SHA256(f.data), Note: r.Note})
			files = append(files, f)
		}
	}
	rec.Artifacts = artifactsOf(out.Rendered)
	for _, t := range out.Tried {
		if t.Accepted && t.Bench != nil && t == best {
			rec.Benchmarks = append(rec.Benchmarks, t.Bench.record(t.Candidate.Target))
		}
	}
	recJSON, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return fmt.Errorf("encode evidence: %w", err)
	}
	out.Record = rec
	var changes []patch.FileChange
	for _, f := range append(files, renderedFile{recPath, append(recJSON, '\n')}) {
		old, err := patch.ReadIfExists(filepath.Join(opts.RepoRoot, filepath.FromSlash(f.path)))
		if err != nil {
			return err
		}
		changes = append(changes, patch.FileChange{Path: f.path, Old: old, New: f.data})
	}
	if string(newSrc) != string(opts.Source) {
		old, edited, err := sourceChange(u, opts.Source, newSrc)
		if err != nil {
			return err
		}
		changes = append(changes, patch.FileChange{Path: u.File, Old: old, New: edited})
	}
	out.Changes = changes
	return nil
}

// sourceChange is the change of the UDF's file that makes its source
// newSrc: the source itself, or for a notebook the notebook with the
// edited cells rewritten (the source is its code cells' Python).
func sourceChange(u *udf.UDF, src, newSrc []byte) (old, edited []byte, err error) {
	if !notebook.IsNotebook(u.File) {
		return src, newSrc, nil
	}
	raw, err := os.ReadFile(u.Path())
	if err != nil {
		return nil, nil, fmt.Errorf("read the notebook: %w", err)
	}
	nb, err := notebook.Parse(raw)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", u.File, err)
	}
	if !bytes.Equal(nb.Code(), src) {
		return nil, nil, fmt.Errorf("%s changed while udfx ran", u.File)
	}
	if edited, err = nb.Update(newSrc); err != nil {
		return nil, nil, fmt.Errorf("%s: the use-site edits: %w", u.File, err)
	}
	return raw, edited, nil
}

// definitionAfter returns u as the front-end finds it in src, the source
// with the use sites rewritten, and the text of its definition: the front-end finds the UDF there again by
// name, since the edits may have moved or resized its span.
// fillUnknownTypes gives dst the types of tested where dst's are unknown;
// a type dst knows is kept, so a difference still shows in the signature.
func fillUnknownTypes(dst, tested *udf.UDF) {
	if dst.Return == nil || dst.ReturnDefault {
		dst.Return, dst.ReturnDefault = tested.Return, tested.ReturnDefault
	}
	for i := range dst.Params {
		if dst.Params[i].Type != nil {
			continue
		}
		for _, p := range tested.Params {
			if p.Name == dst.Params[i].Name {
				dst.Params[i].Type = p.Type
			}
		}
	}
}

func definitionAfter(u *udf.UDF, src []byte) (*udf.UDF, []byte, error) {
	fe := frontends.New(u.Language)
	defer fe.Close()
	us, err := fe.Parse(u.File, src)
	if err != nil {
		return nil, nil, fmt.Errorf("the rewritten %s does not parse: %w", u.File, err)
	}
	for i := range us {
		if us[i].Name == u.Name {
			text, err := evidence.SpanText(src, us[i].Span)
			return &us[i], text, err
		}
	}
	return nil, nil, fmt.Errorf("the rewritten %s no longer defines %s", u.File, u.Name)
}

// rewriteDir picks udfx-rewrites/<name>; when that folder's record is of
// a UDF in another file (two classes named ToFahrenheit), the file's
// language is added to the name.
func rewriteDir(root string, u *udf.UDF) (string, error) {
	base := evidence.Dir + "/" + patch.SafeName(u.Name)
	rec, err := evidence.Read(filepath.Join(root, filepath.FromSlash(base), evidence.FileName))
	if err != nil {
		if _, statErr := os.Stat(filepath.Join(root, filepath.FromSlash(base), evidence.FileName)); errors.Is(statErr, os.ErrNotExist) {
			return base, nil
		}
		return "", fmt.Errorf("existing record: %w", err)
	}
	if rec.Original.File == u.File && rec.Original.Name == u.Name {
		return base, nil
	}
	return base + "-" + string(u.Language), nil
}

// scaffolded is stage 1's evidence and the live runner the benchmark
// reuses.
type scaffolded struct {
	u          *udf.UDF // the UDF under test
	specJSON   []byte
	inputsHash string
	params     []inputs.Param
	rows       [][]value.Value
	baseline   []value.Value
	runtime    string
	run        runner.Runner
	limits     runner.Limits // run's
	runMu      sync.Mutex    // held by a test that borrows run
	mem        memory.Allocator
	rec        interface{ Release() }
	// spark is the session benchmarks run in when the test's engine is
	// Spark; parquet the scaffold's inputs written for it.
	spark     *spark.Session
	workspace string
	parquet   string
	// parquetRows are parquet's rows: the scaffold's, less those on
	// which the original throws.
	parquetRows int
	// ansi is the target Spark's mode the benchmarks on Spark run in.
	ansi bool
	eval *evalInputs
}

// unicodeMismatch says why a candidate exact for CPython's Unicode need is
// no proof for an original that ran on one with Unicode have.
func unicodeMismatch(need, have string) string {
	if have == "" {
		have = "unknown"
	}
	return fmt.Sprintf("not accepted: the rewrite follows the case mappings and digits of a CPython whose Unicode is %s (udfx's tables, harness/pycase), and the original ran on one whose Unicode is %s", need, have)
}

func jdkMismatch(need, have string) string {
	if have == "" {
		have = "unknown"
	}
	return fmt.Sprintf("not accepted: the rewrite follows the case mappings of JDK %s (udfx's tables, harness/jdkcase), and the original ran on JDK %s", need, have)
}

// lendRunner lets a candidate's test run the original in the runner the
// scaffold started for it, instead of starting its runtime again (a
// CPython or a JVM, most of a test's time for a small UDF): same UDF, same
// limits, and an original the scaffold already ran twice in that process
// with identical results. Any other UDF (a per-type copy) or limits get a
// runner of their own.
func (s *scaffolded) lendRunner(start func(context.Context, *udf.UDF, runner.Limits) (runner.Runner, error)) func(context.Context, *udf.UDF, runner.Limits) (runner.Runner, error) {
	return func(ctx context.Context, u *udf.UDF, limits runner.Limits) (runner.Runner, error) {
		if s.run == nil || u != s.u || limits != s.limits {
			return start(ctx, u, limits)
		}
		s.runMu.Lock()
		return &lentRunner{Runner: s.run, release: s.runMu.Unlock}, nil
	}
}

// lentRunner is the scaffold's runner on loan to one test: closing it
// gives it back, still running, and it reports what the runner reports.
type lentRunner struct {
	runner.Runner
	once    sync.Once
	release func()
}

func (l *lentRunner) Close() error {
	l.once.Do(l.release)
	return nil
}

func (l *lentRunner) JDK() string {
	if p, ok := l.Runner.(interface{ JDK() string }); ok {
		return p.JDK()
	}
	return ""
}

func (l *lentRunner) UnicodeVersion() string {
	if p, ok := l.Runner.(interface{ UnicodeVersion() string }); ok {
		return p.UnicodeVersion()
	}
	return ""
}

func (s *scaffolded) close() {
	if s.run != nil {
		s.run.Close()
	}
	if s.rec != nil {
		s.rec.Release()
	}
}

// recordTypeSources copies where the UDF's types came from into the
// record, so that verify re-runs the test with the same types even when
// the use sites they were read from have since been rewritten.
func recordTypeSources(ts []udf.TypeSource) []evidence.TypeSource {
	var out []evidence.TypeSource
	for _, s := range ts {
		t := ""
		if s.Type != nil {
			t = s.Type.String()
		}
		out = append(out, evidence.TypeSource{Name: s.Name, Type: t, Source: s.Source, Detail: s.Detail})
	}
	return out
}
