package spark

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/value"
)

// A Jupyter notebook's UDF is registered from its code cells' Python, the
// %pip and %%sql magics as comments and the session and job left out, as
// the Python runner loads it.
func TestANotebooksUDFRunsOnSpark(t *testing.T) {
	u := parseUDF(t, "harness/runner/python/testdata/codes.ipynb", "label")
	u.Params[0].Type = udf.Prim(udf.String)
	b := array.NewStringBuilder(memory.DefaultAllocator)
	b.AppendValues([]string{" a1 ", ""}, []bool{true, false})
	col := b.NewArray()
	defer col.Release()
	rec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "code", Type: arrow.BinaryTypes.String, Nullable: true}}, nil), []arrow.Array{col}, 2)
	defer rec.Release()
	res, err := session(t).Run(context.Background(), Job{UDF: u, Input: rec})
	if err != nil || res.Original == nil || res.Original.Err != nil {
		t.Fatalf("Run: %v %+v", err, res)
	}
	if got := []string{value.Token(res.Original.Values[0]), value.Token(res.Original.Values[1])}; got[0] != value.Token(value.StringOf("code:a1")) || got[1] != value.Token(value.NullValue()) {
		t.Fatalf("got %v", got)
	}
}
