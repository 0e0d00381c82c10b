package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/udfx/udfx/harness/bench"
	"github.com/udfx/udfx/harness/pipeline"
	"github.com/udfx/udfx/harness/rewrite"
	"github.com/udfx/udfx/harness/spark"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/internal/batch"
	"github.com/udfx/udfx/internal/notebook"
	"github.com/udfx/udfx/internal/patch"
)

// pipelineEngine is the engine an RDD chain runs on: Spark, whatever
// --engine says, since udfx's embedded engine evaluates expressions, not
// RDD jobs. --engine comet keeps Comet; a Connect server has no
// SparkContext for the chain.
func pipelineEngine(o sparkOptions) (sparkOptions, error) {
	if o.remote != "" {
		return o, usageErrorf("an RDD chain cannot run over Spark Connect, which has no SparkContext: drop --spark-remote (a local or cluster master runs it)")
	}
	if o.engine == engineEmbedded {
		o.engine = engineSpark
	}
	return o, nil
}

// runPipelineRewrite is udfx rewrite of a udf.KindRDDPipeline: the chain
// as DataFrame code, tested on Spark.
func runPipelineRewrite(ctx context.Context, e *env, opts *rewriteOptions, loc *locatedUDF, python string, res *udfResult) error {
	if res == nil {
		res = &udfResult{}
	}
	row := &res.row
	u, root, ws := loc.UDF, loc.Root, loc.Workspace
	for _, t := range opts.targets {
		if t != rewrite.TargetDataFrame {
			return usageErrorf("--target %s: %s is an RDD chain, whose only target is dataframe", t, u.Name)
		}
	}
	if opts.native || opts.agent.optimize || opts.agent.name != "builtin" {
		return usageErrorf("%s is an RDD chain: the built-in translator rewrites it; --native, --optimize and --agent do not apply", u.Name)
	}
	so, err := pipelineEngine(opts.spark)
	if err != nil {
		return err
	}
	var session *spark.Session
	defer func() {
		if session != nil {
			session.Close()
		}
	}()
	start := func() (*spark.Session, error) {
		var err error
		session, err = startSpark(ctx, e, &so, u, true, filepath.Join(filepath.Dir(ws), "spark"))
		return session, err
	}
	out, err := rewrite.RunPipeline(ctx, rewrite.PipelineOptions{
		UDF: u, Source: loc.Source, RepoRoot: root, Workspace: ws, StartSpark: start, Python: python,
		Seed: opts.seed, Rows: opts.rows, Tool: "udfx " + version, Progress: e.progress().Func(),
	})
	if err != nil {
		return sparkError(err)
	}
	w := e.Stdout
	fmt.Fprintf(w, "%s (%s %s, %s)\n", u.Name, u.Language, u.Kind, u.File)
	fmt.Fprintf(w, "  chain          %s\n", u.RDDOperation)
	rel := workRel(e, out.ReportPath)
	row.Report = rel
	switch {
	case out.Declined != "":
		row.Status, row.Reason = batch.Declined, out.Declined
		fmt.Fprintf(w, "  declined       %s\n  result         no verified rewrite\n  report         %s\n", out.Declined, rel)
		return &exitError{code: exitFailed, err: fmt.Errorf("no rewrite of %s: %s", u.Name, out.Declined)}
	case out.Refuted != "":
		row.Status, row.Reason = batch.Refuted, out.Refuted
		fmt.Fprintf(w, "  refuted        %s\n  result         no verified rewrite\n  report         %s\n", out.Refuted, rel)
		return &exitError{code: exitFailed, err: fmt.Errorf("the rewrite of %s differs from it; see %s", u.Name, rel)}
	}
	for _, s := range out.Translation.Steps {
		fmt.Fprintf(w, "  step           %s\n", s)
	}
	info := out.Engine()
	row.Status, row.Target, row.RewriteDir = batch.Verified, rewrite.TargetDataFrame, out.RewriteDir
	res.root, res.changes = root, out.Changes
	fmt.Fprintf(w, "  result         verified: %s\n", out.Proof.Describe())
	fmt.Fprintf(w, "  engine         Apache Spark %s (%s)\n", info.SparkVersion, info.Master)
	fmt.Fprintf(w, "  report         %s\n  patch          %s\n", rel, workRel(e, out.PatchPath))
	if !opts.apply {
		return nil
	}
	if err := patch.Apply(root, u.Name, out.Changes, opts.force); err != nil {
		return applyError(err)
	}
	fmt.Fprintf(w, "  applied        %d files changed in %s\n", len(out.Changes), root)
	return nil
}

