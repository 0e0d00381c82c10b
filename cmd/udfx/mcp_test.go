package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/evidence"
)

// End-to-end tests of `udfx mcp`: the SDK's client talks to the real
// command over its stdin and stdout (pipes, in-process), and the tools run
// the real commands: the original in CPython, the rewrite on the embedded
// engine.

// lockedBuffer is a bytes.Buffer safe for the server's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// serveMCP starts `udfx mcp` in dir and returns a connected client. When
// the test ends it closes the session, waits for the command to return,
// and checks that it ended cleanly, that it logged nothing, and that every
// line it wrote to stdout is a JSON-RPC message: stdout is the protocol's.
func serveMCP(t *testing.T, dir string) *mcp.ClientSession {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stdout, stderr lockedBuffer
	done := make(chan int, 1)
	go func() {
		e := &env{Stdin: inR, Stdout: io.MultiWriter(outW, &stdout), Stderr: &stderr, WorkDir: dir}
		err := runMCP(context.Background(), e)
		outW.Close()
		done <- exitCode(err)
	}()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "udfx-test", Version: "1"}, nil).
		Connect(context.Background(), &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	require.NoError(t, err)
	t.Cleanup(func() {
		require.NoError(t, cs.Close())
		select {
		case code := <-done:
			assert.Equal(t, exitOK, code)
		case <-time.After(30 * time.Second):
			t.Fatal("udfx mcp did not return after the client closed the session")
		}
		assert.Empty(t, stderr.String())
		sc := bufio.NewScanner(strings.NewReader(stdout.String()))
		sc.Buffer(nil, 16<<20)
		lines := 0
		for sc.Scan() {
			lines++
			var msg struct {
				JSONRPC string `json:"jsonrpc"`
			}
			require.NoError(t, json.Unmarshal(sc.Bytes(), &msg), "stdout line %d is not JSON: %q", lines, sc.Text())
			assert.Equal(t, "2.0", msg.JSONRPC, "stdout line %d", lines)
		}
		assert.Positive(t, lines)
	})
	return cs
}

func callTool(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (*mcp.CallToolResult, map[string]any) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	require.NoError(t, err)
	var doc map[string]any
	if res.StructuredContent != nil {
		b, err := json.Marshal(res.StructuredContent)
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(b, &doc))
	}
	return res, doc
}

func resultText(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func TestMCPListsTheSixTools(t *testing.T) {
	cs := serveMCP(t, t.TempDir())
	res, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	required := map[string][]string{}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		var schema struct {
			Type     string
			Required []string
		}
		b, err := json.Marshal(tool.InputSchema)
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(b, &schema))
		assert.Equal(t, "object", schema.Type)
		required[tool.Name] = schema.Required
	}
	sort.Strings(names)
	assert.Equal(t, []string{"bench", "rewrite", "scaffold", "scan", "test", "verify"}, names)
	assert.Equal(t, map[string][]string{
		"scan": nil, "scaffold": {"path"}, "test": {"path"}, "bench": {"path"}, "rewrite": {"path"}, "verify": nil,
	}, required)
	init := cs.InitializeResult()
	require.NotNil(t, init)
	assert.Equal(t, "udfx", init.ServerInfo.Name)
	assert.Equal(t, version, init.ServerInfo.Version)
}

// Needs root.go to list newScaffoldCmd: tool calls run the production
// command tree.
func TestMCPScaffold(t *testing.T) {
	repo := scaffoldRepo(t)
	cs := serveMCP(t, repo)
	res, doc := callTool(t, cs, "scaffold", map[string]any{"path": "examples/python-celsius/celsius.py", "rows": 400, "seed": 3})
	require.False(t, res.IsError, resultText(res))
	assert.Equal(t, "to_fahrenheit", doc["udf"])
	assert.Equal(t, ".udfx/to_fahrenheit", doc["workspace"])
	assert.Equal(t, float64(400), doc["rows"])
	assert.Equal(t, float64(3), doc["seed"])
	baseline, err := os.ReadFile(filepath.Join(repo, ".udfx", "to_fahrenheit", "baseline.tokens"))
	require.NoError(t, err)
	assert.Equal(t, 400, strings.Count(string(baseline), "\n"))
}

