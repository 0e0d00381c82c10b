package python

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/value"
)

// A script runs its job at the top level (a session, a read, a write):
// importing it as it is would start Spark and fail. The driver loads the
// UDF without the job's statements, runs it, and says which lines it left
// out.
func TestTheModulesJobIsLeftOut(t *testing.T) {
	u := parseUDF(t, "testdata/module_job.py", "clean_name")
	r := newRunner(t, u, runner.DefaultLimits)
	got, err := r.Run(context.Background(), [][]value.Value{{value.StringOf("  ada   lovelace ")}, {value.NullValue()}})
	require.NoError(t, err)
	assert.Equal(t, []string{value.Token(value.StringOf("name:Ada Lovelace")), value.Token(value.NullValue())}, tokens(got))
	assert.Contains(t, r.Describe(), "the module's top-level Spark job (lines 9, 12, 13, 36, 37, 38, 40) left out")
}

// A file's read and write are methods called directly, Spark's reader
// and writer are properties: a constant read from a file is kept, and the
// script's main guard, which an import never runs, goes unsaid.
func TestAFilesReadIsNotTheJob(t *testing.T) {
	u := parseUDF(t, "testdata/module_job.py", "code_name")
	r := newRunner(t, u, runner.DefaultLimits)
	got, err := r.Run(context.Background(), [][]value.Value{{value.StringOf("b")}, {value.StringOf("z")}})
	require.NoError(t, err)
	assert.Equal(t, []string{value.Token(value.StringOf("beta")), value.Token(value.NullValue())}, tokens(got))
	assert.Contains(t, r.Describe(), "the module's top-level Spark job (lines 9, 12, 13, 36, 37, 38, 40) left out")
}

// A UDF that reads a value the job computes cannot run as the job would
// without running the job: refused, naming the value and its line, never
// run with the name missing (every row would throw NameError and a
// rewrite that throws too would pass).
func TestAUDFThatReadsTheJobsValuesIsRefused(t *testing.T) {
	u := parseUDF(t, "testdata/module_job.py", "known_city")
	_, err := New(context.Background(), u, Options{Python: venvPython(t)})
	var ce *runner.CompileError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, 13, ce.Line)
	assert.Contains(t, ce.Msg, "known_city reads CITIES (line 13), which the module sets or changes in its Spark job")

	// A value the module defines is still not the job's when a left-out
	// statement changes it in place.
	u = parseUDF(t, "testdata/module_job.py", "alias_of")
	_, err = New(context.Background(), u, Options{Python: venvPython(t)})
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, 40, ce.Line)
	assert.Contains(t, ce.Msg, "alias_of reads ALIASES (line 40)")

	// The main guard runs when the job runs the script, never on import:
	// a value it sets is refused too, though the guard goes unsaid.
	u = parseUDF(t, "testdata/module_job.py", "limited")
	_, err = New(context.Background(), u, Options{Python: venvPython(t)})
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, 65, ce.Line)
	assert.Contains(t, ce.Msg, "limited reads LIMIT (line 65)")
}

// A module of a package is loaded as part of it, as the job imports it:
// its relative and star imports find their siblings (etl/jobs/quarter.py
// takes QUARTERS from `from ..consts import *` and month_of from
// `.paths`), and its own job is still left out.
func TestAModuleOfAPackageKeepsItsRelativeImports(t *testing.T) {
	u := parseUDF(t, "testdata/package/etl/jobs/quarter.py", "get_quarter")
	r := newRunner(t, u, runner.DefaultLimits)
	got, err := r.Run(context.Background(), [][]value.Value{
		{value.StringOf("s3://b/sales/2024-05-17/part-0.csv")},
		{value.StringOf("s3://b/sales/undated/part-0.csv")},
		{value.NullValue()},
	})
	require.NoError(t, err)
	assert.Equal(t, []string{value.Token(value.StringOf("Q2")), value.Token(value.StringOf("unknown")), value.Token(value.NullValue())}, tokens(got))
	assert.Contains(t, r.Describe(), "the module's top-level Spark job (lines 16, 17, 18) left out")
}

// A notebook's UDF runs from its code cells: magics are comments, the
// session and the job at the top level are left out, a constant of an
// earlier cell is kept, and the lines named are the notebook's Python's.
func TestANotebooksUDFRuns(t *testing.T) {
	u := parseUDF(t, "testdata/codes.ipynb", "label")
	r := newRunner(t, u, runner.DefaultLimits)
	got, err := r.Run(context.Background(), [][]value.Value{{value.StringOf(" a1 ")}, {value.NullValue()}})
	require.NoError(t, err)
	assert.Equal(t, []string{value.Token(value.StringOf("code:a1")), value.Token(value.NullValue())}, tokens(got))
	assert.Contains(t, r.Describe(), "the module's top-level Spark job (lines 8, 21) left out")
}
