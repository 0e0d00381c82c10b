package difftest

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/inputs"
	"github.com/udfx/udfx/harness/internal/vectorize"
	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/runner/python"
	"github.com/udfx/udfx/harness/testsetup"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/udf/frontends"
)

// pythonUDF writes src, a module defining one Python UDF, to a temporary
// file and returns the UDF as udfx finds it, with its parameters' types.
func pythonUDF(t *testing.T, src string, types ...*udf.Type) *udf.UDF {
	t.Helper()
	file := filepath.Join(t.TempDir(), "jobs.py")
	require.NoError(t, os.WriteFile(file, []byte(src), 0o644))
	fe := frontends.New(udf.Python)
	defer fe.Close()
	us, err := fe.Parse(file, []byte(src))
	require.NoError(t, err)
	require.Len(t, us, 1)
	u := &us[0]
	u.File = file
	require.Len(t, u.Params, len(types))
	for i, tp := range types {
		u.Params[i].Type = tp
	}
	return u
}

// vectorsUDF is examples/python-vectors' UDF as udfx finds it.
func vectorsUDF(t *testing.T, root, name string) *udf.UDF {
	t.Helper()
	file := filepath.Join(root, "examples", "python-vectors", "vectors.py")
	src, err := os.ReadFile(file)
	require.NoError(t, err)
	fe := frontends.New(udf.Python)
	defer fe.Close()
	us, err := fe.Parse(file, src)
	require.NoError(t, err)
	for i := range us {
		if us[i].Name == name {
			u := us[i]
			u.Params[0].Type = udf.ArrayOf(udf.Prim(udf.Float))
			return &u
		}
	}
	t.Fatalf("no %s in %s", name, file)
	return nil
}

func testOptions() Options {
	return Options{Seed: 1, Rows: 200, ANSI: true, Limits: runner.DefaultLimits, NewRunner: python.NewPerRow}
}

// TestRunPythonProvesTheNumbaRewrite: the rendered numba rewrite of the
// moving average equals the original, both in real CPython, on the
// generated arrays (nulls, empty, shorter than the window) and the long
// ones with NaN, ±Inf and -0.0 in them.
func TestRunPythonProvesTheNumbaRewrite(t *testing.T) {
	root, err := testsetup.RepoRoot()
	require.NoError(t, err)
	u := vectorsUDF(t, root, "moving_average")
	src, err := vectorize.Render(context.Background(), filepath.Join(root, ".venv", "bin", "python"), vectorize.Request{
		File: u.File, RelFile: "examples/python-vectors/vectors.py", Name: u.Name, Kind: string(u.Kind),
		Flavor: string(u.PandasFlavor), ReturnType: "array<float>", ParamTypes: []string{"array<float>"}, Marker: "# test",
	})
	require.NoError(t, err)
	// The rewrite lives outside the repository: the runner finds the
	// repository's interpreter through UDFX_PYTHON.
	t.Setenv("UDFX_PYTHON", filepath.Join(root, ".venv", "bin", "python"))
	rw := *u
	rw.File = filepath.Join(t.TempDir(), "vectorized.py")
	require.NoError(t, os.WriteFile(rw.File, src, 0o644))

	rep, err := RunPython(context.Background(), u, &rw, testOptions())
	require.NoError(t, err)
	assert.True(t, rep.Equal, "counterexample: %+v", rep.Counterexample)
	assert.Equal(t, 200+inputs.LongArrayKinds*len(inputs.LongArrayLengths), rep.Rows)
	assert.Equal(t, "cpython", rep.Engine)
	// Arrays shorter than 127 raise ValueError in both, nulls TypeError;
	// the long arrays from 127 elements on (all but the 126 ones) give
	// values, compared bit for bit.
	assert.Greater(t, rep.OriginalExceptions["ValueError"], 0)
	assert.Greater(t, rep.OriginalExceptions["TypeError"], 0)
	assert.Equal(t, rep.OriginalExceptions, rep.RewriteExceptions)
	assert.GreaterOrEqual(t, rep.Rows-rep.ErrorRowsMatched, 3*(len(inputs.LongArrayLengths)-1))
}

// TestRunPythonCallsTheRewriteInBatches: a vectorized rewrite that
// tells the per-row test from production (here by the batch's length)
// agrees on every row alone; run again in batches of many sizes, as Spark
// calls a pandas_udf, it is refuted, and the counterexample says in which
// batch.
func TestRunPythonCallsTheRewriteInBatches(t *testing.T) {
	root, err := testsetup.RepoRoot()
	require.NoError(t, err)
	t.Setenv("UDFX_PYTHON", filepath.Join(root, ".venv", "bin", "python"))
	const head = "import pandas as pd\nfrom pyspark.sql.functions import pandas_udf\n\n\n@pandas_udf(\"double\")\ndef plus_one(v: pd.Series) -> pd.Series:\n"
	u := pythonUDF(t, head+"    return v + 1.0\n", udf.Prim(udf.Double))

	for _, c := range []struct{ name, body string }{
		{"the batch's length", "    return v + (1.0 if len(v) == 1 else 2.0)\n"},
		{"a row's place in its batch", "    return v + 1.0 + pd.Series(range(len(v)), index=v.index).clip(upper=1)\n"},
		// 200 rows never fill a batch of production's size: the rows are
		// sent again, over and over, as one full batch.
		{"a batch larger than the test's rows", "    return v + (1.0 if len(v) <= 1000 else 2.0)\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rw := *u
			rw.File = filepath.Join(t.TempDir(), "rewrite.py")
			require.NoError(t, os.WriteFile(rw.File, []byte(head+c.body), 0o644))

			perRow, err := RunPython(context.Background(), u, &rw, testOptions())
			require.NoError(t, err)
			assert.True(t, perRow.Equal, "one row per batch cannot tell: %+v", perRow.Counterexample)

			opts := testOptions()
			opts.NewBatchRunner = python.NewBatched
			rep, err := RunPython(context.Background(), u, &rw, opts)
			require.NoError(t, err)
			assert.False(t, rep.Equal)
			require.NotNil(t, rep.Counterexample)
			assert.Greater(t, rep.Counterexample.Batch, 1)
		})
	}

	// The original itself, run in batches, agrees with itself per row.
	opts := testOptions()
	opts.NewBatchRunner = python.NewBatched
	rep, err := RunPython(context.Background(), u, u, opts)
	require.NoError(t, err)
	assert.True(t, rep.Equal, "%+v", rep.Counterexample)
}

// TestRunPythonRefutesTheReferenceNumba: the published numba version
// keeps the sum in a float64, where CPython with numpy 2 sums in float32
// after the first element; the test finds the difference.
func TestRunPythonRefutesTheReferenceNumba(t *testing.T) {
	root, err := testsetup.RepoRoot()
	require.NoError(t, err)
	u := vectorsUDF(t, root, "moving_average")
	rw := *u
	rw.File = filepath.Join(root, "bench", "vectors", "reference_numba.py")
	rep, err := RunPython(context.Background(), u, &rw, testOptions())
	require.NoError(t, err)
	assert.False(t, rep.Equal)
	assert.Greater(t, rep.Mismatches, 0)
	require.NotNil(t, rep.Counterexample)
	assert.GreaterOrEqual(t, len(rep.Counterexample.Inputs[0].Value.Elems), 126)
}
