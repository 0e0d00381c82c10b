package patch

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/internal/applyjournal"
)

// TestUnifiedDiffAppliesWithGit checks the generator against `git apply`:
// each patch must turn the old content into the new one exactly.
func TestUnifiedDiffAppliesWithGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatalf("git is needed: %v", err)
	}
	long := strings.Repeat("line\n", 20)
	cases := []struct{ name, old, new string }{
		{"change-middle", "a\nb\nc\nd\ne\nf\ng\nh\ni\n", "a\nb\nc\nd\nE\nf\ng\nh\ni\n"},
		{"two-hunks", "1\n" + long + "2\n" + long + "3\n", "one\n" + long + "2\n" + long + "three\n"},
		{"insert-top", "x\ny\n", "new\nx\ny\n"},
		{"append", "x\ny\n", "x\ny\nz\n"},
		{"delete-all-but-one", "x\ny\nz\n", "y\n"},
		{"no-final-newline", "x\ny", "x\nY"},
		{"add-final-newline", "x\ny", "x\ny\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			run := func(args ...string) {
				cmd := exec.Command("git", args...)
				cmd.Dir = dir
				out, err := cmd.CombinedOutput()
				require.NoError(t, err, "git %v: %s", args, out)
			}
			run("init", "-q")
			require.NoError(t, os.WriteFile(filepath.Join(dir, "f.txt"), []byte(c.old), 0o644))
			diff := UnifiedDiff([]FileChange{
				{Path: "f.txt", Old: []byte(c.old), New: []byte(c.new)},
				{Path: "sub/new.txt", New: []byte("created\n")},
			})
			require.NoError(t, os.WriteFile(filepath.Join(dir, "p.patch"), []byte(diff), 0o644))
			run("apply", "p.patch")
			got, err := os.ReadFile(filepath.Join(dir, "f.txt"))
			require.NoError(t, err)
			assert.Equal(t, c.new, string(got), diff)
			created, err := os.ReadFile(filepath.Join(dir, "sub", "new.txt"))
			require.NoError(t, err)
			assert.Equal(t, "created\n", string(created))
		})
	}
	assert.Empty(t, UnifiedDiff([]FileChange{{Path: "same", Old: []byte("x\n"), New: []byte("x\n")}}))
}

func TestSubstitute(t *testing.T) {
	params := []udf.Param{{Name: "celsius"}, {Name: "s"}}
	cases := []struct{ sql, want string }{
		{"(`celsius` * 9.0D) + 32.0D", "(temp * 9.0D) + 32.0D"},
		{"celsius + length(s)", "temp + length(name)"},
		{"concat('celsius', `s`)", "concat('celsius', name)"}, // not inside string literals
		{"s(celsius)", "s(temp)"},                             // a function named like a parameter
		{"t.celsius + 1.0D", "t.celsius + 1.0D"},              // a qualified name is not the parameter
		{"`we``ird` + celsius", "`we``ird` + temp"},
	}
	for _, c := range cases {
		got, err := substitute(c.sql, params, []string{"temp", "name"})
		require.NoError(t, err, c.sql)
		assert.Equal(t, c.want, got, c.sql)
	}
	_, err := substitute("x", params, []string{"a"})
	assert.Error(t, err)
}

func TestRewriteSQLText(t *testing.T) {
	params := []udf.Param{{Name: "c"}}
	got, n, err := rewriteSQLText("SELECT TO_F(a.t), 'to_f(x)', to_f (t + 1) FROM r", []string{"to_f"}, "`c` * 2.0D", params)
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	assert.Equal(t, "SELECT (a.t * 2.0D), 'to_f(x)', ((t + 1) * 2.0D) FROM r", got)
}

