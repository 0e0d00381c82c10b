package rewrite

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/udfx/udfx/harness/bench"
	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/plan"
	"github.com/udfx/udfx/internal/mdtext"
	"github.com/udfx/udfx/internal/patch"
	"github.com/udfx/udfx/internal/typeinfer"
)

// writeWorkspace writes report.md and, for a verified rewrite,
// rewrite.patch and a copy of the record into the workspace.
// benchChart is the benchmark's bar chart in the workspace.
const benchChart = "benchmark.svg"

func writeWorkspace(opts Options, out *Outcome) error {
	out.ReportPath = filepath.Join(opts.Workspace, "report.md")
	if out.Verified() {
		out.PatchPath = filepath.Join(opts.Workspace, "rewrite.patch")
		if err := evidence.WriteFileAtomic(out.PatchPath, []byte(patch.UnifiedDiff(out.Changes)), 0o644); err != nil {
			return fmt.Errorf("write the patch: %w", err)
		}
		if err := evidence.Write(filepath.Join(opts.Workspace, evidence.FileName), out.Record); err != nil {
			return fmt.Errorf("write the record: %w", err)
		}
	} else {
		// A patch from an earlier, verified run would no longer be true.
		_ = os.Remove(filepath.Join(opts.Workspace, "rewrite.patch"))
		_ = os.Remove(filepath.Join(opts.Workspace, evidence.FileName))
	}
	chart := filepath.Join(opts.Workspace, benchChart)
	if out.Best != nil && out.Best.Bench != nil {
		if err := evidence.WriteFileAtomic(chart, bench.SVG(out.Best.Bench.result(out.UDF.Name)), 0o644); err != nil {
			return fmt.Errorf("write the benchmark chart: %w", err)
		}
	} else {
		_ = os.Remove(chart)
	}
	if err := evidence.WriteFileAtomic(out.ReportPath, []byte(Markdown(out)), 0o644); err != nil {
		return fmt.Errorf("write the report: %w", err)
	}
	return nil
}

// Markdown renders the report: what was tried, what passed, the
// counterexamples that killed the rest, the declines, the benchmark.
func Markdown(o *Outcome) string {
	var b strings.Builder
	for _, section := range []func(*strings.Builder, *Outcome){
		mdSummary, mdConvert, mdRendered, mdBenchmark, mdOptimize, mdPlans, mdTranscripts, mdPatch,
	} {
		section(&b, o)
	}
	return b.String()
}

// mdSummary is the title, the UDF, its targets and the result, and stage
// 1 (the scaffold).
func mdSummary(b *strings.Builder, o *Outcome) {
	u := o.UDF
	fmt.Fprintf(b, "# udfx rewrite: %s\n\n", u.Name)
	fmt.Fprintf(b, "- UDF: `%s` (%s %s) in `%s` at %s\n", u.Name, u.Language, u.Kind, u.File, u.Span)
	if len(u.TypeSources) > 0 {
		fmt.Fprintf(b, "- types: %s\n", mdtext.Text(strings.Join(typeinfer.Describe(u.TypeSources), "; ")))
	}
	fmt.Fprintf(b, "- targets: %s; agent: %s\n", strings.Join(o.Targets, ", "), o.Agent)
	if o.Verified() {
		fmt.Fprintf(b, "- result: **verified** (candidate %d, target %s)\n", o.Best.Index, o.Best.Candidate.Target)
		if o.NotFaster() {
			b.WriteString("- verdict: **" + o.NotFasterNote() + "**\n")
		}
	} else {
		b.WriteString("- result: **no verified rewrite**\n")
	}
	if len(o.PerType) > 0 && !o.Verified() {
		fmt.Fprintf(b, "\n## 1. Scaffold\n\n%s.\n", o.Determinism)
		return
	}
	fmt.Fprintf(b, "\n## 1. Scaffold\n\n%s; the baseline is `baseline.tokens`, the inputs `inputs.arrow`, the spec `spec.json`.\n", o.Determinism)
}

