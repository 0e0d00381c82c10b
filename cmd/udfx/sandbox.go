package main

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/spf13/pflag"

	"github.com/udfx/udfx/harness/spark"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/internal/sandbox"
)

// addSandboxFlag defines --sandbox on a command that runs an original.
func addSandboxFlag(f *pflag.FlagSet, mode *string) {
	f.StringVar(mode, "sandbox", string(sandbox.Auto), "contain the original with bubblewrap (read-only file system, no network): auto (where bubblewrap works, else run uncontained and say so), on (or fail), off (trust the repository)")
}

// sandboxMode resolves --sandbox for one run whose originals run in
// udfx's runners and, with onSpark, in Spark: an unknown value or on with
// --engine spark is bad usage; on where bubblewrap cannot contain the
// original is a missing prerequisite (exit 3); auto says once, on
// stderr, what runs uncontained.
func (e *env) sandboxMode(flag string, onSpark bool) (sandbox.Mode, error) {
	mode, err := sandbox.ParseMode(flag)
	if err != nil {
		return "", usageError(err)
	}
	if mode == sandbox.Off {
		return mode, nil
	}
	if onSpark {
		if mode == sandbox.On {
			return "", usageErrorf("--sandbox on: --engine spark runs the original in Spark's own workers, which udfx cannot contain; use --engine embedded, or --sandbox auto or off")
		}
		e.sparkUncontained()
	}
	d, err := sandbox.Decide(mode)
	var ue *sandbox.UnavailableError
	switch {
	case errors.As(err, &ue):
		return "", internalError(fmt.Errorf("--sandbox on, and %w", err))
	case err != nil:
		return "", internalError(err)
	case !d.Contained():
		fmt.Fprintf(e.Stderr, "udfx: no sandbox (%s): the original runs with your permissions; install bubblewrap or pass --sandbox off to silence this\n", d.Reason())
	}
	return mode, nil
}

// sparkUncontained says that Spark runs the original uncontained.
func (e *env) sparkUncontained() {
	fmt.Fprintln(e.Stderr, "udfx: no sandbox for --engine spark: Spark's workers run the original with your permissions; pass --sandbox off to silence this")
}

// sparkStarter is verify's StartSpark under --sandbox: records proved on
// Spark re-run there, uncontained, which on refuses and auto says once.
func (e *env) sparkStarter(mode sandbox.Mode, start func(context.Context, *udf.UDF, string, string) (*spark.Session, error)) func(context.Context, *udf.UDF, string, string) (*spark.Session, error) {
	var once sync.Once
	return func(ctx context.Context, u *udf.UDF, engine, version string) (*spark.Session, error) {
		switch mode {
		case sandbox.On:
			return nil, fmt.Errorf("--sandbox on: the record was proved on Spark, and Spark's own workers run the original, which udfx cannot contain; verify it with --sandbox auto or off, or prove it again with --engine embedded")
		case sandbox.Auto:
			once.Do(func() {
				fmt.Fprintln(e.Stderr, "udfx: no sandbox for the records proved on Spark: Spark's workers run their originals with your permissions; pass --sandbox off to silence this")
			})
		}
		return start(ctx, u, engine, version)
	}
}
