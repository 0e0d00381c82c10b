package spark

import (
	"context"
	"testing"
)

// Spark resolves a rewrite's column names case-insensitively (the
// default spark.sql.caseSensitive=false): CELSIUS and `Celsius` are the
// input column celsius. udfx's use-site substitution relies on this when
// it replaces a parameter written in another case by the call's argument
// (harness/rewrite, substitute).
func TestColumnNamesResolveCaseInsensitively(t *testing.T) {
	u := parseUDF(t, "examples/python-celsius/celsius.py", "to_fahrenheit")
	rec := generate(t, u, 1000)
	ctx := context.Background()
	s := session(t)
	want, err := s.Run(ctx, Job{Rewrite: translatorSQL, Input: rec})
	if err != nil || want.Rewrite == nil || want.Rewrite.Err != nil {
		t.Fatalf("Run(lower case): %v %+v", err, want)
	}
	got, err := s.Run(ctx, Job{Rewrite: "CASE WHEN (CELSIUS IS NULL) THEN CAST(NULL AS DOUBLE) ELSE (((`Celsius` * 9.0D) / 5.0D) + 32.0D) END", Input: rec})
	if err != nil || got.Rewrite == nil || got.Rewrite.Err != nil {
		t.Fatalf("Run(other case): %v %+v", err, got)
	}
	if n, i := mismatches(want.Rewrite.Values, got.Rewrite.Values); n > 0 {
		t.Fatalf("%d rows differ; first row %d: %s vs %s", n, i, want.Rewrite.Values[i], got.Rewrite.Values[i])
	}
}
