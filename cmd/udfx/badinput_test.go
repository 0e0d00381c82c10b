//go:build linux

package main

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/metrics"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/udfx/udfx/internal/treetest"
)

// The bad-input corpus (issue 12): each folder testdata/badinput/GROUP/NAME
// holds one bad or hostile input and a file `case` that says how udfx
// must take it. The folder's other files become a fresh git repository
// (with the project's .venv linked in); `case` has one directive a line,
// # for comments:
//
//	copy DEST SRC         copy SRC (relative to the module root) to DEST
//	setup VERB ARGS...    after the commit: change the tree (see setupStep)
//	run ARGS...           udfx's arguments
//	stdin PATH            a file of the repository to give udfx as stdin
//	exit N                the exit code
//	stderr REGEXP         stderr must match it (every such line)
//	stdout REGEXP         stdout must match it (every such line)
//	serial                run alone: udfx starts processes (an original)
//
// An argument is a word, or a Go string literal ("a b\n"), which *N after
// the closing quote repeats N times; $OUTSIDE is a folder outside the
// repository that must stay empty too.
//
// For each case the test asserts the exit code and the messages, a
// bounded time (30 s) and Go heap growth (256 MiB; the originals run under
// udfx's own --memory), that no process udfx started is left (the test is
// the subreaper, so escaped grandchildren come back to it), and that no
// file of the repository changed but udfx's workspace .udfx/.

const (
	badInputMaxTime = 30 * time.Second
	badInputMaxHeap = 256 << 20
)

type badInputCase struct {
	name           string // GROUP/NAME
	dir            string // the case's folder
	copies         [][2]string
	setup          [][]string
	args           []string
	stdin          string
	exit           int
	stderr, stdout []*regexp.Regexp
	serial         bool
}

func TestBadInputCorpus(t *testing.T) {
	cases := loadBadInputCases(t)
	groups := map[string]int{}
	for _, c := range cases {
		groups[strings.SplitN(c.name, "/", 2)[0]]++
	}
	t.Logf("%d cases: %v", len(cases), groups)
	require.GreaterOrEqual(t, len(cases), 60)
	// Orphans (a UDF's `setsid sleep`) are re-parented to the test, so
	// they count as its descendants.
	require.NoError(t, unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0))
	require.Empty(t, descendants(0), "processes before the corpus ran")

	// Cases that run no original, GOMAXPROCS at a time (go test's
	// -parallel); the processes are checked once they are all done, as
	// building a case's repository runs git meanwhile.
	t.Run("parallel", func(t *testing.T) {
		for _, c := range cases {
			if !c.serial {
				t.Run(c.name, func(t *testing.T) {
					t.Parallel()
					runBadInputCase(t, c)
				})
			}
		}
	})
	assert.Empty(t, descendants(2*time.Second), "processes left behind by the parallel cases")
	t.Run("serial", func(t *testing.T) {
		for _, c := range cases {
			if c.serial {
				t.Run(c.name, func(t *testing.T) {
					runBadInputCase(t, c)
					assert.Empty(t, descendants(2*time.Second), "processes left behind")
				})
			}
		}
	})
}

func loadBadInputCases(t *testing.T) []*badInputCase {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "badinput", "*", "*", "case"))
	require.NoError(t, err)
	var cases []*badInputCase
	for _, f := range files {
		c, err := parseBadInputCase(f)
		require.NoError(t, err, f)
		cases = append(cases, c)
	}
	return cases
}

func parseBadInputCase(file string) (*badInputCase, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(file)
	c := &badInputCase{name: filepath.Base(filepath.Dir(dir)) + "/" + filepath.Base(dir), dir: dir, exit: -1}
	for n, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, rest, _ := strings.Cut(line, " ")
		fail := func(format string, args ...any) error {
			return fmt.Errorf("%s:%d: %s", file, n+1, fmt.Sprintf(format, args...))
		}
		switch key {
		case "stderr", "stdout":
			re, err := regexp.Compile(rest)
			if err != nil {
				return nil, fail("%v", err)
			}
			if key == "stderr" {
				c.stderr = append(c.stderr, re)
			} else {
				c.stdout = append(c.stdout, re)
			}
			continue
		case "serial":
			c.serial = true
			continue
		}
		words, err := splitWords(rest)
		if err != nil {
			return nil, fail("%v", err)
		}
		switch key {
		case "copy":
			if len(words) != 2 {
				return nil, fail("copy DEST SRC")
			}
			c.copies = append(c.copies, [2]string{words[0], words[1]})
		case "setup":
			if len(words) == 0 {
				return nil, fail("setup VERB ARGS...")
			}
			c.setup = append(c.setup, words)
		case "run":
			c.args = words
		case "stdin":
			c.stdin = rest
		case "exit":
			if c.exit, err = strconv.Atoi(rest); err != nil {
				return nil, fail("%v", err)
			}
		default:
			return nil, fail("unknown directive %q", key)
		}
	}
	switch {
	case c.args == nil:
		return nil, fmt.Errorf("%s: no run line", file)
	case c.exit < 0:
		return nil, fmt.Errorf("%s: no exit line", file)
	case len(c.stderr)+len(c.stdout) == 0:
		return nil, fmt.Errorf("%s: no stderr or stdout line: the message is part of the case", file)
	}
	return c, nil
}

