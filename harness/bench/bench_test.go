package bench

import (
	"context"
	"encoding/xml"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/runner/runners"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/udf/frontends"
)

func TestMedianSpread(t *testing.T) {
	for _, tc := range []struct {
		xs             []float64
		median, spread float64
	}{
		{nil, 0, 0},
		{[]float64{3}, 3, 0},
		{[]float64{5, 1, 3}, 3, 4},
		{[]float64{4, 1, 3, 2}, 2.5, 3},
	} {
		m, s := MedianSpread(tc.xs)
		assert.Equal(t, tc.median, m, "%v", tc.xs)
		assert.Equal(t, tc.spread, s, "%v", tc.xs)
	}
}

func TestAlternateInterleavesAfterWarmup(t *testing.T) {
	var order []string
	side := func(name string, d time.Duration) Side {
		return func(context.Context) (time.Duration, error) {
			order = append(order, name)
			return d, nil
		}
	}
	var heard []string
	o, r, err := Alternate(context.Background(), 2, 3, side("o", 2*time.Second), side("r", time.Second), func(s string) { heard = append(heard, s) })
	require.NoError(t, err)
	assert.Equal(t, []string{"o", "r", "o", "r", "o", "r", "o", "r", "o", "r"}, order)
	assert.Equal(t, []float64{2, 2, 2}, o, "warm-up runs are not timed")
	assert.Equal(t, []float64{1, 1, 1}, r)
	assert.Equal(t, "warm-up 1/2: original", heard[0])
	assert.Equal(t, "run 3/3: rewrite", heard[len(heard)-1])

	res := &Result{OriginalS: o, RewriteS: r}
	res.Summarize()
	assert.Equal(t, 3, res.Runs)
	assert.Equal(t, 2.0, res.Speedup)
}

func TestAlternateStopsOnAnError(t *testing.T) {
	boom := errors.New("boom")
	ok := func(context.Context) (time.Duration, error) { return time.Millisecond, nil }
	calls := 0
	failSecond := func(context.Context) (time.Duration, error) {
		calls++
		if calls == 2 {
			return 0, boom
		}
		return time.Millisecond, nil
	}
	_, _, err := Alternate(context.Background(), 1, 3, ok, failSecond, nil)
	require.ErrorIs(t, err, boom)
	assert.Contains(t, err.Error(), "run 1 of the rewrite")
	_, _, err = Alternate(context.Background(), 0, 0, ok, ok, nil)
	require.Error(t, err)
}

func TestSVGIsWellFormedAndShowsBothSides(t *testing.T) {
	res := &Result{UDF: "to_fahrenheit <&>", Rows: 1000, Engine: "spark", Machine: "2 CPUs",
		OriginalS: []float64{2.1, 1.9, 2.4}, RewriteS: []float64{0.2, 0.25, 0.21}}
	res.Summarize()
	svg := SVG(res)
	dec := xml.NewDecoder(strings.NewReader(string(svg)))
	rects, texts := 0, []string{}
	for {
		tok, err := dec.Token()
		if err != nil {
			require.ErrorContains(t, err, "EOF")
			break
		}
		switch el := tok.(type) {
		case xml.StartElement:
			if el.Name.Local == "rect" {
				rects++
			}
		case xml.CharData:
			if s := strings.TrimSpace(string(el)); s != "" {
				texts = append(texts, s)
			}
		}
	}
	assert.Equal(t, 3, rects, "background and one bar per side")
	assert.Contains(t, texts, "original")
	assert.Contains(t, texts, "rewrite")
	assert.Contains(t, texts[0], "to_fahrenheit <&>: 10.00×")
	assert.Contains(t, texts, "2.10 s")
	assert.Contains(t, texts, "210.0 ms")
}

func TestEmbeddedTimesThePythonCelsiusExample(t *testing.T) {
	path, err := filepath.Abs("../../examples/python-celsius/celsius.py")
	require.NoError(t, err)
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	fe := frontends.New(udf.Python)
	defer fe.Close()
	udfs, err := fe.Parse(path, src)
	require.NoError(t, err)
	require.Len(t, udfs, 1)
	var heard []string
	res, err := Embedded(context.Background(), Options{
		UDF: &udfs[0], SQL: "celsius * 9.0D / 5.0D + 32.0D", Rows: 2000, Seed: 1, Warmup: 1, Runs: 3, ANSI: true,
		Limits: runner.DefaultLimits, NewRunner: runners.New, Progress: func(s string) { heard = append(heard, s) },
	})
	require.NoError(t, err)
	assert.Equal(t, 2000, res.Rows)
	assert.Equal(t, 3, res.Runs)
	assert.Len(t, res.OriginalS, 3)
	assert.Len(t, res.RewriteS, 3)
	assert.Positive(t, res.OriginalMedianS)
	assert.Positive(t, res.RewriteMedianS)
	assert.InDelta(t, res.OriginalMedianS/res.RewriteMedianS, res.Speedup, 1e-9)
	assert.Contains(t, res.Original, "Python")
	assert.Len(t, heard, 8)
}

func TestEmbeddedRejectsAnExpressionTheEngineCannotCompile(t *testing.T) {
	u := &udf.UDF{Name: "f", File: "f.py", Language: udf.Python,
		Params: []udf.Param{{Name: "x", Type: &udf.Type{Kind: udf.Double}}}}
	_, err := Embedded(context.Background(), Options{UDF: u, SQL: "x +", Rows: 10, Runs: 1,
		NewRunner: func(context.Context, *udf.UDF, runner.Limits) (runner.Runner, error) {
			t.Fatal("the original must not start when the rewrite does not compile")
			return nil, nil
		}})
	require.ErrorContains(t, err, "compile the rewrite")
}
