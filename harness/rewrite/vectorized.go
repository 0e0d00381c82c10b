package rewrite

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/udfx/udfx/harness/bench"
	"github.com/udfx/udfx/harness/difftest"
	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/internal/vectorize"
	"github.com/udfx/udfx/harness/pyenv"
	"github.com/udfx/udfx/harness/runner/python"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/value"
	"github.com/udfx/udfx/internal/patch"
)

// TargetVectorizedPython is a Python UDF's per-row loops rendered as a
// numba kernel inside a pandas_udf (harness/internal/vectorize), proved
// by a differential test in which both sides run in CPython.
const TargetVectorizedPython = string(udf.TargetVectorizedPython)

// TargetVectorizedPythonFast is the same with a faster algorithm that
// rounds differently (a sort instead of all pairs, a running sum instead
// of every window): proved only within the tolerance the project's
// udfx.yaml declares for the UDF (Options.Tolerance), and never a
// default target.
const TargetVectorizedPythonFast = string(udf.TargetVectorizedPythonFast)

// VectorizedFile is the rewrite module's name in the rewrite's folder;
// VectorizedFastFile the fast form's.
const (
	VectorizedFile     = "vectorized.py"
	VectorizedFastFile = "vectorized_fast.py"
)

// vectorizedOnly reports whether targets ask for vectorized-python (or
// its fast form) alone: it needs no sql rewrite beside it.
func vectorizedOnly(targets []string) bool {
	return len(targets) == 1 && IsVectorized(targets[0])
}

// IsVectorized reports a vectorized-python target, exact or fast: its
// test runs one row per batch, so its times are the proof's, not a speed.
func IsVectorized(target string) bool {
	return target == TargetVectorizedPython || target == TargetVectorizedPythonFast
}

// tryVectorized renders the vectorized-python rewrite and runs its
// differential test; an accepted one becomes the outcome's best and its
// files, record and changes are built. A decline or a mismatch is a
// rejected candidate with its reason; only an internal failure is an
// error.
func tryVectorized(ctx context.Context, opts Options, sc *scaffolded, out *Outcome, fast bool) error {
	u := opts.UDF
	target, file, origin, policy := TargetVectorizedPython, VectorizedFile, "built-in numba renderer", value.Policy{}
	if fast {
		if opts.Tolerance == nil || opts.Tolerance.Exact() {
			return errors.New("rewrite: the fast vectorized-python form needs a tolerance declared in udfx.yaml")
		}
		target, file, policy = TargetVectorizedPythonFast, VectorizedFastFile, *opts.Tolerance
		origin = "built-in numba renderer, fast form (" + policy.String() + ", declared at " + opts.ToleranceFrom + ")"
	}
	progress := func(s string) {
		if opts.Progress != nil {
			opts.Progress(s)
		}
	}
	dir, err := rewriteDir(opts.RepoRoot, u)
	if err != nil {
		return err
	}
	recPath := dir + "/" + evidence.FileName
	pyPath := dir + "/" + file
	t := &Tried{Index: len(out.Tried) + 1, Stage: "convert",
		Candidate: Candidate{Target: target, File: pyPath, Origin: origin}}
	out.Tried = append(out.Tried, t)
	if v := opts.SparkTarget; v != nil && v.Version != pyenv.DefaultSpark() {
		// Its proof runs in the default environment's CPython with numba,
		// and says nothing of how another pyspark's Arrow conversion
		// stores what the kernel returns.
		t.Reason = fmt.Sprintf("the vectorized-python form is proved for Spark %s only; the project runs Spark %s", pyenv.DefaultSpark(), v.Version)
		return nil
	}
	progress("convert: rendering the numba kernel")
	interp := "python3"
	if f, ok := pyenv.Find(nil, filepath.Dir(u.Path())); ok {
		interp = f.Python
	}
	req := vectorize.Request{File: u.Path(), RelFile: u.File, Name: u.Name, Kind: string(u.Kind),
		Flavor: string(u.PandasFlavor), Marker: evidence.MarkerLine(".py", recPath), Fast: fast}
	if u.Return != nil {
		req.ReturnType = u.Return.String()
	}
	for _, p := range u.Params {
		if p.Type != nil {
			req.ParamTypes = append(req.ParamTypes, p.Type.String())
		}
	}
	src, err := vectorize.Render(ctx, interp, req)
	var de *vectorize.DeclineError
	if errors.As(err, &de) {
		t.Reason = err.Error()
		return nil
	}
	if err != nil {
		return err
	}
	cand := filepath.Join(opts.Workspace, "candidates", fmt.Sprint(t.Index))
	if err := os.MkdirAll(cand, 0o755); err != nil {
		return fmt.Errorf("workspace: %w", err)
	}
	candFile := filepath.Join(cand, file)
	if err := os.WriteFile(candFile, src, 0o644); err != nil {
		return fmt.Errorf("workspace: %w", err)
	}
	// The candidate is a UDF of its own, in its own file.
	rw := *u
	rw.File, rw.Root = candFile, ""
	progress(fmt.Sprintf("convert: testing candidate %d (CPython against CPython with numba, one row per batch)", t.Index))
	rep, err := difftest.RunPython(ctx, u, &rw, difftest.Options{
		Seed: opts.Seed, Rows: opts.Rows, ANSI: true, Policy: policy,
		Limits: opts.Limits, Workspace: cand, NewRunner: python.NewPerRow, NewBatchRunner: python.NewBatched, NearMisses: true,
		Progress: func(s string) { progress(fmt.Sprintf("convert: candidate %d: %s", t.Index, s)) },
	})
	if err != nil {
		var oe *difftest.OriginalError
		if errors.As(err, &oe) {
			return &OriginalError{Err: oe.Err}
		}
		t.Reason = "the rewrite could not be run: " + err.Error()
		return nil
	}
	rep.File = u.File
	rep.RewriteFile = pyPath
	t.Report = rep
	b, err := os.ReadFile(filepath.Join(cand, "inputs.arrow"))
	if err != nil {
		return &EvidenceError{Stage: "convert", Msg: "the differential test saved no inputs: " + err.Error()}
	}
	if evidence.SHA256(b) != sc.inputsHash {
		return &EvidenceError{Stage: "convert", Msg: "the differential test's inputs differ from the scaffold's"}
	}
	_ = os.Remove(filepath.Join(cand, "inputs.arrow"))
	if err := writeJSON(filepath.Join(cand, "report.json"), rep); err != nil {
		return err
	}
	switch {
	case !rep.Equal:
		t.Reason = fmt.Sprintf("refuted: differs on %d of %d rows (%s)", rep.Mismatches, rep.Rows, policy)
		return nil
	case rep.Rows != len(sc.rows)+rep.LongArrayRows+rep.NearMissRows:
		return &EvidenceError{Stage: "convert", Msg: fmt.Sprintf("the test ran %d rows, the scaffold has %d", rep.Rows, len(sc.rows))}
	}
	t.Accepted = true
	t.Bench = &Bench{Rows: rep.Rows, Runs: 1, OriginalS: []float64{rep.OriginalSeconds}, RewriteS: []float64{rep.RewriteSeconds},
		Original: rep.Runtime + ", one row per batch", Engine: "CPython with numba, one row per batch", Machine: bench.Machine()}
	t.Bench.summarize()
	out.Best = t
	out.Optimize = "nothing to optimize: the vectorized-python rewrite is the renderer's only candidate; `task bench-vectors` times it in Spark"
	return buildVectorized(opts, sc, out, dir, pyPath, target, src)
}

