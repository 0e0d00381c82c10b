package plan

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func analyzeFile(t *testing.T, path string, engine Engine) *Report {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	p, err := Parse(string(b), engine)
	require.NoError(t, err)
	return Analyze(p)
}

func udfSummary(r *Report) []string {
	var out []string
	for _, u := range r.UDFs {
		out = append(out, u.Kind+" "+u.Operator+" "+u.Call+" "+u.Placement+" "+u.Stage)
	}
	return out
}

// The Spark plans are real: testdata/gen/gen_spark_plans.py printed them.
func TestSparkPlans(t *testing.T) {
	pyUDF := []string{
		"BatchEvalPython BatchEvalPython to_fahrenheit(celsius#5) cpu stage 0",
		"BatchEvalPython BatchEvalPython to_fahrenheit(celsius#5) cpu stage 0",
	}
	javaUDF := func(stage string) []string {
		return []string{"ScalaUDF Project java_to_fahrenheit(celsius#5) cpu " + stage, "ScalaUDF Filter java_to_fahrenheit(celsius#5) cpu " + stage}
	}
	cases := []struct {
		file        string
		udfs        []string
		transitions int
		adaptive    bool
		final       bool
	}{
		{"python-udf.simple.txt", pyUDF, 0, true, false},
		{"python-udf.final.simple.txt", pyUDF, 1, true, true},
		{"python-udf.final.formatted.txt", pyUDF, 1, true, true},
		{"pandas-udf.final.simple.txt", []string{
			"ArrowEvalPython ArrowEvalPython to_fahrenheit_vec(celsius#5) cpu stage 0",
			"ArrowEvalPython ArrowEvalPython to_fahrenheit_vec(celsius#5) cpu stage 0"}, 1, true, true},
		{"sql-rewrite.final.simple.txt", nil, 1, true, true},
		{"sql-rewrite.final.formatted.txt", nil, 1, true, true},
		{"java-udf.simple.txt", javaUDF("stage 0"), 0, true, false},
		{"java-udf.final.simple.txt", javaUDF("*(1)"), 1, true, true},
		{"java-udf.final.formatted.txt", javaUDF("*(1)"), 1, true, true},
		{"hive-udf.final.simple.txt", []string{
			"HiveSimpleUDF Project HiveSimpleUDF#HiveToFahrenheit(celsius#5) cpu *(1)",
			"HiveSimpleUDF Filter HiveSimpleUDF#HiveToFahrenheit(celsius#5) cpu *(1)"}, 1, true, true},
		{"python-udf-unaliased.final.simple.txt", pyUDF[:1], 1, true, true},
		{"java-udf-unaliased.final.simple.txt", []string{
			"ScalaUDF HashAggregate java_to_fahrenheit(celsius#5) cpu *(2)",
			"ScalaUDF HashAggregate java_to_fahrenheit(celsius#5) cpu *(1)"}, 1, true, true},
		{"map-in-pandas.final.simple.txt", []string{"MapInPandas MapInPandas <lambda>(id#3L, city#4, celsius#5) cpu stage 0"}, 1, false, false},
		{"map-in-arrow.final.formatted.txt", []string{"MapInArrow MapInArrow <lambda>(id#3L, city#4, celsius#5) cpu stage 0"}, 1, false, false},
		{"apply-in-pandas.final.simple.txt", []string{"FlatMapGroupsInPandas FlatMapGroupsInPandas <lambda>(id#3L, city#4, celsius#5) cpu stage 1"}, 1, true, true},
		{"sql-explain.txt", []string{"ScalaUDF Project java_to_fahrenheit(celsius#5) cpu *(1)"}, 1, false, false},
		{"sql-explain-formatted.txt", []string{"ScalaUDF Project java_to_fahrenheit(celsius#5) cpu *(1)"}, 1, false, false},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			r := analyzeFile(t, filepath.Join("testdata", "spark", c.file), EngineAuto)
			assert.Equal(t, EngineSpark, r.Engine)
			assert.Equal(t, c.udfs, udfSummary(r))
			assert.Equal(t, c.transitions, r.TotalTransitions)
			assert.Equal(t, c.adaptive, r.Adaptive)
			assert.Equal(t, c.final, r.FinalPlan)
			assert.Empty(t, r.Fallbacks, "a plain Spark plan has nothing to fall back from")
			for _, u := range r.UDFs {
				assert.True(t, u.Boundary)
				assert.Equal(t, u.Kind == "ScalaUDF", u.Inferred)
			}
		})
	}
}

