package agent

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/agent/scripted"
	"github.com/udfx/udfx/harness/difftest"
	"github.com/udfx/udfx/harness/rewrite"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/udf/frontends"
	"github.com/udfx/udfx/harness/value"
)

// testKey is the API key every test configures; no file the agent writes
// and no error it returns may contain it.
const testKey = "sk-udfx-test-7f3a9c2e51d04b8c"

const goodSQL = "celsius * 9.0D / 5.0D + 32.0D"

// builtinCelsiusSQL is the built-in translator's candidate for the
// example (the same as cmd/udfx's rewrite tests expect).
const builtinCelsiusSQL = "CASE WHEN (`celsius` IS NULL) THEN CAST(NULL AS DOUBLE) ELSE (((`celsius` * 9.0D) / 5.0D) + 32.0D) END"

// celsiusSpec is the Python Celsius example's spec with a Check that
// accepts exactly goodSQL and builtinCelsiusSQL, both proved by the real
// differential test in run_test.go and cmd/udfx; checked counts its
// calls.
func celsiusSpec(t *testing.T, checked *int) *rewrite.Spec {
	t.Helper()
	return parsedSpec(t, filepath.Join("..", "..", "examples", "python-celsius", "celsius.py"), "to_fahrenheit", checked)
}

func parsedSpec(t *testing.T, path, name string, checked *int) *rewrite.Spec {
	t.Helper()
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	fe := frontends.New(udf.Python)
	defer fe.Close()
	us, err := fe.Parse(filepath.Base(path), src)
	require.NoError(t, err)
	var u *udf.UDF
	for i := range us {
		if us[i].Name == name {
			u = &us[i]
		}
	}
	require.NotNil(t, u, name)
	n := 0
	spec := &rewrite.Spec{UDF: u, Source: src, Targets: []string{rewrite.TargetSQL}}
	spec.Check = func(_ context.Context, c rewrite.Candidate) (*rewrite.Tried, error) {
		n++
		if checked != nil {
			*checked = n
		}
		tr := &rewrite.Tried{Index: n, Candidate: c, Stage: "convert", Accepted: c.SQL == goodSQL || c.SQL == builtinCelsiusSQL}
		if !tr.Accepted {
			tr.Reason = "refuted: differs on 1 of 10 rows"
			tr.Report = &difftest.Report{Rows: 10, Mismatches: 1, Counterexample: &difftest.Counterexample{
				Inputs:   []difftest.NamedValue{{Name: "celsius", Value: difftest.JSONValue{Value: value.DoubleOf(1)}}},
				Original: difftest.JSONValue{Value: value.DoubleOf(33.8)}, Rewrite: difftest.JSONValue{Value: value.DoubleOf(34)},
			}}
		}
		return tr, nil
	}
	return spec
}

func testConfig(t *testing.T, srv *scripted.Server) Config {
	t.Helper()
	return Config{
		BaseURL: srv.URL(), APIKey: testKey, Model: "test-model",
		Workspace: t.TempDir(), MaxRetries: 2,
		Backoff: func(int) time.Duration { return time.Millisecond },
	}
}

func newAgent(t *testing.T, cfg Config) *OpenAI {
	t.Helper()
	a, err := New(cfg)
	require.NoError(t, err)
	return a
}

// readTranscript parses a transcript and checks that the key is nowhere
// in it.
func readTranscript(t *testing.T, ws, rel string) *Transcript {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(ws, filepath.FromSlash(rel)))
	require.NoError(t, err)
	assert.NotContains(t, string(b), testKey)
	var tr Transcript
	require.NoError(t, json.Unmarshal(b, &tr))
	return &tr
}

// noKeyUnder fails if any file under dir contains the key.
func noKeyUnder(t *testing.T, dir string) {
	t.Helper()
	require.NoError(t, filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		assert.NotContains(t, string(b), testKey, p)
		return nil
	}))
}

func call(name, args string) scripted.Turn {
	return scripted.Turn{ToolCalls: []scripted.Call{scripted.Tool(name, args)}}
}

func finishWith(sql string) scripted.Turn {
	return call("finish", `{"candidates": [{"target": "sql", "sql": "`+sql+`"}]}`)
}

