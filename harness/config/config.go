// Package config reads udfx.yaml, the reviewed file at the repository root
// that declares the relaxations a project accepts for some of its UDFs;
// rewrite and verify both read it through here.
package config

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/udfx/udfx/harness/value"
	"github.com/udfx/udfx/internal/sparkversion"
)

// File is the reviewed file, at the repository root, that declares
// the relaxations a project accepts for some of its UDFs. The gate
// honours a relaxation only when this file grants it: a record's own
// claims never loosen the re-run.
const File = "udfx.yaml"

// Relaxation is one UDF's entry in the config: what it relaxes and why.
type Relaxation struct {
	// UDF is the UDF's name; File, when set, its source file (relative to
	// the repository root), for two UDFs of one name.
	UDF  string `json:"udf"`
	File string `json:"file,omitempty"`
	// ULP, Rel and Abs are floating-point tolerances, LenientSignedZero
	// makes -0.0 equal 0.0 (value.Policy).
	ULP               int64   `json:"ulp,omitempty"`
	Rel               float64 `json:"rel,omitempty"`
	Abs               float64 `json:"abs,omitempty"`
	LenientSignedZero bool    `json:"lenient_signed_zero,omitempty"`
	// AllowErrorToNull accepts NULL from the rewrite where the original
	// throws.
	AllowErrorToNull bool `json:"allow_error_to_null,omitempty"`
	// ANSI, when set, is spark.sql.ansi.enabled as the project runs this
	// UDF's jobs (the default is on, Spark 4's default).
	ANSI *bool `json:"ansi,omitempty"`
	// Reason is the reviewed justification; never empty.
	Reason string `json:"reason"`
	// DeclaredAt is "udfx.yaml:LINE"; ConfigPath and Line the same apart.
	DeclaredAt string `json:"declared_at"`
	ConfigPath string `json:"-"`
	Line       int    `json:"-"`
}

// Policy is the comparison policy the entry grants.
func (r *Relaxation) Policy() value.Policy {
	return value.Policy{LenientSignedZero: r.LenientSignedZero, ULP: r.ULP, Rel: r.Rel, Abs: r.Abs}
}

// Config is the parsed File of one repository.
type Config struct {
	// Path is the file's path as reports name it ("" when the repository
	// has none).
	Path        string
	Relaxations []*Relaxation
	// Spark, when set, is the Spark the repository's jobs run on, stated
	// for a repository whose files pin none; package sparkversion reads
	// it as the root folder's declaration.
	Spark *sparkversion.SparkSpec
}

// For returns the entry granting relaxations to the UDF name defined in
// file, or nil. An entry naming the file wins over one that does not.
func (c *Config) For(name, file string) *Relaxation {
	if c == nil {
		return nil
	}
	var any *Relaxation
	for _, r := range c.Relaxations {
		if r.UDF != name {
			continue
		}
		if r.File == file {
			return r
		}
		if r.File == "" {
			any = r
		}
	}
	return any
}

// Error is a File udfx cannot accept: the gate refuses to run
// rather than guess what a reviewer meant.
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// Load reads repo/udfx.yaml; a repository without one has an empty
// config (no relaxations). display is how errors name the file.
func Load(repo, display string) (*Config, error) {
	b, err := os.ReadFile(filepath.Join(repo, File))
	if errors.Is(err, fs.ErrNotExist) {
		return &Config{}, nil
	}
	if err != nil {
		return nil, &Error{File: display, Msg: err.Error()}
	}
	return Parse(display, b)
}

// relaxationKeys are the keys of an entry, in the order errors list them.
var relaxationKeys = []string{"udf", "file", "ulp", "rel", "abs", "signed_zero", "allow_error_to_null", "ansi", "reason"}

