package mcpserver

import (
	"context"
	"encoding/json"
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
)

// fake records the argument lists and answers with a scripted result.
type fake struct {
	mu    sync.Mutex
	calls [][]string
	reply Result
}

func (f *fake) run(_ context.Context, args []string) Result {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, args)
	return f.reply
}

// connect starts the server on one end of an in-memory pipe and returns
// a client session on the other.
func connect(t *testing.T, root string, run RunFunc) *mcp.ClientSession {
	t.Helper()
	srv, err := New(run, Options{Root: root, Version: "test"})
	require.NoError(t, err)
	st, ct := mcp.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	ss, err := srv.Connect(ctx, st, nil)
	require.NoError(t, err)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, nil).Connect(ctx, ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
		cancel()
	})
	return cs
}

func TestToolsAndTheirSchemas(t *testing.T) {
	cs := connect(t, t.TempDir(), (&fake{}).run)
	res, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	got := map[string]*mcp.Tool{}
	var names []string
	for _, tool := range res.Tools {
		got[tool.Name] = tool
		names = append(names, tool.Name)
	}
	sort.Strings(names)
	want := append([]string(nil), ToolNames...)
	sort.Strings(want)
	require.Equal(t, want, names)

	required := map[string][]string{
		"scan": nil, "scaffold": {"path"}, "test": {"path"}, "bench": {"path"}, "rewrite": {"path"}, "verify": nil,
	}
	props := map[string][]string{
		"scan":     {"paths"},
		"scaffold": {"name", "path", "rows", "seed"},
		"test":     {"engine", "name", "path", "rewrite_file", "rows", "samples", "seed", "sql"},
		"bench":    {"engine", "name", "path", "rows", "runs", "seed", "sql"},
		"rewrite":  {"apply", "engine", "name", "path", "rows", "seed", "targets"},
		"verify":   {"path", "skip_rerun"},
	}
	for name, tool := range got {
		var schema struct {
			Type       string
			Required   []string
			Properties map[string]struct{ Description string }
		}
		b, err := json.Marshal(tool.InputSchema)
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(b, &schema))
		assert.Equal(t, "object", schema.Type, name)
		assert.Equal(t, required[name], schema.Required, name)
		var ps []string
		for p, d := range schema.Properties {
			ps = append(ps, p)
			assert.NotEmpty(t, d.Description, "%s.%s has no description", name, p)
		}
		sort.Strings(ps)
		assert.Equal(t, props[name], ps, name)
		assert.NotEmpty(t, tool.Description, name)
	}
	assert.True(t, got["verify"].Annotations.ReadOnlyHint)
	assert.True(t, *got["rewrite"].Annotations.DestructiveHint)
}