func TestEnginePlans(t *testing.T) {
	cases := []struct {
		file        string
		engine      Engine
		udfs        []string
		fallbacks   []string // operator: first reason
		stages      map[string]int
		transitions int
	}{
		{"rapids/java-udf-cpu.txt", EngineRapids,
			[]string{"ScalaUDF Project java_to_fahrenheit(celsius#5) cpu *(1)", "ScalaUDF Filter java_to_fahrenheit(celsius#5) cpu *(1)"},
			[]string{"Project: not all expressions can be replaced", "Filter: not all expressions can be replaced"},
			map[string]int{"stage 0": 2, "stage 1": 1}, 3},
		{"rapids/java-udf-rapidsudf.txt", EngineRapids,
			[]string{"ScalaUDF GpuProject java_to_fahrenheit(celsius#5) gpu stage 0"}, nil, map[string]int{"stage 0": 1}, 1},
		{"rapids/sql-rewrite.txt", EngineRapids, nil, nil, map[string]int{"stage 1": 1}, 1},
		{"gluten/python-udf.txt", EngineGluten,
			[]string{"BatchEvalPython BatchEvalPython to_fahrenheit(celsius#5) cpu stage 0", "BatchEvalPython BatchEvalPython to_fahrenheit(celsius#5) cpu stage 0"},
			[]string{"BatchEvalPython: ", "BatchEvalPython: "}, map[string]int{"stage 0": 4, "stage 1": 1}, 5},
		{"gluten/java-udf.txt", EngineGluten,
			[]string{"ScalaUDF Project java_to_fahrenheit(celsius#5) cpu *(1)", "ScalaUDF Filter java_to_fahrenheit(celsius#5) cpu *(1)"},
			[]string{"Project: Not supported to map spark function name to substrait function name: java_to_fahrenheit(celsius#5), class name: ScalaUDF",
				"Filter: Not supported to map spark function name to substrait function name: java_to_fahrenheit(celsius#5), class name: ScalaUDF"},
			map[string]int{"stage 0": 3}, 3},
		{"gluten/sql-rewrite.formatted.txt", EngineGluten, nil, nil, map[string]int{"stage 0": 1}, 1},
		// Real Comet 1.2.0 output (testdata/comet/gen_comet_plans.py): its
		// fallback log holds one report per planning, each naming the
		// Python operator that falls back.
		{"comet/python-udf.txt", EngineComet,
			[]string{"BatchEvalPython BatchEvalPython to_fahrenheit(celsius#5) cpu stage 0", "BatchEvalPython BatchEvalPython to_fahrenheit(celsius#5) cpu stage 0"},
			[]string{"HashAggregate: ", "Project: ", "BatchEvalPython: BatchEvalPython is not supported", "Project: ", "Filter: ",
				"BatchEvalPython: BatchEvalPython is not supported"},
			map[string]int{"*(1)": 1, "*(4)": 1}, 2},
		{"comet/python-udf.report.txt", EngineComet,
			[]string{"BatchEvalPython BatchEvalPython ? cpu stage 0", "BatchEvalPython BatchEvalPython ? cpu stage 0"},
			[]string{"HashAggregate: ", "Project: ", "BatchEvalPython: ", "Project: ", "Filter: ", "BatchEvalPython: BatchEvalPython is not supported"},
			map[string]int{"stage 0": 1, "stage 1": 1}, 2},
		{"comet/sql-rewrite.txt", EngineComet, nil, nil, map[string]int{"*(1)": 1}, 1},
		{"comet/sql-rewrite.report.txt", EngineComet, nil, nil, map[string]int{"stage 1": 1}, 1},
		// Comet 1.2 runs a ScalaUDF inside CometProject through its JVM
		// codegen dispatcher: no fallback, no row transition.
		{"comet/java-udf.txt", EngineComet,
			[]string{"ScalaUDF CometProject java_to_fahrenheit(celsius#5) native stage 0", "ScalaUDF CometFilter java_to_fahrenheit(celsius#5) native stage 0"},
			nil, map[string]int{"*(1)": 1}, 1},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			r := analyzeFile(t, filepath.Join("testdata", c.file), EngineAuto)
			assert.Equal(t, c.engine, r.Engine)
			assert.Equal(t, c.udfs, udfSummary(r))
			var fbs []string
			for _, f := range r.Fallbacks {
				first := ""
				if len(f.Reasons) > 0 {
					first = f.Reasons[0]
				}
				fbs = append(fbs, f.Operator+": "+first)
			}
			assert.Equal(t, c.fallbacks, fbs)
			stages := map[string]int{}
			for _, s := range r.Stages {
				stages[s.Stage] = s.Total
			}
			assert.Equal(t, c.stages, stages)
			assert.Equal(t, c.transitions, r.TotalTransitions)
		})
	}
}

