// Package jobfree carries jobfree.py, the Python module both udfx drivers
// (harness/runner/python and harness/spark) load an original's module
// through: the module's imports, definitions and constants without the
// Spark job a script or notebook runs at its top level, and a refusal
// when the UDF reads what the job sets or changes.
package jobfree

import (
	_ "embed"
	"os"
	"path/filepath"
)

// FileName is the module's file name; a driver imports udfx_jobfree.
const FileName = "udfx_jobfree.py"

//go:embed jobfree.py
var source []byte

// Write puts the module into dir, the folder of a driver that imports it.
func Write(dir string) error {
	return os.WriteFile(filepath.Join(dir, FileName), source, 0o644)
}
