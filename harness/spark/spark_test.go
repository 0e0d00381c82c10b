package spark

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/udfx/udfx/harness/inputs"
	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/runner/jvm"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/udf/frontends"
	"github.com/udfx/udfx/harness/value"
	"github.com/udfx/udfx/internal/notebook"

	"github.com/udfx/udfx/harness/testsetup"
)

// These tests run real Spark (pyspark in the repository's .venv, or
// SPARK_HOME). Where it is missing they fail with Start's message. Spark
// starts once for all of them (shared), plus once each for the bad-master
// and port-in-use checks; JVMs never run side by side.

var (
	sharedOnce sync.Once
	shared     *Session
	sharedErr  error
	testCache  string
)

func TestMain(m *testing.M) {
	if err := testsetup.Prepare(); err != nil {
		fmt.Fprintln(os.Stderr, "test setup:", err)
		os.Exit(1)
	}
	dir, err := os.MkdirTemp("", "udfx-spark-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	testCache = filepath.Join(dir, "cache")
	code := m.Run()
	if shared != nil {
		shared.Close()
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

func repoRoot(tb testing.TB) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Fatal("no go.mod above the package")
		}
		dir = parent
	}
}

// session is the shared local session (ANSI on, like Spark 4's default).
func session(tb testing.TB) *Session {
	tb.Helper()
	sharedOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		// UDFX_SPARK_TEST_WORKSPACE keeps the session's folder (its log)
		// for a look after the tests.
		shared, sharedErr = Start(ctx, Config{ANSI: true, Dir: repoRoot(tb), CacheDir: testCache, Workspace: os.Getenv("UDFX_SPARK_TEST_WORKSPACE")})
	})
	if sharedErr != nil {
		tb.Fatalf("starting Spark: %v", sharedErr)
	}
	return shared
}

// parseUDF reads one UDF with udfx's own front-end, as `udfx test` does.
func parseUDF(tb testing.TB, path, name string) *udf.UDF {
	tb.Helper()
	if !filepath.IsAbs(path) {
		path = filepath.Join(repoRoot(tb), path)
	}
	src, err := notebook.ReadCode(path)
	if err != nil {
		tb.Fatal(err)
	}
	lang := udf.Python
	switch filepath.Ext(path) {
	case ".scala":
		lang = udf.Scala
	case ".java":
		lang = udf.Java
	}
	fe := frontends.New(lang)
	defer fe.Close()
	us, err := fe.Parse(path, src)
	if err != nil {
		tb.Fatalf("parsing %s: %v", path, err)
	}
	for i := range us {
		if us[i].Name == name {
			return &us[i]
		}
	}
	tb.Fatalf("no UDF %s in %s", name, path)
	return nil
}

func generate(tb testing.TB, u *udf.UDF, rows int) arrow.RecordBatch {
	tb.Helper()
	params := make([]inputs.Param, len(u.Params))
	for i, p := range u.Params {
		params[i] = inputs.Param{Name: p.Name, Type: p.Type}
	}
	rec, _, err := inputs.Generate(params, inputs.Options{Seed: 1, Rows: rows}, memory.NewGoAllocator())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(rec.Release)
	return rec
}

// translatorSQL is what `udfx rewrite` writes for the Celsius examples
// (candidates/1/rewrite.sql of examples/python-celsius).
const translatorSQL = "CASE WHEN (`celsius` IS NULL) THEN CAST(NULL AS DOUBLE) ELSE (((`celsius` * 9.0D) / 5.0D) + 32.0D) END"

// A rewrite that is wrong for every non-null finite reading.
const wrongSQL = "`celsius` * 9.0D / 5.0D + 31.0D"

var udfNodes = []string{"BatchEvalPython", "ArrowEvalPython", "ScalaUDF", "udfx_orig_", "HiveSimpleUDF", "HiveGenericUDF"}

func holdsUDF(plan string) bool {
	for _, n := range udfNodes {
		if strings.Contains(plan, n) {
			return true
		}
	}
	return false
}

func mismatches(a, b []value.Value) (n int, first int) {
	first = -1
	for i := range a {
		if value.Token(a[i]) != value.Token(b[i]) {
			if first < 0 {
				first = i
			}
			n++
		}
	}
	return n, first
}

// checkCelsius runs the original and the translator's rewrite on 10,000
// generated rows (specials included), then a wrong rewrite, on the shared
// session.
func checkCelsius(t *testing.T, u *udf.UDF, originalNode string) {
	checkCelsiusOn(t, session(t), u, originalNode)
}

