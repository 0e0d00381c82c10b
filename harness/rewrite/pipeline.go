package rewrite

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/pipeline"
	"github.com/udfx/udfx/harness/spark"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/internal/mdtext"
	"github.com/udfx/udfx/internal/patch"
)

// TargetDataFrame is an RDD chain rewritten as DataFrame code.
const TargetDataFrame = string(udf.TargetDataFrame)

// PipelineOptions are what RunPipeline needs: the chain (a
// udf.KindRDDPipeline), its module, and a classic Spark session (the test
// runs both sides there; a chain cannot run over Connect).
type PipelineOptions struct {
	UDF       *udf.UDF
	Source    []byte
	RepoRoot  string
	Workspace string
	// StartSpark starts the session the test runs in, once the chain
	// translates (a decline needs no Spark).
	StartSpark func() (*spark.Session, error)
	// Python runs the translator.
	Python   string
	Seed     int64
	Rows     int
	Tool     string
	Progress func(stage string)
}

// PipelineOutcome is what a pipeline rewrite produced: a verified
// translation with its record and patch, or why there is none.
type PipelineOutcome struct {
	UDF         *udf.UDF
	Translation *pipeline.Translation
	Proof       *pipeline.Proof
	// Declined is the translator's reason when a step has no exact rule;
	// Refuted the test's account when the results differ.
	Declined, Refuted string
	Record            *evidence.Record
	RewriteDir        string
	Changes           []patch.FileChange
	ReportPath        string
	PatchPath         string
	engine            spark.Info
}

// Engine is the Spark session the test ran on.
func (o *PipelineOutcome) Engine() spark.Info { return o.engine }

// Verified is whether the rewrite passed its test.
func (o *PipelineOutcome) Verified() bool { return o.Record != nil }

// RunPipeline translates the chain, runs it and its translation on Spark
// over the same generated text, and, when both collect the same multiset,
// writes the record and the patch (the chain's value replaced in its file,
// and udfx-rewrites/<name>/rewrite.py for the record).
func RunPipeline(ctx context.Context, opts PipelineOptions) (*PipelineOutcome, error) {
	u := opts.UDF
	if u.Kind != udf.KindRDDPipeline {
		return nil, fmt.Errorf("rewrite: %s is a %s, not an RDD pipeline", u.Name, u.Kind)
	}
	if opts.StartSpark == nil {
		return nil, errors.New("rewrite: an RDD pipeline is tested on Spark, and no session was given")
	}
	progress := opts.Progress
	if progress == nil {
		progress = func(string) {}
	}
	if err := os.MkdirAll(opts.Workspace, 0o755); err != nil {
		return nil, fmt.Errorf("workspace: %w", err)
	}
	out := &PipelineOutcome{UDF: u}
	dir, err := rewriteDir(opts.RepoRoot, u)
	if err != nil {
		return nil, err
	}
	out.RewriteDir = dir
	recPath := dir + "/" + evidence.FileName
	file := u.Path()
	progress("translating the RDD chain " + u.Name)
	tr, err := pipeline.Translate(ctx, opts.Python, pipeline.Request{Source: string(opts.Source), Path: u.File, Name: u.Name, Line: u.Span.Start.Line, Record: recPath})
	var de *pipeline.DeclineError
	switch {
	case errors.As(err, &de):
		out.Declined = de.Reason
		return out, writePipelineWorkspace(opts, out)
	case err != nil:
		return nil, err
	}
	out.Translation = tr
	session, err := opts.StartSpark()
	if err != nil {
		return nil, err
	}
	out.engine = session.Info()
	progress(fmt.Sprintf("running the chain and its DataFrame code on Spark over %d generated lines", opts.Rows))
	proof, err := pipeline.Test(ctx, session, file, u.Name, tr, opts.Seed, opts.Rows, opts.Workspace)
	if err != nil {
		return nil, err
	}
	out.Proof = proof
	if !proof.Equal() {
		out.Refuted = proof.Describe()
		return out, writePipelineWorkspace(opts, out)
	}
	if err := buildPipeline(opts, out, recPath); err != nil {
		return nil, err
	}
	return out, writePipelineWorkspace(opts, out)
}