// mdConvert is stage 2: every candidate with its verdict, the
// counterexamples that refuted candidates, and the declines.
func mdConvert(b *strings.Builder, o *Outcome) {
	b.WriteString("\n## 2. Convert\n\n")
	if len(o.PerType) > 0 {
		b.WriteString("No source gives the type of every parameter, so udfx tried each type the body admits, one at a time: the translator proposed a rewrite per type, and the rewrite is a guard over the verified ones (`CASE WHEN typeof(x) = '…' THEN … ELSE raise_error(…) END`), tested with each type's inputs. Spark folds `typeof`, so the plan keeps one branch, or fails at the first row for a type that was not proved.\n\n")
		b.WriteString("| types | verdict | why |\n|---|---|---|\n")
		for _, v := range o.PerType {
			fmt.Fprintf(b, "| %s | %s | %s |\n", mdtext.Text(v.Types), v.Verdict, mdtext.Text(v.Reason))
		}
		b.WriteString("\n")
	}
	if len(o.Tried) == 0 {
		b.WriteString("No candidate was produced.\n")
	} else {
		b.WriteString("| # | stage | target | candidate | verdict |\n|---|---|---|---|---|\n")
		for _, t := range o.Tried {
			verdict := "passed: equal on every row, bit-exact"
			if t.Report != nil {
				verdict = fmt.Sprintf("passed: %d of %d rows equal, bit-exact, %s", t.Report.Rows-t.Report.Mismatches, t.Report.Rows, ANSIName(t.Report.ANSI))
				if n := t.Report.NearMissRows; n > 0 {
					verdict += fmt.Sprintf(" (%d of them near misses of the original's and the candidate's literals)", n)
				}
				if n := t.Report.ErrorRowsMatched; n > 0 {
					verdict += fmt.Sprintf(" (on %d of them both sides threw: %s)", n, exceptionNames(t.Report.OriginalExceptions, t.Report.RewriteExceptions))
				}
				if n := t.Report.OneByOneRows; n > 0 {
					verdict += fmt.Sprintf(" (%d rows, those the original throws on, each run as a Spark job of its own)", n)
				}
			}
			if !t.Accepted {
				verdict = "rejected: " + t.Reason
			}
			what := mdtext.Code(t.Candidate.SQL)
			if t.Candidate.File != "" {
				what = mdtext.Code(t.Candidate.File)
			}
			fmt.Fprintf(b, "| %d | %s | %s | %s | %s |\n", t.Index, t.Stage, t.Candidate.Target, what, mdtext.Text(verdict))
		}
		for _, t := range o.Tried {
			if t.Report == nil || t.Report.Counterexample == nil {
				continue
			}
			ce := t.Report.Counterexample
			fmt.Fprintf(b, "\nCounterexample that refuted candidate %d (row %d):\n\n", t.Index, ce.Row)
			for _, in := range ce.Inputs {
				fmt.Fprintf(b, "- %s = `%s`\n", in.Name, in.Value.String())
			}
			fmt.Fprintf(b, "- original → `%s`\n- rewrite → `%s`\n", ce.Original.String(), ce.Rewrite.String())
		}
	}
	if len(o.Declines) > 0 {
		b.WriteString("\nDeclined (no exact rewrite exists for these constructs, so none was guessed):\n\n")
		for _, d := range o.Declines {
			fmt.Fprintf(b, "- %s (%s): %s: %s\n", d.Where, d.Target, d.Construct, d.Reason)
		}
	}
}

// mdRendered lists the targets rendered from the verified candidate's IR.
func mdRendered(b *strings.Builder, o *Outcome) {
	if len(o.Rendered) > 0 {
		b.WriteString("\nOther targets, rendered from the IR of the verified sql candidate (so offered only beside it):\n\n")
		b.WriteString("| target | verdict |\n|---|---|\n")
		for _, r := range o.Rendered {
			verdict := "declined: " + r.Reason
			switch {
			case r.Accepted && r.Rows > 0:
				verdict = fmt.Sprintf("accepted: %s; equal to the original on all %d scaffold rows, bit-exact (%s)", r.Note, r.Rows, r.Runtime)
			case r.Accepted:
				verdict = "accepted: " + r.Note + "; it needs a GPU to run"
			case strings.HasPrefix(r.Reason, "declined: "):
				verdict = r.Reason
			}
			fmt.Fprintf(b, "| %s | %s |\n", r.Target, mdtext.Text(verdict))
		}
	}
}

