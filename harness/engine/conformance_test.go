package engine

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/value"
)

// conformanceCase is one line of testdata/conformance/*.jsonl, generated
// by real Apache Spark (see the generator there for the version).
type conformanceCase struct {
	ID      string `json:"id"`
	Expr    string `json:"expr"`
	Columns []struct {
		Name string `json:"name"`
		Type string `json:"type"`
	} `json:"columns"`
	Rows       [][]string        `json:"rows"`
	ANSI       bool              `json:"ansi"`
	ResultType string            `json:"result_type"`
	Results    []json.RawMessage `json:"results"`
}

type expectedError struct {
	Error *struct {
		Class     string `json:"class"`
		Condition string `json:"condition"`
	} `json:"error"`
}

// conformanceExceptions lists, by case id, the conformance cases whose
// exact Spark result the embedded engine deliberately does not reproduce,
// with the reason. For these the engine must fail loudly: a compile-time
// *UnsupportedFunctionError / *UnsupportedRegexError, or an
// EMBEDDED_ENGINE_UNSUPPORTED row error on every row where it would differ.
// A listed case that passes exactly fails the test, so the list stays exact.
var conformanceExceptions = map[string]string{
	"acos/double":                          "transcendental: the JVM's intrinsic can differ in the last bit; compile-time refusal unless Options.ApproxMath (TestConformanceApproxMath checks 1 ulp)",
	"array/empty":                          "array() is array<void>, which has no Arrow mapping; refused at compile time",
	"asin/double":                          "transcendental: the JVM's intrinsic can differ in the last bit; compile-time refusal unless Options.ApproxMath (TestConformanceApproxMath checks 1 ulp)",
	"atan/double":                          "transcendental: the JVM's intrinsic can differ in the last bit; compile-time refusal unless Options.ApproxMath (TestConformanceApproxMath checks 1 ulp)",
	"atan2/double":                         "transcendental: the JVM's intrinsic can differ in the last bit; compile-time refusal unless Options.ApproxMath (TestConformanceApproxMath checks 1 ulp)",
	"cardinality/map":                      "map values are not supported by the engine",
	"cast/double-to-string":                "JDK 17's Double.toString is not always shortest (4.9E-324, 9.999999999999999E22), JDK 19+'s is: values outside the classes checked on both (jdkfloat.go) are refused per row",
	"cast/float-to-string":                 "JDK 17's Float.toString is not always shortest (1.4E-45, 1.17549435E-38), JDK 19+'s is: values outside the classes checked on both (jdkfloat.go) are refused per row",
	"cast/string-to-date/10":               "signed or 5-digit years ('+10000-01-01') are refused per row",
	"cast/string-to-date/16":               "signed years ('-0001-01-01') are refused per row",
	"cos/double":                           "transcendental: the JVM's intrinsic can differ in the last bit; compile-time refusal unless Options.ApproxMath (TestConformanceApproxMath checks 1 ulp)",
	"element_at/map-found":                 "map values are not supported by the engine",
	"element_at/map-missing":               "map values are not supported by the engine",
	"element_at/try":                       "outside the engine's supported list: refused at compile time (*UnsupportedFunctionError, \"use --engine spark\")",
	"hypot/double":                         "transcendental: the JVM's intrinsic can differ in the last bit; compile-time refusal unless Options.ApproxMath (TestConformanceApproxMath checks 1 ulp)",
	"hypot/int":                            "transcendental: the JVM's intrinsic can differ in the last bit; compile-time refusal unless Options.ApproxMath (TestConformanceApproxMath checks 1 ulp)",
	"initcap/mixed":                        "full title-case mappings (ß -> Ss) and U+0130 are refused per row",
	"initcap/sharp-s":                      "full title-case mappings (ß -> Ss) are refused per row",
	"initcap/special-case":                 "full title-case mappings (ß, ﬁ) and U+0130 are refused per row",
	"lpad/binary":                          "the string functions take strings only: a binary argument is refused at compile time (*UnsupportedFunctionError, \"use --engine spark\")",
	"pow/double":                           "transcendental: the JVM's intrinsic can differ in the last bit; compile-time refusal unless Options.ApproxMath (TestConformanceApproxMath checks 1 ulp)",
	"pow/int":                              "transcendental: the JVM's intrinsic can differ in the last bit; compile-time refusal unless Options.ApproxMath (TestConformanceApproxMath checks 1 ulp)",
	"power/double":                         "transcendental: the JVM's intrinsic can differ in the last bit; compile-time refusal unless Options.ApproxMath (TestConformanceApproxMath checks 1 ulp)",
	"regexp_like/flag":                     "embedded (?i) is refused: Java's case folding differs from RE2's",
	"regexp_replace/case-insensitive-flag": "embedded (?i) is refused: Java's case folding differs from RE2's",
	"regexp_replace/star":                  "Java also replaces the empty match right after a non-empty one; Go's regexp skips it, so such rows are refused",
	"sin/double":                           "transcendental: the JVM's intrinsic can differ in the last bit; compile-time refusal unless Options.ApproxMath (TestConformanceApproxMath checks 1 ulp)",
	"size/map":                             "map values are not supported by the engine",
	"split/pipe":                           "a pattern matching the empty string splits differently in Java; refused per row",
	"tan/double":                           "transcendental: the JVM's intrinsic can differ in the last bit; compile-time refusal unless Options.ApproxMath (TestConformanceApproxMath checks 1 ulp)",
}

