package spark

import (
	"context"
	"strings"
	"testing"

	"github.com/udfx/udfx/harness/render/sparksql"
	"github.com/udfx/udfx/harness/udf"
)

// A rewrite proved per type is a typeof guard (sparksql.TypeGuard). Spark
// folds typeof, so the executed plan holds the proved branch alone: the
// guard costs nothing per row. A column of a type outside the guard fails
// the job with the guard's message, never computing a value.
func TestTypeGuardFoldsToOneBranch(t *testing.T) {
	u := parseUDF(t, "examples/python-celsius/celsius.py", "to_fahrenheit")
	guard, err := sparksql.TypeGuard(u.Name, []string{"celsius"}, []sparksql.TypeBranch{
		{Types: []*udf.Type{udf.Prim(udf.Double)}, SQL: translatorSQL},
		{Types: []*udf.Type{udf.Prim(udf.Int)}, SQL: "CAST(`celsius` AS DOUBLE) * 2.0D"},
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	s := session(t)
	rec := generate(t, u, 1000)
	want, err := s.Run(ctx, Job{Rewrite: translatorSQL, Input: rec})
	if err != nil || want.Rewrite == nil || want.Rewrite.Err != nil {
		t.Fatalf("Run(branch): %v %+v", err, want)
	}
	got, err := s.Run(ctx, Job{Rewrite: guard, Input: rec})
	if err != nil || got.Rewrite == nil || got.Rewrite.Err != nil {
		t.Fatalf("Run(guard): %v %+v", err, got)
	}
	if n, i := mismatches(want.Rewrite.Values, got.Rewrite.Values); n > 0 {
		t.Fatalf("%d rows differ; first row %d: %s vs %s", n, i, want.Rewrite.Values[i], got.Rewrite.Values[i])
	}
	plan := strings.ToLower(got.Rewrite.Plan)
	for _, gone := range []string{"typeof", "raise_error", " * 2.0)"} {
		if strings.Contains(plan, gone) {
			t.Errorf("the executed plan still holds %q: the guard was not folded:\n%s", gone, got.Rewrite.Plan)
		}
	}
	if !strings.Contains(plan, "32.0") {
		t.Errorf("the executed plan lacks the double branch:\n%s", got.Rewrite.Plan)
	}

	other := *u
	other.Params = []udf.Param{{Name: "celsius", Type: udf.Prim(udf.Long)}}
	res, err := s.Run(ctx, Job{Rewrite: guard, Input: generate(t, &other, 100)})
	if err != nil {
		t.Fatalf("Run(bigint): %v", err)
	}
	if res.Rewrite == nil || res.Rewrite.Err == nil || !strings.Contains(res.Rewrite.Err.Message, "udfx: to_fahrenheit was proved only for (celsius) of types (double); (int)") {
		t.Fatalf("a bigint column must fail with the guard's message: %+v", res.Rewrite)
	}
}
