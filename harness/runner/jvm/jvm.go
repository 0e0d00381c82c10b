// Package jvm runs an original Scala or Java UDF for real: it compiles the
// user's source file as it is (scalac 2.13 or javac, against Spark's jars),
// and calls the UDF row by row through a generated driver running in a JVM,
// the way Spark calls it. Values cross the process boundary in the token
// codec of package value, exactly.
//
// What Spark does around a call is replicated: a typed Scala function with
// a JVM primitive parameter is not called for a null input (the result is
// null); boxed parameters receive null; arguments are the Java objects
// Spark 4.1.1 passes (java.sql.Date, scala ArraySeq, Row, ...; see
// testdata/SparkArgClasses.txt); an exception is that row's result.
package jvm

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/udfx/udfx/harness/buildpath"
	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/value"
	"github.com/udfx/udfx/internal/sandbox"
)

// Options configure a Runner.
type Options struct {
	Limits runner.Limits
	// CacheDir holds compiled classes, keyed by a hash of the source, the
	// driver, the classpath and the JDK; default
	// os.UserCacheDir()/udfx/jvm.
	CacheDir string
	// Env reads environment variables (JAVA_HOME, PATH, SCALA_HOME,
	// SPARK_HOME, UDFX_PYTHON); os.Getenv when nil.
	Env func(string) string
}

// Runner calls one JVM UDF. It is not safe for concurrent use.
type Runner struct {
	u       *udf.UDF
	limits  runner.Limits
	tools   Tools
	classes string
	driver  string
	// jvmOptions are Spark's own (--add-opens ...), from its launcher.
	jvmOptions []string
	call       string
	args       []string
	sandbox    sandbox.Decision

	// build is what the repository's build adds to Spark's jars.
	build *buildpath.Classpath

	compileTime time.Duration
	cacheHit    bool

	proc        *process
	notCallable error
}

var _ runner.Runner = (*Runner)(nil)

// New finds the JDK, the Scala compiler and Spark's jars, and compiles the
// UDF's file (or finds it compiled in the cache). It starts no JVM: Run
// does, on its first call.
func New(ctx context.Context, u *udf.UDF, opts Options) (*Runner, error) {
	if u.Language != udf.Scala && u.Language != udf.Java {
		return nil, fmt.Errorf("the JVM runner runs Scala and Java UDFs, not %s", u.Language)
	}
	if opts.Env == nil {
		opts.Env = os.Getenv
	}
	if opts.Limits.Timeout <= 0 {
		opts.Limits.Timeout = runner.DefaultLimits.Timeout
	}
	if opts.Limits.MemoryMB <= 0 {
		opts.Limits.MemoryMB = runner.DefaultLimits.MemoryMB
	}
	if opts.CacheDir == "" {
		d, err := defaultCacheDir()
		if err != nil {
			return nil, err
		}
		opts.CacheDir = d
	}
	if err := callable(u); err != nil {
		return nil, err
	}
	sb, err := opts.Limits.Contain()
	if err != nil {
		return nil, err
	}
	absFile, err := filepath.Abs(u.Path())
	if err != nil {
		return nil, fmt.Errorf("locating %s: %w", u.File, err)
	}
	srcDir := filepath.Dir(absFile)
	t, err := findTools(ctx, opts.Env, srcDir, opts.CacheDir)
	if err != nil {
		return nil, err
	}
	if t.SparkJars == "" {
		return nil, &runner.EnvError{What: "Spark jars", Msg: "the UDF's source compiles and runs against Spark's jars, and none were found: " + strings.Join(t.Notes, "; ")}
	}
	scala := u.Language == udf.Scala
	if scala && len(t.ScalaJars) == 0 {
		return nil, &runner.EnvError{What: "Scala compiler", Msg: "no Scala " + t.scalaBinary() + " compiler: " + strings.Join(t.Notes, "; ")}
	}
	cpHash, err := classpathHash(&t)
	if err != nil {
		return nil, err
	}
	r := &Runner{u: u, limits: opts.Limits, tools: t, sandbox: sb}
	if r.driver, r.jvmOptions, err = compileDriver(ctx, &t, opts.CacheDir, cpHash); err != nil {
		return nil, err
	}
	start := time.Now()
	if r.classes, r.cacheHit, r.build, err = compileOriginal(ctx, &t, sb, cpHash, u, opts.CacheDir, opts.Env); err != nil {
		return nil, err
	}
	r.compileTime = time.Since(start)
	r.call = staticCall(u)
	r.args = r.commandArgs()
	return r, nil
}