func TestRapidsUDFIsNotABoundary(t *testing.T) {
	r := analyzeFile(t, "testdata/rapids/java-udf-rapidsudf.txt", EngineAuto)
	require.Len(t, r.UDFs, 1)
	assert.False(t, r.UDFs[0].Boundary)
	assert.Contains(t, r.UDFs[0].Note, "RAPIDS reports it will run on GPU")

	r = analyzeFile(t, "testdata/rapids/java-udf-cpu.txt", EngineAuto)
	require.Len(t, r.UDFs, 2)
	assert.True(t, r.UDFs[0].Boundary)
	assert.Contains(t, r.UDFs[0].Note, "cannot run on GPU because neither java_to_fahrenheit")
	assert.Len(t, r.Fallbacks[0].Reasons, 2, "the operator's reason and its ScalaUDF's")
}

func TestForcedEngine(t *testing.T) {
	r := analyzeFile(t, "testdata/rapids/java-udf-cpu.txt", EngineSpark)
	assert.Equal(t, EngineSpark, r.Engine)
	assert.False(t, r.EngineDetected)
	require.Len(t, r.Fallbacks, 2, "the two reported operators")
	for _, f := range r.Fallbacks {
		assert.True(t, f.FromReport, "with --engine spark the tree has no fallbacks, only the report's lines remain: %+v", f)
	}
}

func TestReportOnly(t *testing.T) {
	text := "!Exec <BatchEvalPythonExec> cannot run on GPU because GPU does not currently support the operator class org.apache.spark.sql.execution.python.BatchEvalPythonExec\n" +
		"  !Expression <PythonUDF> to_fahrenheit(celsius#5) cannot run on GPU because GPU does not currently support the operator class org.apache.spark.sql.catalyst.expressions.PythonUDF\n"
	p, err := Parse(text, EngineAuto)
	require.NoError(t, err)
	assert.Equal(t, EngineRapids, p.Engine)
	r := Analyze(p)
	require.Len(t, r.Fallbacks, 1)
	assert.Equal(t, "BatchEvalPythonExec", r.Fallbacks[0].Operator)
	assert.Len(t, r.Fallbacks[0].Reasons, 2)
	var kinds []string
	for _, u := range r.UDFs {
		kinds = append(kinds, u.Kind+" "+u.Call)
	}
	assert.Equal(t, []string{"BatchEvalPython ?", "PythonUDF to_fahrenheit(celsius#5)"}, kinds)
}

func TestCometBulletReasons(t *testing.T) {
	text := "24/05/26 20:17:37 WARN CometSparkSessionExtensions$CometExecRule: Comet cannot execute some parts of this plan natively because:\n" +
		"\t- LocalTableScan is not supported\n\t- WriteFiles is not supported\n"
	p, err := Parse(text, EngineAuto)
	require.NoError(t, err)
	assert.Equal(t, EngineComet, p.Engine)
	r := Analyze(p)
	require.Len(t, r.Fallbacks, 2)
	assert.Equal(t, []string{"LocalTableScan is not supported"}, r.Fallbacks[0].Reasons)
}

func TestParseErrors(t *testing.T) {
	cases := []struct {
		text string
		line int
		msg  string
	}{
		{"", 0, "not a physical plan"},
		{"\n\nhello world\n", 3, "not a physical plan"},
		{"SELECT 1\nFROM t\n", 1, "not a physical plan"},
		{"== Physical Plan ==\n\n", 1, "no operator tree"},
		{"== Physical Plan ==\n   +- Project [a#1]\n", 2, "before the tree's root"},
		{"== Physical Plan ==\nProject [a#1]\n   Filter (a#1 > 1)\n", 3, "is not an operator of the tree"},
	}
	for _, c := range cases {
		_, err := Parse(c.text, EngineAuto)
		var pe *ParseError
		require.True(t, errors.As(err, &pe), "%q: %v", c.text, err)
		assert.Equal(t, c.line, pe.Line, c.text)
		assert.Contains(t, pe.Error(), c.msg)
	}
	_, err := Parse("== Physical Plan ==\nProject [a#1]\n", Engine("presto"))
	assert.Error(t, err)
}

