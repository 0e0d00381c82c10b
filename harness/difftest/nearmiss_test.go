package difftest

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/inputs"
	"github.com/udfx/udfx/harness/jdkcase"
	"github.com/udfx/udfx/harness/pycase"
	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/runner/python"
	"github.com/udfx/udfx/harness/runner/runners"
	"github.com/udfx/udfx/harness/testsetup"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/value"
)

const isTempSource = `from pyspark.sql.functions import udf
from pyspark.sql.types import BooleanType


@udf(BooleanType())
def is_temp(table_name: str):
    if table_name is None:
        return None
    return table_name.startswith("tmp_")
`

// TestNearMissesRefuteAOneCharacterLiteral: the mutant,
// startswith(table_name, 'tmp') for a UDF that tests "tmp_", agreed with
// the original on every generated row, none of which starts with "tmp".
// With the near misses of the literals of both sides ("tmp_", "tmp",
// "tmpx", "TMP_", ...) the test refutes it, and still proves the exact
// form.
func TestNearMissesRefuteAOneCharacterLiteral(t *testing.T) {
	root, err := testsetup.RepoRoot()
	require.NoError(t, err)
	t.Setenv("UDFX_PYTHON", filepath.Join(root, ".venv", "bin", "python"))
	u := pythonUDF(t, isTempSource, udf.Prim(udf.String))
	u.Return = udf.Prim(udf.Boolean)

	opts := Options{Seed: 1, Rows: 2000, ANSI: true, Limits: runner.DefaultLimits, NewRunner: python.NewPerRow}
	const mutant = "startswith(table_name, 'tmp')"
	rep, err := Run(context.Background(), u, Rewrite{SQL: mutant}, opts)
	require.NoError(t, err)
	assert.True(t, rep.Equal, "random rows never start with tmp: the mutant passes without near misses")

	opts.NearMisses = true
	rep, err = Run(context.Background(), u, Rewrite{SQL: mutant}, opts)
	require.NoError(t, err)
	assert.False(t, rep.Equal)
	assert.Positive(t, rep.NearMissRows)
	require.NotNil(t, rep.Counterexample)
	assert.GreaterOrEqual(t, rep.Counterexample.Row, rep.Rows-rep.NearMissRows, "a near miss refutes it")

	rep, err = Run(context.Background(), u, Rewrite{SQL: "startswith(table_name, 'tmp_')"}, opts)
	require.NoError(t, err)
	assert.True(t, rep.Equal, "%+v", rep.Counterexample)
}

func TestNearMissRows(t *testing.T) {
	var lits inputs.Literals
	lits.Harvest(`x.startswith("tmp_") or y == 'it''s' and z > 32.5 and n < 7`)
	assert.Equal(t, []string{"tmp_", "it's"}, lits.Strings)
	assert.Equal(t, []float64{32.5, 7}, lits.Numbers)
	params := []inputs.Param{{Name: "s", Type: udf.Prim(udf.String)}, {Name: "n", Type: udf.Prim(udf.Int)}}
	base := []value.Value{value.StringOf("base"), value.IntOf(3)}
	rows := inputs.NearMissRows(params, lits, base)
	var strs []string
	var ints []int64
	for _, r := range rows {
		if s := r[0].GoString(); s != "base" {
			strs = append(strs, s)
			assert.Equal(t, int64(3), r[1].Int)
		} else {
			ints = append(ints, r[1].Int)
		}
	}
	for _, want := range []string{"tmp_", "tmp", "mp_", "tmp_x", "xtmp_", "tmp_tmp_", "tmp`", "TMP_", "Tmp_", "tmp_it's", "\U0001F600tmp_"} {
		assert.Contains(t, strs, want)
	}
	assert.Equal(t, []int64{6, -8, 7, -7, 8, -6}, ints, "7 and its neighbours; 32.5 is no int")
}

const shoutSource = `from pyspark.sql.functions import udf


@udf("string")
def shout(s: str):
    if s is None:
        return None
    return s.upper()
`