func checkCelsiusOn(t *testing.T, s *Session, u *udf.UDF, originalNode string) {
	t.Helper()
	rec := generate(t, u, 10_000)
	ctx := context.Background()
	res, err := s.Run(ctx, Job{UDF: u, Rewrite: translatorSQL, Input: rec})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if err := res.Err(); err != nil {
		t.Fatalf("a side failed: %v", err)
	}
	if n, i := mismatches(res.Original.Values, res.Rewrite.Values); n > 0 {
		t.Fatalf("%d rows differ; first row %d: original %s, rewrite %s", n, i, res.Original.Values[i], res.Rewrite.Values[i])
	}
	// The values are Spark's, not copies of the input: spot-check 100 °C.
	col := rec.Column(0)
	checked := 0
	for i := 0; i < int(rec.NumRows()); i++ {
		in := value.FromArrow(col, i)
		if in.Kind == value.Double && in.Float64() == 100 {
			if got := res.Original.Values[i]; got.Kind != value.Double || got.Float64() != 212 {
				t.Errorf("row %d: 100 °C gave %s", i, got)
			}
			checked++
		}
		if in.Kind == value.Null && res.Original.Values[i].Kind != value.Null {
			t.Errorf("row %d: null gave %s", i, res.Original.Values[i])
		}
	}
	t.Logf("original (%.2fs, %s):\n%s", res.Original.Seconds, res.Original.Call, res.Original.Plan)
	t.Logf("rewrite (%.2fs):\n%s", res.Rewrite.Seconds, res.Rewrite.Plan)
	if !strings.Contains(res.Original.Plan, originalNode) || !holdsUDF(res.Original.Plan) {
		t.Errorf("the original's plan has no %s node:\n%s", originalNode, res.Original.Plan)
	}
	if holdsUDF(res.Rewrite.Plan) || !strings.Contains(res.Rewrite.Plan, "Project") {
		t.Errorf("the rewrite's plan holds a UDF node or no Project:\n%s", res.Rewrite.Plan)
	}
	if res.Original.Seconds <= 0 || res.Rewrite.Seconds <= 0 {
		t.Errorf("times: original %v, rewrite %v", res.Original.Seconds, res.Rewrite.Seconds)
	}

	wrong, err := s.Run(ctx, Job{Rewrite: wrongSQL, Input: rec})
	if err != nil {
		t.Fatalf("Run(wrong): %v", err)
	}
	if wrong.Original != nil || wrong.Rewrite == nil || wrong.Rewrite.Err != nil {
		t.Fatalf("a rewrite-only job gave %+v", wrong)
	}
	if n, _ := mismatches(res.Original.Values, wrong.Rewrite.Values); n < 1000 {
		t.Errorf("the wrong rewrite differs on %d rows only", n)
	}
}

func TestPythonCelsius(t *testing.T) {
	checkCelsius(t, parseUDF(t, "examples/python-celsius/celsius.py", "to_fahrenheit"), "BatchEvalPython")
}

// A script's top-level job (a session, a read of a path that is not
// here, a write) is left out when Spark loads its UDF; a UDF that reads
// what the job sets is refused, naming it.
func TestPythonScriptWithItsJobAtTheTopLevel(t *testing.T) {
	checkCelsius(t, parseUDF(t, "harness/spark/testdata/celsius_job.py", "to_fahrenheit"), "BatchEvalPython")

	s := session(t)
	rec, _, err := inputs.Generate([]inputs.Param{{Name: "celsius", Type: udf.Prim(udf.Double)}}, inputs.Options{Seed: 3, Rows: 10}, memory.NewGoAllocator())
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Release()
	_, err = s.Run(context.Background(), Job{UDF: parseUDF(t, "harness/spark/testdata/celsius_job.py", "to_fahrenheit_conf"), Rewrite: "celsius", Input: rec})
	var ce *runner.CompileError
	if !errors.As(err, &ce) || ce.Line != 9 || !strings.Contains(ce.Msg, "to_fahrenheit_conf reads OFFSET (line 9)") {
		t.Fatalf("want a refusal naming OFFSET at line 9, got %v", err)
	}
}

func TestScalaToFahrenheit(t *testing.T) {
	u := parseUDF(t, "examples/scala-to-fahrenheit/ToFahrenheit.scala", "ToFahrenheit")
	checkCelsius(t, u, RegisteredPrefix)
	// Registered as the source does: spark.udf.register(name, new ToFahrenheit()).
	res, err := session(t).Run(context.Background(), Job{UDF: u, Input: generate(t, u, 10)})
	if err != nil {
		t.Fatal(err)
	}
	if want := "spark.udf.register(name, new _root_.examples.temperature.ToFahrenheit())"; res.Original.Call != want {
		t.Errorf("call %q, want %q", res.Original.Call, want)
	}
	if !strings.HasPrefix(res.Original.Function, RegisteredPrefix) || !strings.Contains(res.Original.Plan, res.Original.Function+"(") {
		t.Errorf("function %q not in the plan:\n%s", res.Original.Function, res.Original.Plan)
	}
}

