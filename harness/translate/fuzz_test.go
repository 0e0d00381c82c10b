package translate

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/udfx/udfx/harness/engine"
	"github.com/udfx/udfx/harness/render/sparksql"
	"github.com/udfx/udfx/harness/translate/ir"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/udf/frontends"
	"github.com/udfx/udfx/internal/typeinfer"
)

// FuzzTranslate feeds arbitrary source through a front-end and translates
// every UDF it finds: the translator re-parses bodies itself, so it must
// never panic; whatever it emits must come with no declines, pass the
// rewrite allow-list and compile in the engine over the UDF's parameter
// types to exactly the UDF's return type (what the differential test and
// Spark will be given).
func FuzzTranslate(f *testing.F) {
	for _, p := range []string{
		"../../examples/scala-to-fahrenheit/ToFahrenheit.scala",
		"../../examples/java-to-fahrenheit/ToFahrenheit.java",
		"../../examples/scala-lambda-fahrenheit/FahrenheitLambda.scala",
		"../../examples/python-celsius/celsius.py",
		"testdata/Udfs.scala",
		"testdata/udfs.py",
		"testdata/corpus/Corpus.scala",
		"testdata/corpus/java/Corpus.java",
		"testdata/corpus/udfs.py",
		"testdata/corpus/real/python/sensor_pandas.py",
		"testdata/corpus/real/python/invoice_lines.py",
		"testdata/corpus/real/python/fstring_labels.py",
	} {
		src, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(filepath.Ext(p), string(src))
	}
	f.Fuzz(func(t *testing.T, ext, src string) {
		lang, ok := map[string]udf.Language{".scala": udf.Scala, ".java": udf.Java, ".py": udf.Python}[ext]
		if !ok {
			return
		}
		fe := frontends.New(lang)
		defer fe.Close()
		us, err := fe.Parse("fuzz"+ext, []byte(src))
		if err != nil {
			return
		}
		for i := range us {
			if us[i].Kind == udf.KindPandasUDF {
				// A pandas_udf's columns are typed by the job's
				// dataflow, as udfx rewrite types them.
				if typeinfer.Resolve(&us[i], []byte(src), typeinfer.Options{}) != nil {
					continue
				}
			}
			res, err := Translate(&us[i], []byte(src))
			if err != nil || res == nil {
				continue
			}
			if res.SQL == "" {
				continue
			}
			if len(res.Declines) > 0 {
				t.Fatalf("%s: SQL %q emitted despite declines %v", us[i].Name, res.SQL, res.Declines)
			}
			checkEmitted(t, &us[i], res.SQL)
		}
	})
}

// checkEmitted asserts what every emitted rewrite must be: on the
// allow-list, and compiling over the parameters to the return type.
func checkEmitted(t *testing.T, u *udf.UDF, sql string) {
	t.Helper()
	names := make([]string, len(u.Params))
	cols := make([]engine.Column, len(u.Params))
	for i, p := range u.Params {
		if p.Type == nil {
			t.Fatalf("%s: SQL %q emitted for a parameter %s of unknown type", u.Name, sql, p.Name)
		}
		names[i] = p.Name
		cols[i] = engine.Column{Name: p.Name, Type: p.Type}
	}
	if err := engine.Guard(sql, names); err != nil {
		t.Fatalf("%s: emitted SQL %q is refused by the guard: %v", u.Name, sql, err)
	}
	e, err := engine.Compile(sql, cols, engine.Options{ANSI: true, TimeZone: "UTC"})
	if err != nil {
		var unsupported *engine.UnsupportedFunctionError
		if errors.As(err, &unsupported) {
			// Spark-only functions are checked by Spark, not here.
			return
		}
		t.Fatalf("%s: emitted SQL %q does not compile: %v", u.Name, sql, err)
	}
	if u.Return != nil && !e.Type().Equal(u.Return) {
		t.Fatalf("%s: emitted SQL %q has type %s, the UDF returns %s", u.Name, sql, e.Type(), u.Return)
	}
}

// FuzzStrftimeFormat: a strftime format the translator accepts renders
// to SQL the guard allows and the engine compiles to a string, and one
// it refuses is never rendered (the translator and the renderer read
// formats alike), for a time in seconds and for a date.
func FuzzStrftimeFormat(f *testing.F) {
	for _, s := range []string{"%Y-%m-%d", "%H:%M:%S", "%%Y", "day %d'%y\\", "%", "%A", "", "%Y%", "%Q", "%a %b %j %w %u %p", "%B's %%A"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, format string) {
		for _, arg := range []udf.Param{{Name: "s", Type: tLong}, {Name: "d", Type: udf.Prim(udf.Date)}} {
			fn := ir.PyUTCStrftime
			if arg.Type.Kind == udf.Date {
				fn = ir.PyDateStrftime
			}
			e := &ir.Call{Fn: fn, Args: []ir.Expr{&ir.Col{Name: arg.Name, T: arg.Type}, &ir.Lit{T: tString, Value: format}}, T: tString}
			sql, err := sparksql.Render(e)
			if !strftimeOK(format, fn) {
				if err == nil {
					t.Fatalf("format %q of %s is declined by the translator but rendered: %s", format, fn, sql)
				}
				continue
			}
			if err != nil {
				if strings.Contains(err.Error(), "literal") || !utf8.ValidString(format) {
					continue
				}
				t.Fatalf("format %q of %s: %v", format, fn, err)
			}
			checkEmitted(t, &udf.UDF{Name: "strftime", Params: []udf.Param{arg}, Return: tString}, sql)
		}
	})
}

// FuzzPyFormatTemplate: a str.format or %-format template, literal in a
// UDF's source, never panics the translator, and what it translates
// compiles over the parameters to a string.
func FuzzPyFormatTemplate(f *testing.F) {
	for _, s := range []string{"{} {:.2f}", "{0}-{1:03d}-{{x}}", "{-1}", "{:,.2f}", "{", "}", "{0[1]}", "{!r}", "%s=%d%%", "%.3f", "%5d", "%(a)s", "%", "{:}", "{1}{}", "%.10f%s"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tmpl string) {
		for _, form := range []string{"%s.format(s, n, x)", "%s %% (s, n, x)", "%s %% x", "format(x, %s)"} {
			src := "from pyspark.sql.functions import udf\n\n\n@udf(\"string\")\ndef f(s: str, n: int, x: float) -> str:\n    return " + fmt.Sprintf(form, strconv.Quote(tmpl)) + "\n"
			fe := frontends.New(udf.Python)
			us, err := fe.Parse("fuzz.py", []byte(src))
			fe.Close()
			if err != nil || len(us) != 1 {
				continue
			}
			res, err := Translate(&us[0], []byte(src))
			if err != nil || res == nil || res.SQL == "" {
				continue
			}
			if len(res.Declines) > 0 {
				t.Fatalf("%q: SQL %q emitted despite declines %v", src, res.SQL, res.Declines)
			}
			checkEmitted(t, &us[0], res.SQL)
		}
	})
}
