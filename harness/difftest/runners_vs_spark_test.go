package difftest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/inputs"
	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/runner/python"
	"github.com/udfx/udfx/harness/runner/runners"
	"github.com/udfx/udfx/harness/spark"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/value"
)

// TestRunnersAgreeWithSpark keeps the runners honest: the embedded
// differential test runs an original outside Spark (the JVM and Python
// runners) and applies sparkStores to what it returned, on the belief
// that this is what Spark itself would have stored. Here the same
// originals (testdata/vs-spark, written to expose null handling, decimal
// rounding and overflow, PySpark's result conversions and lone
// surrogates) run both ways on the same generated rows, and every row must
// give the same value token. A Spark job that fails (Spark stops at the
// first failing row and does not say which) must match an exception in
// the runner's rows, and Spark must then agree on the rows the runner did
// not fail on.
//
// One Spark session runs all three languages (every JVM UDF's jar is
// compiled before it starts, so no job restarts it); a second, with
// spark.sql.legacy.allowUntypedScalaUDF, runs the untyped Scala UDF, which
// the runners refuse. They run one after the other.
func TestRunnersAgreeWithSpark(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	root := moduleRoot(t)
	java := udfsIn(t, "testdata/vs-spark/VsSpark.java", udf.Java)
	scala := udfsIn(t, "testdata/vs-spark/VsSpark.scala", udf.Scala)
	py := udfsIn(t, "testdata/vs-spark/vs_spark.py", udf.Python)
	for _, m := range []map[string]*udf.UDF{java, scala, py} {
		for _, u := range m {
			u.File = abs(t, u.File)
		}
	}

	// VsSpark.main registers DecimalTable as DECIMAL(5,2); the Java
	// front-end takes a UDFn class's return type from its generic
	// BigDecimal (DECIMAL(38,18)) and not from the register call, so the
	// test states what the source registers.
	decimalTable := java["DecimalTable"]
	decimalTable.Return = udf.DecimalOf(5, 2)

	// Every table index and its negative, beside the generated rows.
	var ints [][]value.Value
	for i := -30; i <= 30; i++ {
		ints = append(ints, []value.Value{value.IntOf(int64(i))})
	}
	on, off := []bool{true}, []bool{true, false}
	// Each case names what must happen on some row for the check to mean
	// anything (a NULL reaching call(), a half rounded, an overflow): the
	// inputs must provoke it, and Spark and the runner must agree on it.
	cases := []vsCase{
		{u: java["SeesNullDouble"], ansi: on, want: []string{"null reached call()"},
			witness: func(in []value.Value, _, got value.Value) string {
				return when(in[0].IsNull() && isString(got, "null"), "null reached call()")
			}},
		{u: java["SeesNullIntBool"], ansi: on, want: []string{"null Integer reached call()", "null Boolean reached call()"},
			witness: func(in []value.Value, _, got value.Value) string {
				switch {
				case in[0].IsNull() && got.Kind == value.String && strings.HasPrefix(got.GoString(), "null/"):
					return "null Integer reached call()"
				case in[1].IsNull() && got.Kind == value.String && strings.HasSuffix(got.GoString(), "/null"):
					return "null Boolean reached call()"
				}
				return ""
			}},
		{u: java["Unboxes"], ansi: on, want: []string{"job failed: java.lang.NullPointerException"}},
		{u: java["LoneSurrogate"], ansi: on, want: []string{"lone surrogate stored as ?"},
			witness: func(_ []value.Value, raw, got value.Value) string {
				return when(raw.Kind == value.String && raw.HasLoneSurrogate() && strings.HasSuffix(got.GoString(), "?"), "lone surrogate stored as ?")
			}},
		{u: decimalTable, ansi: off, extra: ints, witness: decimalWitness(2),
			want: []string{"exact half rounded", "rounded", "overflow is NULL", "job failed: org.apache.spark.SparkArithmeticException"}},
		{u: scala["SeesDouble"], ansi: on, want: []string{"NULL skips the call"},
			witness: func(in []value.Value, _, got value.Value) string {
				return when(in[0].IsNull() && got.IsNull(), "NULL skips the call")
			}},
		{u: scala["SeesIntBoxed"], ansi: on, want: []string{"NULL Int skips the call", "null Integer reached apply"},
			witness: func(in []value.Value, _, got value.Value) string {
				switch {
				case in[0].IsNull() && got.IsNull():
					return "NULL Int skips the call"
				case !in[0].IsNull() && in[1].IsNull() && got.Kind == value.String && strings.HasSuffix(got.GoString(), "/null"):
					return "null Integer reached apply"
				}
				return ""
			}},
		{u: scala["ScalaDecimalTable"], ansi: off, extra: ints, witness: decimalWitness(18),
			want: []string{"exact half rounded", "rounded", "overflow is NULL", "job failed: org.apache.spark.SparkArithmeticException"}},
		{u: py["triple_as_int"], ansi: off, want: []string{"past INT's range, stored", "past BIGINT's range, NULL"},
			witness: func(in []value.Value, _, got value.Value) string {
				if in[0].IsNull() {
					return ""
				}
				x := new(big.Int).Mul(big.NewInt(in[0].Int), big.NewInt(3))
				switch {
				case !x.IsInt64() && got.IsNull():
					return "past BIGINT's range, NULL"
				case x.IsInt64() && (x.Int64() > math.MaxInt32 || x.Int64() < math.MinInt32) && got.Kind == value.Int:
					return "past INT's range, stored"
				}
				return ""
			}},
		{u: py["half_as_long"], ansi: off, want: []string{"float for BIGINT is NULL"},
			witness: func(in []value.Value, _, got value.Value) string {
				return when(!in[0].IsNull() && got.IsNull(), "float for BIGINT is NULL")
			}},
		{u: py["int_as_double"], ansi: on, want: []string{"int for DOUBLE is NULL"},
			witness: func(in []value.Value, _, got value.Value) string {
				return when(!in[0].IsNull() && got.IsNull(), "int for DOUBLE is NULL")
			}},
		// Java's Double.toString around its switch to E notation, and
		// values whose shortest form has one digit or that JDK 17 prints
		// longer than the shortest form.
		{u: py["float_as_string"], ansi: on, extra: doubles(5e-324, 1e-323, 5e-323, 4.94e-322, 1e23, 2e23, 1e7, 9999999.999999998, 1e-3, 0.0009999999999999998),
			want: []string{"float stored as its toString", "JDK-dependent form refused"},
			witness: func(in []value.Value, raw, got value.Value) string {
				if raw.Kind == value.Error && raw.Class == notReproducible {
					return "JDK-dependent form refused"
				}
				return when(!in[0].IsNull() && got.Kind == value.String, "float stored as its toString")
			}},
		{u: py["decimal_table"], ansi: off, extra: ints, want: []string{"job failed: org.apache.spark.SparkArithmeticException", "stored"},
			witness: func(_ []value.Value, _, got value.Value) string { return when(got.Kind == value.Decimal, "stored") }},
		{u: py["lone_surrogate"], ansi: on, want: []string{"lone surrogate stored as U+FFFD"},
			witness: func(_ []value.Value, _, got value.Value) string {
				return when(got.Kind == value.String && strings.HasSuffix(got.GoString(), "\ufffd"), "lone surrogate stored as U+FFFD")
			}},
	}
	var jvmUDFs []*udf.UDF
	for _, c := range cases {
		require.NotNil(t, c.u, "a UDF of testdata/vs-spark was not found by its front-end")
		if c.u.Language != udf.Python {
			jvmUDFs = append(jvmUDFs, c.u)
		}
	}
	untyped := scala["plusOne"]
	require.NotNil(t, untyped)
	require.True(t, untyped.Untyped, "the Scala front-end should mark udf(f, IntegerType) untyped")
	// Each source once, and the shims of its UDFs in one compiler run:
	// a scalac start per UDF would eat much of the test's time budget.
	jars, err := spark.CompileUDFs(ctx, append(jvmUDFs, untyped), spark.Config{Dir: root})
	require.NoError(t, err, "compiling the JVM originals for Spark")
	untypedJar := jars[len(jars)-1]

	s := startSpark(t, ctx, spark.Config{ANSI: true, Dir: root, Jars: jars})
	mem := memory.NewGoAllocator()
	for _, c := range cases {
		t.Run(string(c.u.Language)+"/"+c.u.Name, func(t *testing.T) {
			c.check(t, ctx, s, mem)
		})
	}
	// Without the legacy setting Spark refuses the untyped UDF.
	t.Run("scala/plusOne/refused", func(t *testing.T) {
		rec := generateFor(t, untyped, nil, mem)
		res, err := s.Run(ctx, spark.Job{UDF: untyped, Input: rec})
		require.NoError(t, err)
		e := res.Original.Err
		require.NotNil(t, e, "Spark ran the untyped UDF without spark.sql.legacy.allowUntypedScalaUDF")
		require.Contains(t, strings.Join(append(e.Chain, e.Condition, e.Message), "\n"), "UNTYPED_SCALA_UDF", "%+v", e)
		t.Logf("refused: %v", e)
	})
	require.Zero(t, s.Restarts(), "a job restarted the session: its jar was not among Config.Jars")
	require.NoError(t, s.Close())

	// With it, a NULL reaches the primitive parameter as 0. The runners do
	// not replicate that mode; they say so.
	t.Run("scala/plusOne/legacy", func(t *testing.T) {
		_, err := runners.New(ctx, untyped, runner.DefaultLimits)
		var nc *runner.NotCallableError
		require.ErrorAs(t, err, &nc)
		s := startSpark(t, ctx, spark.Config{ANSI: true, Dir: root, Jars: []string{untypedJar},
			Conf: map[string]string{"spark.sql.legacy.allowUntypedScalaUDF": "true"}})
		defer s.Close()
		rec := generateFor(t, untyped, nil, mem)
		rows := recordRows(rec)
		res, err := s.Run(ctx, spark.Job{UDF: untyped, Input: rec})
		require.NoError(t, err)
		require.Nil(t, res.Original.Err)
		nulls := 0
		for i, row := range rows {
			x := int32(0) // the JVM default a null unboxes to
			if !row[0].IsNull() {
				x = int32(row[0].Int)
			} else {
				nulls++
			}
			want := value.IntOf(int64(x + 1)) // Int arithmetic wraps
			require.Equal(t, value.Token(want), value.Token(res.Original.Values[i]), "input %s", describeRow([]inputs.Param{{Name: "x"}}, row))
		}
		require.Positive(t, nulls, "the generated rows hold no NULL")
	})
}

