package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/agent/scripted"
	"github.com/udfx/udfx/harness/evidence"
)

// End-to-end tests of `udfx rewrite --agent openai|auto` against a
// scripted OpenAI-compatible server: the real openai-go client, the real
// conversation loop, the real original (CPython) and differential test.

const agentTestKey = "sk-udfx-cli-test-0b7e44d1c9a2"

const (
	modelGoodSQL = "celsius * 9.0D / 5.0D + 32.0D"
	// modelWrongSQL multiplies by 1.8: one rounding where the original
	// has two.
	modelWrongSQL = "celsius * 1.8D + 32.0D"
	// modelWrongSQL2 is the same algebra reordered: different roundings.
	modelWrongSQL2 = "(celsius * 9.0D + 160.0D) / 5.0D"
)

func toolTurn(name, args string) scripted.Turn {
	return scripted.Turn{ToolCalls: []scripted.Call{scripted.Tool(name, args)}}
}

func checked(t scripted.Turn, check func(*scripted.Request) error) scripted.Turn {
	t.Check = check
	return t
}

func submitTurn(sql string) scripted.Turn {
	return toolTurn("submit_candidate", `{"target": "sql", "sql": "`+sql+`"}`)
}

func agentEnv(srv *scripted.Server) map[string]string {
	return map[string]string{"OPENAI_BASE_URL": srv.URL(), "OPENAI_API_KEY": agentTestKey}
}

// noKeyIn fails if the key is in any file under dir or in the outputs.
func noKeyIn(t *testing.T, dir string, outputs ...string) {
	t.Helper()
	for _, o := range outputs {
		assert.NotContains(t, o, agentTestKey)
	}
	require.NoError(t, filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		assert.NotContains(t, string(b), agentTestKey, p)
		return nil
	}))
}

func TestRewriteWithTheModelAgent(t *testing.T) {
	t.Parallel()
	dir := tempRepo(t)
	srv := scripted.New(
		checked(toolTurn("read_udf", `{}`), scripted.SystemContains("# Convert a UDF into candidates", "to_fahrenheit")),
		submitTurn(modelWrongSQL),
		checked(submitTurn(modelGoodSQL), scripted.LastToolResultContains(`"accepted":false`, `"counterexample"`)),
		checked(toolTurn("finish", `{"candidates": [{"target": "sql", "sql": "`+modelGoodSQL+`"}]}`), scripted.LastToolResultContains(`"accepted":true`)),
		checked(toolTurn("finish", `{"decline_reason": "nothing faster than three double operations"}`), scripted.SystemContains("# Optimize a verified rewrite")),
	)
	defer srv.Close()
	stdout, stderr, code := runCLIEnv(t, dir, agentEnv(srv), "rewrite", "examples/python-celsius/celsius.py", "--agent", "openai", "--model", "test-model", "--rows", "1000")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	require.NoError(t, srv.Err())
	assert.Zero(t, srv.Unused())
	assert.Contains(t, stdout, "(agent: model test-model (OpenAI-compatible API))")
	assert.Contains(t, stdout, "candidate 1    sql: refuted: differs on")
	assert.Contains(t, stdout, "candidate 2    sql: verified")
	assert.Contains(t, stdout, "result         verified: "+modelGoodSQL+" (1000 rows, bit-exact, ANSI on)")
	assert.Contains(t, stderr, "agent: convert-1: finished after 4 turn(s)")
	assert.Contains(t, stderr, "transcript transcripts/convert-1.json")
	assert.Contains(t, stderr, "agent: optimize-1: declined after 1 turn(s)")
	for _, r := range srv.Requests() {
		assert.Equal(t, "Bearer "+agentTestKey, r.Authorization)
		assert.Equal(t, "test-model", r.Model)
	}

	ws := filepath.Join(dir, ".udfx", "to_fahrenheit")
	rec, err := evidence.Read(filepath.Join(ws, "evidence.json"))
	require.NoError(t, err)
	assert.Equal(t, evidence.Verified, rec.Result)
	assert.Equal(t, 1000, rec.Rows)
	for _, f := range []string{"transcripts/convert-1.json", "transcripts/optimize-1.json", "candidates/1/report.json", "candidates/2/report.json"} {
		assert.FileExists(t, filepath.Join(ws, f))
	}
	noKeyIn(t, filepath.Join(dir, ".udfx"), stdout, stderr)

	// The model's rewrite is what CI's check re-proves once applied.
	git(t, dir, "apply", filepath.Join(ws, "rewrite.patch"))
	sql, err := os.ReadFile(filepath.Join(dir, "udfx-rewrites", "to_fahrenheit", "rewrite.sql"))
	require.NoError(t, err)
	assert.True(t, strings.HasSuffix(string(sql), "\n"+modelGoodSQL+"\n"), string(sql))
	stdout, stderr, code = runCLI(t, dir, "verify")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.Contains(t, stdout, "1 rewrite checked (1 records): 1 pass")
}

