// Package plan reads the physical-plan text that Apache Spark, the RAPIDS
// Accelerator, Gluten/Velox and DataFusion Comet print (df.explain(),
// explain("formatted"), EXPLAIN, and the engines' "will not run natively"
// reports) and finds what a UDF rewrite is meant to remove: the UDF
// operators and expressions, the operators that fall back to the CPU/JVM
// row path, and the row/columnar transitions between the two.
//
// The parser is lenient about what it does not model (an unknown operator is
// just an operator) and strict about structure: text with no operator tree
// and no engine report is not a plan, and says so with a line number.
package plan

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Engine names the system that printed a plan.
type Engine string

// The engines udfx reads plans of. EngineAuto asks Parse to detect it.
const (
	EngineAuto   Engine = ""
	EngineSpark  Engine = "spark"
	EngineRapids Engine = "rapids"
	EngineGluten Engine = "gluten"
	EngineComet  Engine = "comet"
)

// ParseEngine reads an engine name as given on a command line; "" and
// "auto" mean detect it.
func ParseEngine(s string) (Engine, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "auto":
		return EngineAuto, nil
	case "spark":
		return EngineSpark, nil
	case "rapids":
		return EngineRapids, nil
	case "gluten", "velox":
		return EngineGluten, nil
	case "comet":
		return EngineComet, nil
	}
	return EngineAuto, fmt.Errorf("unknown engine %q: want spark, rapids, gluten or comet", s)
}

// Section says which of AQE's two plans a node belongs to.
type Section string

const (
	SectionNone    Section = ""
	SectionFinal   Section = "final"
	SectionInitial Section = "initial"
)

// Node is one operator of the tree.
type Node struct {
	// Name is the operator's name without Spark's markers (the "*(n) "
	// whole-stage-codegen and Gluten "^(n) " prefixes, the "!" missing-input
	// prefix and formatted mode's " (n)" suffix), e.g. "Project",
	// "GpuColumnarToRow", "ProjectExecTransformer", "FileScan".
	Name string
	// Args is the rest of the tree line; in formatted mode the node's
	// detail lines are appended, one per line.
	Args string
	// Line is the 1-based line of the tree line in the input.
	Line  int
	Depth int
	// Parent is the index of the parent node in Plan.Nodes, -1 for a root.
	Parent int
	// Marker is "*" (whole-stage codegen), "^" (a Gluten native stage) or "".
	Marker string
	// CodegenID is the stage id printed as *(n) / ^(n) or formatted mode's
	// [codegen id : n]; 0 when none.
	CodegenID int
	// FormattedID is formatted mode's operator number; 0 otherwise.
	FormattedID int
	Section     Section
}

// ReportLine is one line of an engine's own account of what it will not run
// natively: RAPIDS' "!Exec <ProjectExec> cannot run on GPU because ...",
// Comet's "[COMET: ...]" and "Comet cannot execute ..." lines, Gluten's
// "Validation failed for plan: ..." lines.
type ReportLine struct {
	Engine Engine
	Line   int
	// Kind is RAPIDS' "Exec", "Expression", "Partitioning", ... (empty for
	// the other engines).
	Kind string
	// Class is the operator or expression class as printed, e.g.
	// "ProjectExec", "ScalaUDF", "Project".
	Class string
	// Text is the expression as printed, where the line has one; for a
	// Comet "[COMET-INFO: ...]" note, the note.
	Text string
	// Dispatched marks a Comet operator whose note says it runs some of
	// its expressions through the JVM codegen dispatcher ("JVM codegen
	// dispatcher: cast, bround"): in Comet, but Spark's generated code,
	// not native code.
	Dispatched bool
	// OnAccelerator is true for "will run on GPU"/"could run on GPU" lines.
	OnAccelerator bool
	// Reason is why it will not run natively; empty for lines that say it will.
	Reason string
	// Parent is the index in Plan.Reports of the enclosing RAPIDS Exec line
	// of an Expression line; -1 when none.
	Parent int
}