// vsCase is one original, the ANSI settings to run it under and rows to
// add to the generated ones.
type vsCase struct {
	u     *udf.UDF
	ansi  []bool
	extra [][]value.Value
	// witness names what a row shows (from its input, the runner's raw
	// result and Spark's), or ""; every name in want must be shown by
	// some row of some run. A failed job shows "job failed: " + its class.
	witness func(in []value.Value, raw, got value.Value) string
	want    []string
}

func (c vsCase) check(t *testing.T, ctx context.Context, s *spark.Session, mem memory.Allocator) {
	params, _, err := signature(c.u)
	require.NoError(t, err)
	rec := generateFor(t, c.u, c.extra, mem)
	rows := recordRows(rec)
	r, err := runners.New(ctx, c.u, runner.DefaultLimits)
	require.NoError(t, err)
	defer r.Close()
	raw, err := r.Run(ctx, rows)
	var nr *python.NotReproducibleError
	if !errors.As(err, &nr) {
		// difftest.Run refuses the whole test on such a row (the original
		// "cannot be run" as Spark would); here its other rows are still
		// compared.
		require.NoError(t, err)
	}
	require.Len(t, raw, len(rows))
	seen := map[string]int{}
	witness := func(idx []int, got []value.Value) {
		if c.witness == nil {
			return
		}
		for j, i := range idx {
			if w := c.witness(rows[i], raw[i], got[j]); w != "" {
				seen[w]++
			}
		}
	}
	all := make([]int, len(rows))
	for i := range all {
		all[i] = i
	}
	for _, ansi := range c.ansi {
		// What difftest.Run compares a rewrite with.
		orig := make([]value.Value, len(raw))
		for i := range raw {
			orig[i] = sparkStores(c.u.Language, c.u.Return, raw[i], ansi)
		}
		res, err := s.Run(ctx, spark.Job{UDF: c.u, Input: rec, ANSI: &ansi})
		require.NoError(t, err)
		if e := res.Original.Err; e != nil {
			// The job failed on some row: the runner must have thrown the
			// same on one, and Spark must agree on the rest.
			var ok []int
			matched := false
			for i, o := range orig {
				if o.Kind != value.Error {
					ok = append(ok, i)
				} else if sameFailure(o, e) {
					matched = true
				}
			}
			require.True(t, matched, "ANSI %v: Spark's job failed (%v) but no row of %s threw that; runner's exceptions: %v", ansi, e, r.Describe(), exceptions(orig))
			sub := make([][]value.Value, len(ok))
			for j, i := range ok {
				sub[j] = rows[i]
			}
			subRec, err := BuildRecord(params, sub, mem)
			require.NoError(t, err)
			defer subRec.Release()
			res, err = s.Run(ctx, spark.Job{UDF: c.u, Input: subRec, ANSI: &ansi})
			require.NoError(t, err)
			require.Nil(t, res.Original.Err, "ANSI %v: Spark's job fails on rows where the runner threw nothing", ansi)
			agreed := compareRows(t, ansi, params, sub, pick(orig, ok), res.Original.Values)
			witness(ok, res.Original.Values)
			seen["job failed: "+e.Class]++
			if agreed {
				t.Logf("ANSI %v: Spark failed (%v) as %d of %d rows did in the runner; the other %d rows agree", ansi, e, len(rows)-len(ok), len(rows), len(ok))
			}
			continue
		}
		if compareRows(t, ansi, params, rows, orig, res.Original.Values) {
			t.Logf("ANSI %v: %d rows agree (%s)", ansi, len(rows), r.Describe())
		}
		witness(all, res.Original.Values)
	}
	for _, w := range c.want {
		require.Positive(t, seen[w], "no row showed %q: the inputs do not exercise the rule (seen: %v)", w, seen)
	}
	t.Logf("shown: %v", seen)
}

