// Package runners picks the runner for a UDF's language.
package runners

import (
	"context"
	"fmt"

	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/runner/jvm"
	"github.com/udfx/udfx/harness/runner/python"
	"github.com/udfx/udfx/harness/udf"
)

// New starts the runner that calls u the way Spark does.
func New(ctx context.Context, u *udf.UDF, limits runner.Limits) (runner.Runner, error) {
	switch u.Language {
	case udf.Scala, udf.Java:
		return jvm.New(ctx, u, jvm.Options{Limits: limits})
	case udf.Python:
		return python.New(ctx, u, python.Options{Limits: limits})
	}
	return nil, fmt.Errorf("no runner for %s UDFs", u.Language)
}
