package spark

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/udfx/udfx/harness/runner"
)

// startConnectServer starts a local Spark Connect server from the same
// Spark the tests use (pyspark's jars carry spark-connect), on a free port,
// and returns its sc:// URL. The server is the one that runs the Python
// UDF's workers, so it gets the interpreter udfx found (the client's
// cloudpickled function must unpickle there) and UTC, like a classic
// session. Its log goes to the test's temporary folder; its process group
// is killed when the test ends.
func startConnectServer(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	in, err := Find(ctx, nil, repoRoot(t), false)
	if err != nil {
		t.Fatalf("finding Spark for the Connect server: %v", err)
	}
	home := filepath.Dir(in.Jars)
	submit := filepath.Join(home, "bin", "spark-submit")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()

	logPath := filepath.Join(t.TempDir(), "connect-server.log")
	lf, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(submit,
		"--class", "org.apache.spark.sql.connect.service.SparkConnectServer",
		"--master", DefaultMaster,
		"--conf", fmt.Sprintf("spark.connect.grpc.binding.port=%d", port),
		"--conf", "spark.connect.grpc.binding.address=127.0.0.1",
		"--conf", "spark.ui.enabled=false",
		"--conf", "spark.sql.session.timeZone=UTC",
		"--conf", "spark.driver.extraJavaOptions=-Duser.timezone=UTC",
		"--conf", "spark.executor.extraJavaOptions=-Duser.timezone=UTC",
		"spark-internal")
	cmd.Env = append(os.Environ(), "SPARK_HOME="+home, "JAVA_HOME="+in.JavaHome,
		"PYSPARK_PYTHON="+in.Python, "PYSPARK_DRIVER_PYTHON="+in.Python, "TZ=UTC")
	cmd.Stdout, cmd.Stderr = lf, lf
	runner.SetProcessGroup(cmd)
	if err := cmd.Start(); err != nil {
		lf.Close()
		t.Fatalf("starting %s: %v", submit, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		runner.KillProcessGroup(cmd)
		<-exited
		lf.Close()
	})

	addr := fmt.Sprintf("127.0.0.1:%d", port)
	deadline := time.Now().Add(3 * time.Minute)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return fmt.Sprintf("sc://localhost:%d", port)
		}
		select {
		case err := <-exited:
			exited <- err // for the cleanup
			t.Fatalf("the Connect server exited (%v) before listening on %s; log %s:\n%s", err, addr, logPath, tailOf(logPath, 4<<10))
		case <-time.After(500 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("the Connect server does not listen on %s after 3 minutes; log %s:\n%s", addr, logPath, tailOf(logPath, 4<<10))
		}
	}
}

// The Python Celsius example over Spark Connect: the client cloudpickles
// the @udf and the server's Python workers run it; the input is the
// Parquet file in the client's workspace, which this server (same machine)
// can read. Same checks as the local session's, plus the Connect facts.
func TestConnectCelsius(t *testing.T) {
	url := startConnectServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	s, err := Start(ctx, Config{Remote: url, ANSI: true, Dir: repoRoot(t), Workspace: t.TempDir(), CacheDir: testCache})
	if err != nil {
		t.Fatalf("Start over Connect: %v", err)
	}
	defer s.Close()
	info := s.Info()
	if !info.Connect || s.Master() != url || info.Master != url || info.JavaVersion != "" || !info.ANSI {
		t.Errorf("info %+v, want Connect at %s", info, url)
	}
	if info.SparkVersion != s.Install().SparkVersion || s.Install().Java != "" {
		t.Errorf("Spark %q (install %+v): a Connect client needs no local Java", info.SparkVersion, s.Install())
	}
	u := parseUDF(t, "examples/python-celsius/celsius.py", "to_fahrenheit")
	// Connect's plans are explain text; a row-at-a-time @udf is
	// BatchEvalPython there too (Arrow-optimized ones ArrowEvalPython).
	checkCelsiusOn(t, s, u, "EvalPython")
	// The same refusals over Connect, where the driver has no parser of
	// its own: the server's analyzed plan is checked instead, never
	// skipped.
	checkRefusals(t, s, generate(t, u, 50))

	// A Java UDFn class over Connect: its jar (compiled here) goes to the
	// server as an artifact of the session and the shim, a UDFn calling
	// the original, is registered by registerJavaFunction. The same
	// checks as the local session's; a rewrite naming the registered UDF
	// is refused by the server's analyzed plan.
	java := parseUDF(t, "examples/java-to-fahrenheit/ToFahrenheit.java", "ToFahrenheit")
	checkCelsiusOn(t, s, java, "udfx_orig_")
	rec := generate(t, java, 20)
	res, err := s.Run(ctx, Job{UDF: java, Input: rec})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if res.Original.Err != nil || !strings.Contains(res.Original.Call, "registerJavaFunction") {
		t.Fatalf("the Java original over Connect: call %q, err %v", res.Original.Call, res.Original.Err)
	}
	name := regexp.MustCompile(`udfx_orig_[a-z0-9_]+`).FindString(res.Original.Plan)
	if name == "" {
		t.Fatalf("no registered name in the original's plan:\n%s", res.Original.Plan)
	}
	res, err = s.Run(ctx, Job{Rewrite: name + "(`celsius`)", Input: rec})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if e := res.Rewrite.Err; e == nil || !strings.Contains(e.Message, name+"() is refused") {
		t.Errorf("a rewrite calling the registered Java UDF %s over Connect: %+v", name, e)
	}
	// A Scala UDF needs the TypeTags of its Scala registration, through
	// the driver's JVM: refused with the reason, not run differently.
	scala := parseUDF(t, "examples/scala-to-fahrenheit/ToFahrenheit.scala", "ToFahrenheit")
	_, err = s.Run(ctx, Job{UDF: scala, Rewrite: translatorSQL, Input: generate(t, scala, 20)})
	var nc *runner.NotCallableError
	if !errors.As(err, &nc) || !strings.Contains(nc.Reason, "TypeTags") {
		t.Errorf("a Scala UDF over Connect: %v", err)
	}
	if s.Restarts() != 0 {
		t.Errorf("a Python or Java job restarted the session %d times", s.Restarts())
	}
}

// Nothing listening at the Connect URL is a StartError{Cause: connect}
// within seconds (pyspark's own client would retry for minutes, and the
// start would time out as if the JVM were stuck).
func TestConnectNoServer(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	url := fmt.Sprintf("sc://localhost:%d", port)
	t0 := time.Now()
	_, err = Start(context.Background(), Config{Remote: url, Dir: repoRoot(t), Workspace: t.TempDir(), CacheDir: testCache, StartTimeout: time.Minute})
	var se *StartError
	if !errors.As(err, &se) || se.Cause != CauseConnect || !strings.Contains(se.Summary, fmt.Sprint(port)) || !strings.Contains(se.Hint, url) {
		t.Fatalf("err %v", err)
	}
	t.Logf("%v", err)
	if d := time.Since(t0); d > 30*time.Second {
		t.Errorf("took %s", d)
	}
}