func TestMalformedToolArgumentsGoBackToTheModel(t *testing.T) {
	srv := scripted.New(
		call("submit_candidate", `{"target": "sql", "sql": "celsius * 9.0D`), // cut off mid-string
		withCheck(call("submit_candidate", `{"target": "sql", "sql": 42}`),
			scripted.LastToolResultContains(`"error":"invalid arguments for submit_candidate: unexpected EOF`)),
		withCheck(call("submit_candidate", `{"target": "sql", "expression": "x"}`),
			scripted.LastToolResultContains(`cannot unmarshal number`)),
		withCheck(call("submit_candidate", `{"target": "sql", "sql": "`+goodSQL+`"}`),
			scripted.LastToolResultContains(`unknown field \"expression\"`)),
		withCheck(finishWith(goodSQL), scripted.LastToolResultContains(`"accepted":true`)),
	)
	defer srv.Close()
	checked := 0
	spec := celsiusSpec(t, &checked)
	cfg := testConfig(t, srv)
	a := newAgent(t, cfg)
	cands, declines, err := a.Convert(context.Background(), spec)
	require.NoError(t, err)
	require.NoError(t, srv.Err())
	assert.Zero(t, srv.Unused())
	assert.Empty(t, declines)
	require.Len(t, cands, 1)
	assert.Equal(t, goodSQL, cands[0].SQL)
	assert.Equal(t, "model test-model (OpenAI-compatible API), convert conversation 1", cands[0].Origin)
	assert.Equal(t, 1, checked, "only the well-formed call reaches the differential test")

	assert.Equal(t, []string{"transcripts/convert-1.json"}, a.Transcripts())
	tr := readTranscript(t, cfg.Workspace, "transcripts/convert-1.json")
	assert.Equal(t, "finished", tr.Outcome)
	assert.Equal(t, 5, tr.Turns)
	assert.Equal(t, []Submission{{Candidate: 1, SQL: goodSQL, Accepted: true}}, tr.Submitted)
	assert.Equal(t, goodSQL, tr.Candidates[0].SQL)
	assert.Nil(t, tr.CostUSD, "no prices configured")
	assert.Positive(t, tr.Usage.TotalTokens)
	assert.Equal(t, "Bearer "+testKey, srv.Requests()[0].Authorization)
	noKeyUnder(t, cfg.Workspace)
}

func withCheck(turn scripted.Turn, check func(*scripted.Request) error) scripted.Turn {
	turn.Check = check
	return turn
}

func TestUnknownToolGoesBackToTheModel(t *testing.T) {
	srv := scripted.New(
		withCheck(call("run_sql", `{"query": "SELECT 1"}`), scripted.SystemContains("Convert a UDF into candidates", "(celsius: double) -> double")),
		withCheck(call("finish", `{"decline_reason": "I cannot run SQL directly"}`),
			scripted.LastToolResultContains(`unknown tool \"run_sql\"; the tools are: read_udf, read_reference, submit_candidate, run_benchmark, write_file, finish`)),
	)
	defer srv.Close()
	spec := celsiusSpec(t, nil)
	cfg := testConfig(t, srv)
	a := newAgent(t, cfg)
	cands, declines, err := a.Convert(context.Background(), spec)
	require.NoError(t, err)
	require.NoError(t, srv.Err())
	assert.Empty(t, cands)
	require.Len(t, declines, 1)
	assert.Equal(t, rewrite.Decline{
		Target: "sql", Construct: "the UDF to_fahrenheit", Where: spec.UDF.Span.String(),
		Reason: "model test-model (OpenAI-compatible API): declined: I cannot run SQL directly",
	}, declines[0])
	tr := readTranscript(t, cfg.Workspace, "transcripts/convert-1.json")
	assert.Equal(t, "declined", tr.Outcome)
	assert.Equal(t, "run_sql", tr.Messages[2].ToolCalls[0].Name)
	assert.Equal(t, "tool", tr.Messages[3].Role)
	assert.Contains(t, tr.Messages[3].Content, "unknown tool")
}

