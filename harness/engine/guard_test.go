package engine

import (
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/udfx/udfx/harness/udf"
)

// Guard is the allow-list every candidate passes before any engine runs
// it; the embedded engine refuses the same unsafe set by itself.
func TestGuard(t *testing.T) {
	params := []string{"celsius", "user"}
	for _, tc := range []struct{ sql, construct string }{
		{"celsius * 9.0D / 5.0D + 32.0D", ""},
		{"CASE WHEN (`celsius` IS NULL) THEN CAST(NULL AS DOUBLE) ELSE (((`celsius` * 9.0D) / 5.0D) + 32.0D) END", ""},
		{"concat(user, 'x')", ""},                         // a parameter named user
		{"concat('reflect(', celsius, '(SELECT 1)')", ""}, // inside string literals
		{"aggregate(array(celsius), 0.0D, (acc, x) -> acc + x)", ""},
		{"CELSIUS + 1.0D", ""}, // Spark resolves columns case-insensitively
		{"exists(array(celsius), x -> x > 0.0D)", ""},
		{"length(trim(FROM concat('a', celsius)))", ""},
		{"celsius + (SELECT 1) ", "a subquery (SELECT ...)"},
		{"exists(SELECT 1)", "a subquery (SELECT ...)"},
		// The reproduction: a scalar subquery reading a file.
		{"celsius * 0.0D + ascii(substr((SELECT first(value) FROM text.`/etc/hostname`), 2, 1))", "a subquery (SELECT ...)"},
		{"celsius + (FROM text.`/etc/hostname`)", "a subquery (FROM ...)"},
		{"celsius + (VALUES (1))", "a subquery (VALUES ...)"},
		{"reflect('java.lang.Math', 'abs', celsius)", "reflect()"},
		{"`reflect`('java.lang.Math', 'abs', celsius)", "reflect()"},
		{"REFLECT ('java.lang.Math', 'abs', celsius)", "reflect()"},
		{"celsius + java_method('java.lang.Math', 'abs', celsius)", "java_method()"},
		// Comments: Spark nests block comments and ends a line comment
		// at \r, so each of these adds 1.0 in Spark and not in a parser
		// that does neither.
		{"REFLECT /* hidden */ ('java.lang.Math', 'abs', celsius)", "a comment (/* */)"},
		{"celsius + -- a comment\n java_method('java.lang.Math', 'abs', celsius)", "a comment (--)"},
		{"CASE WHEN (`celsius` IS NULL) THEN CAST(NULL AS DOUBLE) ELSE celsius END /* /* */ -- */ + 1.0D", "a comment (/* */)"},
		{"celsius -- x\r+ 1.0D", "a comment (--)"},
		{"celsius--1", "a comment (--)"},
		{"celsius /**/ + 1.0D", "a comment (/* */)"},
		{"concat('--', '/*', celsius)", ""}, // inside string literals
		{"`my_udf`(celsius)", "the backquoted function name `my_udf`"},
		{"celsius + RAND ( 3 )", "rand()"},
		{"if(current_date > DATE'2020-01-01', celsius, 0.0D)", "current_date"},
		{"input_file_name()", "input_file_name()"},
		{"to_fahrenheit(celsius)", "to_fahrenheit()"},
		{"CAST(_udfx_row AS DOUBLE)", "the column _udfx_row"},
		{"aggregate(array(celsius), 0.0D, (acc, x) -> acc + y)", "the column y"},
	} {
		err := Guard(tc.sql, params)
		if tc.construct == "" {
			if err != nil {
				t.Errorf("%s: refused: %v", tc.sql, err)
			}
			continue
		}
		var ue *UnsafeError
		if !errors.As(err, &ue) || ue.Construct != tc.construct {
			t.Errorf("%s: got %v, want a refusal of %s", tc.sql, err, tc.construct)
			continue
		}
		if !strings.Contains(err.Error(), "refused") || ue.Why == "" {
			t.Errorf("%s: message %q", tc.sql, err)
		}
	}
}

func TestEngineRefusesTheUnsafeSet(t *testing.T) {
	cols := []Column{{Name: "celsius", Type: udf.Prim(udf.Double)}}
	for _, sql := range []string{
		"celsius * 0.0D + ascii(substr((SELECT first(value) FROM text.`/etc/hostname`), 2, 1))",
		"`reflect`('java.lang.Math', 'abs', celsius)",
		"reflect/**/('java.lang.Math', 'abs', celsius)",
		"java_method('java.lang.Math', 'abs', celsius)",
		"celsius + unix_timestamp()",
		"input_file_name()",
		"if(current_date > DATE'2020-01-01', celsius, 0.0D)",
	} {
		var ue *UnsafeError
		if _, err := Compile(sql, cols, Options{ANSI: true}); !errors.As(err, &ue) {
			t.Errorf("%s: %v, want an UnsafeError", sql, err)
		}
	}
}

