package python

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/value"
)

func TestPerRowExceptions(t *testing.T) {
	r := newRunner(t, parseUDF(t, "testdata/raising.py", "inverse"), runner.DefaultLimits)
	rows := [][]value.Value{{value.DoubleOf(2)}, {value.DoubleOf(3)}, {value.DoubleOf(0)}, {value.DoubleOf(4)}}
	got, err := r.Run(context.Background(), rows)
	require.NoError(t, err)
	require.Len(t, got, 4)
	assert.Equal(t, value.DoubleOf(0.5), got[0])
	assert.Equal(t, value.ErrorOf("ValueError", "three is not allowed"), got[1])
	assert.Equal(t, value.ErrorOf("ZeroDivisionError", "float division by zero"), got[2])
	assert.Equal(t, value.DoubleOf(0.25), got[3])
}

func TestPandasPerBatchExceptions(t *testing.T) {
	u := parseUDF(t, "testdata/raising.py", "batch_inverse")
	r, err := New(context.Background(), u, Options{Python: venvPython(t), BatchSize: 2,
		ParamTypes: []*udf.Type{udf.Prim(udf.Double)}})
	require.NoError(t, err)
	defer r.Close()
	rows := [][]value.Value{{value.DoubleOf(2)}, {value.DoubleOf(4)}, {value.DoubleOf(3)}, {value.DoubleOf(1)}, {value.DoubleOf(8)}}
	got, err := r.Run(context.Background(), rows)
	require.NoError(t, err)
	want := []string{"d3fe0000000000000", "d3fd0000000000000",
		value.Token(value.ErrorOf("ValueError", "a batch holds three")), value.Token(value.ErrorOf("ValueError", "a batch holds three")),
		"d3fc0000000000000"}
	assert.Equal(t, want, tokens(got))
}

func TestCompileErrorHasFileAndLine(t *testing.T) {
	u := &udf.UDF{Name: "f", Language: udf.Python, Kind: udf.KindPythonUDF, File: "testdata/broken.py", Return: udf.Prim(udf.Double)}
	_, err := New(context.Background(), u, Options{Python: venvPython(t)})
	var ce *runner.CompileError
	require.ErrorAs(t, err, &ce)
	abs, _ := filepath.Abs("testdata/broken.py")
	assert.Equal(t, abs, ce.File)
	assert.Equal(t, 7, ce.Line)
	assert.Contains(t, ce.Msg, "SyntaxError")
}

func TestNotCallable(t *testing.T) {
	t.Run("rdd lambda", func(t *testing.T) {
		path := "../../../examples/python-wordcount/wordcount.py"
		src := parseAll(t, path)
		var rdd *udf.UDF
		for i := range src {
			if src[i].Kind == udf.KindRDDLambda {
				rdd = &src[i]
				break
			}
		}
		require.NotNil(t, rdd)
		_, err := New(context.Background(), rdd, Options{Python: venvPython(t)})
		var nc *runner.NotCallableError
		require.ErrorAs(t, err, &nc)
		assert.Contains(t, nc.Reason, "RDD")
	})
	t.Run("lambda registered inside a function", func(t *testing.T) {
		u := &udf.UDF{Name: "<lambda@22:36>", RegisteredNames: []string{"twice"}, Language: udf.Python,
			Kind: udf.KindLambda, File: "testdata/raising.py", Return: udf.Prim(udf.Double)}
		_, err := New(context.Background(), u, Options{Python: venvPython(t)})
		var nc *runner.NotCallableError
		require.ErrorAs(t, err, &nc)
	})
}

func TestMissingInterpreterIsEnvError(t *testing.T) {
	u := parseUDF(t, celsiusPath, "to_fahrenheit")
	_, err := New(context.Background(), u, Options{Python: "/nonexistent/python3"})
	var ee *runner.EnvError
	require.ErrorAs(t, err, &ee)
	assert.Equal(t, "Python", ee.What)
}

func TestInterpreterFromEnv(t *testing.T) {
	u := parseUDF(t, celsiusPath, "to_fahrenheit")
	py := venvPython(t)
	got, err := findPython(u.File, Options{Env: func(k string) string {
		if k == "UDFX_PYTHON" {
			return py
		}
		return ""
	}})
	require.NoError(t, err)
	assert.Equal(t, py, got)
	// Without UDFX_PYTHON, the venv above the example is found.
	got, err = findPython(u.File, Options{Env: func(string) string { return "" }})
	require.NoError(t, err)
	assert.Equal(t, py, got)
}

func TestMemoryLimitIsCrash(t *testing.T) {
	r := newRunner(t, parseUDF(t, "testdata/loops.py", "hog"), runner.Limits{Timeout: 30e9, MemoryMB: 200})
	got, err := r.Run(context.Background(), [][]value.Value{{value.IntOf(1)}, {value.IntOf(2048)}, {value.IntOf(1)}})
	var ce *runner.CrashError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, 1, ce.Row)
	assert.Contains(t, ce.Reason, "MemoryError")
	assert.Equal(t, []string{"i1048576"}, tokens(got))
}

func parseAll(t *testing.T, path string) []udf.UDF {
	t.Helper()
	u := parseUDFs(t, path)
	return u
}

// TestMemoryLimitCoversImport: a module that allocates 1.5 GiB when it is
// imported does not pass --memory 256: the limit applies before the
// user's module loads.
func TestMemoryLimitCoversImport(t *testing.T) {
	u := parseUDF(t, "testdata/import_hog.py", "size")
	r, err := New(context.Background(), u, Options{Limits: runner.Limits{Timeout: 30e9, MemoryMB: 256}, Python: venvPython(t)})
	if err == nil {
		defer r.Close()
		_, err = r.Run(context.Background(), [][]value.Value{{value.IntOf(1)}})
	}
	var ce *runner.CompileError
	require.ErrorAs(t, err, &ce)
	assert.Contains(t, ce.File, "import_hog.py")
	assert.Equal(t, 6, ce.Line)
	assert.Contains(t, ce.Msg, "MemoryError: importing the module went over the memory limit (--memory 256 MiB)")
}
