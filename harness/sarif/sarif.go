// Package sarif writes the subset of SARIF 2.1.0 that udfx's reports use
// (scan's findings, verify's failures): one run, rules with a default
// level, results with physical locations whose relative paths sit under
// the base id SRCROOT, columns counted in Unicode code points.
package sarif

import (
	"encoding/json"
	"io"
	"net/url"
	"strings"
)

// Log is a SARIF log. Field names follow the standard.
type Log struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []Run  `json:"runs"`
}

// Run is one tool run.
type Run struct {
	Tool       Tool     `json:"tool"`
	ColumnKind string   `json:"columnKind"`
	Results    []Result `json:"results"`
}

// Tool names the tool that made the run.
type Tool struct {
	Driver Driver `json:"driver"`
}

// Driver is the tool and its rules.
type Driver struct {
	Name           string `json:"name"`
	Version        string `json:"version"`
	InformationURI string `json:"informationUri"`
	Rules          []Rule `json:"rules"`
}

// Rule is one kind of finding.
type Rule struct {
	ID                   string        `json:"id"`
	Name                 string        `json:"name"`
	ShortDescription     Text          `json:"shortDescription"`
	FullDescription      Text          `json:"fullDescription"`
	DefaultConfiguration Configuration `json:"defaultConfiguration"`
}

// Configuration is a rule's default level: note, warning or error.
type Configuration struct {
	Level string `json:"level"`
}

// Text is a message.
type Text struct {
	Text string `json:"text"`
}

// Result is one finding.
type Result struct {
	RuleID           string         `json:"ruleId"`
	RuleIndex        int            `json:"ruleIndex"`
	Level            string         `json:"level"`
	Message          Text           `json:"message"`
	Locations        []Location     `json:"locations"`
	RelatedLocations []Location     `json:"relatedLocations,omitempty"`
	Properties       map[string]any `json:"properties,omitempty"`
}

// Location is where a finding is.
type Location struct {
	ID               *int             `json:"id,omitempty"`
	PhysicalLocation PhysicalLocation `json:"physicalLocation"`
	Message          *Text            `json:"message,omitempty"`
}

// PhysicalLocation is a file and a region of it.
type PhysicalLocation struct {
	ArtifactLocation ArtifactLocation `json:"artifactLocation"`
	Region           *Region          `json:"region,omitempty"`
}

// ArtifactLocation is a file's URI.
type ArtifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

// Region is a span of lines and columns, 1-based.
type Region struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}

// Artifact makes a slash-separated path a URI: a relative path becomes a
// URI reference under SRCROOT, an absolute one a file:// URI.
func Artifact(file string) ArtifactLocation {
	segs := strings.Split(file, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	uri := strings.Join(segs, "/")
	if strings.HasPrefix(file, "/") {
		return ArtifactLocation{URI: "file://" + uri}
	}
	return ArtifactLocation{URI: uri, URIBaseID: "SRCROOT"}
}

// Write writes a log of one udfx run with the given rules and results.
func Write(w io.Writer, version string, rules []Rule, results []Result) error {
	if results == nil {
		results = []Result{}
	}
	log := Log{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs: []Run{{
			Tool: Tool{Driver: Driver{
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
