//go:build linux

package python

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/value"
	"github.com/udfx/udfx/internal/sandbox"
)

// repoCopy copies testdata files into a temporary folder of the test, as
// a repository's files would lie, and returns the folder.
func repoCopy(t *testing.T, names ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, n := range names {
		src, err := os.ReadFile(filepath.Join("testdata", n))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, n), src, 0o644))
	}
	return dir
}

// runOnce starts u's runner under ctx, runs rows and closes it.
func runOnce(t *testing.T, ctx context.Context, u *udf.UDF, limits runner.Limits, rows [][]value.Value) ([]string, string) {
	t.Helper()
	r, err := New(ctx, u, Options{Limits: limits, Python: venvPython(t)})
	require.NoError(t, err)
	defer r.Close()
	got, err := r.Run(context.Background(), rows)
	require.NoError(t, err)
	return tokens(got), r.Describe()
}

// A driver forked from a warm interpreter answers as a driver started on
// its own: the same results, bit for bit, and the same description, for
// a plain @udf, a pandas_udf and one that raises.
func TestAWarmDriverAnswersAsAColdOne(t *testing.T) {
	cases := []struct {
		file, name string
		rows       [][]value.Value
	}{
		{celsiusPath, "to_fahrenheit", nil},
		{"testdata/raising.py", "inverse", [][]value.Value{{value.DoubleOf(1)}, {value.DoubleOf(3)}, {value.DoubleOf(0)}, {value.NullValue()}}},
		{"testdata/raising.py", "batch_inverse", [][]value.Value{{value.DoubleOf(1)}, {value.DoubleOf(3)}, {value.NullValue()}}},
	}
	var rows [][]value.Value
	for _, b := range specialDoubles {
		rows = append(rows, []value.Value{value.DoubleBits(b)})
	}
	rows = append(rows, []value.Value{value.NullValue()})
	cases[0].rows = rows
	root, err := filepath.Abs("../../..")
	require.NoError(t, err)
	pool := &WarmPool{Readable: []string{root}}
	defer pool.Close()
	warm := WithWarmPool(context.Background(), pool)
	limits := runner.Limits{Timeout: 60 * time.Second, MemoryMB: 1024, Sandbox: sandbox.On}
	served := 0
	for _, c := range cases {
		us := parseUDFs(t, c.file)
		for i := range us {
			u := &us[i]
			if c.name != "" && u.Name != c.name {
				continue
			}
			want, wantDesc := runOnce(t, context.Background(), u, limits, c.rows)
			got, gotDesc := runOnce(t, warm, u, limits, c.rows)
			served++
			assert.Equal(t, want, got, "%s:%s", c.file, u.Name)
			assert.Equal(t, wantDesc, gotDesc)
		}
	}
	require.Positive(t, served)
	assert.Equal(t, served, pool.Served(), "every driver was forked from the pool")
}

// A driver forked after another finds the sandbox as a fresh start finds
// it: the earlier driver's files in /tmp and /dev/shm, its System V
// segment and the process it left running are gone.
func TestAWarmDriverFindsNoTraceOfTheOneBefore(t *testing.T) {
	dir := repoCopy(t, "traces.py")
	file := filepath.Join(dir, "traces.py")
	look, leave := parseUDF(t, file, "look_around"), parseUDF(t, file, "leave_traces")
	limits := runner.Limits{Timeout: 60 * time.Second, MemoryMB: 1024, Sandbox: sandbox.On}
	one := [][]value.Value{{value.StringOf("a")}}
	fresh, _ := runOnce(t, context.Background(), look, limits, one)

	pool := &WarmPool{Readable: []string{dir}}
	defer pool.Close()
	warm := WithWarmPool(context.Background(), pool)
	left, _ := runOnce(t, warm, leave, limits, one)
	require.Equal(t, []string{value.Token(value.StringOf("left a"))}, left)
	after, _ := runOnce(t, warm, look, limits, one)
	assert.Equal(t, 2, pool.Served())
	require.Len(t, after, 1)
	seenFresh, err := value.ParseToken(fresh[0])
	require.NoError(t, err)
	seenAfter, err := value.ParseToken(after[0])
	require.NoError(t, err)
	assert.Equal(t, seenFresh.GoString(), seenAfter.GoString(), "what a driver sees after another left traces, against a fresh start")
	// The same interpreter served both: the traces were cleared, not
	// left behind in an interpreter that was replaced.
	pool.mu.Lock()
	n := len(pool.all)
	pool.mu.Unlock()
	assert.Equal(t, 1, n)
}

