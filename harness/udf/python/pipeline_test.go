package python

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/udf"
)

func TestFindsPipelines(t *testing.T) {
	src := `from operator import add

counts = sc.textFile("p").map(lambda l: (l, 1)).reduceByKey(add)


def job(spark, path, rdd):
    lines = spark.sparkContext.textFile(path)
    words = (lines
             .flatMap(lambda l: l.split()))
    inline = spark.sparkContext.textFile(path).filter(lambda l: l).count()
    other = rdd.map(lambda x: x)
    words = lines.map(lambda l: (l, 1))
    return words, inline, other
`
	f := New()
	defer f.Close()
	udfs, err := f.Parse("job.py", []byte(src))
	require.NoError(t, err)
	type got struct{ name, ops string }
	var pipes []got
	for _, u := range udfs {
		if u.Kind == udf.KindRDDPipeline {
			pipes = append(pipes, got{u.Name, u.RDDOperation})
			assert.Equal(t, []udf.Target{udf.TargetDataFrame}, feasible(u.Targets), u.Name)
		}
	}
	// Not the module-level chain (importing runs it), not rdd.map (no
	// text file); a second chain named words is words@LINE.
	assert.Equal(t, []got{{"words", "flatMap"}, {"inline", "filter, count"}, {"words@12", "map"}}, pipes)
}

func feasible(advice []udf.TargetAdvice) []udf.Target {
	var out []udf.Target
	for _, a := range advice {
		if a.Feasible {
			out = append(out, a.Target)
		}
	}
	return out
}