func TestUDFCalls(t *testing.T) {
	cases := []struct {
		in   string
		want []string // Kind:Name
	}{
		{"[city#4, (((celsius#5 * 9.0) / 5.0) + 32.0) AS f#19]", nil},
		{"(isnotnull(celsius#5) AND RLIKE(value#226, (?i)line))", nil},
		// A pattern's escapes are printed unquoted.
		{"Project [RLIKE(e#0, \\A(?:[^\\@]+)\\x{A}?\\z) AS r#1]", nil},
		{"[city#4, java_to_fahrenheit(celsius#5) AS f#24]", []string{"ScalaUDF:java_to_fahrenheit"}},
		{"(keys=[city#4], functions=[max(to_fahrenheit(celsius)#36)])", nil},
		{"[city#4, pythonUDF0#99 AS to_fahrenheit(celsius)#36]", nil},
		{"[UDF(celsius#5) AS f#1]", []string{"ScalaUDF:UDF"}},
		{"[upper(my_udf(trim(name#1))) AS n#2]", []string{"ScalaUDF:my_udf"}},
		{"[cast(a#1 as decimal(10,0)) AS d#2, hash(a#1, 42) AS h#3]", nil},
		{"(HiveSimpleUDF#HiveToFahrenheit(celsius#5) > 50.0)", []string{"HiveSimpleUDF:HiveToFahrenheit"}},
		{"[HiveGenericUDF#org.example.Upper(name#1) AS u#2]", []string{"HiveGenericUDF:org.example.Upper"}},
		{"gpuhashpartitioning(k#2, 200, Murmur3Mode), [partial_gpucount(1, false), gpubasicsum(v#5, DoubleType, false)]", nil},
		{"[concat(city#1, 'f(x)') AS c#2]", nil},
		{"[my_udf(1) AS c#2]", []string{"ScalaUDF:my_udf"}},
		// Spark 4.1.1 prints url_decode and try_url_decode so.
		{"Project [static_invoke(UrlCodec.decode(cast(id#0L as string), false)) AS x#1]", nil},
		// Spark 4.1.1 prints TRY_CAST inside a lambda so.
		{"Project [try_cast(lambda udfx_p#1737 as double) AS d#2]", nil},
		// and raise_error's message unquoted.
		{"Project [CASE WHEN (id#0L > 5) THEN cast(raise_error(USER_RAISED_EXCEPTION, map(keys: [errorMessage], values: [udfx: the original throws X (charAt(0) of an empty string)]), NullType) as string) ELSE cast(id#0L as string) END AS result#1]", nil},
		{"Project [coalesce(raise_error(USER_RAISED_EXCEPTION, map(keys: [errorMessage], values: [where helper(x) gets None]), NullType), my_udf(a#1)) AS r#2]", []string{"ScalaUDF:my_udf"}},
		// A message that holds the closing text ends the blank there.
		{"Project [raise_error(USER_RAISED_EXCEPTION, map(keys: [errorMessage], values: [a]), b f(1)]), NullType) AS r#2]", []string{"ScalaUDF:f"}},
	}
	for _, c := range cases {
		var got []string
		for _, k := range udfCalls(c.in) {
			got = append(got, k.Kind+":"+k.Name)
		}
		assert.Equal(t, c.want, got, c.in)
	}
}

func TestIsBuiltin(t *testing.T) {
	for _, n := range []string{"avg", "partial_avg", "merge_sum", "isnotnull", "RLIKE", "gpuisnotnull", "hashpartitioning", "cast"} {
		assert.True(t, IsBuiltin(n), n)
	}
	for _, n := range []string{"java_to_fahrenheit", "to_fahrenheit", "UDF", "partial_my_udf"} {
		assert.False(t, IsBuiltin(n), n)
	}
}

