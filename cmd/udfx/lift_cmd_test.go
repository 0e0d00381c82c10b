package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tempsJob defines its UDF inside main, as Spark jobs write them.
const tempsJob = `package jobs

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.functions.{col, udf}

object Temps {
  def main(args: Array[String]): Unit = {
    val spark = SparkSession.builder.appName("temps").getOrCreate()
    val toFahrenheit = udf((c: Double) => c * 9.0 / 5.0 + 32.0)
    spark.read.parquet(args(0)).withColumn("f", toFahrenheit(col("c"))).write.parquet(args(1))
  }
}
`

// The second bar case: a plain udfx rewrite FILE:NAME verifies a
// Scala UDF defined inside main (it stopped at "a UDF defined inside a
// method exists only while the job runs"), and udfx verify passes it.
func TestRewriteAScalaUDFDefinedInsideMain(t *testing.T) {
	dir := tempRepo(t)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "src", "jobs"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "src", "jobs", "Temps.scala"), []byte(tempsJob), 0o644))
	git(t, dir, "add", ".")
	git(t, dir, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "job")

	stdout, stderr, code := runCLI(t, dir, "rewrite", "src/jobs/Temps.scala:toFahrenheit", "--apply")
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	assert.Contains(t, stdout, "result         verified: (((`c` * 9.0D) / 5.0D) + 32.0D)")
	report, err := os.ReadFile(filepath.Join(dir, ".udfx", "toFahrenheit", "report.md"))
	require.NoError(t, err)
	assert.Contains(t, string(report), "defined inside Temps.main, held by an object of its own")

	stdout, stderr, code = runCLI(t, dir, "verify")
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	// The SQL rewrite and the CUDA files the same record holds.
	assert.Contains(t, stdout, "7 rewrites checked (1 records): 7 pass")
	assert.Contains(t, stdout, "differential test re-run: 20060 of 20060 rows agree")
}
