package verify

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/udfx/udfx/harness/sarif"
	"github.com/udfx/udfx/internal/mdtext"
	"github.com/udfx/udfx/internal/termsafe"
)

// Summary is the one-line outcome: "3 rewrites checked: 2 pass, 1 stale-udf".
func (r *Result) Summary() string {
	counts := r.Counts()
	noun := "rewrites"
	if len(r.Items) == 1 {
		noun = "rewrite"
	}
	s := fmt.Sprintf("%d %s checked (%d records", len(r.Items), noun, r.Records)
	if r.SkipRerun {
		s += ", hashes only"
	}
	s += ")"
	parts := []string{}
	for _, st := range append([]Status{Pass}, FailureStatuses...) {
		if n := counts[st]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, st))
		}
	}
	if len(parts) > 0 {
		s += ": " + strings.Join(parts, ", ")
	}
	return s
}

// CacheNote says which records were re-run now and which were taken from
// the proof cache; "" when the run had no cache.
func (r *Result) CacheNote() string {
	switch r.ProofCache {
	case "incremental":
		return fmt.Sprintf("re-run now: %d records; unchanged since a passing re-run, from the proof cache: %d (--full re-runs every record)", r.Reran, r.FromCache)
	case "full":
		return fmt.Sprintf("re-run now: %d records (--full)", r.Reran)
	}
	return ""
}

// WriteTable writes one row per rewrite, then the summary.
func (r *Result) WriteTable(w io.Writer) error {
	if len(r.Items) > 0 {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "UDF\tTARGET\tSTATUS\tFILE\tDETAIL")
		for _, it := range r.Items {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", termsafe.String(it.UDF), termsafe.String(it.Target), it.Status, termsafe.String(it.File), termsafe.String(oneLine(it.Detail)))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if r.Python != "" {
		fmt.Fprintf(w, "Python: %s (%s%s)\n", termsafe.String(r.Python), r.PythonFrom, hashNote(r.PythonSHA256))
	}
	if rs := r.RelaxationsInForce(); len(rs) > 0 {
		fmt.Fprintln(w, "relaxations in force (granted by udfx.yaml):")
		for _, rl := range rs {
			fmt.Fprintf(w, "  %s: %s\n", termsafe.String(rl.UDF), termsafe.String(rl.Relaxation))
		}
	}
	if n := r.CacheNote(); n != "" {
		fmt.Fprintln(w, n)
	}
	_, err := fmt.Fprintln(w, r.Summary())
	return err
}

// InForce is one relaxation in force for one UDF's rewrite; Location is
// the udfx.yaml entry that grants it.
type InForce struct {
	UDF        string
	Record     string
	Relaxation string
	Location   Location
}

// RelaxationsInForce lists each relaxation once per record, in the items'
// order.
func (r *Result) RelaxationsInForce() []InForce {
	var out []InForce
	seen := map[string]bool{}
	for _, it := range r.Items {
		for _, rl := range it.Relaxations {
			k := it.Record + "\x00" + rl
			if seen[k] {
				continue
			}
			seen[k] = true
			loc := it.relaxedAt
			if loc.File == "" {
				loc = it.Location
			}
			out = append(out, InForce{UDF: it.UDF, Record: it.Record, Relaxation: rl, Location: loc})
		}
	}
	return out
}

