package translate

import (
	"fmt"
	"math"
	"math/rand"
	"testing"
)

// dateFormatMillis are epoch milliseconds where SimpleDateFormat's
// hybrid calendar and its fields change: the ends of a long (the floor
// of the day must not overflow at Long.MIN_VALUE), the Gregorian
// cutover, years 1 AD and 1 BC, years of more than four digits, the
// Julian leap day of 1500 that the Gregorian calendar lacks, both sides
// of midnight and noon, and seeded random values at three scales.
func dateFormatMillis() []int64 {
	const day = int64(86400000)
	ms := []int64{math.MinInt64, math.MinInt64 + 1, math.MinInt64 + 25975808, math.MaxInt64, math.MaxInt64 - 1, 0, -1, 1,
		day/2 - 1, day / 2, day - 1, day, -day, -day + 1,
		-12219292800000, -12219292800001, -12219292800000 - 10*day, // 1582-10-15, the day before it (10-04), ten days before
		-62135596800000, -62135596800001, -62135596800000 - 366*day, // 0001-01-01, the last ms of 1 BC, 2 BC
		253402300799999, 253402300800000, // the last ms of 9999 and the first of 10000
		-14831769600000 + 59*day, // 1500-02-29 in the Julian calendar
		951782400000, 1709164800000, 1700000000123}
	r := rand.New(rand.NewSource(20261205))
	for i := 0; i < 300; i++ {
		ms = append(ms, r.Int63()-r.Int63(), (r.Int63()-r.Int63())>>20, (r.Int63()-r.Int63())>>24)
	}
	return ms
}

// TestSimpleDateFormatMatchesTheJDK proves SimpleDateFormat.format of
// epoch milliseconds in UTC, Java and Scala, against the JDK on every
// sample, on the embedded engine and on real Spark.
func TestSimpleDateFormatMatchesTheJDK(t *testing.T) {
	var samples []map[string]any
	for _, ms := range dateFormatMillis() {
		samples = append(samples, map[string]any{"ms": ms})
	}
	// java is a UDF1<Long, String> formatting new Date(date) with the
	// formatter made by create and set up by setup.
	java := func(class, create, setup, date string) sourceFile {
		return sourceFile{class + ".java", fmt.Sprintf("import java.text.SimpleDateFormat;\nimport java.util.*;\n\nimport org.apache.spark.sql.api.java.UDF1;\n\n"+
			"public class %s implements UDF1<Long, String> {\n  @Override\n  public String call(Long ms) {\n    if (ms == null) {\n      return null;\n    }\n"+
			"    SimpleDateFormat fmt = %s;\n%s    return fmt.format(new Date(%s));\n  }\n}\n", class, create, setup, date)}
	}
	const utc = "    fmt.setTimeZone(TimeZone.getTimeZone(\"UTC\"));\n"
	proveFilesOn(t, []sourceFile{
		java("DayKey", `new SimpleDateFormat("yyyy-MM-dd")`, utc, "ms"),
		java("Stamp", `new SimpleDateFormat("yyyy-MM-dd HH:mm:ss.SSS")`, "    fmt.setLenient(false);\n"+utc, "ms"),
		java("Clock", `new SimpleDateFormat("yy/M/d h:mm a", Locale.US)`, "    fmt.setTimeZone(TimeZone.getTimeZone(\"GMT\"));\n", "ms"),
		java("Names", `new SimpleDateFormat("EEE, d MMM yyyy|EEEE MMMM")`, utc, "ms"),
		java("Quoted", `new SimpleDateFormat("'day:' y 'o''clock' H s S SS yyyyy '''at''' ''")`, utc, "ms"),
		// Java's long product wraps, and the date is of an expression.
		java("Seconds", `new SimpleDateFormat("yyyy-MM-dd HH:mm:ss")`, utc, "ms * 1000L"),
		{"Days.scala", "package acme\n\nimport java.text.SimpleDateFormat\nimport java.util.{Date, TimeZone}\n\nimport org.apache.spark.sql.functions.udf\n\nobject Days {\n" +
			"  val dayOf = udf((ms: Long) => {\n    val fmt = new SimpleDateFormat(\"yyyyMMdd'T'HHmm\")\n    fmt.setTimeZone(TimeZone.getTimeZone(\"UTC\"))\n    fmt.format(new Date(ms))\n  })\n}\n"},
	}, samples, true)
}

// TestDateTimeFormatterMatchesTheJDK proves java.time's formatting of
// Instant.ofEpochMilli in UTC, in the forms real code holds it (a
// constant, a local, inline, atZone, LocalDateTime.ofInstant, a Scala
// object's val), against the JDK on the same values.
func TestDateTimeFormatterMatchesTheJDK(t *testing.T) {
	var samples []map[string]any
	for _, ms := range dateFormatMillis() {
		samples = append(samples, map[string]any{"ms": ms})
	}
	java := func(class, fields, body string) sourceFile {
		return sourceFile{class + ".java", fmt.Sprintf("import java.time.*;\nimport java.time.format.DateTimeFormatter;\nimport java.util.Locale;\n\n"+
			"import org.apache.spark.sql.api.java.UDF1;\n\npublic class %s implements UDF1<Long, String> {\n%s"+
			"  @Override\n  public String call(Long ms) {\n    if (ms == null) {\n      return null;\n    }\n%s  }\n}\n", class, fields, body)}
	}
	proveFilesOn(t, []sourceFile{
		java("IsoDay", "  private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern(\"yyyy-MM-dd\").withZone(ZoneOffset.UTC);\n\n",
			"    return DAY.format(Instant.ofEpochMilli(ms));\n"),
		java("Proleptic", "", "    DateTimeFormatter f = DateTimeFormatter.ofPattern(\"uuuu-MM-dd HH:mm:ss.SSS|u\");\n"+
			"    return Instant.ofEpochMilli(ms).atZone(ZoneId.of(\"UTC\")).format(f);\n"),
		java("Widths", "", "    return LocalDateTime.ofInstant(Instant.ofEpochMilli(ms), ZoneOffset.UTC)\n"+
			"        .format(DateTimeFormatter.ofPattern(\"y|yy|yyy|yyyyy|E EEEE MMM MMMM a h|S SS SSSS d M\", Locale.US));\n"),
		java("Quotes", "", "    return DateTimeFormatter.ofPattern(\"'at' ''''HH'h' 'o''clock' ''\").withLocale(Locale.ENGLISH).withZone(ZoneOffset.UTC)\n"+
			"        .format(Instant.ofEpochMilli(ms));\n"),
		{"Stamps.scala", "package acme\n\nimport java.time.{Instant, ZoneOffset}\nimport java.time.format.DateTimeFormatter\n\nimport org.apache.spark.sql.functions.udf\n\nobject Stamps {\n" +
			"  private val Hour = DateTimeFormatter.ofPattern(\"yyyyMMdd-HH\").withZone(ZoneOffset.UTC)\n\n" +
			"  val hourOf = udf((ms: Long) => Hour.format(Instant.ofEpochMilli(ms)))\n}\n"},
	}, samples, true)
}
