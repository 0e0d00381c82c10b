package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/pyenv"
	"github.com/udfx/udfx/internal/sparkversion"
)

// udfx proves for the Spark it runs. A UDF whose project declares another
// is declined before anything runs; one whose project declares that
// Spark is proved and the record says where the version came from; and
// the gate fails the record when the declaration later changes.
func TestRewriteProvesForTheDeclaredSparkOnly(t *testing.T) {
	gate := sparkversion.Minor(pyenv.SparkVersion())
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join(repoRoot(t), "examples", "python-celsius", "celsius.py"))
	require.NoError(t, err)
	writeFile(t, filepath.Join(dir, "etl", "celsius.py"), string(src))
	writeFile(t, filepath.Join(dir, "etl", "requirements.txt"), "pyspark==3.5.1\n")
	git(t, dir, "init", "-q")
	git(t, dir, "add", ".")
	git(t, dir, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "etl")

	stdout, stderr, code := runCLI(t, dir, "rewrite", "etl/celsius.py")
	assert.Equal(t, exitFailed, code, stderr)
	assert.Contains(t, stdout, "the project declares Spark 3.5 (etl/requirements.txt:1: pyspark==3.5.1); udfx proves for Spark "+gate)
	_, stderr, code = runCLI(t, dir, "rewrite", "etl/celsius.py", "--spark", "3.5")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "--spark 3.5: udfx proves for the Spark it runs, "+gate+" here")
	_, stderr, code = runCLI(t, dir, "rewrite", "etl/celsius.py", "--spark", gate)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "the project declares Spark 3.5 (etl/requirements.txt:1: pyspark==3.5.1), and udfx verify holds every record to the declaration")

	writeFile(t, filepath.Join(dir, "etl", "requirements.txt"), "pyspark=="+pyenv.SparkVersion()+"\n")
	git(t, dir, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qam", "upgrade")
	stdout, stderr, code = runCLI(t, dir, "rewrite", "etl/celsius.py", "--apply")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	var rec *evidence.Record
	rec, err = evidence.Read(filepath.Join(dir, "udfx-rewrites", "to_fahrenheit", "evidence.json"))
	require.NoError(t, err)
	assert.Equal(t, &evidence.SparkTarget{Version: gate, From: "etl/requirements.txt:1: pyspark==" + pyenv.SparkVersion()}, rec.Spark)

	writeFile(t, filepath.Join(dir, "etl", "requirements.txt"), "pyspark~=3.5.0\n")
	stdout, _, code = runCLI(t, dir, "verify", "--skip-rerun")
	assert.Equal(t, exitFailed, code, stdout)
	assert.Regexp(t, `to_fahrenheit\s+sql\s+wrong-engine\s+\S+\s+the rewrite is proved for Spark `+gate+`, and the project now declares Spark 3\.5 \(etl/requirements\.txt:1: pyspark~=3\.5\.0\)`, stdout)
}