// compileOriginal compiles u's file against t's Spark jars and what the
// repository's build declares (resolved here), in the sandbox sb.
func compileOriginal(ctx context.Context, t *Tools, sb sandbox.Decision, cpHash string, u *udf.UDF, cacheDir string, env func(string) string) (classes string, hit bool, build *buildpath.Classpath, err error) {
	absFile, err := filepath.Abs(u.Path())
	if err != nil {
		return "", false, nil, fmt.Errorf("locating %s: %w", u.File, err)
	}
	if build, err = buildpath.Resolve(ctx, absFile, buildpath.RepoRoot(u.Root, filepath.Dir(absFile)), buildpath.Options{CacheDir: cacheDir, Env: env}); err != nil {
		return "", false, nil, &runner.EnvError{What: "the build's classpath", Msg: err.Error()}
	}
	classes, hit, err = compileUser(ctx, t, sb, cacheDir, cpHash, u.Path(), u.Language == udf.Scala, u, build)
	return classes, hit, build, err
}

// CompileOriginal compiles u's file as New does for the runner (against
// t's Spark jars and the libraries and module sources the repository's
// build declares, contained as limits say, cached in cacheDir) and
// returns the folder of its classes and the build's classpath (nil when
// the file is in no build udfx reads). udfx's Spark engine registers
// these classes, so that both run the same compiled original.
func CompileOriginal(ctx context.Context, t *Tools, limits runner.Limits, u *udf.UDF, cacheDir string, env func(string) string) (string, *buildpath.Classpath, error) {
	if env == nil {
		env = os.Getenv
	}
	if t.SparkJars == "" || t.Javac == "" || u.Language == udf.Scala && len(t.ScalaJars) == 0 {
		return "", nil, &runner.EnvError{What: "JDK", Msg: "compiling " + u.File + " needs a JDK, Spark's jars and, for Scala, a Scala " + t.scalaBinary() + " compiler: " + strings.Join(t.Notes, "; ")}
	}
	sb, err := limits.Contain()
	if err != nil {
		return "", nil, err
	}
	cpHash, err := classpathHash(t)
	if err != nil {
		return "", nil, err
	}
	classes, _, build, err := compileOriginal(ctx, t, sb, cpHash, u, cacheDir, env)
	return classes, build, err
}

// callable rejects what can be seen from the model alone.
func callable(u *udf.UDF) error {
	switch u.Kind {
	case udf.KindFunctionClass, udf.KindUDFClass, udf.KindHiveUDF, udf.KindLambda, udf.KindFunctionRef:
	case udf.KindHiveGenericUDF:
		return &runner.NotCallableError{UDF: u.Name, Reason: "a Hive GenericUDF needs Hive's ObjectInspectors, which the JVM runner does not provide"}
	default:
		return &runner.NotCallableError{UDF: u.Name, Reason: fmt.Sprintf("the JVM runner does not call UDFs of kind %s", u.Kind)}
	}
	if strings.HasPrefix(u.Name, "<") {
		return &runner.NotCallableError{UDF: u.Name, Reason: "an anonymous function has no name by which udfx could reach it; give it a name with a val in an object"}
	}
	if _, why := factoryConsts(u); why != "" {
		return &runner.NotCallableError{UDF: u.Name, Reason: fmt.Sprintf("%s is made by %s, called with the literals its parameters hold: %s", u.Name, u.Factory.Name, why)}
	}
	if l := u.Lift; l != nil && len(l.Captures) > 0 {
		return &runner.NotCallableError{UDF: u.Name, Reason: fmt.Sprintf("%s is defined inside %s and reads its %s: it exists only while the job runs, and udfx cannot hold it elsewhere with the same meaning; move it to a val in an object, with what it reads", u.Name, l.Method, strings.Join(l.Captures, ", "))}
	}
	for _, p := range u.Params {
		if p.Type == nil {
			return &runner.NotCallableError{UDF: u.Name, Reason: fmt.Sprintf("the Spark type of parameter %s (%s) is unknown", p.Name, p.SourceType)}
		}
	}
	if u.Untyped {
		return &runner.NotCallableError{UDF: u.Name, Reason: "an untyped Scala UDF (udf(f, dataType)) is rejected by Spark 3+ unless spark.sql.legacy.allowUntypedScalaUDF is set; the JVM runner does not replicate that mode"}
	}
	return nil
}