func TestConformance(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "conformance", "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	total, passed, excepted := 0, 0, 0
	seen := map[string]bool{}
	for _, file := range files {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		line := 0
		for sc.Scan() {
			line++
			if len(sc.Bytes()) == 0 {
				continue
			}
			var c conformanceCase
			if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
				t.Errorf("%s:%d: %v", file, line, err)
				continue
			}
			total++
			seen[c.ID] = true
			where := file + ":" + itoa(line) + " " + c.ID + " " + c.Expr
			problems, named := runConformance(where, &c, false)
			reason, listed := conformanceExceptions[c.ID]
			switch {
			case listed && len(problems) == 0:
				t.Errorf("%s: passes exactly; remove it from conformanceExceptions (%s)", where, reason)
			case listed && !named:
				t.Errorf("%s: listed as an exception (%s) but the engine does not fail with a named error: %v", where, reason, problems)
			case listed:
				excepted++
			case len(problems) > 0:
				for _, p := range problems {
					t.Error(p)
				}
			default:
				passed++
			}
		}
		f.Close()
		if err := sc.Err(); err != nil {
			t.Errorf("%s: %v", file, err)
		}
	}
	for id := range conformanceExceptions {
		if len(files) > 0 && !seen[id] {
			t.Errorf("conformanceExceptions lists %s, which no conformance file has", id)
		}
	}
	t.Logf("%d conformance cases in %d files: %d pass exactly, %d are named exceptions", total, len(files), passed, excepted)
}

