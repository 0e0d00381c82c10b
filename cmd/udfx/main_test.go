package main

import (
	"os"
	"testing"

	"github.com/udfx/udfx/harness/spark"
	"github.com/udfx/udfx/harness/testsetup"
)

// sparkPool keeps the Spark sessions of the tests' --engine spark commands
// running from one command to the next: a SparkSession's start is most of
// such a command's time, and the tests need one per configuration, not
// one per command: two, one without jars for the Python UDFs and one with
// the Scala example's jar.
var sparkPool = &spark.Pool{}

// TestMain prepares the Python environment with pyspark that the tests
// run originals and Spark with, the first time on a fresh machine, and
// stops the pooled Spark sessions at the end.
func TestMain(m *testing.M) {
	code := testsetup.Main(m)
	if err := sparkPool.Close(); err != nil && code == 0 {
		os.Stderr.WriteString("stopping the pooled Spark sessions: " + err.Error() + "\n")
		code = 1
	}
	os.Exit(code)
}
