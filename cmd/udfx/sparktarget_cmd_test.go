package main

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/pyenv"
	"github.com/udfx/udfx/internal/sparkversion"
)

// udfx proves for the Spark versions it has an environment of, each on
// real Spark of that version in that version's ANSI mode. A UDF whose
// project declares 3.5 is proved on Spark 3.5 with ANSI off and the
// record says so; the gate re-runs it there, and fails it once the
// project declares another version. A Scala Int sum, which wraps, is
// Spark's own + on 3.5 with ANSI off and a wrap in BIGINT on the default
// Spark with ANSI on, where the plain + raises. The embedded engine,
// which follows the default Spark, declines 3.5 with what to do instead.
func TestRewriteProvesForTheDeclaredSpark(t *testing.T) {
	gate := sparkversion.Minor(pyenv.SparkVersion())
	env35, ok := pyenv.EnvFor("3.5")
	require.True(t, ok)
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join(repoRoot(t), "examples", "python-celsius", "celsius.py"))
	require.NoError(t, err)
	writeFile(t, filepath.Join(dir, "etl", "celsius.py"), string(src))
	totals, err := os.ReadFile(filepath.Join(repoRoot(t), "examples", "spark35-totals", "Totals.scala"))
	require.NoError(t, err)
	writeFile(t, filepath.Join(dir, "etl", "Totals.scala"), string(totals))
	writeFile(t, filepath.Join(dir, "etl", "qty.py"), qtyUDF)
	writeFile(t, filepath.Join(dir, "etl", "requirements.txt"), "pyspark==3.5.1\n")
	git(t, dir, "init", "-q")
	git(t, dir, "add", ".")
	git(t, dir, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "etl")

	stdout, stderr, code := runCLI(t, dir, "rewrite", "etl/celsius.py")
	assert.Equal(t, exitFailed, code, stderr)
	assert.Contains(t, stdout, "the project declares Spark 3.5 (etl/requirements.txt:1: pyspark==3.5.1); udfx's embedded engine follows Spark "+gate+"'s SQL, so a proof for 3.5 runs on real Spark 3.5: add --engine spark")
	stdout, stderr, code = runCLI(t, dir, "rewrite", "etl/Totals.scala:addQty", "--engine", "spark", "--sandbox", "off", "--target", "sql")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.Contains(t, stdout, "result         verified: CASE WHEN ((`shipped` IS NULL) OR (`returned` IS NULL)) THEN CAST(NULL AS INT) ELSE (`shipped` + `returned`) END (10000 rows, bit-exact, ANSI off)")
	assert.Contains(t, stdout, "engine         Apache Spark "+env35.Version+" (")
	// udfx test on Spark runs the project's Spark in its mode too: there
	// the plain sum wraps as the JVM's.
	stdout, stderr, code = runCLI(t, dir, "test", "etl/Totals.scala:addQty", "--sql", "shipped + returned", "--engine", "spark", "--sandbox", "off", "--rows", "2000")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.Regexp(t, `engine\s+Apache Spark `+regexp.QuoteMeta(env35.Version)+` \(.*ANSI off`, stdout)
	// An Int division throws on a zero divisor, where 3.5's div gives
	// NULL: the rewrite raises itself, and the rows the original throws
	// on are compared one by one, a Spark job each.
	stdout, stderr, code = runCLI(t, dir, "rewrite", "etl/Totals.scala:perBox", "--engine", "spark", "--sandbox", "off", "--target", "sql", "--apply")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.Contains(t, stdout, "ELSE CASE WHEN (`boxes` = 0) THEN raise_error('udfx: the original throws ArithmeticException (/ by zero)') ELSE CAST(pmod((CAST(`units` AS BIGINT) div CAST(`boxes` AS BIGINT)) + 2147483648L, 4294967296L) - 2147483648L AS INT) END END (10000 rows, bit-exact, ANSI off)")
	report, err := os.ReadFile(filepath.Join(dir, ".udfx", "perBox", "report.md"))
	require.NoError(t, err)
	assert.Regexp(t, `on \d+ of them both sides threw: java\.lang\.ArithmeticException → \S+\) \(\d+ rows, those the original throws on, each run as a Spark job of its own\)`, string(report))
	_, stderr, code = runCLI(t, dir, "rewrite", "etl/celsius.py", "--spark", "3.4")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "--spark 3.4: udfx proves for Spark "+pyenv.SparkMinors())
	_, stderr, code = runCLI(t, dir, "rewrite", "etl/celsius.py", "--spark", gate)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "the project declares Spark 3.5 (etl/requirements.txt:1: pyspark==3.5.1), and udfx verify holds every record to the declaration")

	stdout, stderr, code = runCLI(t, dir, "rewrite", "etl/celsius.py", "--engine", "spark", "--sandbox", "off", "--apply")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.Contains(t, stdout, "bit-exact, ANSI off)")
	assert.Contains(t, stdout, "engine         Apache Spark "+env35.Version+" (")
	rec, err := evidence.Read(filepath.Join(dir, "udfx-rewrites", "to_fahrenheit", "evidence.json"))
	require.NoError(t, err)
	assert.Equal(t, &evidence.SparkTarget{Version: "3.5", From: "etl/requirements.txt:1: pyspark==3.5.1"}, rec.Spark)
	assert.Equal(t, "spark", rec.Engine.Name)
	assert.Equal(t, env35.Version, rec.Engine.Version)
	assert.False(t, rec.Engine.ANSI)
	// A sum of two ints stored as IntegerType keeps its low 32 bits in 3.5
	// as in 4.1: with ANSI off that is Spark's own CAST to INT.
	stdout, stderr, code = runCLI(t, dir, "rewrite", "etl/qty.py:add_qty", "--engine", "spark", "--sandbox", "off")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.Regexp(t, `result +verified: .* ELSE CAST\(CASE WHEN \(CAST\(.a. AS DECIMAL\(20,0\)\) \+ CAST\(.b. AS DECIMAL\(20,0\)\)\) < .* END AS INT\) END \(\d+ rows, bit-exact, ANSI off\)`, stdout)
	assert.NotContains(t, stdout, "pmod(")
	git(t, dir, "add", ".")
	git(t, dir, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "rewrite")

	stdout, stderr, code = runCLI(t, dir, "verify", "--sandbox", "off", "--full")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.Regexp(t, `to_fahrenheit\s+sql\s+pass\s+\S+\s+hashes match the record; differential test re-run: \d+ of \d+ rows agree \(bit-exact, ANSI off, errors compared;.* on Apache Spark `+regexp.QuoteMeta(env35.Version), stdout)
	assert.Regexp(t, `perBox\s+sql\s+pass\s+\S+\s+hashes match the record; differential test re-run: \d+ of \d+ rows agree \(bit-exact, ANSI off, errors compared;.* on Apache Spark `+regexp.QuoteMeta(env35.Version), stdout)

	writeFile(t, filepath.Join(dir, "etl", "requirements.txt"), "pyspark=="+pyenv.SparkVersion()+"\n")
	stdout, _, code = runCLI(t, dir, "verify", "--skip-rerun")
	assert.Equal(t, exitFailed, code, stdout)
	assert.Regexp(t, `to_fahrenheit\s+sql\s+wrong-engine\s+\S+\s+the rewrite is proved for Spark 3\.5, and the project now declares Spark `+regexp.QuoteMeta(gate)+` \(etl/requirements\.txt:1: pyspark==`, stdout)

	// Upgraded to the default Spark, the embedded engine proves it again
	// with ANSI on, and the gate fails that record on a downgrade.
	git(t, dir, "reset", "-q", "--hard", "HEAD~1")
	writeFile(t, filepath.Join(dir, "etl", "requirements.txt"), "pyspark=="+pyenv.SparkVersion()+"\n")
	git(t, dir, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qam", "upgrade")
	stdout, stderr, code = runCLI(t, dir, "rewrite", "etl/celsius.py", "--apply")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.Contains(t, stdout, "bit-exact, ANSI on)")
	rec, err = evidence.Read(filepath.Join(dir, "udfx-rewrites", "to_fahrenheit", "evidence.json"))
	require.NoError(t, err)
	assert.Equal(t, &evidence.SparkTarget{Version: gate, From: "etl/requirements.txt:1: pyspark==" + pyenv.SparkVersion()}, rec.Spark)
	stdout, stderr, code = runCLI(t, dir, "rewrite", "etl/Totals.scala:addQty", "--target", "sql")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.Contains(t, stdout, "ELSE CAST(pmod((CAST(`shipped` AS BIGINT) + CAST(`returned` AS BIGINT)) + 2147483648L, 4294967296L) - 2147483648L AS INT) END (10000 rows, bit-exact, ANSI on)")
	// On 4.1, div raises DIVIDE_BY_ZERO itself: no guard.
	stdout, stderr, code = runCLI(t, dir, "rewrite", "etl/Totals.scala:perBox", "--target", "sql")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.Contains(t, stdout, "ELSE CAST(pmod((CAST(`units` AS BIGINT) div CAST(`boxes` AS BIGINT)) + 2147483648L, 4294967296L) - 2147483648L AS INT) END (10000 rows, bit-exact, ANSI on)")
	stdout, _, code = runCLI(t, dir, "test", "etl/Totals.scala:addQty", "--sql", "shipped + returned")
	assert.Equal(t, exitFailed, code, stdout)
	assert.Contains(t, stdout, "ARITHMETIC_OVERFLOW")

	writeFile(t, filepath.Join(dir, "etl", "requirements.txt"), "pyspark~=3.5.0\n")
	stdout, _, code = runCLI(t, dir, "verify", "--skip-rerun")
	assert.Equal(t, exitFailed, code, stdout)
	assert.Regexp(t, `to_fahrenheit\s+sql\s+wrong-engine\s+\S+\s+the rewrite is proved for Spark `+regexp.QuoteMeta(gate)+`, and the project now declares Spark 3\.5 \(etl/requirements\.txt:1: pyspark~=3\.5\.0\)`, stdout)
}