// mdBenchmark is stage 3: the timings of each benchmarked candidate.
func mdBenchmark(b *strings.Builder, o *Outcome) {
	b.WriteString("\n## 3. Benchmark\n\n")
	if !o.Verified() {
		b.WriteString("Nothing to measure: no candidate passed.\n")
	} else {
		b.WriteString("| # | rows | runs | original median (s) | spread | rewrite median (s) | spread | speedup |\n|---|---|---|---|---|---|---|---|\n")
		var where string
		for _, t := range o.Tried {
			if t.Bench == nil {
				continue
			}
			x := t.Bench
			fmt.Fprintf(b, "| %d | %d | %d | %.6f | %.6f | %.6f | %.6f | %.2f× |\n", t.Index, x.Rows, x.Runs, x.OriginalMedianS, x.OriginalSpreadS, x.RewriteMedianS, x.RewriteSpreadS, x.Speedup)
			where = fmt.Sprintf("Original: %s. Rewrite: %s. Machine: %s. One warm-up of each side, then timed runs alternating; spread is max − min.", x.Original, x.Engine, x.Machine)
		}
		b.WriteString("\n" + where + "\n")
		if o.Best != nil && o.Best.Bench != nil {
			b.WriteString("\n![original vs the verified rewrite: medians and every run](" + benchChart + ")\n")
		}
	}
}

// mdOptimize is stage 4.
func mdOptimize(b *strings.Builder, o *Outcome) {
	b.WriteString("\n## 4. Optimize\n\n")
	if o.Optimize == "" {
		b.WriteString("Not run: no candidate passed.\n")
	} else {
		b.WriteString(o.Optimize + ".\n")
	}
}

// mdPlans shows the Spark plans the test ran, with and without the UDF.
func mdPlans(b *strings.Builder, o *Outcome) {
	if o.Best != nil && o.Best.Report != nil && o.Best.Report.Plans != nil {
		r := o.Best.Report
		p := r.Plans
		engine := "Apache Spark " + r.EngineVersion
		if r.CometVersion != "" {
			engine += " with DataFusion Comet " + r.CometVersion
		}
		fmt.Fprintf(b, "\n## Spark plans\n\nThe test ran on %s (%s). Executed physical plans of the query with the original and with the rewrite:\n\n", engine, r.Master)
		b.WriteString("| | UDF nodes | row/columnar transitions |\n|---|---|---|\n")
		for _, side := range []struct {
			name string
			plan evidence.Plan
		}{{"original", p.Original}, {"rewrite", p.Rewrite}} {
			nodes := "none"
			if len(side.plan.UDFNodes) > 0 {
				nodes = mdtext.Code(strings.Join(side.plan.UDFNodes, "; "))
			}
			fmt.Fprintf(b, "| %s | %s | %d |\n", side.name, nodes, side.plan.Transitions)
		}
		if p.Original.Native != nil && p.Rewrite.Native != nil {
			writeNative(b, p)
		}
		for _, side := range []struct{ name, text string }{{"original", p.Original.Text}, {"rewrite", p.Rewrite.Text}} {
			fmt.Fprintf(b, "\n<details><summary>%s plan</summary>\n\n```\n%s\n```\n\n</details>\n", side.name, strings.TrimRight(side.text, "\n"))
		}
	}
}

// mdTranscripts links the agent's conversations.
func mdTranscripts(b *strings.Builder, o *Outcome) {
	if len(o.Transcripts) > 0 {
		b.WriteString("\n## Agent conversations\n\n")
		b.WriteString("Every conversation with the model, redacted, with its token usage and cost:\n\n")
		for _, p := range o.Transcripts {
			fmt.Fprintf(b, "- [%s](%s)\n", p, p)
		}
	}
}

