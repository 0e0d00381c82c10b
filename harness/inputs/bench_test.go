package inputs

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/udfx/udfx/harness/udf"
)

// BenchmarkGenerateDouble1M generates 1,000,000 rows of one double
// column (specials, the all-null row, random values with 5% nulls).
func BenchmarkGenerateDouble1M(b *testing.B) {
	params := []Param{{"celsius", udf.Prim(udf.Double)}}
	mem := memory.NewGoAllocator()
	b.ReportAllocs()
	for b.Loop() {
		rec, _, err := Generate(params, Options{Seed: 1, Rows: 1_000_000}, mem)
		if err != nil {
			b.Fatal(err)
		}
		rec.Release()
	}
	b.ReportMetric(float64(1_000_000*b.N)/b.Elapsed().Seconds(), "rows/s")
}
