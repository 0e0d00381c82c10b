package main

import (
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/evidence"
)

// Issue 26's crash inputs, through every door: 400,000 nested
// parentheses were a Go stack overflow that killed verify and the MCP
// server, and a repeat() of 100 MB on each row held 22.7 GiB. Each now
// ends with a message and an exit code, within 1 GiB, and an MCP session
// goes on to answer the next call.

var (
	deepSQL   = strings.Repeat("(", 400_000) + "celsius" + strings.Repeat(")", 400_000)
	repeatSQL = "celsius + CAST(length(repeat('x', 100000000)) AS DOUBLE) * 0.0D"
)

// allocatedDuring is how many bytes the process allocated while run ran.
func allocatedDuring(run func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	run()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func TestCrashInputsThroughTest(t *testing.T) {
	repo := scaffoldRepo(t)
	var stdout, stderr string
	var code int
	got := allocatedDuring(func() {
		stdout, stderr, code = runCLI(t, repo, "test", "examples/python-celsius/celsius.py", "--sql", deepSQL, "--rows", "100", "--workspace", "")
	})
	assert.Equal(t, exitUsage, code, "stdout: %.300s", stdout)
	assert.Contains(t, stderr, "more than 50000 tokens")
	assert.Less(t, got, uint64(1<<30))

	got = allocatedDuring(func() {
		stdout, stderr, code = runCLI(t, repo, "test", "examples/python-celsius/celsius.py", "--sql", repeatSQL, "--rows", "10000", "--workspace", "")
	})
	assert.NotEqual(t, exitOK, code, "a rewrite the engine refuses on most rows is not proved: %s", stdout)
	assert.Contains(t, stdout, "EMBEDDED_ENGINE_UNSUPPORTED ×9")
	assert.Less(t, got, uint64(1<<30), "allocated %d MiB", got>>20)
}

func TestCrashInputsThroughVerify(t *testing.T) {
	dir := verifyRepo(t)
	forgeRecord(t, dir, deepSQL, func(*evidence.Record) {})
	stdout, stderr, code := runCLI(t, dir, "verify")
	assert.NotEqual(t, exitOK, code)
	assert.Contains(t, stdout, "more than 50000 tokens", "stderr: %s", stderr)
}

func TestCrashInputsThroughMCP(t *testing.T) {
	repo := scaffoldRepo(t)
	cs := serveMCP(t, repo)
	for _, sql := range []string{deepSQL, repeatSQL} {
		var text string
		got := allocatedDuring(func() {
			res, _ := callTool(t, cs, "test", map[string]any{"path": "examples/python-celsius/celsius.py", "sql": sql, "rows": 10000})
			require.True(t, res.IsError)
			text = resultText(res)
		})
		assert.Less(t, got, uint64(1<<30), "allocated %d MiB", got>>20)
		assert.True(t, strings.Contains(text, "more than 50000 tokens") || strings.Contains(text, "EMBEDDED_ENGINE_UNSUPPORTED"), "%.400s", text)
	}
	// The session goes on.
	res, doc := callTool(t, cs, "test", map[string]any{"path": "examples/python-celsius/celsius.py", "sql": "celsius * 9.0 / 5.0 + 32.0", "rows": 100})
	require.False(t, res.IsError, resultText(res))
	assert.Equal(t, true, doc["equal"])
}
