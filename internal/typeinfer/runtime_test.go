package typeinfer

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPythonFactsAgainstCPython checks, in the real CPython with the
// project's pyspark, the facts the resolution relies on: PySpark's
// default return type, and that the str methods bodyForces counts fail on
// every other value Spark hands a plain UDF (bytes, bytearray, list,
// tuple/Row, dict, int, float, Decimal, date, datetime, bool), and that
// decimal.Decimal does not mix with a float literal.
func TestPythonFactsAgainstCPython(t *testing.T) {
	py := filepath.Join("..", "..", ".venv", "bin", "python")
	_, err := os.Stat(py)
	require.NoError(t, err, "the project's .venv (see README: Install)")
	script := `
import datetime, decimal
from pyspark.sql import Row
from pyspark.sql.functions import udf
from pyspark.sql.types import StringType
assert udf(lambda x: x).returnType == StringType(), udf(lambda x: x).returnType
others = [b"a,b", bytearray(b"a,b"), ["a,b"], Row(a="a,b"), {"a": 1}, 1, 1.5, decimal.Decimal("1.5"),
          datetime.date(2020, 1, 2), datetime.datetime(2020, 1, 2, 3, 4), True]
calls = {m: (lambda v, m=m: getattr(v, m)(*((",", ";") if m == "replace" else (",",)))) for m in %s}
calls.update({m: (lambda v, m=m: getattr(v, m)()) for m in %s if m not in ("format_map",)})
calls["format_map"] = lambda v: v.format_map({})
for m, call in calls.items():
    call("a,b")  # fine on a str
    for v in others:
        try:
            call(v)
        except (TypeError, AttributeError):
            continue
        raise SystemExit("%%s on %%r did not raise" %% (m, v))
try:
    decimal.Decimal("1") * 9.0
    raise SystemExit("Decimal * float did not raise")
except TypeError:
    pass
print("ok")
`
	list := func(xs []string) string { return "[\"" + strings.Join(xs, "\", \"") + "\"]" }
	script = strings.Replace(script, "%s", list(strOrBytes), 1)
	script = strings.Replace(script, "%s", list(strOnly), 1)
	script = strings.ReplaceAll(script, "%%", "%")
	out, err := exec.Command(py, "-c", script).CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.Equal(t, "ok\n", string(out))
}
