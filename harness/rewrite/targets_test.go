package rewrite

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/difftest"
	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/plan"
	"github.com/udfx/udfx/harness/translate/ir"
	"github.com/udfx/udfx/harness/udf"
)

func TestTargetsApply(t *testing.T) {
	scala := &udf.UDF{Name: "ToFahrenheit", Language: udf.Scala}
	python := &udf.UDF{Name: "to_fahrenheit", Language: udf.Python}
	assert.Equal(t, []string{TargetSQL, TargetColumnar, TargetCUDA}, DefaultTargets(scala))
	assert.Equal(t, []string{TargetSQL, TargetColumnar, TargetCUDA}, DefaultTargets(&udf.UDF{Language: udf.Java}))
	assert.Equal(t, []string{TargetSQL}, DefaultTargets(python))
	pandas := &udf.UDF{Name: "moving_average", Language: udf.Python, Kind: udf.KindPandasUDF}
	assert.Equal(t, []string{TargetVectorizedPython}, DefaultTargets(pandas))
	dbl := udf.Prim(udf.Double)
	scaled := &udf.UDF{Name: "scaled_score", Language: udf.Python, Kind: udf.KindPandasUDF, PandasFlavor: udf.PandasSeriesToSeries,
		Params: []udf.Param{{Name: "s", Type: dbl}}, Return: dbl}
	assert.Equal(t, []string{TargetSQL, TargetVectorizedPython}, DefaultTargets(scaled), "elementwise on doubles: SQL first")
	counts := *scaled
	counts.Params = []udf.Param{{Name: "n", Type: udf.Prim(udf.Int)}}
	assert.Equal(t, []string{TargetVectorizedPython}, DefaultTargets(&counts), "an int column's dtype depends on the batch")
	agg := *scaled
	agg.PandasFlavor = udf.PandasSeriesToScalar
	assert.Equal(t, []string{TargetVectorizedPython}, DefaultTargets(&agg))
	for _, c := range []struct {
		u       *udf.UDF
		targets []string
		want    string // "" when accepted
	}{
		{scala, []string{"sql", "columnar", "cuda"}, ""},
		{scala, []string{"cuda"}, ""},
		{python, []string{"sql"}, ""},
		{python, []string{"sql", "cuda"}, "target cuda does not apply to to_fahrenheit: it is a python UDF"},
		{python, []string{"columnar"}, "target columnar does not apply to to_fahrenheit"},
		{scala, []string{"gpu"}, "target gpu does not apply to ToFahrenheit: unknown target"},
		{pandas, []string{"vectorized-python"}, ""},
		{python, []string{"sql", "vectorized-python"}, ""},
		{scala, []string{"vectorized-python"}, "target vectorized-python does not apply to ToFahrenheit: it is a scala"},
		{&udf.UDF{Name: "<lambda@1:1>", Language: udf.Python, Kind: udf.KindRDDLambda}, []string{"vectorized-python"}, "vectorized-python rewrites Python UDFs"},
	} {
		err := CheckTargets(c.u, c.targets)
		if c.want == "" {
			assert.NoError(t, err, c.targets)
			continue
		}
		var te *TargetError
		require.True(t, errors.As(err, &te), "%v: %v", c.targets, err)
		assert.Contains(t, err.Error(), c.want)
	}
}

// A construct the columnar renderer cannot express is a decline with the
// renderer's reason, not a failure of the rewrite.
func TestRenderColumnarDeclines(t *testing.T) {
	double := &udf.Type{Kind: udf.Double}
	u := &udf.UDF{Name: "toF", Language: udf.Scala, Kind: udf.KindLambda, Return: double,
		Params: []udf.Param{{Name: "c", Type: double}}}
	r := &Rendered{Target: TargetColumnar}
	err := renderColumnar(Options{UDF: u, Source: []byte("object A {}\n")}, &ir.Col{Name: "c", T: double}, "udfx-rewrites/toF", "udfx-rewrites/toF/evidence.json", r)
	require.NoError(t, err)
	assert.False(t, r.Accepted)
	assert.Empty(t, r.Files)
	assert.Equal(t, "declined: cuDF cannot express a UDF of kind lambda (a RapidsUDF extends a named class) exactly", r.Reason)
}

// The built-in agent proposes the unguarded form only when asked
// (--optimize), only once, and only for a SQL candidate with an IR.
func TestBuiltinOptimizeProposesTheUnguardedForm(t *testing.T) {
	dbl := udf.Prim(udf.Double)
	c := &ir.Col{Name: "c", T: dbl}
	guarded := &ir.If{Cond: &ir.IsNull{X: c}, Then: &ir.Lit{T: dbl}, Else: &ir.Unary{Op: ir.DoubleNeg, X: c, T: dbl}}
	best := Candidate{Target: TargetSQL, SQL: "guarded", IR: guarded}
	ctx := context.Background()

	got, err := Builtin{}.Optimize(ctx, nil, best, 1)
	require.NoError(t, err)
	assert.Empty(t, got, "off unless asked")
	got, err = Builtin{Alternatives: true}.Optimize(ctx, nil, best, 1)
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.Equal(t, Candidate{Target: TargetSQL, SQL: "(- `c`)", Origin: AlternativeOrigin, IR: guarded.Else}, got[0])
	for _, b := range []Candidate{best, {Target: TargetSQL, SQL: "x"}, {Target: TargetColumnar, IR: guarded}} {
		attempt := 1
		if b.SQL == best.SQL {
			attempt = 2
		}
		got, err := Builtin{Alternatives: true}.Optimize(ctx, nil, b, attempt)
		require.NoError(t, err)
		assert.Empty(t, got, "%+v attempt %d", b, attempt)
	}
}

// On Comet a candidate whose projection runs natively beats one whose
// does not, whatever the times; otherwise the times decide.
func TestNativeFirst(t *testing.T) {
	on := func(i int, native bool, why string) *Tried {
		return &Tried{Index: i, Report: &difftest.Report{Plans: &evidence.Plans{Rewrite: evidence.Plan{Native: &plan.NativeCoverage{ProjectionNative: native, NotNative: why}}}}}
	}
	off := func(i int) *Tried { return &Tried{Index: i, Report: &difftest.Report{}} }
	for _, c := range []struct {
		name       string
		best, cand *Tried
		wins       bool
		why        string
	}{
		{"native candidate", on(1, false, "CometColumnarToRow below it"), on(2, true, ""), true, "candidate 2 runs natively in Comet and candidate 1 does not (CometColumnarToRow below it)"},
		{"fallback candidate", on(1, true, ""), on(2, false, "[COMET: pmod is not supported]"), false, "candidate 2 does not run natively in Comet ([COMET: pmod is not supported]) and candidate 1 does"},
		{"both native", on(1, true, ""), on(2, true, ""), false, ""},
		{"neither", on(1, false, "x"), on(2, false, "y"), false, ""},
		{"not on Comet", off(1), off(2), false, ""},
	} {
		wins, why := nativeFirst(c.best, c.cand)
		assert.Equal(t, c.wins, wins, c.name)
		assert.Equal(t, c.why, why, c.name)
	}
}
