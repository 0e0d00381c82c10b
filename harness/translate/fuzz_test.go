package translate

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/udf/frontends"
)

// FuzzTranslate feeds arbitrary source through a front-end and translates
// every UDF it finds: the translator re-parses bodies itself, so it must
// never panic, and whatever it emits must come with no declines.
func FuzzTranslate(f *testing.F) {
	for _, p := range []string{
		"../../examples/scala-to-fahrenheit/ToFahrenheit.scala",
		"../../examples/java-to-fahrenheit/ToFahrenheit.java",
		"../../examples/scala-lambda-fahrenheit/FahrenheitLambda.scala",
		"../../examples/python-celsius/celsius.py",
		"testdata/Udfs.scala",
		"testdata/udfs.py",
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
			res, err := Translate(&us[i], []byte(src))
			if err != nil || res == nil {
				continue
			}
			if res.SQL != "" && len(res.Declines) > 0 {
				t.Fatalf("%s: SQL %q emitted despite declines %v", us[i].Name, res.SQL, res.Declines)
			}
		}
	})
}