func buildPipeline(opts PipelineOptions, out *PipelineOutcome, recPath string) error {
	u, tr, proof := opts.UDF, out.Translation, out.Proof
	oldText, err := evidence.SpanText(opts.Source, u.Span)
	if err != nil {
		return &EvidenceError{Stage: "rewrite", Msg: err.Error()}
	}
	newSrc, at, err := patch.ReplaceSpan(opts.Source, u.Span, tr.New)
	if err != nil {
		return &EvidenceError{Stage: "rewrite", Msg: err.Error()}
	}
	pyPath := out.RewriteDir + "/rewrite.py"
	pyFile := patch.PipelineFile(recPath, u, string(oldText), tr)
	info := out.engine
	rec := &evidence.Record{
		SchemaVersion: evidence.SchemaVersion,
		Tool:          opts.Tool,
		Original: evidence.Original{
			File: u.File, Name: u.Name, Language: string(u.Language), Kind: string(u.Kind),
			SpanSHA256: evidence.SpanHash(oldText), SignatureSHA256: evidence.SignatureHash(u),
			DependsOn: evidence.Dependencies(u, opts.Source),
		},
		Rewrites:     []evidence.RewriteFile{{Target: TargetDataFrame, Path: pyPath, SHA256: evidence.SHA256(pyFile)}},
		SpecSHA256:   evidence.SHA256(patch.PipelineSpec(u, tr)),
		InputsSHA256: proof.InputSHA256,
		Seed:         proof.Seed,
		Rows:         proof.Rows,
		Engine:       evidence.Engine{Name: "spark", ANSI: info.ANSI, Version: info.SparkVersion, Master: info.Master},
		Result:       evidence.Verified,
		UseSites: []evidence.UseSite{{File: u.File, Kind: patch.UsePipeline, Span: at, Old: string(oldText), New: tr.New,
			NewSHA256: evidence.SHA256([]byte(tr.New))}},
	}
	recJSON, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return fmt.Errorf("encode evidence: %w", err)
	}
	out.Record = rec
	for _, f := range []renderedFile{{pyPath, pyFile}, {recPath, append(recJSON, '\n')}} {
		old, err := patch.ReadIfExists(filepath.Join(opts.RepoRoot, filepath.FromSlash(f.path)))
		if err != nil {
			return err
		}
		out.Changes = append(out.Changes, patch.FileChange{Path: f.path, Old: old, New: f.data})
	}
	out.Changes = append(out.Changes, patch.FileChange{Path: u.File, Old: opts.Source, New: newSrc})
	return nil
}

func writePipelineWorkspace(opts PipelineOptions, out *PipelineOutcome) error {
	out.ReportPath = filepath.Join(opts.Workspace, "report.md")
	patchPath := filepath.Join(opts.Workspace, "rewrite.patch")
	if out.Verified() {
		out.PatchPath = patchPath
		if err := evidence.WriteFileAtomic(patchPath, []byte(patch.UnifiedDiff(out.Changes)), 0o644); err != nil {
			return fmt.Errorf("write the patch: %w", err)
		}
		if err := evidence.Write(filepath.Join(opts.Workspace, evidence.FileName), out.Record); err != nil {
			return fmt.Errorf("write the record: %w", err)
		}
	} else {
		_ = os.Remove(patchPath)
		_ = os.Remove(filepath.Join(opts.Workspace, evidence.FileName))
	}
	return evidence.WriteFileAtomic(out.ReportPath, []byte(pipelineMarkdown(out)), 0o644)
}

// pipelineMarkdown is a pipeline rewrite's report.md.
func pipelineMarkdown(o *PipelineOutcome) string {
	var b strings.Builder
	u := o.UDF
	fmt.Fprintf(&b, "# udfx rewrite: %s\n\n", u.Name)
	fmt.Fprintf(&b, "The RDD chain `%s` in `%s` (line %d: %s), rewritten as DataFrame code.\n\n", u.Name, u.File, u.Span.Start.Line, u.RDDOperation)
	switch {
	case o.Declined != "":
		fmt.Fprintf(&b, "**Result: declined.** %s\n", o.Declined)
		return b.String()
	case o.Refuted != "":
		fmt.Fprintf(&b, "**Result: refuted.** The rewrite below differs from the chain on real Spark: %s.\n\n", o.Refuted)
	default:
		fmt.Fprintf(&b, "**Result: verified** on Apache Spark %s (%s): %s.\n\n", o.Record.Engine.Version, o.Record.Engine.Master, o.Proof.Describe())
	}
	tr := o.Translation
	b.WriteString("| step | rule |\n|---|---|\n")
	for i, s := range tr.Steps {
		fmt.Fprintf(&b, "| %d | %s |\n", i+1, mdtext.Text(s))
	}
	b.WriteString("\nThe new code:\n\n```python\n" + tr.New + "\n```\n\n")
	if r := o.Proof.Result; r != nil && len(r.Examples) > 0 {
		b.WriteString("| result | types | in the original | in the rewrite |\n|---|---|---|---|\n")
		for _, e := range r.Examples {
			fmt.Fprintf(&b, "| %s | %s | %d | %d |\n", mdtext.Code(e.Item), strings.Join(e.Types, ", "), e.Original, e.Rewrite)
		}
		b.WriteString("\n")
	}
	b.WriteString("What the test does not compare:\n\n")
	for _, n := range tr.Notes {
		b.WriteString("- " + n + "\n")
	}
	fmt.Fprintf(&b, "\nThe test reads the same text on both sides: %d generated lines (seed %d), the special lines first (empty, only white space, each kind of Unicode white space, combining marks, a 10,000-character word), ending in \\n, \\r\\n or \\r, after a byte order mark. `udfx bench %s --engine spark` times the job against its rewrite.\n",
		o.Proof.Rows, o.Proof.Seed, u.File)
	return b.String()
}
