package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sensorsJob is a PySpark script as they are written: the session, a read
// whose schema types the UDF's column, and the write at the top level, no
// type hints and no __main__ guard.
const sensorsJob = `from pyspark.sql import SparkSession
from pyspark.sql.functions import col, udf
from pyspark.sql.types import DoubleType

spark = SparkSession.builder.appName("sensors").getOrCreate()
readings = spark.read.schema("sensor string, reading double").parquet("s3://bucket/readings")


@udf(returnType=DoubleType())
def to_fahrenheit(c):
    if c is None:
        return None
    return c * 9.0 / 5.0 + 32.0


readings.withColumn("f", to_fahrenheit(col("reading"))).write.parquet("s3://bucket/out")
spark.stop()
`

// The first bar case: a plain udfx rewrite FILE:NAME verifies
// the UDF of a script whose job runs at import (it stopped at
// JAVA_GATEWAY_EXITED), says which lines it left out, and udfx verify
// passes the applied rewrite.
func TestRewriteAScriptWithItsJobAtTheTopLevel(t *testing.T) {
	dir := repoWithFile(t, "job.py", sensorsJob)
	rewrite, report, verify := rewriteApplyVerify(t, dir, "job.py:to_fahrenheit", "to_fahrenheit")
	assert.Contains(t, rewrite, "result         verified: CASE WHEN (`c` IS NULL)")
	assert.Contains(t, report, "the module's top-level Spark job (lines 5, 6, 16, 17) left out")
	assert.Contains(t, verify, "1 rewrite checked (1 records): 1 pass")
}

// repoWithFile is tempRepo with content committed at rel.
func repoWithFile(t *testing.T, rel, content string) string {
	t.Helper()
	dir := tempRepo(t)
	path := filepath.Join(dir, filepath.FromSlash(rel))
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	git(t, dir, "add", ".")
	git(t, dir, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "add "+rel)
	return dir
}

// rewriteApplyVerify runs a plain udfx rewrite REF --apply, which must
// verify, then udfx verify, which must pass; it returns rewrite's output,
// the report of the UDF named name, and verify's output.
func rewriteApplyVerify(t *testing.T, dir, ref, name string) (rewrite, report, verify string) {
	t.Helper()
	stdout, stderr, code := runCLI(t, dir, "rewrite", ref, "--apply")
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	rep, err := os.ReadFile(filepath.Join(dir, ".udfx", name, "report.md"))
	require.NoError(t, err)
	vout, verr, vcode := runCLI(t, dir, "verify")
	require.Equal(t, 0, vcode, "stdout:\n%s\nstderr:\n%s", vout, verr)
	return stdout, string(rep), vout
}
