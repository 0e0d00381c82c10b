package batch

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/internal/digest"
	"github.com/udfx/udfx/internal/treetest"
)

var update = flag.Bool("update", false, "rewrite testdata/summary.golden and summary.json.golden")

func span(l1, l2 int) udf.Span {
	return udf.Span{Start: udf.Position{Line: l1, Column: 1}, End: udf.Position{Line: l2, Column: 80}}
}

// scanned is a scan's UDFs in the shapes Select meets: three languages,
// a registered SQL name, an RDD chain with a lambda inside it and one
// outside.
var scanned = []udf.UDF{
	{Name: "to_fahrenheit", Language: udf.Python, Kind: udf.KindPythonUDF, File: "jobs/celsius.py", Span: span(3, 5)},
	{Name: "ToUpper", RegisteredNames: []string{"to_upper"}, Language: udf.Scala, Kind: udf.KindUDFClass, File: "src/Up.scala", Span: span(1, 9)},
	{Name: "Mask", Language: udf.Java, Kind: udf.KindHiveUDF, File: "src/Mask.java", Span: span(1, 20)},
	{Name: "counts", Language: udf.Python, Kind: udf.KindRDDPipeline, File: "jobs/wc.py", Span: span(10, 14)},
	{Name: "<lambda@11:23>", Language: udf.Python, Kind: udf.KindRDDLambda, File: "jobs/wc.py", Span: span(11, 11)},
	{Name: "<lambda@30:5>", Language: udf.Python, Kind: udf.KindRDDLambda, File: "jobs/wc.py", Span: span(30, 30)},
}

func abs(f string) string { return "/repo/" + f }

func refs(items []Item) []string {
	var out []string
	for _, it := range items {
		r := it.Ref
		if it.Skip != "" {
			r += " (skipped)"
		}
		out = append(out, r)
	}
	return out
}

func TestSelectKeepsWhatTheFiltersSay(t *testing.T) {
	for _, tc := range []struct {
		name   string
		filter Filter
		want   []string
	}{
		{"no filter keeps all, the chain's own lambda skipped", Filter{}, []string{
			"jobs/celsius.py:to_fahrenheit", "src/Up.scala:ToUpper", "src/Mask.java:Mask", "jobs/wc.py:counts",
			"jobs/wc.py:<lambda@11:23> (skipped)", "jobs/wc.py:<lambda@30:5>"}},
		{"languages", Filter{Languages: []udf.Language{udf.Scala, udf.Java}}, []string{"src/Up.scala:ToUpper", "src/Mask.java:Mask"}},
		{"kinds", Filter{Kinds: []udf.Kind{udf.KindHiveUDF, udf.KindPythonUDF}}, []string{"jobs/celsius.py:to_fahrenheit", "src/Mask.java:Mask"}},
		{"a glob over names", Filter{Names: []string{"to_*"}}, []string{"jobs/celsius.py:to_fahrenheit", "src/Up.scala:ToUpper"}},
		{"an exact name", Filter{Names: []string{"Mask"}}, []string{"src/Mask.java:Mask"}},
		{"files", Filter{Files: map[string]bool{"/repo/jobs/wc.py": true}}, []string{"jobs/wc.py:counts", "jobs/wc.py:<lambda@11:23> (skipped)", "jobs/wc.py:<lambda@30:5>"}},
		{"no changed file keeps none", Filter{Files: map[string]bool{}}, nil},
		{"filters combine", Filter{Languages: []udf.Language{udf.Python}, Names: []string{"*lambda*"}}, []string{"jobs/wc.py:<lambda@11:23> (skipped)", "jobs/wc.py:<lambda@30:5>"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.NoError(t, tc.filter.Check())
			assert.Equal(t, tc.want, refs(Select(scanned, tc.filter, abs)))
		})
	}
}

func TestFilterCheckNamesTheBadValue(t *testing.T) {
	for _, tc := range []struct {
		filter Filter
		want   string
	}{
		{Filter{Languages: []udf.Language{"kotlin"}}, `unknown language "kotlin": want scala, java or python`},
		{Filter{Kinds: []udf.Kind{"udaf"}}, `unknown kind "udaf": want one of function-class, udf-class, hive-udf`},
		{Filter{Names: []string{"to_["}}, `name pattern "to_[": syntax error in pattern`},
	} {
		err := tc.filter.Check()
		require.Error(t, err)
		assert.Contains(t, err.Error(), tc.want)
	}
}