func staticCall(u *udf.UDF) string {
	switch u.Kind {
	case udf.KindFunctionClass:
		return "new " + u.Name + "().apply"
	case udf.KindUDFClass:
		return "new " + u.Name + "().call"
	case udf.KindHiveUDF:
		return "new " + u.Name + "().evaluate"
	case udf.KindFunctionRef:
		return u.Name
	}
	return u.Name + " (the function it wraps).apply"
}

// driverArgs start the driver JVM: Spark's JVM options, udfx's settings,
// the class path, the driver's class.
func (r *Runner) driverArgs() []string {
	return append(append([]string{}, r.jvmOptions...),
		fmt.Sprintf("-Xmx%dm", r.limits.MemoryMB),
		// One user thread: the serial collector starts fastest and
		// leaves the cores to the UDF.
		"-XX:+UseSerialGC",
		// Spark's session time zone defaults to the JVM's; udfx fixes
		// it to UTC so that dates and timestamps convert reproducibly.
		"-Duser.timezone=UTC",
		// The locale of a Spark cluster's JVMs, whatever this machine's:
		// String.toUpperCase() and String.format read it (package
		// jdkcase's tables are read in it).
		"-Duser.language=en", "-Duser.country=US",
		"-Dfile.encoding=UTF-8",
		"-cp", strings.Join(append([]string{r.driver, r.classes, filepath.Join(r.tools.SparkJars, "*")}, r.buildJars()...), string(os.PathListSeparator)),
		driverClass,
	)
}

func (r *Runner) commandArgs() []string {
	args := append(r.driverArgs(), string(r.u.Kind), string(r.u.Language), r.u.Name, r.classes, boolArg(r.u.NullSkipsCall))
	for _, p := range r.u.Params {
		prim := "B"
		if p.Primitive {
			prim = "P"
		}
		args = append(args, p.Type.String(), prim, p.SourceType)
	}
	return args
}

// buildJars are the build's libraries, after Spark's jars as on a cluster.
func (r *Runner) buildJars() []string {
	if r.build == nil {
		return nil
	}
	return r.build.Jars
}

func boolArg(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// Describe names the runtime and how the UDF is called.
func (r *Runner) Describe() string {
	jdk := "JDK " + r.tools.JDKVersion
	if r.tools.JDKVendor != "" {
		jdk = r.tools.JDKVendor + " " + jdk
	}
	compiler := "javac"
	if r.u.Language == udf.Scala {
		compiler = "scalac " + r.tools.ScalaVersion
	}
	call := r.call
	if l := r.u.Lift; l != nil {
		holder := "an object of its own"
		if r.u.Language == udf.Java {
			holder = "a static field of " + l.Object
		}
		call += " (defined inside " + l.Method + ", held by " + holder + ")"
	}
	jars := fmt.Sprintf("Spark %s jars (%s)", r.tools.SparkVersion, r.tools.SparkFrom)
	if !r.build.Empty() {
		jars += fmt.Sprintf(" and %s's classpath (%d librar%s, %d source folder%s)", r.build.Build,
			len(r.build.Jars), plural(len(r.build.Jars), "y", "ies"), len(r.build.SourceRoots), plural(len(r.build.SourceRoots), "", "s"))
	}
	return fmt.Sprintf("%s, %s, %s, time zone UTC, locale en_US; %s; %s", jdk, compiler, jars, call, r.sandbox)
}

// JDK is the feature version of the JDK the original runs on ("17"):
// rewrites that follow the JDK's case mappings are exact for it only.
func (r *Runner) JDK() string { return strconv.Itoa(r.tools.JDKMajor) }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// CompileTime says how long New took to compile the UDF's file, and
// whether the classes came from the cache instead.
func (r *Runner) CompileTime() (time.Duration, bool) { return r.compileTime, r.cacheHit }

// Tools returns what New found.
func (r *Runner) Tools() Tools { return r.tools }

// Close ends the JVM. The compiled classes stay in the cache.
//
// The JVM is killed with its tree, not left to exit on its own: a process
// the UDF started (setsid sleep 1) is found and reaped while the JVM, its
// parent, still lives. Once the JVM is gone such a process is re-parented
// to udfx, the subreaper, and if it then exits by itself it stays a
// zombie of udfx that nothing can tell apart as the run's.
func (r *Runner) Close() error {
	if r.proc == nil {
		return nil
	}
	p := r.proc
	r.proc = nil
	p.stdin.Close()
	p.kill()
	<-p.done
	return nil
}

// process is a running driver JVM.
type process struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	stderr *runner.Tail
	done   chan struct{}
	err    error // from Wait, once done is closed
}

