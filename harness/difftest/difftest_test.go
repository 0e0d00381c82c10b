package difftest

import (
	"context"
	"math"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/value"
)

// goRunner stands in for a real runner in tests of the comparison logic:
// it computes the "original" with a Go function. The real JVM and Python
// runners are tested against real runtimes in their own packages and in
// the CLI's end-to-end tests.
type goRunner struct {
	fn func(row []value.Value) value.Value
}

func (g goRunner) Run(_ context.Context, rows [][]value.Value) ([]value.Value, error) {
	out := make([]value.Value, len(rows))
	for i, r := range rows {
		out[i] = g.fn(r)
	}
	return out, nil
}
func (goRunner) Describe() string { return "Go test double" }
func (goRunner) Close() error     { return nil }

func fahrenheit(row []value.Value) value.Value {
	if row[0].IsNull() {
		return value.NullValue()
	}
	return value.DoubleOf(row[0].Float64()*9.0/5.0 + 32.0)
}

func celsiusUDF() *udf.UDF {
	return &udf.UDF{Name: "ToFahrenheit", Language: udf.Scala, Kind: udf.KindFunctionClass, File: "T.scala",
		Params: []udf.Param{{Name: "celsius", Type: udf.Prim(udf.Double)}}, Return: udf.Prim(udf.Double)}
}

func runWith(t *testing.T, fn func([]value.Value) value.Value, sql string, opts Options) *Report {
	t.Helper()
	opts.NewRunner = func(context.Context, *udf.UDF, runner.Limits) (runner.Runner, error) { return goRunner{fn}, nil }
	if opts.Rows == 0 {
		opts.Rows = 2000
	}
	rep, err := Run(context.Background(), celsiusUDF(), Rewrite{SQL: sql}, opts)
	require.NoError(t, err)
	return rep
}

func TestEqualRewrite(t *testing.T) {
	rep := runWith(t, fahrenheit, "celsius * 9.0 / 5.0 + 32.0", Options{ANSI: true, Seed: 7})
	assert.True(t, rep.Equal)
	assert.Zero(t, rep.Mismatches)
	assert.Equal(t, 2000, rep.Rows)
	assert.Positive(t, rep.SpecialRows)
	assert.Nil(t, rep.Counterexample)
}

func TestMismatchShrinksToASimpleCounterexample(t *testing.T) {
	rep := runWith(t, fahrenheit, "celsius * 1.8 + 32.0", Options{ANSI: true, Seed: 7})
	require.False(t, rep.Equal)
	assert.Positive(t, rep.Mismatches)
	ce := rep.Counterexample
	require.NotNil(t, ce)
	c := ce.Inputs[0].Value.Value
	require.Equal(t, value.Double, c.Kind)
	// The shrunk input still shows the difference...
	x := c.Float64()
	assert.NotEqual(t, math.Float64bits(x*9.0/5.0+32.0), math.Float64bits(x*1.8+32.0))
	assert.Equal(t, value.Token(value.DoubleOf(x*9.0/5.0+32.0)), value.Token(ce.Original.Value))
	assert.Equal(t, value.Token(value.DoubleOf(x*1.8+32.0)), value.Token(ce.Rewrite.Value))
	// ...and is short to read: a few digits, not a random 17-digit double.
	assert.LessOrEqual(t, len(c.String()), 6, "counterexample %s", c)
}