func TestRateLimitThenSuccess(t *testing.T) {
	srv := scripted.New(
		scripted.Turn{Status: 429, RetryAfter: "0"},
		finishWith(goodSQL),
	)
	defer srv.Close()
	checked := 0
	spec := celsiusSpec(t, &checked)
	cfg := testConfig(t, srv)
	var waits []int
	cfg.Backoff = func(n int) time.Duration { waits = append(waits, n); return time.Millisecond }
	a := newAgent(t, cfg)
	start := time.Now()
	cands, _, err := a.Convert(context.Background(), spec)
	require.NoError(t, err)
	assert.Less(t, time.Since(start), 5*time.Second)
	require.NoError(t, srv.Err())
	require.Len(t, cands, 1)
	assert.Equal(t, goodSQL, cands[0].SQL)
	assert.Zero(t, checked, "a candidate the model did not submit is left to the stages")
	assert.Equal(t, []int{0}, waits)
	assert.Len(t, srv.Requests(), 2)
	tr := readTranscript(t, cfg.Workspace, "transcripts/convert-1.json")
	assert.Equal(t, "finished", tr.Outcome)
	assert.Equal(t, 1, tr.Retries)
	assert.Equal(t, 1, tr.Turns)
	require.Len(t, tr.Requests, 2)
	assert.Equal(t, 429, tr.Requests[0].Status)
	assert.Contains(t, tr.Requests[0].Error, "429 Too Many Requests")
	assert.Equal(t, 200, tr.Requests[1].Status)
}

func TestServerErrorOnEveryCall(t *testing.T) {
	srv := scripted.New().Then(func(int) scripted.Turn {
		// A server that echoes the key it was sent, as some do in their
		// error messages.
		return scripted.Turn{Status: 500, ErrorMessage: "upstream failed for key " + testKey}
	})
	defer srv.Close()
	spec := celsiusSpec(t, nil)
	cfg := testConfig(t, srv)
	var logs []string
	cfg.Log = func(s string) { logs = append(logs, s) }
	a := newAgent(t, cfg)
	_, _, err := a.Convert(context.Background(), spec)
	var ee *EndpointError
	require.ErrorAs(t, err, &ee)
	assert.Equal(t, 500, ee.Status)
	assert.Equal(t, 3, ee.Attempts, "one request and MaxRetries=2 retries")
	assert.NotContains(t, err.Error(), testKey)
	assert.Contains(t, err.Error(), "500 Internal Server Error: upstream failed for key [REDACTED]")
	assert.Len(t, srv.Requests(), 3)
	tr := readTranscript(t, cfg.Workspace, "transcripts/convert-1.json")
	assert.Equal(t, "error", tr.Outcome)
	assert.Equal(t, 2, tr.Retries)
	assert.Len(t, tr.Requests, 3)
	require.Len(t, logs, 1)
	assert.NotContains(t, logs[0], testKey)
	assert.Contains(t, logs[0], "agent: convert-1: error after 1 turn(s)")
}

func TestClientErrorsAreNotRetried(t *testing.T) {
	srv := scripted.New(scripted.Turn{Status: 401, ErrorMessage: "Incorrect API key provided: " + testKey})
	defer srv.Close()
	a := newAgent(t, testConfig(t, srv))
	_, _, err := a.Convert(context.Background(), celsiusSpec(t, nil))
	var ee *EndpointError
	require.ErrorAs(t, err, &ee)
	assert.Equal(t, 401, ee.Status)
	assert.Equal(t, 1, ee.Attempts)
	assert.NotContains(t, err.Error(), testKey)
}

func TestRequestTimeoutIsRetried(t *testing.T) {
	srv := scripted.New(
		scripted.Turn{Delay: 2 * time.Second, Content: "too late"},
		finishWith(goodSQL),
	)
	defer srv.Close()
	cfg := testConfig(t, srv)
	cfg.RequestTimeout = 100 * time.Millisecond
	a := newAgent(t, cfg)
	cands, _, err := a.Convert(context.Background(), celsiusSpec(t, nil))
	require.NoError(t, err)
	require.Len(t, cands, 1)
	tr := readTranscript(t, cfg.Workspace, "transcripts/convert-1.json")
	require.Len(t, tr.Requests, 2)
	assert.Equal(t, "the request timed out", tr.Requests[0].Error)
}