func TestArgumentMapping(t *testing.T) {
	root := t.TempDir()
	cases := []struct {
		tool string
		in   map[string]any
		want []string
	}{
		{"scan", map[string]any{}, []string{"scan", "--format=json", "--"}},
		{"scan", map[string]any{"paths": []string{"examples", "./jobs/a.py"}}, []string{"scan", "--format=json", "--", "examples", "jobs/a.py"}},
		{"scaffold", map[string]any{"path": "jobs/celsius.py"}, []string{"scaffold", "--format=json", "--", "jobs/celsius.py"}},
		{"scaffold", map[string]any{"path": "jobs/u.scala", "name": "ToF", "rows": 500, "seed": 0}, []string{"scaffold", "--format=json", "--rows=500", "--seed=0", "--", "jobs/u.scala:ToF"}},
		{"test", map[string]any{"path": "jobs/celsius.py", "sql": "celsius * 1.8 + 32.0"}, []string{"test", "--format=json", "--sql=celsius * 1.8 + 32.0", "--", "jobs/celsius.py"}},
		{"test", map[string]any{"path": filepath.Join(root, "j.py"), "sql": "-x", "rows": 100, "seed": 7, "samples": "s.csv"}, []string{"test", "--format=json", "--sql=-x", "--samples=s.csv", "--rows=100", "--seed=7", "--", "j.py"}},
		{"test", map[string]any{"path": "j.py", "name": "f", "rewrite_file": "r.sql"}, []string{"test", "--format=json", "--rewrite=r.sql", "--", "j.py:f"}},
		{"test", map[string]any{"path": "j.py", "sql": "c", "engine": "spark"}, []string{"test", "--format=json", "--sql=c", "--engine=spark", "--", "j.py"}},
		{"bench", map[string]any{"path": "j.py", "sql": "c * 2", "engine": "spark", "rows": 1000, "runs": 5, "seed": 2}, []string{"bench", "--format=json", "--sql=c * 2", "--engine=spark", "--rows=1000", "--runs=5", "--seed=2", "--", "j.py"}},
		{"bench", map[string]any{"path": "j.py"}, []string{"bench", "--format=json", "--", "j.py"}},
		{"rewrite", map[string]any{"path": "j.py"}, []string{"rewrite", "--agent=builtin", "--", "j.py"}},
		{"rewrite", map[string]any{"path": "J.java", "name": "ToF", "targets": []string{"sql", "cuda"}, "apply": true, "rows": 2000, "seed": 3}, []string{"rewrite", "--agent=builtin", "--target=sql,cuda", "--apply", "--rows=2000", "--seed=3", "--", "J.java:ToF"}},
		{"rewrite", map[string]any{"path": "j.py", "apply": false}, []string{"rewrite", "--agent=builtin", "--", "j.py"}},
		{"rewrite", map[string]any{"path": "j.py", "engine": "spark"}, []string{"rewrite", "--agent=builtin", "--engine=spark", "--", "j.py"}},
		{"verify", map[string]any{}, []string{"verify", "--format=json", "--"}},
		{"verify", map[string]any{"path": ".", "skip_rerun": true}, []string{"verify", "--format=json", "--skip-rerun", "--", "."}},
		// A path that looks like a flag stays a path.
		{"scaffold", map[string]any{"path": "--apply"}, []string{"scaffold", "--format=json", "--", "--apply"}},
	}
	for _, c := range cases {
		f := &fake{reply: Result{Stdout: "{}\n"}}
		cs := connect(t, root, f.run)
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.tool, Arguments: c.in})
		require.NoError(t, err)
		require.False(t, res.IsError, "%s %v: %v", c.tool, c.in, text(res))
		require.Len(t, f.calls, 1)
		assert.Equal(t, c.want, f.calls[0], "%s %v", c.tool, c.in)
	}
}

func TestInputsRejectedBeforeAnyRun(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	require.NoError(t, os.Symlink(outside, filepath.Join(root, "link")))
	require.NoError(t, os.Mkdir(filepath.Join(root, "in"), 0o755))
	require.NoError(t, os.Symlink(filepath.Join(root, "in"), filepath.Join(root, "inner-link")))
	cases := []struct {
		tool string
		in   map[string]any
		want string
	}{
		{"scaffold", map[string]any{}, `missing properties: ["path"]`},
		{"scaffold", map[string]any{"path": "../x.py"}, `path "../x.py": leads outside the server's folder`},
		{"scaffold", map[string]any{"path": "a/../../x.py"}, `leads outside the server's folder`},
		{"scaffold", map[string]any{"path": outside + "/x.py"}, `leads outside the server's folder`},
		{"scaffold", map[string]any{"path": "link/x.py"}, ""},
		{"scaffold", map[string]any{"path": "link"}, `path "link": is a link leading outside the server's folder`},
		{"scaffold", map[string]any{"path": ""}, `path "": must not be empty`},
		{"scaffold", map[string]any{"path": "x.py", "rows": "many"}, `validating "arguments"`},
		{"scaffold", map[string]any{"path": "x.py", "extra": 1}, `validating "arguments"`},
		{"scan", map[string]any{"paths": []string{"ok", "/etc"}}, `paths "/etc": leads outside`},
		{"test", map[string]any{"path": "x.py"}, "give the candidate with exactly one of sql or rewrite_file"},
		{"test", map[string]any{"path": "x.py", "sql": "1", "rewrite_file": "r.sql"}, "exactly one of sql or rewrite_file"},
		{"test", map[string]any{"path": "x.py", "rewrite_file": "../r.sql"}, `rewrite_file "../r.sql": leads outside`},
		{"test", map[string]any{"path": "x.py", "sql": "1", "samples": "/tmp/s.csv"}, `samples "/tmp/s.csv": leads outside`},
		{"verify", map[string]any{"path": ".."}, `path "..": leads outside`},
	}
	for _, c := range cases {
		f := &fake{reply: Result{Stdout: "{}"}}
		cs := connect(t, root, f.run)
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.tool, Arguments: c.in})
		require.NoError(t, err, "%s %v", c.tool, c.in)
		if c.want == "" {
			// link/x.py does not exist, so only the lexical check applies
			// and the command itself reports the missing file.
			assert.False(t, res.IsError, "%s %v: %s", c.tool, c.in, text(res))
			continue
		}
		assert.True(t, res.IsError, "%s %v", c.tool, c.in)
		assert.Contains(t, text(res), c.want, "%s %v", c.tool, c.in)
		assert.Empty(t, f.calls, "%s %v ran udfx", c.tool, c.in)
	}

	// A link that stays inside is fine.
	f := &fake{reply: Result{Stdout: "{}"}}
	cs := connect(t, root, f.run)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "verify", Arguments: map[string]any{"path": "inner-link"}})
	require.NoError(t, err)
	assert.False(t, res.IsError, text(res))
	assert.Equal(t, [][]string{{"verify", "--format=json", "--", "inner-link"}}, f.calls)
}

