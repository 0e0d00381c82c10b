package plan

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Placement says where a UDF runs.
const (
	// PlacementCPU: on the JVM or in a Python worker, fed rows (or Arrow
	// batches built from rows) by a CPU operator: a boundary an accelerated
	// pipeline must leave and re-enter.
	PlacementCPU = "cpu"
	// PlacementGPU: inside a RAPIDS GPU operator, i.e. a RapidsUDF
	// implementation or a GPU Python exec fed columnar batches.
	PlacementGPU = "gpu"
	// PlacementNative: inside a Gluten/Velox or Comet native operator.
	PlacementNative = "native"
)

// UDFNode is one UDF evaluation in the plan.
type UDFNode struct {
	// Kind is what evaluates the function: "BatchEvalPython",
	// "ArrowEvalPython", "MapInPandas", "FlatMapGroupsInPandas", ...,
	// "ScalaUDF", "HiveSimpleUDF", "HiveGenericUDF", "DatasetLambda".
	Kind string `json:"kind"`
	// Operator is the plan operator holding it, as printed.
	Operator string `json:"operator"`
	// Function is the UDF's name as printed, e.g. "to_fahrenheit",
	// "<lambda>", "HiveToFahrenheit".
	Function string `json:"function"`
	// Call is the call as printed, e.g. "to_fahrenheit(celsius#5)".
	Call      string `json:"call"`
	Placement string `json:"placement"`
	// Boundary is true when the UDF runs on the CPU row path (Placement cpu).
	Boundary bool `json:"boundary"`
	// Inferred is true for a ScalaUDF recognised only because its name is
	// not one of Spark's built-in functions (a ScalaUDF prints as name(args)).
	Inferred bool   `json:"inferred"`
	Stage    string `json:"stage"`
	Line     int    `json:"line"`
	// Note explains a placement the text cannot settle, or the engine's
	// report on this UDF.
	Note string `json:"note,omitempty"`
}

// Fallback is an operator that runs on the CPU/JVM row path in a plan of an
// accelerated engine, with the engine's reasons where it printed them.
type Fallback struct {
	Operator string   `json:"operator"`
	Stage    string   `json:"stage,omitempty"`
	Line     int      `json:"line"`
	Reasons  []string `json:"reasons"`
	// FromReport is true for a fallback known only from the engine's report
	// (no operator of that name in the tree).
	FromReport bool `json:"from_report"`
}

// Transition is one row/columnar conversion.
type Transition struct {
	// Kind is "columnar-to-row" or "row-to-columnar".
	Kind     string `json:"kind"`
	Operator string `json:"operator"`
	Stage    string `json:"stage"`
	Line     int    `json:"line"`
}

// StageCount is the number of transitions in one stage.
type StageCount struct {
	Stage         string `json:"stage"`
	ColumnarToRow int    `json:"columnar_to_row"`
	RowToColumnar int    `json:"row_to_columnar"`
	Total         int    `json:"total"`
	FirstLine     int    `json:"-"`
}

// Report is what Analyze finds in a plan.
type Report struct {
	Engine         Engine       `json:"engine"`
	EngineDetected bool         `json:"engine_detected"`
	Formatted      bool         `json:"formatted"`
	Adaptive       bool         `json:"adaptive"`
	FinalPlan      bool         `json:"final_plan"`
	Operators      int          `json:"operators"`
	UDFs           []UDFNode    `json:"udfs"`
	Fallbacks      []Fallback   `json:"fallbacks"`
	Transitions    []Transition `json:"transitions"`
	Stages         []StageCount `json:"stages"`
	// TotalTransitions counts Transitions.
	TotalTransitions int `json:"total_transitions"`
	// Comet is Comet's own coverage line (its last one, where a log holds
	// one per planning), when the text has one.
	Comet *CometSummary `json:"comet,omitempty"`
	// Dispatched are "Operator: note" for each Comet operator that runs
	// expressions through Comet's JVM codegen dispatcher.
	Dispatched []string `json:"dispatched,omitempty"`
}