// A Scala UDF registered under a built-in's name (upper) prints in the
// executed plan as upper(celsius#1), like the built-in: the driver reports
// it by class from the JVM's plan tree, and refuses a rewrite that calls
// it by that name. (Spark 4.1.1 resolves the name to the session's UDF.)
func TestAScalaUDFUnderABuiltinNameIsFoundByClass(t *testing.T) {
	u := parseUDF(t, "examples/scala-to-fahrenheit/ToFahrenheit.scala", "ToFahrenheit")
	res, err := session(t).Run(context.Background(), Job{UDF: u, Input: generate(t, u, 20), Rewrite: "upper(celsius)", sqlName: "upper"})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("original plan:\n%s\nUDFs by class: %+v", res.Original.Plan, res.Original.UDFs)
	if res.Original.Err != nil {
		t.Fatalf("original: %v", res.Original.Err)
	}
	// A double, not the built-in upper's string: the UDF ran.
	if res.Original.Type == nil || res.Original.Type.ID() != arrow.FLOAT64 {
		t.Errorf("the original returned %v: not the UDF", res.Original.Type)
	}
	found := false
	for _, x := range res.Original.UDFs {
		found = found || (x.Class == "ScalaUDF" && x.Name == "upper")
	}
	if !found || !strings.Contains(res.Original.Plan, "upper(") {
		t.Errorf("the UDF registered as upper is not found by class: %+v", res.Original.UDFs)
	}
	if e := res.Rewrite.Err; e == nil || !strings.Contains(e.Message, "a user-defined function (ScalaUDF) is refused") {
		t.Errorf("a rewrite calling the UDF by a built-in's name: %+v", e)
	}
}

func TestScalaLambda(t *testing.T) {
	u := parseUDF(t, "examples/scala-lambda-fahrenheit/FahrenheitLambda.scala", "toFahrenheit")
	checkCelsius(t, u, "udfx_orig_")
}

func TestJavaToFahrenheit(t *testing.T) {
	u := parseUDF(t, "examples/java-to-fahrenheit/ToFahrenheit.java", "ToFahrenheit")
	checkCelsius(t, u, "udfx_orig_")
}

// UDF classes with Java's default access can be constructed only from
// their own package, so the shim that registers them is generated there,
// as the user's registration code must be. Two UDFs of one file compiled
// together (CompileUDFs: one javac run for the file, one for both shims)
// get a jar each, which Run then finds in the cache.
func TestJavaPackagePrivateClasses(t *testing.T) {
	ctx := context.Background()
	twice := parseUDF(t, "harness/spark/testdata/PackagePrivate.java", "Twice")
	positive := parseUDF(t, "harness/spark/testdata/PackagePrivate.java", "Positive")
	jars, err := CompileUDFs(ctx, []*udf.UDF{twice, positive}, Config{Dir: repoRoot(t), CacheDir: testCache})
	if err != nil {
		t.Fatalf("CompileUDFs: %v", err)
	}
	if jars[0] == "" || jars[0] == jars[1] {
		t.Fatalf("jars %q: want one per UDF", jars)
	}
	s := session(t)
	for i, c := range []struct {
		u    *udf.UDF
		want func(x value.Value) value.Value
	}{
		{twice, func(x value.Value) value.Value {
			if x.IsNull() {
				return value.NullValue()
			}
			return value.DoubleOf(2 * x.Float64())
		}},
		{positive, func(x value.Value) value.Value { return value.BoolOf(!x.IsNull() && x.Float64() > 0) }},
	} {
		rec := generate(t, c.u, 50)
		res, err := s.Run(ctx, Job{UDF: c.u, Input: rec})
		if err != nil {
			t.Fatalf("%s: %v", c.u.Name, err)
		}
		if res.Original.Err != nil {
			t.Fatalf("%s: %v", c.u.Name, res.Original.Err)
		}
		if want := "new udfx.sparktest." + c.u.Name + "()"; !strings.Contains(res.Original.Call, want) {
			t.Errorf("%s: call %q, want it to hold %q", c.u.Name, res.Original.Call, want)
		}
		if s.jars[len(s.jars)-1] != jars[i] {
			t.Errorf("%s ran from %s, not from the jar CompileUDFs built (%s)", c.u.Name, s.jars[len(s.jars)-1], jars[i])
		}
		for r := 0; r < int(rec.NumRows()); r++ {
			x := value.FromArrow(rec.Column(0), r)
			if want, got := canonicalNaN(c.want(x)), res.Original.Values[r]; value.Token(want) != value.Token(got) {
				t.Errorf("%s(%s) = %s, want %s", c.u.Name, x, got, want)
			}
		}
	}
}

