package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/spark"
)

// masterApps are the applications a standalone Master lists on its web
// UI's /json/ page, running and finished.
func (c *standalone) masterApps(t *testing.T) []string {
	t.Helper()
	resp, err := http.Get(c.WebUI + "/json/")
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	var doc struct {
		Active    []struct{ ID, Name string } `json:"activeapps"`
		Completed []struct{ ID, Name string } `json:"completedapps"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&doc))
	var ids []string
	for _, a := range append(doc.Active, doc.Completed...) {
		ids = append(ids, a.ID)
	}
	return ids
}

// A folder run on a standalone cluster: three UDFs (two Python, one
// Scala), two proved at once, each one's differential test and benchmark
// run as applications of the cluster's Master on its Workers' executors.
func TestRewriteOverFoldersOnAStandaloneCluster(t *testing.T) {
	t.Parallel()
	cluster := startStandalone(t)
	dir := tempRepo(t)
	writeFile(t, filepath.Join(dir, "jobs", "scores.py"), `from pyspark.sql import functions as F
from pyspark.sql.functions import udf
from pyspark.sql.types import LongType


@udf(returnType=LongType())
def bonus_points(score: int) -> int:
    if score is None:
        return None
    if score > 90:
        return score * 2
    return score + 5


def with_bonus(df):
    return df.withColumn("bonus", bonus_points(F.col("score")))
`)
	git(t, dir, "add", "jobs")
	git(t, dir, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "jobs")

	// Sessions on this cluster stop before it does: a pool of their own,
	// closed first (cleanups run last-in first-out).
	pool := &spark.Pool{}
	t.Cleanup(func() { pool.Close() })
	var stdout, stderr bytes.Buffer
	start := time.Now()
	code := run([]string{"rewrite", "examples/python-celsius", "examples/scala-to-fahrenheit", "jobs",
		"--engine", "spark", "--spark-master", cluster.URL, "--jobs", "2", "--target", "sql", "--no-cache", "--format", "json"},
		&env{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, WorkDir: dir, Spark: pool, CacheDir: t.TempDir()})
	wall := time.Since(start)
	require.Equal(t, exitOK, code, "stdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
	var doc struct {
		Counts map[string]int `json:"counts"`
		UDFs   []struct {
			UDF, File, Status, Target, Reason string
			Seconds                           float64
		} `json:"udfs"`
	}
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &doc), stdout.String())
	require.Len(t, doc.UDFs, 3, stdout.String())
	sum := 0.0
	for _, u := range doc.UDFs {
		assert.Equal(t, "verified", u.Status, "%s: %s", u.UDF, u.Reason)
		assert.Equal(t, "sql", u.Target, u.UDF)
		sum += u.Seconds
		rec, err := evidence.Read(filepath.Join(dir, ".udfx", u.UDF, evidence.FileName))
		require.NoError(t, err, u.UDF)
		assert.Equal(t, evidence.Verified, rec.Result, u.UDF)
		assert.Equal(t, "spark", rec.Engine.Name, u.UDF)
		assert.Equal(t, cluster.URL, rec.Engine.Master, u.UDF)
		require.NotEmpty(t, rec.Benchmarks, u.UDF)
	}
	t.Logf("3 UDFs on the cluster in %s; their times add up to %.1fs", wall.Round(time.Second), sum)
	// Two at a time: the run took less than its UDFs one after another.
	assert.Less(t, wall.Seconds(), sum, "UDFs proved at once")

	// The jobs ran on the cluster: the Master lists the applications
	// (a session per UDF's configuration, Python's shared when idle), and
	// both Workers ran executors of them.
	apps := cluster.masterApps(t)
	assert.GreaterOrEqual(t, len(apps), 2, "applications on the Master: %v", apps)
	assert.Equal(t, 2, cluster.executorsRan(t), "both workers ran executors")
	require.NoError(t, pool.Close())
}
