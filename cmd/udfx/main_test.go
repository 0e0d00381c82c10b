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

// testCacheDir is the commands' CacheDir in these tests: the user's own
// cache folder keeps no proofs of the tests' repositories.
var testCacheDir string

// TestMain prepares the Python environment with pyspark that the tests
// run originals and Spark with, the first time on a fresh machine, and
// stops the pooled Spark sessions at the end.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "udfx-cmd-test-cache-")
	if err != nil {
		os.Stderr.WriteString("test cache folder: " + err.Error() + "\n")
		os.Exit(1)
	}
	testCacheDir = dir
	code := testsetup.Main(m)
	os.RemoveAll(dir)
	if err := sparkPool.Close(); err != nil && code == 0 {
		os.Stderr.WriteString("stopping the pooled Spark sessions: " + err.Error() + "\n")
		code = 1
	}
	os.Exit(code)
}
