package cuda_test

import (
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/gpu/native"
	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/inputs"
	"github.com/udfx/udfx/harness/render/cuda"
	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/runner/runners"
	"github.com/udfx/udfx/harness/testsetup"
	"github.com/udfx/udfx/harness/translate"
	"github.com/udfx/udfx/harness/translate/ir"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/udf/frontends"
	"github.com/udfx/udfx/harness/value"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

const record = ".udfx/ToFahrenheit/evidence.json"

var examples = []struct{ name, file, udf string }{
	{"scala", "../../examples/scala-to-fahrenheit/ToFahrenheit.scala", "ToFahrenheit"},
	{"java", "../../examples/java-to-fahrenheit/ToFahrenheit.java", "ToFahrenheit"},
}

// translated finds the UDF with the real front-end and translates it.
func translated(t *testing.T, file, name string) (*udf.UDF, ir.Expr) {
	t.Helper()
	src, err := os.ReadFile(file)
	require.NoError(t, err)
	lang := map[string]udf.Language{".scala": udf.Scala, ".java": udf.Java, ".py": udf.Python}[filepath.Ext(file)]
	fe := frontends.New(lang)
	defer fe.Close()
	us, err := fe.Parse(file, src)
	require.NoError(t, err)
	for i := range us {
		if us[i].Name == name {
			res, err := translate.Translate(&us[i], src)
			require.NoError(t, err)
			require.Empty(t, res.Declines)
			require.NotNil(t, res.IR)
			return &us[i], res.IR
		}
	}
	require.Failf(t, "no UDF", "%s in %s", name, file)
	return nil, nil
}

func TestRenderGolden(t *testing.T) {
	for _, ex := range examples {
		t.Run(ex.name, func(t *testing.T) {
			u, e := translated(t, ex.file, ex.udf)
			files, err := cuda.Render(u, e, record)
			require.NoError(t, err)
			var paths []string
			for _, f := range files {
				paths = append(paths, f.Path)
				got, err := evidence.FindMarker(f.Content)
				require.NoError(t, err, f.Path)
				assert.Equal(t, record, got, "%s names its record", f.Path)
				golden := filepath.Join("testdata", ex.name, f.Path+".golden")
				if *update {
					require.NoError(t, os.MkdirAll(filepath.Dir(golden), 0o755))
					require.NoError(t, os.WriteFile(golden, f.Content, 0o644))
					continue
				}
				want, err := os.ReadFile(golden)
				require.NoError(t, err, "run go test -update to create %s", golden)
				assert.Equal(t, string(want), string(f.Content), f.Path)
			}
			assert.Equal(t, []string{cuda.RowHeader, cuda.Kernel, cuda.JNI, "java/udfx/cuda/ToFahrenheitCuda.java", cuda.CMake, cuda.JVMHeader}, paths)
		})
	}
}

// rowsOf generates the differential test's inputs for u: every special
// value of each parameter type, the all-null row, then seeded randoms.
func rowsOf(t *testing.T, u *udf.UDF, n int) [][]value.Value {
	t.Helper()
	params := make([]inputs.Param, len(u.Params))
	for i, p := range u.Params {
		params[i] = inputs.Param{Name: p.Name, Type: p.Type}
	}
	rec, stats, err := inputs.Generate(params, inputs.Options{Seed: 7, Rows: n}, memory.NewGoAllocator())
	require.NoError(t, err)
	defer rec.Release()
	require.Equal(t, n, stats.Rows)
	rows := make([][]value.Value, rec.NumRows())
	for i := range rows {
		for _, c := range rec.Columns() {
			rows[i] = append(rows[i], value.FromArrow(c, i))
		}
	}
	return rows
}

// agree runs the real original (JVM or CPython, through runners.New) and
// the host build of the rendered per-row function on rows and requires
// bit-exact equal results on every row (NaN payloads aside, as
// value.Policy{} has it).
func agree(t *testing.T, u *udf.UDF, e ir.Expr, rows [][]value.Value) {
	t.Helper()
	ctx := context.Background()
	files, err := cuda.Render(u, e, record)
	require.NoError(t, err)

	start := time.Now()
	host, err := native.HostRunner(ctx, files, u, runner.DefaultLimits)
	require.NoError(t, err)
	defer host.Close()
	build := time.Since(start)
	start = time.Now()
	got, err := host.Run(ctx, rows)
	require.NoError(t, err)
	hostRun := time.Since(start)

	start = time.Now()
	orig, err := runners.New(ctx, u, runner.DefaultLimits)
	require.NoError(t, err)
	defer orig.Close()
	want, err := orig.Run(ctx, rows)
	require.NoError(t, err)
	origRun := time.Since(start)

	require.Len(t, got, len(rows))
	require.Len(t, want, len(rows))
	for i := range rows {
		if !(value.Policy{}).Equal(want[i], got[i]) {
			t.Fatalf("row %d %v: original %s, CUDA per-row %s", i, rows[i], value.Token(want[i]), value.Token(got[i]))
		}
	}
	t.Logf("%s: %d rows equal; g++ build %v, host run %v, original %v (%s)",
		u.Name, len(rows), build.Round(time.Millisecond), hostRun.Round(time.Millisecond), origRun.Round(time.Millisecond), orig.Describe())
	n := deviceCase(t, u.Name, files, rows, want)
	javaAgrees(t, files, rows[:n], want[:n])
}

// sameResults requires the stored results to equal want under
// value.Policy{}.
func sameResults(t *testing.T, path, stored string, want []value.Value) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(stored, "\n"), "\n")
	require.Len(t, lines, len(want), "%s is stale: run go test -update", path)
	for i, l := range lines {
		v, err := value.ParseToken(l)
		require.NoError(t, err, "%s:%d", path, i+1)
		if !(value.Policy{}).Equal(want[i], v) {
			t.Fatalf("%s:%d is stale (%s, the original now gives %s): run go test -update", path, i+1, l, value.Token(want[i]))
		}
	}
}

