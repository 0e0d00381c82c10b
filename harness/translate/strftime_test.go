package translate

import (
	"fmt"
	"math"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/pyenv"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/udf/frontends"
)

// strftimeDates are every day of 1999 to 2001 (each weekday and day of
// the year, a leap year after a non-leap one), the first and last day
// of years where glibc's unpadded %Y and %y change width (1, 9, 10, 99,
// 100, 999, 1000, 9999), around the Gregorian reform and 1900's missing
// leap day, and seeded random days of years 1 to 9999.
func strftimeDates() []string {
	var ds []string
	for d := time.Date(1999, 1, 1, 0, 0, 0, 0, time.UTC); d.Year() < 2002; d = d.AddDate(0, 0, 1) {
		ds = append(ds, d.Format("2006-01-02"))
	}
	for _, y := range []int{1, 2, 9, 10, 99, 100, 999, 1000, 1582, 1900, 1969, 1970, 9998, 9999} {
		ds = append(ds, fmt.Sprintf("%04d-01-01", y), fmt.Sprintf("%04d-12-31", y))
	}
	ds = append(ds, "1582-10-04", "1582-10-15", "1900-02-28", "1900-03-01", "2024-02-29")
	r := rand.New(rand.NewSource(20261204))
	for i := 0; i < 600; i++ {
		d := time.Date(1+r.Intn(9999), time.Month(1+r.Intn(12)), 1+r.Intn(28), 0, 0, 0, 0, time.UTC)
		ds = append(ds, d.Format("2006-01-02"))
	}
	return ds
}

// TestDateStrftimeMatchesCPython proves d.strftime(F) of a DATE, and the
// new directives of utcfromtimestamp(s).strftime(F), against CPython on
// the samples, on the embedded engine and on real Spark.
func TestDateStrftimeMatchesCPython(t *testing.T) {
	var samples []map[string]any
	secs := []int64{0, -1, 43199, 43200, 86399, -62135596800, 253402300799, 951782400, 1700000000}
	r := rand.New(rand.NewSource(4))
	for i, d := range strftimeDates() {
		s := secs[i%len(secs)]
		if i >= len(secs) {
			s = r.Int63n(253402300799+62135596800) - 62135596800
		}
		samples = append(samples, map[string]any{"d": d, "s": s})
	}
	const head = "import datetime\n\nfrom pyspark.sql.functions import udf\n\n\n"
	var srcs []string
	for i, f := range []string{"%Y-%m-%d %H:%M:%S", "%A", "%a, %d %b %Y %p", "%B|%j|%w|%u|%y|%%A"} {
		srcs = append(srcs, fmt.Sprintf(head+"@udf(\"string\")\ndef d%d(d: datetime.date) -> str:\n    if d is None:\n        return \"-\"\n    return d.strftime(%q)\n", i, f))
	}
	srcs = append(srcs,
		head+"@udf(\"string\")\ndef weekday_name(d: datetime.date) -> str:\n    if d is None:\n        return None\n    return d.strftime(\"%A\").lower()\n",
		head+"@udf(\"string\")\ndef stamp(s: int) -> str:\n    if s is None or s < -62135596800 or s > 253402300799:\n        return None\n    return datetime.datetime.utcfromtimestamp(s).strftime(\"%a %b %d %I %p|%j|%w|%u|%A %B\")\n")
	proveOnSamples(t, srcs, samples)
}

// TestStrftimeNamesIgnoreTheEnvironment shows the fact the name
// directives rest on, with a German locale compiled for the test:
// CPython prints the C locale's names whatever LC_ALL says, through
// PySpark's and the driver's imports, until locale.setlocale is called.
func TestStrftimeNamesIgnoreTheEnvironment(t *testing.T) {
	localedef, err := exec.LookPath("localedef")
	require.NoError(t, err, "localedef (glibc's libc-bin) compiles the test's German locale")
	loc := t.TempDir()
	out, err := exec.Command(localedef, "-i", "de_DE", "-f", "UTF-8", filepath.Join(loc, "de_DE.UTF-8")).CombinedOutput()
	require.NoError(t, err, "localedef -i de_DE (glibc's locale sources, apt-get install locales): %s", out)
	py, ok := pyenv.Find(nil, ".")
	require.True(t, ok, "no Python environment (udfx setup)")
	cmd := exec.Command(py.Python, "-c", `import datetime, locale
import pandas, pyarrow, pyspark.sql.functions
d = datetime.datetime(2024, 1, 1, 13)
print(d.strftime("%A %a %B %b %p"))
locale.setlocale(locale.LC_ALL, "")
print(d.strftime("%A %a %B %b"))`)
	cmd.Env = append(os.Environ(), "LOCPATH="+loc, "LC_ALL=de_DE.UTF-8", "LANG=de_DE.UTF-8")
	got, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", got)
	assert.Equal(t, "Monday Mon January Jan PM\nMontag Mo Januar Jan\n", string(got))
}

