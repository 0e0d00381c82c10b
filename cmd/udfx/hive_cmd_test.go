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
	dir := tempRepo(t)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "src", "udfs"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "src", "udfs", "Greet.java"), []byte(greetUDF), 0o644))
	git(t, dir, "add", ".")
	git(t, dir, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "udf")

	stdout, stderr, code := runCLI(t, dir, "rewrite", "src/udfs/Greet.java:Greet", "--apply")
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	assert.Contains(t, stdout, "result         verified: CASE WHEN (`name` IS NULL) THEN CAST(NULL AS STRING) ELSE concat('Hello, ', ")

	stdout, stderr, code = runCLI(t, dir, "verify")
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	assert.Contains(t, stdout, "1 rewrite checked (1 records): 1 pass")
}
