package main

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/internal/applyjournal"
	"github.com/udfx/udfx/internal/treetest"
)

// killRepo is a repository of three PySpark UDFs, one to a job module,
// each proved in a second or two: the folder run's --apply writes all
// three rewrites in one transaction.
func killRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join(repoRoot(t), "examples", "python-celsius", "celsius.py"))
	require.NoError(t, err)
	writeFile(t, filepath.Join(dir, "jobs", "celsius.py"), string(src))
	writeFile(t, filepath.Join(dir, "jobs", "orders.py"), `from pyspark.sql.functions import col, udf
from pyspark.sql.types import DoubleType


@udf(returnType=DoubleType())
def with_tax(amount: float) -> float:
    if amount is None:
        return None
    return amount * 1.25


def main(spark, src):
    spark.read.parquet(src).withColumn("gross", with_tax(col("amount"))).show()
`)
	writeFile(t, filepath.Join(dir, "jobs", "stock.py"), `from pyspark.sql.functions import col, udf
from pyspark.sql.types import LongType


@udf(returnType=LongType())
def reorder_gap(on_hand: int) -> int:
    if on_hand is None:
        return None
    return 40 - on_hand


def main(spark, src):
    spark.read.parquet(src).withColumn("gap", reorder_gap(col("on_hand"))).show()
`)
	git(t, dir, "init", "-q")
	git(t, dir, "add", ".")
	git(t, dir, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "jobs")
	return dir
}

// runCLIStepped is runCLI with the folder apply stopped after step.
func runCLIStepped(t *testing.T, dir string, stop int, args ...string) (string, string, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	e := &env{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, WorkDir: dir, Spark: sparkPool, CacheDir: testCacheDir,
		applyStep: func(step int) error {
			if step == stop {
				return errors.New("killed")
			}
			return nil
		}}
	code := run(args, e)
	return stdout.String(), stderr.String(), code
}

// sameAsApplied compares a tree with the one a whole apply left: the
// same files, the same bytes but for the records' measured times.
func sameAsApplied(t *testing.T, want, got map[string]string, msg string) {
	t.Helper()
	keys := func(m map[string]string) []string {
		var out []string
		for k := range m {
			out = append(out, k)
		}
		sort.Strings(out)
		return out
	}
	require.Equal(t, keys(want), keys(got), msg)
	for k, v := range want {
		if !strings.HasSuffix(k, "/evidence.json") {
			assert.Equal(t, v, got[k], "%s: %s", msg, k)
		}
	}
}

var changedFiles = regexp.MustCompile(`applied +(\d+) verified rewrites, (\d+) files changed`)

// A folder run's --apply stopped after any step of its journal leaves a
// tree every later udfx command rolls back to the old one (verify names
// it and repairs nothing), or, stopped after the commit, the new one;
// the same command run again then applies the whole set. The steps are
// drawn at random (the seed is logged), always with the first, the last
// rename and the commit.
func TestAFolderApplyStoppedAtAnyStepLeavesTheOldTreeOrTheNew(t *testing.T) {
	base := killRepo(t)
	old := repoTree(t, base)

	// The whole apply, in a copy, gives the new tree and the steps.
	whole := t.TempDir()
	treetest.Copy(t, base, whole)
	stdout, stderr, code := runCLI(t, whole, "rewrite", ".", "--apply")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	m := changedFiles.FindStringSubmatch(stdout)
	require.NotNil(t, m, stdout)
	require.Equal(t, "3", m[1], stdout)
	files, _ := strconv.Atoi(m[2])
	applied := repoTree(t, whole)
	steps := applyjournal.Steps(files)

	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d, %d files, %d steps", seed, files, steps)
	rng := rand.New(rand.NewPCG(seed, 24))
	points := map[int]bool{1: true, steps - 1: true, steps: true}
	for len(points) < 6 {
		points[1+rng.IntN(steps)] = true
	}
	for k := range points {
		repo := t.TempDir()
		treetest.Copy(t, base, repo)
		stdout, stderr, code := runCLIStepped(t, repo, k, "rewrite", ".", "--apply")
		if k == steps {
			// Stopped after the commit: the new tree, nothing to roll
			// back (a killed process has no exit code to check).
			stdout, stderr, code = runCLI(t, repo, "rewrite", "--recover")
			require.Equal(t, exitOK, code, "step %d: %s", k, stderr)
			assert.Equal(t, "0 interrupted --apply rolled back in "+repo+"\n", stdout)
			sameAsApplied(t, applied, repoTree(t, repo), fmt.Sprintf("stopped after the commit (step %d)", k))
			_, stderr, code = runCLI(t, repo, "verify", "--skip-rerun")
			assert.Equal(t, exitOK, code, stderr)
			continue
		}
		require.NotEqual(t, exitOK, code, "step %d: %s\n%s", k, stdout, stderr)
		assert.Contains(t, stderr, "killed", "step %d", k)

		half := repoTree(t, repo)
		stdout, _, code = runCLI(t, repo, "verify", "--skip-rerun", "--format", "json")
		assert.Equal(t, exitFailed, code, "step %d", k)
		assert.Contains(t, stdout, `"interrupted-apply"`, "step %d", k)
		assert.Equal(t, half, repoTree(t, repo), "step %d: verify repairs nothing", k)

		stdout, stderr, code = runCLI(t, repo, "rewrite", "--recover")
		require.Equal(t, exitOK, code, "step %d: %s", k, stderr)
		assert.Equal(t, "1 interrupted --apply rolled back in "+repo+"\n", stdout, "step %d", k)
		assert.Equal(t, old, repoTree(t, repo), "step %d: rolled back to the old tree", k)

		// The same command again applies the whole set.
		stdout, stderr, code = runCLI(t, repo, "rewrite", ".", "--apply")
		require.Equal(t, exitOK, code, "step %d: stderr: %s\nstdout: %s", k, stderr, stdout)
		sameAsApplied(t, applied, repoTree(t, repo), fmt.Sprintf("re-run after step %d", k))
	}
	_, stderr, code = runCLI(t, whole, "verify")
	assert.Equal(t, exitOK, code, stderr)
}

