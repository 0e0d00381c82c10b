package sparksql_test

import (
	"context"
	"encoding/json"
	"math"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/pyenv"
	"github.com/udfx/udfx/harness/render/sparksql"
	"github.com/udfx/udfx/harness/translate/ir"
	"github.com/udfx/udfx/harness/udf"
)

// sparkANSIOff evaluates each expression over the rows (columns a, b as
// INT and la, lb as BIGINT) in real Spark 3.5 with ANSI off, and returns
// each row's results, NULL as nil.
const sparkANSIOff = `
import json, sys
from pyspark.sql import SparkSession
from pyspark.sql.types import StructType, StructField, IntegerType, LongType
req = json.load(sys.stdin)
spark = (SparkSession.builder.master("local[1]").config("spark.ui.enabled", "false")
         .config("spark.sql.ansi.enabled", "false").getOrCreate())
schema = StructType([StructField("a", IntegerType()), StructField("b", IntegerType()),
                     StructField("la", LongType()), StructField("lb", LongType())])
df = spark.createDataFrame([tuple(r) for r in req["rows"]], schema)
out = [[r[i] for i in range(len(req["exprs"]))] for r in df.selectExpr(*req["exprs"]).collect()]
print(json.dumps({"version": spark.version, "rows": out}))
`

// ir.ForANSIOff turns the JVM's wrapping int and long + - * and the
// keeping of a long's low 32 bits into Spark's plain operators and CAST.
// The text is pinned here, and what it computes is checked against Java's
// arithmetic (Go's, which wraps the same) in real Spark 3.5 with ANSI
// off on the edges of both ranges.
func TestANSIOffFormsWrapAsTheJVMOnSpark35(t *testing.T) {
	i64 := udf.Prim(udf.Long)
	a, b := &ir.Col{Name: "a", T: i32}, &ir.Col{Name: "b", T: i32}
	la, lb := &ir.Col{Name: "la", T: i64}, &ir.Col{Name: "lb", T: i64}
	type form struct {
		e    ir.Expr
		sql  string
		java func(a, b int32, la, lb int64) int64
	}
	forms := []form{
		{&ir.Binary{Op: ir.JavaIntAdd, L: a, R: b, T: i32}, "(`a` + `b`)", func(a, b int32, _, _ int64) int64 { return int64(a + b) }},
		{&ir.Binary{Op: ir.JavaIntSub, L: a, R: b, T: i32}, "(`a` - `b`)", func(a, b int32, _, _ int64) int64 { return int64(a - b) }},
		{&ir.Binary{Op: ir.JavaIntMul, L: a, R: b, T: i32}, "(`a` * `b`)", func(a, b int32, _, _ int64) int64 { return int64(a * b) }},
		{&ir.Binary{Op: ir.JavaLongAdd, L: la, R: lb, T: i64}, "(`la` + `lb`)", func(_, _ int32, la, lb int64) int64 { return la + lb }},
		{&ir.Binary{Op: ir.JavaLongSub, L: la, R: lb, T: i64}, "(`la` - `lb`)", func(_, _ int32, la, lb int64) int64 { return la - lb }},
		{&ir.Binary{Op: ir.JavaLongMul, L: la, R: lb, T: i64}, "(`la` * `lb`)", func(_, _ int32, la, lb int64) int64 { return la * lb }},
		{&ir.Cast{Kind: ir.LongToInt, X: la, To: i32}, "CAST(`la` AS INT)", func(_, _ int32, la, _ int64) int64 { return int64(int32(la)) }},
		// Nested: a sum inside a product, and under a null guard.
		{&ir.If{Cond: &ir.IsNull{X: a}, Then: &ir.Lit{T: i32}, Else: &ir.Binary{Op: ir.JavaIntMul, L: &ir.Binary{Op: ir.JavaIntAdd, L: a, R: b, T: i32}, R: b, T: i32}},
			"CASE WHEN (`a` IS NULL) THEN CAST(NULL AS INT) ELSE ((`a` + `b`) * `b`) END", func(a, b int32, _, _ int64) int64 { return int64((a + b) * b) }},
	}
	var exprs []string
	for _, f := range forms {
		off, changed := ir.ForANSIOff(f.e)
		require.True(t, changed, f.sql)
		got, err := sparksql.Render(off)
		require.NoError(t, err)
		assert.Equal(t, f.sql, got)
		exprs = append(exprs, got)
	}
	// Nothing to change: the same expression back.
	plain := &ir.Binary{Op: ir.DoubleAdd, L: x, R: x, T: dbl}
	same, changed := ir.ForANSIOff(plain)
	assert.False(t, changed)
	assert.Same(t, plain, same)

	edges32 := []int32{math.MinInt32, math.MinInt32 + 1, -65536, -1, 0, 1, 46341, 65536, math.MaxInt32 - 1, math.MaxInt32}
	edges64 := []int64{math.MinInt64, math.MinInt64 + 1, -1 << 32, math.MinInt32 - 1, -1, 0, 1, math.MaxInt32 + 1, 3037000500, math.MaxInt64}
	var rows [][4]int64
	for i, x := range edges32 {
		for j, y := range edges32 {
			rows = append(rows, [4]int64{int64(x), int64(y), edges64[i], edges64[j]})
		}
	}
	var res struct {
		Version string    `json:"version"`
		Rows    [][]int64 `json:"rows"`
	}
	onSpark35(t, sparkANSIOff, map[string]any{"exprs": exprs, "rows": rows}, &res)
	require.Len(t, res.Rows, len(rows))
	for r, row := range rows {
		for i, f := range forms {
			want := f.java(int32(row[0]), int32(row[1]), row[2], row[3])
			assert.Equal(t, want, res.Rows[r][i], "%s on a=%d b=%d la=%d lb=%d", exprs[i], row[0], row[1], row[2], row[3])
		}
	}
	t.Logf("%d forms on %d rows agree with Java's arithmetic in Spark %s with ANSI off", len(forms), len(rows), res.Version)
}

