package python

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/internal/jobfree"
	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/value"
)

// sparkReport is what testdata/spark_conversions.py writes after running
// testdata/conversions.py's UDFs in real Spark.
type sparkReport struct {
	Spark                 string `json:"spark"`
	ArrowPythonUDFDefault string `json:"arrow_python_udf_default"`
	Returns               map[string][]struct {
		Token string `json:"token"`
		Error string `json:"error"`
	} `json:"returns"`
	Probes map[string]struct {
		Tokens []string `json:"tokens"`
		Seen   []any    `json:"seen"`
	} `json:"probes"`
}

// runRealSpark runs testdata/spark_conversions.py with the venv's pyspark
// (local mode; about a minute or two, most of it starting the JVM).
func runRealSpark(t *testing.T) sparkReport {
	t.Helper()
	py := venvPython(t)
	td, err := filepath.Abs("testdata")
	require.NoError(t, err)
	work := t.TempDir()
	// The driver imports udfx_jobfree, which the runner writes beside it;
	// loaded by importlib here, its folder goes on PYTHONPATH.
	src, err := os.ReadFile("driver.py")
	require.NoError(t, err)
	drv := filepath.Join(work, "driver.py")
	require.NoError(t, os.WriteFile(drv, src, 0o644))
	require.NoError(t, jobfree.Write(work))
	out := filepath.Join(work, "out.json")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, py, filepath.Join(td, "spark_conversions.py"), drv, out, work)
	cmd.Env = append(os.Environ(), "TZ=UTC", "PYTHONPATH="+td+string(os.PathListSeparator)+work, "PYSPARK_PYTHON="+py, "PYTHONHASHSEED=0", "PYTHONDONTWRITEBYTECODE=1")
	logs, err := cmd.CombinedOutput()
	require.NoError(t, err, "real Spark run failed:\n%s", lastLines(string(logs), 40))
	data, err := os.ReadFile(out)
	require.NoError(t, err)
	var rep sparkReport
	require.NoError(t, json.Unmarshal(data, &rep))
	return rep
}

var conditionRE = regexp.MustCompile(`\[([A-Z_.]+)\]`)

// sameFailure reports whether Spark's failure text names the exception
// the runner gave the row: its class (last dotted segment) or its error
// condition.
func sameFailure(sparkErr string, v value.Value) bool {
	cls := v.Class[strings.LastIndex(v.Class, ".")+1:]
	if strings.Contains(sparkErr, cls+":") || strings.Contains(sparkErr, cls+" ") {
		return true
	}
	if m := conditionRE.FindStringSubmatch(v.Message); m != nil {
		return strings.Contains(sparkErr, "["+m[1]+"]")
	}
	return false
}

// TestReturnConversionsMatchRealSpark checks the driver's emulation of
// PySpark's pickled-UDF return conversion (EvaluatePython.makeFromJava),
// and what a UDF receives for each input type, against Spark 4.1.1 itself.
func TestReturnConversionsMatchRealSpark(t *testing.T) {
	rep := runRealSpark(t)
	require.Equal(t, "4.1.1", rep.Spark)
	// Arrow-optimized Python UDFs are off by default, so a plain @udf is
	// pickled (SQL_BATCHED_UDF), which is what the runner emulates.
	require.Equal(t, "false", rep.ArrowPythonUDFDefault)
	require.NotEmpty(t, rep.Returns)

	file := "testdata/conversions.py"
	for ddl, want := range rep.Returns {
		t.Run("return "+ddl, func(t *testing.T) {
			rt, err := udf.ParseType(ddl)
			require.NoError(t, err)
			name := "ret_" + regexp.MustCompile(`[^A-Za-z0-9]`).ReplaceAllString(ddl, "_")
			u := &udf.UDF{Name: name, Language: udf.Python, Kind: udf.KindPythonUDF, File: file,
				Params: []udf.Param{{Name: "i", Type: udf.Prim(udf.Long)}}, Return: rt}
			r := newRunner(t, u, runner.DefaultLimits)
			rows := make([][]value.Value, len(want))
			for i := range rows {
				rows[i] = []value.Value{value.IntOf(int64(i))}
			}
			got, err := r.Run(context.Background(), rows)
			var nr *NotReproducibleError
			if err != nil && !errors.As(err, &nr) {
				require.NoError(t, err)
			}
			require.Len(t, got, len(want))
			for i, w := range want {
				g := got[i]
				switch {
				case g.Kind == value.Error && g.Class == NotReproducibleClass:
					// Spark's answer depends on hash order or identity hashes.
					t.Logf("row %d: not reproducible (Spark said %.80q)", i, w.Token+w.Error)
				case w.Error != "":
					if assert.Equal(t, value.Error, g.Kind, "row %d: Spark failed, runner gave %s", i, g) {
						assert.True(t, sameFailure(w.Error, g), "row %d: runner %s:%s, Spark:\n%s", i, g.Class, g.Message, firstLines(w.Error, 3))
					}
				default:
					assert.Equal(t, w.Token, value.Token(g), "row %d", i)
				}
			}
		})
	}

	for ddl, p := range rep.Probes {
		t.Run("input "+ddl, func(t *testing.T) {
			pt, err := udf.ParseType(ddl)
			if ddl == "decimal" {
				pt, err = udf.DecimalOf(10, 3), nil
			}
			require.NoError(t, err)
			u := &udf.UDF{Name: "probe", Language: udf.Python, Kind: udf.KindPythonUDF, File: file,
				Params: []udf.Param{{Name: "x", Type: pt}}, Return: udf.Prim(udf.String)}
			r := newRunner(t, u, runner.DefaultLimits)
			rows := make([][]value.Value, len(p.Tokens))
			for i, tok := range p.Tokens {
				v, err := value.ParseToken(tok)
				require.NoError(t, err)
				rows[i] = []value.Value{v}
			}
			got, err := r.Run(context.Background(), rows)
			require.NoError(t, err)
			for i, seen := range p.Seen {
				if s, ok := seen.(string); ok {
					assert.Equal(t, s, got[i].GoString(), "row %d (%s)", i, p.Tokens[i])
					continue
				}
				msg, _ := json.Marshal(seen)
				if assert.Equal(t, value.Error, got[i].Kind, "row %d: Spark failed: %s", i, msg) {
					assert.True(t, sameFailure(string(msg), got[i]), "row %d: runner %s, Spark %s", i, got[i], msg)
				}
			}
		})
	}
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}
