package translate

import "testing"

// TestPyUnpackMatchesCPython proves `a, b = s.split(sep)` against
// CPython on the embedded engine, row by row with its errors: too many
// or too few fields raise ValueError before the rest runs, and the rest
// reads each field.
func TestPyUnpackMatchesCPython(t *testing.T) {
	var samples []map[string]any
	for _, s := range []string{"a@b.co", "@b", "a@", "@", "a@b@c", "", "ab", "日本@例え.jp", "😀@x", "a@@b", " @ "} {
		samples = append(samples, map[string]any{"s": s})
	}
	const head = "from pyspark.sql.functions import udf\n\n\n"
	proveOn(t, []string{
		head + "@udf(\"string\")\ndef masked(s: str) -> str:\n    if s is None:\n        return None\n    user, domain = s.split(\"@\")\n    return user[0] + \"***@\" + domain\n",
		head + "@udf(\"string\")\ndef swapped(s: str) -> str:\n    (a, b, c) = s.split(\"@\")\n    return c + a\n",
		head + "@udf(\"boolean\")\ndef checked(s: str) -> bool:\n    a, b = s.split(\"@\")\n    return None\n",
	}, samples, false)
}
