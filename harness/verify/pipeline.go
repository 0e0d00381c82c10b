package verify

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/pipeline"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/udf/python"
	"github.com/udfx/udfx/internal/notebook"
	"github.com/udfx/udfx/internal/patch"
)

// checkPipeline checks the record of an RDD chain's DataFrame rewrite.
// The patch replaces the chain's value with the new code, so the chain is
// found where it was: the file either still holds it (the patch not
// applied) or holds the recorded new code once, in whose place the
// recorded chain text is put back to read it. Either way the chain must
// hash as recorded, and what udfx derives from it now must be the new
// code the record and the file hold: the record is never trusted for the
// code that runs. Then the test runs again on Spark with the record's
// seed and udfx's own.
func (v *verifier) checkPipeline(ctx context.Context, c *recordCheck) {
	rec, origLoc := c.rec, &Location{File: v.rel(c.origAbs), Line: 1}
	pre, ok := c.pipelineSource(origLoc)
	if !ok {
		return
	}
	u, problem := findChain(rec, pre)
	if problem != "" {
		c.fail(StaleUDF, problem, origLoc)
		return
	}
	u.Root = c.repo
	if msg := dependencyDrift(rec.Original.DependsOn, evidence.Dependencies(u, pre)); msg != "" {
		c.fail(StaleUDF, fmt.Sprintf("the UDF changed: %s depends on code outside the chain in %s that changed: %s", u.Name, rec.Original.File, msg), origLoc)
		return
	}
	pyIdx := -1
	for i, rw := range rec.Rewrites {
		it := &c.items[i]
		if _, ok := readRewrite(it, filepath.Join(c.repo, filepath.FromSlash(rw.Path)), rw); !ok {
			continue
		}
		switch {
		case rw.Target != string(udf.TargetDataFrame):
			it.Status, it.Detail = InconsistentRecord, fmt.Sprintf("a pipeline record lists a %s rewrite; its rewrite is dataframe", rw.Target)
		case pyIdx < 0:
			pyIdx = i
		}
	}
	if pyIdx < 0 || !c.checkPipelineClaims() {
		return
	}
	it := &c.items[pyIdx]
	if v.opts.SkipRerun {
		it.Detail = "hashes match the record; " + pipelineWhere + "; not re-derived or re-run (--skip-rerun)"
		return
	}
	v.rerunPipeline(ctx, c, u, pre, pyIdx, origLoc)
}

// pipelineWhere is how a pipeline record's chain was found.
const pipelineWhere = "the file holds the recorded rewrite in the chain's place"

// pipelineSource checks the record's one use site and returns the
// original file as it was before the patch: a record under udfx-rewrites
// exists because --apply wrote it with the job's new code, so the file
// must hold that code, once, and the recorded chain text is put back in
// its place. Accepting "the chain is still there" instead let an edited
// DataFrame rewrite pass beside an unused copy of the chain.
func (c *recordCheck) pipelineSource(origLoc *Location) ([]byte, bool) {
	rec := c.rec
	if len(rec.UseSites) != 1 || rec.UseSites[0].Kind != patch.UsePipeline || rec.UseSites[0].File != rec.Original.File {
		c.fail(InconsistentRecord, "a pipeline record lists exactly one use site, the chain's value in its file", c.recordLoc())
		return nil, false
	}
	site := rec.UseSites[0]
	switch {
	case evidence.SHA256([]byte(site.New)) != site.NewSHA256:
		c.fail(InconsistentRecord, "the use site's new text does not hash to its recorded sha256", c.recordLoc())
		return nil, false
	case evidence.SpanHash([]byte(site.Old)) != rec.Original.SpanSHA256:
		c.fail(InconsistentRecord, "the use site's old text is not the chain the record hashes", c.recordLoc())
		return nil, false
	}
	src, err := notebook.ReadCode(c.origAbs)
	if errors.Is(err, fs.ErrNotExist) {
		c.fail(StaleUDF, fmt.Sprintf("the UDF changed: its file %s is gone", rec.Original.File), origLoc)
		return nil, false
	}
	if err != nil {
		c.fail(Error, fmt.Sprintf("read the original %s: %v", rec.Original.File, err), nil)
		return nil, false
	}
	switch n := strings.Count(string(src), site.New); {
	case n == 0:
		c.fail(StaleUseSite, fmt.Sprintf("%s does not hold the rewrite of %s that --apply wrote (%s): the job runs other code. If the patch was undone on purpose, remove %s",
			rec.Original.File, rec.Original.Name, quoteShort(site.New), path.Dir(c.recRel)), origLoc)
		return nil, false
	case n > 1:
		c.fail(StaleUseSite, fmt.Sprintf("%s holds the rewrite of %s %d times; the patch wrote it once", rec.Original.File, rec.Original.Name, n), origLoc)
		return nil, false
	}
	return []byte(strings.Replace(string(src), site.New, site.Old, 1)), true
}