// CometSummary is the line that ends Comet's report on a plan: "Comet
// accelerated N out of M eligible operators (P%). Final plan contains T
// transitions between Spark and Comet. Accelerated expressions: X native,
// Y codegen dispatch."
type CometSummary struct {
	Line int `json:"line"`
	// Accelerated of Eligible operators run in Comet (transitions and
	// wrappers such as AQEShuffleRead are not eligible).
	Accelerated int `json:"accelerated"`
	Eligible    int `json:"eligible"`
	// Transitions between Spark and Comet, as Comet counts them.
	Transitions int `json:"transitions"`
	// NativeExpressions are the distinct expressions Comet lowered to
	// native (DataFusion) code; Dispatched those it runs through its JVM
	// codegen dispatcher (Spark's generated code inside a Comet kernel).
	NativeExpressions int    `json:"native_expressions"`
	Dispatched        int    `json:"dispatched_expressions"`
	Text              string `json:"text"`
}

// Plan is a parsed plan text.
type Plan struct {
	Engine Engine
	// Detected is true when Engine was detected rather than forced.
	Detected bool
	Nodes    []Node
	Reports  []ReportLine
	// CometSummaries are Comet's coverage lines, in the order printed:
	// a log holds one per planning of a query (AQE plans each stage).
	CometSummaries []CometSummary
	Formatted      bool
	// Adaptive is true for an AdaptiveSparkPlan; FinalPlan when it printed
	// isFinalPlan=true (the plan after execution).
	Adaptive  bool
	FinalPlan bool
}

// ParseError says why a text is not a plan, and where.
type ParseError struct {
	Line int // 1-based; 0 when the text is empty
	Msg  string
}

func (e *ParseError) Error() string {
	if e.Line == 0 {
		return e.Msg
	}
	return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
}

var (
	codegenRe      = regexp.MustCompile(`^([*^])\((\d+)\) `)
	formattedIDRe  = regexp.MustCompile(`^(.*?) \((\d+)\)(, .*)?$`)
	detailHeadRe   = regexp.MustCompile(`^\((\d+)\) (.*?)\s*(?:\[codegen id : (\d+)\])?\s*$`)
	sectionRe      = regexp.MustCompile(`^== ([A-Za-z ]+) ==$`)
	timestampRe    = regexp.MustCompile(`^(?:\d{4}-\d\d-\d\dT[\d:.]+Z|\d\d/\d\d/\d\d \d\d:\d\d:\d\d(?: [A-Z]+ [\w.$]+:)?)\s*`)
	rapidsReportRe = regexp.MustCompile(`^([!*@])(Exec|Expression|Partitioning|Part|Input|Output|Scan|DataWritingCommand|RunnableCommand|Command)?\s*<([^<>\s]+)>\s?(.*)$`)
	glutenReportRe = regexp.MustCompile(`Validation failed (?:with exception )?for plan: ([^,\[]+?)(?:\[QueryId=\d+\])?, due to:\s*(.*)$`)
	cometTreeRe    = regexp.MustCompile(`^[\s:+\-|]*?([A-Za-z][\w$]*)\b.*?\[COMET: (.*)\]\s*$`)
	cometBecauseRe = regexp.MustCompile(`Comet cannot execute some parts of this plan natively(?: because(:)?\s*(.*))?`)
	cometInfoRe    = regexp.MustCompile(`\s*\[COMET-INFO: ([^\]]*)\]`)
	cometOpRe      = regexp.MustCompile(`^[\s:+\-|]*?([A-Za-z][\w$]*)\b`)
	cometSummaryRe = regexp.MustCompile(`Comet accelerated (\d+) out of (\d+) eligible operators \(\d+%\)\. Final plan contains (\d+) transitions? between Spark and Comet\.(?: Accelerated expressions: (\d+) native, (\d+) codegen dispatch\.)?`)
)

