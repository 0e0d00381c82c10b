package typeinfer

import (
	"testing"

	"github.com/udfx/udfx/harness/udf"
)

// FuzzSchemaText: the text readers take any source without panicking.
func FuzzSchemaText(f *testing.F) {
	for _, s := range []string{
		`spark.read.schema("a double").parquet(p).select(f(col("a").cast("int")))`,
		`StructType([StructField("a", DoubleType(), True)])`,
		`df.withColumn("a", f(col("a"))); spark.sql("SELECT f(CAST(a AS INT)) AS b FROM t")`,
		`"""x`, `'`, `f(`, `.read.format("x"`, `# udfx: (double)`, `/* x`, `r"\"`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, lang := range []udf.Language{udf.Python, udf.Scala} {
			sf := extractSchema(s, lang, func(int) bool { return false })
			for name := range sf.fields {
				_, _, _ = sf.columnType(name, func(doubt, *udf.Type) bool { return false })
			}
			_ = sf.sqlTables(s)
			if args, ok := callArgs(s, lang); ok {
				for _, a := range args {
					_ = readColumnArg(a, lang)
				}
			}
			_ = sqlCallArgs(s, []string{"f"})
			u := &udf.UDF{Name: "f", Language: lang, Kind: udf.KindPythonUDF,
				BodySpan: udf.Span{Start: udf.Position{Line: 1, Column: 3}, End: udf.Position{Line: 2, Column: 1}}}
			_, _ = bodyForces(s, u, "x")
			_ = candidates(s, u, "x")
			_, _ = commentAbove(s, u)
		}
	})
}
