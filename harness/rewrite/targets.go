package rewrite

import (
	"context"
	"errors"
	"fmt"
	"path"

	"github.com/udfx/udfx/gpu/native"
	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/render/columnar"
	"github.com/udfx/udfx/harness/render/cuda"
	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/translate/ir"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/value"
)

// Rendered is a columnar or CUDA rewrite rendered from the IR of the
// verified sql candidate, or the reason it was not offered.
type Rendered struct {
	Target string `json:"target"`
	// Accepted means its files join the patch and the record.
	Accepted bool `json:"accepted"`
	// Reason says why it was declined or rejected.
	Reason string `json:"reason,omitempty"`
	// Note says how far it was checked (ColumnarNote, CUDABuiltNote, …).
	Note string `json:"note,omitempty"`
	// Rows is how many rows the host build ran, equal to the original
	// on each (cuda only).
	Rows int `json:"rows,omitempty"`
	// Runtime describes the host build (cuda only).
	Runtime string `json:"runtime,omitempty"`
	// Files are the rendered files, paths relative to the repository
	// root.
	Files []renderedFile `json:"-"`
	// Artifact is the RapidsUDF jar it was compiled into, if any.
	Artifact *evidence.Artifact `json:"-"`
}

type renderedFile struct {
	path string
	data []byte
}

// jvmTargetsApply reports whether the columnar and CUDA targets apply to
// u: both are RAPIDS rewrites of a JVM UDF.
func jvmTargetsApply(u *udf.UDF) bool {
	return u.Language == udf.Java || u.Language == udf.Scala
}

// DefaultTargets are the targets that apply to u: sql, with columnar
// and cuda for a JVM UDF; vectorized-python for a pandas_udf, whose batch
// code SQL replaces only where it is elementwise arithmetic on double
// columns (udf.PandasSQLCandidate), and then sql comes first.
func DefaultTargets(u *udf.UDF) []string {
	switch {
	case jvmTargetsApply(u):
		return []string{TargetSQL, TargetColumnar, TargetCUDA}
	case u.Language == udf.Python && pandasTyped(u) && udf.PandasSQLCandidate(u):
		return []string{TargetSQL, TargetVectorizedPython}
	case u.Language == udf.Python && u.Kind == udf.KindPandasUDF:
		return []string{TargetVectorizedPython}
	case u.Language == udf.Python && u.Kind == udf.KindPythonUDF && hasLoop(u):
		// SQL first; a loop it declines may still compile with numba.
		return []string{TargetSQL, TargetVectorizedPython}
	}
	return []string{TargetSQL}
}

// TargetError is a target that does not apply to the UDF.
type TargetError struct {
	Target string
	UDF    string
	Reason string
}

func (e *TargetError) Error() string {
	return fmt.Sprintf("target %s does not apply to %s: %s", e.Target, e.UDF, e.Reason)
}

// CheckTargets rejects unknown targets and targets that do not apply to u.
func CheckTargets(u *udf.UDF, targets []string) error {
	if wants(targets, TargetVectorizedPythonFast) && len(targets) > 1 {
		return &TargetError{Target: TargetVectorizedPythonFast, UDF: u.Name, Reason: "the fast form is a rewrite of its own, proved within a declared tolerance: ask for it alone"}
	}
	for _, t := range targets {
		switch t {
		case TargetSQL:
		case TargetColumnar, TargetCUDA:
			if !jvmTargetsApply(u) {
				return &TargetError{Target: t, UDF: u.Name, Reason: fmt.Sprintf("it is a %s UDF; columnar and cuda rewrites are RAPIDS rewrites of JVM (Java, Scala) UDFs", u.Language)}
			}
		case TargetVectorizedPython, TargetVectorizedPythonFast:
			if !vectorizedApplies(u) {
				return &TargetError{Target: t, UDF: u.Name, Reason: fmt.Sprintf("it is a %s %s; vectorized-python rewrites Python UDFs", u.Language, u.Kind)}
			}
		default:
			return &TargetError{Target: t, UDF: u.Name, Reason: "unknown target; udfx rewrites to sql, columnar, cuda, vectorized-python and vectorized-python-fast"}
		}
	}
	return nil
}

// pandasTyped: every parameter's type is known, as the rewrite needs
// before it tries sql.
func pandasTyped(u *udf.UDF) bool {
	for _, p := range u.Params {
		if p.Type == nil {
			return false
		}
	}
	return true
}

