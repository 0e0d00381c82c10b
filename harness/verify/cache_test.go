package verify

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/internal/treetest"
)

// gitInit makes r a real git repository: the cache keys a record by the
// repository's sources, which git lists.
func (r *repo) gitInit(t *testing.T) {
	t.Helper()
	require.NoError(t, os.RemoveAll(filepath.Join(r.dir, ".git")))
	cmd := exec.Command("git", "init", "-q")
	cmd.Dir = r.dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
}

// countingRunners counts how many originals a gate run starts.
func countingRunners(n *atomic.Int64) func(context.Context, *udf.UDF, runner.Limits) (runner.Runner, error) {
	return func(ctx context.Context, u *udf.UDF, l runner.Limits) (runner.Runner, error) {
		n.Add(1)
		return goRunners(ctx, u, l)
	}
}

func (r *repo) verifyCached(t *testing.T, c *ProofCache) (*Result, int64) {
	t.Helper()
	var n atomic.Int64
	res, err := Run(context.Background(), Options{Root: r.dir, Display: ".", NewRunner: countingRunners(&n), Cache: c})
	require.NoError(t, err)
	return res, n.Load()
}

func TestProofCacheSkipsTheRerunOfWhatIsUnchanged(t *testing.T) {
	r := newRepo(t)
	r.gitInit(t)
	cache := &ProofCache{Dir: filepath.Join(t.TempDir(), "proofs"), Base: "udfx 1, python 3.12"}

	res, started := r.verifyCached(t, cache)
	it := only(t, res)
	require.Equal(t, Pass, it.Status, it.Detail)
	assert.True(t, it.Rerun)
	assert.False(t, it.Cached)
	assert.Positive(t, started)
	assert.Equal(t, [2]int{1, 0}, [2]int{res.Reran, res.FromCache})
	proved := it.Detail

	res, started = r.verifyCached(t, cache)
	it = only(t, res)
	require.Equal(t, Pass, it.Status, it.Detail)
	assert.True(t, it.Cached)
	assert.False(t, it.Rerun)
	assert.Zero(t, started, "no original runs")
	assert.Equal(t, [2]int{0, 1}, [2]int{res.Reran, res.FromCache})
	assert.True(t, strings.HasPrefix(it.Detail, proved+"; not re-run now: unchanged since udfx re-ran it on "), it.Detail)
	assert.Equal(t, "re-run now: 0 records; unchanged since a passing re-run, from the proof cache: 1 (--full re-runs every record)", res.CacheNote())
	assert.NotEmpty(t, it.Policy)

	rerun := func(why string) {
		t.Helper()
		res, started := r.verifyCached(t, cache)
		it := only(t, res)
		require.Equal(t, Pass, it.Status, it.Detail)
		assert.True(t, it.Rerun, why)
		assert.False(t, it.Cached, why)
		assert.Positive(t, started, why)
		// And then it is kept again.
		res, _ = r.verifyCached(t, cache)
		assert.True(t, only(t, res).Cached, why)
	}
	full := *cache
	full.Full = true
	res, started = r.verifyCached(t, &full)
	assert.True(t, only(t, res).Rerun, "--full")
	assert.Positive(t, started, "--full")
	assert.Equal(t, "re-run now: 1 records (--full)", res.CacheNote())

	r.write(t, filepath.Join(r.dir, "jobs", "units.py"), "FACTOR = 1.8\n")
	rerun("a module the original could import is new")
	r.write(t, filepath.Join(r.dir, "udfx.yaml"), "version: 1\n")
	rerun("udfx.yaml changed")
	r.write(t, filepath.Join(filepath.Dir(r.recordPath), "notes.txt"), "reviewed\n")
	rerun("a file of the record's folder")
	r.write(t, filepath.Join(filepath.Dir(r.recordPath), "cuda", "to_fahrenheit.cu"), "// kernel\n")
	rerun("a file of a subfolder of the record's")
	require.NoError(t, os.Symlink(r.source, filepath.Join(filepath.Dir(r.recordPath), "link.py")))
	for range 2 {
		res, started := r.verifyCached(t, cache)
		assert.False(t, only(t, res).Cached, "a link in the record's folder: never cached")
		assert.Positive(t, started)
	}
	require.NoError(t, os.Remove(filepath.Join(filepath.Dir(r.recordPath), "link.py")))
	other := *cache
	other.Base = "udfx 1, python 3.13"
	res, started = r.verifyCached(t, &other)
	assert.True(t, only(t, res).Rerun, "another runtime")
	assert.Positive(t, started)

	// What the cache skips is the re-run, never the checks before it.
	r.writeSQL(t, wrongSQL)
	res, _ = r.verifyCached(t, cache)
	assert.Equal(t, StaleRewrite, only(t, res).Status)
}