// javaAgrees compiles the rendered RapidsUDF class against Spark's jars
// and the real cuDF and RAPIDS artifacts, then runs its CPU path (call)
// on rows and requires the original's results.
func javaAgrees(t *testing.T, files []cuda.File, rows [][]value.Value, want []value.Value) {
	t.Helper()
	jars, _ := filepath.Glob(filepath.Join("..", "..", ".venv", "lib", "python3*", "site-packages", "pyspark", "jars"))
	require.NotEmpty(t, jars, "no .venv with pyspark above the test folder (testsetup.Prepare links one)")
	cp := []string{filepath.Join(jars[0], "*")}
	cudf, rapids := testsetup.RapidsJars(t)
	cp = append(cp, cudf, rapids)
	dir := t.TempDir()
	var class string
	srcs := []string{filepath.Join("testdata", "java-harness", "RowsMain.java")}
	for _, f := range files {
		if strings.HasSuffix(f.Path, ".java") {
			p := filepath.Join(dir, filepath.Base(f.Path))
			require.NoError(t, os.WriteFile(p, f.Content, 0o644))
			srcs = append(srcs, p)
			class = "udfx.cuda." + strings.TrimSuffix(filepath.Base(f.Path), ".java")
		}
	}
	require.NotEmpty(t, class)
	classes := filepath.Join(dir, "classes")
	out, err := exec.Command("javac", append([]string{"-J-XX:TieredStopAtLevel=1", "-cp", strings.Join(cp, ":"), "-d", classes}, srcs...)...).CombinedOutput()
	require.NoError(t, err, "javac: %s", out)

	var in strings.Builder
	for _, r := range rows {
		for j, v := range r {
			if j > 0 {
				in.WriteByte(' ')
			}
			in.WriteString(value.Token(v))
		}
		in.WriteByte('\n')
	}
	cmd := exec.Command("java", "-cp", classes+":"+strings.Join(cp, ":"), "RowsMain", class)
	cmd.Stdin = strings.NewReader(in.String())
	var stderr strings.Builder
	cmd.Stderr = &stderr
	res, err := cmd.Output()
	require.NoError(t, err, "java: %s", stderr.String())
	lines := strings.Split(strings.TrimSuffix(string(res), "\n"), "\n")
	require.Len(t, lines, len(rows))
	for i, l := range lines {
		got, err := value.ParseToken(l)
		require.NoError(t, err)
		if !(value.Policy{}).Equal(want[i], got) {
			t.Fatalf("row %d %v: original %s, generated Java call %s", i, rows[i], value.Token(want[i]), l)
		}
	}
}

// deviceRows is how many rows (the specials first) a device case keeps.
const deviceRows = 2000