// sparkANSIOffJobs runs each job (an expression over a list of rows of
// columns a, b INT, la, lb BIGINT, x, y DOUBLE) as one Spark 3.5 query
// with ANSI off, and returns its results or, where it failed, the error.
const sparkANSIOffJobs = `
import json, sys
from pyspark.sql import SparkSession
from pyspark.sql.types import StructType, StructField, IntegerType, LongType, DoubleType
req = json.load(sys.stdin)
spark = (SparkSession.builder.master("local[1]").config("spark.ui.enabled", "false")
         .config("spark.sql.ansi.enabled", "false").getOrCreate())
schema = StructType([StructField("a", IntegerType()), StructField("b", IntegerType()),
                     StructField("la", LongType()), StructField("lb", LongType()),
                     StructField("x", DoubleType()), StructField("y", DoubleType())])
out = []
for job in req["jobs"]:
    rows = [(r[0], r[1], r[2], r[3], float(r[4]), float(r[5])) for r in job["rows"]]
    try:
        got = [r[0] for r in spark.createDataFrame(rows, schema).selectExpr(job["expr"]).collect()]
        out.append({"values": [None if v is None else str(v) for v in got]})
    except Exception as e:
        out.append({"error": str(e)[:20000]})
print(json.dumps({"version": spark.version, "jobs": out}))
`