func hasLoop(u *udf.UDF) bool {
	for _, b := range u.Blockers {
		if b.Kind == udf.BlockerLoop {
			return true
		}
	}
	return false
}

func wants(targets []string, t string) bool {
	for _, x := range targets {
		if x == t {
			return true
		}
	}
	return false
}

// renderTargets renders the columnar and CUDA rewrites asked for from the
// IR of the verified sql candidate; dir is the rewrite's folder. A target
// that cannot be rendered or does not match the original is declined with
// its reason; only an internal failure is an error.
func renderTargets(ctx context.Context, opts Options, sc *scaffolded, out *Outcome, dir string) error {
	recPath := dir + "/" + evidence.FileName
	e := out.Best.Candidate.IR
	for _, target := range []string{TargetColumnar, TargetCUDA} {
		if !wants(out.Targets, target) {
			continue
		}
		r := &Rendered{Target: target}
		out.Rendered = append(out.Rendered, r)
		if e == nil {
			r.Reason = "the verified sql candidate has no translator IR to render from"
			continue
		}
		var err error
		switch target {
		case TargetColumnar:
			err = renderColumnar(opts, e, dir, recPath, r)
		case TargetCUDA:
			err = renderCUDA(ctx, opts, sc, e, dir, recPath, r)
		}
		if err != nil {
			return err
		}
	}
	return buildArtifact(ctx, opts, out)
}

// renderColumnar renders the RapidsUDF. It needs a GPU to run, so it is
// not differentially tested: it is accepted, and buildArtifact compiles
// it and says so in its note.
func renderColumnar(opts Options, e ir.Expr, dir, recPath string, r *Rendered) error {
	pkg, err := columnar.PackageOf(opts.Source)
	if err != nil {
		r.Reason = err.Error()
		return nil
	}
	files, err := columnar.RenderIn(opts.UDF, e, recPath, pkg)
	if declined(err, r) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("columnar: %w", err)
	}
	for _, f := range files {
		// The renderer names the folder after the UDF; the rewrite's
		// folder may carry a language suffix (rewriteDir).
		r.Files = append(r.Files, renderedFile{path: dir + "/columnar/" + path.Base(f.Path), data: f.Content})
	}
	r.Accepted, r.Note = true, fmt.Sprintf(ColumnarRenderedNote, "not compiled yet")
	return nil
}

// renderCUDA renders the CUDA rewrite and accepts it only when its
// per-row function, built with g++, gives the original's baseline on
// every scaffold row, bit-exact.
func renderCUDA(ctx context.Context, opts Options, sc *scaffolded, e ir.Expr, dir, recPath string, r *Rendered) error {
	files, err := cuda.Render(opts.UDF, e, recPath)
	if declined(err, r) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("cuda: %w", err)
	}
	run, err := native.HostRunner(ctx, files, opts.UDF, opts.Limits)
	if err != nil {
		var env *runner.EnvError
		var be *native.BuildError
		if errors.As(err, &env) || errors.As(err, &be) {
			r.Reason = "not host-verified: " + err.Error()
			return nil
		}
		return fmt.Errorf("cuda: %w", err)
	}
	defer run.Close()
	r.Runtime = run.Describe()
	got, err := run.Run(ctx, sc.rows)
	if err != nil {
		r.Reason = "the host build failed on the scaffold's inputs: " + err.Error()
		return nil
	}
	if len(got) != len(sc.baseline) {
		r.Reason = fmt.Sprintf("the host build returned %d results for %d rows", len(got), len(sc.baseline))
		return nil
	}
	var exact value.Policy
	mismatches, first := 0, -1
	for i := range got {
		if !exact.Equal(sc.baseline[i], got[i]) {
			if first < 0 {
				first = i
			}
			mismatches++
		}
	}
	if mismatches > 0 {
		r.Reason = fmt.Sprintf("refuted by the host build: differs on %d of %d rows (first at row %d, %s: original %s, cuda %s)",
			mismatches, len(got), first, describeRow(sc.params, sc.rows[first]), sc.baseline[first], got[first])
		return nil
	}
	for _, f := range files {
		r.Files = append(r.Files, renderedFile{path: dir + "/cuda/" + f.Path, data: f.Content})
	}
	r.Accepted, r.Note, r.Rows = true, CUDANote, len(got)
	return nil
}

// declined records a *ir.RenderError as the target's decline.
func declined(err error, r *Rendered) bool {
	var re *ir.RenderError
	if errors.As(err, &re) {
		r.Reason = "declined: " + re.Error()
		return true
	}
	return false
}