// qtyUDF sums two ints into an IntegerType column, whose Python result
// beyond 32 bits Spark stores wrapped.
const qtyUDF = `from pyspark.sql.functions import udf
from pyspark.sql.types import IntegerType


@udf(returnType=IntegerType())
def add_qty(a: int, b: int) -> int:
    if a is None or b is None:
        return None
    return a + b
`

// udfx.yaml states the Spark of a repository whose files pin none, here
// as a Databricks runtime: the proof runs on its Spark, the record says
// where the version came from, and the gate holds the record to it.
func TestUdfxYAMLStatesTheSpark(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join(repoRoot(t), "examples", "python-celsius", "celsius.py"))
	require.NoError(t, err)
	writeFile(t, filepath.Join(dir, "jobs", "celsius.py"), string(src))
	writeFile(t, filepath.Join(dir, "udfx.yaml"), "spark:\n  databricks_runtime: 15.4 LTS\n")
	git(t, dir, "init", "-q")
	git(t, dir, "add", ".")
	git(t, dir, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "jobs")

	stdout, stderr, code := runCLI(t, dir, "rewrite", "jobs/celsius.py", "--engine", "spark", "--sandbox", "off", "--apply")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.Contains(t, stdout, "bit-exact, ANSI off)")
	rec, err := evidence.Read(filepath.Join(dir, "udfx-rewrites", "to_fahrenheit", "evidence.json"))
	require.NoError(t, err)
	assert.Equal(t, &evidence.SparkTarget{Version: "3.5", From: "udfx.yaml:2: spark: databricks_runtime: 15.4 LTS"}, rec.Spark)

	stdout, _, code = runCLI(t, dir, "verify", "--skip-rerun")
	assert.Equal(t, exitOK, code, stdout)
	writeFile(t, filepath.Join(dir, "udfx.yaml"), "spark:\n  databricks_runtime: 17.3.x-scala2.13\n")
	stdout, _, code = runCLI(t, dir, "verify", "--skip-rerun")
	assert.Equal(t, exitFailed, code, stdout)
	assert.Contains(t, stdout, "the rewrite is proved for Spark 3.5, and the project now declares Spark 4.0 (udfx.yaml:2: spark: databricks_runtime: 17.3.x-scala2.13)")
	writeFile(t, filepath.Join(dir, "udfx.yaml"), "spark:\n  databricks_runtime: \"11.3\"\n")
	_, stderr, code = runCLI(t, dir, "verify", "--skip-rerun")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, `udfx.yaml:2: spark: databricks_runtime "11.3": udfx knows the Spark of the LTS runtimes`)
}