func (p *process) kill() { runner.KillProcessGroup(p.cmd) }

// Run calls the UDF on each row. The JVM starts on the first call and
// stays up for the next; one that timed out or crashed is replaced.
func (r *Runner) Run(ctx context.Context, rows [][]value.Value) ([]value.Value, error) {
	if r.notCallable != nil {
		return nil, r.notCallable
	}
	for i, row := range rows {
		if len(row) != len(r.u.Params) {
			return nil, fmt.Errorf("row %d has %d values; %s takes %d parameters", i, len(row), r.u.Name, len(r.u.Params))
		}
	}
	if r.proc == nil {
		startCtx, cancelStart := context.WithTimeout(ctx, r.limits.Start())
		err := r.start(startCtx)
		timedOut := errors.Is(startCtx.Err(), context.DeadlineExceeded) && ctx.Err() == nil
		cancelStart()
		if err != nil {
			if timedOut {
				r.failure(ctx, startCtx, err, nil, 0)
				return nil, &runner.TimeoutError{After: r.limits.Start(), Starting: true}
			}
			return nil, r.failure(ctx, startCtx, err, nil, 0)
		}
	}
	runCtx, cancel := context.WithTimeout(ctx, r.limits.Timeout)
	defer cancel()
	p := r.proc
	killed := make(chan struct{})
	stop := context.AfterFunc(runCtx, func() {
		p.kill()
		close(killed)
	})

	writeErr := make(chan error, 1)
	go func() { writeErr <- writeRows(p.stdin, rows) }()

	// Results are written in place: at 1M rows the copying of values
	// into a growing slice would cost more than the JVM's work.
	results := make([]value.Value, len(rows))
	n := 0
	var readErr error
	for n < len(rows) {
		if readErr = readResult(p.stdout, &results[n]); readErr != nil {
			break
		}
		n++
	}
	results = results[:n]
	if !stop() {
		// The deadline fired as the last result arrived: the JVM is gone.
		<-killed
		if readErr == nil {
			<-p.done
			r.proc = nil
			return results, nil
		}
	}
	if readErr != nil {
		return results, r.failure(ctx, runCtx, readErr, results, len(results))
	}
	if err := <-writeErr; err != nil {
		return results, fmt.Errorf("sending rows to the JVM: %w", err)
	}
	return results, nil
}

// failure ends the process after a read failed and says why.
func (r *Runner) failure(ctx, runCtx context.Context, cause error, results []value.Value, row int) error {
	var nc *runner.NotCallableError
	if errors.As(cause, &nc) {
		r.notCallable = nc
	}
	p := r.proc
	r.proc = nil
	if p != nil {
		p.kill()
		<-p.done
	}
	switch {
	case nc != nil:
		return nc
	case ctx.Err() != nil:
		return ctx.Err()
	case runCtx.Err() != nil:
		return &runner.TimeoutError{After: r.limits.Timeout, Row: row}
	}
	var syntax *value.SyntaxError
	if errors.As(cause, &syntax) {
		return fmt.Errorf("udfx's JVM driver sent a bad result for row %d: %w", row, cause)
	}
	out := ""
	reason := cause.Error()
	if p != nil {
		out = p.stderr.String()
		reason = crashReason(p.err, out)
	}
	return &runner.CrashError{Row: row, Reason: reason, Output: out}
}