// TestNearMissesHoldTheCodePointsARewriteNames: the rewrite of
// str.upper() treats the code points CPython 3.11 maps unlike Spark apart,
// by a class of \x{h} escapes. Random strings hold one only now and then
// (one of 2,000 rows of seed 1 does; none of these 300), so a rewrite that
// forgets them may pass; the near misses hold every code point the
// rewrite names, which refute it, and the exact rewrite passes them.
func TestNearMissesHoldTheCodePointsARewriteNames(t *testing.T) {
	root, err := testsetup.RepoRoot()
	require.NoError(t, err)
	t.Setenv("UDFX_PYTHON", filepath.Join(root, ".venv", "bin", "python"))
	u := pythonUDF(t, shoutSource, udf.Prim(udf.String))
	exact, err := pycase.UpperSQL("`s`")
	require.NoError(t, err)
	class := exact[strings.Index(exact, "'[") : strings.Index(exact, "]'")+2]
	forgetful := "CASE WHEN `s` RLIKE " + class + " THEN upper(`s`) ELSE upper(`s`) END"

	opts := Options{Seed: 1, Rows: 300, ANSI: true, Limits: runner.DefaultLimits, NewRunner: python.NewPerRow}
	rep, err := Run(context.Background(), u, Rewrite{SQL: forgetful}, opts)
	require.NoError(t, err)
	assert.True(t, rep.Equal, "no generated row holds one of those code points")

	opts.NearMisses = true
	rep, err = Run(context.Background(), u, Rewrite{SQL: forgetful}, opts)
	require.NoError(t, err)
	assert.False(t, rep.Equal)
	require.NotNil(t, rep.Counterexample)
	assert.GreaterOrEqual(t, rep.Counterexample.Row, rep.Rows-rep.NearMissRows, "a near miss refutes it")

	rep, err = Run(context.Background(), u, Rewrite{SQL: exact}, opts)
	require.NoError(t, err)
	assert.True(t, rep.Equal, "%+v", rep.Counterexample)
}

// TestNearMissesRefuteSparksCaseMappingForTheJDKs: Spark's lower and upper
// are not the JDK's where the JDK's word boundaries decide final sigma
// ("A1Σ") and on the letters newer Unicode gave case pairs. A rewrite that
// says lower(s) for toLowerCase, or upper(s) for toUpperCase, passes
// random rows; the case traps a case-mapping source adds to the near
// misses refute both, and the exact upper passes them.
func TestNearMissesRefuteSparksCaseMappingForTheJDKs(t *testing.T) {
	us := udfsIn(t, "testdata/CaseMap.scala", udf.Scala)
	exactUpper, err := jdkcase.UpperSQL("`s`")
	require.NoError(t, err)
	for _, tc := range []struct {
		name, sql string
		equal     bool
	}{
		{"LowerIt", "lower(`s`)", false},
		{"UpperIt", "upper(`s`)", false},
		{"UpperIt", exactUpper, true},
	} {
		opts := Options{Seed: 1, Rows: 300, ANSI: true, Limits: runner.DefaultLimits, NewRunner: runners.New}
		if !tc.equal {
			rep, err := Run(context.Background(), us[tc.name], Rewrite{SQL: tc.sql}, opts)
			require.NoError(t, err)
			assert.True(t, rep.Equal, "%s: no generated row holds a case trap", tc.name)
		}
		opts.NearMisses = true
		rep, err := Run(context.Background(), us[tc.name], Rewrite{SQL: tc.sql}, opts)
		require.NoError(t, err)
		assert.Equal(t, tc.equal, rep.Equal, "%s %s: %+v", tc.name, tc.sql, rep.Counterexample)
		if !tc.equal {
			require.NotNil(t, rep.Counterexample)
			assert.GreaterOrEqual(t, rep.Counterexample.Row, rep.Rows-rep.NearMissRows, "a near miss refutes it")
		}
	}
}
