package jvm

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/value"
)

// hiveCase is one Hive UDF of testdata/hive, the Spark type of its
// argument, and its inputs as values and as SQL literals; ret, when set,
// is its result's type for that argument, where the class has several
// evaluate methods and scan types the UDF by the first.
type hiveCase struct {
	class, typ string
	inputs     []value.Value
	literals   []string
	ret        string
}

var hiveCases = []hiveCase{
	{"HiveGreet", "string", []value.Value{value.StringOf("  ada "), value.StringOf(""), value.StringOf("ß😀"), value.NullValue()}, []string{"'  ada '", "''", "'ß😀'", "NULL"}, ""},
	{"HiveShout", "string", []value.Value{value.StringOf("ok"), value.NullValue()}, []string{"'ok'", "NULL"}, ""},
	{"HiveTwice", "int", []value.Value{value.IntOf(21), value.IntOf(-2147483648), value.NullValue()}, []string{"21", "-2147483648", "NULL"}, ""},
	{"HiveNextId", "bigint", []value.Value{value.IntOf(41), value.IntOf(9223372036854775807), value.NullValue()}, []string{"41", "9223372036854775807", "NULL"}, ""},
	{"HiveHalf", "double", []value.Value{value.DoubleOf(3), value.DoubleOf(math.Copysign(0, -1)), value.NullValue()}, []string{"3.0D", "-0.0D", "NULL"}, ""},
	{"HiveNot", "boolean", []value.Value{value.BoolOf(true), value.NullValue()}, []string{"true", "NULL"}, ""},
	// Primitive parameters: the value unboxed; NULL fails the query.
	{"HiveAdult", "int", []value.Value{value.IntOf(17), value.IntOf(18), value.NullValue()}, []string{"17", "18", "NULL"}, ""},
	{"HiveTriple", "double", []value.Value{value.DoubleOf(1.5), value.DoubleOf(0.1), value.NullValue()}, []string{"1.5D", "0.1D", "NULL"}, ""},
	// Several evaluate methods: the one Hive resolves for the type.
	{"HiveOverloads", "int", []value.Value{value.IntOf(1 << 30), value.NullValue()}, []string{"1073741824", "NULL"}, "int"},
	{"HiveOverloads", "bigint", []value.Value{value.IntOf(1 << 30), value.IntOf(-3)}, []string{"1073741824", "-3"}, "bigint"},
	{"HiveOverloads", "string", []value.Value{value.StringOf("ab"), value.NullValue()}, []string{"'ab'", "NULL"}, "string"},
}