func TestRewriteUseSitesImportsExpr(t *testing.T) {
	cases := []struct {
		lang       udf.Language
		src, call  string
		wantImport string
	}{
		{udf.Python, "from pyspark.sql.functions import col, udf\n\ndf.select(f(col(\"t\")))\n", `f(col("t"))`, "from pyspark.sql.functions import col, udf, expr\n"},
		{udf.Python, "import sys\n\ndf.select(f(F.col('t')))\n", `f(F.col('t'))`, ""},
		{udf.Scala, "import org.apache.spark.sql.functions.{col, udf}\n\nx(f(col(\"t\")))\n", `f(col("t"))`, "import org.apache.spark.sql.functions.{col, udf, expr}\n"},
		{udf.Scala, "import a.B\n\nx(f($\"t\"))\n", `f($"t")`, "import a.B\nimport org.apache.spark.sql.functions.expr\n"},
		{udf.Java, "import a.B;\n\nx(f(col(\"t\")));\n", `f(col("t"))`, "import a.B;\nimport static org.apache.spark.sql.functions.expr;\n"},
		// Made and called in one expression: by a factory, or udf(...).
		{udf.Python, "import sys\n\ndf.select(make_f(\"a(b\", 2)(F.col(\"t\")))\n", `make_f("a(b", 2)(F.col("t"))`, ""},
		{udf.Python, "import sys\n\ndf.select(F.udf(g, \"double\")(F.col(\"t\")))\n", `F.udf(g, "double")(F.col("t"))`, ""},
	}
	for _, c := range cases {
		i := strings.Index(c.src, c.call)
		line := strings.Count(c.src[:i], "\n") + 1
		col := i - strings.LastIndex(c.src[:i], "\n")
		u := &udf.UDF{Name: "f", Language: c.lang, Params: []udf.Param{{Name: "c"}},
			UseSites: []udf.UseSite{{Kind: udf.UseCall, Text: c.call, Span: udf.Span{
				Start: udf.Position{Line: line, Column: col}, End: udf.Position{Line: line, Column: col + len(c.call)}}}}}
		got, edits, err := RewriteUseSites(u, []byte(c.src), "`c` + 1.0D")
		require.NoError(t, err)
		require.Len(t, edits, 1)
		assert.Contains(t, string(got), "expr(\"`t` + 1.0D\")", c.src)
		assert.NotContains(t, string(got), c.call)
		if c.wantImport != "" {
			assert.True(t, strings.HasPrefix(string(got), c.wantImport), "%s", got)
		} else {
			assert.Contains(t, string(got), "F.expr(")
		}
	}
}

func TestRewriteUseSitesKeepsWhatItCannotChange(t *testing.T) {
	src := "x(f(lit(1.0)))\ny = s\"SELECT f(t)\"\n"
	u := &udf.UDF{Name: "f", Language: udf.Scala, RegisteredNames: []string{"f"}, Params: []udf.Param{{Name: "c"}},
		UseSites: []udf.UseSite{
			{Kind: udf.UseCall, Text: "f(lit(1.0))", Span: udf.Span{Start: udf.Position{Line: 1, Column: 3}, End: udf.Position{Line: 1, Column: 14}}},
			{Kind: udf.UseSQL, Text: "s\"SELECT f(t)\"", Span: udf.Span{Start: udf.Position{Line: 2, Column: 5}, End: udf.Position{Line: 2, Column: 19}}},
		}}
	got, edits, err := RewriteUseSites(u, []byte(src), "`c`")
	require.NoError(t, err)
	assert.Equal(t, src, string(got))
	require.Len(t, edits, 2)
	assert.Contains(t, edits[0].Note, "not a column reference")
	assert.Contains(t, edits[1].Note, "not a plain string literal")
}

func TestApplyRollsBackAndRefusesChangedFiles(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.txt"), []byte("old\n"), 0o644))
	err := Apply(dir, "f", []FileChange{{Path: "a.txt", Old: []byte("older\n"), New: []byte("new\n")}}, false)
	var ce *ChangedError
	require.ErrorAs(t, err, &ce)

	// A folder the rewrite cannot write into makes the second write fail.
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "blocked"), 0o755))
	require.NoError(t, os.Chmod(filepath.Join(dir, "blocked"), 0o555))
	t.Cleanup(func() { os.Chmod(filepath.Join(dir, "blocked"), 0o755) })
	err = Apply(dir, "f", []FileChange{
		{Path: "a.txt", Old: []byte("old\n"), New: []byte("new\n")},
		{Path: "blocked/x.txt", Old: nil, New: []byte("y\n")},
	}, false)
	if os.Geteuid() == 0 {
		// root writes through 0555; the apply then succeeds.
		require.NoError(t, err)
		return
	}
	require.Error(t, err)
	b, rerr := os.ReadFile(filepath.Join(dir, "a.txt"))
	require.NoError(t, rerr)
	assert.Equal(t, "old\n", string(b), "a failed apply restores what it wrote")
}