// mdPatch says what rewrite.patch adds and changes and how to apply it.
func mdPatch(b *strings.Builder, o *Outcome) {
	u := o.UDF
	if !o.Verified() {
		return
	}
	b.WriteString("\n## Patch\n\n")
	if f := o.Best.Candidate.File; f != "" {
		fmt.Fprintf(b, "`rewrite.patch` adds `%s`, a module that defines `%s` as a pandas_udf of the same type over the same column, and the record `%s/%s`. ", f, u.Name, o.RewriteDir, evidence.FileName)
		fmt.Fprintf(b, "It changes no use site: import `%s` from the rewrite module where the job imports the original (the module needs numba).\n", u.Name)
		b.WriteString("Apply it with `udfx rewrite ... --apply` or `git apply " + filepath.Base(o.PatchPath) + "`; `udfx verify` re-checks the record in CI.\n")
		return
	}
	fmt.Fprintf(b, "`rewrite.patch` adds `%s/rewrite.sql`", o.RewriteDir)
	for _, r := range o.Rendered {
		if r.Accepted {
			fmt.Fprintf(b, ", the %s rewrite in `%s/%s/` (%s)", r.Target, o.RewriteDir, r.Target, r.Note)
		}
	}
	fmt.Fprintf(b, " and the record `%s/%s`", o.RewriteDir, evidence.FileName)
	rewritten := 0
	for _, e := range o.UseEdits {
		if e.New != "" {
			rewritten++
		}
	}
	fmt.Fprintf(b, ", and changes %d use site(s) in `%s`:\n\n", rewritten, u.File)
	for _, e := range o.UseEdits {
		if e.New != "" {
			fmt.Fprintf(b, "- %s %s: %s → %s", e.Span, e.Kind, mdtext.Code(e.Old), mdtext.Code(e.New))
		} else {
			fmt.Fprintf(b, "- %s %s: %s", e.Span, e.Kind, mdtext.Code(e.Old))
		}
		if e.Note != "" {
			b.WriteString(" (" + e.Note + ")")
		}
		b.WriteString("\n")
	}
	for _, r := range o.Rendered {
		if r.Accepted {
			b.WriteString("\nThe record's result is that of the sql rewrite's differential test; it lists the columnar and cuda files so that `udfx verify` hash-checks them.\n")
			for _, a := range artifactsOf(o.Rendered) {
				fmt.Fprintf(b, "Add `%s` (sha256 %s, the %s RapidsUDF classes compiled from them) to `spark.jars`; the record lists its %d entries.\n", a.Path, a.SHA256, strings.Join(a.Targets, " and "), len(a.Entries))
			}
			break
		}
	}
	b.WriteString("\nThe registration stays in place: nothing is commented out. Once no SQL text or DataFrame code calls the UDF any more, remove its registration (and the UDF) by hand.\n")
	if o.NotFaster() {
		b.WriteString("**Verified, " + o.NotFasterNote() + ".** The patch is kept for review; if you apply it anyway, `udfx verify` re-checks the record in CI.\n")
	} else {
		b.WriteString("Apply it with `udfx rewrite ... --apply` or `git apply " + filepath.Base(o.PatchPath) + "`; `udfx verify` re-checks the record in CI.\n")
	}
}

// exceptionNames says which exceptions the two sides threw, "original's →
// rewrite's", so that a reviewer sees which errors were matched.
func exceptionNames(orig, rw map[string]int) string {
	names := func(m map[string]int) string {
		ks := make([]string, 0, len(m))
		for k := range m {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		return strings.Join(ks, ", ")
	}
	return names(orig) + " → " + names(rw)
}

// writeNative writes what Comet ran natively of each side, from its
// executed plan and its own report, and the verdict on the rewrite's
// projection: an exact rewrite Comet does not run natively is verified,
// not native.
func writeNative(b *strings.Builder, p *evidence.Plans) {
	rw := p.Rewrite.Native
	if rw.ProjectionNative {
		fmt.Fprintf(b, "Native: the rewrite's projection (%s) runs natively in Comet: no row/columnar transition below it, no fallback reason, no JVM codegen dispatch.\n\n", rw.Projection)
	} else {
		fmt.Fprintf(b, "Native: verified, not native. The rewrite is exact, but Comet does not run its projection (%s) natively: %s.\n\n", rw.Projection, rw.NotNative)
	}
	b.WriteString("| | operators accelerated | transitions | projection | fallback reasons | JVM codegen dispatch |\n|---|---|---|---|---|---|\n")
	for _, side := range []struct {
		name string
		c    *plan.NativeCoverage
	}{{"original", p.Original.Native}, {"rewrite", rw}} {
		c := side.c
		proj := c.Projection + ", native"
		if !c.ProjectionNative {
			proj = c.Projection + ", not native: " + c.NotNative
		}
		fmt.Fprintf(b, "| %s | %d of %d | %d | %s | %s | %s |\n", side.name, c.OperatorsAccelerated, c.OperatorsEligible, c.Transitions,
			mdtext.Text(proj), mdtext.Text(listOrNone(c.Fallbacks)), mdtext.Text(listOrNone(c.Dispatched)))
	}
	fmt.Fprintf(b, "\nComet's summaries: original %s; rewrite %s\n\n", mdtext.Code(p.Original.Native.Summary), mdtext.Code(rw.Summary))
}

func listOrNone(xs []string) string {
	if len(xs) == 0 {
		return "none"
	}
	return strings.Join(xs, "; ")
}
