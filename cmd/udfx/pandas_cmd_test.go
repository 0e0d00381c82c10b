package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A pandas_udf that is elementwise arithmetic on a double column gets
// sql first among its default targets: the rewrite is proved against the
// pandas_udf run by PySpark's own Arrow serializer (NULL in as NaN, NaN
// out as NULL), applied at its use site, and verified; changing the
// body makes the record stale.
func TestPandasUDFRewritesToSQLApplyAndVerify(t *testing.T) {
	dir := repoWithCopy(t, "harness", "translate", "testdata", "corpus", "real", "python", "sensor_pandas.py")

	stdout, stderr, code := runCLI(t, dir, "rewrite", "sensor_pandas.py:celsius_to_fahrenheit", "--apply")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.Regexp(t, `targets tried\s+sql, vectorized-python`, stdout)
	assert.Contains(t, stdout, "verified: nanvl((((`temp` * 9.0D) / 5.0D) + 32.0D), CAST(NULL AS DOUBLE)) (10000 rows, bit-exact, ANSI on)")
	job, err := os.ReadFile(filepath.Join(dir, "sensor_pandas.py"))
	require.NoError(t, err)
	assert.Contains(t, string(job), `readings.withColumn("temp_f", expr("nanvl((((`+"`temp_c`"+` * 9.0D) / 5.0D) + 32.0D), CAST(NULL AS DOUBLE))"))`)
	git(t, dir, "add", ".")
	git(t, dir, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "rewrite")

	stdout, stderr, code = runCLI(t, dir, "verify", "--full")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.Regexp(t, `celsius_to_fahrenheit\s+sql\s+pass`, stdout)

	writeFile(t, filepath.Join(dir, "sensor_pandas.py"), strings.Replace(string(job), "return temp * 9 / 5 + 32", "return temp * 9 / 5 + 31", 1))
	stdout, _, code = runCLI(t, dir, "verify", "--skip-rerun")
	assert.Equal(t, exitFailed, code, stdout)
	assert.Regexp(t, `celsius_to_fahrenheit\s+sql\s+stale-udf`, stdout)
}
