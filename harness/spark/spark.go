// Package spark runs original UDFs and their rewrites in real Apache
// Spark: one long-lived PySpark driver process per Session (driver.py,
// embedded) that starts a SparkSession once (local mode, a cluster master,
// or Spark Connect) and then evaluates jobs on it, so the JVM's start is
// paid once per session.
//
// A job (Session.Run) writes its input from Go as Parquet, registers the
// original UDF the way its source does (a Python @udf/pandas_udf imported
// from its file; a Scala or Java UDF compiled into a jar with a generated
// registration shim called through py4j) and evaluates it and the rewrite
// (a SQL expression, selectExpr) over the same input in the same session.
// Results come back as Arrow (DataFrame.toArrow, so the DataFrame's own
// query execution is the one that ran) and are read into value.Values, one
// per input row, with the executed physical plan of each side.
// Session.Bench times both sides end to end into Spark's noop sink.
//
// See docs/spark.md.
package spark

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/udfx/udfx/harness/internal/jobfree"
	"github.com/udfx/udfx/harness/runner"
)

//go:embed driver/driver.py
var driverSource []byte

// PinnedVersion is the Spark (pyspark) version udfx is tested against and
// CI installs.
const PinnedVersion = "4.1.1"

// DefaultMaster is the master of a local session: two cores, which keeps
// the ratio of a benchmark meaningful on a small machine and is what udfx's
// CI has.
const DefaultMaster = "local[2]"

// Config configures a Session.
type Config struct {
	// Master is the Spark master URL (local[N], spark://host:7077, yarn,
	// k8s://...); default DefaultMaster. Ignored when Remote is set.
	Master string
	// Remote is a Spark Connect URL (sc://host:15002): the session is a
	// Connect client and needs pyspark's connect extras (grpcio, ...).
	Remote string
	// ANSI is spark.sql.ansi.enabled for the session; a Job can override it.
	ANSI bool
	// Jars are put on the class path when the session starts (spark.jars
	// for executors, spark.driver.extraClassPath for the driver and
	// py4j). A job whose compiled UDF jar is not among them restarts the
	// session with it (see CompileUDF to avoid that): jars added to a
	// running session share one class namespace, and two UDF sources that
	// define the same class (examples/*/ToFahrenheit) would clash.
	Jars []string
	// Hive starts the session with Hive support, which a Hive UDF among
	// Jars needs (a session without it restarts with it for one).
	Hive bool
	// Comet, when set, is the Apache DataFusion Comet jar
	// (mavenjar.Comet): the session runs with Comet's plugin and
	// CometSettings, the jar on the driver's and the executors' class
	// path from their start, and each job also returns Comet's own
	// account of what ran natively (SideResult.NativeReport). Not for
	// Connect, whose server decides its plugins.
	Comet string
	// Conf is more Spark settings (spark.driver.memory, spark.driver.port,
	// ...), applied last.
	Conf map[string]string
	// Env reads environment variables (JAVA_HOME, PATH, SPARK_HOME,
	// UDFX_PYTHON, PYTHONPATH); os.Getenv when nil. The driver's
	// environment is the process's with these taken from Env.
	Env func(string) string
	// Dir is where a .venv is looked for (walking up); default the
	// current folder.
	Dir string
	// Workspace is the folder for the driver's log, job inputs and
	// results; default a temporary folder that Close removes.
	Workspace string
	// CacheDir holds compiled JVM UDF jars; default
	// os.UserCacheDir()/udfx/spark.
	CacheDir string
	// StartTimeout bounds the session's start; default 3 minutes.
	StartTimeout time.Duration
}

