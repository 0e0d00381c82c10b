// Package python runs a PySpark UDF for real in CPython, the way Spark
// 4.1.1's Python worker calls it, through a generated driver script
// (driver.py, embedded). See driver.py for the exact input and return
// conversions and where each comes from.
//
// Supported: plain @udf / udf(f, T) / spark.udf.register("n", f, T) (pickled,
// row at a time, with PySpark's return-type conversion: a value whose type
// does not match the declared type is NULL), and pandas_udf series-to-series,
// iterator-of-series, iterator-of-multiple-series and series-to-scalar.
// Arrow-optimized Python UDFs (useArrow=True), grouped-map pandas functions
// and RDD lambdas give *runner.NotCallableError.
package python

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/udfx/udfx/harness/internal/jobfree"
	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/value"
	"github.com/udfx/udfx/internal/notebook"
	"github.com/udfx/udfx/internal/sandbox"

	"github.com/udfx/udfx/harness/pyenv"
)

//go:embed driver.py
var driverSource []byte

// Eval types, as pyspark.util.PythonEvalType numbers them.
const (
	evalBatched       = 100
	evalScalarPandas  = 200
	evalGroupedAgg    = 202
	evalScalarPandasI = 204
)

// DefaultBatchSize is spark.sql.execution.arrow.maxRecordsPerBatch's
// default: the rows a pandas_udf sees per call.
const DefaultBatchSize = 10000

// NotReproducibleClass is the error class the driver gives a row whose
// result in Spark depends on something udfx cannot reproduce (Java's
// toString of a HashMap stored in a string column, a numpy scalar that
// Spark's JVM cannot unpickle, ...).
const NotReproducibleClass = "udfx.NotReproducible"

// NotReproducibleError says Spark's result for a row cannot be known
// without Spark: Run returns it with all the results, Row being the first
// such row (its result is an error value of class NotReproducibleClass).
type NotReproducibleError struct {
	Row    int
	Reason string
}

func (e *NotReproducibleError) Error() string {
	return fmt.Sprintf("row %d: udfx cannot reproduce what Spark returns: %s", e.Row, e.Reason)
}

// Options configure a Runner.
type Options struct {
	Limits runner.Limits
	// Python is the interpreter. Empty: $UDFX_PYTHON, else a .venv/bin/python
	// found walking up from the UDF's file, else python3 on PATH.
	Python string
	// Env looks up environment variables; nil means os.Getenv.
	Env func(string) string
	// ParamTypes overrides the Spark types of the parameters (nil entries
	// fall back to the UDF's declared types, then to the values' kinds).
	ParamTypes []*udf.Type
	// BatchSize is the rows per pandas_udf call; 0 means DefaultBatchSize.
	BatchSize int
}

// Runner calls one Python UDF in a CPython process that stays up between
// Run calls (a timeout or crash ends it; the next Run starts another).
type Runner struct {
	u         *udf.UDF
	opts      Options
	python    string
	dir       string // holds driver.py
	file      string // the UDF's source, absolute
	sandbox   sandbox.Decision
	config    []byte
	evalType  int
	pyVersion string
	psVersion string
	// unicode is the interpreter's unicodedata.unidata_version.
	unicode string
	// leftOut lists the lines of the module's top-level Spark job, which
	// the driver left out when it loaded the UDF ("12-14,20"; "" when
	// none).
	leftOut string

	// warm is the pool of warm interpreters New's context carried: the
	// driver, and any restart of it, forks from there where it can.
	warm *WarmPool

	mu   sync.Mutex
	proc *proc
}

var _ runner.Runner = (*Runner)(nil)

