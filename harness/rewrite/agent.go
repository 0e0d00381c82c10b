// Package rewrite runs udfx's four rewrite stages on one UDF: scaffold
// (spec, inputs, the original run twice to prove it deterministic, the
// baseline), convert (an Agent proposes candidates; a candidate is
// accepted only when the differential test passes), benchmark (the
// original against each accepted candidate on the same inputs) and
// optimize (further candidates while any gets faster and still passes).
// Each stage checks the evidence of the one before it before it starts.
//
// The result is a workspace (.udfx/<udf>/), the rewrite files and their
// evidence record under evidence.Dir, and a unified diff that adds them
// and changes the UDF's use sites; Apply applies that diff atomically.
package rewrite

import (
	"context"
	"fmt"

	"github.com/udfx/udfx/harness/render/sparksql"
	"github.com/udfx/udfx/harness/translate"
	"github.com/udfx/udfx/harness/translate/ir"
	"github.com/udfx/udfx/harness/udf"
)

// Targets this package can produce, named as udf.TargetInfos names them.
// sql is proved by the differential test; columnar and cuda are rendered
// from the IR of a verified sql candidate (see renderTargets).
const (
	TargetSQL      = string(udf.TargetSQL)
	TargetColumnar = string(udf.TargetColumnar)
	TargetCUDA     = string(udf.TargetCUDA)
)

// Spec is what an agent is given: the UDF as the front-end found it, its
// file's source, and the targets the user asked for.
type Spec struct {
	UDF     *udf.UDF
	Source  []byte
	Targets []string
	// ANSIOff says the proof runs on a Spark with spark.sql.ansi.enabled
	// false (Spark 3.5's default), whose integral operators wrap as the
	// JVM's do: a sql candidate may use them plainly.
	ANSIOff bool
	// Check runs the differential test on a candidate over the
	// scaffold's inputs and records it among the outcome's tried
	// candidates, as the stages do for every proposed candidate; an agent
	// that iterates (a model) learns from its verdict and counterexample.
	// A candidate Check has already judged is not tested again when it
	// is proposed. Set by Run; nil outside it.
	Check func(ctx context.Context, c Candidate) (*Tried, error)
	// Bench times an accepted candidate against the original on the
	// scaffold's inputs. Set by Run; nil outside it.
	Bench func(ctx context.Context, c Candidate) (*Bench, error)
}

// Candidate is one proposed rewrite.
type Candidate struct {
	Target string `json:"target"`
	// SQL is the Spark SQL expression over the UDF's parameters (target
	// sql).
	SQL string `json:"sql"`
	// File is the rewrite module of a vectorized-python candidate,
	// relative to the repository root.
	File string `json:"file,omitempty"`
	// Origin says who produced it and how ("built-in translator").
	Origin string `json:"origin"`
	// IR is the translator's expression the SQL was rendered from; the
	// columnar and CUDA rewrites are rendered from it once the SQL is
	// verified. Nil for a candidate from an agent without the translator.
	IR ir.Expr `json:"-"`
	// PythonUnicode is translate.Result.PythonUnicode: the candidate is
	// exact only where the original runs on a CPython with that Unicode.
	PythonUnicode string `json:"python_unicode,omitempty"`
	// JDKCase is translate.Result.JDKCase: the candidate is exact only
	// where the original runs on that JDK.
	JDKCase string `json:"jdk_case,omitempty"`
}

// Decline is a construct an agent will not rewrite, with its reason.
type Decline struct {
	Target    string `json:"target"`
	Construct string `json:"construct"`
	Reason    string `json:"reason"`
	// Where is the construct's span in the source ("8:5-8:20").
	Where string `json:"where"`
}

func (d Decline) String() string {
	return fmt.Sprintf("%s (%s): %s: %s", d.Where, d.Target, d.Construct, d.Reason)
}

