package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
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