// New starts the interpreter, imports the UDF's module and finds the UDF.
// It fails with *runner.EnvError (no Python, no pyspark, pandas or pyarrow
// for a pandas_udf), *runner.CompileError (the module does not import:
// syntax error, exception at import), *runner.NotCallableError (the UDF is
// not reachable at module level, or of a kind udfx does not run) or
// *runner.TimeoutError (the import did not finish in time).
func New(ctx context.Context, u *udf.UDF, opts Options) (*Runner, error) {
	if u.Language != udf.Python {
		return nil, fmt.Errorf("python runner: %s is a %s UDF", u.Name, u.Language)
	}
	if u.Kind == udf.KindRDDLambda {
		return nil, &runner.NotCallableError{UDF: u.Name, Reason: fmt.Sprintf("a lambda passed to RDD.%s runs inside a Spark job and is not a UDF object udfx can import", u.RDDOperation)}
	}
	if opts.Env == nil {
		opts.Env = os.Getenv
	}
	if opts.Limits == (runner.Limits{}) {
		opts.Limits = runner.DefaultLimits
	}
	if opts.BatchSize <= 0 {
		opts.BatchSize = DefaultBatchSize
	}
	py, err := findPython(u.Path(), opts)
	if err != nil {
		return nil, err
	}
	sb, err := opts.Limits.Contain()
	if err != nil {
		return nil, err
	}
	file, err := filepath.Abs(u.Path())
	if err != nil {
		return nil, fmt.Errorf("python runner: %w", err)
	}
	dir, err := os.MkdirTemp("", "udfx-python-")
	if err != nil {
		return nil, fmt.Errorf("python runner: %w", err)
	}
	cfg := map[string]any{
		"file": file, "name": u.Name, "kind": string(u.Kind), "flavor": string(u.PandasFlavor),
		"memory_mb": opts.Limits.MemoryMB, "batch_size": opts.BatchSize,
	}
	if args, ok := u.Factory.Callable(); ok {
		cfg["factory"] = map[string]any{"name": u.Factory.Name, "args": args}
	}
	if notebook.IsNotebook(file) {
		// The driver loads the notebook's code cells from a file of their
		// Python, with the notebook as the module's file.
		src, err := notebook.Materialize(dir, file)
		if err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("python runner: %w", err)
		}
		cfg["source"] = src
	}
	if u.Return != nil {
		rt, err := sparkJSON(u.Return)
		if err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
		cfg["return_type"] = rt
	}
	config, err := json.Marshal(cfg)
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("python runner config: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "driver.py"), driverSource, 0o600); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("python runner: %w", err)
	}
	if err := jobfree.Write(dir); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("python runner: %w", err)
	}
	r := &Runner{u: u, opts: opts, python: py, dir: dir, file: file, sandbox: sb, config: config, warm: warmPoolFrom(ctx)}
	if err := r.start(ctx); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return r, nil
}

// NumbaCacheDir is where numba caches the kernels of vectorized-python
// rewrites the runner imports, unless NUMBA_CACHE_DIR says otherwise.
const NumbaCacheDir = "/tmp/udfx-numba-cache"

// NewPerRow starts a runner that calls a pandas_udf on one row at a time
// (batches of one). A series-to-series pandas_udf that raises on one row
// fails its whole batch in Spark; one row per batch gives each row its own
// result, so a differential test compares every row, not whole batches.
func NewPerRow(ctx context.Context, u *udf.UDF, limits runner.Limits) (runner.Runner, error) {
	return New(ctx, u, Options{Limits: limits, BatchSize: 1})
}

// NewBatched starts a runner that takes the rows of each Run call as one
// batch (up to DefaultBatchSize rows), as Spark hands a pandas_udf its
// rows: the differential test calls a vectorized rewrite through it in
// batches of many sizes.
func NewBatched(ctx context.Context, u *udf.UDF, limits runner.Limits) (runner.Runner, error) {
	return New(ctx, u, Options{Limits: limits, BatchSize: DefaultBatchSize})
}

// findPython picks the interpreter (see Options.Python).
func findPython(file string, opts Options) (string, error) {
	if opts.Python != "" {
		return lookPython(opts.Python)
	}
	if f, ok := pyenv.Find(opts.Env, filepath.Dir(file)); ok {
		return lookPython(f.Python)
	}
	return lookPython("python3")
}

