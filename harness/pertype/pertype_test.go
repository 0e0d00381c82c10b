package pertype_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/pertype"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/udf/frontends"
	"github.com/udfx/udfx/internal/typeinfer"
)

// parse finds name in a Python source and resolves its types from the
// file, as udfx rewrite does.
func parse(t *testing.T, src, name string) *udf.UDF {
	t.Helper()
	fe := frontends.New(udf.Python)
	defer fe.Close()
	us, err := fe.Parse("job.py", []byte(src))
	require.NoError(t, err)
	u := udf.Lookup(us, name)
	require.NotNil(t, u, "no UDF %s", name)
	require.NoError(t, typeinfer.Resolve(u, []byte(src), typeinfer.Options{}))
	return u
}

const job = `from pyspark.sql.functions import udf
from pyspark.sql.types import DoubleType, StringType

@udf(returnType=DoubleType())
def scale(x):
    return x * 1.5

@udf(returnType=StringType())
def pair(a, b):
    return a + b

@udf(returnType=StringType())
def three(a, b, c):
    return a
`

func TestAssignments(t *testing.T) {
	// A float literal mixed with x: the numeric types, commonest first.
	as, err := pertype.Assignments(parse(t, job, "scale"), []byte(job))
	require.NoError(t, err)
	var labels []string
	for _, a := range as {
		labels = append(labels, a.Label)
		assert.Equal(t, udf.TypeFromPerType, a.UDF.TypeSources[0].Source)
		assert.Equal(t, a.Types[0], a.UDF.Params[0].Type)
	}
	assert.Equal(t, []string{"x double", "x bigint", "x int", "x float", "x smallint", "x tinyint"}, labels)

	// Otherwise every type, and the product over parameters.
	as, err = pertype.Assignments(parse(t, job, "pair"), []byte(job))
	require.NoError(t, err)
	assert.Len(t, as, 100)
	assert.Equal(t, "a string, b string", as[0].Label)
	assert.Equal(t, "a string, b double", as[1].Label)

	_, err = pertype.Assignments(parse(t, job, "three"), []byte(job))
	assert.True(t, errors.Is(err, pertype.ErrTooMany), "%v", err)
}

// The verdicts of the translator and the tests make the guard: declined
// and refuted assignments leave it, and the smaller guard is tested again.
func TestProve(t *testing.T) {
	u := parse(t, job, "scale")
	as, err := pertype.Assignments(u, []byte(job))
	require.NoError(t, err)
	translate := func(a pertype.Assignment) (pertype.Translation, error) {
		if a.Types[0].Kind == udf.Float {
			return pertype.Translation{Decline: "float: not translated"}, nil
		}
		return pertype.Translation{SQL: "`x` * 1.5D /* " + a.Label + " */"}, nil
	}
	var tested []string
	test := func(a pertype.Assignment, guard string, round int) (bool, string, string, error) {
		tested = append(tested, fmt.Sprintf("%d %s", round, a.Label))
		assert.Contains(t, guard, "typeof(`x`) = '"+a.Types[0].String()+"'")
		if a.Types[0].Kind == udf.Long {
			return false, pertype.Refuted, "differs on 3 rows", nil
		}
		return true, "", "", nil
	}
	res, err := pertype.Prove(u, as, translate, test)
	require.NoError(t, err)
	assert.Equal(t, []string{
		"1 x double", "1 x bigint", "1 x int", "1 x smallint", "1 x tinyint",
		"2 x double", "2 x int", "2 x smallint", "2 x tinyint",
	}, tested)
	assert.Equal(t, []pertype.Verdict{
		{Types: "x double", Verdict: "verified"}, {Types: "x int", Verdict: "verified"},
		{Types: "x smallint", Verdict: "verified"}, {Types: "x tinyint", Verdict: "verified"},
		{Types: "x float", Verdict: "declined", Reason: "float: not translated"},
		{Types: "x bigint", Verdict: "refuted", Reason: "differs on 3 rows"},
	}, res.Verdicts)
	assert.NotContains(t, res.Guard, "bigint")
	assert.True(t, strings.HasSuffix(res.Guard, "ELSE raise_error('udfx: scale was proved only for (x) of types (double); (int); (smallint); (tinyint)') END"), res.Guard)

	// A test that changes its verdict once others are dropped stops it.
	flaky := func(a pertype.Assignment, _ string, round int) (bool, string, string, error) {
		return a.Types[0].Kind != udf.Long && !(round == 2 && a.Types[0].Kind == udf.Int), pertype.Refuted, "no", nil
	}
	_, err = pertype.Prove(u, as, translate, flaky)
	assert.ErrorContains(t, err, "changed when refuted branches were dropped")

	// Nothing translated: no guard, every assignment declined.
	res, err = pertype.Prove(u, as, func(pertype.Assignment) (pertype.Translation, error) { return pertype.Translation{}, nil }, test)
	require.NoError(t, err)
	assert.Empty(t, res.Guard)
	assert.Len(t, res.Verdicts, 6)
	assert.Equal(t, "the translator gave no rewrite", res.Verdicts[0].Reason)
}

// At most MaxProved assignments are tested; the rest are listed as not
// tried.
func TestProveBound(t *testing.T) {
	u := parse(t, job, "pair")
	as, err := pertype.Assignments(u, []byte(job))
	require.NoError(t, err)
	res, err := pertype.Prove(u, as,
		func(pertype.Assignment) (pertype.Translation, error) { return pertype.Translation{SQL: "`a`"}, nil },
		func(pertype.Assignment, string, int) (bool, string, string, error) { return true, "", "", nil })
	require.NoError(t, err)
	assert.Len(t, res.Proved, pertype.MaxProved)
	assert.Len(t, res.Verdicts, 100)
	assert.Equal(t, pertype.Verdict{Types: "a string, b smallint", Verdict: "not tried", Reason: "udfx proves at most 8 types per UDF"}, res.Verdicts[pertype.MaxProved])
	assert.Contains(t, res.Guard, "typeof(`a`) = 'string' AND typeof(`b`) = 'string' THEN (`a`)")
}
