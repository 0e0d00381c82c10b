package udf

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSQLCalls(t *testing.T) {
	cases := []struct {
		sql, name string
		want      bool
	}{
		{"SELECT to_fahrenheit(t) FROM r", "to_fahrenheit", true},
		{"SELECT TO_FAHRENHEIT (t) FROM r", "to_fahrenheit", true},
		{"SELECT `to_fahrenheit`(t) FROM r", "to_fahrenheit", true},
		{"SELECT to_fahrenheit\n(t)", "to_fahrenheit", true},
		{"SELECT my_to_fahrenheit(t) FROM r", "to_fahrenheit", false},
		{"SELECT to_fahrenheit_v2(t) FROM r", "to_fahrenheit", false},
		{"SELECT t AS to_fahrenheit FROM r", "to_fahrenheit", false},
		{"SELECT db.to_fahrenheit(t)", "to_fahrenheit", false},
		{"to_fahrenheit(", "to_fahrenheit", true},
		{"", "to_fahrenheit", false},
		{"x()", "", false},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, SQLCalls(c.sql, c.name), "%q in %q", c.name, c.sql)
	}
}

func TestFinishNullSkipsCallAndStableSlices(t *testing.T) {
	prim := Param{Name: "x", SourceType: "Double", Type: Prim(Double), Primitive: true}
	cases := []struct {
		lang Language
		kind Kind
		want bool
	}{
		{Scala, KindLambda, true},
		{Scala, KindFunctionClass, true},
		{Scala, KindFunctionRef, true},
		// UDF1..22 reach Spark without TypeTags: null is passed through.
		{Scala, KindUDFClass, false},
		{Java, KindUDFClass, false},
		{Java, KindHiveUDF, false},
	}
	for _, c := range cases {
		u := UDF{Language: c.lang, Kind: c.kind, Params: []Param{prim}, Return: Prim(Double)}
		u.Finish()
		assert.Equal(t, c.want, u.NullSkipsCall, "%s %s", c.lang, c.kind)
	}
	u := UDF{Language: Python, Kind: KindPythonUDF}
	u.Finish()
	assert.NotNil(t, u.RegisteredNames)
	assert.NotNil(t, u.Params)
	assert.NotNil(t, u.UseSites)
	assert.NotNil(t, u.Blockers)
	assert.Len(t, u.Targets, len(Targets))
}

func advice(u *UDF, t Target) TargetAdvice {
	for _, a := range u.Targets {
		if a.Target == t {
			return a
		}
	}
	return TargetAdvice{}
}

