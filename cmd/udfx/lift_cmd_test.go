package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
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
	dir := repoWithFile(t, "src/jobs/Temps.scala", tempsJob)
	rewrite, report, verify := rewriteApplyVerify(t, dir, "src/jobs/Temps.scala:toFahrenheit", "toFahrenheit")
	assert.Contains(t, rewrite, "result         verified: (((`c` * 9.0D) / 5.0D) + 32.0D)")
	assert.Contains(t, report, "defined inside Temps.main, held by an object of its own")
	// The SQL rewrite and the CUDA files the same record holds.
	assert.Contains(t, verify, "7 rewrites checked (1 records): 7 pass")
	assert.Contains(t, verify, "differential test re-run: 20060 of 20060 rows agree")
}