func TestRepeatedIdenticalCallsStopTheConversation(t *testing.T) {
	srv := scripted.New(
		call("read_udf", `{}`),
		call("read_udf", ` { } `), // the same call, spelt differently
		withCheck(call("read_udf", `{}`), scripted.LastToolResultContains(`"warning":"this is call 2 with exactly these arguments`)),
	)
	defer srv.Close()
	cfg := testConfig(t, srv)
	a := newAgent(t, cfg)
	cands, declines, err := a.Convert(context.Background(), celsiusSpec(t, nil))
	require.NoError(t, err)
	require.NoError(t, srv.Err())
	assert.Empty(t, cands)
	require.Len(t, declines, 1)
	assert.Contains(t, declines[0].Reason, "stopped: the model made the same call (read_udf with the same arguments) 3 times")
	tr := readTranscript(t, cfg.Workspace, "transcripts/convert-1.json")
	assert.Equal(t, "repeated", tr.Outcome)
	assert.Equal(t, 3, tr.Turns)
}

// The token budget stops the conversation before a request that would
// resend more than is left (its prompt is at least the previous request
// and answer), and each request's completion is capped by what is left.
func TestTokenBudget(t *testing.T) {
	big := &scripted.Usage{PromptTokens: 900, CompletionTokens: 200}
	srv := scripted.New(
		withCheck(scripted.Turn{ToolCalls: []scripted.Call{scripted.Tool("read_reference", `{"page": "spark-sql"}`)}, Usage: big},
			func(r *scripted.Request) error {
				if !strings.Contains(r.Body, `"max_completion_tokens":2000`) {
					return errors.New("no completion cap in " + r.Body[:min(len(r.Body), 200)])
				}
				return nil
			}),
		scripted.Turn{ToolCalls: []scripted.Call{scripted.Tool("read_reference", `{"page": "semantics"}`)}, Usage: big},
	)
	defer srv.Close()
	cfg := testConfig(t, srv)
	cfg.MaxTokens = 2000
	cfg.PriceInPerMTok, cfg.PriceOutPerMTok = ptr(2.0), ptr(8.0)
	a := newAgent(t, cfg)
	cands, declines, err := a.Convert(context.Background(), celsiusSpec(t, nil))
	require.NoError(t, err)
	require.NoError(t, srv.Err())
	assert.Equal(t, 1, srv.Unused(), "the second request would have gone over the budget")
	assert.Empty(t, cands)
	require.Len(t, declines, 1)
	assert.Contains(t, declines[0].Reason, "stopped by the token budget: 1100 tokens used of 2000, and the next request would send at least 1100 more")
	tr := readTranscript(t, cfg.Workspace, "transcripts/convert-1.json")
	assert.Equal(t, "budget", tr.Outcome)
	assert.Contains(t, tr.Reason, "stopped by the token budget")
	assert.Equal(t, Usage{PromptTokens: 900, CompletionTokens: 200, TotalTokens: 1100}, tr.Usage)
	require.NotNil(t, tr.CostUSD)
	assert.InDelta(t, (900*2.0+200*8.0)/1e6, *tr.CostUSD, 1e-12)
	assert.Contains(t, tr.Messages[3].Content, "# Spark SQL for udfx rewrites")
}

// One answer that takes the conversation over its budget is the last:
// its tool calls are not run (here: a submission that would have started
// a differential test), and the transcript says why.
func TestTokenBudgetStopsAtTheAnswerThatOvershoots(t *testing.T) {
	srv := scripted.New(
		scripted.Turn{ToolCalls: []scripted.Call{scripted.Tool("submit_candidate", `{"target": "sql", "sql": "`+goodSQL+`"}`)},
			Usage: &scripted.Usage{PromptTokens: 900, CompletionTokens: 300}},
	)
	defer srv.Close()
	cfg := testConfig(t, srv)
	cfg.MaxTokens = 1000
	a := newAgent(t, cfg)
	checked := 0
	cands, declines, err := a.Convert(context.Background(), celsiusSpec(t, &checked))
	require.NoError(t, err)
	assert.Empty(t, cands)
	assert.Zero(t, checked, "no differential test after the budget is spent")
	require.Len(t, declines, 1)
	assert.Contains(t, declines[0].Reason, "stopped by the token budget: request 1 brought the total to 1200 tokens of 1000; its tool calls were not run")
	tr := readTranscript(t, cfg.Workspace, "transcripts/convert-1.json")
	assert.Equal(t, "budget", tr.Outcome)
	assert.Empty(t, tr.Submitted)
	last := tr.Messages[len(tr.Messages)-1]
	assert.Equal(t, "tool", last.Role)
	assert.Contains(t, last.Content, "not run: the token budget is spent")
}