func TestClassify(t *testing.T) {
	d := Prim(Double)
	pure := UDF{Language: Scala, Kind: KindFunctionClass, Params: []Param{{Name: "c", Type: d}}, Return: d}
	pure.Finish()
	for _, tg := range []Target{TargetSQL, TargetColumnar, TargetCUDA} {
		assert.True(t, advice(&pure, tg).Feasible, tg)
	}
	assert.False(t, advice(&pure, TargetVectorizedPython).Feasible)

	loop := pure
	loop.Blockers = []Blocker{{Kind: BlockerLoop, Detail: "while loop", Span: Span{Start: Position{Line: 3, Column: 5}}}}
	loop.Finish()
	sql := advice(&loop, TargetSQL)
	assert.False(t, sql.Feasible)
	assert.Equal(t, []string{"loop at 3:5: while loop"}, sql.Reasons)
	assert.True(t, advice(&loop, TargetCUDA).Feasible, "a kernel can loop per row")

	str := UDF{Language: Java, Kind: KindUDFClass, Params: []Param{{Name: "s", Type: Prim(String)}}, Return: Prim(String)}
	str.Finish()
	assert.True(t, advice(&str, TargetSQL).Feasible)
	assert.False(t, advice(&str, TargetCUDA).Feasible)
	assert.Contains(t, advice(&str, TargetCUDA).Reasons[0], "parameter s is string")

	py := UDF{Language: Python, Kind: KindPythonUDF, Params: []Param{{Name: "c"}}, Return: d}
	py.Finish()
	assert.True(t, advice(&py, TargetSQL).Feasible, "Python parameter types come from the call site")
	assert.True(t, advice(&py, TargetVectorizedPython).Feasible)
	assert.False(t, advice(&py, TargetColumnar).Feasible)

	pandas := UDF{Language: Python, Kind: KindPandasUDF, Return: d}
	pandas.Finish()
	assert.False(t, advice(&pandas, TargetSQL).Feasible)
	series := UDF{Language: Python, Kind: KindPandasUDF, PandasFlavor: PandasSeriesToSeries, Return: d, Params: []Param{{Name: "s", Type: d}}}
	series.Finish()
	assert.True(t, advice(&series, TargetSQL).Feasible, "elementwise double arithmetic on a Series may read as SQL")
	ints := series
	ints.Params = []Param{{Name: "n", Type: Prim(Int)}}
	assert.False(t, PandasSQLCandidate(&ints), "an int column's dtype depends on the batch")
	assert.Equal(t, []string{"already a vectorized pandas_udf"}, advice(&pandas, TargetVectorizedPython).Reasons)
	looping := UDF{Language: Python, Kind: KindPandasUDF, Return: d, Blockers: []Blocker{{Kind: BlockerLoop, Detail: "for loop"}}}
	looping.Finish()
	assert.True(t, advice(&looping, TargetVectorizedPython).Feasible, "numba compiles the loops of a pandas_udf's per-row function")

	unknownRet := UDF{Language: Scala, Kind: KindLambda, Params: []Param{{Name: "c", Type: d, Primitive: true}}}
	unknownRet.Finish()
	assert.Contains(t, advice(&unknownRet, TargetSQL).Reasons, "the return type is not known from the source")
}

// TestTargetInfosAreTheOneList: every target scan advises and every one
// udfx writes is in TargetInfos once, and each is proved or rendered from
// a proved SQL rewrite, never neither.
func TestTargetInfosAreTheOneList(t *testing.T) {
	seen := map[Target]bool{}
	for _, ti := range TargetInfos {
		assert.False(t, seen[ti.Target], "%s twice", ti.Target)
		seen[ti.Target] = true
		assert.NotEqual(t, ti.Proved, ti.FromSQL, "%s is proved or rendered from sql", ti.Target)
		got, ok := InfoOf(string(ti.Target))
		assert.True(t, ok)
		assert.Equal(t, ti, got)
	}
	for _, tg := range append(Targets, TargetVectorizedPythonFast, TargetDataFrame) {
		assert.True(t, seen[tg], "%s is not in TargetInfos", tg)
	}
	_, ok := InfoOf("pandas")
	assert.False(t, ok)
	assert.Equal(t, "sql, columnar, cuda, vectorized-python, vectorized-python-fast, dataframe", TargetNames())
}

// FILE:NAME names a UDF by its name or a registered SQL name, the first
// that has it winning, else by the function a lambda forwards to.
func TestLookupByNameRegisteredNameOrWrappedFunction(t *testing.T) {
	us := []UDF{
		{Name: "<lambda@3:9>", Wraps: "to_int"},
		{Name: "clean", RegisteredNames: []string{"clean_sql"}},
		{Name: "to_int"},
		{Name: "other", RegisteredNames: []string{"clean"}},
	}
	assert.Equal(t, "clean", Lookup(us, "clean").Name)
	assert.Equal(t, "clean", Lookup(us, "clean_sql").Name)
	assert.Equal(t, "to_int", Lookup(us, "to_int").Name, "a UDF of that name wins over a lambda wrapping it")
	us = us[:2]
	assert.Equal(t, "<lambda@3:9>", Lookup(us, "to_int").Name)
	assert.Nil(t, Lookup(us, "nothing"))
	us = append(us, UDF{Name: "add_prefix", Factory: &Factory{Name: "make_prefixer"}})
	assert.Equal(t, "add_prefix", Lookup(us, "make_prefixer").Name, "the function that makes it")
}