// TestApplyRefusesToWriteOutsideTheRepository: a committed symbolic link
// (a folder or the file itself) that leads out of the repository stops
// the apply before anything is written, there or in the repository.
func TestApplyRefusesToWriteOutsideTheRepository(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "job.py"), []byte("old\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(outside, "lib.py"), []byte("old\n"), 0o644))
	require.NoError(t, os.Symlink(outside, filepath.Join(dir, "udfx-rewrites")))
	require.NoError(t, os.Symlink(filepath.Join(outside, "lib.py"), filepath.Join(dir, "lib.py")))
	for _, c := range []FileChange{
		{Path: "udfx-rewrites/f/rewrite.sql", New: []byte("x + 1\n")},
		{Path: "lib.py", Old: []byte("old\n"), New: []byte("new\n")},
	} {
		err := Apply(dir, "f", []FileChange{{Path: "job.py", Old: []byte("old\n"), New: []byte("new\n")}, c}, true)
		var oe *OutsideError
		require.ErrorAs(t, err, &oe, c.Path)
		assert.Equal(t, c.Path, oe.File)
		realOutside, rerr := filepath.EvalSymlinks(outside)
		require.NoError(t, rerr)
		assert.Equal(t, filepath.Join(realOutside, strings.TrimPrefix(c.Path, "udfx-rewrites/")), oe.Resolved)
		assert.Contains(t, err.Error(), "leads outside the repository")
	}
	b, err := os.ReadFile(filepath.Join(dir, "job.py"))
	require.NoError(t, err)
	assert.Equal(t, "old\n", string(b))
	entries, err := os.ReadDir(outside)
	require.NoError(t, err)
	require.Len(t, entries, 1)
	b, err = os.ReadFile(filepath.Join(outside, "lib.py"))
	require.NoError(t, err)
	assert.Equal(t, "old\n", string(b))

	// A link that stays inside is followed.
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "real"), 0o755))
	require.NoError(t, os.Symlink("real", filepath.Join(dir, "alias")))
	require.NoError(t, Apply(dir, "f", []FileChange{{Path: "alias/r.sql", New: []byte("x\n")}}, true))
	assert.FileExists(t, filepath.Join(dir, "real", "r.sql"))
}

// TestApplyKeepsTheRecordedUseSites: a record whose use sites an earlier
// apply rewrote is not replaced by one without them; one that keeps them
// is.
func TestApplyKeepsTheRecordedUseSites(t *testing.T) {
	dir := t.TempDir()
	site := evidence.UseSite{File: "job.py", Kind: "call", Old: "f(col(\"x\"))", New: "expr(\"x + 1\")",
		Span: udf.Span{Start: udf.Position{Line: 7, Column: 5}, End: udf.Position{Line: 7, Column: 20}}}
	record := func(sites ...evidence.UseSite) []byte {
		b, err := json.Marshal(&evidence.Record{UseSites: sites})
		require.NoError(t, err)
		return b
	}
	const path = "udfx-rewrites/f/evidence.json"
	old := record(site)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "udfx-rewrites", "f"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, filepath.FromSlash(path)), old, 0o644))
	err := Apply(dir, "f", []FileChange{{Path: path, Old: old, New: record()}}, true)
	var de *DroppedUseSitesError
	require.ErrorAs(t, err, &de)
	assert.Equal(t, []string{"job.py:7:5"}, de.Sites)
	assert.Contains(t, err.Error(), "remove udfx-rewrites/f")
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(path)))
	require.NoError(t, err)
	assert.Equal(t, old, b)

	moved := site
	moved.Span.Start.Line = 9
	require.NoError(t, Apply(dir, "f", []FileChange{{Path: path, Old: old, New: record(moved)}}, true))
}

// Apply goes through a journal in the repository's own workspace, and
// leaves none behind; an apply killed halfway is found by OpenJournals,
// blocks the next apply, and Recover rolls it back.
func TestApplyGoesThroughAJournal(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "job.py"), []byte("old\n"), 0o644))
	changes := []FileChange{
		{Path: "udfx-rewrites/f/rewrite.sql", New: []byte("x + 1\n")},
		{Path: "job.py", Old: []byte("old\n"), New: []byte("new\n")},
	}
	require.NoError(t, Apply(dir, "f", changes, false))
	b, err := os.ReadFile(filepath.Join(dir, "job.py"))
	require.NoError(t, err)
	assert.Equal(t, "new\n", string(b))
	assert.FileExists(t, filepath.Join(dir, ".udfx", ".gitignore"), "the journal's workspace ignores itself")
	assert.NoDirExists(t, JournalDir(dir, "f"))
	open, err := OpenJournals(dir)
	require.NoError(t, err)
	assert.Empty(t, open)

	// Undo by hand, then an apply killed after its first rename.
	require.NoError(t, os.RemoveAll(filepath.Join(dir, "udfx-rewrites")))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "job.py"), []byte("old\n"), 0o644))
	files := []applyjournal.File{{Path: changes[0].Path, New: changes[0].New}, {Path: changes[1].Path, Old: changes[1].Old, New: changes[1].New}}
	c := &applyjournal.Commit{Root: dir, Dir: JournalDir(dir, "f"), UDF: "f", Files: files, AfterStep: func(step int) error {
		if step == len(files)+2 {
			return errors.New("killed")
		}
		return nil
	}}
	require.Error(t, c.Run())
	open, err = OpenJournals(dir)
	require.NoError(t, err)
	require.Len(t, open, 1)
	assert.Equal(t, OpenJournal{Path: filepath.Join(JournalDir(dir, "f"), applyjournal.FileName), UDF: "f", Files: []string{"udfx-rewrites/f/rewrite.sql", "job.py"}}, open[0])

	var oe *applyjournal.OpenError
	require.ErrorAs(t, Apply(dir, "f", []FileChange{{Path: "job.py", Old: []byte("old\n"), New: []byte("new\n")}}, false), &oe)

	reps, err := Recover(dir)
	require.NoError(t, err)
	require.Len(t, reps, 1)
	assert.Equal(t, "removed udfx-rewrites/f/rewrite.sql", reps[0].Summary())
	assert.NoDirExists(t, filepath.Join(dir, "udfx-rewrites"))
	reps, err = Recover(dir)
	require.NoError(t, err)
	assert.Empty(t, reps)
}