// Parse reads a plan text. engine EngineAuto detects the engine from the
// operator names and report lines.
func Parse(text string, engine Engine) (*Plan, error) {
	switch engine {
	case EngineAuto, EngineSpark, EngineRapids, EngineGluten, EngineComet:
	default:
		return nil, fmt.Errorf("unknown engine %q", engine)
	}
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	p := &Plan{}
	parseReports(lines, p)

	start, end, headed := physicalSection(lines)
	if err := parseTree(lines, start, end, headed, p); err != nil {
		return nil, err
	}
	if len(p.Nodes) == 0 && len(p.Reports) == 0 && len(p.CometSummaries) == 0 {
		line := 0
		for i, l := range lines {
			if strings.TrimSpace(l) != "" {
				line = i + 1
				break
			}
		}
		if headed {
			return nil, &ParseError{Line: start, Msg: "no operator tree after \"== Physical Plan ==\""}
		}
		return nil, &ParseError{Line: line, Msg: "not a physical plan: no \"== Physical Plan ==\" header, operator tree or engine report found"}
	}
	if engine == EngineAuto {
		p.Engine, p.Detected = detectEngine(p), true
	} else {
		p.Engine = engine
	}
	return p, nil
}

// physicalSection finds the lines of the "== Physical Plan ==" section
// (0-based, end exclusive); without that header the whole text is the plan,
// as executedPlan.toString and the engines' reports print it.
func physicalSection(lines []string) (start, end int, headed bool) {
	for i, l := range lines {
		if strings.TrimSpace(l) == "== Physical Plan ==" {
			end = len(lines)
			for j := i + 1; j < len(lines); j++ {
				// Sections of explain(extended) start at column 0; AQE's
				// "== Final Plan ==" is indented under "+- ".
				if sectionRe.MatchString(lines[j]) && !strings.HasPrefix(lines[j], "== Physical Plan") {
					end = j
					break
				}
			}
			return i + 1, end, true
		}
	}
	return 0, len(lines), false
}

// treePrefix measures Spark's tree prefix: units of "   " or ":  ", then an
// optional "+- " or ":- " connector.
func treePrefix(l string) (units int, connector bool, rest string) {
	i := 0
	for i+3 <= len(l) && (l[i:i+3] == "   " || l[i:i+3] == ":  ") {
		i += 3
		units++
	}
	if i+3 <= len(l) && (l[i:i+3] == "+- " || l[i:i+3] == ":- ") {
		return units, true, l[i+3:]
	}
	return units, false, l[i:]
}