// checkPipelineClaims checks what a pipeline record claims of its test:
// its lines, their hash, its result, its engine and that it claims no
// relaxation. It reports whether checking goes on.
func (c *recordCheck) checkPipelineClaims() bool {
	rec := c.rec
	switch {
	case rec.Rows <= 0 || rec.Rows > MaxRows:
		c.fail(InconsistentRecord, fmt.Sprintf("the record claims %d lines; udfx tests 1 to %d", rec.Rows, MaxRows), c.recordLoc())
	case evidence.SHA256(pipeline.Text(rec.Seed, rec.Rows)) != rec.InputsSHA256:
		c.fail(InconsistentRecord, fmt.Sprintf("the text that seed %d and %d lines generate does not hash to the record's inputs_sha256", rec.Seed, rec.Rows), c.recordLoc())
	case rec.Result != evidence.Verified:
		c.fail(Failed, fmt.Sprintf("the record's result is %q, not %q", rec.Result, evidence.Verified), nil)
	case rec.Engine.Name != "spark":
		c.fail(InconsistentRecord, fmt.Sprintf("a pipeline is tested on engine spark; the record says %q", rec.Engine.Name), c.recordLoc())
	case !rec.Policy.Exact() || rec.AllowErrorToNull:
		c.fail(UndeclaredRelaxation, "a pipeline rewrite is held to equal multisets; the record claims a relaxation", c.recordLoc())
	case c.v.opts.RequireEngine != "" && c.v.opts.RequireEngine != rec.Engine.Name:
		c.fail(WrongEngine, fmt.Sprintf("the record was proved on engine %q; this gate requires %q", rec.Engine.Name, c.v.opts.RequireEngine), nil)
	default:
		return true
	}
	return false
}

