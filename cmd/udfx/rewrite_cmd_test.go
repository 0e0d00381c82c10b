package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/rewrite"
	"github.com/udfx/udfx/harness/testsetup"
)

// End-to-end tests of `udfx rewrite` on copies of the examples in a
// fresh git repository: the originals run for real (JVM, CPython).

// tempRepo copies the examples into a new git repository with one commit.
// The project's .venv is linked in (and ignored) so the runners find
// pyspark and Spark's jars.
func tempRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	src := repoRoot(t)
	for _, ex := range []string{"scala-to-fahrenheit", "java-to-fahrenheit", "python-celsius"} {
		from := filepath.Join(src, "examples", ex)
		entries, err := os.ReadDir(from)
		require.NoError(t, err)
		require.NoError(t, os.MkdirAll(filepath.Join(dir, "examples", ex), 0o755))
		for _, e := range entries {
			b, err := os.ReadFile(filepath.Join(from, e.Name()))
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(filepath.Join(dir, "examples", ex, e.Name()), b, 0o644))
		}
	}
	require.NoError(t, os.Symlink(filepath.Join(src, ".venv"), filepath.Join(dir, ".venv")))
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".gitignore"), []byte(".venv\n"), 0o644))
	git(t, dir, "init", "-q")
	git(t, dir, "add", ".")
	git(t, dir, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "examples")
	return dir
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "git %v: %s", args, out)
	return string(out)
}

// repoWithCopy is a new git repository whose one commit holds a copy of
// the file at path (relative to udfx's repository root) under its name.
func repoWithCopy(t *testing.T, path ...string) string {
	t.Helper()
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join(append([]string{repoRoot(t)}, path...)...))
	require.NoError(t, err)
	writeFile(t, filepath.Join(dir, path[len(path)-1]), string(src))
	git(t, dir, "init", "-q")
	git(t, dir, "add", ".")
	git(t, dir, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "job")
	return dir
}

// jvmRewriteFiles are the files a JVM example's default targets add
// under udfx-rewrites/ToFahrenheit, by target.
var jvmRewriteFiles = map[string][]string{
	"sql":      {"rewrite.sql"},
	"columnar": {"columnar/ToFahrenheitRapidsUDF.java"},
	"cuda": {"cuda/udf_row.h", "cuda/udf_kernel.cu", "cuda/udf_jni.cpp", "cuda/java/udfx/cuda/ToFahrenheitCuda.java",
		"cuda/CMakeLists.txt", "cuda/udfx_jvm.h"},
}

var rewriteExamples = []struct {
	name, target, file, udf, oldUse, newUse string
}{
	{"scala", "examples/scala-to-fahrenheit/ToFahrenheit.scala", "examples/scala-to-fahrenheit/ToFahrenheit.scala", "ToFahrenheit",
		`spark.sql("SELECT station, to_fahrenheit(temperature) AS fahrenheit FROM readings")`,
		`spark.sql("SELECT station, (CASE WHEN (temperature IS NULL) THEN CAST(NULL AS DOUBLE) ELSE (((temperature * 9.0D) / 5.0D) + 32.0D) END) AS fahrenheit FROM readings")`},
	{"java", "examples/java-to-fahrenheit/ToFahrenheit.java", "examples/java-to-fahrenheit/ToFahrenheit.java", "ToFahrenheit",
		`spark.sql("SELECT station, to_fahrenheit(temperature) AS fahrenheit FROM readings")`,
		`spark.sql("SELECT station, (CASE WHEN (temperature IS NULL) THEN CAST(NULL AS DOUBLE) ELSE (((temperature * 9.0D) / 5.0D) + 32.0D) END) AS fahrenheit FROM readings")`},
	{"python", "examples/python-celsius/celsius.py", "examples/python-celsius/celsius.py", "to_fahrenheit",
		`to_fahrenheit(col("temperature"))`,
		"expr(\"CASE WHEN (`temperature` IS NULL) THEN CAST(NULL AS DOUBLE) ELSE (((`temperature` * 9.0D) / 5.0D) + 32.0D) END\")"},
}

