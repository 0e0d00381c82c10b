package python

import (
	"fmt"
	"strings"
	"testing"

	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/udf/internal/parsebench"
)

// largeSource is a generated Python file of about size bytes: small
// @udf functions, each registered and called from SQL.
func largeSource(size int) []byte {
	var b strings.Builder
	b.WriteString("from pyspark.sql import SparkSession\nfrom pyspark.sql.functions import udf\nfrom pyspark.sql.types import DoubleType\n\nspark = SparkSession.builder.getOrCreate()\n\n")
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "@udf(returnType=DoubleType())\ndef f%d(x):\n    return x * 2 + %d\n\nspark.udf.register(\"f%d\", f%d)\nspark.sql(\"SELECT f%d(x) FROM t\")\n\n", i, i, i, i, i)
	}
	return []byte(b.String())
}

// BenchmarkParseLarge parses generated files of 100 KB, 1 MB and 4 MB:
// the time per byte must not grow with the size.
func BenchmarkParseLarge(b *testing.B) {
	parsebench.Run(b, func() udf.Frontend { return New() }, "gen.py", largeSource)
}
