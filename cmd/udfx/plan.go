package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/udfx/udfx/harness/plan"
)

// planSchema names the JSON document `udfx plan --format json` writes
// (docs/plan-json.md).
const planSchema = "udfx.plan/v1"

type planOptions struct {
	format    string
	engine    string
	before    string
	after     string
	failOnUDF bool
}

func newPlanCmd(e *env) *cobra.Command {
	opts := &planOptions{}
	cmd := &cobra.Command{
		Use:   "plan FILE|-",
		Short: "Read a Spark, RAPIDS, Gluten/Velox or Comet physical plan: UDF nodes, fallbacks, row/columnar transitions",
		Long: `Plan reads physical-plan text as Apache Spark (df.explain(), explain("formatted"),
EXPLAIN), the RAPIDS Accelerator, Gluten/Velox and DataFusion Comet print it,
from FILE or, with -, from standard input, and reports:

  UDF nodes     the operators and expressions that run user code: Python UDF
                operators (BatchEvalPython, ArrowEvalPython, MapInPandas,
                FlatMapGroupsInPandas, ...), Hive UDFs, and ScalaUDF/Java UDF
                calls (printed as name(args): a name that is not a Spark
                built-in function is reported as an inferred ScalaUDF; one
                registered under a built-in's name reads like the built-in
                and is found only where the text shows its class, in RAPIDS
                or Gluten report lines; udfx's Spark engine reads UDFs by
                class from the plan's JVM tree), with what they call and
                where they run (cpu, gpu, native)
  fallbacks     for RAPIDS, Gluten and Comet plans: the operators that run on
                the CPU/JVM row path, with the engine's reason where the text
                holds its report (RAPIDS "cannot run on GPU because ..." lines,
                Gluten "Validation failed for plan" lines, Comet "[COMET: ...]"
                and "Comet cannot execute ..." lines)
  transitions   the row/columnar conversions (ColumnarToRow, GpuRowToColumnar,
                RowToVeloxColumnar, VeloxColumnarToRow, CometColumnarToRow,
                CometSparkToColumnar, ...) per stage and in total; a stage is
                a whole-stage-codegen id *(n) or Gluten ^(n) where the operator
                has one, else its exchange-delimited stage ("stage 0" runs
                first)

The engine is detected from the operator names; --engine forces it. Of an
adaptive plan printed after execution (isFinalPlan=true) only the final plan
is read. With --before and --after, plan compares the plans of the original
job and its rewrite: UDF nodes removed, transitions before -> after,
fallbacks removed and added.

--format json writes the document described in docs/plan-json.md.
--fail-on-udf exits 1 when the plan (with --after: the rewritten plan) still
holds a UDF node, for CI.

Exit codes: 0 done, 1 --fail-on-udf found a UDF node, 2 bad usage or a file
that cannot be read or is not a plan (the error names the file and line),
3 udfx could not do its job.`,
		Example: `  udfx plan plan.txt
  spark-submit job.py 2>&1 | udfx plan -
  udfx plan --format json --engine gluten explain.txt
  udfx plan --before original.txt --after rewritten.txt
  udfx plan --fail-on-udf rewritten.txt`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runPlan(e, opts, args)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&opts.format, "format", "f", "text", "output format: text or json")
	f.StringVar(&opts.engine, "engine", "auto", "engine that printed the plan: auto, spark, rapids, gluten or comet")
	f.StringVar(&opts.before, "before", "", "plan of the original job (with --after)")
	f.StringVar(&opts.after, "after", "", "plan of the rewritten job (with --before)")
	f.BoolVar(&opts.failOnUDF, "fail-on-udf", false, "exit 1 when the plan (with --after: the rewritten plan) holds a UDF node")
	return cmd
}

// planInput is one plan read and analysed.
type planInput struct {
	File   string       `json:"file"`
	Report *plan.Report `json:"report"`
}

func runPlan(e *env, opts *planOptions, args []string) error {
	if opts.format != "text" && opts.format != "json" {
		return usageErrorf("unknown --format %q: want text or json", opts.format)
	}
	engine, err := plan.ParseEngine(opts.engine)
	if err != nil {
		return usageError(err)
	}
	compare := opts.before != "" || opts.after != ""
	switch {
	case compare && (opts.before == "" || opts.after == ""):
		return usageErrorf("--before and --after go together")
	case compare && len(args) > 0:
		return usageErrorf("give either FILE or --before and --after, not both")
	case !compare && len(args) == 0:
		return usageErrorf("plan needs a FILE, - for standard input, or --before and --after\nRun 'udfx plan --help' for usage.")
	}
	if !compare {
		in, err := readPlan(e, args[0], engine)
		if err != nil {
			return err
		}
		if err := writePlanReport(e.Stdout, opts.format, in); err != nil {
			return internalError(fmt.Errorf("write report: %w", err))
		}
		return udfGate(opts, in)
	}
	before, err := readPlan(e, opts.before, engine)
	if err != nil {
		return err
	}
	after, err := readPlan(e, opts.after, engine)
	if err != nil {
		return err
	}
	diff := plan.Compare(before.Report, after.Report)
	if err := writePlanDiff(e.Stdout, opts.format, before, after, diff); err != nil {
		return internalError(fmt.Errorf("write report: %w", err))
	}
	return udfGate(opts, after)
}

