package plan

import (
	"fmt"
	"regexp"
	"strings"
)

// NativeCoverage is what an accelerated engine ran natively of one
// executed query, from its executed plan and the engine's own report on
// it (Comet's ExtendedExplainInfo or fallback log), and whether the
// operator that computes the query's result column runs natively: the
// question a UDF rewrite is asked.
type NativeCoverage struct {
	Engine Engine `json:"engine"`
	// OperatorsAccelerated of OperatorsEligible ran in the engine, as the
	// engine counts them.
	OperatorsAccelerated int `json:"operators_accelerated"`
	OperatorsEligible    int `json:"operators_eligible"`
	// Transitions between the engine and Spark's row path, as the engine
	// counts them (the one above the root that hands rows to the caller
	// included).
	Transitions int `json:"transitions"`
	// NativeExpressions and DispatchedExpressions are the distinct
	// expressions lowered to native code and those run through Comet's
	// JVM codegen dispatcher.
	NativeExpressions     int `json:"native_expressions"`
	DispatchedExpressions int `json:"dispatched_expressions"`
	// Fallbacks are "Operator: reason" for each operator the engine did
	// not run, with its reason.
	Fallbacks []string `json:"fallbacks"`
	// Dispatched are "Operator: note" for each engine operator that
	// evaluates expressions with Spark's generated JVM code; the note
	// names them ("JVM codegen dispatcher: cast, bround") and says when a
	// native implementation exists behind a setting.
	Dispatched []string `json:"dispatched"`
	// Summary is the engine's coverage line as printed.
	Summary string `json:"summary"`
	// Projection is the operator that computes the result column, as the
	// plan names it (CometProject, Project); ProjectionNative whether it
	// runs natively: an engine operator, no row/columnar transition
	// between it and the scan, no fallback reason and no JVM codegen
	// dispatch on it. NotNative says why not.
	Projection       string `json:"projection"`
	ProjectionNative bool   `json:"projection_native"`
	NotNative        string `json:"not_native,omitempty"`
}

// Line is the coverage in one line, for reports: "2/2 operators in Comet,
// 1 transition; projection native".
func (c *NativeCoverage) Line() string {
	if c == nil {
		return "no native engine"
	}
	s := fmt.Sprintf("%d of %d operators in %s, %d %s", c.OperatorsAccelerated, c.OperatorsEligible, engineTitle(c.Engine),
		c.Transitions, plural(c.Transitions, "transition", "transitions"))
	if c.ProjectionNative {
		return s + "; " + c.Projection + " native"
	}
	return s + "; not native: " + c.NotNative
}

func engineTitle(e Engine) string {
	if e == EngineComet {
		return "Comet"
	}
	return string(e)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// CometCoverage reads Comet's account of one executed query: planText is
// the executed plan as Spark prints it (with arguments, so the operator
// that computes column can be found by its "AS column#n" alias), report
// Comet's report on the same plan (the tree with [COMET: ...] reasons and
// [COMET-INFO: ...] notes, and the "Comet accelerated N out of M" line).
func CometCoverage(planText, report, column string) (*NativeCoverage, error) {
	rp, err := Parse(report, EngineComet)
	if err != nil {
		return nil, fmt.Errorf("read Comet's report: %w", err)
	}
	if len(rp.CometSummaries) == 0 {
		return nil, fmt.Errorf("read Comet's report: no \"Comet accelerated N out of M eligible operators\" line in:\n%s", report)
	}
	sum := rp.CometSummaries[len(rp.CometSummaries)-1]
	c := &NativeCoverage{Engine: EngineComet, OperatorsAccelerated: sum.Accelerated, OperatorsEligible: sum.Eligible,
		Transitions: sum.Transitions, NativeExpressions: sum.NativeExpressions, DispatchedExpressions: sum.Dispatched,
		Fallbacks: []string{}, Dispatched: []string{}, Summary: sum.Text}
	for _, r := range rp.Reports {
		switch {
		case r.Engine != EngineComet:
		case r.Dispatched:
			c.Dispatched = append(c.Dispatched, r.Class+": "+r.Text)
		case r.OnAccelerator:
		case r.Reason != "":
			c.Fallbacks = append(c.Fallbacks, strings.TrimSpace(r.Class+": "+r.Reason))
		}
	}
	pp, err := Parse(planText, EngineComet)
	if err != nil {
		return nil, fmt.Errorf("read the executed plan: %w", err)
	}
	proj, below, ok := projectionOf(pp, column)
	if !ok {
		return nil, fmt.Errorf("no operator of the executed plan computes %s:\n%s", column, planText)
	}
	c.Projection = proj.Name
	var why []string
	if nodeEngine(proj) != EngineComet {
		why = append(why, proj.Name+" runs in Spark")
	}
	for _, n := range below {
		if len(transitionKinds(n.Name)) > 0 {
			why = append(why, n.Name+" below "+proj.Name)
		}
	}
	for _, r := range rp.Reports {
		if r.Engine == EngineComet && r.Class == proj.Name {
			if r.Dispatched {
				why = append(why, r.Text)
			} else if r.Reason != "" {
				why = append(why, r.Reason)
			}
		}
	}
	c.ProjectionNative = len(why) == 0
	c.NotNative = strings.Join(why, "; ")
	return c, nil
}

// projectionOf finds the operator that computes column and the operators
// below it, in the final plan where AQE printed one.
func projectionOf(p *Plan, column string) (Node, []Node, bool) {
	alias := regexp.MustCompile(`\bAS ` + regexp.QuoteMeta(column) + `#\d+`)
	use := make([]bool, len(p.Nodes))
	hasFinal := false
	for _, n := range p.Nodes {
		hasFinal = hasFinal || n.Section == SectionFinal
	}
	for i, n := range p.Nodes {
		use[i] = !(hasFinal && n.Section == SectionInitial)
	}
	for i, n := range p.Nodes {
		if !use[i] || !alias.MatchString(n.Args) {
			continue
		}
		var below []Node
		for j := i + 1; j < len(p.Nodes); j++ {
			if use[j] && descends(p, j, i) {
				below = append(below, p.Nodes[j])
			}
		}
		return n, below, true
	}
	return Node{}, nil, false
}

// descends says whether node j lies under node i.
func descends(p *Plan, j, i int) bool {
	for k := p.Nodes[j].Parent; k >= 0; k = p.Nodes[k].Parent {
		if k == i {
			return true
		}
	}
	return false
}