func TestAllowedFunctions(t *testing.T) {
	allow := map[string]bool{}
	for _, n := range AllowedFunctions() {
		allow[n] = true
	}
	for _, n := range []string{"abs", "concat", "substr", "ascii", "isnull", "coalesce", "aggregate"} {
		if !allow[n] {
			t.Errorf("%s is not allowed", n)
		}
	}
	for _, n := range []string{"reflect", "java_method", "rand", "current_date", "input_file_name", "uuid", "+", "$extract"} {
		if allow[n] {
			t.Errorf("%s is allowed", n)
		}
	}
}

// TestDeepAndLongExpressionsAreRefused: 400,000 nested parentheses were a
// Go stack overflow (fatal, no report, the MCP session gone); every path
// that parses an expression (Guard, Compile) now refuses such an input
// with a syntax error naming the limit, and one at the limit still parses.
func TestDeepAndLongExpressionsAreRefused(t *testing.T) {
	cols := []Column{{Name: "celsius", Type: udf.Prim(udf.Double)}}
	nested := func(n int, open, close string) string {
		return strings.Repeat(open, n) + "celsius" + strings.Repeat(close, n)
	}
	for _, c := range []struct{ sql, want string }{
		{nested(400000, "(", ")"), "more than 50000 tokens"}, // the input
		{nested(10000, "(", ")"), "nests deeper than 256 levels"},
		{nested(MaxNesting, "(", ")"), "nests deeper than 256 levels"},
		{nested(10000, "abs(", ")"), "nests deeper than 256 levels"},
		{strings.Repeat("NOT ", 10000) + "celsius > 0.0D", "nests deeper than 256 levels"},
		{strings.Repeat("- ", 10000) + "celsius", "nests deeper than 256 levels"},
		{"celsius" + strings.Repeat(" + celsius", MaxTokens), "more than 50000 tokens"},
	} {
		for name, run := range map[string]func() error{
			"Guard":   func() error { return Guard(c.sql, []string{"celsius"}) },
			"Compile": func() error { _, err := Compile(c.sql, cols, Options{ANSI: true}); return err },
		} {
			err := run()
			var se *SyntaxError
			if !errors.As(err, &se) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s of %.20q…: %v, want a syntax error saying %q", name, c.sql, err, c.want)
			}
		}
	}
	for _, ok := range []string{nested(MaxNesting-1, "(", ")"), "celsius" + strings.Repeat(" + celsius", 1000)} {
		if _, err := Compile(ok, cols, Options{ANSI: true}); err != nil {
			t.Errorf("%.20q…: %v", ok, err)
		}
	}
}

// TestAColumnOfStringsIsBounded: repeat() is capped per call, but 10,000
// rows of 100 MB each reached 22.7 GiB. A column now stops at
// MaxColumnBytes: the rows past it are EMBEDDED_ENGINE_UNSUPPORTED errors
// and are not computed, so the evaluation ends quickly and allocates
// about the cap.
func TestAColumnOfStringsIsBounded(t *testing.T) {
	const rows = 10_000
	cols := []Column{{Name: "celsius", Type: udf.Prim(udf.Double)}}
	expr, err := Compile("celsius + CAST(length(repeat('x', 100000000)) AS DOUBLE) * 0.0D", cols, Options{ANSI: true})
	if err != nil {
		t.Fatal(err)
	}
	b := array.NewFloat64Builder(memory.DefaultAllocator)
	for i := 0; i < rows; i++ {
		b.Append(float64(i))
	}
	col := b.NewArray()
	rec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "celsius", Type: arrow.PrimitiveTypes.Float64}}, nil), []arrow.Array{col}, rows)
	defer rec.Release()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res, err := expr.Eval(rec, nil)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Values.Release()
	got := after.TotalAlloc - before.TotalAlloc
	if got > 1<<30 {
		t.Errorf("the evaluation allocated %d MiB; want at most 1 GiB", got>>20)
	}
	t.Logf("the evaluation allocated %d MiB in all", got>>20)
	refused := 0
	for _, e := range res.Errors {
		if e.Condition == CondUnsupported && strings.Contains(e.Message, "a column of more than 256 MiB of strings in one batch") {
			refused++
		}
	}
	if refused < rows-3 {
		t.Errorf("%d of %d rows refused; want all but the first few", refused, rows)
	}
}