func TestRewriteCommandWritesAVerifiedSQLRewrite(t *testing.T) {
	t.Parallel()
	// The Scala and Java examples' RapidsUDF classes compile against the
	// real jars: this test fetches them itself, whichever package runs
	// first.
	testsetup.RapidsJars(t)
	for _, ex := range rewriteExamples {
		t.Run(ex.name, func(t *testing.T) {
			t.Parallel()
			dir := tempRepo(t)
			stdout, stderr, code := runCLI(t, dir, "rewrite", ex.target)
			require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
			// Not a terminal: no progress lines (TestRewriteTalksOnATerminal
			// has them on one).
			assert.Empty(t, stderr)
			assert.Contains(t, stdout, "candidate 1    sql: verified")
			jvm := ex.name != "python"
			if jvm {
				assert.Contains(t, stdout, "targets tried  sql, columnar, cuda")
				assert.Contains(t, stdout, "columnar       "+rewrite.ColumnarNote)
				assert.Contains(t, stdout, "cuda           "+rewrite.CUDANote)
			} else {
				assert.Contains(t, stdout, "targets tried  sql (")
				assert.NotContains(t, stdout, "columnar")
				assert.NotContains(t, stdout, "cuda")
			}
			assert.Contains(t, stdout, "speedup")
			assert.Contains(t, stdout, "patch          .udfx/"+ex.udf+"/rewrite.patch")

			// The repository is untouched: the workspace ignores itself, so
			// git status stays clean.
			assert.Equal(t, "", git(t, dir, "status", "--porcelain", "--untracked-files=normal"))
			assert.FileExists(t, filepath.Join(dir, ".udfx", ".gitignore"))
			ws := filepath.Join(dir, ".udfx", ex.udf)
			for _, f := range []string{"spec.json", "inputs.arrow", "baseline.tokens", "candidates/1/rewrite.sql", "candidates/1/report.json", "report.md", "evidence.json", "rewrite.patch"} {
				assert.FileExists(t, filepath.Join(ws, f))
			}
			git(t, dir, "apply", "--check", filepath.Join(ws, "rewrite.patch"))

			rec, err := evidence.Read(filepath.Join(ws, "evidence.json"))
			require.NoError(t, err)
			assert.Equal(t, evidence.Verified, rec.Result)
			assert.Equal(t, ex.file, rec.Original.File)
			assert.Equal(t, evidence.Engine{Name: "embedded", ANSI: true}, rec.Engine)
			assert.True(t, rec.Policy.Exact())
			assert.Equal(t, 10_000, rec.Rows)
			require.Len(t, rec.Benchmarks, 1)
			assert.GreaterOrEqual(t, rec.Benchmarks[0].Runs, 5)
			assert.Positive(t, rec.Benchmarks[0].Speedup)
			inputs, err := os.ReadFile(filepath.Join(ws, "inputs.arrow"))
			require.NoError(t, err)
			assert.Equal(t, evidence.SHA256(inputs), rec.InputsSHA256)
			spec, err := os.ReadFile(filepath.Join(ws, "spec.json"))
			require.NoError(t, err)
			assert.Equal(t, evidence.SHA256(spec), rec.SpecSHA256)

			report, err := os.ReadFile(filepath.Join(ws, "report.md"))
			require.NoError(t, err)
			for _, want := range []string{"## 1. Scaffold", "ran twice on 10000 rows", "| 1 | convert | sql |", "## 3. Benchmark", "## 4. Optimize", "no further candidate"} {
				assert.Contains(t, string(report), want)
			}
			if jvm {
				assert.Contains(t, string(report), "| columnar | accepted: "+rewrite.ColumnarNote+"; it needs a GPU to run |")
				assert.Contains(t, string(report), "| cuda | accepted: "+rewrite.CUDANote+"; equal to the original on all 10000 scaffold rows, bit-exact")
			} else {
				assert.NotContains(t, string(report), "| cuda |")
			}

			// Applying it writes the rewrite files and changes the use site.
			stdout, stderr, code = runCLI(t, dir, "rewrite", ex.target, "--apply")
			require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
			sql, err := os.ReadFile(filepath.Join(dir, "udfx-rewrites", ex.udf, "rewrite.sql"))
			require.NoError(t, err)
			recPath := "udfx-rewrites/" + ex.udf + "/evidence.json"
			assert.Equal(t, evidence.MarkerLine(".sql", recPath)+"\nCASE WHEN (`celsius` IS NULL) THEN CAST(NULL AS DOUBLE) ELSE (((`celsius` * 9.0D) / 5.0D) + 32.0D) END\n", string(sql))
			applied, err := evidence.Read(filepath.Join(dir, filepath.FromSlash(recPath)))
			require.NoError(t, err)
			assert.Equal(t, rec.Rewrites, applied.Rewrites)
			require.NotEmpty(t, applied.Rewrites)
			assert.Equal(t, evidence.RewriteFile{Target: "sql", Path: "udfx-rewrites/" + ex.udf + "/rewrite.sql", SHA256: evidence.SHA256(sql)}, applied.Rewrites[0])
			byTarget := map[string][]string{}
			for _, rw := range applied.Rewrites {
				rel := strings.TrimPrefix(rw.Path, "udfx-rewrites/"+ex.udf+"/")
				byTarget[rw.Target] = append(byTarget[rw.Target], rel)
				b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rw.Path)))
				require.NoError(t, err)
				assert.Equal(t, evidence.SHA256(b), rw.SHA256, rw.Path)
				marker, err := evidence.FindMarker(b)
				require.NoError(t, err, rw.Path)
				assert.Equal(t, recPath, marker, rw.Path)
			}
			if jvm {
				assert.Equal(t, jvmRewriteFiles, byTarget)
			} else {
				assert.Equal(t, map[string][]string{"sql": {"rewrite.sql"}}, byTarget)
			}
			src, err := os.ReadFile(filepath.Join(dir, ex.file))
			require.NoError(t, err)
			assert.Contains(t, string(src), ex.newUse)
			assert.NotContains(t, string(src), ex.oldUse)
			assert.Contains(t, string(src), "to_fahrenheit", "the registration or definition stays")
			if ex.name == "python" {
				assert.Contains(t, string(src), "from pyspark.sql.functions import col, udf, expr\n")
			}
			// The record's span hash is of the definition as the patch
			// leaves it.
			assert.Equal(t, rec.Original.SpanSHA256, applied.Original.SpanSHA256)

			// CI's check passes on the applied tree: every listed file
			// hash-checked, the sql rewrite re-tested. For the Java example
			// the use site lies inside the class, its definition: the
			// record hashes the class as the patch leaves it.
			stdout, stderr, code = runCLI(t, dir, "verify")
			require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
			checked := fmt.Sprintf("%d rewrites checked (1 records): %d pass", len(applied.Rewrites), len(applied.Rewrites))
			if len(applied.Rewrites) == 1 {
				checked = "1 rewrite checked (1 records): 1 pass"
			}
			assert.Contains(t, stdout, checked)
		})
	}
}