func crashReason(waitErr error, stderr string) string {
	if i := strings.LastIndex(stderr, "udfx-driver crash: "); i >= 0 {
		line, _, _ := strings.Cut(stderr[i+len("udfx-driver crash: "):], "\n")
		return line
	}
	if i := strings.LastIndex(stderr, "Exception in thread "); i >= 0 {
		line, _, _ := strings.Cut(stderr[i:], "\n")
		return "udfx's driver failed: " + line
	}
	if strings.Contains(stderr, "java.lang.OutOfMemoryError") {
		return "java.lang.OutOfMemoryError"
	}
	if waitErr != nil {
		return "the JVM exited: " + waitErr.Error()
	}
	return "the JVM closed its output early"
}

// start launches the driver and reads its handshake.
func (r *Runner) start(ctx context.Context) error {
	cmd := exec.Command(r.tools.Java, r.args...)
	stdin, stdout, err := runner.Pipes(cmd)
	if err != nil {
		return fmt.Errorf("starting the JVM: %w", err)
	}
	p := &process{cmd: cmd, stdin: stdin, stdout: stdout, stderr: &runner.Tail{Max: 16 << 10}, done: make(chan struct{})}
	cmd.Stderr = p.stderr
	// The driver writes nothing but its pipes (the JVM's own temporary
	// files go to the private /tmp): no folder is writable. The UDF's
	// source tree stays readable, as it is to the compiler.
	if err := r.sandbox.Start(cmd, sandbox.Paths{Readable: []string{r.tools.JavaHome, r.tools.Java, r.driver, r.classes, r.tools.SparkJars, r.u.Path()}}); err != nil {
		return &runner.EnvError{What: "JDK", Msg: fmt.Sprintf("cannot start %s: %v", r.tools.Java, err)}
	}
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	r.proc = p
	stop := context.AfterFunc(ctx, p.kill)
	defer stop()
	line, err := p.stdout.ReadString('\n')
	if err != nil {
		return fmt.Errorf("the JVM did not start the driver: %w", err)
	}
	line = strings.TrimSuffix(line, "\n")
	if line == "" {
		return fmt.Errorf("the JVM driver sent an empty greeting")
	}
	msg, err := unitsText(line[1:])
	if err != nil {
		return fmt.Errorf("the JVM driver sent a bad greeting %q: %w", line, err)
	}
	switch line[0] {
	case 'R':
		r.call = msg
		return nil
	case 'X':
		return &runner.NotCallableError{UDF: r.u.Name, Reason: msg}
	}
	return fmt.Errorf("the JVM driver sent a bad greeting %q", line)
}

func unitsText(h string) (string, error) {
	v, err := value.ParseToken("s" + h)
	if err != nil {
		return "", err
	}
	return string(utf16.Decode(v.Units)), nil
}

// writeRows sends every row as a line of tokens. It runs beside the reader
// so that neither pipe fills while the other waits.
func writeRows(w io.Writer, rows [][]value.Value) error {
	buf := make([]byte, 0, 1<<16)
	for _, row := range rows {
		for i, v := range row {
			if i > 0 {
				buf = append(buf, ' ')
			}
			buf = value.AppendToken(buf, v)
		}
		buf = append(buf, '\n')
		if len(buf) >= 1<<15 {
			if _, err := w.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	if len(buf) > 0 {
		if _, err := w.Write(buf); err != nil {
			return err
		}
	}
	return nil
}

// readResult reads one result line. Doubles and nulls, the common case,
// skip the general parser.
func readResult(r *bufio.Reader, dst *value.Value) error {
	line, err := r.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		long := append([]byte(nil), line...)
		for errors.Is(err, bufio.ErrBufferFull) {
			line, err = r.ReadSlice('\n')
			long = append(long, line...)
		}
		line = long
	}
	if err != nil {
		return err
	}
	line = line[:len(line)-1]
	if len(line) == 17 && line[0] == 'd' {
		if bits, ok := hex64(line[1:]); ok {
			dst.Kind, dst.Bits = value.Double, bits
			return nil
		}
	}
	if len(line) == 1 && line[0] == 'N' {
		return nil // dst is the zero Value: null
	}
	v, err := value.ParseToken(string(line))
	if err != nil {
		return err
	}
	*dst = v
	return nil
}

// hex64 reads lowercase hex digits, as the driver writes them.
func hex64(b []byte) (uint64, bool) {
	var x uint64
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			x = x<<4 | uint64(c-'0')
		case c >= 'a' && c <= 'f':
			x = x<<4 | uint64(c-'a'+10)
		default:
			return 0, false
		}
	}
	return x, true
}