// Info describes a started session.
type Info struct {
	SparkVersion string
	// JavaVersion is the driver JVM's java.version; empty for Connect.
	JavaVersion string
	// Master is the session's master (local[2], spark://...) or, for
	// Connect, the remote URL.
	Master        string
	Connect       bool
	ANSI          bool
	PythonVersion string
	// PythonUnicode is the driver Python's unicodedata.unidata_version:
	// the Unicode its Python UDFs' str methods follow.
	PythonUnicode string
	// From says where Spark came from (SPARK_HOME or a pyspark package).
	From string
	// StartSeconds is how long the SparkSession took to start.
	StartSeconds float64
	// Comet is the version of the DataFusion Comet plugin the session
	// runs with, as the plugin reports it; empty without Comet.
	Comet string
}

// Session is one running Spark driver. Its methods are safe for concurrent
// use; jobs run one at a time.
type Session struct {
	cfg     Config
	in      *Install
	env     func(string) string
	ws      string
	ownWS   bool
	logPath string
	logFile *os.File

	mu    sync.Mutex
	cmd   *exec.Cmd
	stdin io.WriteCloser
	lines chan []byte
	done  chan struct{}
	dead  error
	info  Info
	jobs  int
	jvm   map[string]*jvmOriginal
	// jars are on the running JVM's class path: Config.Jars and the jar
	// of the JVM UDF the session was last restarted for.
	jars     []string
	restarts int
	// hive is whether the session runs with Hive support (an in-memory
	// metastore), which only Hive UDFs need.
	hive bool

	// pool, when set, takes the session back on Close (see Pool);
	// poolKey is the configuration it was started with, pooledIdle
	// whether it waits in the pool.
	pool       *Pool
	poolKey    poolKey
	pooledIdle bool
}

// Start finds Spark and Java, starts the driver process and the
// SparkSession, and returns when Spark is up. Errors: *EnvError (no Java,
// a Java this Spark does not run on, no pyspark or SPARK_HOME, Connect's
// Python packages missing), *StartError (the JVM did not start, a port is
// in use, a bad master URL, no Connect server), with the log's path.
func Start(ctx context.Context, cfg Config) (*Session, error) {
	cfg, in, err := prepare(ctx, cfg)
	if err != nil {
		return nil, err
	}
	return startOn(ctx, cfg, in)
}

// prepare fills cfg's defaults, checks its Comet settings and finds the
// Spark install it names.
func prepare(ctx context.Context, cfg Config) (Config, *Install, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return cfg, nil, err
	}
	if err := cfg.checkComet(); err != nil {
		return cfg, nil, err
	}
	in, err := Find(ctx, cfg.Env, cfg.Dir, cfg.Remote != "")
	return cfg, in, err
}

// withDefaults is cfg with the defaults its documentation gives.
func (cfg Config) withDefaults() (Config, error) {
	if cfg.Env == nil {
		cfg.Env = os.Getenv
	}
	if cfg.Master == "" {
		cfg.Master = DefaultMaster
	}
	if cfg.Dir == "" {
		cfg.Dir = "."
	}
	if cfg.StartTimeout <= 0 {
		cfg.StartTimeout = 3 * time.Minute
	}
	if cfg.CacheDir == "" {
		d, err := defaultCacheDir()
		if err != nil {
			return cfg, err
		}
		cfg.CacheDir = d
	}
	return cfg, nil
}

// checkComet refuses a Comet session that cannot start: Connect, or a
// jar that is not Comet's.
func (cfg Config) checkComet() error {
	if cfg.Comet == "" {
		return nil
	}
	if cfg.Remote != "" {
		return &EnvError{What: "Comet", Msg: "Comet is a plugin of the Spark that runs the jobs: a Spark Connect server must be started with it; udfx cannot add it from the client"}
	}
	return checkCometJar(cfg.Comet)
}