// With ANSI off, Spark's div, % and / give NULL for a zero divisor where
// the JVM throws ArithmeticException and CPython ZeroDivisionError, and
// element_at NULL past the array's end where the original's indexing
// throws (with ANSI on Spark raises DIVIDE_BY_ZERO and
// INVALID_ARRAY_INDEX_IN_ELEMENT_AT). ir.ForANSIOff puts a raise_error
// before each; in real Spark 3.5 with ANSI off the forms fail on exactly
// the rows with a zero divisor or a short array and elsewhere compute
// what Java (Go's arithmetic, which truncates and wraps alike), IEEE
// division and Python's indexing do.
func TestANSIOffFormsRaiseWhereTheOriginalThrowsOnSpark35(t *testing.T) {
	i64 := udf.Prim(udf.Long)
	a, b := &ir.Col{Name: "a", T: i32}, &ir.Col{Name: "b", T: i32}
	la, lb := &ir.Col{Name: "la", T: i64}, &ir.Col{Name: "lb", T: i64}
	y := &ir.Col{Name: "y", T: dbl}
	type form struct {
		e     ir.Expr
		sql   string
		fails func(a, b int32, la, lb int64, x, y float64) bool
		want  func(a, b int32, la, lb int64, x, y float64) string
	}
	str := udf.Prim(udf.String)
	// str(a).split("-")[k]: two fields for a negative a, one otherwise.
	field := func(k int64) ir.Expr {
		parts := &ir.Call{Fn: ir.PySplit, Args: []ir.Expr{&ir.Cast{Kind: ir.IntToString, X: a, To: str}, &ir.Lit{T: str, Value: "-"}}, T: udf.ArrayOf(str)}
		return &ir.Call{Fn: ir.ElementAt, Args: []ir.Expr{parts, &ir.Lit{T: i32, Value: k}}, T: str}
	}
	forms := []form{
		{field(2), "CASE WHEN (size(split(CAST(`a` AS STRING), '-')) < 2) THEN raise_error('udfx: the original throws (index out of range)') ELSE element_at(split(CAST(`a` AS STRING), '-'), 2) END",
			func(a, _ int32, _, _ int64, _, _ float64) bool { return a >= 0 },
			func(a, _ int32, _, _ int64, _, _ float64) string {
				return strings.TrimPrefix(strconv.Itoa(int(a)), "-")
			}},
		{&ir.Binary{Op: ir.JavaIntDiv, L: a, R: b, T: i32},
			"CASE WHEN (`b` = 0) THEN raise_error('udfx: the original throws ArithmeticException (/ by zero)') ELSE CAST(pmod((CAST(`a` AS BIGINT) div CAST(`b` AS BIGINT)) + 2147483648L, 4294967296L) - 2147483648L AS INT) END",
			func(_, b int32, _, _ int64, _, _ float64) bool { return b == 0 },
			func(a, b int32, _, _ int64, _, _ float64) string { return strconv.Itoa(int(a / b)) }},
		{&ir.Binary{Op: ir.JavaIntRem, L: a, R: b, T: i32},
			"CASE WHEN (`b` = 0) THEN raise_error('udfx: the original throws ArithmeticException (/ by zero)') ELSE (`a` % `b`) END",
			func(_, b int32, _, _ int64, _, _ float64) bool { return b == 0 },
			func(a, b int32, _, _ int64, _, _ float64) string { return strconv.Itoa(int(a % b)) }},
		{&ir.Binary{Op: ir.JavaLongDiv, L: la, R: lb, T: i64},
			"CASE WHEN (`lb` = 0L) THEN raise_error('udfx: the original throws ArithmeticException (/ by zero)') ELSE CASE WHEN `lb` = -1L THEN (CASE WHEN `la` = CAST(-9223372036854775808 AS BIGINT) THEN CAST(-9223372036854775808 AS BIGINT) ELSE (- `la`) END) ELSE (`la` div `lb`) END END",
			func(_, _ int32, _, lb int64, _, _ float64) bool { return lb == 0 },
			func(_, _ int32, la, lb int64, _, _ float64) string { return strconv.FormatInt(la/lb, 10) }},
		{&ir.Binary{Op: ir.PyFloatDiv, L: x, R: y, T: dbl},
			"CASE WHEN (`y` = 0.0D AND NOT isnan(`y`)) THEN raise_error('udfx: the original throws ZeroDivisionError (float division by zero)') ELSE (`x` / `y`) END",
			func(_, _ int32, _, _ int64, _, y float64) bool { return y == 0 },
			func(_, _ int32, _, _ int64, x, y float64) string { return pyRepr(x / y) }},
	}
	edges32 := []int32{math.MinInt32, -7, -1, 0, 1, 3, math.MaxInt32}
	edges64 := []int64{math.MinInt64, -7, -1, 0, 1, 3, math.MaxInt64}
	edgesF := []float64{-1.5, -1, math.Copysign(0, -1), 0, 0.1, 3, 1e308}
	var rows [][6]any
	for i := range edges32 {
		for j := range edges32 {
			rows = append(rows, [6]any{edges32[i], edges32[j], edges64[i], edges64[j], edgesF[i], edgesF[j]})
		}
	}
	// JSON has no -0.0: the doubles travel as Go prints them, and
	// Python's float() reads them back.
	wire := func(r [6]any) [6]any {
		r[4], r[5] = strconv.FormatFloat(r[4].(float64), 'g', -1, 64), strconv.FormatFloat(r[5].(float64), 'g', -1, 64)
		return r
	}
	{
		{
		}
	}
	type job struct {
		Expr string   `json:"expr"`
		Rows [][6]any `json:"rows"`
	}
	var jobs []job
	// expect[k] is job k's results, nil for a job that must fail.
	var expect [][]string
	for _, f := range forms {
		off, changed := ir.ForANSIOff(f.e)
		require.True(t, changed, f.sql)
		got, err := sparksql.Render(off)
		require.NoError(t, err)
		assert.Equal(t, f.sql, got)
		// The rows with a non-zero divisor in one query; each zero one
		// alone, since a query stops at its first failing row.
		var fine [][6]any
		var want []string
		for _, r := range rows {
			a, b, la, lb, x, y := r[0].(int32), r[1].(int32), r[2].(int64), r[3].(int64), r[4].(float64), r[5].(float64)
			if f.fails(a, b, la, lb, x, y) {
				jobs = append(jobs, job{got, [][6]any{wire(r)}})
				expect = append(expect, nil)
				continue
			}
			fine = append(fine, wire(r))
			want = append(want, f.want(a, b, la, lb, x, y))
		}
		jobs = append(jobs, job{got, fine})
		expect = append(expect, want)
	}
	var res struct {
		Version string `json:"version"`
		Jobs    []struct {
			Values []string `json:"values"`
			Error  string   `json:"error"`
		} `json:"jobs"`
	}
	onSpark35(t, sparkANSIOffJobs, map[string]any{"jobs": jobs}, &res)
	require.Len(t, res.Jobs, len(jobs))
	failed := 0
	for k, j := range jobs {
		if expect[k] == nil {
			assert.Contains(t, res.Jobs[k].Error, "udfx: the original throws", "%s on %v", j.Expr, j.Rows[0])
			failed++
			continue
		}
		require.Empty(t, res.Jobs[k].Error, j.Expr)
		assert.Equal(t, expect[k], res.Jobs[k].Values, j.Expr)
	}
	t.Logf("%d forms on %d rows agree with the JVM and CPython in Spark %s with ANSI off; %d rows with a zero divisor or a short array raise", len(forms), len(rows), res.Version, failed)
}

