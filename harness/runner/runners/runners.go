// Package runners picks the runner for a UDF's language.
package runners

import (
	"context"
	"fmt"
	"os"

	"github.com/udfx/udfx/harness/pyenv"
	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/runner/jvm"
	"github.com/udfx/udfx/harness/runner/python"
	"github.com/udfx/udfx/harness/udf"
)

// New starts the runner that calls u the way Spark does.
func New(ctx context.Context, u *udf.UDF, limits runner.Limits) (runner.Runner, error) {
	return start(ctx, u, limits, "", nil)
}

// WithPython is New with interpreter as the Python: the Python runner
// runs the original in it, and the JVM runner takes Spark's jars from its
// pyspark. The gate passes the interpreter it chose so that no .venv in
// the repository under test picks it. "" is New.
func WithPython(interpreter string) func(ctx context.Context, u *udf.UDF, limits runner.Limits) (runner.Runner, error) {
	if interpreter == "" {
		return New
	}
	env := pyenv.WithPython(os.Getenv, interpreter)
	return func(ctx context.Context, u *udf.UDF, limits runner.Limits) (runner.Runner, error) {
		return start(ctx, u, limits, interpreter, env)
	}
}

// start starts u's runner; interpreter and env are the Python runner's
// Python and the environment both runners read ("" and nil: their own
// lookup).
func start(ctx context.Context, u *udf.UDF, limits runner.Limits, interpreter string, env func(string) string) (runner.Runner, error) {
	switch u.Language {
	case udf.Scala, udf.Java:
		return jvm.New(ctx, u, jvm.Options{Limits: limits, Env: env})
	case udf.Python:
		return python.New(ctx, u, python.Options{Limits: limits, Python: interpreter, Env: env})
	}
	return nil, fmt.Errorf("no runner for %s UDFs", u.Language)
}