// A project whose jobs run the default Spark with ANSI off states it in
// udfx.yaml: the proof runs in that mode (the embedded engine has both),
// with the translator's ANSI-off forms (Spark's own wrapping +, a raise
// before a division by zero), the record keeps where the mode came from,
// and the gate holds the record to the stated mode.
func TestUdfxYAMLStatesTheANSIMode(t *testing.T) {
	gate := sparkversion.Minor(pyenv.SparkVersion())
	dir := totalsStatingANSIOff(t, gate)
	git(t, dir, "add", ".")
	git(t, dir, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "totals")

	stdout, stderr, code := runCLI(t, dir, "rewrite", "Totals.scala:addQty", "--target", "sql")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.Contains(t, stdout, "ELSE (`shipped` + `returned`) END (10000 rows, bit-exact, ANSI off)")
	stdout, stderr, code = runCLI(t, dir, "rewrite", "Totals.scala:perBox", "--target", "sql", "--apply")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.Contains(t, stdout, "THEN raise_error('udfx: the original throws ArithmeticException (/ by zero)') ELSE CAST(pmod(")
	assert.Contains(t, stdout, "(10000 rows, bit-exact, ANSI off)")
	off := false
	rec, err := evidence.Read(filepath.Join(dir, "udfx-rewrites", "perBox", "evidence.json"))
	require.NoError(t, err)
	assert.Equal(t, &evidence.SparkTarget{Version: gate, From: "udfx.yaml:2: spark: version: " + gate, ANSI: &off, ANSIFrom: "udfx.yaml:3: spark: ansi: false"}, rec.Spark)
	assert.False(t, rec.Engine.ANSI)
	git(t, dir, "add", ".")
	git(t, dir, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "rewrite")

	stdout, stderr, code = runCLI(t, dir, "verify", "--full")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.Regexp(t, `perBox\s+sql\s+pass\s+\S+\s+hashes match the record; differential test re-run: \d+ of \d+ rows agree \(bit-exact, ANSI off, errors compared`, stdout)

	// Stating ANSI on, or nothing (the version's default, on), fails both.
	writeFile(t, filepath.Join(dir, "udfx.yaml"), "spark:\n  version: \""+gate+"\"\n  ansi: true\n")
	stdout, _, code = runCLI(t, dir, "verify", "--skip-rerun")
	assert.Equal(t, exitFailed, code, stdout)
	assert.Regexp(t, `perBox\s+sql\s+wrong-engine\s+\S+\s+the rewrite is proved with ANSI off, and the project states that its jobs run with ANSI on \(udfx\.yaml:3: spark: ansi: true\)`, stdout)
	writeFile(t, filepath.Join(dir, "udfx.yaml"), "spark:\n  version: \""+gate+"\"\n")
	stdout, _, code = runCLI(t, dir, "verify", "--skip-rerun")
	assert.Equal(t, exitFailed, code, stdout)
	assert.Contains(t, stdout, "the record claims ANSI off, which udfx.yaml does not grant to perBox")
	// A mode with no version is refused with the line.
	writeFile(t, filepath.Join(dir, "udfx.yaml"), "spark:\n  ansi: false\n")
	_, stderr, code = runCLI(t, dir, "verify", "--skip-rerun")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "udfx.yaml:2: spark: ansi needs version or databricks_runtime beside it")
}