func TestCompare(t *testing.T) {
	before := analyzeFile(t, "testdata/gluten/python-udf.txt", EngineAuto)
	after := analyzeFile(t, "testdata/gluten/sql-rewrite.formatted.txt", EngineAuto)
	d := Compare(before, after)
	assert.Len(t, d.UDFsRemoved, 2)
	assert.Empty(t, d.UDFsAdded)
	assert.Empty(t, d.UDFsKept)
	assert.Equal(t, 5, d.TransitionsBefore)
	assert.Equal(t, 1, d.TransitionsAfter)
	assert.Len(t, d.FallbacksRemoved, 2)
	assert.Empty(t, d.FallbacksAdded)

	back := Compare(after, before)
	assert.Len(t, back.UDFsAdded, 2)
	assert.Empty(t, back.UDFsRemoved)

	same := Compare(before, before)
	assert.Len(t, same.UDFsKept, 2)
	assert.Empty(t, same.UDFsRemoved)
}

func TestHasUDF(t *testing.T) {
	b, err := os.ReadFile("testdata/spark/sql-rewrite.final.formatted.txt")
	require.NoError(t, err)
	u, err := HasUDF(string(b))
	require.NoError(t, err)
	assert.Empty(t, u)

	b, err = os.ReadFile("testdata/spark/java-udf.final.formatted.txt")
	require.NoError(t, err)
	u, err = HasUDF(string(b))
	require.NoError(t, err)
	assert.Len(t, u, 2)

	_, err = HasUDF("not a plan")
	var pe *ParseError
	assert.True(t, errors.As(err, &pe))
}

func TestParseEngine(t *testing.T) {
	for in, want := range map[string]Engine{"": EngineAuto, "auto": EngineAuto, "Spark": EngineSpark, "rapids": EngineRapids, "velox": EngineGluten, "comet": EngineComet} {
		got, err := ParseEngine(in)
		require.NoError(t, err)
		assert.Equal(t, want, got, in)
	}
	_, err := ParseEngine("photon")
	assert.Error(t, err)
}

func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*", "*.txt"))
	for _, file := range files {
		if b, err := os.ReadFile(file); err == nil {
			f.Add(string(b))
		}
	}
	f.Add("== Physical Plan ==\n*(1) Project [f(a#1) AS x#2]\n+- :- Scan\n")
	f.Fuzz(func(t *testing.T, text string) {
		p, err := Parse(text, EngineAuto)
		n := strings.Count(strings.ReplaceAll(text, "\r\n", "\n"), "\n") + 1
		if err != nil {
			var pe *ParseError
			if errors.As(err, &pe) && (pe.Line < 0 || pe.Line > n) {
				t.Fatalf("error line %d out of 1..%d", pe.Line, n)
			}
			return
		}
		for i, nd := range p.Nodes {
			if nd.Line < 1 || nd.Line > n || nd.Parent >= i || nd.Parent < -1 || nd.Name == "" {
				t.Fatalf("bad node %d: %+v", i, nd)
			}
		}
		for i, r := range p.Reports {
			if r.Line < 1 || r.Line > n || r.Parent >= i {
				t.Fatalf("bad report %d: %+v", i, r)
			}
		}
		rep := Analyze(p)
		for _, u := range rep.UDFs {
			if u.Line < 1 || u.Line > n {
				t.Fatalf("UDF line %d out of 1..%d", u.Line, n)
			}
		}
		for _, tr := range rep.Transitions {
			if tr.Line < 1 || tr.Line > n {
				t.Fatalf("transition line %d out of 1..%d", tr.Line, n)
			}
		}
		_ = Compare(rep, rep)
	})
}