// startOn starts a session of cfg, defaults filled in, on in.
func startOn(ctx context.Context, cfg Config, in *Install) (*Session, error) {
	s := &Session{cfg: cfg, in: in, env: cfg.Env, ws: cfg.Workspace, jvm: map[string]*jvmOriginal{}, jars: cfg.Jars, hive: cfg.Hive}
	if s.ws == "" {
		d, err := os.MkdirTemp("", "udfx-spark-")
		if err != nil {
			return nil, fmt.Errorf("spark: %w", err)
		}
		s.ws, s.ownWS = d, true
	} else if err := os.MkdirAll(s.ws, 0o755); err != nil {
		return nil, fmt.Errorf("spark: workspace: %w", err)
	}
	if err := s.start(ctx); err != nil {
		// The log the error names stays, temporary workspace or not.
		s.ownWS = false
		s.Close()
		return nil, err
	}
	return s, nil
}

func (s *Session) start(ctx context.Context) error {
	driver := filepath.Join(s.ws, "udfx-spark-driver.py")
	if err := os.WriteFile(driver, driverSource, 0o644); err != nil {
		return fmt.Errorf("spark: writing the driver: %w", err)
	}
	if err := jobfree.Write(s.ws); err != nil {
		return fmt.Errorf("spark: writing the driver: %w", err)
	}
	s.logPath = filepath.Join(s.ws, "spark-driver.log")
	if s.logFile == nil {
		lf, err := os.OpenFile(s.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return fmt.Errorf("spark: log: %w", err)
		}
		s.logFile = lf
	}
	lf := s.logFile
	cmd := exec.Command(s.in.Python, "-u", driver)
	cmd.Dir = s.ws
	cmd.Env = s.childEnv()
	cmd.Stderr = lf
	stdin, stdout, err := runner.Pipes(cmd)
	if err != nil {
		return fmt.Errorf("spark: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return &EnvError{What: "Python", Msg: fmt.Sprintf("cannot start %s: %v", s.in.Python, err)}
	}
	s.cmd, s.stdin = cmd, stdin
	s.lines = make(chan []byte, 64)
	s.done = make(chan struct{})
	go func() {
		for {
			line, err := stdout.ReadBytes('\n')
			if len(line) > 0 {
				s.lines <- line
			}
			if err != nil {
				close(s.lines)
				return
			}
		}
	}()
	go func() {
		cmd.Wait()
		close(s.done)
	}()

	req := map[string]any{
		"op": "start", "master": s.cfg.Master, "remote": s.cfg.Remote, "ansi": s.cfg.ANSI,
		"jars": s.jars, "conf": s.cfg.Conf, "app": "udfx",
	}
	if s.hive {
		req["hive"] = map[string]any{"warehouse": filepath.Join(s.ws, "hive-warehouse")}
	}
	if s.cfg.Comet != "" {
		req["comet"] = map[string]any{"jar": s.cfg.Comet, "conf": cometSettings()}
	}
	sctx, cancel := context.WithTimeout(ctx, s.cfg.StartTimeout)
	defer cancel()
	raw, werr, err := s.call(sctx, req, nil)
	if err != nil {
		if sctx.Err() != nil && ctx.Err() == nil {
			return &StartError{Cause: CauseJVM, Summary: fmt.Sprintf("Spark did not come up within %s", s.cfg.StartTimeout), Hint: "the machine may be overloaded, or the master may not accept the application; read the log", Log: s.logPath}
		}
		return err
	}
	if werr != nil {
		switch werr.Kind {
		case "env":
			e := &EnvError{What: werr.What, Msg: werr.Msg, Missing: werr.Missing}
			if len(werr.Missing) > 0 {
				e.Msg += fmt.Sprintf("; install them: %s -m pip install 'pyspark[connect]==%s' (or: pip install %s)", s.in.Python, werr.Version, strings.Join(werr.Missing, " "))
			}
			return e
		}
		return startError(werr, s.cfg.Master, s.cfg.Remote, s.logPath)
	}
	var info struct {
		Spark, Java, Master, Python, Comet, Unicode string
		Connect                                     bool
		StartSeconds                                float64 `json:"start_seconds"`
	}
	if err := json.Unmarshal(raw, &info); err != nil {
		return &SessionError{Msg: fmt.Sprintf("bad start reply %q: %v", raw, err), Log: s.logPath}
	}
	s.info = Info{SparkVersion: info.Spark, JavaVersion: info.Java, Master: info.Master, Connect: info.Connect,
		ANSI: s.cfg.ANSI, PythonVersion: info.Python, PythonUnicode: info.Unicode, From: s.in.From, StartSeconds: info.StartSeconds, Comet: info.Comet}
	if s.cfg.Comet != "" && info.Comet == "" {
		return &StartError{Cause: CauseJVM, Summary: "Spark started without the Comet plugin", Hint: "Comet's driver plugin did not set spark.comet.version; its reason is in the log", Log: s.logPath}
	}
	return nil
}

// childEnv is the driver's environment: this process's, with the
// variables udfx reads taken from Config.Env, Java pinned to the one Find
// checked, and UTC as the local time zone (pyspark converts timestamps in
// Python workers with it).
func (s *Session) childEnv() []string {
	drop := map[string]bool{"JAVA_HOME": true, "SPARK_HOME": true, "PATH": true, "PYTHONPATH": true, "UDFX_PYTHON": true,
		"TZ": true, "PYTHONHASHSEED": true, "PYSPARK_PYTHON": true, "PYSPARK_DRIVER_PYTHON": true, "PYSPARK_SUBMIT_ARGS": true}
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if !drop[k] {
			env = append(env, kv)
		}
	}
	if p := s.env("PATH"); p != "" {
		env = append(env, "PATH="+p)
	}
	if s.in.JavaHome != "" {
		env = append(env, "JAVA_HOME="+s.in.JavaHome)
	}
	if s.in.SparkHome != "" {
		env = append(env, "SPARK_HOME="+s.in.SparkHome)
	}
	pp := append([]string{}, s.in.PythonPath...)
	if p := s.env("PYTHONPATH"); p != "" {
		pp = append(pp, p)
	}
	if len(pp) > 0 {
		env = append(env, "PYTHONPATH="+strings.Join(pp, string(os.PathListSeparator)))
	}
	return append(env, "TZ=UTC", "PYTHONHASHSEED=0", "PYTHONDONTWRITEBYTECODE=1", "PYTHONIOENCODING=utf-8")
}