// runConformance evaluates one case and returns its differences from
// Spark; named reports whether every difference is a named refusal
// (unsupported function or regex, or an EMBEDDED_ENGINE_UNSUPPORTED row).
func runConformance(where string, c *conformanceCase, approx bool) (problems []string, named bool) {
	named = true
	fail := func(isNamed bool, format string, args ...any) {
		problems = append(problems, fmt.Sprintf("%s (ansi=%v): ", where, c.ANSI)+fmt.Sprintf(format, args...))
		named = named && isNamed
	}
	cols := make([]Column, len(c.Columns))
	fields := make([]arrow.Field, len(c.Columns))
	arrs := make([]arrow.Array, len(c.Columns))
	for i, col := range c.Columns {
		ty, err := udf.ParseType(col.Type)
		if err != nil {
			fail(false, "column type: %v", err)
			return
		}
		cols[i] = Column{Name: col.Name, Type: ty}
		at, err := value.ArrowType(ty)
		if err != nil {
			fail(false, "%v", err)
			return
		}
		b := array.NewBuilder(memory.DefaultAllocator, at)
		for _, row := range c.Rows {
			v, err := value.ParseToken(row[i])
			if err != nil {
				fail(false, "input token %q: %v", row[i], err)
				return
			}
			if err := value.Append(b, v); err != nil {
				fail(false, "input %q: %v", row[i], err)
				return
			}
		}
		arrs[i] = b.NewArray()
		defer arrs[i].Release()
		b.Release()
		fields[i] = arrow.Field{Name: col.Name, Type: at, Nullable: true}
	}
	rec := array.NewRecordBatch(arrow.NewSchema(fields, nil), arrs, int64(len(c.Rows)))
	defer rec.Release()
	e, err := Compile(c.Expr, cols, Options{ANSI: c.ANSI, ApproxMath: approx})
	if c.ResultType == "" {
		// Spark rejects the expression at analysis time.
		var te *TypeError
		if err == nil {
			fail(false, "compiles to %s, Spark rejects it at analysis", e.Type())
		} else if !errors.As(err, &te) {
			fail(isNamedRefusal(err), "compile error %v, Spark has an analysis error", err)
		}
		return
	}
	if err != nil {
		fail(isNamedRefusal(err), "compile: %v", err)
		return
	}
	if got := e.Type().String(); got != c.ResultType {
		fail(false, "type %s, Spark says %s", got, c.ResultType)
	}
	res, err := e.Eval(rec, memory.DefaultAllocator)
	if err != nil {
		fail(false, "eval: %v", err)
		return
	}
	defer res.Values.Release()
	rowErrs := map[int]RowError{}
	for _, re := range res.Errors {
		rowErrs[re.Row] = re
	}
	gotAt := func(i int) value.Value {
		if res.Values.DataType().ID() == arrow.NULL {
			return value.NullValue()
		}
		return value.FromArrow(res.Values, i)
	}
	for i, raw := range c.Results {
		re, hasErr := rowErrs[i]
		unsupported := hasErr && re.Condition == CondUnsupported
		var ee expectedError
		if json.Unmarshal(raw, &ee) == nil && ee.Error != nil {
			if !hasErr || re.Condition != ee.Error.Condition {
				fail(unsupported, "row %d: got %s / %+v, Spark raises %s", i, value.Token(gotAt(i)), re, ee.Error.Condition)
			}
			continue
		}
		var tok string
		if err := json.Unmarshal(raw, &tok); err != nil {
			fail(false, "row %d: result %s: %v", i, raw, err)
			continue
		}
		want, err := value.ParseToken(tok)
		if err != nil {
			fail(false, "row %d: result token %q: %v", i, tok, err)
			continue
		}
		if hasErr {
			fail(unsupported, "row %d: got error %s (%s), Spark returns %s", i, re.Condition, re.Message, tok)
			continue
		}
		got := gotAt(i)
		policy := value.Policy{}
		if approx {
			policy.ULP = 1
		}
		if !policy.Equal(want, got) {
			fail(false, "row %d: got %s, Spark returns %s", i, value.Token(got), tok)
		}
	}
	return problems, named
}

// isNamedRefusal reports a compile error by which the engine declines an
// expression it cannot reproduce exactly.
func isNamedRefusal(err error) bool {
	var uf *UnsupportedFunctionError
	var ur *UnsupportedRegexError
	return errors.As(err, &uf) || errors.As(err, &ur)
}

// TestConformanceApproxMath checks the transcendental functions, which are
// refused unless Options.ApproxMath, against Spark within 1 ulp.
func TestConformanceApproxMath(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "conformance", "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for n, line := range bytes.Split(data, []byte("\n")) {
			if len(line) == 0 {
				continue
			}
			var c conformanceCase
			if err := json.Unmarshal(line, &c); err != nil {
				t.Fatalf("%s:%d: %v", file, n+1, err)
			}
			if !strings.HasPrefix(conformanceExceptions[c.ID], "transcendental") {
				continue
			}
			checked++
			problems, _ := runConformance(file+":"+itoa(n+1)+" "+c.ID+" "+c.Expr, &c, true)
			for _, p := range problems {
				t.Error(p)
			}
		}
	}
	if len(files) > 0 && checked == 0 {
		t.Error("no transcendental cases found")
	}
	t.Logf("%d transcendental cases agree with Spark within 1 ulp", checked)
}