// pyRepr prints a double as Python's str() does for the values above.
func pyRepr(f float64) string {
	if math.IsInf(f, 0) {
		return map[bool]string{true: "inf", false: "-inf"}[f > 0]
	}
	if f == math.Trunc(f) && math.Abs(f) < 1e16 {
		return strconv.FormatFloat(f, 'f', 1, 64)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// onSpark35 runs script in udfx's Spark 3.5 environment with in as JSON
// on its stdin and reads its stdout into out, whose "version" must be
// that environment's pyspark.
func onSpark35(t *testing.T, script string, in, out any) {
	t.Helper()
	env35, ok := pyenv.EnvFor("3.5")
	require.True(t, ok)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	python, err := env35.Ensure(ctx, func(s string) { t.Log(s) })
	require.NoError(t, err)
	b, err := json.Marshal(in)
	require.NoError(t, err)
	cmd := exec.CommandContext(ctx, python, "-c", script)
	cmd.Stdin = strings.NewReader(string(b))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	require.NoError(t, err, stderr.String())
	require.NoError(t, json.Unmarshal(stdout, out), string(stdout))
	var v struct {
		Version string `json:"version"`
	}
	require.NoError(t, json.Unmarshal(stdout, &v))
	assert.Equal(t, env35.Version, v.Version)
}
