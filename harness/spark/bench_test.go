package spark

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"testing"

	"github.com/udfx/udfx/harness/udf"
)

// BenchmarkCelsius measures Session.Bench for the Python Celsius and the
// Scala ToFahrenheit examples against the translator's rewrite:
// UDFX_SPARK_BENCH_ROWS rows (default 1,000,000), 1 warm-up and 5
// alternating runs per b.N. It reports the medians and their ratio.
//
//	go test ./harness/spark -run '^$' -bench Celsius -benchtime 1x
func BenchmarkCelsius(b *testing.B) {
	rows := 1_000_000
	if v := os.Getenv("UDFX_SPARK_BENCH_ROWS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			b.Fatalf("UDFX_SPARK_BENCH_ROWS: %v", err)
		}
		rows = n
	}
	for _, c := range []struct{ name, file, udf string }{
		{"python", "examples/python-celsius/celsius.py", "to_fahrenheit"},
		{"scala", "examples/scala-to-fahrenheit/ToFahrenheit.scala", "ToFahrenheit"},
	} {
		b.Run(c.name, func(b *testing.B) {
			u := parseUDF(b, c.file, c.udf)
			in := filepath.Join(b.TempDir(), "in.parquet")
			rec := generate(b, u, rows)
			if err := WriteParquet(in, rec); err != nil {
				b.Fatal(err)
			}
			s := session(b)
			for i := 0; i < b.N; i++ {
				res, err := s.Bench(context.Background(), BenchJob{UDF: u, Rewrite: translatorSQL, Input: in, Warmup: 1, Runs: 5})
				if err != nil {
					b.Fatal(err)
				}
				o, r := median(res.Original), median(res.Rewrite)
				b.ReportMetric(o, "original-s")
				b.ReportMetric(r, "rewrite-s")
				b.ReportMetric(o/r, "ratio")
				b.Logf("%s %d rows: original %v, rewrite %v", udfLabel(u), rows, res.Original, res.Rewrite)
			}
		})
	}
}

func median(xs []float64) float64 {
	s := append([]float64{}, xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func udfLabel(u *udf.UDF) string { return string(u.Language) + " " + u.Name }
