package java

import (
	"fmt"
	"strings"
	"testing"

	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/udf/internal/parsebench"
)

// largeSource is a generated Java file of about size bytes: one-line UDF1
// classes, each registered and called from SQL in a job class.
func largeSource(size int) []byte {
	var b strings.Builder
	b.WriteString("package gen;\n\nimport org.apache.spark.sql.SparkSession;\nimport org.apache.spark.sql.api.java.UDF1;\nimport org.apache.spark.sql.types.DataTypes;\n\n")
	var reg strings.Builder
	for i := 0; b.Len()+reg.Len() < size; i++ {
		fmt.Fprintf(&b, "class F%d implements UDF1<Double, Double> { public Double call(Double x) { return x * 2 + %d; } }\n", i, i)
		fmt.Fprintf(&reg, "    spark.udf().register(\"f%d\", new F%d(), DataTypes.DoubleType);\n    spark.sql(\"SELECT f%d(x) FROM t\");\n", i, i, i)
	}
	b.WriteString("\npublic class Job {\n  public static void main(String[] args) {\n    SparkSession spark = SparkSession.builder().getOrCreate();\n")
	b.WriteString(reg.String())
	b.WriteString("  }\n}\n")
	return []byte(b.String())
}

// BenchmarkParseLarge parses generated files of 100 KB, 1 MB and 4 MB:
// the time per byte must not grow with the size.
func BenchmarkParseLarge(b *testing.B) {
	parsebench.Run(b, func() udf.Frontend { return New() }, "Job.java", largeSource)
}
