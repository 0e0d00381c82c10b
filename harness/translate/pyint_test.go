package translate

import (
	"math"
	"testing"
)

// TestPyIntOfFloatInIntUDFMatchesCPython proves int(x), round(x),
// math.floor(x) and math.ceil(x) of a float returned by an int UDF
// against CPython through PySpark, on the embedded engine and on real
// Spark: the Python int where it fits in BIGINT, NULL beyond, and of
// that the low 32 bits, as PySpark stores it.
func TestPyIntOfFloatInIntUDFMatchesCPython(t *testing.T) {
	xs := []float64{0, math.Copysign(0, -1), 0.5, 1.5, 2.5, -0.5, -1.5, 0.49999999999999994, 2147483647, 2147483647.5, 2147483648,
		-2147483648, -2147483648.5, -2147483649, 4294967295.5, 4294967296, 6442450943.7, -6442450943.7, 1e18, 9.223372036854775e18,
		9.223372036854776e18, -9.223372036854776e18, -9.223372036854778e18, 1e300, -1e300, 4503599627370495.5, 123456789.999}
	var samples []map[string]any
	for _, x := range xs {
		samples = append(samples, map[string]any{"x": x})
	}
	const head = "import math\n\nfrom pyspark.sql.functions import udf\n\n\n@udf(\"int\")\n"
	var srcs []string
	for name, f := range map[string]string{"to_int": "int", "rounded": "round", "floored": "math.floor", "ceiled": "math.ceil"} {
		srcs = append(srcs, head+"def "+name+"(x: float) -> int:\n    if x is None or x != x or x > 1.7976931348623157e308 or x < -1.7976931348623157e308:\n        return None\n    return "+f+"(x)\n")
	}
	proveOnSamples(t, srcs, samples)
}
