package frontends

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/udf"
)

// Every front-end tells an inlined expression in the code from a copy of
// it in a comment or inside another string: verify counts only what runs.
func TestOccurrencesTellCodeFromCopies(t *testing.T) {
	const call = "expr(\"`t` + 1\")"
	const sql = "\"SELECT `t` + 1 FROM r\""
	cases := []struct {
		name      string
		lang      udf.Language
		src, text string
		kind      udf.UseKind
		all, code int
	}{
		{"python call", udf.Python, "df.select(" + call + ")\n", call, udf.UseCall, 1, 1},
		{"python call and a comment copy", udf.Python, "df.select(" + call + ")\n# " + call + "\n", call, udf.UseCall, 2, 1},
		{"python copy in a string", udf.Python, "x = '" + call + "'\n", call, udf.UseCall, 1, 0},
		{"python copy in a docstring", udf.Python, "def f():\n    \"\"\"" + call + "\"\"\"\n", call, udf.UseCall, 1, 0},
		{"python part of a longer call", udf.Python, "df.select(" + call + ".alias('x'))\n", call, udf.UseCall, 1, 1},
		{"python sql literal", udf.Python, "spark.sql(" + sql + ")\n# spark.sql(" + sql + ")\n", sql, udf.UseSQL, 2, 1},
		{"scala call and a block comment copy", udf.Scala, "object J {\n  val d = df.select(" + call + ")\n  /* " + call + " */\n}\n", call, udf.UseCall, 2, 1},
		{"scala line comment copy", udf.Scala, "object J {\n  // " + call + "\n}\n", call, udf.UseCall, 1, 0},
		{"scala sql literal", udf.Scala, "object J {\n  spark.sql(" + sql + ")\n}\n", sql, udf.UseSQL, 1, 1},
		{"java call and comment copies", udf.Java, "class J {\n  void m() { df.select(" + call + "); }\n  // " + call + "\n  /** " + call + " */\n}\n", call, udf.UseCall, 3, 1},
		{"java sql literal in a string", udf.Java, "class J {\n  String s = \"x" + sql[1:] + ";\n}\n", sql[1:], udf.UseSQL, 1, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fe := New(c.lang)
			defer fe.Close()
			loc, ok := fe.(udf.SiteLocator)
			require.True(t, ok)
			all, code, err := loc.Occurrences("x", []byte(c.src), c.text, c.kind)
			require.NoError(t, err)
			assert.Len(t, all, c.all)
			assert.Len(t, code, c.code)
		})
	}
}
