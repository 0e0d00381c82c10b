package scala

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Only the $ of a $"col" in code becomes s; strings, characters,
// comments and interpolations keep every byte.
func TestColumnSyntaxRewritesOnlyTheColumnInterpolator(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`df.select($"a", $"b")`, `df.select(s"a", s"b")`},
		{`val p = "cost: $"; f($"x")`, `val p = "cost: $"; f(s"x")`},
		{`s"${$"inner"} and $$"` + "\n" + `g($"y")`, `s"${s"inner"} and $$"` + "\n" + `g(s"y")`},
		{`// $"x" in a comment` + "\n" + `/* /* $"y" */ $"z" */ h($"w")`, `// $"x" in a comment` + "\n" + `/* /* $"y" */ $"z" */ h(s"w")`},
		{`val c = '$'; val q = '"'; k($"v")`, `val c = '$'; val q = '"'; k(s"v")`},
		{`a$"b"`, ``},
		{`"""a $"b" c"""; m($"n")`, `"""a $"b" c"""; m(s"n")`},
		{`no dollar here`, ``},
	} {
		got := ColumnSyntax([]byte(c.in))
		if c.want == "" {
			assert.Nil(t, got, c.in)
			continue
		}
		require.NotNil(t, got, c.in)
		assert.Equal(t, c.want, string(got), c.in)
		assert.Len(t, got, len(c.in))
	}
}

// A job that selects with $"col" (spark.implicits) is read, and its UDF
// found, at the offsets of the file as written.
func TestAFileWithDollarColumnsIsRead(t *testing.T) {
	us := parse(t, `object Job {
  val twice = udf((x: Int) => x * 2)
  def run(df: DataFrame) = df.select(twice($"amount"), $"id")
}
`)
	require.Len(t, us, 1)
	assert.Equal(t, "twice", us[0].Name)
	require.Len(t, us[0].UseSites, 1)
	assert.Equal(t, `twice($"amount")`, us[0].UseSites[0].Text)
}
