package agent

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/agent/scripted"
	"github.com/udfx/udfx/harness/rewrite"
)

// halveThrice has a loop, which the built-in translator declines.
const halveThrice = `from pyspark.sql.functions import udf
from pyspark.sql.types import DoubleType


@udf(returnType=DoubleType())
def halve_thrice(x: float) -> float:
    if x is None:
        return None
    for _ in range(3):
        x = x / 2.0
    return x
`

const halvedSQL = "x / 2.0D / 2.0D / 2.0D"

func halveSpec(t *testing.T, accept string) *rewrite.Spec {
	t.Helper()
	path := filepath.Join(t.TempDir(), "halve.py")
	require.NoError(t, os.WriteFile(path, []byte(halveThrice), 0o644))
	spec := parsedSpec(t, path, "halve_thrice", nil)
	n := 0
	spec.Check = func(_ context.Context, c rewrite.Candidate) (*rewrite.Tried, error) {
		n++
		tr := &rewrite.Tried{Index: n, Candidate: c, Accepted: c.SQL == accept}
		if !tr.Accepted {
			tr.Reason = "refuted"
		}
		return tr, nil
	}
	return spec
}

func TestAutoLeavesTheTranslatorsAcceptedCandidateAlone(t *testing.T) {
	srv := scripted.New()
	defer srv.Close()
	checked := 0
	spec := celsiusSpec(t, &checked)
	builtin, _, err := rewrite.Builtin{}.Convert(context.Background(), spec)
	require.NoError(t, err)
	require.Len(t, builtin, 1)
	require.Equal(t, builtinCelsiusSQL, builtin[0].SQL)
	auto := &Auto{Builtin: rewrite.Builtin{}, Model: newAgent(t, testConfig(t, srv))}
	cands, declines, err := auto.Convert(context.Background(), spec)
	require.NoError(t, err)
	assert.Equal(t, builtin, cands)
	assert.Empty(t, declines)
	assert.Equal(t, 1, checked)
	assert.Empty(t, srv.Requests(), "the model is not asked")
	assert.Equal(t, "built-in translator, then model test-model (OpenAI-compatible API)", auto.Name())
	assert.Empty(t, auto.Transcripts())
}

func TestAutoAsksTheModelForWhatTheTranslatorDeclined(t *testing.T) {
	srv := scripted.New(
		withCheck(submit(halvedSQL), func(r *scripted.Request) error {
			return scripted.SystemContains("halve_thrice")(r)
		}),
		withCheck(finishWith(halvedSQL), scripted.LastToolResultContains(`"accepted":true`)),
	)
	defer srv.Close()
	spec := halveSpec(t, halvedSQL)
	auto := &Auto{Builtin: rewrite.Builtin{}, Model: newAgent(t, testConfig(t, srv))}
	cands, declines, err := auto.Convert(context.Background(), spec)
	require.NoError(t, err)
	require.NoError(t, srv.Err())
	require.Len(t, cands, 1)
	assert.Equal(t, halvedSQL, cands[0].SQL)
	assert.Empty(t, declines, "the model's accepted answer replaces the translator's decline")
	user := srv.Requests()[0].Messages[1].Content
	assert.Contains(t, user, "udfx's built-in translator went first. It declined:\n- 9:5-10:20 (sql): Python for_statement")
	assert.Equal(t, []string{"transcripts/convert-1.json"}, auto.Transcripts())
}

func TestAutoKeepsTheDeclinesWhenTheModelFails(t *testing.T) {
	srv := scripted.New().Then(func(int) scripted.Turn { return scripted.Turn{Status: 503} })
	defer srv.Close()
	spec := halveSpec(t, halvedSQL)
	var logs []string
	auto := &Auto{Builtin: rewrite.Builtin{}, Model: newAgent(t, testConfig(t, srv)), Log: func(s string) { logs = append(logs, s) }}
	cands, declines, err := auto.Convert(context.Background(), spec)
	require.NoError(t, err, "an endpoint failure under auto is a decline, not a failed rewrite")
	assert.Empty(t, cands)
	require.Len(t, declines, 2)
	assert.Contains(t, declines[0].Construct, "for_statement")
	assert.Contains(t, declines[1].Reason, "the model endpoint failed after 3 attempt(s): OpenAI API error: 503 Service Unavailable")
	require.NotEmpty(t, logs)

	cands, err = auto.Optimize(context.Background(), spec, rewrite.Candidate{Target: "sql", SQL: halvedSQL}, 1)
	require.NoError(t, err)
	assert.Empty(t, cands)
}

func TestOptimizeStopsAskingOnceTheModelHasNothing(t *testing.T) {
	srv := scripted.New(
		submit("x * 0.125D"),
		withCheck(finishWith("x * 0.125D"), scripted.LastToolResultContains(`"accepted":true`)),
		withCheck(call("finish", `{"decline_reason": "nothing faster"}`), scripted.SystemContains("# Optimize a verified rewrite")),
	)
	defer srv.Close()
	spec := halveSpec(t, "x * 0.125D")
	a := newAgent(t, testConfig(t, srv))
	best := rewrite.Candidate{Target: "sql", SQL: halvedSQL}
	cands, err := a.Optimize(context.Background(), spec, best, 1)
	require.NoError(t, err)
	require.Len(t, cands, 1)
	assert.Equal(t, "x * 0.125D", cands[0].SQL)
	cands, err = a.Optimize(context.Background(), spec, cands[0], 2)
	require.NoError(t, err)
	assert.Empty(t, cands)
	cands, err = a.Optimize(context.Background(), spec, best, 3)
	require.NoError(t, err)
	assert.Empty(t, cands)
	require.NoError(t, srv.Err())
	assert.Len(t, srv.Requests(), 3, "attempt 3 is not asked")
	assert.Equal(t, []string{"transcripts/optimize-1.json", "transcripts/optimize-2.json"}, a.Transcripts())
	assert.Contains(t, srv.Requests()[2].Messages[1].Content, "- 1: x * 0.125D (accepted)")
}