func TestRunKeepsOrderSkipsAndStopsWhenCancelled(t *testing.T) {
	items := Select(scanned, Filter{}, abs)
	var ran, started, done []string
	one := func(_ context.Context, it *Item) Row {
		ran = append(ran, it.UDF.Name)
		return Row{Status: Declined, Reason: "no rule"}
	}
	res := Run(context.Background(), items, one, 1, Hooks{
		Start: func(it *Item) { started = append(started, it.UDF.Name) },
		Done: func(i, n int, r *Row) {
			assert.Equal(t, len(items), n)
			assert.Equal(t, len(done)+1, i)
			done = append(done, r.UDF)
		},
	})
	assert.Equal(t, []string{"to_fahrenheit", "ToUpper", "Mask", "counts", "<lambda@30:5>"}, ran)
	assert.Len(t, started, len(items))
	assert.Len(t, done, len(items))
	assert.False(t, res.Stopped)
	assert.Equal(t, 5, res.Count(Declined))
	assert.Equal(t, 1, res.Count(Skipped))
	skipped := res.Rows[4]
	assert.Equal(t, Row{UDF: "<lambda@11:23>", File: "jobs/wc.py", Language: udf.Python, Kind: udf.KindRDDLambda, Status: Skipped,
		Reason: "part of the RDD chain counts, rewritten whole", Seconds: skipped.Seconds}, skipped)

	// Cancelled while the second UDF runs: it finishes, no third starts.
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	res = Run(ctx, items, func(context.Context, *Item) Row {
		if n++; n == 2 {
			cancel()
		}
		return Row{Status: Verified, Target: "sql", Speedup: 2}
	}, 1, Hooks{})
	assert.True(t, res.Stopped)
	assert.Len(t, res.Rows, 2)
}