// rerunPipeline derives the DataFrame code from the chain again and runs
// the test again on Spark with the record's seed and udfx's own. The code
// that runs is what udfx derives from the chain now, never what the record
// says: it must be the recorded new code, and the record's spec and its
// rewrite file must follow from it.
func (v *verifier) rerunPipeline(ctx context.Context, c *recordCheck, u *udf.UDF, pre []byte, pyIdx int, origLoc *Location) {
	rec, it, site := c.rec, &c.items[pyIdx], c.rec.UseSites[0]
	it.Rerun = true
	rows := min(max(rec.Rows, DefaultRows), MaxRows)
	seeds := seedsFor(rec.Seed)
	it.Policy = fmt.Sprintf("equal multisets of results, each value with its Python type; %d lines for each of seeds %s", rows, seedList(seeds))
	v.progress(fmt.Sprintf("re-running the RDD chain %s and its DataFrame rewrite on Spark", u.Name))
	v.sparkMu.Lock()
	defer v.sparkMu.Unlock()
	session, err := v.sparkFor(ctx, u, "spark", recordSpark(rec))
	if err != nil {
		it.Status, it.Detail = Error, fmt.Sprintf("cannot re-run the test on spark: %v", err)
		return
	}
	recPath := path.Join(path.Dir(rec.Rewrites[pyIdx].Path), evidence.FileName)
	tr, err := pipeline.Translate(ctx, session.Install().Python, pipeline.Request{Source: string(pre), Path: u.File, Name: u.Name, Line: u.Span.Start.Line, Record: recPath})
	var de *pipeline.DeclineError
	switch {
	case errors.As(err, &de):
		it.Status, it.Detail = StaleUseSite, "udfx no longer rewrites the chain: "+de.Reason
		return
	case err != nil:
		it.Status, it.Detail = Error, fmt.Sprintf("translate the chain: %v", err)
		return
	case tr.New != site.New:
		it.Status, it.Detail = StaleUseSite, fmt.Sprintf("what udfx derives from the chain now (%s) is not the recorded rewrite (%s)", quoteShort(tr.New), quoteShort(site.New))
		it.Location = *origLoc
		return
	case evidence.SHA256(patch.PipelineSpec(u, tr)) != rec.SpecSHA256:
		it.Status, it.Detail = InconsistentRecord, "the record's spec hash is not that of the chain's translation"
		return
	case evidence.SHA256(patch.PipelineFile(recPath, u, site.Old, tr)) != rec.Rewrites[pyIdx].SHA256:
		it.Status, it.Detail = StaleRewrite, "the rewrite file is not what udfx writes for this chain and its rewrite"
		return
	}
	dir, err := os.MkdirTemp("", "udfx-verify-pipeline-")
	if err != nil {
		it.Status, it.Detail = Error, err.Error()
		return
	}
	defer os.RemoveAll(dir)
	total := 0
	for _, seed := range seeds {
		proof, err := pipeline.Test(ctx, session, c.origAbs, u.Name, tr, seed, rows, dir)
		if err != nil {
			it.Status, it.Detail = Error, fmt.Sprintf("re-run the test: %v", err)
			return
		}
		if !proof.Equal() {
			it.Status, it.Detail = Mismatch, "the re-run refutes the rewrite: "+proof.Describe()
			return
		}
		total += proof.Result.OriginalRows
	}
	info := session.Info()
	it.Detail = fmt.Sprintf("hashes match the record; %s; the rewrite is what udfx derives from the chain; re-run on Apache Spark %s (%s): the same multisets for seeds %s (%d results in all)",
		pipelineWhere, info.SparkVersion, info.Master, seedList(seeds), total)
}

// findChain finds the record's chain in src, hashing as recorded.
func findChain(rec *evidence.Record, src []byte) (*udf.UDF, string) {
	fe := python.New()
	defer fe.Close()
	udfs, err := fe.Parse(rec.Original.File, src)
	if err != nil {
		return nil, fmt.Sprintf("the UDF changed: %s no longer parses: %v", rec.Original.File, err)
	}
	for i := range udfs {
		u := &udfs[i]
		if u.Name != rec.Original.Name || u.Kind != udf.KindRDDPipeline {
			continue
		}
		text, err := evidence.SpanText(src, u.Span)
		if err != nil {
			return nil, err.Error()
		}
		if got := evidence.SpanHash(text); got != rec.Original.SpanSHA256 {
			return nil, fmt.Sprintf("the UDF changed: the chain %s at %s:%d hashes to %s, the record has %s", u.Name, rec.Original.File, u.Span.Start.Line, short(got), short(rec.Original.SpanSHA256))
		}
		if got := evidence.SignatureHash(u); got != rec.Original.SignatureSHA256 {
			return nil, fmt.Sprintf("the UDF changed: the chain %s now reads %s, the record's signature hash differs", u.Name, u.RDDOperation)
		}
		return u, ""
	}
	return nil, fmt.Sprintf("the UDF changed: %s no longer holds the RDD chain %s", rec.Original.File, rec.Original.Name)
}
