package engine

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// daysFromCivil converts a proleptic Gregorian date to days since
// 1970-01-01 (Spark's DATE, java.time's calendar).
func daysFromCivil(y, m, d int) int64 {
	return time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC).Unix() / 86400
}

// civil converts days since the epoch back to year, month, day.
func civil(days int64) (int, int, int) {
	t := time.Unix(days*86400, 0).UTC()
	return t.Year(), int(t.Month()), t.Day()
}

func daysInMonth(y, m int) int {
	return time.Date(y, time.Month(m)+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// parseDatePart reads Spark's date forms yyyy, yyyy-[m]m, yyyy-[m]m-[d]d,
// and yyyy-[m]m-[d]d followed by ' ' or 'T' and anything. It returns the
// days and the rest of the string after the separator.
func parseDatePart(s string) (days int64, rest string, hasRest, ok bool) {
	seg := [3]int{1, 1, 1}
	i, k := 0, 0
	for k < 3 {
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		n := i - start
		if k == 0 && (n < 4 || n > 7) || k > 0 && (n < 1 || n > 2) {
			return 0, "", false, false
		}
		v, _ := strconv.Atoi(s[start:i])
		seg[k] = v
		k++
		if i == len(s) {
			break
		}
		if k < 3 && s[i] == '-' {
			i++
			continue
		}
		if k == 3 && (s[i] == ' ' || s[i] == 'T') {
			rest, hasRest = s[i+1:], true
			break
		}
		return 0, "", false, false
	}
	if k < 3 && i != len(s) {
		return 0, "", false, false
	}
	y, m, d := seg[0], seg[1], seg[2]
	if m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m) {
		return 0, "", false, false
	}
	return daysFromCivil(y, m, d), rest, hasRest, true
}

// parseDate is CAST(string AS DATE) on an already trimmed string.
func parseDate(s string) (int64, bool) {
	d, _, _, ok := parseDatePart(s)
	return d, ok
}

// parseTimestamp is CAST(string AS TIMESTAMP) for the forms
// yyyy-[m]m-[d]d[( |T)hh:mm[:ss[.fraction]]][zone] with zone Z, UTC, GMT,
// ±hh[:mm] or a region ID; a zone-less value is in the session time zone.
// Other forms Spark accepts (time-only strings, zone names with offsets)
// are reported as unsupported rows.
func parseTimestamp(s string, loc *time.Location) (int64, bool, *RowError) {
	days, rest, hasRest, ok := parseDatePart(s)
	if !ok {
		if len(s) > 0 && (s[0] == 'T' || strings.Count(s, ":") > 0 && !strings.Contains(s, "-")) {
			return 0, false, errUnsupportedValue("a time-only timestamp string")
		}
		return 0, false, nil
	}
	y, m, d := civil(days)
	var hh, mm, ss, micros int
	zone := loc
	if hasRest && rest != "" {
		i := 0
		num := func(maxDigits int) (int, bool) {
			start := i
			for i < len(rest) && i-start < maxDigits && rest[i] >= '0' && rest[i] <= '9' {
				i++
			}
			if i == start {
				return 0, false
			}
			v, _ := strconv.Atoi(rest[start:i])
			return v, true
		}
		var ok bool
		if hh, ok = num(2); !ok {
			return 0, false, nil
		}
		if i >= len(rest) || rest[i] != ':' {
			return 0, false, nil
		}
		i++
		if mm, ok = num(2); !ok {
			return 0, false, nil
		}
		if i < len(rest) && rest[i] == ':' {
			i++
			if ss, ok = num(2); !ok {
				return 0, false, nil
			}
			if i < len(rest) && rest[i] == '.' {
				i++
				start := i
				for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
					i++
				}
				frac := rest[start:i]
				if len(frac) > 9 {
					return 0, false, nil
				}
				frac = (frac + "000000")[:6]
				micros, _ = strconv.Atoi(frac)
			}
		}
		if hh > 23 || mm > 59 || ss > 59 {
			return 0, false, nil
		}
		z := strings.TrimSpace(rest[i:])
		if z != "" {
			var zok bool
			zone, zok = parseZone(z)
			if !zok {
				return 0, false, errUnsupportedValue(fmt.Sprintf("the time zone %q in a timestamp string", z))
			}
		}
	} else if hasRest {
		return 0, false, nil
	}
	return localToInstant(y, m, d, hh, mm, ss, micros, zone), true, nil
}

// localToInstant resolves a wall-clock time in zone as java.time's
// ZonedDateTime.ofLocal does (Go leaves gaps and overlaps unspecified): in
// an overlap the earlier offset (the one before the transition) wins; in a
// gap the time moves forward by the gap's length, i.e. it is read with the
// offset before the transition. Checked in Spark 4.1.1: '2020-03-08
// 02:30:00 America/New_York' is 07:30 UTC.
func localToInstant(y, m, d, hh, mm, ss, micros int, zone *time.Location) int64 {
	wall := time.Date(y, time.Month(m), d, hh, mm, ss, 0, time.UTC).Unix()
	offAt := func(sec int64) int64 {
		_, off := time.Unix(sec, 0).In(zone).Zone()
		return int64(off)
	}
	before, after := offAt(wall-86400), offAt(wall+86400)
	sec := wall - before
	if before != after {
		validBefore := offAt(wall-before) == before
		validAfter := offAt(wall-after) == after
		if !validBefore && validAfter {
			sec = wall - after
		}
	} else if o := offAt(wall - before); o != before {
		// A transition that started and ended within the two days.
		sec = wall - o
	}
	return sec*1_000_000 + int64(micros)
}

func parseZone(z string) (*time.Location, bool) {
	switch strings.ToUpper(z) {
	case "Z", "UTC", "GMT", "UT":
		return time.UTC, true
	}
	if z[0] == '+' || z[0] == '-' {
		body := strings.ReplaceAll(z[1:], ":", "")
		if len(body) != 2 && len(body) != 4 {
			return nil, false
		}
		h, err1 := strconv.Atoi(body[:2])
		mi := 0
		var err2 error
		if len(body) == 4 {
			mi, err2 = strconv.Atoi(body[2:])
		}
		if err1 != nil || err2 != nil || h > 18 || mi > 59 {
			return nil, false
		}
		off := h*3600 + mi*60
		if z[0] == '-' {
			off = -off
		}
		return time.FixedZone(z, off), true
	}
	if strings.Contains(z, "/") {
		l, err := time.LoadLocation(z)
		return l, err == nil
	}
	return nil, false
}

func formatDate(days int64) (any, *RowError) {
	y, m, d := civil(days)
	if y < 1 || y > 9999 {
		return nil, errUnsupportedValue("a date outside years 1..9999")
	}
	return fmt.Sprintf("%04d-%02d-%02d", y, m, d), nil
}

// formatTimestamp is CAST(timestamp AS STRING): yyyy-MM-dd HH:mm:ss with
// the fraction's trailing zeros dropped, in the session time zone.
func formatTimestamp(us int64, loc *time.Location) (any, *RowError) {
	t := time.UnixMicro(us).In(loc)
	if t.Year() < 1 || t.Year() > 9999 {
		return nil, errUnsupportedValue("a timestamp outside years 1..9999")
	}
	s := t.Format("2006-01-02 15:04:05")
	if f := t.Nanosecond() / 1000; f != 0 {
		s += strings.TrimRight(fmt.Sprintf(".%06d", f), "0")
	}
	return s, nil
}