// deviceCase keeps (with -update) or checks testdata/device/<name>: the
// per-row function's headers, the first rows and the original's results on
// them, for gpu/device/check.sh to run on a GPU. Checking them here keeps
// them from going stale, and runs check.sh with g++.
func deviceCase(t *testing.T, name string, files []cuda.File, rows [][]value.Value, want []value.Value) int {
	t.Helper()
	n := min(deviceRows, len(rows))
	var in, res strings.Builder
	for i := range n {
		for j, v := range rows[i] {
			if j > 0 {
				in.WriteByte(' ')
			}
			in.WriteString(value.Token(v))
		}
		in.WriteByte('\n')
		res.WriteString(value.Token(want[i]) + "\n")
	}
	content := map[string]string{"rows.txt": in.String(), "want.txt": res.String()}
	// The case keeps its own udf_row.h; check.sh takes udfx_jvm.h from
	// gpu/include, the copy Render ships.
	for _, f := range files {
		if f.Path == cuda.RowHeader {
			content[f.Path] = string(f.Content)
		}
	}
	dir := filepath.Join("testdata", "device", name)
	for p, c := range content {
		path := filepath.Join(dir, p)
		if *update {
			require.NoError(t, os.MkdirAll(dir, 0o755))
			require.NoError(t, os.WriteFile(path, []byte(c), 0o644))
			continue
		}
		stored, err := os.ReadFile(path)
		require.NoError(t, err, "run go test -update to create %s", path)
		if p == "want.txt" {
			// The original's NaN results were seen to change sign and
			// payload bits between two runs of the same JVM (MathOps), so
			// results compare as the policy does: NaN equals NaN.
			sameResults(t, path, string(stored), want[:n])
			continue
		}
		if string(stored) != c {
			t.Fatalf("%s is stale: run go test -update", path)
		}
	}
	cmd := exec.Command("sh", "../../gpu/device/check.sh", dir)
	cmd.Env = append(os.Environ(), "UDFX_CXX=g++")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Contains(t, string(out), fmt.Sprintf("%d rows, 0 mismatches", n))
	return n
}

// TestHostDifferential checks the examples' CUDA rewrites on the host
// against the real JVM on 10,000 rows, every special double included.
func TestHostDifferential(t *testing.T) {
	for _, ex := range examples {
		t.Run(ex.name, func(t *testing.T) {
			u, e := translated(t, ex.file, ex.udf)
			rows := rowsOf(t, u, 10_000)
			specials := map[string]bool{}
			for _, r := range rows {
				f := r[0].Float64()
				switch {
				case r[0].Kind != value.Double:
				case math.IsNaN(f):
					specials["NaN"] = true
				case math.IsInf(f, 0):
					specials["Inf"] = true
				case r[0].Bits == 1<<63:
					specials["-0.0"] = true
				case f != 0 && math.Abs(f) < 0x1p-1022:
					specials["subnormal"] = true
				}
			}
			require.Len(t, specials, 4, "the inputs hold NaN, infinities, -0.0 and subnormals")
			agree(t, u, e, rows)
		})
	}
}

// TestHostDifferentialOps checks every operation the renderer supports on
// the host against the real JVM: the UDFs in testdata/ops, translated by
// the real translator.
func TestHostDifferentialOps(t *testing.T) {
	for _, name := range []string{"IntOps", "LongOps", "LongNeg", "MaxMin", "RoundAbs", "ToInt", "ToLong", "MathOps", "Compare", "Mixed"} {
		t.Run(name, func(t *testing.T) {
			u, e := translated(t, filepath.Join("testdata", "ops", name+".java"), name)
			agree(t, u, e, rowsOf(t, u, 10_000))
		})
	}
}

// loaded finds the UDF called name in file with the real front-end.
func loaded(t *testing.T, file, name string) *udf.UDF {
	t.Helper()
	src, err := os.ReadFile(file)
	require.NoError(t, err)
	fe := frontends.New(udf.Java)
	defer fe.Close()
	us, err := fe.Parse(file, src)
	require.NoError(t, err)
	for i := range us {
		if us[i].Name == name {
			return &us[i]
		}
	}
	require.Failf(t, "no UDF", "%s in %s", name, file)
	return nil
}

