package inputs

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/udf"
)

func TestIPCRoundTripIsExact(t *testing.T) {
	mem := checkedMem(t)
	var params []Param
	for i, ts := range allTypes {
		params = append(params, Param{Name: "p" + string(rune('a'+i)), Type: mustType(t, ts)})
	}
	rec, st, err := Generate(params, Options{Seed: 11, Rows: 2000}, mem)
	require.NoError(t, err)
	defer rec.Release()
	path := filepath.Join(t.TempDir(), "inputs.arrow")
	require.NoError(t, WriteIPC(path, rec))
	back, err := ReadIPC(path, mem)
	require.NoError(t, err)
	defer back.Release()

	require.True(t, back.Schema().Equal(rec.Schema()))
	require.Equal(t, rec.NumRows(), back.NumRows())
	for c := range params {
		assert.Equal(t, tokens(rec, c), tokens(back, c), "column %s", params[c].Name)
	}
	got, ok := StatsFromSchema(back.Schema())
	require.True(t, ok)
	assert.Equal(t, st, got)

	// NaN payloads in particular, bit for bit: the double specials come
	// first in the double column's own special rows.
	dc := slicesIndex(allTypes, "double")
	offset := 0
	for _, p := range params[:dc] {
		offset += len(Specials(p.Type))
	}
	d := back.Column(dc).(*array.Float64)
	nans := 0
	for i, s := range Specials(udf.Prim(udf.Double)) {
		got := math.Float64bits(d.Value(offset + i))
		require.Equal(t, s.Bits, got, "special %d", i)
		if math.IsNaN(d.Value(offset + i)) {
			nans++
		}
	}
	assert.GreaterOrEqual(t, nans, 8)
}

func slicesIndex(xs []string, x string) int {
	for i, v := range xs {
		if v == x {
			return i
		}
	}
	return -1
}

func TestWriteIPCIsAtomic(t *testing.T) {
	mem := checkedMem(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "x.arrow")
	gen := func(seed int64) arrow.RecordBatch {
		rec, _, err := Generate([]Param{{"x", udf.Prim(udf.Double)}}, Options{Seed: seed, Rows: 500}, mem)
		require.NoError(t, err)
		return rec
	}
	a, b := gen(1), gen(2)
	defer a.Release()
	defer b.Release()
	require.NoError(t, WriteIPC(path, a))
	require.NoError(t, WriteIPC(path, b)) // replaces
	back, err := ReadIPC(path, mem)
	require.NoError(t, err)
	defer back.Release()
	assert.Equal(t, tokens(b, 0), tokens(back, 0))
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary file is left behind")

	err = WriteIPC(filepath.Join(dir, "missing", "x.arrow"), a)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "missing")
}

func TestReadIPCErrors(t *testing.T) {
	mem := checkedMem(t)
	dir := t.TempDir()
	_, err := ReadIPC(filepath.Join(dir, "none.arrow"), mem)
	require.ErrorIs(t, err, os.ErrNotExist)
	bad := filepath.Join(dir, "bad.arrow")
	require.NoError(t, os.WriteFile(bad, []byte("not arrow at all"), 0o644))
	_, err = ReadIPC(bad, mem)
	require.ErrorContains(t, err, "bad.arrow: not an Arrow IPC file")
}