// canonicalNaN is what Spark makes of a NaN it stores in a row: every
// float and double NaN comes out of a Spark query as the canonical NaN
// (0x7fc00000, 0x7ff8000000000000), whatever its payload or sign; -0.0
// stays -0.0 (observed here with Spark 4.1.1).
func canonicalNaN(v value.Value) value.Value {
	switch v.Kind {
	case value.Double:
		if f := v.Float64(); f != f {
			return value.DoubleBits(0x7ff8000000000000)
		}
	case value.Float:
		if f := v.Float32(); f != f {
			return value.FloatBits(0x7fc00000)
		}
	case value.Array, value.Map, value.Struct:
		out := v
		out.Elems = make([]value.Value, len(v.Elems))
		for i, e := range v.Elems {
			out.Elems[i] = canonicalNaN(e)
		}
		return out
	}
	return v
}

// Every type udfx generates goes through Parquet into Spark and back out
// through Arrow unchanged, NaN payloads aside (canonicalNaN): one rewrite
// returns all columns as a struct.
func TestTypesRoundTrip(t *testing.T) {
	types := []string{"boolean", "tinyint", "smallint", "int", "bigint", "float", "double",
		"decimal(10,2)", "decimal(38,18)", "decimal(18,0)", "string", "binary", "date", "timestamp",
		"array<double>", "map<string,int>", "struct<a:int,b:string>"}
	params := make([]inputs.Param, len(types))
	fields := make([]string, len(types))
	for i, ts := range types {
		typ, err := udf.ParseType(ts)
		if err != nil {
			t.Fatal(err)
		}
		params[i] = inputs.Param{Name: fmt.Sprintf("c%d", i), Type: typ}
		fields[i] = params[i].Name
	}
	rec, _, err := inputs.Generate(params, inputs.Options{Seed: 7, Rows: 3000}, memory.NewGoAllocator())
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Release()
	res, err := session(t).Run(context.Background(), Job{Rewrite: "struct(" + strings.Join(fields, ", ") + ")", Input: rec})
	if err != nil {
		t.Fatal(err)
	}
	if res.Rewrite.Err != nil {
		t.Fatal(res.Rewrite.Err)
	}
	bad := map[string]int{}
	for i := 0; i < int(rec.NumRows()); i++ {
		got := res.Rewrite.Values[i]
		if got.Kind != value.Struct || len(got.Elems) != len(types) {
			t.Fatalf("row %d: %s", i, got)
		}
		for j := range types {
			want := canonicalNaN(value.FromArrow(rec.Column(j), i))
			if value.Token(want) != value.Token(got.Elems[j]) {
				if bad[types[j]] == 0 {
					t.Errorf("%s row %d: wrote %s, Spark read %s", types[j], i, want, got.Elems[j])
				}
				bad[types[j]]++
			}
		}
	}
	for ts, n := range bad {
		t.Errorf("%s: %d rows differ", ts, n)
	}
}