// Agent proposes rewrites. The built-in agent is an exact translator; an
// LLM agent implements the same interface. Agents only propose: the
// stages accept a candidate only after the differential test passes.
type Agent interface {
	// Name identifies the agent in reports ("built-in translator").
	Name() string
	// Convert proposes candidates for the spec's targets and declines
	// what it cannot rewrite. An error means the agent itself failed.
	Convert(ctx context.Context, spec *Spec) ([]Candidate, []Decline, error)
	// Optimize proposes candidates that may be faster than best; attempt
	// counts from 1. No candidates means the agent has nothing more.
	Optimize(ctx context.Context, spec *Spec, best Candidate, attempt int) ([]Candidate, error)
}

// Builtin is the offline agent over package translate: one exact sql
// candidate per UDF, carrying its IR, or the translator's declines. The
// other targets are rendered from that IR by the stages, not proposed
// here: they are only offered beside a verified sql rewrite.
type Builtin struct {
	// Alternatives makes Optimize propose the equivalent forms of the
	// translator's expression (ir.WithoutNullGuard), each to be proved
	// and timed beside it (udfx rewrite --optimize).
	Alternatives bool
}

// Name implements Agent.
func (Builtin) Name() string { return "built-in translator" }

// Convert implements Agent.
func (Builtin) Convert(_ context.Context, spec *Spec) ([]Candidate, []Decline, error) {
	var cands []Candidate
	var declines []Decline
	for _, target := range spec.Targets {
		if target != TargetSQL {
			continue
		}
		res, err := translate.Translate(spec.UDF, spec.Source)
		if err != nil {
			return nil, nil, fmt.Errorf("built-in translator: %w", err)
		}
		for _, d := range res.Declines {
			declines = append(declines, Decline{Target: TargetSQL, Construct: d.Construct, Reason: d.Reason, Where: d.Span.String()})
		}
		if res.SQL != "" {
			sql, origin := res.SQL, "built-in translator"
			if spec.ANSIOff {
				if s, ok := renderANSIOff(res.IR); ok {
					sql, origin = s, ANSIOffOrigin
				}
			}
			cands = append(cands, Candidate{Target: TargetSQL, SQL: sql, Origin: origin, IR: res.IR, PythonUnicode: res.PythonUnicode, JDKCase: res.JDKCase})
		}
	}
	return cands, declines, nil
}

// ANSIOffOrigin names the built-in translator's candidate for a Spark
// with ANSI off that uses Spark's own wrapping arithmetic.
const ANSIOffOrigin = "built-in translator, for ANSI off: the JVM's wrapping int and long arithmetic as Spark's own operators, which wrap alike with ANSI off"

// renderANSIOff renders e's form for a Spark with ANSI off
// (ir.ForANSIOff); ok is false when it has no other form. Candidate.IR
// stays e: the columnar and CUDA targets render the same meaning.
func renderANSIOff(e ir.Expr) (string, bool) {
	off, ok := ir.ForANSIOff(e)
	if !ok {
		return "", false
	}
	sql, err := sparksql.Render(off)
	return sql, err == nil
}

// AlternativeOrigin names a candidate of Builtin.Optimize.
const AlternativeOrigin = "built-in optimizer: the null guard removed (Spark's operators already return NULL for a NULL input)"

// Optimize implements Agent. Without Alternatives the translator's
// candidate is its only one. With them, the first attempt proposes the
// equivalent forms of best's expression; the stage proves and times
// each and keeps the fastest.
func (b Builtin) Optimize(_ context.Context, spec *Spec, best Candidate, attempt int) ([]Candidate, error) {
	if !b.Alternatives || attempt > 1 || best.IR == nil || best.Target != TargetSQL {
		return nil, nil
	}
	e, ok := ir.WithoutNullGuard(best.IR)
	if !ok {
		return nil, nil
	}
	sql, err := sparksql.Render(e)
	if err != nil {
		return nil, nil // no exact SQL form: nothing to propose
	}
	if spec != nil && spec.ANSIOff {
		if s, ok := renderANSIOff(e); ok {
			sql = s
		}
	}
	return []Candidate{{Target: TargetSQL, SQL: sql, Origin: AlternativeOrigin, IR: e, PythonUnicode: best.PythonUnicode, JDKCase: best.JDKCase}}, nil
}
