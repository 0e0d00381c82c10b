package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// greetUDF is a Hive simple UDF as Hive UDF libraries write it: Writables
// in and out.
const greetUDF = `package udfs;

import org.apache.hadoop.hive.ql.exec.UDF;
import org.apache.hadoop.io.Text;

public class Greet extends UDF {
  public Text evaluate(Text name) {
    if (name == null) {
      return null;
    }
    return new Text("Hello, " + name.toString().trim());
  }
}
`

// The third bar case: a plain udfx rewrite FILE:NAME verifies a
// Hive UDF over Text (it stopped at "the JVM runner passes only Java
// boxed numbers, Boolean and String"), and udfx verify passes it.
func TestRewriteAHiveUDFOverText(t *testing.T) {
	dir := repoWithFile(t, "src/udfs/Greet.java", greetUDF)
	rewrite, _, verify := rewriteApplyVerify(t, dir, "src/udfs/Greet.java:Greet", "Greet")
	assert.Contains(t, rewrite, "result         verified: CASE WHEN (`name` IS NULL) THEN CAST(NULL AS STRING) ELSE concat('Hello, ', ")
	assert.Contains(t, verify, "1 rewrite checked (1 records): 1 pass")
}

// On --engine spark the same rewrite is proved against what Spark itself
// does with the Hive UDF (created with CREATE TEMPORARY FUNCTION in a
// Hive-enabled session, run through HiveSimpleUDF), and udfx verify
// re-proves it there.
func TestRewriteAHiveUDFOnSpark(t *testing.T) {
	dir := repoWithFile(t, "src/udfs/Greet.java", greetUDF)
	stdout, stderr, code := runCLI(t, dir, "rewrite", "src/udfs/Greet.java:Greet", "--engine", "spark", "--apply")
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	assert.Contains(t, stdout, "result         verified: CASE WHEN (`name` IS NULL) THEN CAST(NULL AS STRING) ELSE concat('Hello, ', ")
	rep, err := os.ReadFile(filepath.Join(dir, ".udfx", "Greet", "report.md"))
	require.NoError(t, err)
	assert.Contains(t, string(rep), "HiveSimpleUDF", "the original's plan runs the Hive UDF as Spark wraps it")
	vout, verr, vcode := runCLI(t, dir, "verify")
	require.Equal(t, 0, vcode, "stdout:\n%s\nstderr:\n%s", vout, verr)
	assert.Contains(t, vout, "1 pass")
}