func TestJobErrors(t *testing.T) {
	s := session(t)
	ctx := context.Background()
	mem := memory.NewGoAllocator()
	build := func() arrow.RecordBatch {
		typ := udf.Prim(udf.Double)
		rec, _, err := inputs.Generate([]inputs.Param{{Name: "celsius", Type: typ}}, inputs.Options{Seed: 3, Rows: 50}, mem)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(rec.Release)
		return rec
	}
	rec := build()
	t.Run("python", func(t *testing.T) {
		u := parseUDF(t, "harness/spark/testdata/boom.py", "boom")
		res, err := s.Run(ctx, Job{UDF: u, Rewrite: "celsius", Input: rec})
		if err != nil {
			t.Fatal(err)
		}
		e := res.Original.Err
		if e == nil || e.Class != "ValueError" || !strings.Contains(e.Message, "reading out of range") || e.Side != Original {
			t.Fatalf("original: %+v", e)
		}
		if res.Rewrite.Err != nil || len(res.Rewrite.Values) != int(rec.NumRows()) {
			t.Errorf("the rewrite should have run: %+v", res.Rewrite.Err)
		}
		var je *JobError
		if !errors.As(res.Err(), &je) {
			t.Errorf("Result.Err is %v", res.Err())
		}
	})
	t.Run("scala", func(t *testing.T) {
		u := parseUDF(t, "harness/spark/testdata/Boom.scala", "Boom")
		res, err := s.Run(ctx, Job{UDF: u, Input: rec})
		if err != nil {
			t.Fatal(err)
		}
		e := res.Original.Err
		if e == nil || e.Class != "java.lang.IllegalArgumentException" || e.Condition != "FAILED_EXECUTE_UDF" || !strings.Contains(e.Message, "reading out of range") {
			t.Fatalf("original: %+v", e)
		}
	})
	t.Run("ansi", func(t *testing.T) {
		res, err := s.Run(ctx, Job{Rewrite: "CAST(celsius AS INT)", Input: rec})
		if err != nil {
			t.Fatal(err)
		}
		e := res.Rewrite.Err
		if e == nil || e.Condition != "CAST_OVERFLOW" || e.Class != "org.apache.spark.SparkArithmeticException" {
			t.Fatalf("rewrite: %+v", e)
		}
		if !strings.Contains(e.Error(), "CAST_OVERFLOW") {
			t.Errorf("message: %v", e)
		}
		// With ANSI off the same cast saturates (or is null for NaN), no error.
		off := false
		res, err = s.Run(ctx, Job{Rewrite: "CAST(celsius AS INT)", Input: rec, ANSI: &off})
		if err != nil || res.Rewrite.Err != nil {
			t.Fatalf("ANSI off: %v %v", err, res.Rewrite.Err)
		}
	})
	t.Run("analysis", func(t *testing.T) {
		res, err := s.Run(ctx, Job{Rewrite: "abs(celsius, celsius)", Input: rec})
		if err != nil {
			t.Fatal(err)
		}
		if e := res.Rewrite.Err; e == nil || !strings.HasPrefix(e.Condition, "WRONG_NUM_ARGS") {
			t.Fatalf("rewrite: %+v", e)
		}
	})
	t.Run("allow-list", func(t *testing.T) {
		checkRefusals(t, s, rec)
		// Lambdas' variables are not columns, exists() is a function.
		for _, sql := range []string{"aggregate(array(celsius), 0.0D, (acc, x) -> acc + x)", "exists(array(celsius), x -> x > 0.0D)"} {
			res, err := s.Run(ctx, Job{Rewrite: sql, Input: rec})
			if err != nil || res.Rewrite.Err != nil {
				t.Errorf("%s: %v %+v", sql, err, res.Rewrite.Err)
			}
		}
	})
	t.Run("not a function of the inputs", func(t *testing.T) {
		for _, sql := range []string{"celsius + rand()", "CAST(_udfx_row AS DOUBLE)"} {
			res, err := s.Run(ctx, Job{Rewrite: sql, Input: rec})
			if err != nil {
				t.Fatal(err)
			}
			if e := res.Rewrite.Err; e == nil || res.Rewrite.Plan != "" {
				t.Fatalf("%s: want the rewrite refused before any job, got %+v (plan %q)", sql, e, res.Rewrite.Plan)
			}
		}
	})
	t.Run("import", func(t *testing.T) {
		dir := t.TempDir()
		file := filepath.Join(dir, "broken.py")
		src := "from pyspark.sql.functions import udf\n\n@udf('double')\ndef f(x: float) -> float:\n    return x\n\nraise RuntimeError('no config')\n"
		if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		u := parseUDF(t, file, "f")
		_, err := s.Run(ctx, Job{UDF: u, Input: generate(t, u, 10)})
		var ce *runner.CompileError
		if !errors.As(err, &ce) || ce.Line != 7 || !strings.Contains(ce.Msg, "no config") {
			t.Fatalf("err %v", err)
		}
	})
}

// refusals are candidates the driver refuses on Spark's own parse and
// analysis, before any job; the reproductions among them.
var refusals = []struct{ sql, construct string }{
	{"celsius * 0.0D + ascii(substr((SELECT first(value) FROM text.`/etc/hostname`), 2, 1))", "subquery"},
	{"`reflect`('java.lang.Math', 'abs', celsius)", "reflect()"},
	{"reflect/* hidden */('java.lang.Math', 'abs', celsius)", "reflect()"},
	{"celsius + IDENTIFIER('java_method')('java.lang.Math', 'abs', celsius)", "IDENTIFIER|java_method"},
	{"if(current_date > DATE'2020-01-01', celsius, 0.0D)", "current_date"},
	{"no_such_function(celsius)", "no_such_function"},
}

// checkRefusals runs each refused candidate as a rewrite-only job: the
// driver must refuse it before any job (no plan), naming the construct,
// and no byte of the file may come back.
func checkRefusals(t *testing.T, s *Session, rec arrow.RecordBatch) {
	t.Helper()
	host, _ := os.ReadFile("/etc/hostname")
	for _, tc := range refusals {
		res, err := s.Run(context.Background(), Job{Rewrite: tc.sql, Input: rec})
		if err != nil {
			t.Fatalf("%s: %v", tc.sql, err)
		}
		e := res.Rewrite.Err
		if e == nil || res.Rewrite.Plan != "" || res.Rewrite.Values != nil {
			t.Errorf("%s: want a refusal before any job, got %+v (plan %q)", tc.sql, e, res.Rewrite.Plan)
			continue
		}
		t.Logf("%s: %s", tc.sql, e.Message)
		named := false
		for _, c := range strings.Split(tc.construct, "|") {
			named = named || strings.Contains(strings.ToLower(e.Message), strings.ToLower(c))
		}
		if !strings.Contains(e.Message, "refused") || !named {
			t.Errorf("%s: the refusal does not name %s: %s", tc.sql, tc.construct, e.Message)
		}
		if h := strings.TrimSpace(string(host)); len(h) > 2 && strings.Contains(e.Error(), h) {
			t.Errorf("%s: the file's content came back: %s", tc.sql, e.Error())
		}
	}
}

