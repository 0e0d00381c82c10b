package translate

import (
	"fmt"
	"strings"
	"testing"
)

// jvmParseSamples are texts where parseInt, parseLong and parseDouble and
// Spark's CAST might part ways around the short path that takes ASCII
// digits to CAST: signs, leading zeros, the digit counts on either side
// of the types' limits, other scripts' digits, spaces, empty text, and
// the spellings only one side reads.
func jvmParseSamples() []map[string]any {
	texts := []string{"0", "7", "+5", "-0", "007", "-007", "123456789", "-999999999", "1234567890",
		"2147483647", "2147483648", "-2147483648", "-2147483649", "999999999999999999", "-999999999999999999",
		"9223372036854775807", "9223372036854775808", "-9223372036854775808", "00000000000000000000001",
		"١٢٣", "１２", "12١", " 12", "12 ", "1 2", "", "+", "-", "+-1", "abc", "12a", "1_000", "12\n",
		"1.5", " 1.5 ", "-1e3", "1e400", "0x1p3", "1.5d", "2f", ".5", "5.", "NaN", "-Infinity", "inf", "Infinity ", "nan"}
	var rows []map[string]any
	for _, s := range texts {
		rows = append(rows, map[string]any{"s": s})
	}
	return rows
}

// TestJVMParseMatchesTheJDK proves the parse forms, short path and
// exact path, on the embedded engine and real Spark against the JDK.
func TestJVMParseMatchesTheJDK(t *testing.T) {
	class := func(name, out, body string) sourceFile {
		return sourceFile{name + ".java", fmt.Sprintf("import org.apache.spark.sql.api.java.UDF1;\npublic class %s implements UDF1<String, %s> {\n  public %s call(String s) { %s }\n}\n", name, out, out, body)}
	}
	proveFilesOn(t, []sourceFile{
		class("IntOr", "Integer", "try { return Integer.parseInt(s); } catch (NumberFormatException e) { return -1; }"),
		class("LongOr", "Long", "try { return Long.parseLong(s); } catch (NumberFormatException e) { return null; }"),
		class("DoubleOr", "Double", "try { return Double.parseDouble(s); } catch (NumberFormatException | NullPointerException e) { return null; }"),
	}, jvmParseSamples(), true)
}

// TestPyParseMatchesCPython proves int() and float() of a str, short
// path and exact path, on the embedded engine and real Spark against
// CPython, on the same texts plus CPython's own spellings (underscores,
// spaces it strips, other scripts' digits).
func TestPyParseMatchesCPython(t *testing.T) {
	samples := append(jvmParseSamples(), map[string]any{"s": " 42\t"}, map[string]any{"s": "1_000.5"}, map[string]any{"s": "٣.٥"},
		map[string]any{"s": "1" + strings.Repeat("0", 30)}, map[string]any{"s": "0." + strings.Repeat("3", 40)}, map[string]any{"s": "-" + strings.Repeat("9", 19)})
	proveOn(t, []string{
		"from pyspark.sql.functions import udf\n\n\n@udf(\"long\")\ndef to_int(s: str) -> int:\n    if s is None:\n        return None\n    try:\n        return int(s)\n    except ValueError:\n        return -1\n",
		"from pyspark.sql.functions import udf\n\n\n@udf(\"double\")\ndef to_float(s: str) -> float:\n    try:\n        return float(s)\n    except (TypeError, ValueError):\n        return None\n",
	}, samples, true)
}
