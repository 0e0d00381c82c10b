package verify

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"net/url"
	"sort"
	"strings"
	"text/tabwriter"
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

// WriteTable writes one row per rewrite, then the summary.
func (r *Result) WriteTable(w io.Writer) error {
	if len(r.Items) > 0 {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "UDF\tTARGET\tSTATUS\tFILE\tDETAIL")
		for _, it := range r.Items {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", it.UDF, it.Target, it.Status, it.File, oneLine(it.Detail))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintln(w, r.Summary())
	return err
}

// WriteMarkdown writes the table as GitHub-flavoured Markdown, for
// $GITHUB_STEP_SUMMARY.
func (r *Result) WriteMarkdown(w io.Writer) error {
	verdict := "passed"
	if !r.Passed() {
		verdict = "failed"
	}
	fmt.Fprintf(w, "### udfx verify: %s\n\n%s\n\n", verdict, mdCell(r.Summary()))
	if len(r.Items) > 0 {
		fmt.Fprintln(w, "| UDF | Target | Status | File | Detail |")
		fmt.Fprintln(w, "|---|---|---|---|---|")
		for _, it := range r.Items {
			fmt.Fprintf(w, "| %s | %s | %s | `%s` | %s |\n", mdCell(it.UDF), mdCell(it.Target), it.Status, mdCell(it.File), mdCell(it.Detail))
		}
		fmt.Fprintln(w)
	}
	return nil
}

func mdCell(s string) string {
	s = oneLine(s)
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.ReplaceAll(s, "`", "'")
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
	items := r.Items
	if items == nil {
		items = []Item{}
	}
	return enc.Encode(struct {
		SchemaVersion int            `json:"schema_version"`
		Tool          string         `json:"tool"`
		Root          string         `json:"root"`
		Passed        bool           `json:"passed"`
		Records       int            `json:"records"`
		SkipRerun     bool           `json:"skip_rerun"`
		Counts        map[string]int `json:"counts"`
		Items         []Item         `json:"items"`
	}{JSONSchemaVersion, "udfx " + version, r.Root, r.Passed(), r.Records, r.SkipRerun, counts, items})
}

// SARIF 2.1.0, the subset udfx writes (see harness/scan/sarif.go for the
// same subset).
type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool       sarifTool     `json:"tool"`
	ColumnKind string        `json:"columnKind"`
	Results    []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string       `json:"id"`
	Name                 string       `json:"name"`
	ShortDescription     sarifText    `json:"shortDescription"`
	FullDescription      sarifText    `json:"fullDescription"`
	DefaultConfiguration sarifDefault `json:"defaultConfiguration"`
}

type sarifDefault struct {
	Level string `json:"level"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID     string          `json:"ruleId"`
	RuleIndex  int             `json:"ruleIndex"`
	Level      string          `json:"level"`
	Message    sarifText       `json:"message"`
	Locations  []sarifLocation `json:"locations"`
	Properties map[string]any  `json:"properties,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine int `json:"startLine"`
}

var ruleNames = map[Status]string{
	StaleUDF: "StaleUDF", StaleRewrite: "StaleRewrite", Unverified: "UnverifiedRewrite",
	Failed: "FailedRewrite", Mismatch: "RewriteMismatch", Error: "VerifyError",
}

// WriteSARIF writes a SARIF 2.1.0 log: a rule per failure status, a
// result per failing rewrite at its location, paths relative under
// %SRCROOT%. Passing rewrites produce no result.
func (r *Result) WriteSARIF(w io.Writer, version string) error {
	rules := make([]sarifRule, len(FailureStatuses))
	index := map[Status]int{}
	for i, st := range FailureStatuses {
		index[st] = i
		rules[i] = sarifRule{
			ID: string(st), Name: ruleNames[st],
			ShortDescription:     sarifText{Text: "udfx verify: " + string(st)},
			FullDescription:      sarifText{Text: Describe(st)},
			DefaultConfiguration: sarifDefault{Level: "error"},
		}
	}
	results := []sarifResult{}
	for _, it := range r.Items {
		if it.Status == Pass {
			continue
		}
		props := map[string]any{"udf": it.UDF, "target": it.Target, "rewrite": it.File}
		if it.Record != "" {
			props["record"] = it.Record
		}
		if it.Counterexample != nil {
			props["counterexample"] = it.Counterexample
		}
		results = append(results, sarifResult{
			RuleID: string(it.Status), RuleIndex: index[it.Status], Level: "error",
			Message: sarifText{Text: fmt.Sprintf("%s (%s rewrite %s): %s", it.UDF, it.Target, it.File, oneLine(it.Detail))},
			Locations: []sarifLocation{{PhysicalLocation: sarifPhysical{
				ArtifactLocation: artifact(it.Location.File),
				Region:           &sarifRegion{StartLine: max(it.Location.Line, 1)},
			}}},
			Properties: props,
		})
	}
	log := sarifLog{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs: []sarifRun{{
			Tool: sarifTool{Driver: sarifDriver{
				Name: "udfx", Version: version, InformationURI: "https://github.com/udfx/udfx", Rules: rules,
			}},
			ColumnKind: "unicodeCodePoints",
			Results:    results,
		}},
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(log)
}

// artifact makes a relative path a URI reference under SRCROOT and an
// absolute one a file:// URI.
func artifact(file string) sarifArtifact {
	segs := strings.Split(file, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	uri := strings.Join(segs, "/")
	if strings.HasPrefix(file, "/") {
		return sarifArtifact{URI: "file://" + uri}
	}
	return sarifArtifact{URI: uri, URIBaseID: "SRCROOT"}
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
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
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