func TestRewriteWithAModelThatOnlyProposesWrongCandidates(t *testing.T) {
	t.Parallel()
	dir := tempRepo(t)
	srv := scripted.New(
		submitTurn(modelWrongSQL),
		checked(submitTurn(modelWrongSQL2), scripted.LastToolResultContains(`"accepted":false`, `"counterexample"`)),
		// It stands behind its last guess anyway; the stages have already
		// judged it.
		checked(toolTurn("finish", `{"candidates": [{"target": "sql", "sql": "`+modelWrongSQL2+`"}]}`), scripted.LastToolResultContains(`"accepted":false`, `"counterexample"`)),
	)
	defer srv.Close()
	stdout, stderr, code := runCLIEnv(t, dir, agentEnv(srv), "rewrite", "examples/python-celsius/celsius.py", "--agent", "openai", "--model", "test-model", "--rows", "1000")
	require.Equal(t, exitFailed, code, "stderr: %s\nstdout: %s", stderr, stdout)
	require.NoError(t, srv.Err())
	assert.Zero(t, srv.Unused())
	assert.Contains(t, stdout, "candidate 1    sql: refuted: differs on")
	assert.Contains(t, stdout, "candidate 2    sql: refuted: differs on")
	assert.NotContains(t, stdout, "candidate 3")
	assert.Contains(t, stdout, "result         no verified rewrite")
	assert.Contains(t, stderr, "no rewrite of to_fahrenheit passed")

	ws := filepath.Join(dir, ".udfx", "to_fahrenheit")
	report, err := os.ReadFile(filepath.Join(ws, "report.md"))
	require.NoError(t, err)
	assert.Contains(t, string(report), "result: **no verified rewrite**")
	assert.Contains(t, string(report), "Counterexample that refuted candidate 1")
	assert.Contains(t, string(report), "Counterexample that refuted candidate 2")
	assert.NoFileExists(t, filepath.Join(ws, "evidence.json"))
	assert.NoFileExists(t, filepath.Join(ws, "rewrite.patch"))
	assert.NoDirExists(t, filepath.Join(dir, "udfx-rewrites"))
	assert.Equal(t, "", git(t, dir, "status", "--porcelain"), "only the workspace, which ignores itself")
	assert.FileExists(t, filepath.Join(ws, "transcripts", "convert-1.json"))
	assert.Contains(t, string(report), "## Agent conversations")
	assert.Contains(t, string(report), "- [transcripts/convert-1.json](transcripts/convert-1.json)")
	noKeyIn(t, filepath.Join(dir, ".udfx"), stdout, stderr)
}

func TestRewriteAutoAsksTheModelForWhatTheTranslatorDeclines(t *testing.T) {
	t.Parallel()
	dir := tempRepo(t)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "halve.py"), []byte(halveThrice), 0o644))
	git(t, dir, "add", "halve.py")
	git(t, dir, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "halve")
	const halved = "x / 2.0D / 2.0D / 2.0D"
	srv := scripted.New(
		checked(submitTurn(halved), scripted.SystemContains("halve_thrice")),
		checked(toolTurn("finish", `{"candidates": [{"target": "sql", "sql": "`+halved+`"}]}`), scripted.LastToolResultContains(`"accepted":true`)),
		toolTurn("finish", `{"decline_reason": "no faster exact form"}`),
	)
	defer srv.Close()
	stdout, stderr, code := runCLIEnv(t, dir, agentEnv(srv), "rewrite", "halve.py", "--agent", "auto", "--model", "test-model", "--rows", "1000")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	require.NoError(t, srv.Err())
	assert.Contains(t, srv.Requests()[0].Messages[1].Content, "Python for_statement")
	assert.Contains(t, stdout, "(agent: built-in translator, then model test-model (OpenAI-compatible API))")
	assert.Contains(t, stdout, "result         verified: "+halved)
	assert.NotContains(t, stdout, "declined")
	noKeyIn(t, filepath.Join(dir, ".udfx"), stdout, stderr)
}

