package scala

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

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

// TestLongLinesAreRefusedBeforeParsing: an expression 5000 levels deep
// written on one line of 40 KiB is refused at once, at that line; the
// same bytes over many lines are parsed.
func TestLongLinesAreRefusedBeforeParsing(t *testing.T) {
	const depth = 5000
	head := "import org.apache.spark.sql.functions.udf\nobject O {\n  val f = udf((x: Double) => "
	oneLine := head + strings.Repeat("(", depth) + "x" + strings.Repeat(" + 1.0)", depth) + ")\n}\n"
	fe := New()
	defer fe.Close()
	start := time.Now()
	_, err := fe.Parse("Deep.scala", []byte(oneLine))
	var pe *udf.ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("got %v, want a *udf.ParseError", err)
	}
	if pe.Pos.Line != 3 || !strings.Contains(pe.Message, "line 3 is 40031 bytes long") {
		t.Errorf("got %v, want the error at line 3, naming its length", pe)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("refusing took %v: the file was parsed", d)
	}

	manyLines := head + strings.Repeat("(\n", depth) + "x" + strings.Repeat(" + 1.0)\n", depth) + ")\n}\n"
	udfs, err := fe.Parse("Deep.scala", []byte(manyLines))
	if err != nil || len(udfs) != 1 {
		t.Fatalf("got %d UDFs, %v; want the one UDF", len(udfs), err)
	}
}