// WriteMarkdown writes the table as GitHub-flavoured Markdown, for
// $GITHUB_STEP_SUMMARY.
func (r *Result) WriteMarkdown(w io.Writer) error {
	verdict := "passed"
	if !r.Passed() {
		verdict = "failed"
	}
	fmt.Fprintf(w, "### udfx verify: %s\n\n%s\n\n", verdict, mdtext.Text(r.Summary()))
	if len(r.Items) > 0 {
		fmt.Fprintln(w, "| UDF | Target | Status | File | Detail |")
		fmt.Fprintln(w, "|---|---|---|---|---|")
		for _, it := range r.Items {
			fmt.Fprintf(w, "| %s | %s | %s | `%s` | %s |\n", mdtext.Text(termsafe.String(it.UDF)), mdtext.Text(it.Target), it.Status, mdtext.Text(termsafe.String(it.File)), mdtext.Text(it.Detail))
		}
		fmt.Fprintln(w)
	}
	if r.Python != "" {
		fmt.Fprintf(w, "Python: `%s` (%s%s)\n\n", mdtext.Text(r.Python), mdtext.Text(r.PythonFrom), hashNote(r.PythonSHA256))
	}
	if n := r.CacheNote(); n != "" {
		fmt.Fprintf(w, "%s\n\n", mdtext.Text(n))
	}
	if rs := r.RelaxationsInForce(); len(rs) > 0 {
		fmt.Fprintln(w, "Relaxations in force (granted by udfx.yaml):")
		fmt.Fprintln(w)
		for _, rl := range rs {
			fmt.Fprintf(w, "- %s: %s\n", mdtext.Text(rl.UDF), mdtext.Text(rl.Relaxation))
		}
		fmt.Fprintln(w)
	}
	return nil
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// JSONSchemaVersion is the version of the --format json document.
const JSONSchemaVersion = 1

// WriteJSON writes the result as documented in docs/verify-json.md.
func (r *Result) WriteJSON(w io.Writer, version string) error {
	counts := map[string]int{}
	for k, n := range r.Counts() {
		counts[string(k)] = n
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	items := make([]Item, len(r.Items))
	for i, it := range r.Items {
		if it.Relaxations == nil {
			it.Relaxations = []string{}
		}
		items[i] = it
	}
	return enc.Encode(struct {
		SchemaVersion int            `json:"schema_version"`
		Tool          string         `json:"tool"`
		Root          string         `json:"root"`
		Passed        bool           `json:"passed"`
		Records       int            `json:"records"`
		SkipRerun     bool           `json:"skip_rerun"`
		Python        string         `json:"python,omitempty"`
		PythonFrom    string         `json:"python_from,omitempty"`
		PythonSHA256  string         `json:"python_sha256,omitempty"`
		ProofCache    string         `json:"proof_cache,omitempty"`
		Reran         int            `json:"reran"`
		FromCache     int            `json:"from_cache"`
		Counts        map[string]int `json:"counts"`
		Items         []Item         `json:"items"`
	}{JSONSchemaVersion, "udfx " + version, r.Root, r.Passed(), r.Records, r.SkipRerun, r.Python, r.PythonFrom, r.PythonSHA256,
		r.ProofCache, r.Reran, r.FromCache, counts, items})
}

// hashNote is "; sha256 " and the first 12 digits of h, "" without one.
func hashNote(h string) string {
	if h == "" {
		return ""
	}
	return "; sha256 " + h[:12]
}

var ruleNames = map[Status]string{
	StaleUDF: "StaleUDF", StaleRewrite: "StaleRewrite", Unverified: "UnverifiedRewrite",
	Failed: "FailedRewrite", Mismatch: "RewriteMismatch", Error: "VerifyError",
	WrongEngine: "WrongEngine", StaleUseSite: "StaleUseSite", UndeclaredRelaxation: "UndeclaredRelaxation",
	InconsistentRecord: "InconsistentRecord", InterruptedApply: "InterruptedApply",
}

// RelaxationRule is the SARIF rule of the notes that show each relaxation
// in force: not a failure, but a reviewer should see it.
const RelaxationRule = "relaxation"

// WriteSARIF writes a SARIF 2.1.0 log: a rule per failure status, a
// result per failing rewrite at its location, paths relative under
// %SRCROOT%. Passing rewrites produce no result.
func (r *Result) WriteSARIF(w io.Writer, version string) error {
	rules := make([]sarif.Rule, len(FailureStatuses))
	index := map[Status]int{}
	for i, st := range FailureStatuses {
		index[st] = i
		rules[i] = sarif.Rule{
			ID: string(st), Name: ruleNames[st],
			ShortDescription:     sarif.Text{Text: "udfx verify: " + string(st)},
			FullDescription:      sarif.Text{Text: Describe(st)},
			DefaultConfiguration: sarif.Configuration{Level: "error"},
		}
	}
	rules = append(rules, sarif.Rule{
		ID: RelaxationRule, Name: "Relaxation",
		ShortDescription:     sarif.Text{Text: "udfx verify: relaxation in force"},
		FullDescription:      sarif.Text{Text: "The rewrite is held to less than bit-exact, ANSI-on, errors-compared equality because the repository's udfx.yaml declares it, with the reason shown."},
		DefaultConfiguration: sarif.Configuration{Level: "note"},
	})
	results := []sarif.Result{}
	for _, rl := range r.RelaxationsInForce() {
		results = append(results, sarif.Result{
			RuleID: RelaxationRule, RuleIndex: len(rules) - 1, Level: "note",
			Message: sarif.Text{Text: fmt.Sprintf("%s is verified with a relaxation: %s", rl.UDF, rl.Relaxation)},
			Locations: []sarif.Location{{PhysicalLocation: sarif.PhysicalLocation{
				ArtifactLocation: sarif.Artifact(rl.Location.File),
				Region:           &sarif.Region{StartLine: max(rl.Location.Line, 1)},
			}}},
			Properties: map[string]any{"udf": rl.UDF, "record": rl.Record, "relaxation": rl.Relaxation},
		})
	}
	for _, it := range r.Items {
		if it.Status == Pass {
			continue
		}
		props := map[string]any{"udf": it.UDF, "target": it.Target, "rewrite": it.File}
		if it.Record != "" {
			props["record"] = it.Record
		}
		if len(it.Relaxations) > 0 {
			props["relaxations"] = it.Relaxations
		}
		if it.Counterexample != nil {
			props["counterexample"] = it.Counterexample
		}
		results = append(results, sarif.Result{
			RuleID: string(it.Status), RuleIndex: index[it.Status], Level: "error",
			Message: sarif.Text{Text: fmt.Sprintf("%s (%s rewrite %s): %s", it.UDF, it.Target, it.File, oneLine(it.Detail))},
			Locations: []sarif.Location{{PhysicalLocation: sarif.PhysicalLocation{
				ArtifactLocation: sarif.Artifact(it.Location.File),
				Region:           &sarif.Region{StartLine: max(it.Location.Line, 1)},
			}}},
			Properties: props,
		})
	}
	return sarif.Write(w, version, rules, results)
}

// JUnit XML, the common subset CI systems read.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name       string           `xml:"name,attr"`
	Classname  string           `xml:"classname,attr"`
	File       string           `xml:"file,attr,omitempty"`
	Properties *junitProperties `xml:"properties,omitempty"`
	Failure    *junitProblem    `xml:"failure,omitempty"`
	Error      *junitProblem    `xml:"error,omitempty"`
}

type junitProperties struct {
	Property []junitProperty `xml:"property"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// WriteJUnit writes one testcase per rewrite; a failing rewrite's case
// has a failure (an error for Error) with the reason.
func (r *Result) WriteJUnit(w io.Writer) error {
	suite := junitSuite{Name: "udfx verify", Tests: len(r.Items)}
	for _, it := range r.Items {
		c := junitCase{Name: it.Target + " " + it.File, Classname: "udfx.verify." + it.UDF, File: it.File}
		if len(it.Relaxations) > 0 {
			c.Properties = &junitProperties{}
			for _, rl := range it.Relaxations {
				c.Properties.Property = append(c.Properties.Property, junitProperty{Name: "relaxation", Value: rl})
			}
		}
		switch it.Status {
		case Pass:
		case Error:
			suite.Errors++
			c.Error = &junitProblem{Message: oneLine(it.Detail), Type: string(it.Status), Text: it.Detail}
		default:
			suite.Failures++
			text := it.Detail
			if it.Record != "" {
				text += "\nrecord: " + it.Record
			}
			c.Failure = &junitProblem{Message: oneLine(it.Detail), Type: string(it.Status), Text: text}
		}
		suite.Cases = append(suite.Cases, c)
	}
	doc := junitSuites{Name: "udfx verify", Tests: suite.Tests, Failures: suite.Failures, Errors: suite.Errors, Suites: []junitSuite{suite}}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// MaxAnnotations caps the GitHub annotations written: GitHub shows at
// most 10 error annotations per step, and more would only hide the rest.
const MaxAnnotations = 10

// WriteAnnotations writes a GitHub Actions `::error` workflow command per
// failing rewrite, at most MaxAnnotations, then a line saying how many
// more there are.
func (r *Result) WriteAnnotations(w io.Writer) error {
	var failing []Item
	for _, it := range r.Items {
		if it.Status != Pass {
			failing = append(failing, it)
		}
	}
	sort.SliceStable(failing, func(i, j int) bool { return statusRank(failing[i].Status) < statusRank(failing[j].Status) })
	for i, it := range failing {
		if i == MaxAnnotations {
			_, err := fmt.Fprintf(w, "udfx verify: %d more failing rewrites not annotated; see the step summary for the full table\n", len(failing)-MaxAnnotations)
			return err
		}
		title := "udfx verify: " + string(it.Status)
		msg := fmt.Sprintf("%s (%s rewrite %s): %s", it.UDF, it.Target, it.File, it.Detail)
		if _, err := fmt.Fprintf(w, "::error file=%s,line=%d,title=%s::%s\n",
			escapeProperty(it.Location.File), max(it.Location.Line, 1), escapeProperty(title), escapeData(msg)); err != nil {
			return err
		}
	}
	return nil
}

func statusRank(s Status) int {
	for i, st := range FailureStatuses {
		if st == s {
			return i
		}
	}
	return len(FailureStatuses)
}

// escapeData escapes a workflow command's message as the Actions runner
// unescapes it.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a workflow command's property value.
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