// pythonOps are the operators that run Python (or typed Dataset) code, by
// their name with engine prefixes and Exec/Transformer suffixes removed.
var pythonOps = map[string]string{
	"BatchEvalPython": "BatchEvalPython", "ArrowEvalPython": "ArrowEvalPython",
	"EvalPython": "BatchEvalPython", "MapInPandas": "MapInPandas", "MapInArrow": "MapInArrow",
	"PythonMapInArrow": "MapInArrow", "MapInBatch": "MapInPandas",
	"FlatMapGroupsInPandas": "FlatMapGroupsInPandas", "FlatMapCoGroupsInPandas": "FlatMapCoGroupsInPandas",
	"FlatMapGroupsInArrow": "FlatMapGroupsInArrow", "FlatMapCoGroupsInArrow": "FlatMapCoGroupsInArrow",
	"AggregateInPandas": "AggregateInPandas", "WindowInPandas": "WindowInPandas",
	"ArrowWindowPython": "WindowInPandas", "FlatMapGroupsInPandasWithState": "FlatMapGroupsInPandasWithState",
	"PythonUDTF": "PythonUDTF", "BatchEvalPythonUDTF": "PythonUDTF", "ArrowEvalPythonUDTF": "PythonUDTF",
}

// datasetOps run typed Dataset closures: as opaque as a UDF.
var datasetOps = map[string]bool{
	"MapElements": true, "MapPartitions": true, "MapGroups": true, "FlatMapGroupsWithState": true,
	"CoGroup": true, "AppendColumns": true, "AppendColumnsWithObject": true, "MapPartitionsInR": true,
	"FlatMapGroupsInR": true,
}

// structural operators neither compute nor fall back: they wrap stages,
// reuse results or hold commands.
var structural = map[string]bool{
	"AdaptiveSparkPlan": true, "ResultQueryStage": true, "ShuffleQueryStage": true,
	"BroadcastQueryStage": true, "TableCacheQueryStage": true, "AQEShuffleRead": true,
	"CustomShuffleReader": true, "InputAdapter": true, "WholeStageCodegen": true,
	"ReusedExchange": true, "ReusedSubquery": true, "Subquery": true, "SubqueryBroadcast": true,
	"SubqueryAdaptiveBroadcast": true, "CommandResult": true, "Execute": true, "WriteFiles": true,
	"InMemoryRelation": true,
}

// baseName removes engine prefixes and Exec/Transformer suffixes:
// GpuArrowEvalPython, ColumnarArrowEvalPythonExec and
// EvalPythonExecTransformer all become their Spark operator's name.
func baseName(name string) string {
	n := name
	for _, p := range []string{"Gpu", "Comet", "Columnar", "Velox"} {
		if strings.HasPrefix(n, p) && len(n) > len(p) && n[len(p)] >= 'A' && n[len(p)] <= 'Z' {
			n = n[len(p):]
			break
		}
	}
	for _, s := range []string{"ExecTransformer", "Transformer", "Exec"} {
		if strings.HasSuffix(n, s) && len(n) > len(s) {
			n = strings.TrimSuffix(n, s)
			break
		}
	}
	return n
}

func transitionKinds(name string) []string {
	switch {
	case strings.Contains(name, "PartialProject"):
		// Gluten's ColumnarPartialProject converts the UDF's input columns to
		// rows and its result back to columns.
		return []string{"columnar-to-row", "row-to-columnar"}
	case strings.Contains(name, "ColumnarToRow"):
		return []string{"columnar-to-row"}
	case strings.Contains(name, "RowToColumnar"), strings.Contains(name, "RowToVeloxColumnar"),
		strings.Contains(name, "SparkToColumnar"), strings.Contains(name, "RowToArrowColumnar"):
		return []string{"row-to-columnar"}
	}
	return nil
}

func isExchange(name string) bool { return strings.Contains(name, "Exchange") }

// placementOf says where an operator runs in a plan of engine e.
func placementOf(n Node, e Engine) string {
	switch nodeEngine(n) {
	case EngineRapids:
		return PlacementGPU
	case EngineGluten, EngineComet:
		if strings.Contains(n.Name, "PartialProject") {
			return PlacementCPU
		}
		return PlacementNative
	}
	return PlacementCPU
}

