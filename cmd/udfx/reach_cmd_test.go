package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// freshCloneOf commits the folder from (under the repository's root) as a
// repository of its own and returns a fresh clone of it, with udfx's
// Python environment linked in as udfx setup would provide it.
func freshCloneOf(t *testing.T, from string) string {
	t.Helper()
	origin := filepath.Join(t.TempDir(), "origin")
	require.NoError(t, os.CopyFS(origin, os.DirFS(filepath.Join(repoRoot(t), from))))
	require.NoError(t, os.WriteFile(filepath.Join(origin, ".gitignore"), []byte(".venv\ntarget/\n"), 0o644))
	git(t, origin, "init", "-q")
	git(t, origin, "add", ".")
	git(t, origin, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "shop")
	clone := filepath.Join(t.TempDir(), "clone")
	git(t, filepath.Dir(origin), "clone", "-q", origin, clone)
	require.NoError(t, os.Symlink(filepath.Join(repoRoot(t), ".venv"), filepath.Join(clone, ".venv")))
	return clone
}

// A multi-module Maven repository, freshly cloned: a Java UDF that uses a
// library beyond Spark's jars (jspecify) and a sibling module's class,
// and a Python UDF whose package module imports its siblings relatively,
// are each verified by a plain udfx rewrite, no types and no flags.
func TestRewriteTheUDFsOfAMultiModuleRepository(t *testing.T) {
	dir := freshCloneOf(t, "harness/buildpath/testdata/shop")

	out, report, _ := rewriteApplyVerify(t, dir, "udfs/src/main/java/com/acme/udfs/NormalizeSku.java", "NormalizeSku")
	assert.Contains(t, out, "verified: CASE WHEN (`sku` IS NULL)")
	assert.Contains(t, report, "udfs/pom.xml's classpath (1 library, 4 source folders)")

	out, report, _ = rewriteApplyVerify(t, dir, "python/shop_etl/jobs/prices.py:gross_price", "gross_price")
	assert.Contains(t, out, "verified:")
	assert.Contains(t, report, "net double (dataflow: spark.read.schema at line 16")
}

// The same for an sbt build: the Scala UDF's project depends on another
// project, and both use a library outside Spark's jars; build.sbt
// declares a Scala library (%%) too. A plain rewrite and verify, on a
// fresh clone, compile the original against what build.sbt declares,
// read as data.
func TestRewriteTheUDFOfAnSbtBuild(t *testing.T) {
	dir := freshCloneOf(t, "harness/buildpath/testdata/trips")
	out, report, _ := rewriteApplyVerify(t, dir, "udfs/src/main/scala/com/acme/udfs/Trips.scala:minimumFare", "minimumFare")
	assert.Contains(t, out, "verified: CASE WHEN (`fare` IS NULL)")
	assert.Contains(t, report, "build.sbt's classpath (2 libraries, 2 source folders)")
}

// The forms real Scala code wraps in udf(...) that scan used to miss are
// found and verified by a plain udfx rewrite FILE:NAME: a placeholder
// lambda (udf[Long, Long, Long](_ + _)), an eta-expansion with ascribed
// types (udf(ageCheck(_: Int): String), named by its def), and a class
// extending Function[String, String].
func TestRewriteTheScalaFormsScanUsedToMiss(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(repoRoot(t), "cmd/udfx/testdata/forms/Forms.scala"))
	require.NoError(t, err)
	dir := repoWithFile(t, "src/Forms.scala", string(src))
	for name, want := range map[string]string{
		"total":       "verified: CASE WHEN ((`_1` IS NULL) OR (`_2` IS NULL))",
		"ageCheck":    "verified: CASE WHEN (`age` IS NULL) THEN CAST(NULL AS STRING) ELSE CASE WHEN (`age` >= 18) THEN 'adult' ELSE 'minor' END END",
		"URLDecodeFn": "verified: CASE WHEN (`s` IS NULL) THEN CAST(NULL AS STRING) ELSE concat(`s`, '?') END",
	} {
		stdout, stderr, code := runCLI(t, dir, "rewrite", "src/Forms.scala:"+name)
		require.Equal(t, 0, code, "%s\nstdout:\n%s\nstderr:\n%s", name, stdout, stderr)
		assert.Contains(t, stdout, want, name)
	}
}

// A Scala UDF whose result type only scalac knows (a match over doubles)
// is typed from the compiled original, verified by a plain udfx rewrite,
// and passes udfx verify, which reads the type from the compiled original
// again rather than from the record.
func TestRewriteAScalaUDFTypedByScalac(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(repoRoot(t), "harness/runner/jvm/testdata/ScalacTypes.scala"))
	require.NoError(t, err)
	dir := repoWithFile(t, "src/ScalacTypes.scala", string(src))
	out, report, _ := rewriteApplyVerify(t, dir, "src/ScalacTypes.scala:band", "band")
	assert.Contains(t, out, "verified: CASE WHEN (`x` IS NULL) THEN CAST(NULL AS DOUBLE)")
	assert.Contains(t, report, "return double (scalac: the UserDefinedFunction udf(...) made, from scalac's TypeTags)")
}

// A Scala job that names its columns $"col" (spark.implicits), which the
// grammar cannot read, is read at the file's own offsets: its UDF is
// rewritten at the call over $"amount", applied, and verified.
func TestRewriteAScalaJobThatSelectsWithDollarColumns(t *testing.T) {
	dir := repoWithFile(t, "src/Dollar.scala", `import org.apache.spark.sql.DataFrame
import org.apache.spark.sql.functions.udf

object Dollar {
  val twice = udf((x: Int) => x * 2)

  def run(df: DataFrame): DataFrame = {
    import df.sparkSession.implicits._
    df.select(twice($"amount").as("doubled"), $"id")
  }
}
`)
	rewriteApplyVerify(t, dir, "src/Dollar.scala:twice", "twice")
	b, err := os.ReadFile(filepath.Join(dir, "src/Dollar.scala"))
	require.NoError(t, err)
	assert.Contains(t, string(b), "df.select(expr(\"CASE WHEN (`amount` IS NULL)")
	assert.Contains(t, string(b), `.as("doubled"), $"id")`)
}