// notReproducible is the class of the runner's refusal of a row.
const notReproducible = python.NotReproducibleClass

func when(ok bool, what string) string {
	if ok {
		return what
	}
	return ""
}

func isString(v value.Value, s string) bool { return v.Kind == value.String && v.GoString() == s }

// decimalWitness tells apart, for a decimal result stored at scale s, the
// runner's raw BigDecimal that had to be rounded (and among those, exactly
// half a unit: HALF_UP and HALF_EVEN disagree there when the kept digit is
// even) and one that overflowed to NULL (ANSI off).
func decimalWitness(s int32) func([]value.Value, value.Value, value.Value) string {
	return func(_ []value.Value, raw, got value.Value) string {
		if raw.Kind != value.Decimal {
			return ""
		}
		if got.IsNull() {
			return "overflow is NULL"
		}
		if raw.Scale <= s || raw.Scale-s > 100 {
			return ""
		}
		unit := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(raw.Scale-s)), nil)
		q, r := new(big.Int).QuoRem(new(big.Int).Abs(raw.Unscaled), unit, new(big.Int))
		if r.Sign() == 0 {
			return ""
		}
		if new(big.Int).Mul(r, big.NewInt(2)).Cmp(unit) == 0 && q.Bit(0) == 0 {
			return "exact half rounded"
		}
		return "rounded"
	}
}