// TestStrftimeNamesDeclinedWhereTheLocaleMayBeSet: a name directive is
// translated only where nothing the job can run may have called
// locale.setlocale; the numbers are translated either way.
func TestStrftimeNamesDeclinedWhereTheLocaleMayBeSet(t *testing.T) {
	const udfSrc = "\n@udf(\"string\")\ndef f(d: datetime.date) -> str:\n    if d is None:\n        return None\n    return d.strftime(%q)\n"
	rows := []struct {
		name, imports, sibling, format, construct, reason string
	}{
		{"stdlib and pyspark only", "import datetime\nimport re\nfrom pyspark.sql.functions import udf\n", "", "%A", "", ""},
		{"the file imports locale", "import datetime\nimport locale\nfrom pyspark.sql.functions import udf\n", "", "%A",
			"strftime %A in a file that imports locale", "udfx does not know that locale leaves the names"},
		{"a package module", "import datetime\nfrom pyspark.sql.functions import udf\nfrom .helpers import clean\n", "", "%b",
			"strftime %b in a file that imports .helpers", "udfx does not know that .helpers leaves the names"},
		{"a library imported in a function", "import datetime\nfrom pyspark.sql.functions import udf\n\ndef g():\n    import babel\n", "", "%p",
			"strftime %p in a file that imports babel", "udfx does not know that babel"},
		{"another file of the repository calls setlocale", "import datetime\nfrom pyspark.sql.functions import udf\n",
			"import locale\nlocale.setlocale(locale.LC_ALL, '')\n", "%B", "strftime %B", "jobs/setup.py names setlocale"},
		{"a name the text does not spell", "import datetime\nimport calendar\nfrom pyspark.sql.functions import udf\n\n" +
			"getattr(calendar, '_loc' + 'ale').__dict__['set' + 'locale'](6, '')\n", "", "%A",
			"strftime %A in a file that calls getattr", "udfx cannot tell what getattr reaches"},
		{"numbers need no locale", "import datetime\nimport locale\nfrom pyspark.sql.functions import udf\n",
			"import locale\nlocale.setlocale(locale.LC_ALL, '')\n", "%Y%m%d", "", ""},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			root := t.TempDir()
			path := filepath.Join(root, "jobs", "dates.py")
			require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
			src := r.imports + fmt.Sprintf(udfSrc, r.format)
			require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
			if r.sibling != "" {
				require.NoError(t, os.WriteFile(filepath.Join(root, "jobs", "setup.py"), []byte(r.sibling), 0o644))
			}
			fe := frontends.New(udf.Python)
			us, err := fe.Parse(path, []byte(src))
			fe.Close()
			require.NoError(t, err)
			require.Len(t, us, 1)
			us[0].Root = root
			res, err := Translate(&us[0], []byte(src))
			require.NoError(t, err)
			if r.construct == "" {
				require.Empty(t, res.Declines)
				assert.Contains(t, res.SQL, "concat(")
				return
			}
			require.NotEmpty(t, res.Declines, "SQL %s", res.SQL)
			assert.Equal(t, r.construct, res.Declines[0].Construct)
			assert.True(t, strings.Contains(res.Declines[0].Reason, r.reason), "%s", res.Declines[0].Reason)
			assert.Empty(t, res.SQL)
		})
	}
}

// TestFromTimestampUTCMatchesCPython proves datetime.fromtimestamp(x,
// tz=timezone.utc).strftime(F), the replacement Python 3.12 recommends
// for utcfromtimestamp, against CPython: on real Spark over years 1 to
// 9999, and on the embedded engine with the times CPython refuses too.
func TestFromTimestampUTCMatchesCPython(t *testing.T) {
	// guard leaves out, where the original runs on real Spark, the times
	// CPython refuses: Spark stops a job at its first exception.
	srcs := func(guard string) []string {
		return []string{
			"from datetime import datetime, timezone\n\nfrom pyspark.sql.functions import udf\n\n\n@udf(\"string\")\ndef stamp(ms: int) -> str:\n" +
				"    if ms is None" + guard + ":\n        return None\n    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc).strftime(\"%Y-%m-%d %H:%M:%S\")\n",
			"import datetime\n\nfrom pyspark.sql.functions import udf\n\n\n@udf(\"string\")\ndef day(ms: int) -> str:\n" +
				"    if ms is None" + guard + ":\n        return None\n    return datetime.datetime.fromtimestamp(ms // 1000, datetime.timezone.utc).strftime(\"%Y%m%d %a\")\n",
		}
	}
	var samples []map[string]any
	r := rand.New(rand.NewSource(12))
	for _, ms := range []int64{0, -1, 1, 999, -999, -62135596800000, 253402300799999, 951782400000, 1709164800123,
		-62135596800001, 253402300800000, 1 << 50, -(1 << 50), 1 << 62, math.MinInt64, math.MaxInt64} {
		samples = append(samples, map[string]any{"ms": ms})
	}
	for i := 0; i < 300; i++ {
		samples = append(samples, map[string]any{"ms": r.Int63n(253402300799999+62135596800000) - 62135596800000})
	}
	proveOn(t, srcs(" or ms < -62135596800000 or ms > 253402300799999"), samples, true)
	proveOn(t, srcs(""), samples, false)
}