// Analyze reports a plan's UDFs, fallbacks and transitions. Of an adaptive
// plan printed after execution it reads the final plan only (the initial
// plan repeats it as it was before AQE re-planned).
func Analyze(p *Plan) *Report {
	r := &Report{Engine: p.Engine, EngineDetected: p.Detected, Formatted: p.Formatted,
		Adaptive: p.Adaptive, FinalPlan: p.FinalPlan,
		UDFs: []UDFNode{}, Fallbacks: []Fallback{}, Transitions: []Transition{}, Stages: []StageCount{}}
	hasFinal := false
	for _, n := range p.Nodes {
		if n.Section == SectionFinal {
			hasFinal = true
			break
		}
	}
	use := make([]bool, len(p.Nodes))
	for i, n := range p.Nodes {
		use[i] = !(hasFinal && n.Section == SectionInitial)
	}
	stages := stageLabels(p, use)

	fallbackIdx := map[string][]int{} // operator base name -> r.Fallbacks indexes
	for i, n := range p.Nodes {
		if !use[i] {
			continue
		}
		r.Operators++
		stage := stages[i]
		for _, k := range transitionKinds(n.Name) {
			r.Transitions = append(r.Transitions, Transition{Kind: k, Operator: n.Name, Stage: stage, Line: n.Line})
		}
		place := placementOf(n, p.Engine)
		base := baseName(n.Name)
		switch {
		case pythonOps[base] != "":
			calls := pythonCalls(n.Args)
			if len(calls) == 0 {
				calls = []Call{{Name: "?", Text: "?"}}
			}
			for _, c := range calls {
				r.UDFs = append(r.UDFs, UDFNode{Kind: pythonOps[base], Operator: n.Name, Function: c.Name,
					Call: c.Text, Placement: place, Boundary: place == PlacementCPU, Stage: stage, Line: n.Line,
					Note: pythonNote(n, place)})
			}
		case datasetOps[base] || strings.Contains(n.Args, "$$Lambda") || strings.Contains(n.Args, "$Lambda$"):
			fn := strings.TrimSpace(strings.SplitN(n.Args, ",", 2)[0])
			r.UDFs = append(r.UDFs, UDFNode{Kind: "DatasetLambda", Operator: n.Name, Function: fn, Call: fn,
				Placement: place, Boundary: place == PlacementCPU, Stage: stage, Line: n.Line})
		case len(transitionKinds(n.Name)) == 0 && !structural[n.Name] && !strings.Contains(n.Name, "Scan"):
			seen := map[string]bool{}
			for _, c := range udfCalls(n.Args) {
				if seen[c.Text] {
					continue
				}
				seen[c.Text] = true
				u := UDFNode{Kind: c.Kind, Operator: n.Name, Function: c.Name, Call: c.Text,
					Placement: place, Boundary: place == PlacementCPU, Inferred: c.Kind == "ScalaUDF" && c.Name != "UDF",
					Stage: stage, Line: n.Line}
				switch {
				case place == PlacementGPU:
					u.Note = "inside a GPU operator: a RapidsUDF implementation runs on the GPU; with spark.rapids.sql.rowBasedUDF.enabled a plain UDF runs row by row on the CPU here"
				case place == PlacementNative && nodeEngine(n) == EngineComet && c.Kind == "ScalaUDF":
					u.Note = "inside a Comet operator: Comet runs a ScalaUDF through its JVM codegen dispatcher, the JVM function over Arrow batches, with no row transition"
				}
				r.UDFs = append(r.UDFs, u)
			}
		}
		if p.Engine != EngineSpark && p.Engine != EngineAuto && place == PlacementCPU &&
			len(transitionKinds(n.Name)) == 0 && !structural[n.Name] && !(nodeEngine(n) == EngineSpark && n.Name == "ColumnarToRow") {
			r.Fallbacks = append(r.Fallbacks, Fallback{Operator: n.Name, Stage: stage, Line: n.Line, Reasons: []string{}})
			key := reportKey(n.Name)
			fallbackIdx[key] = append(fallbackIdx[key], len(r.Fallbacks)-1)
		}
	}
	applyReports(p, r, fallbackIdx)
	if n := len(p.CometSummaries); n > 0 {
		s := p.CometSummaries[n-1]
		r.Comet = &s
	}
	for _, rep := range p.Reports {
		if rep.Dispatched {
			r.Dispatched = append(r.Dispatched, rep.Class+": "+rep.Text)
		}
	}

	byStage := map[string]int{}
	for _, t := range r.Transitions {
		k, ok := byStage[t.Stage]
		if !ok {
			r.Stages = append(r.Stages, StageCount{Stage: t.Stage, FirstLine: t.Line})
			k = len(r.Stages) - 1
			byStage[t.Stage] = k
		}
		if t.Kind == "columnar-to-row" {
			r.Stages[k].ColumnarToRow++
		} else {
			r.Stages[k].RowToColumnar++
		}
		r.Stages[k].Total++
	}
	r.TotalTransitions = len(r.Transitions)
	return r
}

