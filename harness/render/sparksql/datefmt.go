package sparksql

import (
	"fmt"
	"strings"

	"github.com/udfx/udfx/harness/translate/ir"
	"github.com/udfx/udfx/harness/udf"
)

// jvmDateFormatSQL renders ir.JVMDateFormatUTC: SimpleDateFormat's
// fields of ms, milliseconds since the epoch, in UTC and en_US. simple
// says ms is a column or a literal, which the SQL may repeat.
//
// GregorianCalendar is a hybrid: the Julian calendar before 1582-10-15
// (day -141427 since the epoch), the Gregorian after, and it counts
// years of the era (1 BC is year 1, printed as 1). From the cutover to
// the end of year 9999 that is Spark's proleptic Gregorian DATE, and the
// rewrite reads the fields with Spark's date functions, which Spark
// compiles. Elsewhere (a long of milliseconds reaches year 292 million,
// Spark's DATE stops near 5.8 million) the civil date is integer
// arithmetic on BIGINT, each calendar from the start of its March-based
// cycle (146097 days of 400 Gregorian years, 1461 of 4 Julian years),
// each intermediate bound once by a lambda. The day is floor(ms /
// 86400000), written so that it cannot overflow at Long.MIN_VALUE.
//
// javaTime renders ir.JVMDateTimeFormatUTC instead: java.time's
// DateTimeFormatter, whose calendar is proleptic Gregorian throughout
// (Spark's own from year 1 to 9999) and whose letters print as
// dateFormatConcat says.
func jvmDateFormatSQL(ms string, simple, javaTime bool, pattern string) (string, error) {
	parse, what := ir.ParseSimpleDateFormat, "SimpleDateFormat"
	// The first and the last millisecond Spark's date functions read:
	// the cutover (1582-10-15) or 0001-01-01, and the end of 9999.
	first, end := "-12219292800000L", "253402300800000L"
	if javaTime {
		parse, what, first = ir.ParseDateTimeFormatter, "DateTimeFormatter", "-62135596800000L"
	}
	fields, err := parse(pattern)
	if err != nil {
		return "", sqlErr(what + ": " + err.Error())
	}
	bind := func(value, name, body string) string {
		return fmt.Sprintf("element_at(transform(array(%s), %s -> %s), 1)", value, name, body)
	}
	// calendar is the Gregorian form, or with SimpleDateFormat the
	// Julian one before the cutover.
	calendar := func(gregorian, julian string) string {
		if javaTime {
			return gregorian
		}
		return "CASE WHEN udfx_day >= -141427L THEN " + gregorian + " ELSE " + julian + " END"
	}
	arith, err := dateFormatConcat(fields, "udfx_ms", javaTime, dateFields{
		year:      "IF(udfx_year <= 0L, 1L - udfx_year, udfx_year)",
		proleptic: "udfx_year",
		month:     "IF(udfx_mp < 10L, udfx_mp + 3L, udfx_mp - 9L)",
		day:       "udfx_doy - (153L * udfx_mp + 2L) div 5L + 1L",
		weekday:   "CAST(pmod(udfx_day + 4L, 7L) + 1L AS INT)", // 1970-01-01 was a Thursday
	})
	if err != nil {
		return "", err
	}
	arith = bind("udfx_yoe + "+calendar("(udfx_day + 719468L - udfx_doe) div 146097L * 400L", "(udfx_day + 719470L - udfx_doe) div 1461L * 4L")+
		" + IF(udfx_mp >= 10L, 1L, 0L)", "udfx_year", arith)
	arith = bind("(5L * udfx_doy + 2L) div 153L", "udfx_mp", arith)
	arith = bind("udfx_doe - "+calendar("(365L * udfx_yoe + udfx_yoe div 4L - udfx_yoe div 100L)", "365L * udfx_yoe"), "udfx_doy", arith)
	arith = bind(calendar("(udfx_doe - udfx_doe div 1460L + udfx_doe div 36524L - udfx_doe div 146096L) div 365L",
		"(udfx_doe - udfx_doe div 1460L) div 365L"), "udfx_yoe", arith)
	arith = bind(calendar("pmod(udfx_day + 719468L, 146097L)", "pmod(udfx_day + 719470L, 1461L)"), "udfx_doe", arith)
	arith = bind("udfx_ms div 86400000L - IF(udfx_ms % 86400000L < 0L, 1L, 0L)", "udfx_day", arith)

	// From 1582-10-15 (java.time: 0001-01-01) to 9999-12-31: Spark's own
	// date functions.
	x := ms
	if !simple {
		x = "udfx_ms"
	}
	date := "date_add(DATE '1970-01-01', CAST(" + x + " div 86400000L - IF(" + x + " % 86400000L < 0L, 1L, 0L) AS INT))"
	fast, err := dateFormatConcat(fields, x, javaTime, dateFields{
		year: "year(" + date + ")", yearMax: 9999, proleptic: "year(" + date + ")", month: "month(" + date + ")", day: "day(" + date + ")", weekday: "dayofweek(" + date + ")",
	})
	if err != nil {
		return "", err
	}
	if simple {
		return fmt.Sprintf("CASE WHEN %[1]s >= %[4]s AND %[1]s < %[5]s THEN %[2]s ELSE %[3]s END",
			ms, fast, bind(ms, "udfx_ms", arith), first, end), nil
	}
	return bind(ms, "udfx_ms", fmt.Sprintf("CASE WHEN udfx_ms >= %s AND udfx_ms < %s THEN %s ELSE %s END", first, end, fast, arith)), nil
}

