package typeinfer

import (
	"os"
	"testing"

	"github.com/udfx/udfx/harness/testsetup"
)

// TestMain prepares the Python environment TestPythonFactsAgainstCPython
// checks its facts in: on a fresh clone this package may run before any
// other that would have made it.
func TestMain(m *testing.M) { os.Exit(testsetup.Main(m)) }