func TestErrorRows(t *testing.T) {
	throwsOnNegative := func(row []value.Value) value.Value {
		if !row[0].IsNull() && row[0].Float64() < 0 {
			return value.ErrorOf("java.lang.IllegalArgumentException", "negative")
		}
		return fahrenheit(row)
	}
	// The rewrite does not fail where the original throws: a mismatch.
	rep := runWith(t, throwsOnNegative, "celsius * 9.0 / 5.0 + 32.0", Options{ANSI: true, Seed: 3})
	assert.False(t, rep.Equal)
	assert.Positive(t, rep.OriginalExceptions["java.lang.IllegalArgumentException"])
	// NULL there is accepted only when asked for.
	rep = runWith(t, throwsOnNegative, "CASE WHEN celsius < 0 THEN NULL ELSE celsius * 9.0 / 5.0 + 32.0 END", Options{ANSI: true, Seed: 3})
	assert.False(t, rep.Equal)
	rep = runWith(t, throwsOnNegative, "CASE WHEN celsius < 0 THEN NULL ELSE celsius * 9.0 / 5.0 + 32.0 END", Options{ANSI: true, Seed: 3, AllowErrorToNull: true})
	assert.True(t, rep.Equal)
	assert.Positive(t, rep.ErrorRowsNull)
	// A rewrite that raises where the original throws agrees (ANSI on:
	// a cast of a bad string fails).
	rep = runWith(t, throwsOnNegative, "CASE WHEN celsius < 0 THEN CAST('x' AS DOUBLE) ELSE celsius * 9.0 / 5.0 + 32.0 END", Options{ANSI: true, Seed: 3})
	assert.True(t, rep.Equal, "mismatches: %d, counterexample %+v", rep.Mismatches, rep.Counterexample)
	assert.Equal(t, rep.ErrorRowsMatched, rep.OriginalExceptions["java.lang.IllegalArgumentException"])
}

func TestUsageErrors(t *testing.T) {
	run := func(sql string, u *udf.UDF) error {
		_, err := Run(context.Background(), u, Rewrite{SQL: sql}, Options{Rows: 10,
			NewRunner: func(context.Context, *udf.UDF, runner.Limits) (runner.Runner, error) {
				return goRunner{fahrenheit}, nil
			}})
		return err
	}
	var ue *UsageError
	err := run("celsius * 9.0 / 5.0 + ", celsiusUDF())
	assert.ErrorAs(t, err, &ue)
	err = run("frobnicate(celsius)", celsiusUDF())
	require.ErrorAs(t, err, &ue)
	assert.Contains(t, err.Error(), "frobnicate")
	err = run("CAST(celsius AS INT)", celsiusUDF())
	require.ErrorAs(t, err, &ue)
	assert.Contains(t, err.Error(), "has type int but ToFahrenheit returns double")
	untyped := celsiusUDF()
	untyped.Params[0].Type = nil
	err = run("celsius", untyped)
	require.ErrorAs(t, err, &ue)
	assert.Contains(t, err.Error(), "the Spark type of parameter celsius")
}

func TestToDecimal(t *testing.T) {
	d := func(u string, s int32) value.Value {
		n, _ := new(big.Int).SetString(u, 10)
		return value.DecimalOf(n, s)
	}
	cases := []struct {
		in   value.Value
		p, s int
		ansi bool
		want string
	}{
		{d("12345", 3), 10, 2, false, "m1235@2"},   // 12.345 → 12.35 (HALF_UP)
		{d("-12345", 3), 10, 2, false, "m-1235@2"}, // away from zero
		{d("12344", 3), 10, 2, false, "m1234@2"},
		{d("5", 0), 10, 2, false, "m500@2"},
		{d("100000", 0), 5, 0, false, "N"}, // needs 6 digits
		{d("1", 1000000), 10, 2, false, "m0@2"},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, value.Token(toDecimal(c.in, c.p, c.s, c.ansi)), "%v to decimal(%d,%d)", c.in, c.p, c.s)
	}
	e := toDecimal(d("100000", 0), 5, 0, true)
	assert.Equal(t, value.Error, e.Kind)
	assert.Equal(t, "NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION", e.Condition)
}

