package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// End-to-end tests of a folder run's --branch: the verified rewrites
// committed on a new branch, one commit per UDF, the working tree, the
// index and the current branch untouched.

// noGitConfig is an environment whose git reads no user or system
// configuration: no identity but the repository's own.
var noGitConfig = map[string]string{"GIT_CONFIG_GLOBAL": os.DevNull, "GIT_CONFIG_NOSYSTEM": "1"}

// pairRepo is jobsRepo with jobs/pair.py committed (half's patch
// rewrites its use site in the file that defines double_it).
func pairRepo(t *testing.T) string {
	t.Helper()
	dir := jobsRepo(t)
	writeFile(t, filepath.Join(dir, "jobs", "pair.py"), `from pyspark.sql.functions import col, udf
from pyspark.sql.types import DoubleType


@udf(returnType=DoubleType())
def half(x: float) -> float:
    if x is None:
        return None
    return x / 2.0


@udf(returnType=DoubleType())
def double_it(x: float) -> float:
    if x is None:
        return None
    return x * 2.0


def job(df):
    return df.withColumn("h", half(col("x"))).withColumn("d", double_it(col("x")))
`)
	git(t, dir, "add", "jobs/pair.py")
	git(t, dir, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "pair")
	return dir
}

func TestRewriteOverFoldersCommitsOnABranch(t *testing.T) {
	t.Parallel()
	dir := pairRepo(t)
	// A UDF in a file git does not have yet: its proof is of a file the
	// branch, built from HEAD, would not hold.
	writeFile(t, filepath.Join(dir, "jobs", "fresh.py"), `from pyspark.sql.functions import udf
from pyspark.sql.types import IntegerType


@udf(returnType=IntegerType())
def triple(n: int) -> int:
    if n is None:
        return None
    return n * 3
`)
	// An uncommitted change the run does not touch.
	scala := filepath.Join(dir, "examples", "scala-to-fahrenheit", "ToFahrenheit.scala")
	b, err := os.ReadFile(scala)
	require.NoError(t, err)
	writeFile(t, scala, string(b)+"// draft\n")
	// The repository names its author; the email comes from udfx, as
	// git here has no other.
	git(t, dir, "config", "user.name", "Repo Owner")
	head := git(t, dir, "rev-parse", "HEAD")
	status := git(t, dir, "status", "--porcelain", "--untracked-files=all")
	pr := filepath.Join(t.TempDir(), "PR.md")

	stdout, stderr, code := runCLIEnv(t, dir, noGitConfig, "rewrite", "jobs", "--name", "twice,half,double_it,triple",
		"--branch", "udfx/rewrites", "--pr-body", pr)
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.Regexp(t, `(?m)^4 UDFs: 4 verified in `, stdout)
	assert.Regexp(t, `(?m)^branch         udfx/rewrites: 2 commits, one per verified rewrite, on HEAD [0-9a-f]{12}; the working tree and the current branch are as they were`, stdout)
	assert.Contains(t, stdout, "not on branch  double_it: the patch of half edits the file that defines it; commit it afterwards with udfx rewrite jobs/pair.py:double_it --apply\n")
	assert.Contains(t, stdout, "not on branch  triple: jobs/fresh.py is not committed, and the branch is built from HEAD")
	assert.Contains(t, stdout, "note           the branch starts from HEAD: uncommitted changes in 1 files are not on it (examples/scala-to-fahrenheit/ToFahrenheit.scala)\n")

	// Nothing of the user's changed: HEAD, the current branch, the
	// working tree and the index; no worktree was added.
	assert.Equal(t, head, git(t, dir, "rev-parse", "HEAD"))
	assert.Equal(t, status, git(t, dir, "status", "--porcelain", "--untracked-files=all"))
	assert.NotContains(t, git(t, dir, "symbolic-ref", "HEAD"), "udfx")
	assert.Len(t, strings.Split(strings.TrimSpace(git(t, dir, "worktree", "list")), "\n"), 1)

	// One commit per verified UDF, on HEAD, each naming the UDF, its
	// file, target, speedup and evidence record.
	log := git(t, dir, "log", "--reverse", "--format=%an <%ae>%n%s%n%b%n--", strings.TrimSpace(head)+"..udfx/rewrites")
	commits := strings.Split(strings.TrimSuffix(log, "--\n"), "--\n")
	require.Len(t, commits, 2, log)
	for i, udf := range []string{"twice", "half"} {
		file := map[string]string{"twice": "jobs/more.py", "half": "jobs/pair.py"}[udf]
		c := commits[i]
		assert.True(t, strings.HasPrefix(c, "Repo Owner <udfx@localhost>\n"), c)
		assert.Regexp(t, `udfx: rewrite `+udf+` \(`+file+`\) to sql, [0-9.]+× faster\n`, c)
		assert.Contains(t, c, "UDF:      "+udf+"\nFile:     "+file+"\nTarget:   sql\nSpeedup:  ")
		assert.Contains(t, c, "Evidence: udfx-rewrites/"+udf+"/evidence.json\n")
	}
	assert.Equal(t, strings.TrimSpace(head), strings.TrimSpace(git(t, dir, "rev-parse", "udfx/rewrites~2")))
	body, err := os.ReadFile(pr)
	require.NoError(t, err)
	assert.Contains(t, string(body), "The rewrites are on branch `` udfx/rewrites ``, one commit per UDF (2 commits)")

	// udfx verify passes on a checkout of the branch.
	clone := filepath.Join(t.TempDir(), "clone")
	git(t, dir, "clone", "-q", "-b", "udfx/rewrites", dir, clone)
	require.NoError(t, os.Symlink(filepath.Join(repoRoot(t), ".venv"), filepath.Join(clone, ".venv")))
	stdout, stderr, code = runCLI(t, clone, "verify")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.Regexp(t, `(?m)^half +sql +pass `, stdout)
	assert.Regexp(t, `(?m)^twice +sql +pass `, stdout)
	pair, err := os.ReadFile(filepath.Join(clone, "jobs", "pair.py"))
	require.NoError(t, err)
	assert.NotContains(t, string(pair), `half(col("x"))`)
}