// buildVectorized makes the record and the changes: the rewrite module and
// the record. The use sites are left alone: the rewrite module defines a
// pandas_udf of the same name, type and column, to import in their place.
func buildVectorized(opts Options, sc *scaffolded, out *Outcome, dir, pyPath, target string, src []byte) error {
	u := opts.UDF
	best := out.Best
	out.RewriteDir = dir
	recPath := dir + "/" + evidence.FileName
	after, spanText, err := definitionAfter(u, opts.Source)
	if err != nil {
		return &EvidenceError{Stage: "rewrite", Msg: err.Error()}
	}
	fillUnknownTypes(after, u)
	rec := &evidence.Record{
		SchemaVersion: evidence.SchemaVersion,
		Tool:          opts.Tool,
		Original: evidence.Original{
			File: u.File, Name: u.Name, Language: string(u.Language), SpanSHA256: evidence.SpanHash(spanText),
			SignatureSHA256: evidence.SignatureHash(after), DependsOn: evidence.Dependencies(after, opts.Source),
		},
		Rewrites:     []evidence.RewriteFile{{Target: target, Path: pyPath, SHA256: evidence.SHA256(src)}},
		SpecSHA256:   evidence.SHA256(sc.specJSON),
		InputsSHA256: sc.inputsHash,
		Seed:         opts.Seed,
		// The generated rows, which the record's seed regenerates; the
		// long-array rows after them are regenerated from the seed too.
		Rows:        len(sc.rows),
		Engine:      evidence.Engine{Name: best.Report.Engine, ANSI: best.Report.ANSI},
		Policy:      best.Report.Policy,
		Result:      evidence.Verified,
		Mismatches:  best.Report.Mismatches,
		TypeSources: recordTypeSources(u.TypeSources),
		Benchmarks:  []evidence.Benchmark{best.Bench.record(target)},
		Spark:       opts.SparkTarget,
	}
	recJSON, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return fmt.Errorf("encode evidence: %w", err)
	}
	out.Record = rec
	var changes []patch.FileChange
	for _, f := range []renderedFile{{pyPath, src}, {recPath, append(recJSON, '\n')}} {
		old, err := patch.ReadIfExists(filepath.Join(opts.RepoRoot, filepath.FromSlash(f.path)))
		if err != nil {
			return err
		}
		changes = append(changes, patch.FileChange{Path: f.path, Old: old, New: f.data})
	}
	out.Changes = changes
	return nil
}

// vectorizedApplies reports whether vectorized-python applies to u.
func vectorizedApplies(u *udf.UDF) bool {
	return u.Language == udf.Python && u.Kind != udf.KindRDDLambda
}
