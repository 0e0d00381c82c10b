package engine

import (
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/udfx/udfx/harness/udf"
)

func doubleBatch(n int) arrow.RecordBatch {
	b := array.NewFloat64Builder(memory.DefaultAllocator)
	defer b.Release()
	vals := make([]float64, n)
	for i := range vals {
		vals[i] = float64(i%2000)/10 - 100
	}
	vals[0] = math.NaN()
	b.AppendValues(vals, nil)
	arr := b.NewArray()
	defer arr.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "celsius", Type: arrow.PrimitiveTypes.Float64, Nullable: true}}, nil)
	return array.NewRecordBatch(schema, []arrow.Array{arr}, int64(n))
}

// BenchmarkDoubleExpr1M evaluates a 5-operator double expression (the
// Celsius-to-Fahrenheit rewrite plus a subtraction) over 1M rows.
func BenchmarkDoubleExpr1M(b *testing.B) {
	rec := doubleBatch(1_000_000)
	defer rec.Release()
	e, err := Compile("celsius * 9.0 / 5.0 + 32.0 - 1.5", []Column{{Name: "celsius", Type: udf.Prim(udf.Double)}}, Options{ANSI: true})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := e.Eval(rec, memory.DefaultAllocator)
		if err != nil {
			b.Fatal(err)
		}
		res.Values.Release()
	}
}

// BenchmarkNullGuard is the ToFahrenheit translation with and without the
// null guard that udfx rewrite --optimize removes (ir.WithoutNullGuard),
// over 10,000 rows as the rewrite's benchmark evaluates them. The two
// forms are equal (the differential test proves it); this measures what
// the guard costs the embedded engine.
func BenchmarkNullGuard(b *testing.B) {
	rec := doubleBatch(10_000)
	defer rec.Release()
	cols := []Column{{Name: "celsius", Type: udf.Prim(udf.Double)}}
	for _, c := range []struct{ name, sql string }{
		{"guarded", "CASE WHEN (`celsius` IS NULL) THEN CAST(NULL AS DOUBLE) ELSE (((`celsius` * 9.0D) / 5.0D) + 32.0D) END"},
		{"unguarded", "(((`celsius` * 9.0D) / 5.0D) + 32.0D)"},
	} {
		e, err := Compile(c.sql, cols, Options{ANSI: true, TimeZone: "UTC"})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				res, err := e.Eval(rec, memory.DefaultAllocator)
				if err != nil {
					b.Fatal(err)
				}
				res.Values.Release()
			}
		})
	}
}