// With several jobs the UDFs run at once, the hooks one at a time, and
// the rows keep the items' order whatever order they finish in.
func TestRunInParallelKeepsTheItemsOrder(t *testing.T) {
	items := Select(scanned, Filter{}, abs)
	var running, most atomic.Int32
	release := make(chan struct{})
	go func() {
		// Let the first three run together before any finishes.
		for running.Load() < 3 {
			time.Sleep(time.Millisecond)
		}
		close(release)
	}()
	var doneOrder []int
	res := Run(context.Background(), items, func(_ context.Context, it *Item) Row {
		n := running.Add(1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		<-release
		running.Add(-1)
		return Row{Status: Declined, Reason: it.UDF.Name}
	}, 3, Hooks{Done: func(done, n int, r *Row) { doneOrder = append(doneOrder, done) }})
	assert.Equal(t, int32(3), most.Load())
	assert.Equal(t, []int{1, 2, 3, 4, 5, 6}, doneOrder)
	require.Len(t, res.Rows, len(items))
	for i, r := range res.Rows {
		assert.Equal(t, items[i].UDF.Name, r.UDF)
	}
}

// summary is a finished run with every status, a reason with a newline
// and an escape sequence from the repository's text.
var summary = &Result{Seconds: 41.25, Rows: []Row{
	{UDF: "to_fahrenheit", File: "jobs/celsius.py", Language: udf.Python, Kind: udf.KindPythonUDF, Status: Verified, Target: "sql", Speedup: 31.84, Seconds: 1.7, Report: ".udfx/to_fahrenheit/report.md", RewriteDir: "udfx-rewrites/to_fahrenheit"},
	{UDF: "moving_average", File: "jobs/vectors.py", Language: udf.Python, Kind: udf.KindPandasUDF, Status: Verified, Target: "vectorized-python", Seconds: 12.7, Report: ".udfx/moving_average/report.md", RewriteDir: "udfx-rewrites/moving_average", Cached: true},
	{UDF: "ToUpper", File: "src/Up.scala", Language: udf.Scala, Kind: udf.KindUDFClass, Status: Declined, Reason: "s.toUpperCase: no exact SQL\nfor the JVM's case mapping", Seconds: 3.2},
	{UDF: "Mask", File: "src/Mask.java", Language: udf.Java, Kind: udf.KindHiveUDF, Status: Refuted, Reason: "sql: differs on 12 of 10000 rows", Seconds: 4.05},
	{UDF: "load\x1b[2J", File: "jobs/etl.py", Language: udf.Python, Kind: udf.KindPythonUDF, Status: Error, Reason: "cannot run the original: jobs/etl.py:3: ModuleNotFoundError: No module named 'boto3'", Seconds: 0.4},
	{UDF: "<lambda@11:23>", File: "jobs/wc.py", Language: udf.Python, Kind: udf.KindRDDLambda, Status: Skipped, Reason: "part of the RDD chain counts, rewritten whole"},
}}

func TestSummaryFormats(t *testing.T) {
	var text bytes.Buffer
	for i := range summary.Rows {
		text.WriteString(Line(i+1, len(summary.Rows), &summary.Rows[i]) + "\n")
	}
	text.WriteString("\n")
	require.NoError(t, WriteTable(&text, summary))
	golden(t, "summary.golden", text.Bytes())

	var js bytes.Buffer
	require.NoError(t, WriteJSON(&js, summary, "udfx test"))
	golden(t, "summary.json.golden", js.Bytes())
	var doc struct {
		Counts map[string]int    `json:"counts"`
		UDFs   []json.RawMessage `json:"udfs"`
	}
	require.NoError(t, json.Unmarshal(js.Bytes(), &doc))
	assert.Equal(t, map[string]int{"verified": 2, "declined": 1, "refuted": 1, "error": 1, "skipped": 1}, doc.Counts)
	assert.Len(t, doc.UDFs, 6)

	var pr bytes.Buffer
	require.NoError(t, WritePRBody(&pr, summary, PRBody{Tool: "udfx test", Command: "udfx rewrite jobs src"}))
	golden(t, "pr-body.md.golden", pr.Bytes())
	assert.Equal(t, `a &lt;lambda@3:9> \| b`, prText("a <lambda@3:9> | b"), "GitHub would take <lambda...> for HTML")
	assert.NotContains(t, pr.String(), "\x1b", "no escape sequence reaches the page")

	var stopped bytes.Buffer
	require.NoError(t, WriteTable(&stopped, &Result{Rows: summary.Rows[:1], Stopped: true}))
	assert.Contains(t, stopped.String(), "1 UDF: 1 verified in 0.0s\nStopped early: the rows above are the UDFs that ran.\n")
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.WriteFile(path, got, 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test ./internal/batch -update")
	assert.Equal(t, string(want), string(got))
}

func TestChangedFilesSinceARef(t *testing.T) {
	dir, run, write := treetest.GitRepo(t)
	write(".gitignore", "build/\n")
	write("a.py", "1")
	write("b.py", "1")
	write("c.py", "1")
	run("add", ".")
	run("commit", "-qm", "base")
	run("tag", "base")
	write("a.py", "2") // committed after base
	run("commit", "-qam", "a")
	write("b.py", "2")       // changed, not committed
	write("sub/new.py", "1") // new
	write("build/gen.py", "1")
	resolved, err := filepath.EvalSymlinks(dir)
	require.NoError(t, err)

	files, err := ChangedFiles(context.Background(), filepath.Join(dir, "sub"), "base")
	require.NoError(t, err)
	want := map[string]bool{}
	for _, f := range []string{"a.py", "b.py", "sub/new.py"} {
		want[filepath.ToSlash(filepath.Join(resolved, f))] = true
	}
	assert.Equal(t, want, files)

	_, err = ChangedFiles(context.Background(), dir, "no-such-branch")
	assert.EqualError(t, err, "--changed-since no-such-branch: git knows no such commit")
	_, err = ChangedFiles(context.Background(), dir, "--output=x")
	assert.ErrorContains(t, err, "want a commit, branch or tag")
	_, err = ChangedFiles(context.Background(), t.TempDir(), "HEAD")
	assert.ErrorContains(t, err, "--changed-since needs a git repository")
}

func TestCacheKeepsVerdictsWhileTheirFilesAreUnchanged(t *testing.T) {
	dir := t.TempDir()
	c := &Cache{Dir: filepath.Join(dir, "proofs")}
	report := filepath.Join(dir, "ws", "report.md")
	require.NoError(t, os.MkdirAll(filepath.Dir(report), 0o755))
	require.NoError(t, os.WriteFile(report, []byte("verified"), 0o644))
	row := Row{UDF: "twice", Status: Verified, Target: "sql", Speedup: 2.5, Report: ".udfx/twice/report.md"}
	key := digest.Key("a", "b")

	_, ok := c.Get(key)
	assert.False(t, ok, "empty cache")
	require.NoError(t, c.Put(key, row, []string{report, filepath.Join(dir, "ws", "missing.json")}))
	got, ok := c.Get(key)
	require.True(t, ok)
	assert.Equal(t, row, got)
	_, ok = c.Get(digest.Key("a", "c"))
	assert.False(t, ok, "another key")

	require.NoError(t, os.WriteFile(report, []byte("edited"), 0o644))
	_, ok = c.Get(key)
	assert.False(t, ok, "a file it stands on changed")
	require.NoError(t, os.Remove(report))
	_, ok = c.Get(key)
	assert.False(t, ok, "a file it stands on is gone")

	require.NoError(t, os.WriteFile(c.path(key), []byte(`{"version":1,"row":{"status":"error"},"files":{}}`), 0o644))
	_, ok = c.Get(key)
	assert.False(t, ok, "an error is never taken")
	require.NoError(t, os.WriteFile(c.path(key), []byte(`{"version":99,"row":{"status":"verified"},"files":{}}`), 0o644))
	_, ok = c.Get(key)
	assert.False(t, ok, "another version's entry")
	require.NoError(t, os.WriteFile(c.path(key), []byte(`not json`), 0o644))
	_, ok = c.Get(key)
	assert.False(t, ok, "a damaged entry")

	for _, s := range Statuses {
		assert.Equal(t, s == Verified || s == Declined || s == Refuted, Cacheable(s), s)
	}
}
