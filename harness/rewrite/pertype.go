package rewrite

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/pertype"
	"github.com/udfx/udfx/internal/typeinfer"
)

// openParams reports whether per-type proving applies to opts: some
// parameter's type no source gives, the return type is known, and the
// agent is the built-in translator (a model would be asked once per type).
func openParams(opts Options) bool {
	u := opts.UDF
	if u.Return == nil || vectorizedOnly(opts.Targets) {
		return false
	}
	if _, ok := opts.Agent.(Builtin); !ok {
		return false
	}
	for _, p := range u.Params {
		if p.Type == nil {
			return true
		}
	}
	return false
}

// runPerType proves a UDF whose parameter types no source gives once per
// type the body admits (package pertype): the agent proposes a rewrite
// per assignment of types, each test runs the scaffold and the
// differential test of the guard in its own folder of the workspace. The
// first verified assignment then goes through the stages as any typed UDF
// does (its test, benchmark, patch and record), with every assignment's
// test in the record.
func runPerType(ctx context.Context, opts Options) (*Outcome, error) {
	u := opts.UDF
	as, err := pertype.Assignments(u, opts.Source)
	if errors.Is(err, pertype.ErrTooMany) {
		return nil, &OriginalError{Err: fmt.Errorf("%w (%v)", typeinfer.Missing(u), err)}
	} else if err != nil {
		return nil, err
	}
	var declines []Decline
	// The guard follows CPython's Unicode where any branch does.
	translate := func(a pertype.Assignment) (pertype.Translation, error) {
		cands, ds, err := opts.Agent.Convert(ctx, &Spec{UDF: a.UDF, Source: opts.Source, Targets: []string{TargetSQL}, ANSIOff: !opts.ansi()})
		if err != nil {
			return pertype.Translation{}, err
		}
		declines = append(declines, ds...)
		for _, c := range cands {
			if c.Target == TargetSQL {
				if c.PythonUnicode != "" {
					opts.pythonUnicode = c.PythonUnicode
				}
				return pertype.Translation{SQL: c.SQL}, nil
			}
		}
		if len(ds) > 0 {
			return pertype.Translation{Decline: ds[0].Construct + ": " + ds[0].Reason}, nil
		}
		return pertype.Translation{}, nil
	}
	proofs := map[string]evidence.TypedProof{}
	test := func(a pertype.Assignment, guard string, round int) (bool, string, string, error) {
		if opts.Progress != nil {
			opts.Progress(fmt.Sprintf("per type: testing the type guard with %s (round %d)", a.Label, round))
		}
		t, proof, err := proveGuard(ctx, opts, a, guard, round)
		if err != nil {
			return false, "", "", err
		}
		proofs[a.Label] = proof
		switch {
		case t.Accepted:
			return true, "", "", nil
		case t.Report == nil:
			return false, pertype.Declined, t.Reason, nil
		}
		return false, pertype.Refuted, t.Reason, nil
	}
	res, err := pertype.Prove(u, as, translate, test)
	if err != nil {
		return nil, err
	}
	if res.Guard == "" {
		ran := "No assignment of types was translated, so the original was not run"
		if len(proofs) > 0 {
			ran = "The original ran once per type, in per-type/ of this workspace"
		}
		out := &Outcome{UDF: u, Agent: opts.Agent.Name() + ", per type", Targets: []string{TargetSQL}, Workspace: opts.Workspace,
			Declines: dedupDeclines(declines), PerType: res.Verdicts, Determinism: ran}
		if err := writeWorkspace(opts, out); err != nil {
			return nil, err
		}
		return out, nil
	}

	primary := opts
	primary.UDF = res.Proved[0].UDF
	primary.Agent = guardAgent{sql: res.Guard, pythonUnicode: opts.pythonUnicode}
	primary.Targets = []string{TargetSQL}
	for i, b := range res.Proved {
		p := proofs[b.Label]
		p.SQL = res.Proved[i].SQL
		primary.perType = append(primary.perType, p)
	}
	out, err := Run(ctx, primary)
	if err != nil {
		return nil, err
	}
	if !out.Verified() {
		return nil, &EvidenceError{Stage: "per type", Msg: "the guard verified for " + res.Proved[0].Label + " failed its stages' test"}
	}
	out.PerType = res.Verdicts
	out.Declines = append(out.Declines, dedupDeclines(declines)...)
	return out, writeWorkspace(primary, out)
}

// proveGuard runs the scaffold and the differential test of the guard
// with a's types, in its own folder of the workspace, and returns what
// the record keeps of it.
func proveGuard(ctx context.Context, opts Options, a pertype.Assignment, guard string, round int) (*Tried, evidence.TypedProof, error) {
	var proof evidence.TypedProof
	o := opts
	o.UDF = a.UDF
	o.Workspace = filepath.Join(opts.Workspace, "per-type", fmt.Sprint(round), typeFolder(a.Label))
	sc, err := scaffold(ctx, o)
	if err != nil {
		var nd *NondeterministicError
		if errors.As(err, &nd) {
			return &Tried{Reason: "the original is not deterministic with these types: " + nd.Error()}, proof, nil
		}
		return nil, proof, err
	}
	defer sc.close()
	sc.spark, sc.workspace = o.Spark, o.Workspace
	t, err := tryCandidate(ctx, o, sc, &Outcome{}, Candidate{Target: TargetSQL, SQL: guard, Origin: "built-in translator, per type", PythonUnicode: opts.pythonUnicode}, "per type")
	if err != nil {
		return nil, proof, err
	}
	proof = evidence.TypedProof{SpecSHA256: evidence.SHA256(sc.specJSON), InputsSHA256: sc.inputsHash, Result: "refuted"}
	for i, name := range a.Names {
		proof.Types = append(proof.Types, evidence.ParamType{Name: name, Type: a.Types[i].String()})
	}
	if t.Report != nil {
		proof.Mismatches = t.Report.Mismatches
	}
	if t.Accepted {
		proof.Result = evidence.Verified
	}
	return t, proof, nil
}

// typeFolder is a label as a folder name.
func typeFolder(label string) string {
	return strings.NewReplacer(", ", "_", " ", "-", "<", "(", ">", ")", ",", "_").Replace(label)
}

func dedupDeclines(ds []Decline) []Decline {
	seen := map[string]bool{}
	var out []Decline
	for _, d := range ds {
		if k := d.String(); !seen[k] {
			seen[k] = true
			out = append(out, d)
		}
	}
	return out
}

// guardAgent proposes the type guard that per-type proving composed.
type guardAgent struct{ sql, pythonUnicode string }

func (guardAgent) Name() string { return "built-in translator, per type" }

func (g guardAgent) Convert(context.Context, *Spec) ([]Candidate, []Decline, error) {
	return []Candidate{{Target: TargetSQL, SQL: g.sql, Origin: "built-in translator, one branch per type", PythonUnicode: g.pythonUnicode}}, nil, nil
}

func (guardAgent) Optimize(context.Context, *Spec, Candidate, int) ([]Candidate, error) {
	return nil, nil
}