func TestMCPTestProvesAndRefutes(t *testing.T) {
	repo := scaffoldRepo(t)
	cs := serveMCP(t, repo)

	res, doc := callTool(t, cs, "test", map[string]any{
		"path": "examples/python-celsius/celsius.py", "sql": "celsius * 9.0 / 5.0 + 32.0", "rows": 500,
	})
	require.False(t, res.IsError, resultText(res))
	assert.Equal(t, true, doc["equal"])
	assert.Equal(t, float64(530), doc["rows"], "500 rows and 30 near misses of the literals")
	assert.Equal(t, float64(0), doc["mismatches"])
	assert.Equal(t, "examples/python-celsius/celsius.py", doc["file"])
	assert.True(t, json.Valid([]byte(resultText(res))), "the text content is the JSON report")

	res, doc = callTool(t, cs, "test", map[string]any{
		"path": "examples/python-celsius/celsius.py", "name": "to_fahrenheit", "sql": "celsius * 1.8 + 32.0", "rows": 500,
	})
	require.True(t, res.IsError)
	assert.Equal(t, false, doc["equal"])
	ce, _ := doc["counterexample"].(map[string]any)
	require.NotNil(t, ce, "the report with its counterexample comes back: %s", resultText(res))
	assert.Equal(t, "55.4", ce["original"].(map[string]any)["text"])
	assert.Contains(t, resultText(res), "udfx test exited with code 1 (a check failed):\nudfx: the rewrite differs from to_fahrenheit on ")

	// A usage error of the command itself, with its message.
	res, _ = callTool(t, cs, "test", map[string]any{"path": "examples/python-celsius/celsius.py", "sql": "no_such_fn(celsius)", "rows": 10})
	require.True(t, res.IsError)
	assert.Contains(t, resultText(res), "udfx test exited with code 2 (bad usage):\nudfx: ")

	// Paths leading outside the server's folder are refused before any run.
	res, _ = callTool(t, cs, "scaffold", map[string]any{"path": "../celsius.py"})
	require.True(t, res.IsError)
	assert.Contains(t, resultText(res), `path "../celsius.py": leads outside the server's folder`)
}

func TestMCPVerify(t *testing.T) {
	// No rewrites yet: the gate passes with nothing to check.
	cs := serveMCP(t, scaffoldRepo(t))
	res, doc := callTool(t, cs, "verify", map[string]any{})
	require.False(t, res.IsError, resultText(res))
	assert.Equal(t, true, doc["passed"])
	assert.Equal(t, float64(0), doc["records"])
	assert.Empty(t, doc["items"])

	// A repository with a proved rewrite (see verify_cmd_test.go).
	dir := verifyRepo(t)
	cs = serveMCP(t, dir)
	res, doc = callTool(t, cs, "verify", map[string]any{"path": "."})
	require.False(t, res.IsError, resultText(res))
	assert.Equal(t, true, doc["passed"])
	items := doc["items"].([]any)
	require.Len(t, items, 1)
	item := items[0].(map[string]any)
	assert.Equal(t, "pass", item["status"])
	assert.Equal(t, true, item["rerun"])
	assert.Equal(t, "udfx-rewrites/to_fahrenheit/rewrite.sql", item["file"])

	// The UDF changes: the rewrite is stale and the gate fails.
	p := filepath.Join(dir, "jobs", "celsius.py")
	src, err := os.ReadFile(p)
	require.NoError(t, err)
	writeFile(t, p, strings.Replace(string(src), "celsius * 9.0 / 5.0 + 32.0", "celsius * 9.0 / 5.0 + 32.5", 1))
	res, doc = callTool(t, cs, "verify", map[string]any{"skip_rerun": true})
	require.True(t, res.IsError)
	assert.Equal(t, false, doc["passed"])
	assert.Equal(t, "stale-udf", doc["items"].([]any)[0].(map[string]any)["status"])
	assert.Contains(t, resultText(res), "udfx verify exited with code 1 (a check failed):\nudfx: gate failed: 1 rewrite checked (1 records, hashes only): 1 stale-udf")
}

