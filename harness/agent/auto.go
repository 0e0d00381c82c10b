package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/udfx/udfx/harness/rewrite"
)

// Auto runs the built-in translator first and asks the model only for
// what the translator declined (or whose candidate the differential test
// refuted), and for the optimize stage, where the translator has nothing
// further.
type Auto struct {
	Builtin rewrite.Agent
	Model   *OpenAI
	// Log receives a line when the model fails and the built-in result
	// stands; nil discards.
	Log func(string)
}

// Name implements rewrite.Agent.
func (a *Auto) Name() string {
	return a.Builtin.Name() + ", then " + a.Model.Name()
}

// Transcripts lists the model's conversations (see OpenAI.Transcripts).
func (a *Auto) Transcripts() []string { return a.Model.Transcripts() }

func (a *Auto) log(s string) {
	if a.Log != nil {
		a.Log(s)
	}
}

// Convert implements rewrite.Agent.
func (a *Auto) Convert(ctx context.Context, spec *rewrite.Spec) ([]rewrite.Candidate, []rewrite.Decline, error) {
	cands, declines, err := a.Builtin.Convert(ctx, spec)
	if err != nil {
		return nil, nil, err
	}
	var refuted []string
	if spec.Check != nil {
		// Judge the translator's candidates now: the model is only needed
		// when none of them passes. Check records them, so the stages do
		// not test them again.
		for _, c := range cands {
			t, err := spec.Check(ctx, c)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: %w", a.Builtin.Name(), err)
			}
			if t.Accepted {
				return cands, declines, nil
			}
			refuted = append(refuted, fmt.Sprintf("- candidate %d, %s: %s", t.Index, c.SQL, t.Reason))
		}
	} else if len(cands) > 0 {
		return cands, declines, nil
	}
	var ctxText strings.Builder
	ctxText.WriteString("udfx's built-in translator went first.")
	if len(declines) > 0 {
		ctxText.WriteString(" It declined:\n")
		for _, d := range declines {
			ctxText.WriteString("- " + d.String() + "\n")
		}
	}
	if len(refuted) > 0 {
		ctxText.WriteString(" Its candidates were refuted by the differential test:\n" + strings.Join(refuted, "\n") + "\n")
	}
	a.Model.SetContext(spec, ctxText.String())
	mc, md, err := a.Model.Convert(ctx, spec)
	if err != nil {
		var ee *EndpointError
		if !errors.As(err, &ee) {
			return nil, nil, err
		}
		// The translator's declines stand; the endpoint's failure is
		// one more reason no rewrite was found.
		a.log("agent: the model failed, the built-in translator's result stands: " + ee.Error())
		return cands, append(declines, rewrite.Decline{
			Target: rewrite.TargetSQL, Construct: "the UDF " + spec.UDF.Name,
			Reason: a.Model.Name() + ": " + ee.Error(), Where: spec.UDF.Span.String(),
		}), nil
	}
	if len(mc) > 0 {
		// The translator's declines are dropped only when the model's
		// answer to them already passed; otherwise the stages judge the
		// model's candidates and the declines explain a failure.
		judged := a.Model.judgedFor(spec)
		for _, c := range mc {
			if t := judged[c.SQL]; t != nil && t.Accepted {
				return append(cands, mc...), nil, nil
			}
		}
		return append(cands, mc...), declines, nil
	}
	return cands, append(declines, md...), nil
}

// Optimize implements rewrite.Agent: the translator has one candidate
// per UDF, so the model is asked. A failing endpoint ends the stage with
// the best candidate kept, not the rewrite.
func (a *Auto) Optimize(ctx context.Context, spec *rewrite.Spec, best rewrite.Candidate, attempt int) ([]rewrite.Candidate, error) {
	cands, err := a.Builtin.Optimize(ctx, spec, best, attempt)
	if err != nil || len(cands) > 0 {
		return cands, err
	}
	cands, err = a.Model.Optimize(ctx, spec, best, attempt)
	var ee *EndpointError
	if errors.As(err, &ee) {
		a.log("agent: the model failed in the optimize stage, the best candidate is kept: " + ee.Error())
		return nil, nil
	}
	return cands, err
}