// The wall-time budget is the whole conversation's: a differential test
// that outlasts it is cut off, and the conversation stops saying so.
func TestWallTimeBudgetBoundsTheTestsItStarts(t *testing.T) {
	srv := scripted.New(call("submit_candidate", `{"target": "sql", "sql": "`+goodSQL+`"}`))
	defer srv.Close()
	cfg := testConfig(t, srv)
	cfg.Timeout = 300 * time.Millisecond
	a := newAgent(t, cfg)
	spec := celsiusSpec(t, nil)
	spec.Check = func(ctx context.Context, c rewrite.Candidate) (*rewrite.Tried, error) {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(10 * time.Second):
			return &rewrite.Tried{Index: 1, Candidate: c, Accepted: true}, nil
		}
	}
	start := time.Now()
	cands, declines, err := a.Convert(context.Background(), spec)
	require.NoError(t, err)
	assert.Less(t, time.Since(start), 5*time.Second)
	assert.Empty(t, cands)
	require.Len(t, declines, 1)
	assert.Contains(t, declines[0].Reason, "stopped by the wall-time budget of 300ms while submit_candidate was running")
	tr := readTranscript(t, cfg.Workspace, "transcripts/convert-1.json")
	assert.Equal(t, "budget", tr.Outcome)
	assert.Contains(t, tr.Reason, "while submit_candidate was running")
}

func ptr(f float64) *float64 { return &f }

func TestProseAnswerIsNudgedTowardTools(t *testing.T) {
	srv := scripted.New(
		scripted.Turn{Content: "The answer is celsius * 1.8 + 32."},
		withCheck(call("finish", `{"decline_reason": "unsure"}`), func(r *scripted.Request) error {
			last := r.Messages[len(r.Messages)-1]
			if last.Role != "user" || !strings.Contains(last.Content, "Reply with tool calls only") {
				return errors.New("no nudge: " + last.Content)
			}
			return nil
		}),
	)
	defer srv.Close()
	a := newAgent(t, testConfig(t, srv))
	_, declines, err := a.Convert(context.Background(), celsiusSpec(t, nil))
	require.NoError(t, err)
	require.NoError(t, srv.Err())
	require.Len(t, declines, 1)
	assert.Contains(t, declines[0].Reason, "declined: unsure")
}

func TestWallTimeBudget(t *testing.T) {
	srv := scripted.New().Then(func(int) scripted.Turn {
		return scripted.Turn{Delay: 5 * time.Second}
	})
	defer srv.Close()
	cfg := testConfig(t, srv)
	cfg.Timeout = 200 * time.Millisecond
	a := newAgent(t, cfg)
	start := time.Now()
	cands, declines, err := a.Convert(context.Background(), celsiusSpec(t, nil))
	require.NoError(t, err)
	assert.Less(t, time.Since(start), 3*time.Second)
	assert.Empty(t, cands)
	require.Len(t, declines, 1)
	assert.Contains(t, declines[0].Reason, "stopped by the wall-time budget of 200ms")
}

func TestCanceledContextIsAnError(t *testing.T) {
	srv := scripted.New().Then(func(int) scripted.Turn { return scripted.Turn{Delay: 5 * time.Second} })
	defer srv.Close()
	cfg := testConfig(t, srv)
	a := newAgent(t, cfg)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, _, err := a.Convert(ctx, celsiusSpec(t, nil))
	require.ErrorIs(t, err, context.DeadlineExceeded)
	tr := readTranscript(t, cfg.Workspace, "transcripts/convert-1.json")
	assert.Equal(t, "canceled", tr.Outcome)
}