// A folder run with --apply killed (SIGKILL, its whole process group) at
// random points: while it proves, as its journal appears, and a moment
// after. Whatever the point, the next udfx command finds the old tree or
// the new one, and the same command run again finishes the set.
func TestAFolderApplyKilledAtRandomPointsLeavesTheOldTreeOrTheNew(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "udfx")
	build := exec.Command("go", "build", "-o", bin, ".")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)

	base := killRepo(t)
	old := repoTree(t, base)
	whole := t.TempDir()
	treetest.Copy(t, base, whole)
	start := time.Now()
	out, err = udfxIn(whole, bin, "rewrite", ".", "--apply").CombinedOutput()
	require.NoError(t, err, "%s", out)
	full := time.Since(start)
	applied := repoTree(t, whole)

	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 9))
	t.Logf("seed %d; the whole run took %s", seed, full)
	type point struct {
		after   time.Duration // from the start
		journal bool          // else after the journal appears, plus after
	}
	points := []point{{after: time.Duration(rng.Int64N(int64(full / 2)))}, {after: time.Duration(rng.Int64N(int64(full)))},
		{journal: true}, {journal: true, after: time.Duration(rng.Int64N(int64(5 * time.Millisecond)))}}
	sawHalf := false
	for i, p := range points {
		repo := t.TempDir()
		treetest.Copy(t, base, repo)
		cmd := udfxIn(repo, bin, "rewrite", ".", "--apply")
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		require.NoError(t, cmd.Start())
		journal := filepath.Join(repo, ".udfx", ".folder-run", "apply-journal")
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		kill := func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
		if p.journal {
		wait:
			for {
				select {
				case <-done:
					t.Fatalf("point %d: the run ended before its journal appeared", i)
				default:
				}
				if _, err := os.Stat(journal); err == nil {
					time.Sleep(p.after)
					kill()
					break wait
				}
				time.Sleep(200 * time.Microsecond)
			}
		} else {
			time.Sleep(p.after)
			kill()
		}
		<-done

		half := repoTree(t, repo)
		stdout, stderr, code := runCLI(t, repo, "rewrite", "--recover")
		require.Equal(t, exitOK, code, "point %d: %s", i, stderr)
		got := repoTree(t, repo)
		if sameKeys(got, applied) {
			sameAsApplied(t, applied, got, fmt.Sprintf("point %d (%+v): the new tree", i, p))
			continue
		}
		assert.Equal(t, old, got, "point %d (%+v): the old tree (%s)", i, p, stdout)
		if !assert.ObjectsAreEqual(half, got) {
			sawHalf = true // the kill landed inside the commit, and was rolled back
		}
		out, err := udfxIn(repo, bin, "rewrite", ".", "--apply").CombinedOutput()
		require.NoError(t, err, "point %d: the run again: %s", i, out)
		sameAsApplied(t, applied, repoTree(t, repo), fmt.Sprintf("point %d: the run again", i))
	}
	t.Logf("a kill landed inside the commit and was rolled back: %v", sawHalf)
}

// udfxIn runs the udfx binary in dir. --apply takes nothing from the
// proof cache, so the user's cache folder is safe to share.
func udfxIn(dir, bin string, args ...string) *exec.Cmd {
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	return cmd
}

func sameKeys(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if _, ok := b[k]; !ok {
			return false
		}
	}
	return true
}
