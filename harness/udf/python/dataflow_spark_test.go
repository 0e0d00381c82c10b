package python

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTheDataflowAgreesWithSpark runs testdata/dataflow.py in real Spark
// (the project's .venv; about half a minute) and checks every type the
// trace gives against the type Spark gives the same argument; every site
// the trace types must be one Spark ran. A site in a function Spark runs
// for several callers has all their types.
func TestTheDataflowAgreesWithSpark(t *testing.T) {
	py, err := filepath.Abs(filepath.Join("..", "..", "..", ".venv", "bin", "python"))
	require.NoError(t, err)
	_, err = os.Stat(py)
	require.NoError(t, err, "the project's .venv (see README: Install)")
	job, err := filepath.Abs("testdata/dataflow.py")
	require.NoError(t, err)
	runner, err := filepath.Abs("testdata/dataflow_spark.py")
	require.NoError(t, err)

	work := t.TempDir()
	for _, d := range []string{"readings", "orders", "ab", "v", "raw", "wide"} {
		require.NoError(t, os.MkdirAll(filepath.Join(work, "data", d), 0o755))
	}
	require.NoError(t, os.WriteFile(filepath.Join(work, "data", "raw", "part.csv"), []byte("qty,name\n3,a\n"), 0o644))
	out := filepath.Join(work, "types.json")
	cmd := exec.Command(py, runner, job, out)
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "PYSPARK_PYTHON="+py, "TZ=UTC")
	logs, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", logs)
	data, err := os.ReadFile(out)
	require.NoError(t, err)
	var spark map[string][]string
	require.NoError(t, json.Unmarshal(data, &spark))

	sites := flowSites(t)
	require.Len(t, spark, len(sites), "Spark ran every probe line: %v", spark)
	for line, flow := range sites {
		real := spark[strconv.Itoa(line)]
		require.NotEmpty(t, real, "line %d", line)
		for i, typ := range flow {
			if typ == "" {
				continue
			}
			if len(flow) == len(real) {
				assert.Equal(t, real[i], typ, "line %d, call %d", line, i+1)
				continue
			}
			require.Len(t, flow, 1, "line %d: %d calls, Spark ran %d", line, len(flow), len(real))
			for _, r := range real {
				assert.Equal(t, r, typ, "line %d: a caller gives %s", line, r)
			}
		}
	}
	// What the trace declines, Spark still types: the cases are real.
	assert.Equal(t, []string{"int", "bigint"}, spark["69"])
	assert.Equal(t, []string{"string"}, spark["78"])
	assert.Equal(t, []string{"int"}, spark["81"])
	assert.Equal(t, []string{"int"}, spark["91"])
	assert.Equal(t, []string{"string"}, spark["99"])
}
