package agent

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/agent/scripted"
	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/rewrite"
	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/runner/runners"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/udf/frontends"
)

// The tests in this file drive the model agent through a real
// rewrite.Run on the Python Celsius example: the original runs in
// CPython with pyspark, every candidate the model submits goes through
// the real differential test.

// wrongSQL multiplies by 1.8 instead of 9/5: one rounding instead of
// two, so it differs from the original in the last bit on many inputs.
const wrongSQL = "celsius * 1.8D + 32.0D"

// runCelsius runs the four stages on a copy of the example with the
// model agent behind srv.
func runCelsius(t *testing.T, srv *scripted.Server, tweak func(*Config)) (*rewrite.Outcome, *OpenAI, string) {
	t.Helper()
	root := t.TempDir()
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	src, err := os.ReadFile(filepath.Join(repo, "examples", "python-celsius", "celsius.py"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(root, "celsius.py"), src, 0o644))
	// The Python runner finds pyspark in a .venv above the UDF's file.
	require.NoError(t, os.Symlink(filepath.Join(repo, ".venv"), filepath.Join(root, ".venv")))
	fe := frontends.New(udf.Python)
	defer fe.Close()
	us, err := fe.Parse("celsius.py", src)
	require.NoError(t, err)
	require.Len(t, us, 1)
	us[0].Root = root

	ws := filepath.Join(root, ".udfx", "to_fahrenheit")
	cfg := Config{BaseURL: srv.URL(), APIKey: testKey, Model: "test-model", Workspace: ws}
	if tweak != nil {
		tweak(&cfg)
	}
	a := newAgent(t, cfg)
	out, err := rewrite.Run(context.Background(), rewrite.Options{
		UDF: &us[0], Source: src, RepoRoot: root, Workspace: ws, Targets: []string{rewrite.TargetSQL},
		Agent: a, Seed: 1, Rows: 1000, Limits: runner.DefaultLimits, NewRunner: runners.New,
		OptimizeBudget: 2, Tool: "udfx test",
	})
	require.NoError(t, err)
	require.NoError(t, srv.Err())
	assert.Zero(t, srv.Unused(), "every scripted turn was requested")
	noKeyUnder(t, ws)
	return out, a, ws
}

func submit(sql string) scripted.Turn {
	return call("submit_candidate", `{"target": "sql", "sql": "`+sql+`"}`)
}

// optimizeNothing is the optimize conversation of a model that sees
// nothing faster.
var optimizeNothing = withCheck(call("finish", `{"decline_reason": "the expression is already three operations on one column"}`),
	scripted.SystemContains("# Optimize a verified rewrite", "to_fahrenheit"))

func TestRunCorrectOnTheFirstTry(t *testing.T) {
	srv := scripted.New(
		withCheck(call("read_udf", `{}`), scripted.SystemContains("# Convert a UDF into candidates", "(celsius: double) -> double")),
		withCheck(submit(goodSQL), scripted.LastToolResultContains("return celsius * 9.0 / 5.0 + 32.0")),
		withCheck(finishWith(goodSQL), scripted.LastToolResultContains(`"accepted":true`, `"rows":1000`, `"mismatches":0`)),
		optimizeNothing,
	)
	defer srv.Close()
	out, a, ws := runCelsius(t, srv, nil)

	require.True(t, out.Verified())
	assert.Equal(t, "model test-model (OpenAI-compatible API)", out.Agent)
	require.Len(t, out.Tried, 1, "the model's submission is not tested again")
	assert.Equal(t, goodSQL, out.Best.Candidate.SQL)
	assert.Equal(t, "model test-model (OpenAI-compatible API), convert conversation 1", out.Best.Candidate.Origin)
	assert.Equal(t, 1000, out.Best.Report.Rows-out.Best.Report.NearMissRows, "the scaffold's rows")
	assert.Positive(t, out.Best.Report.NearMissRows, "and the near misses of the literals")
	assert.Equal(t, 1000, out.Record.Rows, "the record names the seeded rows it hashes")
	assert.Zero(t, out.Best.Report.Mismatches)
	require.NotNil(t, out.Record)
	assert.Equal(t, evidence.Verified, out.Record.Result)
	assert.FileExists(t, filepath.Join(ws, "evidence.json"))
	assert.FileExists(t, filepath.Join(ws, "rewrite.patch"))
	assert.Contains(t, out.Optimize, "no further candidate after attempt 1")

	assert.Equal(t, []string{"transcripts/convert-1.json", "transcripts/optimize-1.json"}, a.Transcripts())
	conv := readTranscript(t, ws, "transcripts/convert-1.json")
	assert.Equal(t, "finished", conv.Outcome)
	assert.Equal(t, 3, conv.Turns)
	assert.Equal(t, []Submission{{Candidate: 1, SQL: goodSQL, Accepted: true}}, conv.Submitted)
	opt := readTranscript(t, ws, "transcripts/optimize-1.json")
	assert.Equal(t, "declined", opt.Outcome)
	assert.Contains(t, opt.Messages[1].Content, "The current best rewrite of to_fahrenheit, verified, is:\n\n    "+goodSQL)
}

