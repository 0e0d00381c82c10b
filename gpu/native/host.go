package native

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/udfx/udfx/gpu"
	"github.com/udfx/udfx/harness/render/cuda"
	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/value"
)

// HostFlags are the g++ flags of the host build. -ffp-contract=off keeps
// g++ from fusing a*b+c (the JVM rounds twice); -O2 without -ffast-math
// keeps every IEEE operation as written.
var HostFlags = []string{"-std=c++17", "-O2", "-ffp-contract=off", "-DUDFX_HOST_DRIVER"}

// BuildError is the host compiler rejecting the rendered per-row function.
type BuildError struct {
	Command string
	Output  string // the compiler's diagnostics (their end when long)
	Err     error
}

func (e *BuildError) Error() string {
	return fmt.Sprintf("host build of the CUDA per-row function failed (%s): %v\n%s", e.Command, e.Err, e.Output)
}

func (e *BuildError) Unwrap() error { return e.Err }

// driverRow finds the row in the driver's fatal message.
var driverRow = regexp.MustCompile(`udfx host driver: row (\d+):`)

// hostRunner runs the host-built per-row function, one process per Run.
type hostRunner struct {
	dir      string
	bin      string
	compiler string
	nparams  int
	limits   runner.Limits
}

// HostRunner builds the per-row function of files (Render's output) with
// g++ and the driver of gpu/host, in a temporary folder, and returns a
// runner.Runner over it. No g++ is a *runner.EnvError; a compile failure
// is a *BuildError with the compiler's output.
func HostRunner(ctx context.Context, files []cuda.File, u *udf.UDF, limits runner.Limits) (runner.Runner, error) {
	cxx, err := exec.LookPath("g++")
	if err != nil {
		return nil, &runner.EnvError{What: "C++ compiler", Msg: "g++ is not on PATH; install it (apt-get install g++) to check CUDA rewrites on the host"}
	}
	dir, err := os.MkdirTemp("", "udfx-cuda-host-")
	if err != nil {
		return nil, fmt.Errorf("host build: %w", err)
	}
	ok := false
	defer func() {
		if !ok {
			_ = os.RemoveAll(dir)
		}
	}()
	have := map[string]bool{}
	for _, f := range files {
		if f.Path != cuda.RowHeader && f.Path != cuda.JVMHeader {
			continue // the host build needs the two headers only
		}
		have[f.Path] = true
		if err := os.WriteFile(filepath.Join(dir, f.Path), f.Content, 0o644); err != nil {
			return nil, fmt.Errorf("host build: %w", err)
		}
	}
	for _, need := range []string{cuda.RowHeader, cuda.JVMHeader} {
		if !have[need] {
			return nil, fmt.Errorf("host build: the rendered files lack %s", need)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "driver.cpp"), []byte(gpu.HostDriver), 0o644); err != nil {
		return nil, fmt.Errorf("host build: %w", err)
	}
	bin := filepath.Join(dir, "udfx_row_host")
	bctx := ctx
	if limits.Timeout > 0 {
		var cancel context.CancelFunc
		bctx, cancel = context.WithTimeout(ctx, limits.Timeout)
		defer cancel()
	}
	verOut, _ := exec.CommandContext(ctx, cxx, "-dumpfullversion").Output()
	ver := strings.TrimSpace(string(verOut))
	// A build that fails with the precompiled header is built again
	// without it: a damaged cache costs time, and the error is the
	// compiler's over the driver's own text.
	if std := hostStdHeader(bctx, cxx, ver); std == "" || hostBuild(bctx, cxx, std, dir, bin) != nil {
		if err := hostBuild(bctx, cxx, "", dir, bin); err != nil {
			return nil, err
		}
	}
	ok = true
	return &hostRunner{dir: dir, bin: bin, compiler: "g++ " + ver, nparams: len(u.Params), limits: limits}, nil
}

// hostBuild compiles dir's driver.cpp into bin. std, when not empty, is
// the precompiled header of the driver's standard includes
// (hostStdHeader), included first.
func hostBuild(ctx context.Context, cxx, std, dir, bin string) error {
	args := append([]string{}, HostFlags...)
	if std != "" {
		args = append(args, "-include", std)
	}
	args = append(args, "-I", dir, "-o", bin, filepath.Join(dir, "driver.cpp"))
	out, err := exec.CommandContext(ctx, cxx, args...).CombinedOutput()
	if err != nil {
		tail := &runner.Tail{Max: 16 << 10}
		_, _ = tail.Write(out)
		return &BuildError{Command: "g++ " + strings.Join(HostFlags, " "), Output: tail.String(), Err: err}
	}
	return nil
}

// hostDriverIncludes are the system includes of the embedded host driver
// and of the JVM header every per-row function includes first (<cmath>
// is a fifth of a host build), the precompiled header's text: fixed for a
// build of udfx. Both files include them before any code of their own,
// so including them first changes nothing.
var hostDriverIncludes = sync.OnceValue(func() string {
	var includes strings.Builder
	seen := map[string]bool{}
	for _, src := range []string{gpu.HostDriver, gpu.JVMHeader} {
		for _, line := range strings.Split(src, "\n") {
			if strings.HasPrefix(line, "#include <") && !seen[line] {
				seen[line] = true
				includes.WriteString(line + "\n")
			}
		}
	}
	return includes.String()
})