func lookPython(p string) (string, error) {
	found, err := exec.LookPath(p)
	if err != nil {
		return "", &runner.EnvError{What: "Python", Msg: fmt.Sprintf("no interpreter %q (%v): run udfx setup (it creates a Python environment with pyspark), or set UDFX_PYTHON to a Python 3.9+ that has pyspark", p, err)}
	}
	return found, nil
}

// IsScalarAggregate reports whether the UDF is a series-to-scalar
// pandas_udf: Run then treats all its rows as one group and returns a
// single result.
func (r *Runner) IsScalarAggregate() bool { return r.evalType == evalGroupedAgg }

// Describe names the interpreter and how the UDF is called.
func (r *Runner) Describe() string {
	how := map[int]string{
		evalBatched:       "per row as a pickled @udf (SQL_BATCHED_UDF)",
		evalScalarPandas:  fmt.Sprintf("per batch of %d rows as a pandas_udf (SQL_SCALAR_PANDAS_UDF)", r.opts.BatchSize),
		evalScalarPandasI: fmt.Sprintf("over an iterator of %d-row batches (SQL_SCALAR_PANDAS_ITER_UDF)", r.opts.BatchSize),
		evalGroupedAgg:    "once over all rows as one group (SQL_GROUPED_AGG_PANDAS_UDF)",
	}[r.evalType]
	d := fmt.Sprintf("CPython %s, PySpark %s; %s.func %s; %s", r.pyVersion, r.psVersion, r.u.Name, how, r.sandbox)
	if r.leftOut != "" {
		d += "; the module's top-level Spark job (lines " + strings.ReplaceAll(r.leftOut, ",", ", ") + ") left out"
	}
	return d
}

// UnicodeVersion is the version of the interpreter's Unicode database,
// which decides str.lower(), str.upper() and the digits float() reads.
func (r *Runner) UnicodeVersion() string { return r.unicode }

// Close ends the interpreter and removes the driver script.
func (r *Runner) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.proc != nil {
		r.proc.close()
		r.proc = nil
	}
	if err := os.RemoveAll(r.dir); err != nil {
		return fmt.Errorf("python runner: %w", err)
	}
	return nil
}

// proc is one running driver: a process of its own (cmd), or a child of a
// warm interpreter (warm, from a WarmPool).
type proc struct {
	cmd    *exec.Cmd
	warm   *warmChild
	stdin  io.WriteCloser
	stdout *bufio.Reader
	stderr *runner.Tail
	exited chan struct{}
	once   sync.Once
}

// kill ends the driver now.
func (p *proc) kill() {
	p.once.Do(func() {
		if p.warm != nil {
			p.warm.kill()
		} else {
			runner.KillProcessGroup(p.cmd)
		}
		p.stdin.Close()
	})
	<-p.exited
}

// close ends a driver that is done or whose output has ended (it
// crashed, or exited): a warm child gets up to WaitDelay to exit, so that
// its interpreter, which did nothing wrong, serves the next UDF; one that
// does not exit in time, and a cold driver, are killed.
func (p *proc) close() {
	if p.warm != nil {
		p.stdin.Close()
		t := time.NewTimer(runner.WaitDelay)
		defer t.Stop()
		select {
		case <-p.warm.ended:
		case <-t.C:
		}
	}
	p.kill()
}

// failure is how the driver's process ended when that was not a clean
// exit ("signal: killed", "exit status 3"); "" otherwise.
func (p *proc) failure() string {
	if p.warm != nil {
		return p.warm.failure()
	}
	if st := p.cmd.ProcessState; st != nil && !st.Success() {
		return st.String()
	}
	return ""
}

// driverEnv is the driver's environment, cold or warm.
func driverEnv() []string {
	// Spark sets PYTHONHASHSEED=0 for executors (pyspark/core/context.py);
	// TZ=UTC makes the worker's local time, which pyspark's TimestampType
	// conversions use, the session time zone udfx assumes.
	env := append(os.Environ(), "TZ=UTC", "PYTHONHASHSEED=0", "PYTHONDONTWRITEBYTECODE=1", "PYTHONIOENCODING=utf-8")
	// numba's cache=True needs a writable folder: beside the module is
	// read-only in the sandbox, whose /tmp is private and writable (so a
	// contained run compiles its kernels once per start).
	if os.Getenv("NUMBA_CACHE_DIR") == "" {
		env = append(env, "NUMBA_CACHE_DIR="+NumbaCacheDir)
	}
	return env
}