func pythonNote(n Node, place string) string {
	switch place {
	case PlacementGPU:
		return "GPU exec: the Python worker gets columnar batches from the GPU, the function itself is still opaque Python"
	case PlacementNative:
		return "native exec: the Python worker gets Arrow batches without a row conversion, the function itself is still opaque Python"
	}
	return ""
}

// reportKey normalises an operator name as the engines' reports print it
// ("ProjectExec", "Project", "FileSourceScanExec", "Scan parquet t") to the
// tree's name for it.
func reportKey(class string) string {
	c := strings.Fields(class)
	if len(c) == 0 {
		return ""
	}
	n := strings.TrimSuffix(c[0], "Exec")
	switch n {
	case "FileSourceScan", "FileScan", "Scan":
		return "Scan"
	case "ShuffleExchange":
		return "Exchange"
	}
	if strings.Contains(n, "Scan") {
		return "Scan"
	}
	return n
}

// applyReports attaches the engines' report lines to the plan's fallbacks
// and UDFs; a report with nothing in the tree to attach to becomes its own
// entry.
func applyReports(p *Plan, r *Report, fallbackIdx map[string][]int) {
	next := map[string]int{}
	assigned := map[int]int{}  // report index -> r.Fallbacks index
	byReport := map[int]bool{} // r.UDFs found from a report beside a tree
	treeless := len(p.Nodes) == 0
	for i, rep := range p.Reports {
		if rep.Engine == EngineRapids && rep.Kind == "Expression" && isUDFClass(rep.Class) {
			attached := false
			for k := range r.UDFs {
				if r.UDFs[k].Call == rep.Text && (!byReport[k] || sameOperator(r.UDFs[k].Operator, parentClass(p, rep))) {
					if rep.Reason != "" {
						r.UDFs[k].Note = "cannot run on GPU because " + rep.Reason
					} else if rep.OnAccelerator && r.UDFs[k].Placement == PlacementGPU {
						r.UDFs[k].Note = "RAPIDS reports it will run on GPU: " + r.UDFs[k].Note
					}
					attached = true
				}
			}
			// With a tree, a call the text parser did not take for a UDF
			// (a ScalaUDF registered under a built-in's name prints like
			// the built-in) is still one: the report shows its class.
			if !attached && (treeless || !hasUDFCall(r.UDFs, rep.Text, parentClass(p, rep))) {
				place := PlacementCPU
				if rep.OnAccelerator {
					place = PlacementGPU
				}
				name := rep.Text
				if k := strings.IndexByte(name, '('); k > 0 {
					name = name[:k]
				}
				u := UDFNode{Kind: rep.Class, Operator: parentClass(p, rep), Function: name, Call: rep.Text,
					Placement: place, Boundary: place == PlacementCPU, Line: rep.Line}
				if rep.Reason != "" {
					u.Note = "cannot run on GPU because " + rep.Reason
				}
				if !treeless {
					u.Note = strings.TrimPrefix(u.Note+"; found by the class RAPIDS reports: the plan prints it like a built-in function", "; ")
					byReport[len(r.UDFs)] = true
				}
				r.UDFs = append(r.UDFs, u)
			}
		}
		if rep.Engine == EngineRapids && rep.Kind == "Exec" && treeless {
			if op := pythonOps[baseName(strings.TrimSuffix(rep.Class, "Exec"))]; op != "" {
				r.UDFs = append(r.UDFs, UDFNode{Kind: op, Operator: rep.Class, Function: "?", Call: "?",
					Placement: map[bool]string{true: PlacementGPU, false: PlacementCPU}[rep.OnAccelerator],
					Boundary:  !rep.OnAccelerator, Line: rep.Line, Note: rep.Reason})
			}
		}
		if rep.Engine == EngineGluten {
			// Gluten names the expression's class in its reason.
			for _, m := range glutenUDFRe.FindAllStringSubmatch(rep.Reason, -1) {
				if isUDFClass(m[2]) && !hasUDFCall(r.UDFs, m[1], rep.Class) {
					name := m[1]
					if k := strings.IndexByte(name, '('); k > 0 {
						name = name[:k]
					}
					r.UDFs = append(r.UDFs, UDFNode{Kind: m[2], Operator: rep.Class, Function: name, Call: m[1],
						Placement: PlacementCPU, Boundary: true, Line: rep.Line,
						Note: "found by the class Gluten reports: the plan prints it like a built-in function"})
				}
			}
		}
		if rep.Reason == "" {
			continue
		}
		reason, class := rep.Reason, rep.Class
		if rep.Parent >= 0 {
			// A RAPIDS expression's reason belongs to its operator.
			reason = fmt.Sprintf("%s %s: %s", rep.Class, rep.Text, rep.Reason)
			if k, ok := assigned[rep.Parent]; ok {
				r.Fallbacks[k].Reasons = append(r.Fallbacks[k].Reasons, reason)
				continue
			}
			class = p.Reports[rep.Parent].Class
		}
		key := reportKey(class)
		if k := fallbackAt(r, rep.Line); k >= 0 {
			// Comet's annotated tree: the report line is the operator.
			r.Fallbacks[k].Reasons = append(r.Fallbacks[k].Reasons, reason)
			assigned[i] = k
			continue
		}
		if idx := fallbackIdx[key]; len(idx) > 0 {
			// The n-th report of an operator goes with the n-th operator of
			// that name; surplus reports go with the last one.
			k := min(next[key], len(idx)-1)
			next[key]++
			// A log repeats a report for each planning of the query.
			if !slices.Contains(r.Fallbacks[idx[k]].Reasons, reason) {
				r.Fallbacks[idx[k]].Reasons = append(r.Fallbacks[idx[k]].Reasons, reason)
			}
			assigned[i] = idx[k]
			if rep.Parent >= 0 {
				assigned[rep.Parent] = idx[k]
			}
			continue
		}
		op := class
		if op == "" {
			op = "?"
		}
		r.Fallbacks = append(r.Fallbacks, Fallback{Operator: op, Line: rep.Line, Reasons: []string{reason}, FromReport: true})
		assigned[i] = len(r.Fallbacks) - 1
		if rep.Parent >= 0 {
			assigned[rep.Parent] = len(r.Fallbacks) - 1
		}
	}
}

