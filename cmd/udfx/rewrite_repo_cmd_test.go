package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/evidence"
)

// End-to-end tests of `udfx rewrite` over folders: every UDF a scan finds,
// each run for real as `udfx rewrite FILE:NAME` runs it.

// jobsRepo is tempRepo with a folder of everyday outcomes beside the
// examples: a UDF udfx proves, one it declines, and one whose module
// cannot be imported here.
func jobsRepo(t *testing.T) string {
	t.Helper()
	dir := tempRepo(t)
	writeFile(t, filepath.Join(dir, "jobs", "more.py"), `from pyspark.sql.functions import udf
from pyspark.sql.types import StringType, IntegerType


@udf(returnType=StringType())
def shout(s: str) -> str:
    if s is None:
        return None
    return s.swapcase()


@udf(returnType=IntegerType())
def twice(n: int) -> int:
    if n is None:
        return None
    return n * 2
`)
	writeFile(t, filepath.Join(dir, "jobs", "cloud.py"), `import boto3
from pyspark.sql.functions import udf
from pyspark.sql.types import StringType


@udf(returnType=StringType())
def bucket_of(path: str) -> str:
    return path.split("/")[2]
`)
	git(t, dir, "add", "jobs")
	git(t, dir, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "jobs")
	return dir
}

