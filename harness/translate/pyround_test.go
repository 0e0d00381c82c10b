package translate

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/difftest"
	"github.com/udfx/udfx/harness/runner/runners"
	"github.com/udfx/udfx/harness/spark"
	"github.com/udfx/udfx/harness/testsetup"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/udf/frontends"
)

// roundDigitsSamples are doubles where CPython's round(x, k) and a
// decimal reading of x part ways: decimal ties that the binary value
// misses (2.675 is 2.67499999...), exact binary ties that round half to
// even (0.125), values whose fraction needs every bit (near 2^52, where
// the decimal sum overflows a double's precision), negatives that round
// to -0.0, subnormals; then seeded random values of each of those
// shapes. NaN and the infinities are among the generated special rows.
func roundDigitsSamples() []float64 {
	xs := []float64{0.125, 0.375, 2.675, 1.005, 0.285, 1.115, -0.125, -2.675, 0.005, 0.015, 0.025, 0.995, 9.995,
		-0.001, 0.5, 1.5, 2.5, 0.045, 0.055, 1234.5678, 1e-300, 5e-324, -5e-324, 4.5e13 + 0.125,
		4503599627370495.5, 4503599627370496, 9007199254740993, 1e15 + 0.375, 123456789012.345,
		math.MaxFloat64, -math.MaxFloat64, 0.49999999999999994, 0.05, 0.0049999999999999999, 1e10 + 0.00005}
	r := rand.New(rand.NewSource(20261204))
	for i := 0; i < 4000; i++ {
		switch i % 5 {
		case 0:
			xs = append(xs, r.Float64()*2000-1000)
		case 1:
			xs = append(xs, float64(r.Intn(2_000_000)-1_000_000)/1000)
		case 2:
			xs = append(xs, float64(r.Intn(2_000_000)-1_000_000)/1000+0.005*float64(r.Intn(3)-1))
		case 3:
			if x := math.Float64frombits(r.Uint64()); !math.IsNaN(x) && !math.IsInf(x, 0) {
				xs = append(xs, x)
			}
		default:
			xs = append(xs, float64(r.Intn(2_000_000_000)-1_000_000_000)/8)
		}
	}
	return xs
}

// TestPyRoundDigitsMatchesCPython proves the round(x, k) rule on the
// samples against the real CPython that runs the originals, once on
// the embedded engine and once on real Spark: the rule leans on Spark's
// bround, floor, decimal arithmetic and decimal-to-double cast.
func TestPyRoundDigitsMatchesCPython(t *testing.T) {
	var samples []map[string]any
	for _, x := range roundDigitsSamples() {
		samples = append(samples, map[string]any{"x": x})
	}
	var srcs []string
	for _, k := range []int{0, 1, 2, 3, 4, 10} {
		srcs = append(srcs, fmt.Sprintf("from pyspark.sql.functions import udf\n\n\n@udf(\"double\")\ndef r%d(x: float) -> float:\n    if x is None:\n        return None\n    return round(x, %d)\n", k, k))
	}
	proveOnSamples(t, srcs, samples)
}

// proveOnSamples translates each Python source's one UDF and proves the
// rewrite against CPython on the samples (JSON Lines rows) and the
// generated rows, on the embedded engine and then on real Spark.
func proveOnSamples(t *testing.T, srcs []string, samples []map[string]any) {
	t.Helper()
	proveOn(t, srcs, samples, true)
}

// proveOn is proveOnSamples, on real Spark too only where onSpark: Spark
// stops a job at the original's first exception, so originals that raise
// on some rows are proved on the embedded engine alone, which compares
// exceptions row by row.
func proveOn(t *testing.T, srcs []string, samples []map[string]any, onSpark bool) {
	t.Helper()
	files := make([]sourceFile, len(srcs))
	for i, src := range srcs {
		files[i] = sourceFile{fmt.Sprintf("u%d.py", i), src}
	}
	proveFilesOn(t, files, samples, onSpark)
}

// sourceFile is a UDF's file: its name (a Java class's file is named
// after the class) and its text.
type sourceFile struct{ name, src string }

// proveFilesOn is proveOn for files of any language udfx reads, each
// holding one UDF.
func proveFilesOn(t *testing.T, files []sourceFile, samples []map[string]any, onSpark bool) {
	t.Helper()
	root, err := testsetup.RepoRoot()
	require.NoError(t, err)
	dir := t.TempDir()
	var lines []string
	for _, row := range samples {
		b, err := json.Marshal(row)
		require.NoError(t, err)
		lines = append(lines, string(b))
	}
	samplesPath := filepath.Join(dir, "samples.jsonl")
	require.NoError(t, os.WriteFile(samplesPath, []byte(strings.Join(lines, "\n")+"\n"), 0o644))

	var us []*udf.UDF
	var sqls []string
	for i, f := range files {
		src := f.src
		path := filepath.Join(dir, fmt.Sprint(i), f.name)
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
		lang := map[string]udf.Language{".py": udf.Python, ".scala": udf.Scala, ".java": udf.Java}[filepath.Ext(f.name)]
		fe := frontends.New(lang)
		parsed, err := fe.Parse(path, []byte(src))
		fe.Close()
		require.NoError(t, err)
		require.Len(t, parsed, 1)
		res, err := Translate(&parsed[0], []byte(src))
		require.NoError(t, err)
		require.Empty(t, res.Declines, "%s", src)
		us, sqls = append(us, &parsed[0]), append(sqls, res.SQL)
	}

	ctx := context.Background()
	opts := difftest.Options{Seed: 7, Rows: 200, Samples: samplesPath, ANSI: true, NewRunner: runners.New}
	for i, u := range us {
		rep, err := difftest.Run(ctx, u, difftest.Rewrite{SQL: sqls[i]}, opts)
		require.NoError(t, err, "%s on the embedded engine", u.Name)
		require.True(t, rep.Equal, "%s on the embedded engine: %d mismatches, first %+v", u.Name, rep.Mismatches, rep.Counterexample)
		require.GreaterOrEqual(t, rep.Rows, len(samples))
	}
	if !onSpark {
		return
	}

	start := time.Now()
	s, err := spark.Start(ctx, spark.Config{ANSI: true, Dir: root})
	require.NoError(t, err, "starting Spark")
	defer s.Close()
	t.Logf("Spark %s started in %.0fs", s.Version(), time.Since(start).Seconds())
	opts.Spark = s
	for i, u := range us {
		rep, err := difftest.Run(ctx, u, difftest.Rewrite{SQL: sqls[i]}, opts)
		require.NoError(t, err, "%s on Spark", u.Name)
		require.True(t, rep.Equal, "%s on Spark: %d mismatches, first %+v; refuted: %s", u.Name, rep.Mismatches, rep.Counterexample, rep.Refuted)
		require.GreaterOrEqual(t, rep.Rows, len(samples))
	}
}
