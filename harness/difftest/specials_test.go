package difftest

import (
	"context"
	"os"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/engine"
	"github.com/udfx/udfx/harness/inputs"
	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/runner/runners"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/udf/frontends"
	"github.com/udfx/udfx/harness/value"
)

func udfsIn(t *testing.T, path string, lang udf.Language) map[string]*udf.UDF {
	t.Helper()
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	fe := frontends.New(lang)
	defer fe.Close()
	us, err := fe.Parse(path, src)
	require.NoError(t, err)
	out := map[string]*udf.UDF{}
	for i := range us {
		out[us[i].Name] = &us[i]
	}
	return out
}

// Every special value the generator makes must reach the original (in a
// real JVM and a real CPython) and the embedded engine unchanged: identity
// UDFs and the identity expression hand each one back, and the tokens,
// which carry exact bits, must match.
func TestSpecialValuesCrossUnchanged(t *testing.T) {
	jvm := udfsIn(t, "testdata/Identity.scala", udf.Scala)
	py := udfsIn(t, "testdata/identity.py", udf.Python)
	cases := []*udf.UDF{jvm["IdDouble"], jvm["IdFloat"], jvm["IdLong"], jvm["IdString"], jvm["IdDecimal"], py["id_double"], py["id_long"], py["id_string"]}
	mem := memory.NewGoAllocator()
	for _, u := range cases {
		require.NotNil(t, u)
		t.Run(string(u.Language)+"/"+u.Name, func(t *testing.T) {
			typ := u.Params[0].Type
			rows := [][]value.Value{{value.NullValue()}}
			for _, s := range inputs.Specials(typ) {
				rows = append(rows, []value.Value{s})
			}
			r, err := runners.New(context.Background(), u, runner.DefaultLimits)
			require.NoError(t, err)
			defer r.Close()
			got, err := r.Run(context.Background(), rows)
			require.NoError(t, err)
			require.Len(t, got, len(rows))
			for i, row := range rows {
				assert.Equal(t, value.Token(row[0]), value.Token(got[i]), "%s: %v came back as %v", r.Describe(), row[0], got[i])
			}

			// The engine reads the same rows from Arrow and hands them back.
			rec, err := BuildRecord([]inputs.Param{{Name: "x", Type: typ}}, rows, mem)
			require.NoError(t, err)
			defer rec.Release()
			expr, err := engine.Compile("x", []engine.Column{{Name: "x", Type: typ}}, engine.Options{ANSI: true})
			require.NoError(t, err)
			back, err := evalRewrite(expr, rec, mem)
			require.NoError(t, err)
			for i, row := range rows {
				assert.Equal(t, value.Token(row[0]), value.Token(back[i]), "engine: %v came back as %v", row[0], back[i])
			}
		})
	}
}