func udfGate(opts *planOptions, in *planInput) error {
	if !opts.failOnUDF || len(in.Report.UDFs) == 0 {
		return nil
	}
	return &exitError{code: exitFailed, err: fmt.Errorf("plan %s: %d UDF node(s) in the plan", in.File, len(in.Report.UDFs))}
}

// readPlan reads and analyses one plan; "-" is standard input.
func readPlan(e *env, name string, engine plan.Engine) (*planInput, error) {
	var b []byte
	var err error
	if name == "-" {
		if e.Stdin == nil {
			return nil, usageErrorf("plan -: no standard input")
		}
		b, err = io.ReadAll(e.Stdin)
	} else {
		b, err = os.ReadFile(e.abs(name))
	}
	if err != nil {
		var pathErr *os.PathError
		if errors.As(err, &pathErr) {
			err = pathErr.Err
		}
		return nil, usageErrorf("plan %s: %v", name, err)
	}
	p, err := plan.Parse(string(b), engine)
	if err != nil {
		var pe *plan.ParseError
		if errors.As(err, &pe) {
			if pe.Line > 0 {
				return nil, usageErrorf("plan %s:%d: %s", name, pe.Line, pe.Msg)
			}
			return nil, usageErrorf("plan %s: %s", name, pe.Msg)
		}
		return nil, internalError(fmt.Errorf("plan %s: %w", name, err))
	}
	return &planInput{File: name, Report: plan.Analyze(p)}, nil
}