func parseTree(lines []string, start, end int, headed bool, p *Plan) error {
	// Formatted mode lists each operator's details after the tree as
	// "(n) Name [codegen id : k]" blocks.
	for i := start; i < end; i++ {
		if detailHeadRe.MatchString(lines[i]) {
			p.Formatted = true
			break
		}
	}
	section := SectionNone
	inTree := false
	var stack []int // indexes of the open ancestors, by depth
	i := start
	for ; i < end; i++ {
		l := lines[i]
		if strings.TrimSpace(l) == "" {
			if inTree {
				i++
				break
			}
			continue
		}
		units, conn, rest := treePrefix(l)
		if strings.Contains(rest, "[COMET") {
			// Comet's report writes an annotated operator one space
			// further in ("+-  BatchEvalPython [COMET: ...]").
			rest = strings.TrimPrefix(rest, " ")
		}
		if strings.HasPrefix(rest, "== ") && strings.HasSuffix(strings.TrimSpace(rest), " ==") {
			switch strings.TrimSpace(rest) {
			case "== Final Plan ==":
				section = SectionFinal
			case "== Initial Plan ==":
				section = SectionInitial
			}
			continue
		}
		depth := units
		if conn {
			depth++
		}
		isRoot := units == 0 && !conn
		if !inTree {
			if !isRoot || !looksLikeNode(rest) || (isReportLine(l) && !cometTreeLine(l)) {
				if headed && !inTree && !isReportLine(l) && strings.TrimSpace(l) != "" && (conn || units > 0) {
					return &ParseError{Line: i + 1, Msg: "operator line before the tree's root"}
				}
				continue
			}
			// Without a header, a lone capitalised line is only a plan when
			// a child line follows it, or it carries a codegen marker.
			if !headed && !hasChildLine(lines, i+1, end) && !codegenRe.MatchString(rest) {
				continue
			}
			inTree = true
		} else if isRoot && section == SectionNone {
			// A second column-0 line ends the tree, unless it is formatted
			// mode's details (handled below) or text after the plan.
			break
		}
		if !conn && units > 0 && section == SectionNone {
			return &ParseError{Line: i + 1, Msg: fmt.Sprintf("indented line %q is not an operator of the tree", strings.TrimSpace(l))}
		}
		n := parseNodeLine(rest, p.Formatted)
		if n.Name == "" {
			return &ParseError{Line: i + 1, Msg: fmt.Sprintf("cannot read an operator name in %q", strings.TrimSpace(rest))}
		}
		n.Line, n.Depth, n.Section, n.Parent = i+1, depth, section, -1
		for len(stack) > 0 && p.Nodes[stack[len(stack)-1]].Depth >= depth {
			stack = stack[:len(stack)-1]
		}
		if len(stack) > 0 {
			n.Parent = stack[len(stack)-1]
		} else if len(p.Nodes) > 0 && depth > 0 {
			return &ParseError{Line: i + 1, Msg: "operator has no parent in the tree"}
		}
		p.Nodes = append(p.Nodes, n)
		stack = append(stack, len(p.Nodes)-1)
	}
	if p.Formatted {
		parseDetails(lines, i, end, p)
	}
	// Formatted mode prints isFinalPlan in the details, so look after them.
	for _, n := range p.Nodes {
		if n.Name == "AdaptiveSparkPlan" {
			p.Adaptive = true
			if strings.Contains(n.Args, "isFinalPlan=true") {
				p.FinalPlan = true
			}
		}
	}
	return nil
}

// cometTreeLine says whether a report line is an operator of Comet's
// annotated tree ("Project [COMET: ...]", "CometProject [COMET-INFO:
// ...]") rather than a log line.
func cometTreeLine(l string) bool {
	t := strings.TrimSpace(l)
	return (strings.Contains(t, "[COMET: ") || strings.Contains(t, "[COMET-INFO: ")) &&
		!strings.Contains(t, "Comet cannot execute") && !timestampRe.MatchString(t)
}

func hasChildLine(lines []string, from, end int) bool {
	if from >= end {
		return false
	}
	_, conn, _ := treePrefix(lines[from])
	return conn
}

// looksLikeNode accepts what an operator line starts with: an optional
// marker, then a capitalised name (Spark's operators are all CamelCase).
func looksLikeNode(rest string) bool {
	rest = strings.TrimPrefix(rest, "!")
	if m := codegenRe.FindString(rest); m != "" {
		rest = rest[len(m):]
	} else if strings.HasPrefix(rest, "* ") || strings.HasPrefix(rest, "^ ") {
		rest = rest[2:]
	}
	return rest != "" && rest[0] >= 'A' && rest[0] <= 'Z'
}

func isReportLine(l string) bool {
	t := strings.TrimSpace(timestampRe.ReplaceAllString(strings.TrimSpace(l), ""))
	return rapidsReportRe.MatchString(t) || strings.Contains(l, "[COMET: ") ||
		glutenReportRe.MatchString(l) || cometBecauseRe.MatchString(l)
}

func parseNodeLine(rest string, formatted bool) Node {
	var n Node
	rest = strings.TrimPrefix(rest, "!")
	if m := codegenRe.FindStringSubmatch(rest); m != nil {
		n.Marker = m[1]
		n.CodegenID, _ = strconv.Atoi(m[2])
		rest = rest[len(m[0]):]
	} else if strings.HasPrefix(rest, "* ") || strings.HasPrefix(rest, "^ ") {
		n.Marker = rest[:1]
		rest = rest[2:]
	}
	if formatted {
		if m := formattedIDRe.FindStringSubmatch(rest); m != nil {
			n.FormattedID, _ = strconv.Atoi(m[2])
			rest = strings.TrimSpace(m[1]) + m[3]
		}
	}
	end := 0
	for end < len(rest) {
		c := rest[end]
		if c == ' ' || c == '(' || c == '[' || c == ',' {
			break
		}
		end++
	}
	n.Name = rest[:end]
	n.Args = strings.TrimSpace(rest[end:])
	return n
}