func TestRewriteOverFoldersRunsEveryUDFAndSummarizes(t *testing.T) {
	t.Parallel()
	dir := jobsRepo(t)
	stdout, stderr, code := runCLI(t, dir, "rewrite", "jobs", "examples/python-celsius")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.Empty(t, stderr)
	// --jobs runs two at once here: lines come in the order UDFs end.
	lines := linesByRef(t, stdout, 4)
	for ref, want := range map[string]string{
		"examples/python-celsius/celsius.py:to_fahrenheit": "verified  sql ",
		"jobs/cloud.py:bucket_of":                          "error     cannot run the original: jobs/cloud.py:1: ModuleNotFoundError: No module named 'boto3'  ",
		"jobs/more.py:shout":                               "declined  str.swapcase: no rule proves a Spark SQL form equal to this str method  ",
		"jobs/more.py:twice":                               "verified  sql ",
	} {
		assert.True(t, strings.HasPrefix(lines[ref], want), "%s: %q", ref, lines[ref])
	}
	assert.Regexp(t, `(?m)^UDF +FILE +RESULT +TARGET +SPEEDUP +TIME +REASON / REPORT$`, stdout)
	assert.Regexp(t, `(?m)^twice +jobs/more\.py +verified +sql +[0-9.]+× +[0-9.]+s +\.udfx/twice/report\.md$`, stdout)
	assert.Regexp(t, `(?m)^shout +jobs/more\.py +declined +- +- +[0-9.]+s +str\.swapcase: `, stdout)
	assert.Regexp(t, `(?m)^4 UDFs: 2 verified, 1 declined, 1 error in [0-9.]+s$`, stdout)

	// Each UDF has the workspace a run of it alone leaves; the
	// repository itself is untouched.
	rec, err := evidence.Read(filepath.Join(dir, ".udfx", "twice", "evidence.json"))
	require.NoError(t, err)
	assert.Equal(t, evidence.Verified, rec.Result)
	assert.Equal(t, "jobs/more.py", rec.Original.File)
	assert.FileExists(t, filepath.Join(dir, ".udfx", "shout", "report.md"))
	assert.Equal(t, "", git(t, dir, "status", "--porcelain", "--untracked-files=normal"))

	// Filters, and JSON: the summary alone on stdout, the lines on
	// stderr. None verified is exit 1.
	stdout, stderr, code = runCLI(t, dir, "rewrite", ".", "--lang", "python", "--name", "sh*", "--format", "json")
	require.Equal(t, exitFailed, code, "stderr: %s\nstdout: %s", stderr, stdout)
	var doc struct {
		Counts map[string]int `json:"counts"`
		UDFs   []struct {
			UDF, File, Status, Reason string
		} `json:"udfs"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &doc), stdout)
	require.Len(t, doc.UDFs, 1)
	assert.Equal(t, "shout", doc.UDFs[0].UDF)
	assert.Equal(t, "declined", doc.UDFs[0].Status)
	assert.Equal(t, 1, doc.Counts["declined"])
	assert.Contains(t, stderr, "[1/1] declined  str.swapcase")
	assert.Contains(t, stderr, "udfx: no rewrite of the 1 UDFs passed")
}

func TestRewriteOverFoldersTakesTheUDFsChangedSinceARef(t *testing.T) {
	t.Parallel()
	dir := jobsRepo(t)
	more := filepath.Join(dir, "jobs", "more.py")
	b, err := os.ReadFile(more)
	require.NoError(t, err)
	writeFile(t, more, strings.Replace(string(b), "n * 2", "n * 3", 1))
	stdout, stderr, code := runCLI(t, dir, "rewrite", ".", "--changed-since", "HEAD")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.Regexp(t, `(?m)^2 UDFs: 1 verified, 1 declined in `, stdout)
	assert.Contains(t, stdout, "jobs/more.py:shout\n")
	assert.Contains(t, stdout, "jobs/more.py:twice\n")

	// Nothing changed since the working tree's own state.
	git(t, dir, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qam", "thrice")
	_, stderr, code = runCLI(t, dir, "rewrite", ".", "--changed-since", "HEAD")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "the filters keep none")
}

// linesByRef are the first n lines of a folder run's output, "[k/n] "
// cut off, by the FILE:NAME that ends each; k counts 1 to n.
func linesByRef(t *testing.T, stdout string, n int) map[string]string {
	t.Helper()
	lines := strings.Split(stdout, "\n")
	require.Greater(t, len(lines), n, stdout)
	out := map[string]string{}
	for k, l := range lines[:n] {
		prefix := fmt.Sprintf("[%d/%d] ", k+1, n)
		require.True(t, strings.HasPrefix(l, prefix), "line %d: %q", k+1, l)
		i := strings.LastIndex(l, "  ")
		require.Positive(t, i, l)
		out[l[i+2:]] = strings.TrimPrefix(l[:i], prefix)
	}
	return out
}

// Two UDFs whose names differ only in case would share one workspace and
// one udfx-rewrites folder: the later is skipped, never overwritten.
func TestRewriteOverFoldersSkipsASharedWorkspace(t *testing.T) {
	t.Parallel()
	dir := tempRepo(t)
	stdout, stderr, code := runCLI(t, dir, "rewrite", "examples", "--lang", "java,scala", "--target", "sql")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	lines := linesByRef(t, stdout, 2)
	assert.True(t, strings.HasPrefix(lines["examples/java-to-fahrenheit/ToFahrenheit.java:ToFahrenheit"], "verified  sql "), stdout)
	assert.True(t, strings.HasPrefix(lines["examples/scala-to-fahrenheit/ToFahrenheit.scala:ToFahrenheit"],
		"skipped   its workspace .udfx/ToFahrenheit is that of ToFahrenheit in examples/java-to-fahrenheit/"), stdout)
	rec, err := evidence.Read(filepath.Join(dir, ".udfx", "ToFahrenheit", "evidence.json"))
	require.NoError(t, err)
	assert.Equal(t, "examples/java-to-fahrenheit/ToFahrenheit.java", rec.Original.File)
}

func TestRewriteOverFoldersRefusesWhatItCannotDo(t *testing.T) {
	t.Parallel()
	dir := jobsRepo(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"jobs", "--types", "n int"}, "--types does not apply to a run over folders"},
		{[]string{"jobs/more.py:twice", "--lang", "python"}, "jobs/more.py:twice names one UDF, and a run over several takes files and folders: pick UDFs with --name twice"},
		{[]string{"jobs", "--kind", "udaf"}, `unknown kind "udaf"`},
		{[]string{"jobs", "--name", "nothing*"}, "no UDF to rewrite: scan found 3 in 2 files, and the filters keep none"},
		{[]string{"jobs", "--changed-since", "no-such-ref"}, "--changed-since no-such-ref: git knows no such commit"},
		{[]string{"jobs", "--format", "sarif"}, `unknown --format "sarif": want table or json`},
		{[]string{"jobs", "no-such-folder"}, "no-such-folder"},
	} {
		stdout, stderr, code := runCLI(t, dir, append([]string{"rewrite"}, tc.args...)...)
		assert.Equal(t, exitUsage, code, "%v: %s", tc.args, stderr)
		assert.Contains(t, stderr, tc.want, tc.args)
		assert.Empty(t, stdout, tc.args)
	}
	assert.NoDirExists(t, filepath.Join(dir, ".udfx", "twice"), "nothing ran")
}

// On a terminal a progress bar on stderr counts the UDFs; stdout keeps
// the same lines and summary.
func TestRewriteOverFoldersShowsProgressOnATerminal(t *testing.T) {
	t.Parallel()
	dir := jobsRepo(t)
	var stdout, stderr bytes.Buffer
	code := run([]string{"rewrite", "jobs", "--name", "twice"}, &env{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr,
		WorkDir: dir, StderrTTY: true, Spark: sparkPool, CacheDir: testCacheDir})
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr.String(), stdout.String())
	assert.Contains(t, stdout.String(), "[1/1] verified  sql ")
	assert.Contains(t, stderr.String(), "twice")
	assert.Contains(t, stderr.String(), "(0/1)")
	assert.NotContains(t, stderr.String(), "udfx [", "no per-step lines of the UDF's own run")
}

// A second run over an unchanged repository takes every verdict from the
// first and says so; a change to a Python file re-proves the Python UDFs,
// an edited workspace file re-proves its UDF, and --no-cache all.
func TestRewriteOverFoldersReusesUnchangedProofs(t *testing.T) {
	t.Parallel()
	dir := jobsRepo(t)
	args := []string{"rewrite", "jobs", "examples/python-celsius", "--format", "json"}
	type doc struct {
		UDFs []struct {
			UDF, Status string
			Cached      bool
		} `json:"udfs"`
	}
	cached := func(args ...string) map[string]bool {
		t.Helper()
		stdout, stderr, code := runCLI(t, dir, args...)
		require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
		var d doc
		require.NoError(t, json.Unmarshal([]byte(stdout), &d), stdout)
		out := map[string]bool{}
		for _, u := range d.UDFs {
			out[u.UDF+" "+u.Status] = u.Cached
		}
		return out
	}
	all := func(c bool) map[string]bool {
		// An error is never kept: it may be the machine's.
		return map[string]bool{"to_fahrenheit verified": c, "twice verified": c, "shout declined": c, "bucket_of error": false}
	}
	assert.Equal(t, all(false), cached(args...))
	assert.Equal(t, all(true), cached(args...))
	stdout, _, _ := runCLI(t, dir, "rewrite", "jobs", "examples/python-celsius")
	assert.Contains(t, stdout, "(3 taken from earlier runs, unchanged since)")
	assert.Contains(t, stdout, "  cached  jobs/more.py:twice\n")

	// A pull-request description of the same run, verdicts from the
	// cache; the file is written outside the repository's tree here.
	body := filepath.Join(t.TempDir(), "PR.md")
	_, stderr, code := runCLI(t, dir, "rewrite", "jobs", "examples/python-celsius", "--lang", "python", "--pr-body", body)
	require.Equal(t, exitOK, code, stderr)
	pr, err := os.ReadFile(body)
	require.NoError(t, err)
	for _, want := range []string{
		"## UDF rewrites proved by udfx ",
		"2 of 4 UDFs rewritten.",
		"| `` twice `` | `` jobs/more.py `` | sql | ",
		"| `` udfx-rewrites/twice/evidence.json `` |\n",
		"### Left as they are",
		"| `` shout `` | `` jobs/more.py `` | declined | str.swapcase: ",
		"| `` bucket_of `` | `` jobs/cloud.py `` | error | cannot run the original: jobs/cloud.py:1: ModuleNotFoundError: No module named 'boto3' |",
		"- `udfx rewrite jobs examples/python-celsius --lang=python --no-cache` proves every UDF of this change again.",
	} {
		assert.Contains(t, string(pr), want)
	}

	// Any Python file of the repository can change a Python UDF.
	writeFile(t, filepath.Join(dir, "jobs", "helpers.py"), "RATE = 2\n")
	assert.Equal(t, all(false), cached(args...))
	assert.Equal(t, all(true), cached(args...))

	// A workspace file the verdict stands on, edited.
	report := filepath.Join(dir, ".udfx", "twice", "report.md")
	b, err := os.ReadFile(report)
	require.NoError(t, err)
	writeFile(t, report, string(b)+"\nedited\n")
	got := cached(args...)
	assert.False(t, got["twice verified"])
	assert.True(t, got["shout declined"])

	assert.Equal(t, all(false), cached(append(args, "--no-cache")...))
}

// --apply over folders writes every verified rewrite in one transaction
// once all are proved; a patch that would edit the file another patch of
// the set edits, or defines a UDF of it in, is left out and named. udfx
// verify then passes on the tree.
func TestRewriteOverFoldersAppliesTheVerifiedSetAtOnce(t *testing.T) {
	t.Parallel()
	dir := pairRepo(t)

	// A file with uncommitted changes: nothing is written.
	celsius := filepath.Join(dir, "examples", "python-celsius", "celsius.py")
	b, err := os.ReadFile(celsius)
	require.NoError(t, err)
	writeFile(t, celsius, string(b)+"# draft\n")
	stdout, stderr, code := runCLI(t, dir, "rewrite", "jobs", "examples/python-celsius", "--apply")
	require.Equal(t, exitUsage, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.Contains(t, stderr, "--apply of 3 verified rewrites: refusing to apply: uncommitted changes in examples/python-celsius/celsius.py")
	assert.Contains(t, stderr, "examples/python-celsius/celsius.py")
	assert.NoDirExists(t, filepath.Join(dir, "udfx-rewrites"))
	git(t, dir, "checkout", "--", "examples/python-celsius/celsius.py")

	stdout, stderr, code = runCLI(t, dir, "rewrite", "jobs", "examples/python-celsius", "--apply")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.Regexp(t, `(?m)^applied        3 verified rewrites, \d+ files changed in `, stdout)
	assert.Contains(t, stdout, "not applied    double_it: the patch of half edits the file that defines it; apply it afterwards with udfx rewrite jobs/pair.py:double_it --apply\n")
	for _, udf := range []string{"to_fahrenheit", "twice", "half"} {
		assert.FileExists(t, filepath.Join(dir, "udfx-rewrites", udf, "evidence.json"))
	}
	assert.NoDirExists(t, filepath.Join(dir, "udfx-rewrites", "double_it"))
	assert.NoDirExists(t, filepath.Join(dir, ".udfx", ".folder-run", "apply-journal"), "the journal is closed")
	pair, err := os.ReadFile(filepath.Join(dir, "jobs", "pair.py"))
	require.NoError(t, err)
	assert.NotContains(t, string(pair), `half(col("x"))`)
	assert.Contains(t, string(pair), `double_it(col("x"))`)

	stdout, stderr, code = runCLI(t, dir, "verify")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.Contains(t, stdout, "(3 records)")

	// The one left out, applied afterwards as the line says.
	git(t, dir, "add", ".")
	git(t, dir, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "rewrites")
	stdout, stderr, code = runCLI(t, dir, "rewrite", "jobs/pair.py:double_it", "--apply")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	stdout, stderr, code = runCLI(t, dir, "verify")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.Contains(t, stdout, "(4 records)")
}