// dateFields are the SQL of a date's year of the era (a BIGINT no
// greater than yearMax, or unbounded where it is 0), its proleptic year
// (0 is 1 BC), month, day of the month and weekday (an INT, 1 for
// Sunday).
type dateFields struct {
	year      string
	yearMax   int64
	proleptic string
	month     string
	day       string
	weekday   string
}

// dateFormatConcat is the concat of a SimpleDateFormat pattern's fields
// of a date, the time of day coming from ms. With javaTime the fields
// are a DateTimeFormatter's: S is a fraction of the second (SSS the
// milliseconds, S their first digit), a year of four letters or more
// that passes their width prints a +, and u is the proleptic year.
func dateFormatConcat(fields []ir.DateField, ms string, javaTime bool, d dateFields) (string, error) {
	sod := "pmod(" + ms + ", 86400000L)"
	hour := "(" + sod + " div 3600000L)"
	numbers := map[byte]struct {
		sql string
		max int64
	}{
		'M': {d.month, 12},
		'd': {d.day, 31},
		'H': {hour, 23},
		'h': {"IF(" + hour + " % 12L = 0L, 12L, " + hour + " % 12L)", 12},
		'm': {"(" + sod + " div 60000L % 60L)", 59},
		's': {"(" + sod + " div 1000L % 60L)", 59},
		'S': {"(" + sod + " % 1000L)", 999},
	}
	names := func(list []string, index string) string {
		return "element_at(array('" + strings.Join(list, "', '") + "'), " + index + ")"
	}
	var parts []string
	for _, f := range fields {
		var part string
		switch {
		case f.Letter == 0:
			s, err := Render(&ir.Lit{T: udf.Prim(udf.String), Value: f.Text})
			if err != nil {
				return "", err
			}
			part = s
		case f.Letter == 'M' && f.Count == 3:
			part = names(abbreviation(cMonths), "CAST("+d.month+" AS INT)")
		case f.Letter == 'M' && f.Count > 3:
			part = names(cMonths, "CAST("+d.month+" AS INT)")
		case f.Letter == 'E' && f.Count <= 3:
			part = names(abbreviation(cWeekdays), d.weekday)
		case f.Letter == 'E':
			part = names(cWeekdays, d.weekday)
		case f.Letter == 'a':
			part = "IF(" + hour + " < 12L, 'AM', 'PM')"
		case javaTime && f.Letter == 'S':
			millis := "lpad(CAST(" + sod + " % 1000L AS STRING), 3, '0')"
			if f.Count <= 3 {
				part = fmt.Sprintf("substring(%s, 1, %d)", millis, f.Count)
			} else {
				part = "concat(" + millis + ", '" + strings.Repeat("0", f.Count-3) + "')"
			}
		case javaTime && f.Letter == 'y' && f.Count >= 4:
			part = exceedsPad(d.year, f.Count, d.yearMax)
		case f.Letter == 'u' && f.Count == 4:
			y := d.proleptic
			part = "CASE WHEN " + y + " < 0L THEN concat('-', " + padded("(-"+y+")", 4, 0) + ") ELSE " + exceedsPad(y, 4, d.yearMax) + " END"
		case f.Letter == 'u':
			part = "CAST(" + d.proleptic + " AS STRING)"
		case f.Letter == 'y' && f.Count == 2:
			// The JDK keeps a two-letter year's last two digits.
			part = padded("("+d.year+" % 100L)", 2, 99)
		case f.Letter == 'y':
			part = padded(d.year, f.Count, d.yearMax)
		default:
			v, ok := numbers[f.Letter]
			if !ok {
				return "", sqlErr("the SimpleDateFormat letter " + string(f.Letter))
			}
			part = padded(v.sql, f.Count, v.max)
		}
		parts = append(parts, part)
	}
	if len(parts) == 0 {
		return "''", nil
	}
	return "concat(" + strings.Join(parts, ", ") + ")", nil
}

// padded is x (a BIGINT no greater than max, or unbounded where max is
// 0) as the JDK's zeroPaddingNumber prints it: at least count digits,
// zero-padded, never cut.
func padded(x string, count int, max int64) string {
	s := "CAST(" + x + " AS STRING)"
	if count <= 1 {
		return s
	}
	limit := pow10(count)
	pad := fmt.Sprintf("lpad(%s, %d, '0')", s, count)
	if max != 0 && max < limit {
		return pad
	}
	return fmt.Sprintf("CASE WHEN %s < %dL THEN %s ELSE %s END", x, limit, pad, s)
}

// exceedsPad is a non-negative x as java.time's SignStyle.EXCEEDS_PAD
// prints it in count digits: zero-padded, with a + before a value wider
// than count.
func exceedsPad(x string, count int, max int64) string {
	limit := pow10(count)
	pad := fmt.Sprintf("lpad(CAST(%s AS STRING), %d, '0')", x, count)
	if max != 0 && max < limit {
		return pad
	}
	return fmt.Sprintf("CASE WHEN %s < %dL THEN %s ELSE concat('+', CAST(%s AS STRING)) END", x, limit, pad, x)
}

// pow10 is 10 to the count, the first number a count-digit field cannot
// hold (count is at most 9).
func pow10(count int) int64 {
	limit := int64(1)
	for i := 0; i < count; i++ {
		limit *= 10
	}
	return limit
}