// Spark resolves column names case-insensitively, so a candidate that
// passed with CELSIUS used the parameter celsius: the call site must get
// the argument there too (issue 11, item 5).
func TestSubstituteResolvesParametersAsSparkDoes(t *testing.T) {
	params := []udf.Param{{Name: "celsius"}, {Name: "s"}}
	got, err := substitute("CELSIUS * 9.0D / 5.0D + `Celsius` + length(S)", params, []string{"temp", "name"})
	require.NoError(t, err)
	assert.Equal(t, "temp * 9.0D / 5.0D + temp + length(name)", got)

	// Two parameters one name resolves to: ambiguous in Spark too.
	_, err = substitute("a + 1", []udf.Param{{Name: "a"}, {Name: "A"}}, []string{"x", "y"})
	assert.ErrorContains(t, err, `"a" names both parameters a and A`)
}

func TestCaseChangedParameterAtTheCallSite(t *testing.T) {
	src := "from pyspark.sql.functions import col, udf\n\ndf.withColumn(\"f\", to_fahrenheit(col(\"temperature\")))\nspark.sql(\"SELECT to_fahrenheit(t) FROM r\")\n"
	site := func(kind udf.UseKind, text string) udf.UseSite {
		i := strings.Index(src, text)
		line := strings.Count(src[:i], "\n") + 1
		col := i - strings.LastIndex(src[:i], "\n")
		return udf.UseSite{Kind: kind, Text: text, Span: udf.Span{Start: udf.Position{Line: line, Column: col}, End: udf.Position{Line: line, Column: col + len(text)}}}
	}
	u := &udf.UDF{Name: "to_fahrenheit", Language: udf.Python, RegisteredNames: []string{"to_fahrenheit"}, Params: []udf.Param{{Name: "celsius"}},
		UseSites: []udf.UseSite{
			site(udf.UseCall, `to_fahrenheit(col("temperature"))`),
			site(udf.UseSQL, `"SELECT to_fahrenheit(t) FROM r"`),
		}}
	got, edits, err := RewriteUseSites(u, []byte(src), "CELSIUS * 9.0D / 5.0D + 32.0D")
	require.NoError(t, err)
	assert.NotContains(t, string(got), "CELSIUS")
	assert.Contains(t, string(got), "expr(\"`temperature` * 9.0D / 5.0D + 32.0D\")")
	assert.Contains(t, string(got), `spark.sql("SELECT (t * 9.0D / 5.0D + 32.0D) FROM r")`)

	// Each edit says where its new text lies in the result, which the
	// record lists and verify checks.
	require.Len(t, edits, 2)
	for _, e := range edits {
		at, err := evidence.SpanText(got, e.At)
		require.NoError(t, err)
		assert.Equal(t, e.New, string(at))
		again, err := UseSiteText(u, e.Kind, e.Old, "CELSIUS * 9.0D / 5.0D + 32.0D")
		require.NoError(t, err)
		assert.Equal(t, e.New, again, "verify derives the same text from the record")
	}
	uses := RecordUseSites("jobs/c.py", got, edits)
	require.Len(t, uses, 2)
	assert.Equal(t, evidence.SHA256([]byte(uses[0].New)), uses[0].NewSHA256)
	// Each site's context is the rest of its line, by which verify finds
	// it after lines above it move.
	assert.Equal(t, []string{`df.withColumn("f", `, ")"}, []string{uses[0].Before, uses[0].After})
	assert.Equal(t, []string{"spark.sql(", ")"}, []string{uses[1].Before, uses[1].After})
}
