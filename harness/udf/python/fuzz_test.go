package python

import (
	"bytes"
	"errors"
	"os"
	"testing"

	"github.com/udfx/udfx/harness/udf"
)

var fuzzSeeds = []string{
	"",
	"from pyspark.sql.functions import udf\n@udf\ndef f(x):\n    return x\n",
	"import pyspark.sql.functions as F\nf = F.udf(lambda x: x, 'int')\nspark.udf.register('f', f)\nspark.sql('select f(a)')\n",
	"from pyspark.sql.functions import pandas_udf\n@pandas_udf('double')\ndef g(s: 'pd.Series') -> float:\n    return [v for v in s]\n",
	"rdd.map(lambda x: x).reduce(add).fold(0, f)\n",
	"spark.udf.register('n', lambda: 1)\nudf('int')(h)\nudf(udf)\nudf()\n",
	"@udf(\ndef",
	"from pyspark.sql.functions import *\n@udf(f'{x}')\ndef k(*a, **kw): global z; z.q[1] += 1\n",
}

func FuzzParse(f *testing.F) {
	for _, p := range append(examplePaths, "testdata/dataflow.py") {
		if src, err := os.ReadFile(p); err == nil {
			f.Add(src)
		}
	}
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	fe := New()
	defer fe.Close()
	f.Fuzz(func(t *testing.T, src []byte) {
		us, err := fe.Parse("fuzz.py", src)
		if err != nil {
			var pe *udf.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error is %T, not *udf.ParseError: %v", err, err)
			}
			if us != nil {
				t.Fatal("UDFs returned with an error")
			}
			return
		}
		lines := bytes.Count(src, []byte("\n")) + 1
		inside := func(s udf.Span, what string) {
			for _, p := range []udf.Position{s.Start, s.End} {
				if p.Line < 1 || p.Line > lines || p.Column < 1 {
					t.Fatalf("%s span %v outside the input (%d lines)", what, s, lines)
				}
			}
		}
		for _, u := range us {
			inside(u.Span, u.Name)
			inside(u.BodySpan, u.Name+" body")
			for _, us := range u.UseSites {
				inside(us.Span, u.Name+" use")
			}
			for _, b := range u.Blockers {
				inside(b.Span, u.Name+" blocker")
			}
		}
	})
}