// TestRewriteOptimizeTriesEquivalentForms: with --optimize the built-in
// agent proposes the translator's expression without the null guard that
// Spark's arithmetic makes redundant; it is proved by the same
// differential test, raced head to head against the guarded form, and
// whichever was faster in that race is what the patch applies and
// udfx verify re-proves. Which one wins is the machine's business; the
// test checks that the kept form is the one the race named.
func TestRewriteOptimizeTriesEquivalentForms(t *testing.T) {
	t.Parallel()
	dir := tempRepo(t)
	const guarded = "CASE WHEN (`celsius` IS NULL) THEN CAST(NULL AS DOUBLE) ELSE (((`celsius` * 9.0D) / 5.0D) + 32.0D) END"
	const unguarded = "(((`celsius` * 9.0D) / 5.0D) + 32.0D)"
	stdout, stderr, code := runCLI(t, dir, "rewrite", "examples/java-to-fahrenheit/ToFahrenheit.java", "--target", "sql", "--optimize", "--apply")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.Contains(t, stdout, "candidate 1    sql: verified")
	assert.Contains(t, stdout, "candidate 2    sql: verified")
	report, err := os.ReadFile(filepath.Join(dir, ".udfx", "ToFahrenheit", "report.md"))
	require.NoError(t, err)
	assert.Contains(t, string(report), "| 1 | convert | sql | `` "+guarded+" `` | passed")
	assert.Contains(t, string(report), "| 2 | optimize | sql | `` "+unguarded+" `` | passed")
	race := regexp.MustCompile(`candidate 2 vs 1 head to head: median [0-9.]+s vs [0-9.]+s, (kept|replaced)`).FindStringSubmatch(string(report))
	require.NotNil(t, race, "report.md names the race:\n%s", report)
	want := guarded
	if race[1] == "replaced" {
		want = unguarded
	}
	sql, err := os.ReadFile(filepath.Join(dir, "udfx-rewrites", "ToFahrenheit", "rewrite.sql"))
	require.NoError(t, err)
	assert.Equal(t, evidence.MarkerLine(".sql", "udfx-rewrites/ToFahrenheit/evidence.json")+"\n"+want+"\n", string(sql))
	stdout, stderr, code = runCLI(t, dir, "verify")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.Contains(t, stdout, "1 rewrite checked (1 records): 1 pass")
}

