package jvm

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/udf/java"
	"github.com/udfx/udfx/harness/udf/scala"
	"github.com/udfx/udfx/harness/value"
	"github.com/udfx/udfx/internal/execpath"

	"github.com/udfx/udfx/harness/testsetup"
)

// These tests run the real toolchain: the JDK, scalac from Spark's jars
// and a JVM, with pyspark's jars from the .venv at the repository root
// (as CI installs it). They share one class cache so that each source
// file is compiled once.

var testCache string

func TestMain(m *testing.M) {
	if err := testsetup.Prepare(); err != nil {
		fmt.Fprintln(os.Stderr, "test setup:", err)
		os.Exit(1)
	}
	dir, err := os.MkdirTemp("", "udfx-jvm-test-")
	if err != nil {
		panic(err)
	}
	testCache = dir
	code := m.Run()
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

// parseUDF reads one UDF from a source file with udfx's own front-end, as
// `udfx test` does.
func parseUDF(tb testing.TB, rel, name string) *udf.UDF {
	tb.Helper()
	path := rel
	if !filepath.IsAbs(path) {
		path = filepath.Join(repoRoot(tb), rel)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	var us []udf.UDF
	if strings.HasSuffix(path, ".scala") {
		fe := scala.New()
		defer fe.Close()
		us, err = fe.Parse(path, src)
	} else {
		fe := java.New()
		defer fe.Close()
		us, err = fe.Parse(path, src)
	}
	if err != nil {
		tb.Fatalf("parsing %s: %v", rel, err)
	}
	for i := range us {
		if us[i].Name == name {
			return &us[i]
		}
	}
	tb.Fatalf("no UDF %s in %s", name, rel)
	return nil
}

func newRunner(tb testing.TB, u *udf.UDF, limits runner.Limits) *Runner {
	tb.Helper()
	r, err := New(context.Background(), u, Options{Limits: limits, CacheDir: testCache})
	if err != nil {
		tb.Fatalf("New(%s): %v", u.Name, err)
	}
	tb.Cleanup(func() { r.Close() })
	return r
}

func column(vs ...value.Value) [][]value.Value {
	rows := make([][]value.Value, len(vs))
	for i, v := range vs {
		rows[i] = []value.Value{v}
	}
	return rows
}

func fahrenheit(c float64) float64 { return float64(float64(c*9.0)/5.0) + 32.0 }

// specialDoubles are the double inputs every test must get through
// unchanged: signed zeros, infinities, NaNs with other bit patterns,
// extremes and subnormals.
var specialDoubles = []uint64{
	0x0000000000000000, // 0.0
	0x8000000000000000, // -0.0
	0x3ff0000000000000, // 1.0
	0xbff0000000000000, // -1.0
	0x7ff0000000000000, // +Inf
	0xfff0000000000000, // -Inf
	0x7ff8000000000000, // NaN
	0xfff8000000000000, // NaN, sign bit set
	0x7ff0000000000001, // signalling NaN payload
	0x7fefffffffffffff, // MaxFloat64
	0xffefffffffffffff, // -MaxFloat64
	0x0000000000000001, // smallest subnormal
	0x8000000000000001,
	0x0010000000000000, // smallest normal
	0x4042c00000000000, // 37.5
	0xc044000000000000, // -40.0
	0x7e37e43c8800759c, // 1e300
}

func TestFahrenheitExamples(t *testing.T) {
	cases := []struct {
		file, name string
		// nullSkips: a primitive parameter, so Spark does not call the
		// function for null; otherwise the UDF's own null check answers.
		nullSkips bool
		call      string
	}{
		{"examples/scala-to-fahrenheit/ToFahrenheit.scala", "ToFahrenheit", false, "new examples.temperature.ToFahrenheit().apply"},
		{"examples/java-to-fahrenheit/ToFahrenheit.java", "ToFahrenheit", false, "new examples.temperature.ToFahrenheit().call"},
		{"examples/scala-lambda-fahrenheit/FahrenheitLambda.scala", "toFahrenheit", true, "examples.temperature.FahrenheitLambda.toFahrenheit"},
	}
	for _, c := range cases {
		t.Run(filepath.Base(filepath.Dir(c.file)), func(t *testing.T) {
			u := parseUDF(t, c.file, c.name)
			if u.NullSkipsCall != c.nullSkips {
				t.Fatalf("front-end says NullSkipsCall=%v, want %v", u.NullSkipsCall, c.nullSkips)
			}
			r := newRunner(t, u, runner.Limits{Timeout: 60 * time.Second, MemoryMB: 256})
			var in []value.Value
			for _, bits := range specialDoubles {
				in = append(in, value.DoubleBits(bits))
			}
			in = append(in, value.NullValue())
			got, err := r.Run(context.Background(), column(in...))
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(in) {
				t.Fatalf("got %d results for %d rows", len(got), len(in))
			}
			for i, bits := range specialDoubles {
				want := fahrenheit(math.Float64frombits(bits))
				g := got[i]
				if g.Kind != value.Double {
					t.Errorf("%v: got %v, want a double", in[i], g)
					continue
				}
				if math.IsNaN(want) {
					if !math.IsNaN(g.Float64()) {
						t.Errorf("%v: got %v, want NaN", in[i], g)
					}
					continue
				}
				if g.Bits != math.Float64bits(want) {
					t.Errorf("%v: got %v (%016x), want %v (%016x)", in[i], g, g.Bits, want, math.Float64bits(want))
				}
			}
			// A lambda called with null would unbox it to 0.0 and return
			// 32.0: null proves Spark's rule skipped the call.
			if last := got[len(got)-1]; !last.IsNull() {
				t.Errorf("null in: got %v, want null", last)
			}
			if !strings.Contains(r.Describe(), c.call) {
				t.Errorf("Describe() = %q, want it to name %q", r.Describe(), c.call)
			}
		})
	}
}

func TestScalaObjectMembers(t *testing.T) {
	const file = "harness/runner/jvm/testdata/Rows.scala"
	cases := []struct {
		name string
		in   []value.Value
		want []value.Value
	}{
		// Int arithmetic wraps on the JVM; null skips the call.
		{"plusOne", []value.Value{value.IntOf(1), value.NullValue(), value.IntOf(math.MaxInt32)},
			[]value.Value{value.IntOf(2), value.NullValue(), value.IntOf(math.MinInt32)}},
		{"half", []value.Value{value.DoubleOf(3), value.DoubleOf(-1)},
			[]value.Value{value.DoubleOf(1.5), value.DoubleOf(-0.5)}},
		// The object's initializer throws: each row reports it.
		{"f", []value.Value{value.IntOf(1), value.IntOf(2)},
			[]value.Value{value.ErrorOf("java.lang.ExceptionInInitializerError", ""), value.ErrorOf("java.lang.ExceptionInInitializerError", "")}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newRunner(t, parseUDF(t, file, c.name), runner.DefaultLimits)
			got, err := r.Run(context.Background(), column(c.in...))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.EqualFunc(got, c.want, value.Policy{}.Equal) {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
}

func TestPerRowExceptions(t *testing.T) {
	r := newRunner(t, parseUDF(t, "harness/runner/jvm/testdata/Rows.scala", "RejectNegative"), runner.DefaultLimits)
	got, err := r.Run(context.Background(), column(value.DoubleOf(1), value.DoubleOf(-2), value.DoubleOf(3), value.NullValue()))
	if err != nil {
		t.Fatal(err)
	}
	want := []value.Value{
		value.DoubleOf(2),
		value.ErrorOf("java.lang.IllegalArgumentException", "negative reading: -2.0"),
		value.DoubleOf(6),
		// A boxed parameter receives null, and Scala's implicit
		// java.lang.Double => Double conversion unboxes null to 0.0
		// (BoxesRunTime.unboxToDouble): no exception, unlike Java.
		value.DoubleOf(0),
	}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if !(value.Policy{}).Equal(got[i], want[i]) {
			t.Errorf("row %d: got %v, want %v", i, got[i], want[i])
		}
	}
	if got[1].Message != want[1].Message {
		t.Errorf("message: got %q, want %q", got[1].Message, want[1].Message)
	}
}

func TestJavaUnboxingNullThrows(t *testing.T) {
	r := newRunner(t, parseUDF(t, "harness/runner/jvm/testdata/Twice.java", "Twice"), runner.DefaultLimits)
	got, err := r.Run(context.Background(), column(value.DoubleOf(2.5), value.NullValue()))
	if err != nil {
		t.Fatal(err)
	}
	want := []value.Value{value.DoubleOf(5), value.ErrorOf("java.lang.NullPointerException", "")}
	if !slices.EqualFunc(got, want, value.Policy{}.Equal) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestJavaBoxedNull(t *testing.T) {
	r := newRunner(t, parseUDF(t, "harness/runner/jvm/testdata/Concat.java", "Concat"), runner.DefaultLimits)
	got, err := r.Run(context.Background(), [][]value.Value{
		{value.StringOf("a"), value.NullValue()},
		{value.StringOf(""), value.StringOf("ß")},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []value.Value{value.StringOf("a|null"), value.StringOf("|ß")}
	if !slices.EqualFunc(got, want, value.Policy{}.Equal) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestStringsRoundTrip(t *testing.T) {
	r := newRunner(t, parseUDF(t, "harness/runner/jvm/testdata/Rows.scala", "Identity"), runner.DefaultLimits)
	long := make([]uint16, 100_000)
	for i := range long {
		long[i] = uint16(i*7919) | 1
	}
	in := []value.Value{
		value.StringOf(""),
		value.StringOf(" "),
		value.StringOf("ß İ ı \u05e9\u05dc\u05d5\u05dd e\u0301"),
		value.StringOf("😀"),                      // one code point, two UTF-16 units
		value.UnitsOf([]uint16{0xd800}),          // lone high surrogate
		value.UnitsOf([]uint16{0x61, 0xdc00}),    // lone low surrogate
		value.UnitsOf([]uint16{0xde00, 0xd83d}),  // a pair in the wrong order
		value.UnitsOf([]uint16{0, 0xffff, 0x20}), // NUL and a noncharacter
		value.StringOf("%zz \\u0041 \n\t"),
		value.UnitsOf(long),
		value.NullValue(),
	}
	got, err := r.Run(context.Background(), column(in...))
	if err != nil {
		t.Fatal(err)
	}
	for i := range in {
		if got[i].Kind != in[i].Kind || !slices.Equal(got[i].Units, in[i].Units) {
			t.Errorf("row %d: got %v, want %v", i, got[i], in[i])
		}
	}
}

func TestTimeout(t *testing.T) {
	const limit = 5 * time.Second
	r := newRunner(t, parseUDF(t, "harness/runner/jvm/testdata/Rows.scala", "SpinAbove100"), runner.Limits{Timeout: limit, MemoryMB: 256})
	// The limit bounds evaluation, not the JVM's start, which a loaded
	// machine can stretch by seconds: start it with a row that returns.
	if got, err := r.Run(context.Background(), column(value.DoubleOf(0))); err != nil || len(got) != 1 {
		t.Fatalf("warm-up: got %v, %v", got, err)
	}
	start := time.Now()
	got, err := r.Run(context.Background(), column(value.DoubleOf(1), value.DoubleOf(2), value.DoubleOf(500), value.DoubleOf(3)))
	took := time.Since(start)
	var te *runner.TimeoutError
	if !errors.As(err, &te) {
		t.Fatalf("got %v, %v; want a TimeoutError", got, err)
	}
	if te.Row != 2 {
		t.Errorf("stopped at row %d, want 2", te.Row)
	}
	want := []value.Value{value.DoubleOf(2), value.DoubleOf(3)}
	if !slices.EqualFunc(got, want, value.Policy{}.Equal) {
		t.Errorf("results so far: got %v, want %v", got, want)
	}
	if took > limit+2*time.Second {
		t.Errorf("Run took %v with a %v limit", took, limit)
	}
	// The next Run starts a fresh JVM.
	got, err = r.Run(context.Background(), column(value.DoubleOf(5)))
	if err != nil || len(got) != 1 || got[0].Float64() != 6 {
		t.Errorf("after the timeout: got %v, %v; want [6.0]", got, err)
	}
}

func TestOutOfMemoryIsACrash(t *testing.T) {
	r := newRunner(t, parseUDF(t, "harness/runner/jvm/testdata/Rows.scala", "Hog"), runner.Limits{Timeout: 60 * time.Second, MemoryMB: 64})
	got, err := r.Run(context.Background(), column(value.IntOf(10), value.IntOf(100_000_000), value.IntOf(10)))
	var ce *runner.CrashError
	if !errors.As(err, &ce) {
		t.Fatalf("got %v, %v; want a CrashError", got, err)
	}
	if ce.Row != 1 || !strings.Contains(ce.Reason, "OutOfMemoryError") {
		t.Errorf("got %+v, want row 1 and an OutOfMemoryError", ce)
	}
	if len(got) != 1 || got[0].Int != 10 {
		t.Errorf("results so far: got %v, want [10]", got)
	}
}

func TestNotCallable(t *testing.T) {
	// Registered inside main and reading only its parameter: lifted into
	// an object of its own, it runs.
	r := newRunner(t, parseUDF(t, "harness/runner/jvm/testdata/Rows.scala", "triple"), runner.DefaultLimits)
	got, err := r.Run(context.Background(), column(value.IntOf(2)))
	if err != nil || len(got) != 1 || got[0].Int != 6 {
		t.Fatalf("triple(2): got %v, %v; want 6", got, err)
	}
	// Reading a local of main: the lambda exists only while the job runs.
	_, err = New(context.Background(), parseUDF(t, "harness/runner/jvm/testdata/Rows.scala", "scaledBy"), Options{CacheDir: testCache})
	var nc *runner.NotCallableError
	if !errors.As(err, &nc) || !strings.Contains(nc.Reason, "main") || !strings.Contains(nc.Reason, "factor") {
		t.Fatalf("got %v, want a NotCallableError that names main and factor", err)
	}
}

// A Java lambda registered inside a method runs from a static field of
// its class when it reads none of the method's locals nor its instance.
func TestJavaLambdasInsideMethods(t *testing.T) {
	const file = "harness/runner/jvm/testdata/Registrar.java"
	for _, c := range []struct {
		name string
		in   value.Value
		want int64
	}{
		{"str_len", value.StringOf("héllo"), 6},
		{"positive", value.IntOf(-4), 0},
	} {
		u := parseUDF(t, file, c.name)
		r := newRunner(t, u, runner.DefaultLimits)
		got, err := r.Run(context.Background(), column(c.in))
		require.NoError(t, err, c.name)
		require.Len(t, got, 1)
		switch got[0].Kind {
		case value.Bool:
			assert.Equal(t, c.want != 0, got[0].Bool, c.name)
		default:
			assert.Equal(t, c.want, got[0].Int, c.name)
		}
		assert.Contains(t, r.Describe(), "held by a static field of Registrar", c.name)
	}
	for name, reads := range map[string]string{"scaled": "factor", "times_scale": "this"} {
		_, err := New(context.Background(), parseUDF(t, file, name), Options{CacheDir: testCache})
		var nc *runner.NotCallableError
		require.ErrorAs(t, err, &nc, name)
		assert.Contains(t, nc.Reason, reads, name)
	}
}

func TestCompileErrors(t *testing.T) {
	cases := []struct {
		file, name string
		line       int
		msg        string
	}{
		{"harness/runner/jvm/testdata/Broken.scala", "Broken", 5, "type mismatch"},
		{"harness/runner/jvm/testdata/BrokenJava.java", "BrokenJava", 8, "incompatible types"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			u := parseUDF(t, c.file, c.name)
			_, err := New(context.Background(), u, Options{CacheDir: testCache})
			var ce *runner.CompileError
			if !errors.As(err, &ce) {
				t.Fatalf("got %v, want a CompileError", err)
			}
			if ce.File != u.File || ce.Line != c.line || !strings.Contains(ce.Msg, c.msg) {
				t.Errorf("got %s, want %s:%d: %s", ce, u.File, c.line, c.msg)
			}
		})
	}
}

func TestMissingJDK(t *testing.T) {
	u := parseUDF(t, "examples/java-to-fahrenheit/ToFahrenheit.java", "ToFahrenheit")
	cases := []struct {
		name string
		env  map[string]string
		msg  string
	}{
		{"JAVA_HOME nowhere", map[string]string{"JAVA_HOME": "/nonexistent/jdk", "PATH": ""}, "/nonexistent/jdk"},
		{"no JAVA_HOME, empty PATH", map[string]string{"PATH": ""}, "no javac on PATH"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env := func(k string) string { return c.env[k] }
			_, err := New(context.Background(), u, Options{CacheDir: testCache, Env: env})
			var ee *runner.EnvError
			if !errors.As(err, &ee) || ee.What != "JDK" || !strings.Contains(ee.Msg, c.msg) {
				t.Fatalf("got %v, want an EnvError about the JDK mentioning %q", err, c.msg)
			}
			if _, err := Toolchain(env); !errors.As(err, &ee) {
				t.Errorf("Toolchain: got %v, want an EnvError", err)
			}
		})
	}
}

func TestToolchain(t *testing.T) {
	tools, err := Toolchain(os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	if tools.JDKMajor < MinJDK || !execpath.IsExecutable(tools.Javac) {
		t.Errorf("JDK: %+v", tools)
	}
	if tools.SparkJars == "" || !strings.HasPrefix(tools.SparkVersion, "4.") {
		t.Errorf("Spark jars: %q version %q; notes %v", tools.SparkJars, tools.SparkVersion, tools.Notes)
	}
	if len(tools.ScalaJars) != 3 || !strings.HasPrefix(tools.ScalaVersion, "2.13.") {
		t.Errorf("Scala: %v %q; notes %v", tools.ScalaJars, tools.ScalaVersion, tools.Notes)
	}
}

// A checkout whose .venv links the environment of another finds Spark's
// jars under its own path; the class cache must see the same jars, or
// every checkout (every temporary repository of the CLI's tests)
// compiles each UDF anew.
func TestClasspathHashSeesThroughLinks(t *testing.T) {
	tools, err := Toolchain(os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "jars")
	if err := os.Symlink(tools.SparkJars, link); err != nil {
		t.Fatal(err)
	}
	direct, err := classpathHash(&tools)
	if err != nil {
		t.Fatal(err)
	}
	linked := tools
	linked.SparkJars = link
	viaLink, err := classpathHash(&linked)
	if err != nil {
		t.Fatal(err)
	}
	if direct != viaLink {
		t.Errorf("the same jars hash to %s directly and %s through a link", direct, viaLink)
	}
}

func TestJavaMajor(t *testing.T) {
	for v, want := range map[string]int{"1.8.0_392": 8, "17.0.15": 17, "21": 21, "11.0.2+9": 11, "": 0} {
		if got := JavaMajor(v); got != want {
			t.Errorf("JavaMajor(%q) = %d, want %d", v, got, want)
		}
	}
}

// TestCacheSkipsCompiler compiles the Scala example into a fresh cache,
// then builds a second Runner for it, which must reuse the classes.
func TestCacheSkipsCompiler(t *testing.T) {
	u := parseUDF(t, "examples/scala-to-fahrenheit/ToFahrenheit.scala", "ToFahrenheit")
	cache := t.TempDir()
	start := time.Now()
	r1, err := New(context.Background(), u, Options{CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	first := time.Since(start)
	start = time.Now()
	r2, err := New(context.Background(), u, Options{CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	second := time.Since(start)
	c1, hit1 := r1.CompileTime()
	_, hit2 := r2.CompileTime()
	if hit1 || !hit2 {
		t.Errorf("cache hits: first %v, second %v; want false, true", hit1, hit2)
	}
	t.Logf("New with scalac: %v (scalac %v); New from the cache: %v", first, c1, second)
	got, err := r2.Run(context.Background(), column(value.DoubleOf(100)))
	if err != nil || len(got) != 1 || got[0].Float64() != 212 {
		t.Errorf("cached classes: got %v, %v; want [212.0]", got, err)
	}
	r2.Close()
}

func BenchmarkRunDoubleUDF(b *testing.B) {
	u := parseUDF(b, "examples/scala-to-fahrenheit/ToFahrenheit.scala", "ToFahrenheit")
	r := newRunner(b, u, runner.Limits{Timeout: 5 * time.Minute, MemoryMB: 1024})
	const n = 1_000_000
	rows := make([][]value.Value, n)
	for i := range rows {
		rows[i] = []value.Value{value.DoubleOf(float64(i)*0.37 - 1000)}
	}
	// Start the JVM and let the JIT compile the hot path: start-up is
	// not what this measures.
	if _, err := r.Run(context.Background(), rows[:200_000]); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		got, err := r.Run(context.Background(), rows)
		if err != nil || len(got) != n {
			b.Fatalf("got %d results, %v", len(got), err)
		}
		if last := rows[n-1][0].Float64(); got[n-1].Bits != math.Float64bits(fahrenheit(last)) {
			b.Fatalf("last row: got %v, want %v", got[n-1], fahrenheit(last))
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

func days(y int, m time.Month, d int) int64 {
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400
}

// TestArgumentClasses checks that the driver hands each UDF the objects
// Spark 4.1.1 hands it: the expected strings are testdata/SparkArgClasses.txt,
// the output of a real Spark run.
func TestArgumentClasses(t *testing.T) {
	mustType := func(s string) *udf.Type {
		ty, err := udf.ParseType(s)
		if err != nil {
			t.Fatal(err)
		}
		return ty
	}
	dec := func(unscaled int64, scale int32) value.Value { return value.DecimalOf(big.NewInt(unscaled), scale) }
	dec18 := value.DecimalOf(new(big.Int).Mul(big.NewInt(15), new(big.Int).Exp(big.NewInt(10), big.NewInt(17), nil)), 18)
	cases := []struct {
		file, name, typ string // typ overrides the parameter's type when set
		in              value.Value
		want            string
	}{
		{"Kinds.java", "Kinds", "decimal(10,2)", dec(150, 2), "java.math.BigDecimal=1.50"},
		{"Kinds.java", "Kinds", "date", value.DateOf(days(2020, 1, 2)), "java.sql.Date=2020-01-02"},
		{"Kinds.java", "Kinds", "timestamp", value.TimestampOf(time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC).UnixMicro()), "java.sql.Timestamp=2020-01-02 03:04:05.0"},
		{"Kinds.java", "Kinds", "array<int>", value.ArrayOf(value.IntOf(1), value.IntOf(2)), "scala.collection.immutable.ArraySeq$ofRef=ArraySeq(1, 2)"},
		{"Kinds.java", "Kinds", "map<string,int>", value.MapOf(value.StringOf("a"), value.IntOf(1)), "scala.collection.immutable.Map$Map1=Map(a -> 1)"},
		{"Kinds.java", "Kinds", "struct<a:int,b:string>", value.StructOf(value.IntOf(1), value.StringOf("x")), "org.apache.spark.sql.catalyst.expressions.GenericRowWithSchema=[1,x]"},
		{"Kinds.java", "Kinds", "tinyint", value.IntOf(1), "java.lang.Byte=1"},
		// java.sql.Date is Julian before 1582-10-15, as Spark converts it.
		{"Kinds.java", "Kinds", "date", value.DateOf(days(1582, 10, 10)), "java.sql.Date=1582-10-15"},
		{"Kinds.scala", "sbd", "", dec18, "scala.math.BigDecimal=1.500000000000000000"},
		{"Kinds.scala", "sseq", "", value.ArrayOf(value.IntOf(1), value.IntOf(2)), "scala.collection.immutable.$colon$colon=List(1, 2)"},
		{"Kinds.scala", "sld", "", value.DateOf(days(2020, 1, 2)), "java.time.LocalDate=2020-01-02"},
		{"Kinds.scala", "sdate", "", value.DateOf(days(1, 1, 1)), "java.sql.Date=0001-01-01"},
	}
	for _, c := range cases {
		t.Run(c.name+"/"+c.want, func(t *testing.T) {
			u := parseUDF(t, "harness/runner/jvm/testdata/"+c.file, c.name)
			if c.typ != "" {
				u.Params[0].Type = mustType(c.typ)
			}
			r := newRunner(t, u, runner.DefaultLimits)
			got, err := r.Run(context.Background(), column(c.in))
			if err != nil {
				t.Fatal(err)
			}
			if got[0].GoString() != c.want {
				t.Errorf("got %v, want %q", got[0], c.want)
			}
		})
	}
}

// TestResultTokens checks how results of other types come back: raw, for
// udfx to convert to the declared return type as Spark would.
func TestResultTokens(t *testing.T) {
	cases := []struct {
		name string
		in   value.Value
		want string
	}{
		{"dateOf", value.IntOf(18263), "D18263"},
		{"decimal", value.StringOf("-1.50"), "m-150@2"},
		{"decimal", value.StringOf("1e-40"), "m1@40"},
		{"pair", value.IntOf(3), "( i3 s006e0033 )"},
		{"list", value.IntOf(3), "[ i0 i1 i2 ]"},
		{"opt", value.IntOf(2), "f40000000"},
		{"opt", value.IntOf(0), "N"},
	}
	for _, c := range cases {
		t.Run(c.name+"/"+c.want, func(t *testing.T) {
			r := newRunner(t, parseUDF(t, "harness/runner/jvm/testdata/Kinds.scala", c.name), runner.DefaultLimits)
			got, err := r.Run(context.Background(), column(c.in))
			if err != nil {
				t.Fatal(err)
			}
			if tok := value.Token(got[0]); tok != c.want {
				t.Errorf("got %s, want %s", tok, c.want)
			}
		})
	}
}

// A UDF defined inside main is held by an object of its own, with the
// file's package and imports and its object's members; one that reads a
// local of main is refused, naming it.
func TestAUDFDefinedInsideMain(t *testing.T) {
	u := parseUDF(t, "harness/runner/jvm/testdata/LocalUdfs.scala", "toF")
	r := newRunner(t, u, runner.DefaultLimits)
	got, err := r.Run(context.Background(), column(value.DoubleOf(100), value.DoubleOf(-40)))
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Float64() != 212 || got[1].Float64() != -40 {
		t.Errorf("got %v, want 212 and -40", got)
	}
	if !strings.Contains(r.Describe(), "defined inside LocalUdfs.main, held by an object of its own") {
		t.Errorf("Describe: %s", r.Describe())
	}

	_, err = New(context.Background(), parseUDF(t, "harness/runner/jvm/testdata/LocalUdfs.scala", "scaled"), Options{CacheDir: testCache})
	var nc *runner.NotCallableError
	if !errors.As(err, &nc) || !strings.Contains(nc.Reason, "scaled is defined inside LocalUdfs.main and reads its factor") {
		t.Fatalf("got %v, want a NotCallableError naming factor", err)
	}
}

// A UDF in a module of a Maven build compiles and runs with what the
// build declares: a library beyond Spark's jars (jspecify's @Nullable)
// and a class of a sibling module (@UdfName, Units), as the job has them.
func TestAUDFOfAMavenModuleRunsWithItsBuildsClasspath(t *testing.T) {
	u := parseUDF(t, "harness/buildpath/testdata/shop/udfs/src/main/java/com/acme/udfs/NormalizeSku.java", "NormalizeSku")
	r := newRunner(t, u, runner.DefaultLimits)
	got, err := r.Run(context.Background(), column(value.StringOf("ab 12"), value.NullValue()))
	if err != nil {
		t.Fatal(err)
	}
	if value.Token(got[0]) != value.Token(value.StringOf("SKU-ab12")) || got[1].Kind != value.Null {
		t.Errorf("got %v, want SKU-ab12 and null", got)
	}
	if !strings.Contains(r.Describe(), "udfs/pom.xml's classpath (1 library, 4 source folders)") {
		t.Errorf("Describe: %s", r.Describe())
	}

	u = parseUDF(t, "harness/buildpath/testdata/shop/udfs/src/main/scala/com/acme/udfs/Distances.scala", "toKm")
	r = newRunner(t, u, runner.DefaultLimits)
	got, err = r.Run(context.Background(), column(value.DoubleOf(10)))
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Float64() != 16.09344 {
		t.Errorf("got %v, want 16.09344", got)
	}
}

// A UDF in a project of a Gradle build compiles and runs with what the
// scripts declare, read and never run: its sibling project's helper
// (project(':common')) and the library that helper loads at run time.
func TestAUDFOfAGradleProjectRunsWithItsBuildsClasspath(t *testing.T) {
	u := parseUDF(t, "harness/buildpath/testdata/rides/udfs/src/main/java/com/acme/rides/udfs/FareBand.java", "FareBand")
	r := newRunner(t, u, runner.DefaultLimits)
	got, err := r.Run(context.Background(), column(value.DoubleOf(4), value.DoubleOf(25), value.NullValue()))
	if err != nil {
		t.Fatal(err)
	}
	want := []value.Value{value.StringOf("short/nullable"), value.StringOf("long/nullable"), value.NullValue()}
	for i := range want {
		if value.Token(got[i]) != value.Token(want[i]) {
			t.Errorf("row %d: got %s, want %s", i, got[i], want[i])
		}
	}
	if !strings.Contains(r.Describe(), "udfs/build.gradle's classpath (1 library, 2 source folders)") {
		t.Errorf("Describe: %s", r.Describe())
	}
}

// UDFX_CLASSPATH replaces the build's classpath for a build udfx does not
// read: a UDF whose helper comes from a class folder and a jar (dir/*)
// compiled elsewhere compiles and runs with them.
func TestUDFXClasspathGivesTheOriginalsLibraries(t *testing.T) {
	tools, err := Toolchain(os.Getenv)
	require.NoError(t, err)
	work := t.TempDir()
	write := func(rel, text string) string {
		p := filepath.Join(work, filepath.FromSlash(rel))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
		return p
	}
	// Two helper libraries, built outside udfx as a Bazel or Mill build
	// would: one left as a class folder, one packed into a jar.
	prefix := write("lib/src/acme/Prefix.java", "package acme;\npublic final class Prefix { public static String of(String s) { return \"id-\" + s; } }\n")
	suffix := write("lib/src/acme/Suffix.java", "package acme;\npublic final class Suffix { public static String of(String s) { return s + \"!\"; } }\n")
	out, err := exec.Command(tools.Javac, "-d", filepath.Join(work, "classes"), prefix).CombinedOutput()
	require.NoError(t, err, "%s", out)
	out, err = exec.Command(tools.Javac, "-d", filepath.Join(work, "suffix"), suffix).CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.NoError(t, os.MkdirAll(filepath.Join(work, "jars"), 0o755))
	out, err = exec.Command(filepath.Join(tools.JavaHome, "bin", "jar"), "cf", filepath.Join(work, "jars", "suffix.jar"), "-C", filepath.Join(work, "suffix"), ".").CombinedOutput()
	require.NoError(t, err, "%s", out)
	src := write("repo/src/Tag.java", `import org.apache.spark.sql.api.java.UDF1;

public class Tag implements UDF1<String, String> {
  @Override
  public String call(String s) {
    return s == null ? null : acme.Suffix.of(acme.Prefix.of(s));
  }
}
`)
	u := parseUDF(t, src, "Tag")
	u.Root = filepath.Join(work, "repo")
	env := func(k string) string {
		if k == "UDFX_CLASSPATH" {
			return filepath.Join(work, "classes") + string(os.PathListSeparator) + filepath.Join(work, "jars", "*")
		}
		return os.Getenv(k)
	}
	r, err := New(context.Background(), u, Options{Limits: runner.DefaultLimits, CacheDir: testCache, Env: env})
	require.NoError(t, err)
	t.Cleanup(func() { r.Close() })
	got, err := r.Run(context.Background(), column(value.StringOf("7"), value.NullValue()))
	require.NoError(t, err)
	assert.Equal(t, value.Token(value.StringOf("id-7!")), value.Token(got[0]))
	assert.Equal(t, value.Null, got[1].Kind)
	assert.Contains(t, r.Describe(), "UDFX_CLASSPATH's classpath (2 libraries, 0 source folders)")

	// Without it, the same source does not compile: the libraries came
	// from the variable, not from anywhere else.
	_, err = New(context.Background(), u, Options{Limits: runner.DefaultLimits, CacheDir: testCache})
	var ce *runner.CompileError
	require.ErrorAs(t, err, &ce)
}

// The result types udfx's reading of the source leaves open are read from
// the compiled original: for a val, the types Spark's udf(...) derived
// from scalac's TypeTags (a match over doubles, BigDecimal(...).toDouble,
// an Option chain, a val lifted out of main); for a method reference, the
// def's JVM signature.
func TestTheTypesScalacGaveAreReadFromTheCompiledUDF(t *testing.T) {
	for name, want := range map[string]string{
		"band":       "double",
		"cents":      "double",
		"firstField": "string",
		"bucket":     "string",
		"halve":      "bigint",
	} {
		u := parseUDF(t, "harness/runner/jvm/testdata/ScalacTypes.scala", name)
		if u.Return != nil {
			t.Fatalf("%s: the front-end now infers %s; pick a result type it does not", name, u.Return)
		}
		ct, err := ReadCompiledTypes(context.Background(), u, Options{CacheDir: testCache})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if ct.Return == nil || ct.Return.String() != want {
			t.Errorf("%s: scalac's result type read as %v, want %s", name, ct.Return, want)
		}
		if len(ct.Params) != 1 || ct.Params[0] == nil || ct.Params[0].String() != u.Params[0].Type.String() {
			t.Errorf("%s: scalac's parameter types read as %v, want %s", name, ct.Params, u.Params[0].Type)
		}
	}
}

// A UDF a def makes runs as the def called with the literals of the
// job's calls; literals from a record (bound when no call is left) must
// be the def's own parameters given one literal each, or it is not run:
// the holder compiles them as code.
func TestAFactoryUDFRunsWithItsCallsLiterals(t *testing.T) {
	u := parseUDF(t, "harness/translate/testdata/Factories.scala", "scaleBy")
	r := newRunner(t, u, runner.DefaultLimits)
	got, err := r.Run(context.Background(), column(value.DoubleOf(1.5), value.NullValue()))
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Float64() != 3 || got[1].Kind != value.Null {
		t.Errorf("got %v, want 3 and null", got)
	}
	for bad, why := range map[udf.FactoryArg]string{
		{Param: "factor", Literal: "{ java.lang.System.exit(3); 2.5 }"}: `factor is given "{ java.lang.System.exit(3); 2.5 }", which is not one Scala literal`,
		{Param: "factor: Double = 1.0; val x", Literal: "2.5"}:          `argument 1 is for "factor: Double = 1.0; val x", not its parameter factor`,
	} {
		v := *u
		v.Factory = u.Factory.Bind([]udf.FactoryArg{bad})
		assert.Nil(t, LiftedSource(&v), "%+v", bad)
		_, err = New(context.Background(), &v, Options{CacheDir: testCache})
		var nc *runner.NotCallableError
		if !errors.As(err, &nc) || !strings.Contains(nc.Reason, "scaleBy is made by scaleBy, called with the literals its parameters hold: "+why) {
			t.Fatalf("%+v: got %v, want a NotCallableError", bad, err)
		}
	}
}