// The Spark 4 versions besides the default are proved on real Spark of
// that version, with ANSI on as Spark 4 defaults: the Scala Int sum keeps
// the BIGINT fold there, and the gate re-runs the record on that version.
func TestRewriteProvesOnTheOtherSpark4Versions(t *testing.T) {
	totals, err := os.ReadFile(filepath.Join(repoRoot(t), "examples", "spark35-totals", "Totals.scala"))
	require.NoError(t, err)
	for _, se := range pyenv.SparkEnvs() {
		if se.Minor == pyenv.DefaultSpark() || !pyenv.DefaultANSI(se.Minor) {
			continue
		}
		t.Run(se.Minor, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, "Totals.scala"), string(totals))
			writeFile(t, filepath.Join(dir, "requirements.txt"), "pyspark=="+se.Version+"\n")
			git(t, dir, "init", "-q")
			git(t, dir, "add", ".")
			git(t, dir, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "totals")

			stdout, stderr, code := runCLI(t, dir, "rewrite", "Totals.scala:addQty", "--engine", "spark", "--sandbox", "off", "--target", "sql", "--apply")
			require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
			assert.Contains(t, stdout, "ELSE CAST(pmod((CAST(`shipped` AS BIGINT) + CAST(`returned` AS BIGINT)) + 2147483648L, 4294967296L) - 2147483648L AS INT) END (10000 rows, bit-exact, ANSI on)")
			assert.Contains(t, stdout, "engine         Apache Spark "+se.Version+" (")
			rec, err := evidence.Read(filepath.Join(dir, "udfx-rewrites", "addQty", "evidence.json"))
			require.NoError(t, err)
			assert.Equal(t, &evidence.SparkTarget{Version: se.Minor, From: "requirements.txt:1: pyspark==" + se.Version}, rec.Spark)
			assert.True(t, rec.Engine.ANSI)
			git(t, dir, "add", ".")
			git(t, dir, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "rewrite")

			stdout, stderr, code = runCLI(t, dir, "verify", "--sandbox", "off", "--full")
			require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
			assert.Regexp(t, `addQty\s+sql\s+pass\s+\S+\s+hashes match the record; differential test re-run: .*\(bit-exact, ANSI on, errors compared;.* on Apache Spark `+regexp.QuoteMeta(se.Version), stdout)
		})
	}
}

