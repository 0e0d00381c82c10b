package scala

import (
	"fmt"
	"strings"
	"testing"

	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/udf/internal/parsebench"
)

// largeSource is a generated Scala file of about size bytes: one-line
// Function1 classes, each registered and called from SQL in an object,
// the shape that made the front-end quadratic.
func largeSource(size int) []byte {
	var b strings.Builder
	b.WriteString("package gen\n\nimport org.apache.spark.sql.SparkSession\n\n")
	var reg strings.Builder
	for i := 0; b.Len()+reg.Len() < size; i++ {
		fmt.Fprintf(&b, "class F%d extends Function1[Double, Double] { def apply(x: Double): Double = x * 2 + %d }\n", i, i)
		fmt.Fprintf(&reg, "    spark.udf.register(\"f%d\", new F%d)\n    spark.sql(\"SELECT f%d(x) FROM t\")\n", i, i, i)
	}
	b.WriteString("\nobject Job {\n  def main(args: Array[String]): Unit = {\n    val spark = SparkSession.builder.getOrCreate()\n")
	b.WriteString(reg.String())
	b.WriteString("  }\n}\n")
	return []byte(b.String())
}

// BenchmarkParseLarge parses generated files of 100 KB, 1 MB and 4 MB:
// the time per byte must not grow with the size.
func BenchmarkParseLarge(b *testing.B) {
	parsebench.Run(b, func() udf.Frontend { return New() }, "Gen.scala", largeSource)
}