// call sends one request and waits for its reply, passing progress events
// to onEvent. It returns the reply, or the driver's error object, or a Go
// error when the driver died or ctx ended (the driver is then killed: a
// Spark job cannot be interrupted cleanly from here).
func (s *Session) call(ctx context.Context, req map[string]any, onEvent func([]byte)) (json.RawMessage, *wireError, error) {
	if s.dead != nil {
		return nil, nil, s.dead
	}
	b, err := json.Marshal(req)
	if err != nil {
		return nil, nil, fmt.Errorf("spark: %w", err)
	}
	if _, err := s.stdin.Write(append(b, '\n')); err != nil {
		return nil, nil, s.died(fmt.Sprintf("the driver process is gone (%v)", err))
	}
	for {
		select {
		case line, ok := <-s.lines:
			if !ok {
				return nil, nil, s.died("the driver process exited")
			}
			var head struct {
				Event string     `json:"event"`
				OK    *bool      `json:"ok"`
				Error *wireError `json:"error"`
			}
			if err := json.Unmarshal(line, &head); err != nil {
				return nil, nil, s.died(fmt.Sprintf("the driver broke the protocol: %q", truncate(string(line), 200)))
			}
			if head.Event != "" {
				if onEvent != nil {
					onEvent(line)
				}
				continue
			}
			if head.OK == nil {
				return nil, nil, s.died(fmt.Sprintf("the driver broke the protocol: %q", truncate(string(line), 200)))
			}
			if !*head.OK {
				if head.Error == nil {
					head.Error = &wireError{Kind: "spark", Message: "the driver failed without saying why"}
				}
				return nil, head.Error, nil
			}
			return json.RawMessage(line), nil, nil
		case <-ctx.Done():
			s.kill()
			s.dead = &SessionError{Msg: "the session was stopped: " + ctx.Err().Error(), Log: s.logPath}
			return nil, nil, ctx.Err()
		}
	}
}