func writePlanReport(w io.Writer, format string, in *planInput) error {
	if format == "json" {
		return writeJSONDoc(w, struct {
			Schema string `json:"schema"`
			*planInput
		}{planSchema, in})
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	writePlanHeader(tw, "Plan", in)
	fmt.Fprintln(tw)
	writeUDFTable(tw, "UDF nodes", in.Report.UDFs)
	fmt.Fprintln(tw)
	writeFallbackTable(tw, "Fallbacks to the CPU row path", in.Report.Fallbacks, in.Report.Engine)
	fmt.Fprintln(tw)
	writeTransitionTable(tw, in.Report)
	writeCometSummary(tw, in.Report)
	return tw.Flush()
}

// writeCometSummary writes Comet's own count of what it accelerated,
// when the text holds its report.
func writeCometSummary(w io.Writer, r *plan.Report) {
	c := r.Comet
	if c == nil {
		return
	}
	fmt.Fprintf(w, "\nComet's report (line %d): %d of %d eligible operators accelerated, %d transitions, %d native expressions, %d through the JVM codegen dispatcher\n",
		c.Line, c.Accelerated, c.Eligible, c.Transitions, c.NativeExpressions, c.Dispatched)
	for _, d := range r.Dispatched {
		fmt.Fprintf(w, "  %s\n", d)
	}
}

func writeJSONDoc(w io.Writer, doc any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}

func writePlanHeader(w io.Writer, label string, in *planInput) {
	r := in.Report
	engine := string(r.Engine)
	if r.EngineDetected {
		engine += " (detected)"
	}
	mode := "simple"
	if r.Formatted {
		mode = "formatted"
	}
	aqe := ""
	switch {
	case r.Adaptive && r.FinalPlan:
		aqe = ", adaptive: final plan"
	case r.Adaptive:
		aqe = ", adaptive: not yet executed (isFinalPlan=false)"
	}
	fmt.Fprintf(w, "%s: %s\n", label, in.File)
	fmt.Fprintf(w, "Engine: %s, %s mode%s, %d operators\n", engine, mode, aqe, r.Operators)
}

func writeUDFTable(w io.Writer, title string, udfs []plan.UDFNode) {
	if len(udfs) == 0 {
		fmt.Fprintf(w, "%s: none\n", title)
		return
	}
	fmt.Fprintf(w, "%s (%d):\n", title, len(udfs))
	fmt.Fprintln(w, "  LINE\tSTAGE\tOPERATOR\tKIND\tCALL\tRUNS ON")
	var notes []string
	for _, u := range udfs {
		kind := u.Kind
		if u.Inferred {
			kind += "?"
		}
		runs := u.Placement
		if u.Boundary {
			runs += " (row boundary)"
		}
		fmt.Fprintf(w, "  %d\t%s\t%s\t%s\t%s\t%s\n", u.Line, orDash(u.Stage), u.Operator, kind, u.Call, runs)
		if u.Note != "" {
			notes = append(notes, fmt.Sprintf("  line %d: %s", u.Line, u.Note))
		}
	}
	for _, u := range udfs {
		if u.Inferred {
			notes = append(notes, "  ScalaUDF?: a call whose name is not a Spark built-in function (how a Scala or Java UDF prints)")
			break
		}
	}
	for _, n := range dedupe(notes) {
		fmt.Fprintln(w, n)
	}
}

func writeFallbackTable(w io.Writer, title string, fbs []plan.Fallback, engine plan.Engine) {
	if len(fbs) == 0 {
		if engine == plan.EngineSpark {
			fmt.Fprintf(w, "%s: none (a Spark plan runs every operator on the CPU)\n", title)
		} else {
			fmt.Fprintf(w, "%s: none\n", title)
		}
		return
	}
	fmt.Fprintf(w, "%s (%d):\n", title, len(fbs))
	fmt.Fprintln(w, "  LINE\tSTAGE\tOPERATOR\tREASON")
	for _, f := range fbs {
		line := fmt.Sprint(f.Line)
		if f.FromReport {
			line += " (report)"
		}
		reasons := f.Reasons
		if len(reasons) == 0 {
			reasons = []string{"-"}
		}
		fmt.Fprintf(w, "  %s\t%s\t%s\t%s\n", line, orDash(f.Stage), f.Operator, reasons[0])
		for _, r := range reasons[1:] {
			fmt.Fprintf(w, "  \t\t\t%s\n", r)
		}
	}
}

func writeTransitionTable(w io.Writer, r *plan.Report) {
	if r.TotalTransitions == 0 {
		fmt.Fprintln(w, "Row/columnar transitions: none")
		return
	}
	fmt.Fprintf(w, "Row/columnar transitions (%d):\n", r.TotalTransitions)
	fmt.Fprintln(w, "  STAGE\tCOLUMNAR-TO-ROW\tROW-TO-COLUMNAR\tTOTAL\tOPERATORS")
	for _, s := range r.Stages {
		var ops []string
		for _, t := range r.Transitions {
			if t.Stage == s.Stage {
				ops = append(ops, fmt.Sprintf("%s@%d", t.Operator, t.Line))
			}
		}
		fmt.Fprintf(w, "  %s\t%d\t%d\t%d\t%s\n", s.Stage, s.ColumnarToRow, s.RowToColumnar, s.Total, strings.Join(dedupe(ops), ", "))
	}
	fmt.Fprintf(w, "  total\t%d\t%d\t%d\n", count(r.Transitions, "columnar-to-row"), count(r.Transitions, "row-to-columnar"), r.TotalTransitions)
}

func writePlanDiff(w io.Writer, format string, before, after *planInput, d *plan.Diff) error {
	if format == "json" {
		return writeJSONDoc(w, struct {
			Schema string     `json:"schema"`
			Before *planInput `json:"before"`
			After  *planInput `json:"after"`
			Diff   *plan.Diff `json:"diff"`
		}{planSchema, before, after, d})
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	writePlanHeader(tw, "Before", before)
	writePlanHeader(tw, "After", after)
	fmt.Fprintln(tw)
	writeUDFTable(tw, "UDF nodes removed", d.UDFsRemoved)
	fmt.Fprintln(tw)
	writeUDFTable(tw, "UDF nodes still present", d.UDFsKept)
	fmt.Fprintln(tw)
	writeUDFTable(tw, "UDF nodes added", d.UDFsAdded)
	fmt.Fprintln(tw)
	fmt.Fprintf(tw, "Row/columnar transitions: %d -> %d\n", d.TransitionsBefore, d.TransitionsAfter)
	fmt.Fprintln(tw)
	writeFallbackTable(tw, "Fallbacks removed", d.FallbacksRemoved, plan.EngineAuto)
	fmt.Fprintln(tw)
	writeFallbackTable(tw, "Fallbacks added", d.FallbacksAdded, plan.EngineAuto)
	return tw.Flush()
}

func count(ts []plan.Transition, kind string) int {
	n := 0
	for _, t := range ts {
		if t.Kind == kind {
			n++
		}
	}
	return n
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func dedupe(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
