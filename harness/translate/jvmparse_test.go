package translate

import (
	"fmt"
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
