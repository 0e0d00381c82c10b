package scan

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/udfx/udfx/harness/udf"
)

// SARIF 2.1.0, the subset udfx writes. Field names follow the standard.
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
	ID                   string            `json:"id"`
	Name                 string            `json:"name"`
	ShortDescription     sarifText         `json:"shortDescription"`
	FullDescription      sarifText         `json:"fullDescription"`
	DefaultConfiguration sarifRuleDefaults `json:"defaultConfiguration"`
}

type sarifRuleDefaults struct {
	Level string `json:"level"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID           string          `json:"ruleId"`
	RuleIndex        int             `json:"ruleIndex"`
	Level            string          `json:"level"`
	Message          sarifText       `json:"message"`
	Locations        []sarifLocation `json:"locations"`
	RelatedLocations []sarifLocation `json:"relatedLocations,omitempty"`
	Properties       map[string]any  `json:"properties,omitempty"`
}

type sarifLocation struct {
	ID               *int                  `json:"id,omitempty"`
	PhysicalLocation sarifPhysicalLocation `json:"physicalLocation"`
	Message          *sarifText            `json:"message,omitempty"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           sarifRegion   `json:"region"`
}

type sarifArtifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}

// ruleParseError is the rule for files that could not be parsed.
const ruleParseError = "parse-error"

// kindDescriptions describe each UDF kind for the SARIF rules.
var kindDescriptions = map[udf.Kind]string{
	udf.KindFunctionClass:  "A Scala class extending Function1..22 used as a Spark UDF.",
	udf.KindUDFClass:       "A class implementing Spark's UDF1..22 interface.",
	udf.KindHiveUDF:        "A Hive simple UDF (evaluate methods) called from Spark SQL.",
	udf.KindHiveGenericUDF: "A Hive GenericUDF called from Spark SQL.",
	udf.KindLambda:         "An anonymous function made a Spark UDF.",
	udf.KindFunctionRef:    "A named method made a Spark UDF.",
	udf.KindPythonUDF:      "A Python function run row by row as a Spark UDF.",
	udf.KindPandasUDF:      "A vectorized pandas_udf.",
	udf.KindRDDLambda:      "A Python function passed to an RDD transformation, run row by row in the Python worker.",
}

func ruleID(k udf.Kind) string { return "udf-" + string(k) }

// WriteSARIF writes res as a SARIF 2.1.0 log: one rule per finding kind
// (each UDF kind, and parse errors), one result per UDF with its use sites
// as related locations, and one warning per file that did not parse. Paths
// are relative, under the base id SRCROOT.
func WriteSARIF(w io.Writer, res *Result, version string) error {
	rules := make([]sarifRule, 0, len(udf.Kinds)+1)
	index := map[string]int{}
	for _, k := range udf.Kinds {
		index[ruleID(k)] = len(rules)
		rules = append(rules, sarifRule{
			ID:                   ruleID(k),
			Name:                 "UDF" + pascal(string(k)),
			ShortDescription:     sarifText{Text: "Spark UDF: " + string(k)},
			FullDescription:      sarifText{Text: kindDescriptions[k] + " It forces rows out of a columnar or native pipeline; udfx can try to rewrite it."},
			DefaultConfiguration: sarifRuleDefaults{Level: "note"},
		})
	}
	index[ruleParseError] = len(rules)
	rules = append(rules, sarifRule{
		ID:                   ruleParseError,
		Name:                 "ParseError",
		ShortDescription:     sarifText{Text: "File could not be parsed"},
		FullDescription:      sarifText{Text: "udfx could not parse this file, so UDFs in it were not found."},
		DefaultConfiguration: sarifRuleDefaults{Level: "warning"},
	})

	results := make([]sarifResult, 0, len(res.UDFs)+len(res.Errors))
	for i := range res.UDFs {
		u := &res.UDFs[i]
		msg := fmt.Sprintf("%s %s %s %s", u.Language, u.Kind, u.Name, Signature(u))
		if len(u.RegisteredNames) > 0 {
			msg += ", registered as " + strings.Join(u.RegisteredNames, ", ")
		}
		if ts := FeasibleTargets(u); len(ts) > 0 {
			msg += "; rewrite targets that look feasible: " + strings.Join(ts, ", ")
		} else {
			msg += "; no rewrite target looks feasible"
		}
		r := sarifResult{
			RuleID:    ruleID(u.Kind),
			RuleIndex: index[ruleID(u.Kind)],
			Level:     "note",
			Message:   sarifText{Text: msg},
			Locations: []sarifLocation{location(u.File, u.Span, nil)},
			Properties: map[string]any{
				"registeredNames": u.RegisteredNames,
				"nullSkipsCall":   u.NullSkipsCall,
				"targets":         u.Targets,
			},
		}
		for j, site := range u.UseSites {
			id := j + 1
			r.RelatedLocations = append(r.RelatedLocations, location(u.File, site.Span, &sarifText{Text: "use (" + string(site.Kind) + ")"}))
			r.RelatedLocations[j].ID = &id
		}
		results = append(results, r)
	}
	for _, e := range res.Errors {
		results = append(results, sarifResult{
			RuleID:    ruleParseError,
			RuleIndex: index[ruleParseError],
			Level:     "warning",
			Message:   sarifText{Text: e.Message},
			Locations: []sarifLocation{location(e.File, udf.Span{Start: e.Pos}, nil)},
		})
	}
	log := sarifLog{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs: []sarifRun{{
			Tool: sarifTool{Driver: sarifDriver{
				Name:           "udfx",
				Version:        version,
				InformationURI: "https://github.com/udfx/udfx",
				Rules:          rules,
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

// pascal turns "function-class" into "FunctionClass".
func pascal(s string) string {
	var b strings.Builder
	for _, part := range strings.Split(s, "-") {
		if part != "" {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String()
}

// artifact makes a SARIF artifact location: a relative path becomes a
// URI reference under SRCROOT, an absolute one a file:// URI.
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

func location(file string, span udf.Span, msg *sarifText) sarifLocation {
	return sarifLocation{
		PhysicalLocation: sarifPhysicalLocation{
			ArtifactLocation: artifact(file),
			Region: sarifRegion{
				StartLine: span.Start.Line, StartColumn: span.Start.Column,
				EndLine: span.End.Line, EndColumn: span.End.Column,
			},
		},
		Message: msg,
	}
}
