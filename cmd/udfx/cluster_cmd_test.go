package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/spark"
)

// standalone is a real Spark standalone cluster on 127.0.0.1: a Master and
// two Workers of two cores each, started from pyspark's own
// bin/spark-class, each JVM in a process group of its own so that stop
// leaves nothing. An application gets two cores (spark.deploy.defaultCores),
// spread out: one executor on each Worker, and room for a second
// application while the first waits in a pool.
type standalone struct {
	URL string
	// WebUI is the Master's web UI (http://127.0.0.1:PORT): /json/ lists
	// the applications it ran.
	WebUI   string
	procs   []*exec.Cmd
	logs    []string
	workDir []string
}

// freePort is a TCP port nothing listens on now.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startStandalone starts the cluster and stops it when the test ends.
func startStandalone(t *testing.T) *standalone {
	t.Helper()
	in, err := spark.Find(context.Background(), os.Getenv, repoRoot(t), false)
	require.NoError(t, err)
	require.NotEmpty(t, in.Jars, "a pyspark with Spark's jars")
	home := filepath.Dir(in.Jars) // pyspark's package: bin/, jars/
	class := filepath.Join(home, "bin", "spark-class")
	require.FileExists(t, class)
	dir := t.TempDir()
	env := append(os.Environ(), "SPARK_HOME="+home, "SPARK_LOCAL_IP=127.0.0.1", "SPARK_LOG_DIR="+dir,
		"PYSPARK_PYTHON="+in.Python, "TZ=UTC")
	if in.JavaHome != "" {
		env = append(env, "JAVA_HOME="+in.JavaHome)
	}
	c := &standalone{}
	t.Cleanup(c.stop)
	start := func(name string, extraEnv []string, args ...string) string {
		log := filepath.Join(dir, name+".log")
		f, err := os.Create(log)
		require.NoError(t, err)
		defer f.Close()
		cmd := exec.Command(class, args...)
		cmd.Env, cmd.Stdout, cmd.Stderr, cmd.Dir = append(env[:len(env):len(env)], extraEnv...), f, f, dir
		runner.SetProcessGroup(cmd)
		require.NoError(t, cmd.Start())
		c.procs = append(c.procs, cmd)
		c.logs = append(c.logs, log)
		return log
	}
	port := freePort(t)
	c.URL = fmt.Sprintf("spark://127.0.0.1:%d", port)
	webui := freePort(t)
	c.WebUI = fmt.Sprintf("http://127.0.0.1:%d", webui)
	master := start("master", []string{"SPARK_MASTER_OPTS=-Dspark.deploy.defaultCores=2"}, "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1",
		"--port", fmt.Sprint(port), "--webui-port", fmt.Sprint(webui))
	waitForLine(t, master, "I have been elected leader")
	var workers []string
	for i := range 2 {
		work := filepath.Join(dir, fmt.Sprintf("worker-%d", i))
		c.workDir = append(c.workDir, work)
		workers = append(workers, start(fmt.Sprintf("worker-%d", i), nil, "org.apache.spark.deploy.worker.Worker",
			"--host", "127.0.0.1", "--cores", "2", "--memory", "2g", "--work-dir", work,
			"--webui-port", fmt.Sprint(freePort(t)), c.URL))
	}
	for _, w := range workers {
		waitForLine(t, w, "Successfully registered with master")
	}
	return c
}

// waitForLine waits until the log holds want, failing with the log when
// its process ends or two minutes pass first.
func waitForLine(t *testing.T, log, want string) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		b, _ := os.ReadFile(log)
		if bytes.Contains(b, []byte(want)) {
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
	b, _ := os.ReadFile(log)
	t.Fatalf("no %q in %s within 2 minutes:\n%s", want, log, b)
}

// stop ends every process group of the cluster and waits for them.
func (c *standalone) stop() {
	for i := len(c.procs) - 1; i >= 0; i-- {
		runner.KillProcessGroup(c.procs[i])
		c.procs[i].Wait()
	}
}

// executorsRan counts the workers that ran an executor of an application
// (an app-*/<id> folder with the executor's log under their work folder).
func (c *standalone) executorsRan(t *testing.T) int {
	t.Helper()
	n := 0
	for _, w := range c.workDir {
		logs, err := filepath.Glob(filepath.Join(w, "app-*", "*", "stderr"))
		require.NoError(t, err)
		if len(logs) > 0 {
			n++
		}
	}
	return n
}

// The differential test and the benchmark through a real standalone
// cluster: the original and the rewrite run on executors in the Workers'
// JVMs, not in the driver, and a Scala UDF's jar reaches them through
// spark.jars.
//
// It sets no environment and has a session pool of its own, so it runs
// beside the other parallel tests: most of its time is JVMs starting.
func TestStandaloneClusterRunsThePythonAndScalaUDFs(t *testing.T) {
	t.Parallel()
	cluster := startStandalone(t)
	dir := tempRepo(t)
	// Sessions on this cluster must stop before it does: a pool of their
	// own, closed first (cleanups run last-in first-out).
	pool := &spark.Pool{}
	t.Cleanup(func() { pool.Close() })
	cli := func(args ...string) (string, string, int) {
		var stdout, stderr bytes.Buffer
		code := run(args, &env{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, WorkDir: dir, Spark: pool})
		return stdout.String(), stderr.String(), code
	}
	for _, target := range []string{"examples/python-celsius/celsius.py", "examples/scala-to-fahrenheit/ToFahrenheit.scala"} {
		stdout, stderr, code := cli("test", target, "--engine", "spark", "--spark-master", cluster.URL, "--rows", "500",
			"--sql", "CASE WHEN celsius IS NULL THEN NULL ELSE celsius * 9.0D / 5.0D + 32.0D END")
		require.Equal(t, 0, code, "%s\nstdout:\n%s\nstderr:\n%s", target, stdout, stderr)
		assert.Contains(t, stdout, "Apache Spark 4.1.1 ("+cluster.URL+"), both sides in one session", target)
		assert.Contains(t, stdout, "EQUAL: 530 of 530 rows agree", target) // and 30 near misses of the literals

		stdout, stderr, code = cli("bench", target, "--engine", "spark", "--spark-master", cluster.URL,
			"--rows", "2000", "--warmup", "0", "--runs", "1")
		require.Equal(t, 0, code, "%s\nstdout:\n%s\nstderr:\n%s", target, stdout, stderr)
		assert.Contains(t, stdout, "("+cluster.URL+")", target)
		assert.Contains(t, stdout, "speedup", target)
	}
	assert.Equal(t, 2, cluster.executorsRan(t), "both workers ran executors")
	require.NoError(t, pool.Close())
	cluster.stop()
	for i, p := range cluster.procs {
		require.NotNil(t, p.ProcessState, "process %d of the cluster was waited for", i)
	}
	// Nothing of the cluster is left: no process still has its logs open.
	out, _ := exec.Command("ps", "-eo", "args").Output()
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		assert.NotContains(t, sc.Text(), cluster.URL, "a process of the cluster outlived it")
	}
}