// A ScalaUDF registered under a built-in's name prints like the built-in
// in the tree (upper(celsius#5)); where the engine's report shows its
// class (RAPIDS "<ScalaUDF>", Gluten "class name: ScalaUDF"), udfx plan
// still finds it, by class.
func TestAUDFUnderABuiltinNameIsFoundWhereTheTextShowsItsClass(t *testing.T) {
	for _, c := range []struct {
		file   string
		engine Engine
		want   []string
	}{
		{"testdata/rapids/java-udf-cpu.txt", EngineRapids, []string{"ScalaUDF ProjectExec upper(celsius#5) cpu ", "ScalaUDF FilterExec upper(celsius#5) cpu "}},
		{"testdata/gluten/java-udf.txt", EngineGluten, []string{"ScalaUDF Project upper(celsius#5) cpu ", "ScalaUDF Filter upper(celsius#5) cpu "}},
	} {
		b, err := os.ReadFile(c.file)
		require.NoError(t, err)
		p, err := Parse(strings.ReplaceAll(string(b), "java_to_fahrenheit", "upper"), c.engine)
		require.NoError(t, err)
		r := Analyze(p)
		assert.Equal(t, c.want, udfSummary(r), c.file)
		for _, u := range r.UDFs {
			assert.False(t, u.Inferred, "found by class, not by name")
			assert.Contains(t, u.Note, "found by the class", c.file)
		}
	}
	// Spark's own text shows no class: the same call is not found there
	// (udfx's Spark engine reads the JVM tree instead).
	b, err := os.ReadFile("testdata/spark/java-udf.final.simple.txt")
	require.NoError(t, err)
	p, err := Parse(strings.ReplaceAll(string(b), "java_to_fahrenheit", "upper"), EngineSpark)
	require.NoError(t, err)
	assert.Empty(t, Analyze(p).UDFs)
}

func TestCometSummary(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "comet", "python-udf.txt"))
	require.NoError(t, err)
	p, err := Parse(string(b), EngineAuto)
	require.NoError(t, err)
	// One per planning: AQE plans the query's stages one by one.
	require.Len(t, p.CometSummaries, 5)
	last := p.CometSummaries[4]
	assert.Equal(t, CometSummary{Line: last.Line, Accelerated: 4, Eligible: 10, Transitions: 1, NativeExpressions: 1, Dispatched: 0, Text: last.Text}, last)
	assert.True(t, strings.HasPrefix(last.Text, "Comet accelerated 4 out of 10 eligible operators (40%)."), last.Text)

	// A report alone (no tree with arguments) is a plan too.
	b, err = os.ReadFile(filepath.Join("testdata", "comet", "sql-dispatch.report.txt"))
	require.NoError(t, err)
	p, err = Parse(string(b), EngineAuto)
	require.NoError(t, err)
	assert.Equal(t, EngineComet, p.Engine)
	r := Analyze(p)
	require.NotNil(t, r.Comet)
	assert.Equal(t, 6, r.Comet.Accelerated)
	assert.Equal(t, 4, r.Comet.Dispatched)
	assert.Contains(t, r.Dispatched, "CometProject: JVM codegen dispatcher: add, bround, divide, multiply")
	assert.Empty(t, r.Fallbacks)
}

func TestCometCoverage(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join("testdata", "comet", name))
		require.NoError(t, err)
		return string(b)
	}
	cases := []struct {
		name       string
		projection string
		native     bool
		notNative  string
		accel      [2]int
		fallbacks  []string
	}{
		{"sql-rewrite", "CometProject", true, "", [2]int{6, 6}, []string{}},
		{"python-udf", "Project", false, "Project runs in Spark; CometColumnarToRow below Project", [2]int{3, 9},
			[]string{"BatchEvalPython: BatchEvalPython is not supported"}},
		{"sql-dispatch", "CometProject", false, "JVM codegen dispatcher: add, bround, divide, multiply", [2]int{6, 6}, []string{}},
		{"java-udf", "CometProject", false, "JVM codegen dispatcher: java_to_fahrenheit", [2]int{6, 6}, []string{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cov, err := CometCoverage(read(c.name+".txt"), read(c.name+".report.txt"), "f")
			require.NoError(t, err)
			assert.Equal(t, c.projection, cov.Projection)
			assert.Equal(t, c.native, cov.ProjectionNative)
			assert.Equal(t, c.notNative, cov.NotNative)
			assert.Equal(t, c.accel, [2]int{cov.OperatorsAccelerated, cov.OperatorsEligible})
			assert.Equal(t, c.fallbacks, cov.Fallbacks)
		})
	}

	_, err := CometCoverage(read("sql-rewrite.txt"), read("sql-rewrite.report.txt"), "nosuchcolumn")
	assert.ErrorContains(t, err, "no operator of the executed plan computes nosuchcolumn")
	_, err = CometCoverage(read("sql-rewrite.txt"), read("sql-rewrite.txt"), "f")
	assert.ErrorContains(t, err, "no \"Comet accelerated N out of M eligible operators\" line")
}
