package sparksql_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/engine"
	"github.com/udfx/udfx/harness/render/sparksql"
	"github.com/udfx/udfx/harness/udf"
)

func TestTypeGuard(t *testing.T) {
	str, i64 := udf.Prim(udf.String), udf.Prim(udf.Long)
	got, err := sparksql.TypeGuard("f", []string{"a", "we`ird"}, []sparksql.TypeBranch{
		{Types: []*udf.Type{dbl, str}, SQL: "`a` * 2.0D"},
		{Types: []*udf.Type{i64, str}, SQL: "`a` * 2L"},
	})
	require.NoError(t, err)
	assert.Equal(t, "CASE WHEN typeof(`a`) = 'double' AND typeof(`we``ird`) = 'string' THEN (`a` * 2.0D)"+
		" WHEN typeof(`a`) = 'bigint' AND typeof(`we``ird`) = 'string' THEN (`a` * 2L)"+
		" ELSE raise_error('udfx: f was proved only for (a, we`ird) of types (double, string); (bigint, string)') END", got)

	for _, bad := range [][]sparksql.TypeBranch{
		nil,
		{{Types: []*udf.Type{dbl}, SQL: "1"}},
		{{Types: []*udf.Type{dbl, nil}, SQL: "1"}},
	} {
		_, err := sparksql.TypeGuard("f", []string{"a", "b"}, bad)
		assert.Error(t, err)
	}
}

func TestTypeGuardType(t *testing.T) {
	guard, err := sparksql.TypeGuard("f", []string{"x"}, []sparksql.TypeBranch{
		{Types: []*udf.Type{dbl}, SQL: "`x` + 1.0D"},
		{Types: []*udf.Type{i32}, SQL: "`x` + 2"},
	})
	require.NoError(t, err)
	// The CASE's type is its branches' common type for every column type:
	// the translator's branches all return the UDF's declared type.
	for _, typ := range []*udf.Type{dbl, i32, udf.Prim(udf.Long)} {
		e, err := engine.Compile(guard, []engine.Column{{Name: "x", Type: typ}}, engine.Options{ANSI: true})
		require.NoError(t, err, "a type outside the guard compiles too and fails per row, as in Spark")
		assert.Equal(t, "double", e.Type().String())
	}
}