func TestResultsCarryTheOutputAndTheExitCode(t *testing.T) {
	root := t.TempDir()
	cases := []struct {
		name       string
		reply      Result
		isError    bool
		texts      []string
		structured string
	}{
		{"JSON success", Result{Stdout: "{\"equal\": true}\n"}, false, []string{"{\"equal\": true}\n"}, `{"equal":true}`},
		{"mismatch keeps the report", Result{Stdout: "{\"equal\": false, \"counterexample\": {\"row\": 64}}\n", Stderr: "udfx: the rewrite differs from to_fahrenheit on 3 of 100 rows\n", ExitCode: 1},
			true, []string{"{\"equal\": false, \"counterexample\": {\"row\": 64}}\n", "udfx test exited with code 1 (a check failed):\nudfx: the rewrite differs from to_fahrenheit on 3 of 100 rows"}, `{"counterexample":{"row":64},"equal":false}`},
		{"usage error", Result{Stderr: "udfx: unknown --format \"x\"\n", ExitCode: 2}, true, []string{"udfx test exited with code 2 (bad usage):\nudfx: unknown --format \"x\""}, ""},
		{"cannot run", Result{Stderr: "udfx: cannot run the original: no JDK\n", ExitCode: 3}, true, []string{"udfx test exited with code 3 (udfx could not do its job):\nudfx: cannot run the original: no JDK"}, ""},
		{"text output", Result{Stdout: "to_fahrenheit (python, a.py)\n  result verified\n"}, false, []string{"to_fahrenheit (python, a.py)\n  result verified\n"}, ""},
		{"nothing printed", Result{}, false, []string{"udfx test finished (exit code 0)"}, ""},
		{"warnings", Result{Stdout: "[]", Stderr: "b.py:3: parse error\n"}, false, []string{"[]", "udfx test warned:\nb.py:3: parse error"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := &fake{reply: c.reply}
			cs := connect(t, root, f.run)
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "test", Arguments: map[string]any{"path": "a.py", "sql": "1"}})
			require.NoError(t, err)
			assert.Equal(t, c.isError, res.IsError)
			var texts []string
			for _, ct := range res.Content {
				texts = append(texts, ct.(*mcp.TextContent).Text)
			}
			assert.Equal(t, c.texts, texts)
			if c.structured == "" {
				assert.Nil(t, res.StructuredContent)
				return
			}
			b, err := json.Marshal(res.StructuredContent)
			require.NoError(t, err)
			assert.JSONEq(t, c.structured, string(b))
		})
	}
}

func TestOneCommandAtATime(t *testing.T) {
	var mu sync.Mutex
	running, most := 0, 0
	run := func(ctx context.Context, args []string) Result {
		mu.Lock()
		running++
		most = max(most, running)
		mu.Unlock()
		// Long enough for the other calls to overlap if they could.
		select {
		case <-time.After(20 * time.Millisecond):
		case <-ctx.Done():
		}
		mu.Lock()
		running--
		mu.Unlock()
		return Result{Stdout: "{}"}
	}
	cs := connect(t, t.TempDir(), run)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "verify", Arguments: map[string]any{}})
			assert.NoError(t, err)
		})
	}
	wg.Wait()
	assert.Equal(t, 1, most)
}

func TestNewRejectsAMissingRoot(t *testing.T) {
	_, err := New((&fake{}).run, Options{Root: filepath.Join(t.TempDir(), "gone")})
	assert.ErrorContains(t, err, "mcp server root")
}

func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}
