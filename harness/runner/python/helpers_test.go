package python

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/udf"
	pyfront "github.com/udfx/udfx/harness/udf/python"
	"github.com/udfx/udfx/internal/notebook"
)

// parseUDF finds the UDF named name in a Python file with udfx's own
// front-end, as `udfx test` does.
func parseUDF(t testing.TB, path, name string) *udf.UDF {
	t.Helper()
	us := parseUDFs(t, path)
	for i := range us {
		if us[i].Name == name {
			return &us[i]
		}
	}
	t.Fatalf("no UDF %s in %s", name, path)
	return nil
}

func parseUDFs(t testing.TB, path string) []udf.UDF {
	t.Helper()
	src, err := notebook.ReadCode(path)
	require.NoError(t, err)
	f := pyfront.New()
	defer f.Close()
	us, err := f.Parse(path, src)
	require.NoError(t, err)
	return us
}

// venvPython is the repository's venv interpreter (CI creates it from
// harness/pyenv/requirements.txt).
func venvPython(t testing.TB) string {
	t.Helper()
	wd, err := os.Getwd()
	require.NoError(t, err)
	for d := wd; ; d = filepath.Dir(d) {
		p := filepath.Join(d, ".venv", "bin", "python")
		if _, err := os.Stat(p); err == nil {
			return p
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	t.Fatalf("no .venv above %s: the package's TestMain links udfx's environment (harness/testsetup); or create one with python3 -m venv .venv && .venv/bin/pip install -r harness/pyenv/requirements.txt", wd)
	return ""
}

func newRunner(t testing.TB, u *udf.UDF, limits runner.Limits) *Runner {
	t.Helper()
	r, err := New(context.Background(), u, Options{Limits: limits, Python: venvPython(t)})
	require.NoError(t, err)
	t.Cleanup(func() { r.Close() })
	return r
}
