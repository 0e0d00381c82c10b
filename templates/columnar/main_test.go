package columnar_test

import (
	"os"
	"testing"

	"github.com/udfx/udfx/harness/testsetup"
)

// TestMain prepares the Python environment with pyspark that the tests
// run originals and Spark with, the first time on a fresh machine.
func TestMain(m *testing.M) { os.Exit(testsetup.Main(m)) }