// TestHostDifferentialHandIR checks what the translator declines but the
// renderer supports against the real JVM: 64-bit wrapping, division and
// remainder (Spark's BIGINT raises where the JVM wraps, so the translator
// has no SQL form) and float parameters. The IR is written here, node for
// node with the Java body in testdata/ops.
func TestHostDifferentialHandIR(t *testing.T) {
	a, b := col("a", i64()), col("b", i64())
	bin := func(op ir.Op, l, r ir.Expr) ir.Expr { return &ir.Binary{Op: op, L: l, R: r, T: l.Type()} }
	call := func(fn ir.Func, x, y ir.Expr) ir.Expr { return &ir.Call{Fn: fn, Args: []ir.Expr{x, y}, T: i64()} }
	anyNull := func(x, y ir.Expr) ir.Expr {
		return &ir.Binary{Op: ir.Or, L: &ir.IsNull{X: x}, R: &ir.IsNull{X: y}, T: boo()}
	}
	// Math.max(a * b + a - b * 1000003L, a / -1L) - Math.min(a % 9L, b / 3L)
	longOps := &ir.If{Cond: anyNull(a, b), Then: lit(i64(), nil), Else: bin(ir.JavaIntSub,
		call(ir.MaxInt,
			bin(ir.JavaIntSub, bin(ir.JavaIntAdd, bin(ir.JavaIntMul, a, b), a), bin(ir.JavaIntMul, b, lit(i64(), int64(1000003)))),
			bin(ir.JavaIntDiv, a, lit(i64(), int64(-1)))),
		call(ir.MinInt, bin(ir.JavaIntRem, a, lit(i64(), int64(9))), bin(ir.JavaIntDiv, b, lit(i64(), int64(3)))))}
	// f * 3.0 + n, f widened from float and n from int
	f, n := col("f", flt()), col("n", i32())
	floatOps := &ir.If{Cond: anyNull(f, n), Then: lit(dbl(), nil), Else: bin(ir.DoubleAdd,
		bin(ir.DoubleMul, &ir.Cast{Kind: ir.Widen, X: f, To: dbl()}, lit(dbl(), 3.0)),
		&ir.Cast{Kind: ir.Widen, X: n, To: dbl()})}
	// v != null && v > 0 || w == null || w < -5: the right operand of &&
	// is NULL where v is, and AND/OR decide without it there.
	v, w := col("v", i64()), col("w", i64())
	and := func(op ir.Op, l, r ir.Expr) ir.Expr { return &ir.Binary{Op: op, L: l, R: r, T: boo()} }
	positive := and(ir.Or,
		and(ir.Or,
			and(ir.And, &ir.Unary{Op: ir.Not, X: &ir.IsNull{X: v}, T: boo()}, and(ir.Gt, v, lit(i64(), int64(0)))),
			&ir.IsNull{X: w}),
		and(ir.Lt, w, lit(i64(), int64(-5))))
	for name, e := range map[string]ir.Expr{"LongOps": longOps, "FloatOps": floatOps, "Positive": positive} {
		t.Run(name, func(t *testing.T) {
			u := loaded(t, filepath.Join("testdata", "ops", name+".java"), name)
			agree(t, u, e, rowsOf(t, u, 10_000))
		})
	}
}

func dbl() *udf.Type                    { return udf.Prim(udf.Double) }
func i32() *udf.Type                    { return udf.Prim(udf.Int) }
func i64() *udf.Type                    { return udf.Prim(udf.Long) }
func boo() *udf.Type                    { return udf.Prim(udf.Boolean) }
func str() *udf.Type                    { return udf.Prim(udf.String) }
func flt() *udf.Type                    { return udf.Prim(udf.Float) }
func col(n string, t *udf.Type) *ir.Col { return &ir.Col{Name: n, T: t} }
func lit(t *udf.Type, v any) *ir.Lit    { return &ir.Lit{T: t, Value: v} }

func udfOf(ret *udf.Type, params ...udf.Param) *udf.UDF {
	return &udf.UDF{Name: "Ops", Language: udf.Java, Params: params, Return: ret}
}

func TestRenderDeclines(t *testing.T) {
	x := udf.Param{Name: "x", Type: dbl()}
	n := udf.Param{Name: "n", Type: i32()}
	s := udf.Param{Name: "s", Type: str()}
	cases := []struct {
		name string
		u    *udf.UDF
		e    ir.Expr
		what string
	}{
		{"int division by a column", udfOf(i32(), n),
			&ir.Binary{Op: ir.JavaIntDiv, L: lit(i32(), int64(7)), R: col("n", i32()), T: i32()}, "ArithmeticException"},
		{"python division by a column", udfOf(dbl(), x),
			&ir.Binary{Op: ir.PyFloatDiv, L: lit(dbl(), 1.0), R: col("x", dbl()), T: dbl()}, "divisor that may be zero"},
		{"double remainder by zero", udfOf(dbl(), x),
			&ir.Binary{Op: ir.DoubleRemNonZero, L: col("x", dbl()), R: lit(dbl(), 0.0), T: dbl()}, "divisor that may be zero"},
		{"string parameter", udfOf(boo(), s),
			&ir.Call{Fn: ir.StartsWith, Args: []ir.Expr{col("s", str()), lit(str(), "a")}, T: boo()}, "parameter s of type string"},
		{"string function", udfOf(boo(), x),
			&ir.Call{Fn: ir.Contains, Args: []ir.Expr{lit(str(), "ab"), lit(str(), "a")}, T: boo()}, "string"},
		{"decimal result", udfOf(udf.DecimalOf(10, 2), x), lit(udf.DecimalOf(10, 2), nil), "return value of type decimal(10,2)"},
		{"ordering booleans", udfOf(boo(), udf.Param{Name: "b", Type: boo()}),
			&ir.Binary{Op: ir.Lt, L: col("b", boo()), R: lit(boo(), true), T: boo()}, "operator < on boolean"},
		{"d2i of a float", udfOf(i32(), udf.Param{Name: "f", Type: flt()}),
			&ir.Cast{Kind: ir.JVMDoubleToInt, X: col("f", flt()), To: i32()}, "jvm-d2i from float"},
		{"narrowing called widen", udfOf(i32(), x),
			&ir.Cast{Kind: ir.Widen, X: col("x", dbl()), To: i32()}, "widen from double to int"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files, err := cuda.Render(c.u, c.e, record)
			assert.Nil(t, files)
			var re *ir.RenderError
			require.ErrorAs(t, err, &re)
			assert.Equal(t, "CUDA C++", re.Target)
			assert.Contains(t, re.What, c.what)
		})
	}
}