// Parse parses a File's content. Unknown keys, wrong types,
// negative or non-finite tolerances, an entry without a reason or without
// any relaxation, and two entries for one UDF are errors naming the line.
func Parse(display string, b []byte) (*Config, error) {
	cfg := &Config{Path: display}
	fail := func(n *yaml.Node, format string, args ...any) error {
		line := 0
		if n != nil {
			line = n.Line
		}
		return &Error{File: display, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, &Error{File: display, Msg: strings.TrimPrefix(err.Error(), "yaml: ")}
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return cfg, nil // empty file
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, fail(root, "want a mapping with the keys version, relaxations and spark")
	}
	seen := map[string]int{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		switch k.Value {
		case "version":
			if v.Kind != yaml.ScalarNode || v.Value != "1" {
				return nil, fail(v, "version %q: this udfx reads version 1", v.Value)
			}
		case "relaxations":
			if v.Kind != yaml.SequenceNode {
				return nil, fail(v, "relaxations: want a list of entries")
			}
			for _, e := range v.Content {
				r, err := parseRelaxation(display, e, fail)
				if err != nil {
					return nil, err
				}
				key := r.UDF + "\x00" + r.File
				if line, dup := seen[key]; dup {
					return nil, fail(e, "a second entry for %s (the first is at line %d)", describeEntry(r), line)
				}
				seen[key] = e.Line
				cfg.Relaxations = append(cfg.Relaxations, r)
			}
		case "spark":
			spec, serr := sparkversion.ParseSparkSpec(v)
			if serr != nil {
				return nil, &Error{File: display, Line: serr.Line, Msg: serr.Msg}
			}
			cfg.Spark = spec
		default:
			return nil, fail(k, "unknown key %q (want version, relaxations, spark)", k.Value)
		}
	}
	return cfg, nil
}

func describeEntry(r *Relaxation) string {
	if r.File != "" {
		return r.UDF + " in " + r.File
	}
	return r.UDF
}

func parseRelaxation(display string, e *yaml.Node, fail func(*yaml.Node, string, ...any) error) (*Relaxation, error) {
	if e.Kind != yaml.MappingNode {
		return nil, fail(e, "a relaxation: want a mapping with the keys %s", strings.Join(relaxationKeys, ", "))
	}
	r := &Relaxation{DeclaredAt: fmt.Sprintf("%s:%d", display, e.Line), ConfigPath: display, Line: e.Line}
	relaxes := false
	str := func(v *yaml.Node, key string) (string, error) {
		if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
			return "", fail(v, "%s: want a string", key)
		}
		return v.Value, nil
	}
	tolerance := func(v *yaml.Node, key string) (float64, error) {
		f, err := strconv.ParseFloat(v.Value, 64)
		if v.Kind != yaml.ScalarNode || err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f < 0 {
			return 0, fail(v, "%s %q: want a finite number >= 0", key, v.Value)
		}
		return f, nil
	}
	boolean := func(v *yaml.Node, key string) (bool, error) {
		if v.Kind == yaml.ScalarNode && v.Tag == "!!bool" {
			return strconv.ParseBool(strings.ToLower(v.Value))
		}
		return false, fail(v, "%s %q: want true or false", key, v.Value)
	}
	for i := 0; i+1 < len(e.Content); i += 2 {
		k, v := e.Content[i], e.Content[i+1]
		var err error
		switch k.Value {
		case "udf":
			r.UDF, err = str(v, "udf")
		case "file":
			r.File, err = str(v, "file")
		case "reason":
			r.Reason, err = str(v, "reason")
			// A plain scalar ends at " #": "(reviewed in #123)" would
			// silently lose everything from the #.
			if err == nil && v.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) == 0 && v.LineComment != "" {
				return nil, fail(v, "reason: YAML reads %q as a comment, so the reason would be cut to %q: quote it (reason: \"...\")", v.LineComment, v.Value)
			}
		case "ulp":
			n, perr := strconv.ParseInt(v.Value, 10, 64)
			if v.Kind != yaml.ScalarNode || perr != nil || n < 0 {
				return nil, fail(v, "ulp %q: want a whole number >= 0", v.Value)
			}
			r.ULP, relaxes = n, relaxes || n > 0
		case "rel":
			r.Rel, err = tolerance(v, "rel")
			relaxes = relaxes || r.Rel > 0
		case "abs":
			r.Abs, err = tolerance(v, "abs")
			relaxes = relaxes || r.Abs > 0
		case "signed_zero":
			switch v.Value {
			case "strict":
			case "lenient":
				r.LenientSignedZero, relaxes = true, true
			default:
				return nil, fail(v, "signed_zero %q: want strict or lenient", v.Value)
			}
		case "allow_error_to_null":
			r.AllowErrorToNull, err = boolean(v, "allow_error_to_null")
			relaxes = relaxes || r.AllowErrorToNull
		case "ansi":
			var on bool
			on, err = boolean(v, "ansi")
			r.ANSI = &on
			relaxes = relaxes || !on
		default:
			return nil, fail(k, "unknown key %q in a relaxation (want %s)", k.Value, strings.Join(relaxationKeys, ", "))
		}
		if err != nil {
			return nil, err
		}
	}
	switch {
	case strings.TrimSpace(r.UDF) == "":
		return nil, fail(e, "a relaxation without udf: name the UDF it applies to")
	case strings.TrimSpace(r.Reason) == "":
		return nil, fail(e, "the relaxation of %s has no reason: say why the project accepts it", describeEntry(r))
	case !relaxes:
		return nil, fail(e, "the relaxation of %s relaxes nothing (give ulp, rel, abs, signed_zero: lenient, allow_error_to_null: true or ansi: false)", describeEntry(r))
	}
	return r, nil
}

// Describe lists what the entry relaxes, each with its reason and where
// it is declared, for reports.
func (r *Relaxation) Describe() []string {
	var out []string
	add := func(what string) {
		out = append(out, fmt.Sprintf("%s (%s: %s)", what, r.DeclaredAt, oneLine(r.Reason)))
	}
	if r.ULP > 0 {
		add(fmt.Sprintf("within %d ulp", r.ULP))
	}
	if r.Rel > 0 {
		add(fmt.Sprintf("within relative %g", r.Rel))
	}
	if r.Abs > 0 {
		add(fmt.Sprintf("within absolute %g", r.Abs))
	}
	if r.LenientSignedZero {
		add("-0.0 equals 0.0")
	}
	if r.AllowErrorToNull {
		add("NULL accepted where the original throws")
	}
	if r.ANSI != nil && !*r.ANSI {
		add("ANSI off")
	}
	return out
}

// oneLine is s with its runs of white space as single spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
