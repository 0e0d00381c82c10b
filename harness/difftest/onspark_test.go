package difftest

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/engine"
	"github.com/udfx/udfx/harness/inputs"
	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/spark"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/value"
)

// The allow-list runs before any Spark job: the reproductions
// (a subquery reading a file, reflect hidden by backquotes or a comment)
// are refused with the construct named; the old deny-list of names read
// the text and missed all three.
func TestGuardBeforeAnySparkJob(t *testing.T) {
	params := []inputs.Param{{Name: "celsius"}, {Name: "user"}}
	for _, tc := range []struct{ sql, want string }{
		{"celsius * 9.0D / 5.0D + 32.0D", ""},
		{"concat(user, 'x')", ""},         // a parameter named user
		{"concat('rand()', celsius)", ""}, // inside a string literal
		{"celsius * 0.0D + ascii(substr((SELECT first(value) FROM text.`/etc/hostname`), 2, 1))", "a subquery (SELECT ...)"},
		{"`reflect`('java.lang.Math', 'abs', celsius)", "reflect()"},
		{"reflect/* x */('java.lang.Math', 'abs', celsius)", "a comment (/* */)"},
		{"CASE WHEN monotonically_increasing_id() IN (17) THEN 0.0D ELSE celsius END", "monotonically_increasing_id()"},
		{"if(current_date > DATE'2020-01-01', celsius, 0.0D)", "current_date"},
		{"uuid()", "uuid()"},
	} {
		err := guard(tc.sql, params)
		if tc.want == "" {
			assert.NoError(t, err, tc.sql)
			continue
		}
		var ue *engine.UnsafeError
		if assert.ErrorAs(t, err, &ue, tc.sql) {
			assert.Equal(t, tc.want, ue.Construct, tc.sql)
		}
	}
}

func TestTheNoUDFCheckNeedsTheOriginalsUDFInItsPlan(t *testing.T) {
	u := &udf.UDF{Name: "to_fahrenheit"}
	withUDF := "*(2) Project [_udfx_row#0L, pythonUDF0#5 AS result#3]\n+- BatchEvalPython [to_fahrenheit(celsius#1)#2], [pythonUDF0#5]\n   +- *(1) ColumnarToRow\n      +- FileScan parquet [_udfx_row#0L,celsius#1] Batched: true\n"
	without := "*(1) Project [_udfx_row#0L, (celsius#1 * 1.8) AS result#7]\n+- *(1) ColumnarToRow\n   +- FileScan parquet [_udfx_row#0L,celsius#1] Batched: true\n"

	plans, err := planEvidence(withUDF, without)
	require.NoError(t, err)
	assert.Equal(t, []string{"BatchEvalPython to_fahrenheit(celsius#1)"}, plans.Original.UDFNodes)
	assert.Empty(t, plans.Rewrite.UDFNodes)
	assert.NoError(t, originalShowsItsUDF(u, plans))

	// A plan in which udfx sees no UDF (a format it cannot read, say)
	// would make "the rewrite's plan has none" prove nothing.
	plans, err = planEvidence(without, without)
	require.NoError(t, err)
	err = originalShowsItsUDF(u, plans)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "cannot find to_fahrenheit in Spark's plan of the original query")
}

// A ScalaUDF registered under a built-in's name prints like the built-in
// (abs(celsius#1)): the text alone finds nothing, the driver's tree walk
// finds it by class, and the rewrite is refuted for still holding it.
func TestAUDFUnderABuiltinNameIsFoundByClass(t *testing.T) {
	orig := "*(1) Project [_udfx_row#0L, udfx_orig_1a2b(celsius#1) AS result#3]\n+- *(1) ColumnarToRow\n   +- FileScan parquet [_udfx_row#0L,celsius#1] Batched: true\n"
	rw := "*(1) Project [_udfx_row#0L, abs(celsius#1) AS result#7]\n+- *(1) ColumnarToRow\n   +- FileScan parquet [_udfx_row#0L,celsius#1] Batched: true\n"
	plans, err := planEvidence(orig, rw)
	require.NoError(t, err)
	assert.Empty(t, plans.Rewrite.UDFNodes, "the text cannot tell abs the UDF from abs the built-in")
	plans, err = withUDFsByClass(plans,
		[]spark.UDFExpr{{Class: "ScalaUDF", Name: "udfx_orig_1a2b", Operator: "ProjectExec", Text: "udfx_orig_1a2b(celsius#1)"}},
		[]spark.UDFExpr{{Class: "ScalaUDF", Name: "abs", Operator: "ProjectExec", Text: "abs(celsius#1)"}})
	require.NoError(t, err)
	assert.Equal(t, []string{"Project udfx_orig_1a2b(celsius#1)"}, plans.Original.UDFNodes, "not listed twice")
	assert.Equal(t, []string{"ProjectExec ScalaUDF abs(celsius#1)"}, plans.Rewrite.UDFNodes)
}

// On Spark, an original that throws on some rows is compared on the
// others: the rows left out are those on which udfx's runner throws, and
// Spark's failure must be one of the runner's exceptions, or the two
// runtimes disagree and nothing is left out.
func TestAnsweredRowsLeavesOutWhereTheRunnerThrows(t *testing.T) {
	throwsOnNegative := func(row []value.Value) value.Value {
		if !row[0].IsNull() && row[0].Float64() < 0 {
			return value.ErrorOf("java.lang.IllegalArgumentException", "negative")
		}
		return fahrenheit(row)
	}
	opts := Options{ANSI: true, NewRunner: func(context.Context, *udf.UDF, runner.Limits) (runner.Runner, error) {
		return goRunner{throwsOnNegative}, nil
	}}
	rows := [][]value.Value{{value.DoubleOf(1)}, {value.DoubleOf(-1)}, {value.NullValue()}, {value.DoubleOf(-2)}}
	kept, err := answeredRows(context.Background(), celsiusUDF(), opts, rows,
		&spark.JobError{Side: spark.Original, Class: "java.lang.IllegalArgumentException", Message: "negative"})
	require.NoError(t, err)
	assert.Equal(t, []int{0, 2}, kept)

	_, err = answeredRows(context.Background(), celsiusUDF(), opts, rows,
		&spark.JobError{Side: spark.Original, Class: "java.lang.NullPointerException"})
	var oe *OriginalError
	require.ErrorAs(t, err, &oe)
	assert.Contains(t, err.Error(), "threw that on no row (it threw on 2 rows (java.lang.IllegalArgumentException ×2))")

	opts.NewRunner = nil
	_, err = answeredRows(context.Background(), celsiusUDF(), opts, rows, &spark.JobError{Class: "x"})
	assert.ErrorContains(t, err, "no NewRunner")
}
