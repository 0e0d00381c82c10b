package sparksql_test

import (
	"context"
	"encoding/json"
	"math"
	"os/exec"
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
	env35, ok := pyenv.EnvFor("3.5")
	require.True(t, ok)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	python, err := env35.Ensure(ctx, func(s string) { t.Log(s) })
	require.NoError(t, err)
	in, err := json.Marshal(map[string]any{"exprs": exprs, "rows": rows})
	require.NoError(t, err)
	cmd := exec.CommandContext(ctx, python, "-c", sparkANSIOff)
	cmd.Stdin = strings.NewReader(string(in))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, stderr.String())
	var res struct {
		Version string    `json:"version"`
		Rows    [][]int64 `json:"rows"`
	}
	require.NoError(t, json.Unmarshal(out, &res), string(out))
	assert.Equal(t, env35.Version, res.Version)
	require.Len(t, res.Rows, len(rows))
	for r, row := range rows {
		for i, f := range forms {
			want := f.java(int32(row[0]), int32(row[1]), row[2], row[3])
			assert.Equal(t, want, res.Rows[r][i], "%s on a=%d b=%d la=%d lb=%d", exprs[i], row[0], row[1], row[2], row[3])
		}
	}
	t.Logf("%d forms on %d rows agree with Java's arithmetic in Spark %s with ANSI off", len(forms), len(rows), res.Version)
}