// The gate re-runs a record proved on the default Spark in its own
// interpreter, never in a .venv the pull request could have changed.
func TestVerifyOnSparkIgnoresTheRepositoryVenv(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join(repoRoot(t), "examples", "python-celsius", "celsius.py"))
	require.NoError(t, err)
	writeFile(t, filepath.Join(dir, "celsius.py"), string(src))
	git(t, dir, "init", "-q")
	git(t, dir, "add", ".")
	git(t, dir, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "jobs")
	stdout, stderr, code := runCLI(t, dir, "rewrite", "celsius.py", "--engine", "spark", "--sandbox", "off", "--apply")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	git(t, dir, "add", ".")
	git(t, dir, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "rewrite")

	// A .venv whose python fails: the gate must not start Spark with it.
	venv := filepath.Join(dir, ".venv", "bin", "python")
	writeFile(t, venv, "#!/bin/sh\necho 'not this python' >&2\nexit 1\n")
	require.NoError(t, os.Chmod(venv, 0o755))
	stdout, stderr, code = runCLI(t, dir, "verify", "--sandbox", "off", "--full")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.Regexp(t, `to_fahrenheit\s+sql\s+pass\s+\S+\s+hashes match the record; differential test re-run: .* on Apache Spark `+regexp.QuoteMeta(pyenv.SparkVersion()), stdout)
}

// A mode the project states that is not its version's default cannot be
// proved with Comet (udfx's Comet proofs run in the default mode): rewrite
// declines, saying so, and test and bench, which would time or compare
// the UDF in a mode the job does not run, refuse as a usage error with
// the same reason. Nothing starts.
func TestCometDeclinesAStatedNonDefaultMode(t *testing.T) {
	gate := sparkversion.Minor(pyenv.SparkVersion())
	dir := totalsStatingANSIOff(t, gate)
	why := "the project runs Spark " + gate + " with ANSI off (udfx.yaml:3: spark: ansi: false); udfx's Comet proofs run in " + gate + "'s default mode: use --engine spark or the embedded engine"

	stdout, stderr, code := runCLI(t, dir, "rewrite", "Totals.scala:addQty", "--target", "sql", "--engine", "comet")
	assert.Equal(t, exitFailed, code, "stdout: %s", stdout)
	assert.Contains(t, stdout+stderr, why)
	assert.NoDirExists(t, filepath.Join(dir, "udfx-rewrites"))

	for _, cmd := range [][]string{
		{"test", "Totals.scala:addQty", "--engine", "comet", "--sql", "shipped + returned"},
		{"bench", "Totals.scala:addQty", "--engine", "comet", "--sql", "shipped + returned"},
	} {
		_, stderr, code := runCLI(t, dir, cmd...)
		assert.Equal(t, exitUsage, code, "%s: %s", cmd[0], stderr)
		assert.Contains(t, stderr, why, cmd[0])
	}
}

// totalsStatingANSIOff is a git repository holding the example's
// Totals.scala and a udfx.yaml stating Spark gate with ANSI off.
func totalsStatingANSIOff(t *testing.T, gate string) string {
	t.Helper()
	dir := t.TempDir()
	totals, err := os.ReadFile(filepath.Join(repoRoot(t), "examples", "spark35-totals", "Totals.scala"))
	require.NoError(t, err)
	writeFile(t, filepath.Join(dir, "Totals.scala"), string(totals))
	writeFile(t, filepath.Join(dir, "udfx.yaml"), "spark:\n  version: \""+gate+"\"\n  ansi: false\n")
	git(t, dir, "init", "-q")
	return dir
}