func TestSubmittingTheSameCandidateTwiceTestsItOnce(t *testing.T) {
	srv := scripted.New(
		call("submit_candidate", `{"target": "sql", "sql": "celsius * 1.8D + 32.0D"}`),
		withCheck(call("submit_candidate", `{"sql": "celsius * 1.8D + 32.0D", "target": "sql"}`),
			scripted.LastToolResultContains(`"accepted":false`, `"counterexample":{"inputs":[{"name":"celsius","value":{"text":"1.0"`)),
		withCheck(call("run_benchmark", `{"sql": "celsius * 1.8D + 32.0D"}`),
			scripted.LastToolResultContains(`"note":"already judged as candidate 1; not tested again"`)),
		withCheck(call("submit_candidate", `{"target": "cuda", "sql": "x"}`),
			scripted.LastToolResultContains(`only a candidate that submit_candidate accepted can be timed`)),
		withCheck(call("finish", `{"decline_reason": "gave up"}`),
			scripted.LastToolResultContains(`target \"cuda\" cannot be tested here`)),
	)
	defer srv.Close()
	checked := 0
	a := newAgent(t, testConfig(t, srv))
	_, _, err := a.Convert(context.Background(), celsiusSpec(t, &checked))
	require.NoError(t, err)
	require.NoError(t, srv.Err())
	assert.Equal(t, 1, checked)
}

func TestReadUDFAndWriteFile(t *testing.T) {
	srv := scripted.New(
		call("read_udf", `{}`),
		withCheck(call("write_file", `{"path": "notes/plan.md", "content": "try 9.0D / 5.0D"}`),
			scripted.LastToolResultContains(`"signature":"(celsius: double) -> double"`, `return celsius * 9.0 / 5.0 + 32.0`, `"use_sites":[{"kind":"call"`)),
		withCheck(call("write_file", `{"path": "../evidence.json", "content": "{}"}`),
			scripted.LastToolResultContains(`"written":"agent-files/notes/plan.md"`)),
		withCheck(call("finish", `{"decline_reason": "done"}`),
			scripted.LastToolResultContains(`refused: the path leaves agent-files/`)),
	)
	defer srv.Close()
	cfg := testConfig(t, srv)
	a := newAgent(t, cfg)
	_, _, err := a.Convert(context.Background(), celsiusSpec(t, nil))
	require.NoError(t, err)
	require.NoError(t, srv.Err())
	b, err := os.ReadFile(filepath.Join(cfg.Workspace, "agent-files", "notes", "plan.md"))
	require.NoError(t, err)
	assert.Equal(t, "try 9.0D / 5.0D", string(b))
	assert.NoFileExists(t, filepath.Join(cfg.Workspace, "evidence.json"))
	tr := readTranscript(t, cfg.Workspace, "transcripts/convert-1.json")
	assert.Equal(t, []string{"agent-files/notes/plan.md"}, tr.Files)
}

func TestWriteScratchPaths(t *testing.T) {
	ws := t.TempDir()
	outside := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(ws, ScratchDir), 0o755))
	require.NoError(t, os.Symlink(outside, filepath.Join(ws, ScratchDir, "link")))
	for _, c := range []struct {
		path, want, err string
	}{
		{"a.txt", "agent-files/a.txt", ""},
		{"sub/dir/b.txt", "agent-files/sub/dir/b.txt", ""},
		{"sub/../c.txt", "agent-files/c.txt", ""},
		{"", "", "the path is empty"},
		{"/etc/passwd", "", "the path is absolute"},
		{"..", "", "the path leaves agent-files/"},
		{"../report.md", "", "the path leaves agent-files/"},
		{"sub/../../../x", "", "the path leaves agent-files/"},
		{".", "", "the path leaves agent-files/"},
		{"link/x.txt", "", "it goes through a symbolic link"},
		{"a\x00b", "", "NUL byte"},
	} {
		got, err := writeScratch(ws, c.path, []byte("x"))
		if c.err != "" {
			var pe *PathError
			require.ErrorAs(t, err, &pe, c.path)
			assert.Contains(t, err.Error(), c.err, c.path)
			continue
		}
		require.NoError(t, err, c.path)
		assert.Equal(t, c.want, got)
		assert.FileExists(t, filepath.Join(ws, filepath.FromSlash(got)))
	}
	entries, err := os.ReadDir(outside)
	require.NoError(t, err)
	assert.Empty(t, entries, "nothing was written through the link")
	_, err = writeScratch(ws, "big", make([]byte, maxScratch+1))
	assert.ErrorContains(t, err, "more than")
}