// A warm driver that runs past its time limit is killed with its
// interpreter, as a cold one is killed; the next Run and the next UDF
// start again, and both answer.
func TestAWarmDriverThatTimesOutFailsOnlyItself(t *testing.T) {
	dir := repoCopy(t, "loops.py")
	pool := &WarmPool{Readable: []string{dir}}
	defer pool.Close()
	warm := WithWarmPool(context.Background(), pool)
	u := parseUDF(t, filepath.Join(dir, "loops.py"), "spin")
	r, err := New(warm, u, Options{Limits: runner.Limits{Timeout: 2 * time.Second, MemoryMB: 512, Sandbox: sandbox.On}, Python: venvPython(t)})
	require.NoError(t, err)
	defer r.Close()
	got, err := r.Run(context.Background(), [][]value.Value{{value.IntOf(0)}, {value.IntOf(7)}})
	var te *runner.TimeoutError
	require.ErrorAs(t, err, &te)
	assert.Equal(t, 1, te.Row)
	assert.Equal(t, []string{"i0"}, tokens(got))
	got, err = r.Run(context.Background(), [][]value.Value{{value.IntOf(3)}})
	require.NoError(t, err)
	assert.Equal(t, []string{"i3"}, tokens(got))
	assert.Equal(t, 2, pool.Served(), "the restarted driver was forked from a new interpreter")
}

// Drivers of concurrent UDFs fork from interpreters of their own, and a
// file outside the pool's folders starts its driver as a process.
func TestWarmDriversRunConcurrentlyAndOnlyForTheirFolders(t *testing.T) {
	dir := repoCopy(t, "traces.py")
	pool := &WarmPool{Readable: []string{dir}}
	defer pool.Close()
	warm := WithWarmPool(context.Background(), pool)
	limits := runner.Limits{Timeout: 60 * time.Second, MemoryMB: 1024, Sandbox: sandbox.On}
	u := parseUDF(t, filepath.Join(dir, "traces.py"), "look_around")
	var wg sync.WaitGroup
	results := make([][]string, 3)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := New(warm, u, Options{Limits: limits, Python: venvPython(t)})
			if !assert.NoError(t, err) {
				return
			}
			defer r.Close()
			got, err := r.Run(context.Background(), [][]value.Value{{value.StringOf("x")}})
			assert.NoError(t, err)
			results[i] = tokens(got)
		}()
	}
	wg.Wait()
	assert.Equal(t, 3, pool.Served())
	for _, r := range results[1:] {
		assert.Equal(t, results[0], r)
	}
	seen, err := value.ParseToken(results[0][0])
	require.NoError(t, err)
	assert.True(t, strings.Contains(seen.GoString(), "'procs': []"), seen.GoString())

	outside := parseUDF(t, celsiusPath, "to_fahrenheit")
	runOnce(t, warm, outside, limits, [][]value.Value{{value.DoubleOf(1)}})
	assert.Equal(t, 3, pool.Served(), "a file outside the pool's folders ran on its own")
}

// A warm driver that crashes (its process exits, or goes over its memory
// limit) fails its Run as a cold one does, with the same row and reason,
// and the next Run answers.
func TestAWarmDriverCrashesAsAColdOne(t *testing.T) {
	dir := repoCopy(t, "traces.py", "loops.py")
	cases := []struct {
		file, name string
		rows       [][]value.Value
	}{
		{"traces.py", "exit_on", [][]value.Value{{value.IntOf(1)}, {value.IntOf(7)}, {value.IntOf(2)}}},
		{"loops.py", "hog", [][]value.Value{{value.IntOf(1)}, {value.IntOf(2048)}, {value.IntOf(1)}}},
	}
	pool := &WarmPool{Readable: []string{dir}}
	defer pool.Close()
	warm := WithWarmPool(context.Background(), pool)
	limits := runner.Limits{Timeout: 30 * time.Second, MemoryMB: 200, Sandbox: sandbox.On}
	crash := func(ctx context.Context, u *udf.UDF, rows [][]value.Value) (*runner.CrashError, []string) {
		r, err := New(ctx, u, Options{Limits: limits, Python: venvPython(t)})
		require.NoError(t, err)
		defer r.Close()
		got, err := r.Run(context.Background(), rows)
		var ce *runner.CrashError
		require.ErrorAs(t, err, &ce)
		again, err := r.Run(context.Background(), rows[:1])
		require.NoError(t, err, "the Run after the crash")
		return ce, append(tokens(got), tokens(again)...)
	}
	for _, c := range cases {
		u := parseUDF(t, filepath.Join(dir, c.file), c.name)
		want, wantGot := crash(context.Background(), u, c.rows)
		got, gotGot := crash(warm, u, c.rows)
		assert.Equal(t, want.Row, got.Row, c.name)
		assert.Equal(t, want.Reason, got.Reason, c.name)
		t.Logf("%s: %s", c.name, got.Reason)
		assert.Equal(t, wantGot, gotGot, c.name)
	}
	assert.Equal(t, 4, pool.Served(), "each crashed driver and its restart forked warm")
}