// parseDetails attaches formatted mode's "(n) Name [codegen id : k]" blocks
// to the tree nodes numbered n.
func parseDetails(lines []string, from, end int, p *Plan) {
	byID := map[int][]int{}
	for i, n := range p.Nodes {
		if n.FormattedID > 0 {
			byID[n.FormattedID] = append(byID[n.FormattedID], i)
		}
	}
	cur := -1
	for i := from; i < end; i++ {
		l := lines[i]
		if m := detailHeadRe.FindStringSubmatch(l); m != nil {
			id, _ := strconv.Atoi(m[1])
			cur = id
			if m[3] != "" {
				cg, _ := strconv.Atoi(m[3])
				for _, k := range byID[id] {
					if p.Nodes[k].CodegenID == 0 {
						p.Nodes[k].CodegenID = cg
						if p.Nodes[k].Marker == "" {
							p.Nodes[k].Marker = "*"
						}
					}
				}
			}
			continue
		}
		if strings.TrimSpace(l) == "" {
			cur = -1
			continue
		}
		if cur < 0 {
			continue
		}
		for _, k := range byID[cur] {
			if p.Nodes[k].Args == "" {
				p.Nodes[k].Args = l
			} else {
				p.Nodes[k].Args += "\n" + l
			}
		}
	}
}