func TestTranscriptsOfAnEarlierRunAreCleared(t *testing.T) {
	srv := scripted.New(call("finish", `{"decline_reason": "no"}`))
	defer srv.Close()
	cfg := testConfig(t, srv)
	stale := filepath.Join(cfg.Workspace, "transcripts", "optimize-3.json")
	require.NoError(t, os.MkdirAll(filepath.Dir(stale), 0o755))
	require.NoError(t, os.WriteFile(stale, []byte("{}"), 0o644))
	a := newAgent(t, cfg)
	_, _, err := a.Convert(context.Background(), celsiusSpec(t, nil))
	require.NoError(t, err)
	assert.NoFileExists(t, stale)
	assert.FileExists(t, filepath.Join(cfg.Workspace, "transcripts", "convert-1.json"))
}

func TestNewRejectsBadConfig(t *testing.T) {
	_, err := New(Config{BaseURL: "http://x"})
	assert.ErrorContains(t, err, "no workspace")
	_, err = New(Config{BaseURL: "ftp://" + testKey + "@host", APIKey: testKey, Workspace: t.TempDir()})
	require.Error(t, err)
	assert.NotContains(t, err.Error(), testKey)
	a, err := New(Config{Workspace: t.TempDir()})
	require.NoError(t, err)
	assert.Equal(t, "model "+DefaultModel+" (OpenAI-compatible API)", a.Name())
	assert.Equal(t, DefaultBaseURL, a.cfg.BaseURL)
}

func TestEverySkillIsEmbedded(t *testing.T) {
	for stage, title := range map[string]string{
		"scaffold": "# Scaffold a UDF rewrite", "convert": "# Convert a UDF into candidates",
		"benchmark": "# Benchmark accepted rewrites", "optimize": "# Optimize a verified rewrite",
	} {
		s := skill(stage)
		assert.True(t, strings.HasPrefix(s, title), "%s: %.60q", stage, s)
		assert.NotContains(t, s, "description:", "front matter is stripped")
	}
}

// TestReferenceFunctionsAreSupported keeps the reference page honest: each
// function it lists must be in the engine's own list.
func TestReferenceFunctionsAreSupported(t *testing.T) {
	supported, err := os.ReadFile(filepath.Join("..", "engine", "SUPPORTED.md"))
	require.NoError(t, err)
	page, err := referencePage("spark-sql")
	require.NoError(t, err)
	_, fns, ok := strings.Cut(page, "## Functions")
	require.True(t, ok)
	fns, _, _ = strings.Cut(fns, "Not available:")
	names := regexp.MustCompile("`([a-z_]+)`").FindAllStringSubmatch(fns, -1)
	require.Greater(t, len(names), 80)
	for _, m := range names {
		assert.Regexp(t, `(^|[^a-z_])`+m[1]+`([^a-z_]|$)`, string(supported), m[1])
	}
	for _, p := range []string{"cuda-kernels", "cudf-java", "rapids-udf", "semantics", "spark-sql"} {
		_, err := referencePage(p)
		assert.NoError(t, err, p)
	}
	_, err = referencePage("../agent")
	assert.ErrorContains(t, err, "no page")
}

func TestSubmissionsPerConversationAreBounded(t *testing.T) {
	srv := scripted.New(
		call("submit_candidate", `{"target": "sql", "sql": "celsius * 1.8D + 32.0D"}`),
		withCheck(call("submit_candidate", `{"target": "sql", "sql": "celsius * 1.8D + 32.5D"}`),
			scripted.LastToolResultContains(`"accepted":false`)),
		withCheck(call("finish", `{"decline_reason": "out of submissions"}`),
			scripted.LastToolResultContains(`this conversation has had its 1 candidates tested`)),
	)
	defer srv.Close()
	checked := 0
	cfg := testConfig(t, srv)
	cfg.MaxSubmissions = 1
	a := newAgent(t, cfg)
	_, _, err := a.Convert(context.Background(), celsiusSpec(t, &checked))
	require.NoError(t, err)
	require.NoError(t, srv.Err())
	assert.Equal(t, 1, checked, "the second submission is not tested")
}
