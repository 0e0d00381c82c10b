// Package frontends picks the built-in front-end for a language.
package frontends

import (
	"fmt"

	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/udf/java"
	"github.com/udfx/udfx/harness/udf/python"
	"github.com/udfx/udfx/harness/udf/scala"
)

// New returns a fresh front-end for lang. It panics for a language udfx
// has no front-end for: callers only ask for the languages scan maps file
// extensions to.
func New(lang udf.Language) udf.Frontend {
	switch lang {
	case udf.Scala:
		return scala.New()
	case udf.Java:
		return java.New()
	case udf.Python:
		return python.New()
	}
	panic(fmt.Sprintf("no front-end for language %q", lang))
}