// splitWords splits at spaces; a word may be a Go string literal,
// repeated by a *N right after it.
func splitWords(s string) ([]string, error) {
	var words []string
	for s = strings.TrimLeft(s, " "); s != ""; s = strings.TrimLeft(s, " ") {
		if s[0] != '"' {
			w, rest, _ := strings.Cut(s, " ")
			words, s = append(words, w), rest
			continue
		}
		lit, err := strconv.QuotedPrefix(s)
		if err != nil {
			return nil, fmt.Errorf("word %s: %w", s, err)
		}
		w, _ := strconv.Unquote(lit)
		s = s[len(lit):]
		if strings.HasPrefix(s, "*") {
			n, rest, _ := strings.Cut(s[1:], " ")
			times, err := strconv.Atoi(n)
			if err != nil {
				return nil, fmt.Errorf("repeat %s: %w", lit, err)
			}
			w, s = strings.Repeat(w, times), rest
		}
		words = append(words, w)
	}
	return words, nil
}

// runBadInputCase builds the case's repository, runs udfx in it and
// checks everything the corpus promises.
func runBadInputCase(t *testing.T, c *badInputCase) {
	repo, outside := t.TempDir(), t.TempDir()
	root := repoRoot(t)
	entries, err := os.ReadDir(c.dir)
	require.NoError(t, err)
	for _, e := range entries {
		if e.Name() != "case" {
			copyFile(t, filepath.Join(c.dir, e.Name()), filepath.Join(repo, e.Name()))
		}
	}
	for _, cp := range c.copies {
		copyFile(t, filepath.Join(root, filepath.FromSlash(cp[1])), filepath.Join(repo, filepath.FromSlash(cp[0])))
	}
	require.NoError(t, os.Symlink(filepath.Join(root, ".venv"), filepath.Join(repo, ".venv")))
	require.NoError(t, os.WriteFile(filepath.Join(repo, ".gitignore"), []byte(".venv\n"), 0o644))
	git(t, repo, "init", "-q")
	commitAll(t, repo)
	for _, step := range c.setup {
		setupStep(t, repo, outside, step)
	}
	args := make([]string, len(c.args))
	for i, a := range c.args {
		args[i] = strings.ReplaceAll(a, "$OUTSIDE", outside)
	}
	stdin := io.Reader(strings.NewReader(""))
	if c.stdin != "" {
		f, err := os.Open(filepath.Join(repo, c.stdin))
		require.NoError(t, err)
		defer f.Close()
		stdin = f
	}
	skip := []string{".git", ".udfx"}
	before, beforeOutside := treetest.Snapshot(t, repo, skip...), treetest.Snapshot(t, outside)

	var stdout, stderr lockedBuffer
	done := make(chan int, 1)
	heap := startHeapWatch()
	start := time.Now()
	go func() {
		done <- run(args, &env{Stdin: stdin, Stdout: &stdout, Stderr: &stderr, WorkDir: repo})
	}()
	var code int
	select {
	case code = <-done:
	case <-time.After(badInputMaxTime):
		t.Fatalf("udfx %s did not finish within %s\nstderr: %s", strings.Join(c.args, " "), badInputMaxTime, stderr.String())
	}
	elapsed, grew := time.Since(start), heap.stop()

	out, errOut := stdout.String(), stderr.String()
	show := func() string {
		return fmt.Sprintf("udfx %s\nstderr: %s\nstdout: %s", strings.Join(c.args, " "), clip(errOut), clip(out))
	}
	assert.Equal(t, c.exit, code, "exit code\n%s", show())
	for _, re := range c.stderr {
		assert.Regexp(t, re, errOut, "stderr\n%s", show())
	}
	for _, re := range c.stdout {
		assert.Regexp(t, re, out, "stdout\n%s", show())
	}
	assert.Less(t, elapsed, badInputMaxTime)
	assert.Less(t, grew, uint64(badInputMaxHeap), "Go heap grew by %d MiB", grew>>20)
	assert.Equal(t, before, treetest.Snapshot(t, repo, skip...), "files changed outside the workspace")
	assert.Equal(t, beforeOutside, treetest.Snapshot(t, outside), "files written outside the repository")
}