// TestHiveWritablesMatchRealSpark: a Hive simple UDF over Writables
// (Text, IntWritable, LongWritable, Hive's DoubleWritable,
// BooleanWritable) or JVM primitives (int, double) gets in udfx's JVM runner what Spark's HiveSimpleUDF
// gives it, and returns what Spark returns, nulls and exceptions
// included. Real Spark runs each UDF registered with CREATE TEMPORARY
// FUNCTION in a Hive-enabled session (about a minute).
func TestHiveWritablesMatchRealSpark(t *testing.T) {
	tools, err := Toolchain(os.Getenv)
	require.NoError(t, err)
	work := t.TempDir()
	srcs, err := filepath.Glob(filepath.Join(repoRoot(t), "harness", "runner", "jvm", "testdata", "hive", "*.java"))
	require.NoError(t, err)
	classes := filepath.Join(work, "classes")
	javac := exec.Command(filepath.Join(tools.JavaHome, "bin", "javac"), append([]string{"-nowarn", "-cp", filepath.Join(tools.SparkJars, "*"), "-d", classes}, srcs...)...)
	out, err := javac.CombinedOutput()
	require.NoError(t, err, "%s", out)
	jar := filepath.Join(work, "udfs.jar")
	out, err = exec.Command(filepath.Join(tools.JavaHome, "bin", "jar"), "cf", jar, "-C", classes, ".").CombinedOutput()
	require.NoError(t, err, "%s", out)

	type sparkCase struct {
		Class  string   `json:"class"`
		Type   string   `json:"type"`
		Inputs []string `json:"inputs"`
	}
	var cs []sparkCase
	for _, c := range hiveCases {
		cs = append(cs, sparkCase{Class: "udfs." + c.class, Type: c.typ, Inputs: c.literals})
	}
	casesJSON, err := json.Marshal(cs)
	require.NoError(t, err)
	casesPath, outPath := filepath.Join(work, "cases.json"), filepath.Join(work, "out.json")
	require.NoError(t, os.WriteFile(casesPath, casesJSON, 0o644))
	py := filepath.Join(repoRoot(t), ".venv", "bin", "python")
	cmd := exec.Command(py, filepath.Join(repoRoot(t), "harness", "runner", "jvm", "testdata", "hive", "hive_spark.py"), jar, casesPath, outPath, work)
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "PYSPARK_PYTHON="+py, "TZ=UTC")
	out, err = cmd.CombinedOutput()
	require.NoError(t, err, "real Spark:\n%s", out)
	data, err := os.ReadFile(outPath)
	require.NoError(t, err)
	var spark map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(data, &spark))

	for i, c := range hiveCases {
		t.Run(c.class+"/"+c.typ, func(t *testing.T) {
			var want []struct {
				Value any    `json:"value"`
				Error string `json:"error"`
			}
			dec := json.NewDecoder(strings.NewReader(string(spark[strconv.Itoa(i)])))
			dec.UseNumber()
			require.NoError(t, dec.Decode(&want))
			require.Len(t, want, len(c.inputs))
			u := parseUDF(t, filepath.Join("harness", "runner", "jvm", "testdata", "hive", c.class+".java"), c.class)
			if c.ret != "" {
				param, err := udf.ParseType(c.typ)
				require.NoError(t, err)
				ret, err := udf.ParseType(c.ret)
				require.NoError(t, err)
				u.Params[0].Type, u.Return = param, ret
			}
			r := newRunner(t, u, runner.DefaultLimits)
			got, err := r.Run(context.Background(), column(c.inputs...))
			require.NoError(t, err)
			for i, g := range got {
				w := want[i]
				if w.Error != "" {
					require.Equal(t, value.Error, g.Kind, "input %s: Spark failed (%s), the runner returned %v", c.literals[i], firstLine(w.Error), g)
					// Spark wraps the exception in a HiveException that
					// quotes its message.
					cls := g.Class[strings.LastIndex(g.Class, ".")+1:]
					assert.True(t, strings.Contains(w.Error, cls) || g.Message != "" && strings.Contains(w.Error, g.Message),
						"input %s: the runner threw %s: %s; Spark: %s", c.literals[i], g.Class, g.Message, firstLine(w.Error))
					continue
				}
				assert.Equal(t, sparkText(w.Value, c.typ), runnerText(g), "input %s", c.literals[i])
			}
		})
	}
}

func firstLine(s string) string { return strings.SplitN(s, "\n", 2)[0] }

// sparkText and runnerText spell a result alike for comparison.
func sparkText(v any, typ string) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return "s:" + x
	case bool:
		return strconv.FormatBool(x)
	case json.Number:
		if typ == "double" {
			f, err := x.Float64()
			if err != nil {
				return "?" + x.String()
			}
			return "d:" + strconv.FormatFloat(f, 'g', -1, 64)
		}
		return "i:" + x.String()
	}
	return fmt.Sprintf("?%T", v)
}

func runnerText(v value.Value) string {
	switch v.Kind {
	case value.Null:
		return "null"
	case value.String:
		return "s:" + v.GoString()
	case value.Bool:
		return strconv.FormatBool(v.Bool)
	case value.Int:
		return "i:" + strconv.FormatInt(v.Int, 10)
	case value.Double:
		return "d:" + strconv.FormatFloat(v.Float64(), 'g', -1, 64)
	}
	return v.String()
}

// TestHiveOverloadConvertingTheArgumentIsNotCalled: for a smallint Hive
// picks evaluate(IntWritable) and converts the argument, which the JVM
// runner does not do, so it refuses the UDF, naming the method Hive
// picks, rather than call it with a value of another type.
func TestHiveOverloadConvertingTheArgumentIsNotCalled(t *testing.T) {
	u := parseUDF(t, filepath.Join("harness", "runner", "jvm", "testdata", "hive", "HiveOverloads.java"), "HiveOverloads")
	u.Params[0].Type = udf.Prim(udf.Short)
	r := newRunner(t, u, runner.DefaultLimits)
	_, err := r.Run(context.Background(), column(value.IntOf(3)))
	var nc *runner.NotCallableError
	require.ErrorAs(t, err, &nc)
	assert.Contains(t, nc.Reason, "Hive calls udfs.HiveOverloads.evaluate(IntWritable) for (smallint) and converts argument 1 to IntWritable")
}
