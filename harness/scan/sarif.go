package scan

import (
	"fmt"
	"io"
	"strings"

	"github.com/udfx/udfx/harness/sarif"
	"github.com/udfx/udfx/harness/udf"
)

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
	udf.KindRDDPipeline:    "A chain of RDD transformations over a text file, each function run row by row in the Python worker; udfx rewrites the whole chain as DataFrame code.",
}

func ruleID(k udf.Kind) string { return "udf-" + string(k) }

// WriteSARIF writes res as a SARIF 2.1.0 log: one rule per finding kind
// (each UDF kind, and parse errors), one result per UDF with its use sites
// as related locations, and one warning per file that did not parse. Paths
// are relative, under the base id SRCROOT.
func WriteSARIF(w io.Writer, res *Result, version string) error {
	rules := make([]sarif.Rule, 0, len(udf.Kinds)+1)
	index := map[string]int{}
	for _, k := range udf.Kinds {
		index[ruleID(k)] = len(rules)
		rules = append(rules, sarif.Rule{
			ID:                   ruleID(k),
			Name:                 "UDF" + pascal(string(k)),
			ShortDescription:     sarif.Text{Text: "Spark UDF: " + string(k)},
			FullDescription:      sarif.Text{Text: kindDescriptions[k] + " It forces rows out of a columnar or native pipeline; udfx can try to rewrite it."},
			DefaultConfiguration: sarif.Configuration{Level: "note"},
		})
	}
	index[ruleParseError] = len(rules)
	rules = append(rules, sarif.Rule{
		ID:                   ruleParseError,
		Name:                 "ParseError",
		ShortDescription:     sarif.Text{Text: "File could not be parsed"},
		FullDescription:      sarif.Text{Text: "udfx could not parse this file, so UDFs in it were not found."},
		DefaultConfiguration: sarif.Configuration{Level: "warning"},
	})

	results := make([]sarif.Result, 0, len(res.UDFs)+len(res.Errors))
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
		r := sarif.Result{
			RuleID:    ruleID(u.Kind),
			RuleIndex: index[ruleID(u.Kind)],
			Level:     "note",
			Message:   sarif.Text{Text: msg},
			Locations: []sarif.Location{location(u.File, u.Span, nil)},
			Properties: map[string]any{
				"registeredNames": u.RegisteredNames,
				"nullSkipsCall":   u.NullSkipsCall,
				"targets":         u.Targets,
			},
		}
		for j, site := range u.UseSites {
			id := j + 1
			r.RelatedLocations = append(r.RelatedLocations, location(u.File, site.Span, &sarif.Text{Text: "use (" + string(site.Kind) + ")"}))
			r.RelatedLocations[j].ID = &id
		}
		results = append(results, r)
	}
	for _, e := range res.Errors {
		results = append(results, sarif.Result{
			RuleID:    ruleParseError,
			RuleIndex: index[ruleParseError],
			Level:     "warning",
			Message:   sarif.Text{Text: e.Message},
			Locations: []sarif.Location{location(e.File, udf.Span{Start: e.Pos}, nil)},
		})
	}
	return sarif.Write(w, version, rules, results)
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

func location(file string, span udf.Span, msg *sarif.Text) sarif.Location {
	return sarif.Location{
		PhysicalLocation: sarif.PhysicalLocation{
			ArtifactLocation: sarif.Artifact(file),
			Region: &sarif.Region{
				StartLine: span.Start.Line, StartColumn: span.Start.Column,
				EndLine: span.End.Line, EndColumn: span.End.Column,
			},
		},
		Message: msg,
	}
}