func (r *Runner) start(ctx context.Context) error {
	p, err := r.launch(ctx)
	if err != nil {
		return err
	}
	type hello struct {
		line string
		err  error
	}
	got := make(chan hello, 1)
	go func() {
		if _, err := p.stdin.Write(append(append([]byte{}, r.config...), '\n')); err != nil {
			got <- hello{err: err}
			return
		}
		line, err := p.stdout.ReadString('\n')
		got <- hello{line: strings.TrimRight(line, "\n"), err: err}
	}()
	timer := time.NewTimer(r.opts.Limits.Start())
	defer timer.Stop()
	var h hello
	select {
	case h = <-got:
	case <-timer.C:
		p.kill()
		return &runner.TimeoutError{After: r.opts.Limits.Start(), Starting: true}
	case <-ctx.Done():
		p.kill()
		return ctx.Err()
	}
	if h.err != nil || h.line == "" {
		p.close()
		return &runner.EnvError{What: "Python", Msg: fmt.Sprintf("%s did not start the udfx driver: %s", r.python, lastLines(p.stderr.String(), 5))}
	}
	if err := r.handshake(h.line); err != nil {
		p.close()
		return err
	}
	r.proc = p
	return nil
}

// launch starts a driver: a child of a warm interpreter where the
// context carries a WarmPool that takes this UDF, else a process of its
// own.
func (r *Runner) launch(ctx context.Context) (*proc, error) {
	if p, ok := r.warm.fork(ctx, r); ok {
		return p, nil
	}
	cmd := exec.Command(r.python, "-u", filepath.Join(r.dir, "driver.py"))
	cmd.Dir = filepath.Dir(r.u.Path())
	if cmd.Dir == "" {
		cmd.Dir = "."
	}
	cmd.Env = driverEnv()
	stdin, stdout, err := runner.Pipes(cmd)
	if err != nil {
		return nil, fmt.Errorf("python runner: %w", err)
	}
	errTail := &runner.Tail{Max: 16 << 10}
	cmd.Stderr = errTail
	// The driver writes nothing but its pipes: no folder is writable.
	if err := r.sandbox.Start(cmd, sandbox.Paths{Readable: []string{r.python, r.dir, r.file}}); err != nil {
		return nil, &runner.EnvError{What: "Python", Msg: fmt.Sprintf("cannot start %s: %v", r.python, err)}
	}
	p := &proc{cmd: cmd, stdin: stdin, stdout: stdout, stderr: errTail, exited: make(chan struct{})}
	go func() {
		cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

// handshake reads the driver's first line.
func (r *Runner) handshake(line string) error {
	if rest, ok := strings.CutPrefix(line, "OK "); ok {
		f := strings.Fields(rest)
		if len(f) < 4 {
			return fmt.Errorf("python runner: bad driver greeting %q", line)
		}
		for _, opt := range f[3:] {
			if u, ok := strings.CutPrefix(opt, "unicode:"); ok {
				r.unicode = u
			} else if lines, ok := strings.CutPrefix(opt, "left-out:"); ok {
				r.leftOut = lines
			} else {
				return fmt.Errorf("python runner: bad driver greeting %q", line)
			}
		}
		f = f[:3]
		et, err := strconv.Atoi(f[0])
		if err != nil {
			return fmt.Errorf("python runner: bad driver greeting %q", line)
		}
		r.evalType, r.pyVersion, r.psVersion = et, f[1], f[2]
		if r.pyVersion != "" && !pythonAtLeast(r.pyVersion, 3, 9) {
			return &runner.EnvError{What: "Python", Msg: fmt.Sprintf("Python %s is too old; PySpark 4 needs 3.9 or later", r.pyVersion)}
		}
		return nil
	}
	rest, ok := strings.CutPrefix(line, "ERR ")
	if !ok {
		return fmt.Errorf("python runner: unexpected driver output %q", line)
	}
	kind, payload, _ := strings.Cut(rest, " ")
	var m struct {
		What, Msg, File, UDF, Reason string
		Line                         int
	}
	if err := json.Unmarshal([]byte(payload), &m); err != nil {
		return fmt.Errorf("python runner: bad driver error %q: %w", line, err)
	}
	switch kind {
	case "env":
		return &runner.EnvError{What: m.What, Msg: m.Msg}
	case "compile":
		return &runner.CompileError{File: m.File, Line: m.Line, Msg: m.Msg}
	case "notcallable":
		return &runner.NotCallableError{UDF: m.UDF, Reason: m.Reason}
	}
	return fmt.Errorf("python runner: %s", m.Msg)
}

func pythonAtLeast(v string, major, minor int) bool {
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return false
	}
	ma, err1 := strconv.Atoi(parts[0])
	mi, err2 := strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil {
		return false
	}
	return ma > major || (ma == major && mi >= minor)
}

// paramTypes decides the Spark type of every parameter for these rows.
func (r *Runner) paramTypes(rows [][]value.Value) ([]*udf.Type, error) {
	n := len(r.u.Params)
	if len(r.opts.ParamTypes) > n {
		n = len(r.opts.ParamTypes)
	}
	for _, row := range rows {
		if len(row) != n {
			return nil, fmt.Errorf("python runner: a row has %d values, %s takes %d", len(row), r.u.Name, n)
		}
	}
	strict := r.evalType != evalBatched
	ts := make([]*udf.Type, n)
	for i := range ts {
		name := strconv.Itoa(i)
		if i < len(r.u.Params) {
			name = r.u.Params[i].Name
			ts[i] = r.u.Params[i].Type
		}
		if i < len(r.opts.ParamTypes) && r.opts.ParamTypes[i] != nil {
			ts[i] = r.opts.ParamTypes[i]
		}
		if ts[i] == nil {
			t, err := inferType(rows, i, strict, name)
			if err != nil {
				return nil, err
			}
			ts[i] = t
		}
	}
	return ts, nil
}

// Run calls the UDF on the rows. For a row-at-a-time @udf and the scalar
// pandas_udf flavours it returns one result per row, in order; for a
// series-to-scalar pandas_udf (IsScalarAggregate) all rows form one group
// and it returns exactly one result. A row on which the UDF raised gets a
// value.Error (class: the exception's qualified name); a pandas_udf that
// raised gives the error to every row of its batch.
//
// On Limits.Timeout it kills the interpreter's process group and returns
// the results so far with *runner.TimeoutError (Row: the first row without
// a result); a process that dies (MemoryError under Limits.MemoryMB, a
// signal) gives *runner.CrashError. A row whose Spark result udfx cannot
// reproduce gives *NotReproducibleError with all the results.
func (r *Runner) Run(ctx context.Context, rows [][]value.Value) ([]value.Value, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	types, err := r.paramTypes(rows)
	if err != nil {
		return nil, err
	}
	header, err := typesJSON(types)
	if err != nil {
		return nil, fmt.Errorf("python runner: %w", err)
	}
	if r.proc == nil {
		if err := r.start(ctx); err != nil {
			return nil, err
		}
	}
	p := r.proc
	want := len(rows)
	if r.evalType == evalGroupedAgg {
		want = 1
	}

	// Rows go in from one goroutine while results come back on another, so
	// neither pipe fills up and stalls the driver.
	go func() {
		w := bufio.NewWriterSize(p.stdin, 1<<16)
		w.Write(header)
		w.WriteByte('\n')
		var buf []byte
		for _, row := range rows {
			buf = buf[:0]
			for j, v := range row {
				if j > 0 {
					buf = append(buf, ' ')
				}
				buf = value.AppendToken(buf, v)
			}
			buf = append(buf, '\n')
			if _, err := w.Write(buf); err != nil {
				return
			}
		}
		w.WriteString("=\n")
		w.Flush()
	}()

	results := make([]value.Value, 0, want)
	type outcome struct{ err error }
	done := make(chan outcome, 1)
	go func() {
		done <- outcome{err: readResults(p.stdout, want, &results)}
	}()

	var timeout <-chan time.Time
	if r.opts.Limits.Timeout > 0 {
		t := time.NewTimer(r.opts.Limits.Timeout)
		defer t.Stop()
		timeout = t.C
	}
	var o outcome
	select {
	case o = <-done:
	case <-timeout:
		p.kill()
		<-done
		r.proc = nil
		return results, &runner.TimeoutError{After: r.opts.Limits.Timeout, Row: r.rowOf(len(results))}
	case <-ctx.Done():
		p.kill()
		<-done
		r.proc = nil
		return results, ctx.Err()
	}
	if o.err != nil {
		var fatal *driverFatal
		reason := o.err.Error()
		if errors.As(o.err, &fatal) {
			reason = fatal.Reason
		}
		p.close()
		r.proc = nil
		if st := p.failure(); st != "" && fatal == nil {
			reason = fmt.Sprintf("%s (%s)", reason, st)
		}
		return results, &runner.CrashError{Row: r.rowOf(len(results)), Reason: reason, Output: lastLines(p.stderr.String(), 20)}
	}
	for i, v := range results {
		if v.Kind == value.Error && v.Class == NotReproducibleClass {
			return results, &NotReproducibleError{Row: i, Reason: v.Message}
		}
	}
	return results, nil
}

// rowOf maps a count of results to the row being evaluated.
func (r *Runner) rowOf(n int) int {
	if r.evalType == evalGroupedAgg {
		return 0
	}
	return n
}

// driverFatal is the driver's "!" line.
type driverFatal struct{ Reason string }

func (e *driverFatal) Error() string { return e.Reason }

// readResults reads result lines up to the "=" that ends a Run.
func readResults(rd *bufio.Reader, want int, out *[]value.Value) error {
	for {
		line, err := rd.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// Copy before reading on: the next read reuses the buffer
			// that line points into.
			head := append([]byte{}, line...)
			rest, err2 := rd.ReadBytes('\n')
			line = append(head, rest...)
			err = err2
		}
		if err != nil {
			// The goroutine waiting on the interpreter closes this pipe
			// once it has exited (exec.Cmd.Wait), so a read that races it
			// sees a closed file rather than the end of the output: the
			// same event.
			if errors.Is(err, io.EOF) || errors.Is(err, os.ErrClosed) {
				return fmt.Errorf("the interpreter exited")
			}
			return fmt.Errorf("reading results: %w", err)
		}
		line = line[:len(line)-1]
		switch {
		case len(line) == 1 && line[0] == '=':
			if len(*out) != want {
				return fmt.Errorf("the driver answered %d rows for %d", len(*out), want)
			}
			return nil
		case len(line) > 0 && line[0] == '!':
			var m struct{ Reason, Trace string }
			if err := json.Unmarshal(line[1:], &m); err != nil {
				return &driverFatal{Reason: string(line[1:])}
			}
			if m.Trace != "" {
				m.Reason += "\n" + m.Trace
			}
			return &driverFatal{Reason: m.Reason}
		}
		v, err := parseResult(line)
		if err != nil {
			return fmt.Errorf("driver result %d: %w", len(*out), err)
		}
		*out = append(*out, v)
	}
}

// parseResult reads one result token line, with a fast path for a double.
func parseResult(line []byte) (value.Value, error) {
	if len(line) == 17 && line[0] == 'd' {
		bits, err := strconv.ParseUint(string(line[1:]), 16, 64)
		if err == nil {
			return value.DoubleBits(bits), nil
		}
	}
	if len(line) == 1 && line[0] == 'N' {
		return value.NullValue(), nil
	}
	return value.ParseToken(string(line))
}

func lastLines(s string, n int) string {
	lines := bytes.Split(bytes.TrimRight([]byte(s), "\n"), []byte("\n"))
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return string(bytes.Join(lines, []byte("\n")))
}
