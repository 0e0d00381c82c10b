package cuda

import (
	"flag"
	"testing"

	"github.com/udfx/udfx/internal/tmplsrc/tmpltest"
)

var update = flag.Bool("update", false, "rewrite templates.go from templates/cuda")

// The renderer executes templates/cuda, carried in templates.go.
func TestTemplatesMatchTheFolder(t *testing.T) {
	tmpltest.Check(t, *update, "../../../templates/cuda", "templates.go", "cuda", "templateFiles", templateFiles)
}