// setupStep changes the committed tree: a special file git cannot hold,
// a generated file too large to keep in testdata, an uncommitted edit.
func setupStep(t *testing.T, repo, outside string, step []string) {
	t.Helper()
	p := func(i int) string {
		require.Greater(t, len(step), i, "setup %v", step)
		return filepath.Join(repo, filepath.FromSlash(step[i]))
	}
	mkParent := func(path string) { require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755)) }
	switch step[0] {
	case "fifo":
		mkParent(p(1))
		require.NoError(t, syscall.Mkfifo(p(1), 0o644))
	case "socket":
		// Left on disk after the listener closes: a socket file nobody
		// listens on.
		mkParent(p(1))
		l, err := net.ListenUnix("unix", &net.UnixAddr{Name: p(1), Net: "unix"})
		require.NoError(t, err)
		l.SetUnlinkOnClose(false)
		require.NoError(t, l.Close())
	case "symlink":
		mkParent(p(1))
		require.Len(t, step, 3)
		require.NoError(t, os.Symlink(strings.ReplaceAll(step[2], "$OUTSIDE", outside), p(1)))
	case "mkdir":
		require.NoError(t, os.MkdirAll(p(1), 0o755))
	case "write", "append":
		mkParent(p(1))
		flag := os.O_CREATE | os.O_WRONLY | os.O_TRUNC
		if step[0] == "append" {
			flag = os.O_CREATE | os.O_WRONLY | os.O_APPEND
		}
		f, err := os.OpenFile(p(1), flag, 0o644)
		require.NoError(t, err)
		for _, part := range step[2:] {
			_, err = f.WriteString(part)
			require.NoError(t, err)
		}
		require.NoError(t, f.Close())
	case "udfx":
		var stdout, stderr bytes.Buffer
		code := run(step[1:], &env{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, WorkDir: repo})
		require.Equal(t, exitOK, code, "setup udfx %v\nstderr: %s\nstdout: %s", step[1:], stderr.String(), stdout.String())
	case "commit":
		commitAll(t, repo)
	default:
		t.Fatalf("unknown setup step %v", step)
	}
}

func commitAll(t *testing.T, repo string) {
	t.Helper()
	git(t, repo, "add", "-A", ".")
	git(t, repo, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "case", "--allow-empty")
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Dir(to), 0o755))
	require.NoError(t, os.WriteFile(to, b, 0o644))
}

func clip(s string) string {
	if len(s) > 4000 {
		return s[:2000] + "\n[...]\n" + s[len(s)-2000:]
	}
	return s
}

// heapWatch samples the Go heap while a case runs.
type heapWatch struct {
	base uint64
	peak chan uint64
	quit chan struct{}
}

func heapObjects() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

func startHeapWatch() *heapWatch {
	runtime.GC()
	h := &heapWatch{base: heapObjects(), peak: make(chan uint64), quit: make(chan struct{})}
	go func() {
		peak := h.base
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			if v := heapObjects(); v > peak {
				peak = v
			}
			select {
			case <-h.quit:
				h.peak <- peak
				return
			case <-tick.C:
			}
		}
	}()
	return h
}

// stop returns how far the heap grew above where it was at the start.
func (h *heapWatch) stop() uint64 {
	close(h.quit)
	return <-h.peak - h.base
}

// descendants lists the processes below this one ("pid state (name)
// command line"),
// waiting up to wait for them to be gone: a process udfx killed may take
// a moment to be reaped.
func descendants(wait time.Duration) []string {
	deadline := time.Now().Add(wait)
	for {
		left := descendantsNow()
		if len(left) == 0 || time.Now().After(deadline) {
			return left
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func descendantsNow() []string {
	type proc struct {
		ppid        int
		state, comm string
	}
	procs := map[int]proc{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		st, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces and parentheses.
		i, j := bytes.IndexByte(st, '('), bytes.LastIndexByte(st, ')')
		if i < 0 || j < i {
			continue
		}
		f := strings.Fields(string(st[j+1:]))
		if len(f) < 2 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		procs[pid] = proc{ppid: ppid, state: f[0], comm: string(st[i+1 : j])}
	}
	self := os.Getpid()
	var out []string
	for pid, p := range procs {
		for up, hops := p.ppid, 0; up > 1 && hops < 64; up, hops = procs[up].ppid, hops+1 {
			if up == self {
				cmd, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
				out = append(out, fmt.Sprintf("%d %s (%s) %s", pid, p.state, p.comm, bytes.TrimSpace(bytes.ReplaceAll(cmd, []byte{0}, []byte{' '}))))
				break
			}
		}
	}
	sort.Strings(out)
	return out
}
