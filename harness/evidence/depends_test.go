package evidence

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/udf"
)

// spanOf is the span of the first occurrence of text in src.
func spanOf(t *testing.T, src, text string) udf.Span {
	t.Helper()
	i := strings.Index(src, text)
	require.GreaterOrEqual(t, i, 0, text)
	pos := func(o int) udf.Position {
		return udf.Position{Line: strings.Count(src[:o], "\n") + 1, Column: o - strings.LastIndex(src[:o], "\n")}
	}
	return udf.Span{Start: pos(i), End: pos(i + len(text))}
}

func depNames(deps []Dependency) []string {
	var out []string
	for _, d := range deps {
		out = append(out, d.Kind+" "+d.Name)
	}
	return out
}

func TestDependenciesPython(t *testing.T) {
	src := `import math
from pyspark.sql.functions import col, udf
from helpers import (scale as sc,
    offset)

FACTOR: float = 1.8
UNUSED = 1


@udf("double")
def f(x):
    return sc(x) * FACTOR + offset + math.pi


def g():
    return UNUSED
`
	u := &udf.UDF{Name: "f", Language: udf.Python, Params: []udf.Param{{Name: "x"}},
		Span:     spanOf(t, src, "@udf(\"double\")\ndef f(x):\n    return sc(x) * FACTOR + offset + math.pi"),
		BodySpan: spanOf(t, src, "def f(x):\n    return sc(x) * FACTOR + offset + math.pi")}
	deps := Dependencies(u, []byte(src))
	assert.Equal(t, []string{"name FACTOR", "name math", "name offset", "name sc", "name udf"}, depNames(deps))

	// Importing another name on the same line changes nothing; rebinding
	// a used one does.
	again := Dependencies(u, []byte(strings.Replace(src, "import math", "import math, sys", 1)))
	assert.Equal(t, deps, again)
	moved := Dependencies(u, []byte(strings.Replace(src, "scale as sc", "shrink as sc", 1)))
	assert.NotEqual(t, deps, moved)
}

func TestDependenciesJVM(t *testing.T) {
	src := `object Job {
  val Offset = 32.0
  def scale(x: Double): Double = {
    x * 9.0 / 5.0
  }
  val f = udf((c: Double) => scale(c) + Offset)
  def main(args: Array[String]): Unit = {
    spark.udf.register("f", f)
  }
}
`
	u := &udf.UDF{Name: "f", Language: udf.Scala, Params: []udf.Param{{Name: "c"}},
		Span:     spanOf(t, src, "val f = udf((c: Double) => scale(c) + Offset)"),
		BodySpan: spanOf(t, src, "(c: Double) => scale(c) + Offset"),
		UseSites: []udf.UseSite{{Kind: udf.UseRegister, Text: `spark.udf.register("f", f)`}}}
	deps := Dependencies(u, []byte(src))
	assert.Equal(t, []string{"name Offset", "name scale", `registration spark.udf.register("f", f)`}, depNames(deps))
	edited := Dependencies(u, []byte(strings.Replace(src, "x * 9.0 / 5.0", "x * 9.0 / 5.5", 1)))
	assert.NotEqual(t, deps, edited, "the helper's whole block is hashed")

	java := `class J {
  static final double OFFSET = 32.0;
  static double scale(double x) {
    return x * 1.8;
  }
  public Double call(Double c) { return scale(c) + OFFSET; }
}
`
	ju := &udf.UDF{Name: "J", Language: udf.Java, Params: []udf.Param{{Name: "c"}},
		Span:     spanOf(t, java, "public Double call(Double c) { return scale(c) + OFFSET; }"),
		BodySpan: spanOf(t, java, "public Double call(Double c) { return scale(c) + OFFSET; }")}
	assert.Equal(t, []string{"name OFFSET", "name scale"}, depNames(Dependencies(ju, []byte(java))))
}

func TestSignatureHash(t *testing.T) {
	u := &udf.UDF{Name: "f", Language: udf.Python, Params: []udf.Param{{Name: "x", Type: udf.Prim(udf.Double)}}, Return: udf.Prim(udf.Double)}
	h := SignatureHash(u)
	v := *u
	v.Return = udf.Prim(udf.Float)
	assert.NotEqual(t, h, SignatureHash(&v))
	v = *u
	v.Span = udf.Span{Start: udf.Position{Line: 9, Column: 1}}
	assert.Equal(t, h, SignatureHash(&v), "positions are not part of the signature")
}

// A UDF a factory makes depends on the factory and on the literals its
// calls pass (udf.Factory, as scan read them from the source given).
func TestDependenciesOfAFactoryUDF(t *testing.T) {
	src := `from pyspark.sql.functions import col, udf


def make_prefixer(prefix):
    def add_prefix(s):
        return prefix + s
    return udf(add_prefix, "string")


df = df.withColumn("t", make_prefixer("ACC-")(col("a")))
`
	u := &udf.UDF{Name: "add_prefix", Language: udf.Python, Params: []udf.Param{{Name: "s"}},
		Span:     spanOf(t, src, `udf(add_prefix, "string")`),
		BodySpan: spanOf(t, src, "def add_prefix(s):\n        return prefix + s"),
		Factory:  &udf.Factory{Name: "make_prefixer", Args: []udf.FactoryArg{{Param: "prefix", Literal: `"ACC-"`}}}}
	deps := Dependencies(u, []byte(src))
	assert.Equal(t, []string{"body add_prefix", "factory-arguments make_prefixer", "name make_prefixer"}, depNames(deps))

	other := *u
	other.Factory = &udf.Factory{Name: "make_prefixer", Args: []udf.FactoryArg{{Param: "prefix", Literal: `"XYZ-"`}}}
	assert.NotEqual(t, deps, Dependencies(&other, []byte(src)), "another literal in the call")
	edited := strings.Replace(src, "    return udf(add_prefix", "    prefix = prefix.strip()\n    return udf(add_prefix", 1)
	u2 := *u
	u2.Span = spanOf(t, edited, `udf(add_prefix, "string")`)
	assert.NotEqual(t, deps, Dependencies(&u2, []byte(edited)), "the factory's own statements")
}
