package sparkversion

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// databricksSpark maps a Databricks Runtime LTS release to the Apache
// Spark it is built on (Databricks' release notes: 12.2 LTS is Spark
// 3.3.2, 13.3 LTS 3.4.1, 14.3 and 15.4 LTS 3.5.0, 16.4 LTS 3.5.2, 17.3
// LTS 4.0.0). A runtime not listed is not guessed.
var databricksSpark = map[string]string{
	"12.2": "3.3", "13.3": "3.4", "14.3": "3.5", "15.4": "3.5", "16.4": "3.5", "17.3": "4.0",
}

// DatabricksSpark is the Spark major.minor of a Databricks Runtime as
// clusters name it ("15.4", "15.4 LTS", "15.4.x-scala2.12"), or ok=false
// for one udfx does not know.
func DatabricksSpark(runtime string) (minor string, ok bool) {
	s := strings.TrimSpace(runtime)
	if i := strings.IndexAny(s, " -"); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSuffix(s, ".x")
	minor, ok = databricksSpark[s]
	return minor, ok
}

// DatabricksRuntimes lists the runtimes DatabricksSpark knows, for
// messages.
func DatabricksRuntimes() string {
	return "12.2, 13.3, 14.3, 15.4, 16.4, 17.3"
}

// SparkSpec is udfx.yaml's spark entry: the Spark a repository's jobs run
// on, stated for a repository whose files pin none (a cluster image, a
// Databricks runtime).
type SparkSpec struct {
	// Version is the Spark major.minor; Runtime the Databricks Runtime it
	// came from, when stated so.
	Version, Runtime string
	Line             int
	Text             string
	// ANSI, when stated (`ansi: false`), is spark.sql.ansi.enabled as the
	// jobs run, where it is not the version's default (a cluster or job
	// setting udfx cannot read from the code); ANSILine and ANSIText
	// where it was stated.
	ANSI     *bool
	ANSILine int
	ANSIText string
}

// SpecError is a spark entry ParseSparkSpec cannot read with certainty,
// at Line of the file.
type SpecError struct {
	Line int
	Msg  string
}

func (e *SpecError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

func specErr(line int, format string, args ...any) *SpecError {
	return &SpecError{Line: line, Msg: fmt.Sprintf(format, args...)}
}

// ParseSparkSpec reads the spark entry of a udfx.yaml mapping: either
// `version: "3.5"` or `databricks_runtime: "15.4"`, and optionally
// `ansi: true|false`. An entry it cannot read with certainty is an error
// naming the line (harness/config refuses the file with it); no entry is
// a nil spec.
func ParseSparkSpec(node *yaml.Node) (*SparkSpec, *SpecError) {
	if node.Kind != yaml.MappingNode {
		return nil, specErr(node.Line, "spark: want a mapping with version or databricks_runtime")
	}
	var spec *SparkSpec
	var ansi *yaml.Node
	for i := 0; i+1 < len(node.Content); i += 2 {
		k, v := node.Content[i], node.Content[i+1]
		if k.Value == "ansi" {
			if ansi != nil {
				return nil, specErr(k.Line, "spark: ansi is given twice")
			}
			if v.Kind != yaml.ScalarNode || v.Tag != "!!bool" {
				return nil, specErr(v.Line, "spark: ansi: want true or false (spark.sql.ansi.enabled as the jobs run)")
			}
			ansi = v
			continue
		}
		if spec != nil {
			return nil, specErr(k.Line, "spark: give one of version and databricks_runtime")
		}
		if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
			return nil, specErr(v.Line, "spark: %s: want a string", k.Value)
		}
		text := strings.TrimSpace(k.Value + ": " + v.Value)
		switch k.Value {
		case "version":
			rel, ok := parseRelease(v.Value)
			minor, two := majorMinor(rel)
			if !ok || !two || len(rel) > 3 {
				return nil, specErr(v.Line, "spark: version %q: want major.minor, such as \"3.5\"", v.Value)
			}
			spec = &SparkSpec{Version: minor, Line: v.Line, Text: text}
		case "databricks_runtime":
			minor, ok := DatabricksSpark(v.Value)
			if !ok {
				return nil, specErr(v.Line, "spark: databricks_runtime %q: udfx knows the Spark of the LTS runtimes %s; state another with version", v.Value, DatabricksRuntimes())
			}
			spec = &SparkSpec{Version: minor, Runtime: v.Value, Line: v.Line, Text: text}
		default:
			return nil, specErr(k.Line, "spark: unknown key %q (want version or databricks_runtime, and optionally ansi)", k.Value)
		}
	}
	if spec == nil {
		if ansi != nil {
			return nil, specErr(ansi.Line, "spark: ansi needs version or databricks_runtime beside it: a mode means something only for a version")
		}
		return nil, specErr(node.Line, "spark: want version or databricks_runtime")
	}
	if ansi != nil {
		on := ansi.Value == "true" || ansi.Value == "True" || ansi.Value == "TRUE"
		spec.ANSI, spec.ANSILine, spec.ANSIText = &on, ansi.Line, "spark: ansi: "+ansi.Value
	}
	return spec, nil
}

// ParseUdfxYAML reads the spark entry of a udfx.yaml as a declaration. A
// file that does not parse, or whose entry is not certain, declares
// nothing here; harness/config refuses it with the reason.
func ParseUdfxYAML(rel string, data []byte) []Declared {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil
	}
	root := doc.Content[0]
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value != "spark" {
			continue
		}
		spec, serr := ParseSparkSpec(root.Content[i+1])
		if serr != nil {
			return nil
		}
		return []Declared{{Version: spec.Version, File: rel, Line: spec.Line, Text: "spark: " + spec.Text,
			ANSI: spec.ANSI, ANSILine: spec.ANSILine, ANSIText: spec.ANSIText}}
	}
	return nil
}
