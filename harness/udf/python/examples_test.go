package python

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/udf"
)

var examplePaths = []string{
	"../../../examples/python-celsius/celsius.py",
	"../../../examples/python-vectors/vectors.py",
	"../../../examples/python-wordcount/wordcount.py",
}

// vectorFlow is the type the job's dataflow gives the vector column: the
// schema main reads it with.
var vectorFlow = []udf.FlowType{{Type: &udf.Type{Kind: udf.Array, Elem: udf.Prim(udf.Float)}, From: "spark.read.schema at line 43: vector array<float>"}}

func span(l1, c1, l2, c2 int) udf.Span {
	return udf.Span{Start: udf.Position{Line: l1, Column: c1}, End: udf.Position{Line: l2, Column: c2}}
}

func parseExample(t *testing.T, path string) []udf.UDF {
	t.Helper()
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	f := New()
	defer f.Close()
	us, err := f.Parse(path, src)
	require.NoError(t, err)
	for i := range us {
		assert.NotEmpty(t, us[i].Targets)
		us[i].Targets = nil
	}
	return us
}

func TestExampleCelsius(t *testing.T) {
	path := examplePaths[0]
	want := []udf.UDF{{
		Name: "to_fahrenheit", RegisteredNames: []string{}, Language: udf.Python, Kind: udf.KindPythonUDF,
		File: path, Span: span(7, 1, 11, 38), BodySpan: span(8, 1, 11, 38),
		Params:   []udf.Param{{Name: "celsius", SourceType: "float", Type: udf.Prim(udf.Double)}},
		Return:   udf.Prim(udf.Double),
		UseSites: []udf.UseSite{{Kind: udf.UseCall, Span: span(17, 39, 17, 72), Text: `to_fahrenheit(col("temperature"))`}},
		Blockers: []udf.Blocker{},
	}}
	assert.Equal(t, want, parseExample(t, path))
}

func TestExampleVectors(t *testing.T) {
	path := examplePaths[1]
	want := []udf.UDF{
		{
			Name: "mean_pairwise_abs_diff", RegisteredNames: []string{}, Language: udf.Python, Kind: udf.KindPandasUDF,
			PandasFlavor: udf.PandasSeriesToSeries,
			File:         path, Span: span(10, 1, 22, 22), BodySpan: span(11, 1, 22, 22),
			Params:   []udf.Param{{Name: "v", SourceType: "pd.Series"}},
			Return:   udf.Prim(udf.Float),
			UseSites: []udf.UseSite{{Kind: udf.UseCall, Span: span(44, 28, 44, 60), Text: `mean_pairwise_abs_diff("vector")`, ArgTypes: vectorFlow}},
			Blockers: []udf.Blocker{
				{Kind: udf.BlockerLoop, Detail: "for loop", Span: span(16, 9, 19, 25)},
				{Kind: udf.BlockerLoop, Detail: "for loop", Span: span(17, 13, 19, 25)},
			},
		},
		{
			Name: "moving_average", RegisteredNames: []string{}, Language: udf.Python, Kind: udf.KindPandasUDF,
			PandasFlavor: udf.PandasSeriesToSeries,
			File:         path, Span: span(25, 1, 38, 22), BodySpan: span(26, 1, 38, 22),
			Params:   []udf.Param{{Name: "v", SourceType: "pd.Series"}},
			Return:   udf.ArrayOf(udf.Prim(udf.Float)),
			UseSites: []udf.UseSite{{Kind: udf.UseCall, Span: span(45, 28, 45, 52), Text: `moving_average("vector")`, ArgTypes: vectorFlow}},
			Blockers: []udf.Blocker{
				{Kind: udf.BlockerLoop, Detail: "for loop", Span: span(31, 9, 35, 25)},
				{Kind: udf.BlockerLoop, Detail: "for loop", Span: span(33, 13, 34, 26)},
			},
		},
	}
	assert.Equal(t, want, parseExample(t, path))
}

func TestExampleWordcount(t *testing.T) {
	path := examplePaths[2]
	want := []udf.UDF{
		{
			Name: "counts", RegisteredNames: []string{}, Language: udf.Python, Kind: udf.KindRDDPipeline,
			RDDOperation: "flatMap, map, reduceByKey", File: path, Span: span(10, 14, 14, 6), BodySpan: span(10, 14, 14, 6),
			Params: []udf.Param{}, UseSites: []udf.UseSite{}, Blockers: []udf.Blocker{},
		},
		{
			Name: "<lambda@11:23>", RegisteredNames: []string{}, Language: udf.Python, Kind: udf.KindRDDLambda,
			RDDOperation: "flatMap", File: path, Span: span(11, 23, 11, 51), BodySpan: span(11, 23, 11, 51),
			Params: []udf.Param{{Name: "line"}}, UseSites: []udf.UseSite{}, Blockers: []udf.Blocker{},
		},
		{
			Name: "<lambda@12:14>", RegisteredNames: []string{}, Language: udf.Python, Kind: udf.KindRDDLambda,
			RDDOperation: "map", File: path, Span: span(12, 14, 12, 36), BodySpan: span(12, 14, 12, 36),
			Params: []udf.Param{{Name: "word"}}, UseSites: []udf.UseSite{}, Blockers: []udf.Blocker{},
		},
		{
			Name: "add", RegisteredNames: []string{}, Language: udf.Python, Kind: udf.KindRDDLambda,
			RDDOperation: "reduceByKey", File: path, Span: span(13, 22, 13, 25), BodySpan: span(13, 22, 13, 25),
			Params:   []udf.Param{},
			UseSites: []udf.UseSite{{Kind: udf.UseReference, Span: span(13, 22, 13, 25), Text: "add"}},
			Blockers: []udf.Blocker{},
		},
	}
	assert.Equal(t, want, parseExample(t, path))
}

func BenchmarkParse(b *testing.B) {
	var srcs [][]byte
	for _, p := range examplePaths {
		src, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		srcs = append(srcs, src)
	}
	f := New()
	defer f.Close()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j, src := range srcs {
			if _, err := f.Parse(examplePaths[j], src); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(srcs)), "µs/file")
}