// GITHUB_ACTIONS in the server's environment does not make a tool call
// write annotations or a step summary.
func TestMCPToolCallsAreNotACIStep(t *testing.T) {
	summary := filepath.Join(t.TempDir(), "summary.md")
	parent := &env{WorkDir: t.TempDir(), Getenv: func(k string) string {
		return map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": summary, "UDFX_X": "kept"}[k]
	}}
	get := toolGetenv(parent)
	assert.Empty(t, get("GITHUB_ACTIONS"))
	assert.Empty(t, get("GITHUB_STEP_SUMMARY"))
	assert.Equal(t, "kept", get("UDFX_X"))

	writeFile(t, filepath.Join(parent.WorkDir, "udfx-rewrites", "x", "rewrite.sql"), evidence.MarkerLine(".sql", "udfx-rewrites/x/evidence.json")+"\n1\n")
	r := runCaptured(context.Background(), parent, []string{"verify", "--format=json", "--skip-rerun"})
	assert.Equal(t, exitFailed, r.ExitCode, r.Stderr)
	assert.NotContains(t, r.Stderr, "::error")
	_, err := os.Stat(summary)
	assert.True(t, os.IsNotExist(err), "no step summary written")
}

// The whole loop of an outside agent: rewrite with apply, then the gate.
func TestMCPRewriteApplyThenVerify(t *testing.T) {
	t.Parallel()
	dir := tempRepo(t)
	cs := serveMCP(t, dir)
	res, _ := callTool(t, cs, "rewrite", map[string]any{"path": "examples/python-celsius/celsius.py", "rows": 1000, "apply": true})
	require.False(t, res.IsError, resultText(res))
	text := resultText(res)
	assert.Contains(t, text, "  result         verified: CASE WHEN (`celsius` IS NULL)")
	assert.Contains(t, text, "  applied        3 files changed in ")
	_, err := os.Stat(filepath.Join(dir, "udfx-rewrites", "to_fahrenheit", "evidence.json"))
	require.NoError(t, err)

	res, doc := callTool(t, cs, "verify", map[string]any{})
	require.False(t, res.IsError, resultText(res))
	assert.Equal(t, true, doc["passed"])
	items := doc["items"].([]any)
	require.Len(t, items, 1)
	assert.Equal(t, "pass", items[0].(map[string]any)["status"])
	assert.Equal(t, "examples/python-celsius/celsius.py", items[0].(map[string]any)["original"])

	// Applying again over the now uncommitted changes is refused.
	res, _ = callTool(t, cs, "rewrite", map[string]any{"path": "examples/python-celsius/celsius.py", "rows": 1000, "apply": true})
	require.True(t, res.IsError)
	assert.Contains(t, resultText(res), "udfx rewrite exited with code 2 (bad usage)")
}

// TestMCPMalformedLineIsAnswered: `udfx mcp` answers a line that is not
// JSON with -32700 and keeps serving; at the end of input it exits 0.
func TestMCPMalformedLineIsAnswered(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan int, 1)
	go func() {
		err := runMCP(context.Background(), &env{Stdin: inR, Stdout: outW, Stderr: io.Discard, WorkDir: t.TempDir()})
		outW.Close()
		done <- exitCode(err)
	}()
	sc := bufio.NewScanner(outR)
	sc.Buffer(nil, 16<<20)
	next := func() map[string]any {
		t.Helper()
		require.True(t, sc.Scan(), "udfx mcp closed its output")
		var m map[string]any
		require.NoError(t, json.Unmarshal(sc.Bytes(), &m), sc.Text())
		return m
	}
	go func() {
		for _, l := range []string{
			`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`,
			`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
			`{"jsonrpc":"2.0","id":2,"method":`,
			`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`,
		} {
			inW.Write([]byte(l + "\n"))
		}
		inW.Close()
	}()
	// The parse error is written by the reader while the server answers the
	// requests, so replies arrive in any order, as JSON-RPC allows: match
	// them by id.
	byID := map[any]map[string]any{}
	for range 3 {
		m := next()
		byID[m["id"]] = m
	}
	require.Contains(t, byID, float64(1))
	assert.Contains(t, byID[float64(1)], "result")
	require.Contains(t, byID, nil)
	bad, _ := byID[nil]["error"].(map[string]any)
	require.NotNil(t, bad, "the reply with a null id is not an error: %v", byID[nil])
	assert.Equal(t, float64(-32700), bad["code"])
	require.Contains(t, byID, float64(3))
	assert.Contains(t, byID[float64(3)], "result")
	select {
	case code := <-done:
		assert.Equal(t, exitOK, code)
	case <-time.After(30 * time.Second):
		t.Fatal("udfx mcp did not return at the end of input")
	}
}