func TestBench(t *testing.T) {
	s := session(t)
	u := parseUDF(t, "examples/python-celsius/celsius.py", "to_fahrenheit")
	rec := generate(t, u, 20_000)
	in := filepath.Join(t.TempDir(), "in.parquet")
	if err := WriteParquet(in, rec); err != nil {
		t.Fatal(err)
	}
	var seen []BenchRun
	res, err := s.Bench(context.Background(), BenchJob{UDF: u, Rewrite: translatorSQL, Input: in, Warmup: 1, Runs: 2,
		Progress: func(r BenchRun) { seen = append(seen, r) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Original) != 2 || len(res.Rewrite) != 2 || len(res.WarmupOriginal) != 1 || len(res.WarmupRewrite) != 1 {
		t.Fatalf("runs: %+v", res)
	}
	if len(seen) != 6 {
		t.Fatalf("progress heard %d runs, want 6", len(seen))
	}
	// The measured pairs alternate which side goes first.
	want := []Side{Original, Rewrite, Original, Rewrite, Rewrite, Original}
	for i, r := range seen {
		if r.Side != want[i] || r.Warmup != (i < 2) || r.Seconds <= 0 {
			t.Errorf("run %d: %+v, want side %s", i, r, want[i])
		}
	}
	if !strings.Contains(res.OriginalPlan, "BatchEvalPython") || holdsUDF(res.RewritePlan) {
		t.Errorf("plans:\n%s\n%s", res.OriginalPlan, res.RewritePlan)
	}
}

func TestSessionInfo(t *testing.T) {
	s := session(t)
	info := s.Info()
	if info.SparkVersion != s.Install().SparkVersion || info.Master != DefaultMaster || !info.ANSI {
		t.Errorf("info %+v, install %+v", info, s.Install())
	}
	if info.JavaVersion == "" || jvm.JavaMajor(info.JavaVersion) != s.Install().JavaMajor {
		t.Errorf("Java %q, found %+v", info.JavaVersion, s.Install())
	}
}

// A taken spark.driver.port is reported as such, with the log.
func TestPortInUse(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	port := fmt.Sprint(l.Addr().(*net.TCPAddr).Port)
	ws := t.TempDir()
	_, err = Start(context.Background(), Config{Dir: repoRoot(t), Workspace: ws, CacheDir: testCache,
		Conf: map[string]string{"spark.driver.port": port, "spark.driver.bindAddress": "127.0.0.1", "spark.port.maxRetries": "0"}})
	var se *StartError
	if !errors.As(err, &se) || se.Cause != CausePortInUse {
		t.Fatalf("err %v", err)
	}
	if se.Log != filepath.Join(ws, "spark-driver.log") || !strings.Contains(err.Error(), "full log") || strings.Contains(err.Error(), "\tat ") {
		t.Errorf("message: %v", err)
	}
}

func TestBadMaster(t *testing.T) {
	_, err := Start(context.Background(), Config{Master: "nonsense://nowhere", Dir: repoRoot(t), Workspace: t.TempDir(), CacheDir: testCache})
	var se *StartError
	if !errors.As(err, &se) || se.Cause != CauseMaster || !strings.Contains(se.Summary, "nonsense://nowhere") {
		t.Fatalf("err %v", err)
	}
	if !strings.Contains(se.Hint, "local[N]") {
		t.Errorf("hint: %q", se.Hint)
	}
}

// A Connect session without grpcio says which packages to install and
// how, before it tries to reach the server (nothing listens at the URL).
// The interpreter has the connect extras (harness/pyenv/requirements.txt; see
// TestConnectCelsius): the test hides grpc behind a module on PYTHONPATH
// that fails to import, so grpcio must be reported and the packages that
// do import must not (grpc_status imports grpc only when used).
func TestConnectMissingPackages(t *testing.T) {
	hide := t.TempDir()
	if err := os.WriteFile(filepath.Join(hide, "grpc.py"), []byte("raise ImportError('hidden by the test')\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := func(k string) string {
		if k == "PYTHONPATH" {
			return hide
		}
		return os.Getenv(k)
	}
	_, err := Start(context.Background(), Config{Remote: "sc://localhost:15002", Env: env, Dir: repoRoot(t), Workspace: t.TempDir(), CacheDir: testCache})
	var ee *EnvError
	if !errors.As(err, &ee) || ee.What != "Spark Connect client" {
		t.Fatalf("err %v", err)
	}
	missing := map[string]bool{}
	for _, p := range ee.Missing {
		missing[p] = true
	}
	if !missing["grpcio"] || !strings.Contains(ee.Msg, "pip install 'pyspark[connect]==") || !strings.Contains(ee.Msg, "grpcio") {
		t.Errorf("missing %v, message %q", ee.Missing, ee.Msg)
	}
	for _, p := range []string{"pandas", "pyarrow", "grpcio-status", "protobuf", "googleapis-common-protos", "zstandard"} {
		if missing[p] {
			t.Errorf("%s is installed but reported missing: %v", p, ee.Missing)
		}
	}
}

// A module of a package is loaded under its own name, with its package's
// folder on the path: its relative and star imports resolve on the
// driver, and what it takes from its siblings reaches Spark's workers.
func TestAModuleOfAPackageLoadsWithItsRelativeImports(t *testing.T) {
	u := parseUDF(t, "harness/runner/python/testdata/package/etl/jobs/quarter.py", "get_quarter")
	u.Params[0].Type = udf.Prim(udf.String)
	b := array.NewStringBuilder(memory.NewGoAllocator())
	defer b.Release()
	b.AppendValues([]string{"s3://b/sales/2024-05-17/part-0.csv", "s3://b/sales/undated/part-0.csv"}, nil)
	b.AppendNull()
	col := b.NewArray()
	defer col.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "path", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
	rec := array.NewRecord(schema, []arrow.Array{col}, 3)
	defer rec.Release()
	res, err := session(t).Run(context.Background(), Job{UDF: u, Rewrite: "path", Input: rec})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if err := res.Err(); err != nil {
		t.Fatalf("a side failed: %v", err)
	}
	want := []value.Value{value.StringOf("Q2"), value.StringOf("unknown"), value.NullValue()}
	for i, w := range want {
		if value.Token(res.Original.Values[i]) != value.Token(w) {
			t.Errorf("row %d: got %s, want %s", i, res.Original.Values[i], w)
		}
	}
}

// An object that is itself the function is registered as the object, not
// as an instance of the class of static forwarders scalac writes beside it.
func TestAScalaObjectFunctionIsRegisteredAsTheObject(t *testing.T) {
	u := parseUDF(t, "harness/spark/testdata/WeekendObject.scala", "IsWeekendDay")
	res, err := session(t).Run(context.Background(), Job{UDF: u, Input: generate(t, u, 10)})
	if err != nil {
		t.Fatal(err)
	}
	if res.Original.Err != nil {
		t.Fatalf("original: %v", res.Original.Err)
	}
	if want := "spark.udf.register(name, _root_.jobs.calendar.IsWeekendDay)"; res.Original.Call != want {
		t.Errorf("call %q, want %q", res.Original.Call, want)
	}
}

// A Scala UDF defined inside main is registered in Spark from the object
// udfx lifts it into (jvm.LiftedSource), compiled with its file, as the
// JVM runner runs it.
func TestAScalaUDFDefinedInsideMainIsRegisteredFromItsLiftedObject(t *testing.T) {
	u := parseUDF(t, "harness/runner/jvm/testdata/LocalUdfs.scala", "toF")
	u.Return = udf.Prim(udf.Double) // scalac's type: Offset is a member udfx does not type
	rec := generate(t, u, 10)
	res, err := session(t).Run(context.Background(), Job{UDF: u, Input: rec, Rewrite: "c * 9.0D / 5.0D + 32.0D"})
	if err != nil {
		t.Fatal(err)
	}
	if err := res.Err(); err != nil {
		t.Fatalf("a side failed: %v", err)
	}
	if n, i := mismatches(res.Original.Values, res.Rewrite.Values); n > 0 {
		t.Fatalf("%d rows differ; first row %d: original %s, rewrite %s", n, i, res.Original.Values[i], res.Rewrite.Values[i])
	}
	if !strings.Contains(res.Original.Call, jvm.LiftedObject(u)+".toF") {
		t.Errorf("call %q, want the lifted object's toF", res.Original.Call)
	}
}

// The session outlives a repository: a package of the same name loaded
// from another repository later is that repository's, not the cached one.
func TestAPackageOfTheSameNameFromAnotherRepositoryIsLoadedAfresh(t *testing.T) {
	root := t.TempDir()
	from := filepath.Join(repoRoot(t), "harness/runner/python/testdata/package")
	require := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	require(os.CopyFS(root, os.DirFS(from)))
	consts := filepath.Join(root, "etl", "consts.py")
	require(os.WriteFile(consts, []byte("QUARTERS = {5: \"second quarter\"}\nUNKNOWN = \"n/a\"\n"), 0o644))
	u := parseUDF(t, "harness/runner/python/testdata/package/etl/jobs/quarter.py", "get_quarter")
	other := parseUDF(t, filepath.Join(root, "etl/jobs/quarter.py"), "get_quarter")
	for _, x := range []*udf.UDF{u, other} {
		x.Params[0].Type = udf.Prim(udf.String)
	}
	run := func(x *udf.UDF) string {
		b := array.NewStringBuilder(memory.NewGoAllocator())
		defer b.Release()
		b.Append("s3://b/sales/2024-05-17/part-0.csv")
		col := b.NewArray()
		defer col.Release()
		schema := arrow.NewSchema([]arrow.Field{{Name: "path", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
		rec := array.NewRecord(schema, []arrow.Array{col}, 1)
		defer rec.Release()
		res, err := session(t).Run(context.Background(), Job{UDF: x, Rewrite: "path", Input: rec})
		require(err)
		require(res.Err())
		return res.Original.Values[0].String()
	}
	first, second := run(u), run(other)
	if !strings.Contains(first, "Q2") || !strings.Contains(second, "second quarter") {
		t.Errorf("got %s then %s, want Q2 from this repository's package, then second quarter from the other's", first, second)
	}
}

// A Hive simple UDF over Writables is created as a Hive job creates it,
// CREATE TEMPORARY FUNCTION in a Hive-enabled session (the session
// restarts with Hive support for it), and Spark runs it through
// HiveSimpleUDF: the authority for what udfx's JVM runner does with
// Text and NULL.
func TestAHiveUDFIsCreatedAsATemporaryFunction(t *testing.T) {
	u := parseUDF(t, "harness/runner/jvm/testdata/hive/HiveGreet.java", "HiveGreet")
	rec := generate(t, u, 200)
	res, err := session(t).Run(context.Background(), Job{UDF: u, Input: rec, Rewrite: "CASE WHEN name IS NULL THEN NULL ELSE concat('Hello, ', trim(name)) END"})
	if err != nil {
		t.Fatal(err)
	}
	if err := res.Err(); err != nil {
		t.Fatalf("a side failed: %v", err)
	}
	if want := "CREATE TEMPORARY FUNCTION name AS 'udfs.HiveGreet'"; res.Original.Call != want {
		t.Errorf("call %q, want %q", res.Original.Call, want)
	}
	found := false
	for _, x := range res.Original.UDFs {
		found = found || x.Class == "HiveSimpleUDF"
	}
	if !found {
		t.Errorf("no HiveSimpleUDF in the original's plan (%+v):\n%s", res.Original.UDFs, res.Original.Plan)
	}
	nulls := 0
	for i := 0; i < int(rec.NumRows()); i++ {
		if value.FromArrow(rec.Column(0), i).Kind == value.Null {
			nulls++
			if res.Original.Values[i].Kind != value.Null {
				t.Errorf("row %d: NULL gave %s", i, res.Original.Values[i])
			}
		}
	}
	if nulls == 0 {
		t.Error("the inputs hold no NULL")
	}
	// Spark's trim strips spaces only, String.trim every char up to
	// U+0020: the generated inputs tell them apart, so the rewrite, not
	// the original, must differ somewhere.
	if n, _ := mismatches(res.Original.Values, res.Rewrite.Values); n == 0 {
		t.Error("trim(name) matched String.trim on every row: the inputs do not reach the original")
	}
}

// A JVM UDF that calls a library its Maven build declares runs in Spark
// with that library on the session's class path (and compiled from the
// same classes the JVM runner runs): without it the call would fail with
// NoClassDefFoundError.
func TestAUDFOfAMavenModuleRunsOnSparkWithItsBuildsLibraries(t *testing.T) {
	repo := t.TempDir()
	write := func(rel, text string) {
		p := filepath.Join(repo, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("pom.xml", `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.acme</groupId>
  <artifactId>tags</artifactId>
  <version>1.0</version>
  <dependencies>
    <dependency>
      <groupId>org.jspecify</groupId>
      <artifactId>jspecify</artifactId>
      <version>1.0.0</version>
    </dependency>
  </dependencies>
</project>
`)
	write("src/main/java/com/acme/Tag.java", `package com.acme;

import org.apache.spark.sql.api.java.UDF1;
import org.jspecify.annotations.Nullable;

public class Tag implements UDF1<String, String> {
  @Override
  public String call(String s) {
    // A class of the library, loaded when the UDF runs.
    return Nullable.class.getSimpleName() + ":" + s;
  }
}
`)
	u := parseUDF(t, filepath.Join(repo, "src/main/java/com/acme/Tag.java"), "Tag")
	u.Root = repo
	res, err := session(t).Run(context.Background(), Job{UDF: u, Input: generate(t, u, 20)})
	if err != nil {
		t.Fatal(err)
	}
	if res.Original.Err != nil {
		t.Fatalf("original: %v", res.Original.Err)
	}
	found := false
	for _, v := range res.Original.Values {
		found = found || v.Kind == value.String && strings.HasPrefix(v.GoString(), "Nullable:")
	}
	if !found {
		t.Errorf("no value of the library's class name: %v", res.Original.Values)
	}
}

func TestOnlyLibrariesSparkDoesNotShipJoinTheClassPath(t *testing.T) {
	shipped := map[string]bool{"commons-lang3": true, "hive-exec": true}
	got := notShipped([]string{"/m2/commons-lang3-3.12.0.jar", "/m2/jspecify-1.0.0.jar", "/m2/hive-exec-2.3.9-core.jar", "/m2/tool.jar"}, shipped)
	want := []string{"/m2/jspecify-1.0.0.jar", "/m2/tool.jar"}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