// fallbackAt is the index of the fallback whose operator is on line, or -1.
func fallbackAt(r *Report, line int) int {
	for k, f := range r.Fallbacks {
		if f.Line == line && !f.FromReport {
			return k
		}
	}
	return -1
}

func parentClass(p *Plan, rep ReportLine) string {
	if rep.Parent >= 0 {
		return p.Reports[rep.Parent].Class
	}
	return ""
}

// glutenUDFRe reads Gluten's "... function name: f(c#1), class name:
// ScalaUDF" from a validation failure.
var glutenUDFRe = regexp.MustCompile(`function name: (.+?), class name: (\w+)`)

// hasUDFCall says whether a UDF with this call was already found in
// this operator (a report names the same call once per operator that
// holds it).
func hasUDFCall(us []UDFNode, call, operator string) bool {
	for _, u := range us {
		if u.Call == call && sameOperator(u.Operator, operator) {
			return true
		}
	}
	return false
}

// sameOperator compares a tree's operator name with a report's class
// (Project, ProjectExec).
func sameOperator(a, b string) bool {
	return strings.TrimSuffix(a, "Exec") == strings.TrimSuffix(b, "Exec")
}

func isUDFClass(c string) bool {
	switch c {
	case "ScalaUDF", "PythonUDF", "HiveSimpleUDF", "HiveGenericUDF", "HiveGenericUDTF", "HiveUDAFFunction", "JavaUDF":
		return true
	}
	return false
}