// parseReports reads the engines' own reports of what will not run natively.
func parseReports(lines []string, p *Plan) {
	type open struct{ indent, idx int }
	var execs []open // RAPIDS Exec lines, by indentation
	cometBullets := false
	glutenBullets := -1
	for i, raw := range lines {
		trimmed := strings.TrimSpace(raw)
		t := strings.TrimSpace(timestampRe.ReplaceAllString(trimmed, ""))
		if m := rapidsReportRe.FindStringSubmatch(t); m != nil && looksLikeRapids(m) {
			indent := len(raw) - len(strings.TrimLeft(raw, " \t"))
			r := ReportLine{Engine: EngineRapids, Line: i + 1, Kind: m[2], Class: m[3], Parent: -1}
			body := m[4]
			switch {
			case strings.Contains(body, "cannot run on GPU because "):
				k := strings.Index(body, "cannot run on GPU because ")
				r.Text = strings.TrimSpace(body[:k])
				r.Reason = strings.TrimSpace(body[k+len("cannot run on GPU because "):])
			case strings.HasSuffix(body, "will run on GPU"), strings.HasSuffix(body, "could run on GPU"):
				r.OnAccelerator = true
				r.Text = strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(body, "will run on GPU"), "could run on GPU"))
			default:
				r.Text = strings.TrimSpace(body)
			}
			for len(execs) > 0 && execs[len(execs)-1].indent >= indent {
				execs = execs[:len(execs)-1]
			}
			if r.Kind != "Exec" && r.Kind != "" && len(execs) > 0 {
				r.Parent = execs[len(execs)-1].idx
			}
			p.Reports = append(p.Reports, r)
			if r.Kind == "Exec" || (r.Kind == "" && strings.HasSuffix(r.Class, "Exec")) {
				execs = append(execs, open{indent, len(p.Reports) - 1})
			}
			continue
		}
		if m := glutenReportRe.FindStringSubmatch(raw); m != nil {
			reason := strings.TrimSuffix(strings.TrimSpace(m[2]), ".")
			p.Reports = append(p.Reports, ReportLine{Engine: EngineGluten, Line: i + 1, Class: strings.TrimSpace(m[1]), Reason: reason, Parent: -1})
			glutenBullets = -1
			if reason == "" {
				glutenBullets = len(p.Reports) - 1
			}
			continue
		}
		if glutenBullets >= 0 && strings.HasPrefix(trimmed, "- ") {
			r := &p.Reports[glutenBullets]
			if r.Reason != "" {
				r.Reason += "; "
			}
			r.Reason += strings.TrimSuffix(strings.TrimSpace(trimmed[2:]), ".")
			continue
		}
		glutenBullets = -1
		if m := cometSummaryRe.FindStringSubmatch(raw); m != nil {
			n := func(k int) int { v, _ := strconv.Atoi(m[k]); return v }
			p.CometSummaries = append(p.CometSummaries, CometSummary{Line: i + 1, Accelerated: n(1), Eligible: n(2),
				Transitions: n(3), NativeExpressions: n(4), Dispatched: n(5), Text: strings.TrimSpace(m[0])})
			cometBullets = false
			continue
		}
		if m := cometInfoRe.FindStringSubmatch(raw); m != nil {
			if op := cometOpRe.FindStringSubmatch(raw); op != nil {
				p.Reports = append(p.Reports, ReportLine{Engine: EngineComet, Line: i + 1, Class: op[1],
					Text: strings.TrimSpace(m[1]), OnAccelerator: true, Parent: -1,
					Dispatched: strings.Contains(m[1], "JVM codegen dispatcher: ")})
			}
			raw = cometInfoRe.ReplaceAllString(raw, "")
		}
		if m := cometTreeRe.FindStringSubmatch(raw); m != nil {
			p.Reports = append(p.Reports, ReportLine{Engine: EngineComet, Line: i + 1, Class: m[1], Reason: strings.TrimSpace(m[2]), Parent: -1})
			cometBullets = false
			continue
		}
		if m := cometBecauseRe.FindStringSubmatch(raw); m != nil {
			cometBullets = m[1] == ":"
			if r := strings.TrimSpace(m[2]); r != "" && !cometBullets && !strings.HasPrefix(r, "(set ") {
				p.Reports = append(p.Reports, ReportLine{Engine: EngineComet, Line: i + 1, Reason: r, Parent: -1})
			}
			continue
		}
		if cometBullets && strings.HasPrefix(trimmed, "- ") {
			p.Reports = append(p.Reports, ReportLine{Engine: EngineComet, Line: i + 1, Reason: strings.TrimSpace(trimmed[2:]), Parent: -1})
			continue
		}
		cometBullets = false
	}
}

// looksLikeRapids keeps "*Exec <X>" style lines and drops tree lines such as
// "*(1) Project" that only share the leading marker.
func looksLikeRapids(m []string) bool {
	body := m[4]
	return m[2] != "" || strings.Contains(body, " run on GPU")
}

// detectEngine picks the engine whose operators or reports the plan holds
// most of; a plain Spark plan has none.
func detectEngine(p *Plan) Engine {
	score := map[Engine]int{}
	for _, n := range p.Nodes {
		if e := nodeEngine(n); e != EngineSpark {
			score[e]++
		}
	}
	for _, r := range p.Reports {
		score[r.Engine] += 2
	}
	score[EngineComet] += 2 * len(p.CometSummaries)
	best, bestScore := EngineSpark, 0
	for _, e := range []Engine{EngineRapids, EngineGluten, EngineComet} {
		if score[e] > bestScore {
			best, bestScore = e, score[e]
		}
	}
	return best
}

// nodeEngine says which engine's operator a node is, by its name and marker.
func nodeEngine(n Node) Engine {
	switch {
	case strings.HasPrefix(n.Name, "Gpu"):
		return EngineRapids
	case strings.HasPrefix(n.Name, "Comet"):
		return EngineComet
	case n.Marker == "^", strings.HasSuffix(n.Name, "Transformer"), strings.HasPrefix(n.Name, "Velox"),
		strings.Contains(n.Name, "VeloxColumnar"), strings.HasPrefix(n.Name, "Columnar") && n.Name != "ColumnarToRow":
		return EngineGluten
	}
	return EngineSpark
}