// An endpoint that keeps failing is udfx failing to do its job under
// --agent openai (exit 3), after the retries; nothing is recorded.
func TestRewriteWithAFailingEndpoint(t *testing.T) {
	t.Parallel()
	dir := tempRepo(t)
	srv := scripted.New().Then(func(int) scripted.Turn {
		return scripted.Turn{Status: 502, ErrorMessage: "bad gateway for " + agentTestKey}
	})
	defer srv.Close()
	stdout, stderr, code := runCLIEnv(t, dir, agentEnv(srv), "rewrite", "examples/python-celsius/celsius.py", "--agent", "openai", "--rows", "100")
	require.Equal(t, exitInternal, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.Contains(t, stderr, "convert: the model endpoint failed after 4 attempt(s): OpenAI API error: 502 Bad Gateway: bad gateway for [REDACTED]")
	assert.Len(t, srv.Requests(), 4)
	ws := filepath.Join(dir, ".udfx", "to_fahrenheit")
	assert.NoFileExists(t, filepath.Join(ws, "evidence.json"))
	assert.FileExists(t, filepath.Join(ws, "transcripts", "convert-1.json"))
	noKeyIn(t, filepath.Join(dir, ".udfx"), stdout, stderr)
}

func TestRewriteAgentFlags(t *testing.T) {
	t.Parallel()
	dir := tempRepo(t)
	py := "examples/python-celsius/celsius.py"
	endpoint := map[string]string{"OPENAI_BASE_URL": "http://127.0.0.1:1/v1"}
	for _, c := range []struct {
		env  map[string]string
		args []string
		want string
	}{
		{nil, []string{"--agent", "openai"}, "--agent openai needs a model endpoint: set OPENAI_BASE_URL (any OpenAI-compatible server; or --base-url) and/or OPENAI_API_KEY"},
		{nil, []string{"--agent", "gpt"}, `unknown --agent "gpt": builtin, openai or auto`},
		{endpoint, []string{"--agent", "openai", "--max-turns", "0"}, "--max-turns, --max-tokens and --agent-timeout must be positive"},
		{endpoint, []string{"--agent", "openai", "--agent-timeout", "0s"}, "must be positive"},
		{endpoint, []string{"--agent", "auto", "--price-in", "cheap"}, `--price-in (or $UDFX_AGENT_PRICE_IN): "cheap" is not a price`},
		{map[string]string{"OPENAI_BASE_URL": "localhost:8000"}, []string{"--agent", "openai"}, `the endpoint "localhost:8000" is not an http(s) URL`},
	} {
		args := append([]string{"rewrite", py}, c.args...)
		_, stderr, code := runCLIEnv(t, dir, c.env, args...)
		assert.Equal(t, exitUsage, code, "%v: %s", c.args, stderr)
		assert.Contains(t, stderr, c.want, c.args)
	}

	// auto without an endpoint is the built-in translator, said once.
	stdout, stderr, code := runCLIEnv(t, dir, nil, "rewrite", py, "--agent", "auto", "--rows", "1000")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.Equal(t, 1, strings.Count(stderr, "udfx: --agent auto: no model endpoint configured (OPENAI_BASE_URL, OPENAI_API_KEY); using the built-in translator alone\n"), stderr)
	assert.Contains(t, stdout, "(agent: built-in translator)")
	assert.NoDirExists(t, filepath.Join(dir, ".udfx", "to_fahrenheit", "transcripts"))
}

// The key echoed by the model (a decline reason, a tool argument, a
// candidate) and by the endpoint (an error body) is in none of the
// command's outputs: stdout, stderr, report.md and every other file under
// .udfx, and the history sent back to the endpoint.
func TestRewriteRedactsTheKeyTheModelEchoes(t *testing.T) {
	t.Parallel()
	dir := tempRepo(t)
	keyed := "celsius * 1.8D + 32.0D + length('" + agentTestKey + "') * 0.0D"
	srv := scripted.New(
		scripted.Turn{Status: 500, ErrorMessage: "upstream failed for " + agentTestKey},
		toolTurn("write_file", `{"path": "notes.txt", "content": "the key is `+agentTestKey+`"}`),
		submitTurn(keyed),
		toolTurn("finish", `{"decline_reason": "no exact form; key `+agentTestKey+`"}`),
	)
	defer srv.Close()
	stdout, stderr, code := runCLIEnv(t, dir, agentEnv(srv), "rewrite", "examples/python-celsius/celsius.py", "--agent", "openai", "--model", "test-model", "--rows", "1000")
	require.Equal(t, exitFailed, code, "stderr: %s\nstdout: %s", stderr, stdout)
	require.NoError(t, srv.Err())
	assert.Contains(t, stdout, "[REDACTED]", "the candidate is printed, redacted")
	report, err := os.ReadFile(filepath.Join(dir, ".udfx", "to_fahrenheit", "report.md"))
	require.NoError(t, err)
	assert.Contains(t, string(report), "no exact form; key [REDACTED]")
	noKeyIn(t, filepath.Join(dir, ".udfx"), stdout, stderr)
	for _, r := range srv.Requests() {
		assert.NotContains(t, r.Body, agentTestKey)
	}
}
