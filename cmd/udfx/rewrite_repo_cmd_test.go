package main

import (
	"bytes"
	"encoding/json"
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
	lines := strings.Split(stdout, "\n")
	require.Greater(t, len(lines), 4, stdout)
	for i, want := range []string{
		"[1/4] verified  sql ",
		"[2/4] error     cannot run the original: ",
		"[3/4] declined  str.swapcase: no rule proves a Spark SQL form equal to this str method  ",
		"[4/4] verified  sql ",
	} {
		assert.True(t, strings.HasPrefix(lines[i], want), "line %d: %q", i+1, lines[i])
	}
	assert.Contains(t, lines[1], "cannot run the original: jobs/cloud.py:1: ModuleNotFoundError: No module named 'boto3'")
	for i, ref := range []string{"examples/python-celsius/celsius.py:to_fahrenheit", "jobs/cloud.py:bucket_of", "jobs/more.py:shout", "jobs/more.py:twice"} {
		assert.True(t, strings.HasSuffix(lines[i], "s  "+ref), "line %d: %q", i+1, lines[i])
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

// Two UDFs whose names differ only in case would share one workspace and
// one udfx-rewrites folder: the later is skipped, never overwritten.
func TestRewriteOverFoldersSkipsASharedWorkspace(t *testing.T) {
	t.Parallel()
	dir := tempRepo(t)
	stdout, stderr, code := runCLI(t, dir, "rewrite", "examples", "--lang", "java,scala", "--target", "sql")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.Contains(t, stdout, "[1/2] verified  sql ")
	assert.Contains(t, stdout, "[2/2] skipped   its workspace .udfx/ToFahrenheit is that of ToFahrenheit in examples/java-to-fahrenheit/")
	assert.Contains(t, stdout, "  examples/scala-to-fahrenheit/ToFahrenheit.scala:ToFahrenheit\n")
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
		{[]string{"jobs", "--apply"}, "--apply does not apply to a run over folders: it applies one UDF's patch"},
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
		WorkDir: dir, StderrTTY: true, Spark: sparkPool})
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr.String(), stdout.String())
	assert.Contains(t, stdout.String(), "[1/1] verified  sql ")
	assert.Contains(t, stderr.String(), "twice")
	assert.Contains(t, stderr.String(), "(0/1)")
	assert.NotContains(t, stderr.String(), "udfx [", "no per-step lines of the UDF's own run")
}