// stageLabels names each used node's stage: its whole-stage-codegen id
// ("*(2)", Gluten "^(2)") when it has one, else the exchange-delimited stage
// it belongs to ("stage 0" is the first to run: stages are numbered leaves
// first).
func stageLabels(p *Plan, use []bool) []string {
	root := make([]int, len(p.Nodes))
	var roots []int
	for i, n := range p.Nodes {
		if !use[i] {
			continue
		}
		if n.Parent < 0 || !use[n.Parent] || isExchange(n.Name) {
			root[i] = len(roots)
			roots = append(roots, i)
		} else {
			root[i] = root[n.Parent]
		}
	}
	labels := make([]string, len(p.Nodes))
	for i, n := range p.Nodes {
		if !use[i] {
			continue
		}
		if n.CodegenID > 0 {
			m := n.Marker
			if m == "" {
				m = "*"
			}
			labels[i] = fmt.Sprintf("%s(%d)", m, n.CodegenID)
			continue
		}
		labels[i] = fmt.Sprintf("stage %d", len(roots)-1-root[i])
	}
	return labels
}

// HasUDF parses a plan text and returns its UDF nodes: a SQL rewrite whose
// plan still holds one has not removed the UDF. It reads every UDF,
// whatever its placement; a name it does not know as a Spark built-in
// counts (Inferred), so an unknown function fails safe.
func HasUDF(text string) ([]UDFNode, error) {
	p, err := Parse(text, EngineAuto)
	if err != nil {
		return nil, err
	}
	return Analyze(p).UDFs, nil
}

// Diff is what changed between the plans before and after a rewrite.
type Diff struct {
	UDFsRemoved       []UDFNode  `json:"udfs_removed"`
	UDFsAdded         []UDFNode  `json:"udfs_added"`
	UDFsKept          []UDFNode  `json:"udfs_kept"`
	TransitionsBefore int        `json:"transitions_before"`
	TransitionsAfter  int        `json:"transitions_after"`
	FallbacksRemoved  []Fallback `json:"fallbacks_removed"`
	FallbacksAdded    []Fallback `json:"fallbacks_added"`
}

// Compare matches the two reports' UDFs by kind and function name and their
// fallbacks by operator and reasons (expression ids differ between plans).
func Compare(before, after *Report) *Diff {
	d := &Diff{UDFsRemoved: []UDFNode{}, UDFsAdded: []UDFNode{}, UDFsKept: []UDFNode{},
		FallbacksRemoved: []Fallback{}, FallbacksAdded: []Fallback{},
		TransitionsBefore: before.TotalTransitions, TransitionsAfter: after.TotalTransitions}
	udfKey := func(u UDFNode) string { return u.Kind + "\x00" + u.Function }
	left := map[string]int{}
	for _, u := range after.UDFs {
		left[udfKey(u)]++
	}
	for _, u := range before.UDFs {
		if left[udfKey(u)] > 0 {
			left[udfKey(u)]--
			d.UDFsKept = append(d.UDFsKept, u)
		} else {
			d.UDFsRemoved = append(d.UDFsRemoved, u)
		}
	}
	had := map[string]int{}
	for _, u := range before.UDFs {
		had[udfKey(u)]++
	}
	for _, u := range after.UDFs {
		if had[udfKey(u)] > 0 {
			had[udfKey(u)]--
		} else {
			d.UDFsAdded = append(d.UDFsAdded, u)
		}
	}
	fbKey := func(f Fallback) string { return f.Operator + "\x00" + strings.Join(f.Reasons, "\x00") }
	fa := map[string]int{}
	for _, f := range after.Fallbacks {
		fa[fbKey(f)]++
	}
	for _, f := range before.Fallbacks {
		if fa[fbKey(f)] > 0 {
			fa[fbKey(f)]--
		} else {
			d.FallbacksRemoved = append(d.FallbacksRemoved, f)
		}
	}
	fb := map[string]int{}
	for _, f := range before.Fallbacks {
		fb[fbKey(f)]++
	}
	for _, f := range after.Fallbacks {
		if fb[fbKey(f)] > 0 {
			fb[fbKey(f)]--
		} else {
			d.FallbacksAdded = append(d.FallbacksAdded, f)
		}
	}
	return d
}