// sameFailure tells whether the runner's exception (after sparkStores) is
// what Spark's failed job reports: the same root class and, where the
// runner names one, the same error condition.
func sameFailure(o value.Value, e *spark.JobError) bool {
	return o.Class == e.Class && (o.Condition == "" || o.Condition == e.Condition)
}

func compareRows(t *testing.T, ansi bool, params []inputs.Param, rows [][]value.Value, orig, got []value.Value) bool {
	t.Helper()
	require.Len(t, got, len(orig))
	bad := 0
	for i := range orig {
		if value.Token(orig[i]) == value.Token(got[i]) {
			continue
		}
		if orig[i].Kind == value.Error && orig[i].Class == notReproducible {
			// The runner refuses a row whose stored form depends on what
			// udfx cannot know (the JVM's version): not an answer, so not a
			// wrong one; difftest counts it as a mismatch unless the
			// rewrite fails too.
			continue
		}
		if bad < 10 {
			t.Errorf("ANSI %v, input %s: runner+sparkStores %s, Spark %s", ansi, describeRow(params, rows[i]), orig[i], got[i])
		}
		bad++
	}
	if bad > 0 {
		t.Errorf("ANSI %v: %d of %d rows differ", ansi, bad, len(orig))
	}
	return bad == 0
}

func doubles(xs ...float64) [][]value.Value {
	out := make([][]value.Value, len(xs))
	for i, x := range xs {
		out[i] = []value.Value{value.DoubleOf(x)}
	}
	return out
}