// isPipeline is whether rewrite takes the pipeline path for u.
func isPipeline(u *udf.UDF) bool { return u.Kind == udf.KindRDDPipeline }

// benchPipeline times an RDD chain's Spark job against its DataFrame
// rewrite, each collecting its results, over opts.rows generated words
// (pipeline.Words), alternating.
func benchPipeline(ctx context.Context, e *env, opts *benchOptions, u *udf.UDF, abs string, progress func(string)) (*bench.Result, string, error) {
	if opts.sql != "" {
		return nil, "", usageErrorf("--sql: %s is an RDD chain, whose rewrite is DataFrame code that udfx derives from it", u.Name)
	}
	so, err := pipelineEngine(opts.spark)
	if err != nil {
		return nil, "", err
	}
	python, err := e.ensurePython(ctx, filepath.Dir(abs))
	if err != nil {
		return nil, "", internalError(err)
	}
	src, err := notebook.ReadCode(abs)
	if err != nil {
		return nil, "", usageErrorf("read %s: %w", u.File, err)
	}
	tr, err := pipeline.Translate(ctx, python, pipeline.Request{Source: string(src), Path: u.File, Name: u.Name, Line: u.Span.Start.Line, Record: "-"})
	var de *pipeline.DeclineError
	switch {
	case errors.As(err, &de):
		return nil, "", usageErrorf("%s: udfx does not rewrite this chain, so there is nothing to time it against: %s", u.Name, de.Reason)
	case err != nil:
		return nil, "", internalError(err)
	}
	ws := filepath.Join(patch.RepoRoot(filepath.Dir(abs)), patch.WorkspaceDirName, "spark")
	if err := patch.MarkWorkspace(ws); err != nil {
		return nil, "", internalError(err)
	}
	if err := os.MkdirAll(ws, 0o755); err != nil {
		return nil, "", internalError(err)
	}
	input := filepath.Join(ws, fmt.Sprintf("bench-%s-%d-words-%d.txt", patch.SafeName(u.Name), opts.rows, opts.seed))
	if err := os.WriteFile(input, pipeline.Words(opts.seed, opts.rows), 0o644); err != nil {
		return nil, "", internalError(err)
	}
	defer os.Remove(input)
	s, err := startSpark(ctx, e, &so, u, opts.ansi, ws)
	if err != nil {
		return nil, "", err
	}
	defer s.Close()
	job := spark.PipelineJob{File: abs, OriginalExpr: tr.OriginalExpr, RewriteExpr: tr.RewriteExpr, Input: input, Runs: opts.runs, Warmup: opts.warmup}
	if progress != nil {
		job.Progress = func(r spark.BenchRun) {
			kind := "run"
			if r.Warmup {
				kind = "warm-up"
			}
			progress(fmt.Sprintf("%s %d: %s %.2fs", kind, r.Index, r.Side, r.Seconds))
		}
	}
	start := time.Now()
	br, err := s.PipelineBench(ctx, job)
	if err != nil {
		return nil, "", err
	}
	info := s.Info()
	words := fmt.Sprintf("%d words in lines of ten, from 100,000 distinct ones (Zipf)", opts.rows)
	res := &bench.Result{
		UDF: u.Name, SQL: strings.TrimPrefix(tr.RewriteExpr, "__udfx_text__"), Rows: opts.rows, Warmup: opts.warmup, Engine: so.engine,
		Original: fmt.Sprintf("Spark job: sc.textFile, the RDD chain (%s), collect(); %s", u.RDDOperation, words),
		Rewrite:  fmt.Sprintf("Spark job: spark.read.text, the DataFrame rewrite, collect(); %s (%s), Java %s, %.0fs in all", info.Name(), info.Master, info.JavaVersion, time.Since(start).Seconds()),
		Machine:  bench.Machine(), OriginalS: br.Original, RewriteS: br.Rewrite,
	}
	res.Summarize()
	return res, "udfx's RDD chain translator", nil
}