func TestHostBuildFailure(t *testing.T) {
	u := udfOf(dbl(), udf.Param{Name: "x", Type: dbl()})
	files, err := cuda.Render(u, col("x", dbl()), record)
	require.NoError(t, err)
	for i := range files {
		if files[i].Path == cuda.RowHeader {
			files[i].Content = []byte(strings.Replace(string(files[i].Content), "*out =", "*out = undeclared_name +", 1))
		}
	}
	_, err = native.HostRunner(context.Background(), files, u, runner.DefaultLimits)
	var be *native.BuildError
	require.ErrorAs(t, err, &be)
	assert.Contains(t, be.Output, "undeclared_name")
	assert.Contains(t, err.Error(), "-ffp-contract=off")

	_, err = native.HostRunner(context.Background(), files[:1], u, runner.DefaultLimits)
	assert.ErrorContains(t, err, "lack udfx_jvm.h")
}

func TestHostRunnerBadInput(t *testing.T) {
	u := udfOf(dbl(), udf.Param{Name: "x", Type: dbl()})
	files, err := cuda.Render(u, col("x", dbl()), record)
	require.NoError(t, err)
	r, err := native.HostRunner(context.Background(), files, u, runner.DefaultLimits)
	require.NoError(t, err)
	defer r.Close()
	got, err := r.Run(context.Background(), [][]value.Value{{value.DoubleOf(1.5)}, {value.IntOf(3)}})
	var ce *runner.CrashError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, 1, ce.Row)
	assert.Contains(t, ce.Output, "row 1: parameter 0 wants a double token")
	assert.Empty(t, got)

	got, err = r.Run(context.Background(), [][]value.Value{{value.DoubleOf(1.5)}, {value.NullValue()}})
	require.NoError(t, err)
	assert.Equal(t, []value.Value{value.DoubleOf(1.5), value.NullValue()}, got)
}

// TestDeviceCheckMismatch shows gpu/device/check.sh failing, with the row,
// when a result differs from the original's.
func TestDeviceCheckMismatch(t *testing.T) {
	src := filepath.Join("testdata", "device", "ToInt")
	dir := t.TempDir()
	for _, f := range []string{cuda.RowHeader, "rows.txt", "want.txt"} {
		b, err := os.ReadFile(filepath.Join(src, f))
		require.NoError(t, err)
		if f == "want.txt" {
			lines := strings.SplitAfterN(string(b), "\n", 6)
			require.Len(t, lines, 6)
			lines[4] = "i12345\n" // row 4 is NaN, whose (int) is 0
			b = []byte(strings.Join(lines, ""))
		}
		require.NoError(t, os.WriteFile(filepath.Join(dir, f), b, 0o644))
	}
	cmd := exec.Command("sh", "../../gpu/device/check.sh", dir)
	cmd.Env = append(os.Environ(), "UDFX_CXX=g++")
	out, err := cmd.CombinedOutput()
	require.Error(t, err)
	assert.Contains(t, string(out), "row 4: expected i12345")
	assert.Contains(t, string(out), "1 mismatches")
}

func BenchmarkRender(b *testing.B) {
	u := udfOf(dbl(), udf.Param{Name: "x", Type: dbl()})
	e := &ir.Binary{Op: ir.DoubleAdd, L: &ir.Binary{Op: ir.DoubleMul, L: col("x", dbl()), R: lit(dbl(), 1.8), T: dbl()}, R: lit(dbl(), 32.0), T: dbl()}
	for b.Loop() {
		if _, err := cuda.Render(u, e, record); err != nil {
			b.Fatal(err)
		}
	}
}