func pick(vs []value.Value, idx []int) []value.Value {
	out := make([]value.Value, len(idx))
	for j, i := range idx {
		out[j] = vs[i]
	}
	return out
}

func exceptions(vs []value.Value) map[string]int {
	m := map[string]int{}
	for _, v := range vs {
		if v.Kind == value.Error {
			m[v.Class+" "+v.Condition]++
		}
	}
	return m
}

// generateFor is what difftest.Run tests an original on: generated rows,
// specials and nulls first, then the extra rows (as a user's samples).
func generateFor(t *testing.T, u *udf.UDF, extra [][]value.Value, mem memory.Allocator) arrow.RecordBatch {
	t.Helper()
	params, _, err := signature(u)
	require.NoError(t, err)
	rec, _, err := inputs.Generate(params, inputs.Options{Seed: 11, Rows: 300}, mem)
	require.NoError(t, err)
	if len(extra) > 0 {
		more, err := BuildRecord(params, extra, mem)
		require.NoError(t, err)
		joined, err := concat(rec, more, mem)
		require.NoError(t, err)
		more.Release()
		rec.Release()
		rec = joined
	}
	t.Cleanup(rec.Release)
	return rec
}

func startSpark(t *testing.T, ctx context.Context, cfg spark.Config) *spark.Session {
	t.Helper()
	// UDFX_SPARK_TEST_WORKSPACE keeps the session's folder (its log).
	if ws := os.Getenv("UDFX_SPARK_TEST_WORKSPACE"); ws != "" {
		cfg.Workspace = filepath.Join(ws, fmt.Sprintf("vs-spark-%d", time.Now().UnixNano()))
	}
	s, err := spark.Start(ctx, cfg)
	var ee *spark.EnvError
	if errors.As(err, &ee) {
		t.Fatalf("this test runs real Spark %s (the repository's .venv, or SPARK_HOME): %v", spark.PinnedVersion, err)
	}
	require.NoError(t, err)
	return s
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	dir := abs(t, ".")
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		require.NotEqual(t, parent, dir, "no go.mod above the package")
		dir = parent
	}
}

func abs(t *testing.T, p string) string {
	t.Helper()
	a, err := filepath.Abs(p)
	require.NoError(t, err)
	return a
}