// hostStdHeader is a header of the host driver's standard includes with
// its precompiled form beside it, built once per compiler in udfx's cache
// folder, or "" where it cannot be built. Parsing <string> and <vector>
// is half of a host build (0.8 s to 0.4 s per UDF on this project's
// machine). The header holds only the driver's own #include lines, and
// g++ uses its precompiled form only when the build's flags match those
// it was made with, else it reads the header's text: either way the
// binary is the same (TestTheHostBuildsPrecompiledHeaderChangesNoByte).
func hostStdHeader(ctx context.Context, cxx, version string) string {
	includes := hostDriverIncludes()
	cache, err := os.UserCacheDir()
	if err != nil || version == "" {
		return ""
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s", cxx, version, strings.Join(HostFlags, " "), includes)
	dir := filepath.Join(cache, "udfx", "cuda-host", hex.EncodeToString(h.Sum(nil))[:32])
	header := filepath.Join(dir, "udfx_host_std.h")
	if _, err := os.Stat(header + ".gch"); err == nil {
		return header
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return ""
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), ".build-")
	if err != nil {
		return ""
	}
	defer os.RemoveAll(tmp)
	th := filepath.Join(tmp, "udfx_host_std.h")
	if err := os.WriteFile(th, []byte(includes), 0o644); err != nil {
		return ""
	}
	args := append(append([]string{}, HostFlags...), "-x", "c++-header", "-o", th+".gch", th)
	if err := exec.CommandContext(ctx, cxx, args...).Run(); err != nil {
		return ""
	}
	// Another build may have made it meanwhile: theirs is as good.
	if err := os.Rename(tmp, dir); err != nil {
		if _, serr := os.Stat(header + ".gch"); serr != nil {
			return ""
		}
	}
	return header
}

func (r *hostRunner) Describe() string {
	return fmt.Sprintf("%s %s; udfx_row of %s (host build of the CUDA rewrite)", r.compiler, strings.Join(HostFlags[:3], " "), cuda.RowHeader)
}

func (r *hostRunner) Close() error {
	if err := os.RemoveAll(r.dir); err != nil {
		return fmt.Errorf("host runner: remove %s: %w", r.dir, err)
	}
	return nil
}

// Run writes the rows to a fresh driver process and reads one result line
// per row. On Limits.Timeout it kills the process group and returns the
// results so far with *runner.TimeoutError.
func (r *hostRunner) Run(ctx context.Context, rows [][]value.Value) ([]value.Value, error) {
	var in bytes.Buffer
	for i, row := range rows {
		if len(row) != r.nparams {
			return nil, fmt.Errorf("host runner: row %d has %d values for %d parameters", i, len(row), r.nparams)
		}
		for j, v := range row {
			if j > 0 {
				in.WriteByte(' ')
			}
			in.Write(value.AppendToken(nil, v))
		}
		in.WriteByte('\n')
	}
	cmd := exec.Command(r.bin)
	runner.SetProcessGroup(cmd)
	cmd.Stdin = &in
	errTail := &runner.Tail{Max: 16 << 10}
	cmd.Stderr = errTail
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("host runner: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("host runner: start %s: %w", r.bin, err)
	}

	var (
		mu      sync.Mutex
		results = make([]value.Value, 0, len(rows))
		readErr error
	)
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 0, 1<<16), 1<<20)
		for sc.Scan() {
			v, err := value.ParseToken(sc.Text())
			mu.Lock()
			if err != nil {
				readErr = fmt.Errorf("host runner: result %d: %w", len(results), err)
				mu.Unlock()
				return
			}
			results = append(results, v)
			mu.Unlock()
		}
		if err := sc.Err(); err != nil && !errors.Is(err, io.EOF) {
			mu.Lock()
			readErr = fmt.Errorf("host runner: read results: %w", err)
			mu.Unlock()
		}
	}()
	var timeout <-chan time.Time
	if r.limits.Timeout > 0 {
		t := time.NewTimer(r.limits.Timeout)
		defer t.Stop()
		timeout = t.C
	}
	snapshot := func() []value.Value {
		mu.Lock()
		defer mu.Unlock()
		return append([]value.Value(nil), results...)
	}
	select {
	case <-done:
	case <-timeout:
		runner.KillProcessGroup(cmd)
		<-done
		_ = cmd.Wait()
		got := snapshot()
		return got, &runner.TimeoutError{After: r.limits.Timeout, Row: len(got)}
	case <-ctx.Done():
		runner.KillProcessGroup(cmd)
		<-done
		_ = cmd.Wait()
		return snapshot(), fmt.Errorf("host runner: %w", ctx.Err())
	}
	waitErr := cmd.Wait()
	got := snapshot()
	if readErr != nil {
		return got, readErr
	}
	if waitErr != nil || len(got) != len(rows) {
		reason := "exited early"
		if waitErr != nil {
			reason = waitErr.Error()
		}
		row := len(got)
		// The driver reads every row before it evaluates any, and names
		// the row it stopped at.
		if m := driverRow.FindStringSubmatch(errTail.String()); m != nil {
			if n, err := strconv.Atoi(m[1]); err == nil {
				row = n
			}
		}
		return got, &runner.CrashError{Row: row, Reason: reason, Output: errTail.String()}
	}
	return got, nil
}
