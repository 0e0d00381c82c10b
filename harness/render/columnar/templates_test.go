package columnar

import (
	"flag"
	"testing"

	"github.com/udfx/udfx/internal/tmplsrc/tmpltest"
)

var update = flag.Bool("update", false, "rewrite templates.go from templates/columnar")

// The renderer executes templates/columnar, carried in templates.go.
func TestTemplatesMatchTheFolder(t *testing.T) {
	tmpltest.Check(t, *update, "../../../templates/columnar", "templates.go", "columnar", "templateFiles", templateFiles)
}
