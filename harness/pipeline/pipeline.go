// Package pipeline rewrites chains of RDD transformations over a text file
// (udf.KindRDDPipeline: sc.textFile(p).flatMap(split).map((w, 1))
// .reduceByKey(add)) as DataFrame code, and makes the text both read in a
// differential test.
//
// The translation reads the chain with Python's own ast module
// (translate.py, embedded, run in the interpreter that runs the job), one
// rule per step, and declines any step it has no exact rule for, naming
// it. Package spark runs the chain and its rewrite over the same file
// and compares the collected results as multisets.
package pipeline

import (
	"context"
	_ "embed"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/internal/pyscript"
	"github.com/udfx/udfx/harness/spark"
)

//go:embed translate.py
var translateSource string

// Request names the chain to translate.
type Request struct {
	// Source is the module's text and Path its name in messages.
	Source string `json:"source"`
	Path   string `json:"path"`
	// Name is the variable the chain is assigned to (the UDF's name; a
	// NAME@LINE suffix is ignored) and Line the line its value starts on.
	Name string `json:"name"`
	Line int    `json:"line"`
	// Record is the evidence record the new code names in its comment.
	Record string `json:"record"`
}

// Translation is a chain's DataFrame rewrite.
type Translation struct {
	// New replaces the chain's value in the source (a parenthesized
	// expression, indented for its statement).
	New string `json:"new"`
	// OriginalExpr is the chain's own text with its textFile(...) call
	// (or the name bound to it) replaced by __udfx_rdd__; RewriteExpr the
	// new code with its read.text(...) replaced by __udfx_text__. Both
	// run in the module's namespace.
	OriginalExpr string `json:"original_expr"`
	RewriteExpr  string `json:"rewrite_expr"`
	// Steps say which rule rewrote each step; Notes what differs that
	// the test does not compare (the order of collect()).
	Steps []string `json:"steps"`
	Notes []string `json:"notes"`
}

// DeclineError says which step has no exact rule, and why.
type DeclineError struct{ Reason string }

func (e *DeclineError) Error() string { return "declined: " + e.Reason }

// Translate runs the translator in python.
func Translate(ctx context.Context, python string, req Request) (*Translation, error) {
	var res struct {
		Translation
		Decline string `json:"decline"`
	}
	if err := pyscript.Run(ctx, python, "pipeline: the translator", translateSource, req, &res); err != nil {
		return nil, err
	}
	if res.New == "" {
		return nil, &DeclineError{Reason: res.Decline}
	}
	return &res.Translation, nil
}

// Proof is one differential test of a chain against its translation.
type Proof struct {
	Translation *Translation
	Result      *spark.PipelineResult
	// Input is the text both sides read, and InputSHA256 its hash.
	Input       string
	InputSHA256 string
	Seed        int64
	Rows        int
}

// Equal is whether both sides collected the same multiset.
func (p *Proof) Equal() bool {
	r := p.Result
	return r.Differences == 0 && r.OriginalRows == r.RewriteRows
}

// Test runs the chain and its translation tr on session over
// Text(seed, rows), written into dir, and compares what they collect.
func Test(ctx context.Context, session *spark.Session, file, name string, tr *Translation, seed int64, rows int, dir string) (*Proof, error) {
	text := Text(seed, rows)
	input := filepath.Join(dir, fmt.Sprintf("pipeline-%s-seed%d-rows%d.txt", safe(name), seed, rows))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("pipeline: %w", err)
	}
	if err := os.WriteFile(input, text, 0o644); err != nil {
		return nil, fmt.Errorf("pipeline: %w", err)
	}
	res, err := session.PipelineTest(ctx, spark.PipelineJob{File: file, OriginalExpr: tr.OriginalExpr, RewriteExpr: tr.RewriteExpr, Input: input})
	if err != nil {
		return nil, err
	}
	return &Proof{Translation: tr, Result: res, Input: input, InputSHA256: evidence.SHA256(text), Seed: seed, Rows: rows}, nil
}

// Describe says in one line what the test compared.
func (p *Proof) Describe() string {
	r := p.Result
	if p.Equal() {
		return fmt.Sprintf("%d lines (seed %d): both collected the same %d results, as multisets, each value with its Python type", p.Rows, p.Seed, r.OriginalRows)
	}
	s := fmt.Sprintf("%d lines (seed %d): the original collected %d results, the rewrite %d; %d results differ in count", p.Rows, p.Seed, r.OriginalRows, r.RewriteRows, r.Differences)
	if len(r.Examples) > 0 {
		e := r.Examples[0]
		s += fmt.Sprintf("; e.g. %s (%s): %d in the original, %d in the rewrite", e.Item, strings.Join(e.Types, ", "), e.Original, e.Rewrite)
	}
	return s
}

func safe(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '_'
	}, s)
}
