package translate

import (
	"fmt"
	"math"
	"testing"
)

// TestPyFormatFixedMatchesCPython proves the f-string field {x:.kf}
// against the real CPython that runs the originals, on the embedded
// engine and on real Spark: on round(x, k)'s samples (decimal ties the
// binary value misses, exact binary ties, fractions near 2^52), on
// doubles beyond 2^63 whose every integer digit CPython prints (1e23,
// the largest double, powers of two and their neighbours, where log2
// may round across the power), and on ints, which CPython formats as
// the float nearest them.
func TestPyFormatFixedMatchesCPython(t *testing.T) {
	xs := roundDigitsSamples()
	xs = append(xs, math.Copysign(0, -1), 1e23, -1e23, 9.999999999999999e22, 4503599627370496, 4503599627370495.5,
		9007199254740993, 9223372036854775807, -9223372036854775808, 9.2233720368547748e18, 1.8446744073709552e19, 1e300, -1e308)
	for _, e := range []int{63, 64, 65, 100, 500, 971, 1000, 1022, 1023} {
		p := math.Ldexp(1, e)
		xs = append(xs, p, math.Nextafter(p, 0), math.Nextafter(p, math.Inf(1)), -p*1.5)
	}
	var samples []map[string]any
	for _, x := range xs {
		samples = append(samples, map[string]any{"x": x})
	}
	var srcs []string
	for _, k := range []int{0, 1, 2, 3, 10} {
		srcs = append(srcs, fmt.Sprintf("from pyspark.sql.functions import udf\n\n\n@udf(\"string\")\ndef f%d(x: float) -> str:\n    if x is None:\n        return \"n/a\"\n    return f\"${x:.%df} total\"\n", k, k))
	}
	// format(), str.format and %-formatting format a field as an
	// f-string does.
	srcs = append(srcs,
		"from pyspark.sql.functions import udf\n\n\n@udf(\"string\")\ndef via_format(x: float) -> str:\n    if x is None:\n        return None\n    return format(x, \".1f\")\n",
		"from pyspark.sql.functions import udf\n\n\n@udf(\"string\")\ndef via_str_format(x: float) -> str:\n    if x is None:\n        return \"{} {{none}}\".format(None)\n    return \"{:.2f} / {}\".format(x, \"EUR\")\n",
		"from pyspark.sql.functions import udf\n\n\n@udf(\"string\")\ndef via_percent(x: float) -> str:\n    if x is None:\n        return \"%s\" % (None,)\n    return \"%.3f%%\" % x\n")
	proveOnSamples(t, srcs, samples)

	var ints []map[string]any
	for _, n := range []int64{0, -1, 7, 9007199254740993, -9007199254740993, math.MaxInt64, math.MinInt64, 1 << 62, 123456789012345678} {
		ints = append(ints, map[string]any{"n": n})
	}
	proveOnSamples(t, []string{
		"from pyspark.sql.functions import udf\n\n\n@udf(\"string\")\ndef g(n: int) -> str:\n    if n is None:\n        return None\n    return f\"{n:.2f}\"\n",
		"from pyspark.sql.functions import udf\n\n\n@udf(\"string\")\ndef h(n: int) -> str:\n    if n is None:\n        return None\n    return \"#%d: %.1f (%s)\" % (n, n, n > 0)\n",
	}, ints)
}
