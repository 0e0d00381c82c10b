package scan_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/udfx/udfx/harness/scan"
	"github.com/udfx/udfx/harness/udf/frontends"
)

// benchTreeFiles is the size of the generated tree the scan benchmark
// walks: the figure the foundation issue sets a goal for.
const benchTreeFiles = 5000

// writeBenchTree writes n mixed Scala, Java and Python files, derived from
// the examples with names made unique, in 50 folders. About a third hold
// no UDF, as in a real repository.
func writeBenchTree(b *testing.B, n int) string {
	b.Helper()
	var templates []struct{ ext, src string }
	for _, p := range []string{
		"scala-to-fahrenheit/ToFahrenheit.scala", "scala-lambda-fahrenheit/FahrenheitLambda.scala",
		"scala-no-udf/WarmReadings.scala", "java-to-fahrenheit/ToFahrenheit.java",
		"python-celsius/celsius.py", "python-wordcount/wordcount.py", "python-vectors/vectors.py",
	} {
		src, err := os.ReadFile(filepath.Join("..", "..", "examples", p))
		if err != nil {
			b.Fatal(err)
		}
		templates = append(templates, struct{ ext, src string }{filepath.Ext(p), string(src)})
	}
	dir := b.TempDir()
	for i := range n {
		t := templates[i%len(templates)]
		sub := filepath.Join(dir, fmt.Sprintf("pkg%02d", i%50))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			b.Fatal(err)
		}
		src := strings.NewReplacer("ToFahrenheit", fmt.Sprintf("ToFahrenheit%d", i),
			"to_fahrenheit", fmt.Sprintf("to_fahrenheit_%d", i)).Replace(t.src)
		name := fmt.Sprintf("File%d%s", i, t.ext)
		if err := os.WriteFile(filepath.Join(sub, name), []byte(src), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return dir
}

func BenchmarkScan5000Files(b *testing.B) {
	dir := writeBenchTree(b, benchTreeFiles)
	b.ResetTimer()
	var udfs int
	for range b.N {
		res, err := scan.Run(context.Background(), scan.Options{BaseDir: dir, NewFrontend: frontends.New})
		if err != nil {
			b.Fatal(err)
		}
		if res.FilesScanned != benchTreeFiles || len(res.Errors) > 0 {
			b.Fatalf("scanned %d files with %d errors, want %d clean", res.FilesScanned, len(res.Errors), benchTreeFiles)
		}
		udfs = len(res.UDFs)
	}
	b.ReportMetric(float64(benchTreeFiles*b.N)/b.Elapsed().Seconds(), "files/s")
	b.ReportMetric(float64(udfs), "udfs")
}