// died marks the session dead, with the end of the log.
func (s *Session) died(msg string) error {
	s.kill()
	if t := lastException(tailOf(s.logPath, 64<<10)); t != "" {
		msg += ": " + t
	}
	s.dead = &SessionError{Msg: msg, Log: s.logPath}
	return s.dead
}

func tailOf(path string, n int64) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return ""
	}
	off := st.Size() - n
	if off < 0 {
		off = 0
	}
	b := make([]byte, st.Size()-off)
	if _, err := f.ReadAt(b, off); err != nil && !errors.Is(err, io.EOF) {
		return ""
	}
	return string(b)
}

func (s *Session) kill() {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	runner.KillProcessGroup(s.cmd)
	<-s.done
}

// Info describes the session.
func (s *Session) Info() Info { return s.info }

// Version is Spark's version ("4.1.1").
func (s *Session) Version() string { return s.info.SparkVersion }

// Master is the session's master URL, or its Connect URL.
func (s *Session) Master() string { return s.info.Master }

// Install is where Spark and Java were found.
func (s *Session) Install() Install { return *s.in }

// Log is the file holding everything the driver, the JVM and the UDFs
// printed.
func (s *Session) Log() string { return s.logPath }

// Workspace is the session's folder.
func (s *Session) Workspace() string { return s.ws }

// stop ends the driver: SparkSession.stop first, then its process group.
func (s *Session) stop() {
	if s.cmd != nil && s.dead == nil {
		if _, err := s.stdin.Write([]byte(`{"op":"close"}` + "\n")); err == nil {
			select {
			case <-s.done:
			case <-time.After(15 * time.Second):
			}
		}
	}
	if s.cmd != nil {
		s.stdin.Close()
		runner.KillProcessGroup(s.cmd)
		<-s.done
		s.cmd = nil
	}
}

// withJars makes sure jars are on the JVM's class path, and with hive
// that the session has Hive support, restarting the session when it
// lacks either.
func (s *Session) withJars(ctx context.Context, jars []string, hive bool) error {
	onPath := true
	for _, j := range jars {
		onPath = onPath && slices.Contains(s.jars, j)
	}
	if onPath && (s.hive || !hive) {
		return nil
	}
	if !onPath {
		fmt.Fprintf(s.logFile, "udfx: restarting the session to put %s on the class path\n", strings.Join(jars, ", "))
		s.jars = append(slices.Clone(s.cfg.Jars), jars...)
	}
	if hive && !s.hive {
		// Once on, Hive support stays: it changes nothing for the
		// other UDFs, and turning it off would cost another restart.
		fmt.Fprintf(s.logFile, "udfx: restarting the session with Hive support for a Hive UDF\n")
		s.hive = true
	}
	s.stop()
	s.restarts++
	if err := s.start(ctx); err != nil {
		s.kill()
		s.dead = err
		return err
	}
	return nil
}

// Restarts counts the restarts for JVM UDF jars (see Config.Jars).
func (s *Session) Restarts() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.restarts
}

// Close stops Spark and ends the driver's process group. A temporary
// workspace is removed (with the log: pass Config.Workspace to keep it).
// A session from a Pool goes back to the pool instead, still running.
func (s *Session) Close() error {
	if p := s.pool; p != nil && p.put(s) {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stop()
	if s.dead == nil {
		s.dead = &SessionError{Msg: "the session is closed"}
	}
	if s.logFile != nil {
		s.logFile.Close()
		s.logFile = nil
	}
	if s.ownWS {
		if err := os.RemoveAll(s.ws); err != nil {
			return fmt.Errorf("spark: removing %s: %w", s.ws, err)
		}
	}
	return nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