func TestRunWrongCandidateRefutedThenFixed(t *testing.T) {
	srv := scripted.New(
		submit(wrongSQL),
		withCheck(submit(goodSQL), scripted.LastToolResultContains(`"accepted":false`, `"counterexample":{"inputs":[{"name":"celsius"`, `"verdict":"rejected: refuted: differs on`)),
		withCheck(finishWith(goodSQL), scripted.LastToolResultContains(`"accepted":true`)),
		optimizeNothing,
	)
	defer srv.Close()
	out, _, ws := runCelsius(t, srv, nil)

	require.True(t, out.Verified())
	require.Len(t, out.Tried, 2)
	wrong, good := out.Tried[0], out.Tried[1]
	assert.Equal(t, wrongSQL, wrong.Candidate.SQL)
	assert.False(t, wrong.Accepted)
	require.NotNil(t, wrong.Report.Counterexample)
	assert.Positive(t, wrong.Report.Mismatches)
	assert.Same(t, good, out.Best)
	assert.Equal(t, goodSQL, good.Candidate.SQL)
	report, err := os.ReadFile(filepath.Join(ws, "report.md"))
	require.NoError(t, err)
	assert.Contains(t, string(report), "Counterexample that refuted candidate 1")
	assert.FileExists(t, filepath.Join(ws, "evidence.json"))
	conv := readTranscript(t, ws, "transcripts/convert-1.json")
	require.Len(t, conv.Submitted, 2)
	assert.False(t, conv.Submitted[0].Accepted)
	assert.True(t, conv.Submitted[1].Accepted)
}

// TestRunModelThatNeverFinishes: the model even finds the right
// expression, but never calls finish; the turn budget stops it, and since
// it stood behind no candidate nothing is recorded as verified.
func TestRunModelThatNeverFinishes(t *testing.T) {
	pages := referencePages()
	srv := scripted.New(submit(goodSQL)).Then(func(n int) scripted.Turn {
		return call("read_reference", `{"page": "`+pages[n%len(pages)]+`"}`)
	})
	defer srv.Close()
	out, a, ws := runCelsius(t, srv, func(c *Config) { c.MaxTurns = 4 })

	assert.False(t, out.Verified())
	assert.Nil(t, out.Record)
	require.Len(t, out.Declines, 1)
	assert.Equal(t, "model test-model (OpenAI-compatible API): stopped by the turn budget: 4 model requests without finishing", out.Declines[0].Reason)
	assert.NoFileExists(t, filepath.Join(ws, "evidence.json"))
	assert.NoFileExists(t, filepath.Join(ws, "rewrite.patch"))
	assert.Empty(t, out.Changes)
	report, err := os.ReadFile(filepath.Join(ws, "report.md"))
	require.NoError(t, err)
	assert.Contains(t, string(report), "result: **no verified rewrite**")
	assert.Contains(t, string(report), "stopped by the turn budget")
	assert.Len(t, srv.Requests(), 4)
	assert.Equal(t, []string{"transcripts/convert-1.json"}, a.Transcripts(), "no optimize stage without a verified candidate")
	conv := readTranscript(t, ws, "transcripts/convert-1.json")
	assert.Equal(t, "budget", conv.Outcome)
	assert.Equal(t, 4, conv.Turns)
	assert.Empty(t, conv.Candidates)
}
