package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A UDF a factory function makes is rewritten where the job calls the
// factory (make_prefixer("ACC-")(col("account")) becomes an expr), and
// its record keeps the literals the proof called the factory with: once
// --apply has replaced every call, verify re-runs the original made with
// them. A call that passes another literal makes the record stale.
func TestFactoryUDFRewriteApplyAndVerify(t *testing.T) {
	dir := repoWithCopy(t, "harness", "translate", "testdata", "corpus", "real", "python", "udf_factory.py")

	stdout, stderr, code := runCLI(t, dir, "rewrite", "udf_factory.py:add_prefix", "--target", "sql", "--apply")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.Contains(t, stdout, "ELSE concat('ACC-', `s`) END (10000 rows, bit-exact, ANSI on)")
	job, err := os.ReadFile(filepath.Join(dir, "udf_factory.py"))
	require.NoError(t, err)
	assert.Contains(t, string(job), `df.withColumn("tagged", expr("CASE WHEN (`+"`account`"+` IS NULL) THEN CAST(NULL AS STRING) ELSE concat('ACC-', `+"`account`"+`) END"))`)
	assert.NotContains(t, string(job), `make_prefixer("ACC-")`)
	git(t, dir, "add", ".")
	git(t, dir, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "rewrite")

	stdout, stderr, code = runCLI(t, dir, "verify", "--full")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.Regexp(t, `add_prefix\s+sql\s+pass`, stdout)

	writeFile(t, filepath.Join(dir, "udf_factory.py"), string(job)+"df = df.withColumn(\"t2\", make_prefixer(\"XYZ-\")(col(\"account\")))\n")
	stdout, _, code = runCLI(t, dir, "verify", "--skip-rerun")
	assert.Equal(t, exitFailed, code, stdout)
	assert.Regexp(t, `add_prefix\s+sql\s+stale-udf\s+\S+\s+the UDF changed: add_prefix depends on code outside its definition in udf_factory.py that changed: factory-arguments make_prefixer hashes differently`, stdout)
}

// The same for a Scala def that makes a UDF: rewritten with the default
// targets (sql, columnar, cuda), applied, then verified once no call of
// the def is left, with the literals from the record: verify renders the
// cuda files again from the translator's expression, which reads the
// parameter as the record's literal.
func TestScalaFactoryUDFRewriteApplyAndVerify(t *testing.T) {
	dir := repoWithCopy(t, "harness", "translate", "testdata", "Factories.scala")

	stdout, stderr, code := runCLI(t, dir, "rewrite", "Factories.scala:scaleBy", "--apply")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.Contains(t, stdout, "verified: (`x` * 2.0D) (10000 rows, bit-exact, ANSI on)")
	job, err := os.ReadFile(filepath.Join(dir, "Factories.scala"))
	require.NoError(t, err)
	assert.Contains(t, string(job), `df.withColumn("scaled", expr("(`+"`amount`"+` * 2.0D)"))`)
	assert.NotContains(t, string(job), `Factories.scaleBy(2)`)
	git(t, dir, "add", ".")
	git(t, dir, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "rewrite")

	stdout, stderr, code = runCLI(t, dir, "verify", "--full")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.Regexp(t, `scaleBy\s+sql\s+pass`, stdout)
	assert.Regexp(t, `scaleBy\s+cuda\s+pass`, stdout)

	writeFile(t, filepath.Join(dir, "Factories.scala"), strings.Replace(string(job), `df.withColumn("scaled"`, `df.withColumn("s3", Factories.scaleBy(3)(col("amount"))).withColumn("scaled"`, 1))
	stdout, _, code = runCLI(t, dir, "verify", "--skip-rerun")
	assert.Equal(t, exitFailed, code, stdout)
	assert.Regexp(t, `scaleBy\s+sql\s+stale-udf\s+\S+\s+the UDF changed: scaleBy depends on code outside its definition in Factories.scala that changed: factory-arguments scaleBy hashes differently`, stdout)
}