// Spark stores a JVM string as its UTF-8 bytes from String.getBytes; this
// runs a real JVM to confirm what that does to unpaired surrogates.
func TestLoneSurrogatesAsTheJVMEncodesThem(t *testing.T) {
	javac, err := exec.LookPath("javac")
	require.NoError(t, err, "this test needs a JDK (CI installs one)")
	inputs := [][]uint16{{0xd800}, {'a', 0xdc00, 'b'}, {0xd83d, 0xde00}, {0xde00, 0xd83d}, {0xd83d, 0xd83d, 0xde00}}
	dir := t.TempDir()
	var lits []string
	for _, in := range inputs {
		var b strings.Builder
		b.WriteByte('"')
		for _, u := range in {
			b.WriteString(`\u` + strings.ToUpper(strings.TrimPrefix(value.Token(value.UnitsOf([]uint16{u})), "s")))
		}
		b.WriteByte('"')
		lits = append(lits, b.String())
	}
	src := `public class Enc { public static void main(String[] a) {
  for (String s : new String[]{` + strings.Join(lits, ",") + `}) {
    StringBuilder sb = new StringBuilder();
    for (byte x : s.getBytes(java.nio.charset.StandardCharsets.UTF_8)) sb.append(String.format("%02x", x));
    System.out.println(sb);
  }
}}`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "Enc.java"), []byte(src), 0o644))
	out, err := exec.Command(javac, "-d", dir, filepath.Join(dir, "Enc.java")).CombinedOutput()
	require.NoError(t, err, string(out))
	out, err = exec.Command("java", "-cp", dir, "Enc").Output()
	require.NoError(t, err)
	lines := strings.Fields(string(out))
	require.Len(t, lines, len(inputs))
	for i, in := range inputs {
		got := sparkStores(udf.Java, udf.Prim(udf.String), value.UnitsOf(in), true)
		assert.Equal(t, lines[i], hexUTF8(got.GoString()), "input %v", value.UnitsOf(in))
	}
}

func hexUTF8(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		b.WriteString(strings.ToLower(string("0123456789abcdef"[c>>4]) + string("0123456789abcdef"[c&15])))
	}
	return b.String()
}

func TestTranscendentalRewritesNeedATolerance(t *testing.T) {
	sin := func(row []value.Value) value.Value {
		if row[0].IsNull() {
			return value.NullValue()
		}
		return value.DoubleOf(math.Sin(row[0].Float64()))
	}
	_, err := Run(context.Background(), celsiusUDF(), Rewrite{SQL: "sin(celsius)"}, Options{Rows: 100,
		NewRunner: func(context.Context, *udf.UDF, runner.Limits) (runner.Runner, error) { return goRunner{sin}, nil }})
	var ue *UsageError
	require.ErrorAs(t, err, &ue)
	assert.Contains(t, err.Error(), "function sin: the JVM's result can differ from Go's in the last bit")

	rep := runWith(t, sin, "sin(celsius)", Options{Rows: 100, Policy: value.Policy{ULP: 3}})
	assert.True(t, rep.ApproxMath)
	assert.Equal(t, int64(2), rep.Policy.ULP, "one ulp of the tolerance covers the engine's own error")
}

// failingRunner fails every Run with err.
type failingRunner struct{ err error }

func (f failingRunner) Run(context.Context, [][]value.Value) ([]value.Value, error) {
	return nil, f.err
}
func (failingRunner) Describe() string { return "failing test double" }
func (failingRunner) Close() error     { return nil }

// TestAFailedOriginalNamesItsInput: a crash or a runaway at a row names
// that row's input; a start-up that timed out had no row.
func TestAFailedOriginalNamesItsInput(t *testing.T) {
	run := func(err error) error {
		_, rerr := Run(context.Background(), celsiusUDF(), Rewrite{SQL: "celsius"}, Options{Rows: 10,
			NewRunner: func(context.Context, *udf.UDF, runner.Limits) (runner.Runner, error) { return failingRunner{err}, nil }})
		var oe *OriginalError
		require.ErrorAs(t, rerr, &oe)
		return rerr
	}
	err := run(&runner.CrashError{Row: 0, Reason: "the interpreter exited (exit status 3)"})
	assert.Regexp(t, `died at row 0: the interpreter exited \(exit status 3\); input: celsius = \S+`, err.Error())
	err = run(&runner.TimeoutError{Row: 1})
	assert.Regexp(t, `stopped at row 1; .*; input: celsius = \S+`, err.Error())
	err = run(&runner.TimeoutError{Starting: true})
	assert.NotContains(t, err.Error(), "input:")
}