// What --branch cannot make is refused before any UDF runs.
func TestRewriteOverFoldersRefusesABranchItCannotMake(t *testing.T) {
	t.Parallel()
	dir := jobsRepo(t)
	git(t, dir, "branch", "taken")
	branches := git(t, dir, "branch", "--list")
	plain := t.TempDir()
	writeFile(t, filepath.Join(plain, "more.py"), "from pyspark.sql.functions import udf\n\n\n@udf(returnType='int')\ndef one(n):\n    return 1\n")
	fresh := t.TempDir()
	writeFile(t, filepath.Join(fresh, "more.py"), "from pyspark.sql.functions import udf\n\n\n@udf(returnType='int')\ndef one(n):\n    return 1\n")
	git(t, fresh, "init", "-q")
	for _, tc := range []struct {
		dir  string
		args []string
		want string
	}{
		{dir, []string{"jobs", "--branch", "taken"}, "--branch taken: a branch taken already exists in "},
		{dir, []string{"jobs", "--branch", "bad..name"}, `--branch "bad..name" is not a valid branch name`},
		{dir, []string{"jobs", "--branch", "@{-1}"}, `--branch "@{-1}" is not a valid branch name`},
		{dir, []string{"jobs", "--branch", "-x"}, `--branch "-x" is not a valid branch name`},
		{dir, []string{"jobs", "--branch", "new", "--apply"}, "--branch and --apply: one or the other"},
		{dir, []string{"jobs", "--branch="}, "--branch needs a name"},
		{plain, []string{".", "--branch", "new"}, "--branch new: . is not in a git repository"},
		{fresh, []string{".", "--branch", "new"}, "has no commit yet to start the branch from"},
	} {
		stdout, stderr, code := runCLI(t, tc.dir, append([]string{"rewrite"}, tc.args...)...)
		assert.Equal(t, exitUsage, code, "%v: %s", tc.args, stderr)
		assert.Contains(t, stderr, tc.want, tc.args)
		assert.Empty(t, stdout, tc.args)
	}
	assert.NoDirExists(t, filepath.Join(dir, ".udfx", "twice"), "nothing ran")
	assert.Equal(t, branches, git(t, dir, "branch", "--list"))
}

// A build stopped after its first commit leaves no branch, no worktree
// and no changed file: the ref is made only after the last commit.
func TestRewriteOverFoldersBranchStoppedMidwayLeavesNothing(t *testing.T) {
	t.Parallel()
	dir := pairRepo(t)
	head := git(t, dir, "rev-parse", "HEAD")
	var stdout, stderr bytes.Buffer
	e := &env{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, WorkDir: dir, Spark: sparkPool, CacheDir: testCacheDir,
		Getenv: func(k string) string { return noGitConfig[k] }}
	commits := 0
	e.branchCommitted = func(n int) error {
		commits = n
		if n == 1 {
			return errors.New("stopped by the test")
		}
		return nil
	}
	code := run([]string{"rewrite", "jobs", "--name", "twice,half", "--branch", "udfx/rewrites"}, e)
	require.Equal(t, exitInternal, code, "stderr: %s\nstdout: %s", stderr.String(), stdout.String())
	assert.Equal(t, 1, commits)
	assert.Contains(t, stderr.String(), "--branch udfx/rewrites: stopped by the test; no branch was created")
	assert.Regexp(t, `(?m)^2 UDFs: 2 verified in `, stdout.String())
	assert.Empty(t, strings.TrimSpace(git(t, dir, "branch", "--list", "udfx/*")))
	assert.Equal(t, head, git(t, dir, "rev-parse", "HEAD"))
	assert.Equal(t, "", git(t, dir, "status", "--porcelain", "--untracked-files=all"))
	assert.Len(t, strings.Split(strings.TrimSpace(git(t, dir, "worktree", "list")), "\n"), 1)

	// The same run again makes the branch.
	e.branchCommitted = nil
	stdout.Reset()
	stderr.Reset()
	code = run([]string{"rewrite", "jobs", "--name", "twice,half", "--branch", "udfx/rewrites"}, e)
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr.String(), stdout.String())
	assert.Contains(t, stdout.String(), "branch         udfx/rewrites: 2 commits")
}
