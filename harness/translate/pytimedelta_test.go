package translate

import (
	"testing"
)

// TestPyDateShiftMatchesCPython proves d + timedelta(days=k),
// d - timedelta(k) and date(y, m, d) literals against CPython through PySpark: on the embedded engine
// with every error CPython raises (k past timedelta's 999999999 days, a
// result outside years 1 to 9999), and on real Spark where the
// original returns.
func TestPyDateShiftMatchesCPython(t *testing.T) {
	dates := []string{"0001-01-01", "0001-01-02", "1582-10-04", "1582-10-15", "1900-02-28", "1960-01-01", "1969-12-31", "1970-01-01",
		"2000-02-28", "2024-02-29", "2024-12-31", "9999-12-30", "9999-12-31"}
	ks := []int64{0, 1, -1, 7, -7, 365, 366, 10957, -719162, 2932896, 2932897, -719163, 3652058, -3652058, 999999999, -999999999,
		1000000000, -1000000000, 2147483647, -2147483648, 2147483648, 9223372036854775807, -9223372036854775808}
	var samples []map[string]any
	for i, d := range dates {
		for j, k := range ks {
			if (i+j)%3 == 0 || i == 0 || i == len(dates)-1 {
				samples = append(samples, map[string]any{"d": d, "k": k})
			}
		}
	}
	const head = "import datetime\nfrom datetime import timedelta\n\nfrom pyspark.sql.functions import udf\n\n\n@udf(\"date\")\n"
	const none = "    if d is None or k is None:\n        return None\n"
	raising := []string{
		head + "def shifted(d: datetime.date, k: int) -> datetime.date:\n" + none + "    return d + timedelta(days=k)\n",
		head + "def back(d: datetime.date, k: int) -> datetime.date:\n" + none + "    return d - datetime.timedelta(k)\n",
		head + "def ahead(d: datetime.date, k: int) -> datetime.date:\n" + none + "    return timedelta(days=k) + d\n",
		// SAS stores dates as days since 1960-01-01.
		head + "def sas_date(d: datetime.date, k: int) -> datetime.date:\n    if k is None:\n        return None\n    return datetime.date(1960, 1, 1) + timedelta(days=k)\n",
		"import datetime\nfrom datetime import date\n\nfrom pyspark.sql.functions import udf\n\n\n@udf(\"int\")\n" +
			"def epoch_day(d: datetime.date, k: int) -> int:\n    if d is None:\n        return None\n    return (d - date(1970, 1, 1)).days\n",
	}
	proveOn(t, raising, samples, false)
	// Spark runs only originals that return on every row.
	const guard = "    if d is None or k is None or k > 100000 or k < -100000 or d.year < 300 or d.year > 9700:\n        return None\n"
	proveOn(t, []string{
		head + "def shifted_safe(d: datetime.date, k: int) -> datetime.date:\n" + guard + "    return d + timedelta(days=k)\n",
		head + "def back_safe(d: datetime.date, k: int) -> datetime.date:\n" + guard + "    return d - datetime.timedelta(k)\n",
	}, samples, true)
}