func TestProofCacheKeepsOnlyPassingReruns(t *testing.T) {
	r := newRepo(t)
	r.gitInit(t)
	r.forge(t, wrongSQL, func(*evidence.Record) {})
	cache := &ProofCache{Dir: filepath.Join(t.TempDir(), "proofs"), Base: "b"}
	for range 2 {
		res, started := r.verifyCached(t, cache)
		it := only(t, res)
		assert.Equal(t, Mismatch, it.Status, it.Detail)
		assert.False(t, it.Cached)
		assert.Positive(t, started, "a mismatch is found again each time")
	}
}

// An original runs while the gate holds the cache in memory: what it
// writes to the cache file is overwritten when the gate ends, never read.
func TestProofCacheFileWrittenByAnOriginalIsNotBelieved(t *testing.T) {
	r := newRepo(t)
	r.gitInit(t)
	cache := &ProofCache{Dir: filepath.Join(t.TempDir(), "proofs"), Base: "b"}
	store := openProofStore(cache, r.dir, r.dir)
	forged := `{"version":1,"root":` + quoteJSON(r.dir) + `,"entries":{"forged":{"record":"x","details":["ok"],"policy":["p"]}}}`
	hostile := func(ctx context.Context, u *udf.UDF, l runner.Limits) (runner.Runner, error) {
		require.NoError(t, os.MkdirAll(cache.Dir, 0o755))
		require.NoError(t, os.WriteFile(store.path, []byte(forged), 0o644))
		return goRunners(ctx, u, l)
	}
	res, err := Run(context.Background(), Options{Root: r.dir, Display: ".", NewRunner: hostile, Cache: cache})
	require.NoError(t, err)
	require.Equal(t, Pass, only(t, res).Status)
	b, err := os.ReadFile(store.path)
	require.NoError(t, err)
	assert.NotContains(t, string(b), "forged")
	assert.Len(t, openProofStore(cache, r.dir, r.dir).old, 1, "the gate's own entry")
}

func quoteJSON(s string) string { return `"` + strings.ReplaceAll(s, `\`, `\\`) + `"` }

// Records checked in parallel give what they give one at a time.
func TestRecordsCheckedInParallel(t *testing.T) {
	r := newRepo(t)
	root := t.TempDir()
	for _, sub := range []string{"a", "b", "c", "d"} {
		treetest.Copy(t, r.dir, filepath.Join(root, sub))
	}
	// One of them is wrong.
	bad := &repo{dir: filepath.Join(root, "c"), source: filepath.Join(root, "c", "jobs", "celsius.py"),
		sqlPath: filepath.Join(root, "c", evidence.Dir, "to_fahrenheit", "rewrite.sql"), recordPath: filepath.Join(root, "c", evidence.Dir, "to_fahrenheit", evidence.FileName)}
	bad.forge(t, wrongSQL, func(*evidence.Record) {})
	run := func(jobs int) *Result {
		res, err := Run(context.Background(), Options{Root: root, Display: ".", NewRunner: goRunners, Jobs: jobs})
		require.NoError(t, err)
		return res
	}
	one, four := run(1), run(4)
	require.Len(t, four.Items, 4)
	assert.Equal(t, one.Items, four.Items)
	assert.Equal(t, map[Status]int{Pass: 3, Mismatch: 1}, four.Counts())
}