func TestRewriteCommandRefusesToApplyOverUncommittedChanges(t *testing.T) {
	t.Parallel()
	dir := tempRepo(t)
	file := filepath.Join(dir, "examples", "python-celsius", "celsius.py")
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	dirty := append(b, []byte("# a local edit\n")...)
	require.NoError(t, os.WriteFile(file, dirty, 0o644))

	_, stderr, code := runCLI(t, dir, "rewrite", "examples/python-celsius/celsius.py", "--apply")
	require.Equal(t, exitUsage, code, stderr)
	assert.Contains(t, stderr, "uncommitted changes in examples/python-celsius/celsius.py")
	got, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.Equal(t, string(dirty), string(got))
	assert.NoDirExists(t, filepath.Join(dir, "udfx-rewrites"))

	_, stderr, code = runCLI(t, dir, "rewrite", "examples/python-celsius/celsius.py", "--apply", "--force")
	require.Equal(t, exitOK, code, stderr)
	got, err = os.ReadFile(file)
	require.NoError(t, err)
	assert.Contains(t, string(got), "# a local edit\n")
	assert.Contains(t, string(got), `expr("CASE WHEN`)
}

// halveThrice has a loop, which the built-in translator declines.
const halveThrice = `"""A UDF with a loop: the built-in translator declines loops."""
from pyspark.sql.functions import udf
from pyspark.sql.types import DoubleType


@udf(returnType=DoubleType())
def halve_thrice(x: float) -> float:
    if x is None:
        return None
    for _ in range(3):
        x = x / 2.0
    return x
`

func TestRewriteCommandDeclines(t *testing.T) {
	t.Parallel()
	dir := tempRepo(t)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "halve.py"), []byte(halveThrice), 0o644))
	git(t, dir, "add", "halve.py")
	git(t, dir, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "halve")
	stdout, stderr, code := runCLI(t, dir, "rewrite", "halve.py", "--apply")
	require.Equal(t, exitFailed, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.Contains(t, stdout, "declined       10:5-11:20 (sql): Python for_statement")
	assert.Contains(t, stdout, "result         no verified rewrite")
	assert.Contains(t, stderr, "no rewrite of halve_thrice passed")
	report, err := os.ReadFile(filepath.Join(dir, ".udfx", "halve_thrice", "report.md"))
	require.NoError(t, err)
	assert.Contains(t, string(report), "result: **no verified rewrite**")
	assert.Contains(t, string(report), "- 10:5-11:20 (sql): Python for_statement: not translated")
	assert.NoFileExists(t, filepath.Join(dir, ".udfx", "halve_thrice", "rewrite.patch"))
	assert.Equal(t, "", git(t, dir, "status", "--porcelain"), "only the workspace, which ignores itself")
}

func TestRewriteCommandUsage(t *testing.T) {
	t.Parallel()
	dir := tempRepo(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"rewrite", "examples/python-celsius/celsius.py", "--target", "cuda"}, "--target: target cuda does not apply to to_fahrenheit: it is a python UDF; columnar and cuda rewrites are RAPIDS rewrites of JVM (Java, Scala) UDFs"},
		{[]string{"rewrite", "examples/python-celsius/celsius.py", "--target", "sql,columnar"}, "--target: target columnar does not apply to to_fahrenheit"},
		{[]string{"rewrite", "examples/scala-to-fahrenheit/ToFahrenheit.scala", "--target", "gpu"}, `unknown --target "gpu": udfx rewrites to: sql, columnar, cuda, vectorized-python`},
		{[]string{"rewrite", "examples/scala-to-fahrenheit/ToFahrenheit.scala", "--target", "vectorized-python"}, "--target: target vectorized-python does not apply to ToFahrenheit: it is a scala function-class; vectorized-python rewrites Python UDFs"},
		{[]string{"rewrite", "examples/python-celsius/celsius.py", "--force"}, "--force only makes sense with --apply"},
		{[]string{"rewrite", "examples/python-celsius/celsius.py", "--native"}, "--native builds the cuda target's kernel, and the targets here are sql: add --target cuda (Java and Scala UDFs)"},
		{[]string{"rewrite", "examples/scala-to-fahrenheit/ToFahrenheit.scala", "--target", "sql,columnar", "--native"}, "--native builds the cuda target's kernel, and the targets here are sql,columnar: add --target cuda"},
		{[]string{"rewrite", "examples/nope.py"}, "read examples/nope.py"},
	} {
		_, stderr, code := runCLI(t, dir, c.args...)
		assert.Equal(t, exitUsage, code, "%v: %s", c.args, stderr)
		assert.Contains(t, stderr, c.want)
	}
}
