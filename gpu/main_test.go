package gpu

import (
	"os"
	"testing"

	"github.com/udfx/udfx/harness/testsetup"
)

// TestMain links the repository's Python environment (pyspark), which the
// dry run checks for.
func TestMain(m *testing.M) { os.Exit(testsetup.Main(m)) }
