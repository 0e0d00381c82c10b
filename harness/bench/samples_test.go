package bench

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/udf"
)

func TestInputsRepeatTheSamplesInOrder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rows.jsonl")
	require.NoError(t, os.WriteFile(path, []byte("{\"ms\": 1}\n{\"ms\": null}\n{\"ms\": 3}\n"), 0o644))
	u := &udf.UDF{Name: "f", Params: []udf.Param{{Name: "ms", Type: udf.Prim(udf.Long)}}}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	rec, _, err := Inputs(u, 7, 1, path, mem)
	require.NoError(t, err)
	col := rec.Column(0).(*array.Int64)
	var got []any
	for i := 0; i < col.Len(); i++ {
		if col.IsNull(i) {
			got = append(got, nil)
		} else {
			got = append(got, col.Value(i))
		}
	}
	assert.Equal(t, []any{int64(1), nil, int64(3), int64(1), nil, int64(3), int64(1)}, got)
	rec.Release()
	mem.AssertSize(t, 0)

	empty := filepath.Join(t.TempDir(), "empty.jsonl")
	require.NoError(t, os.WriteFile(empty, nil, 0o644))
	_, _, err = Inputs(u, 7, 1, empty, mem)
	var se *SamplesError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, empty, se.Path)
}
