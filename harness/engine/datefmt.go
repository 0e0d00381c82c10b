package engine

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Datetime patterns for to_date(s, fmt) and date_format(x, fmt), checked
// against real Spark 4.1.1 (pyspark 4.1.1, session time zone UTC). Only a
// subset of java.time's letters is modelled; any other letter is an
// *UnsupportedFunctionError naming it.

type dtField struct {
	letter rune // 0 for a literal
	count  int
	lit    string
}

// splitDatePattern tokenizes a DateTimeFormatter pattern: runs of one
// letter, 'quoted' literals (two single quotes make one) and other characters.
func splitDatePattern(p string) ([]dtField, error) {
	var out []dtField
	r := []rune(p)
	for i := 0; i < len(r); {
		c := r[i]
		switch {
		case c == '\'':
			j := i + 1
			var lit strings.Builder
			for ; j < len(r); j++ {
				if r[j] == '\'' {
					if j+1 < len(r) && r[j+1] == '\'' {
						lit.WriteRune('\'')
						j++
						continue
					}
					break
				}
				lit.WriteRune(r[j])
			}
			if j >= len(r) {
				return nil, &UnsupportedFunctionError{Name: "datetime pattern with an unterminated quote"}
			}
			if j == i+1 {
				lit.WriteRune('\'')
			}
			out = append(out, dtField{lit: lit.String()})
			i = j + 1
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
			j := i
			for j < len(r) && r[j] == c {
				j++
			}
			out = append(out, dtField{letter: c, count: j - i})
			i = j
		case strings.ContainsRune("[]{}#", c):
			return nil, &UnsupportedFunctionError{Name: fmt.Sprintf("datetime pattern character %q", c)}
		default:
			out = append(out, dtField{lit: string(c)})
			i++
		}
	}
	return out, nil
}

var (
	monthNames = []string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
	dayNames   = []string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}
	quarterTxt = []string{"1st quarter", "2nd quarter", "3rd quarter", "4th quarter"}
)

const classUpgrade = "org.apache.spark.SparkUpgradeException"

// dateFormatter compiles a date_format pattern. upgradeErr is set for the
// week-based letters u and w, on which Spark 4.1.1 fails every row (NULL
// rows too) with INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION.
func dateFormatter(p string) (f func(t time.Time) (string, *RowError), upgradeErr bool, err error) {
	fields, err := splitDatePattern(p)
	if err != nil {
		return nil, false, err
	}
	for _, fd := range fields {
		if fd.letter == 'u' || fd.letter == 'w' {
			return nil, true, nil
		}
		ok := false
		switch fd.letter {
		case 0:
			ok = true
		case 'G', 'E':
			ok = fd.count <= 4
		case 'y':
			ok = fd.count <= 4
		case 'M', 'Q':
			ok = fd.count <= 4
		case 'd', 'H', 'h', 'K', 'k', 'm', 's':
			ok = fd.count <= 2
		case 'D':
			ok = fd.count <= 3
		case 'a':
			ok = fd.count == 1
		case 'S':
			ok = fd.count <= 9
		}
		if !ok {
			return nil, false, &UnsupportedFunctionError{Name: "datetime pattern letters " + strings.Repeat(string(fd.letter), fd.count)}
		}
	}
	pad := func(b *strings.Builder, v, n int) {
		s := strconv.Itoa(v)
		for i := len(s); i < n; i++ {
			b.WriteByte('0')
		}
		b.WriteString(s)
	}
	return func(t time.Time) (string, *RowError) {
		y := t.Year()
		if y < 1 || y > 9999 {
			return "", errUnsupportedValue("date_format() of a year outside 1..9999")
		}
		var b strings.Builder
		for _, fd := range fields {
			n := fd.count
			switch fd.letter {
			case 0:
				b.WriteString(fd.lit)
			case 'G':
				if n == 4 {
					b.WriteString("Anno Domini")
				} else {
					b.WriteString("AD")
				}
			case 'y':
				// 'y' becomes java.time's 'u' (proleptic year); yy is the
				// last two digits.
				if n == 2 {
					pad(&b, y%100, 2)
				} else {
					pad(&b, y, n)
				}
			case 'M':
				switch n {
				case 3:
					b.WriteString(monthNames[t.Month()-1][:3])
				case 4:
					b.WriteString(monthNames[t.Month()-1])
				default:
					pad(&b, int(t.Month()), n)
				}
			case 'Q':
				q := (int(t.Month())-1)/3 + 1
				switch n {
				case 3:
					b.WriteString("Q" + strconv.Itoa(q))
				case 4:
					b.WriteString(quarterTxt[q-1])
				default:
					pad(&b, q, n)
				}
			case 'd':
				pad(&b, t.Day(), n)
			case 'D':
				pad(&b, t.YearDay(), n)
			case 'E':
				name := dayNames[(int(t.Weekday())+6)%7]
				if n < 4 {
					name = name[:3]
				}
				b.WriteString(name)
			case 'a':
				if t.Hour() < 12 {
					b.WriteString("AM")
				} else {
					b.WriteString("PM")
				}
			case 'H':
				pad(&b, t.Hour(), n)
			case 'k':
				pad(&b, (t.Hour()+23)%24+1, n)
			case 'K':
				pad(&b, t.Hour()%12, n)
			case 'h':
				pad(&b, (t.Hour()+11)%12+1, n)
			case 'm':
				pad(&b, t.Minute(), n)
			case 's':
				pad(&b, t.Second(), n)
			case 'S':
				frac := fmt.Sprintf("%09d", t.Nanosecond())
				b.WriteString(frac[:n])
			}
		}
		return b.String(), nil
	}, false, nil
}

// dateParser compiles a to_date pattern of the numeric fields yyyy, yy,
// MM, M, dd, d, HH, H, mm, ss and literals. java.time parses strictly:
// yyyy is exactly 4 ASCII digits (checked: '12345-01-01' and '999-02-03'
// fail), MM/dd/HH/mm/ss exactly 2, M/d/H 1 or more; the whole string must
// be consumed (no trimming); missing fields default to 1970-01-01; field
// ranges and the date are validated (2021-02-29 fails).
func dateParser(p string) (func(s string) (int64, bool), error) {
	fields, err := splitDatePattern(p)
	if err != nil {
		return nil, err
	}
	if len(fields) == 0 {
		return nil, &UnsupportedFunctionError{Name: "to_date with an empty pattern"}
	}
	type spec struct {
		min, max int
		field    rune
		lit      string
	}
	var specs []spec
	for i, fd := range fields {
		if fd.letter == 0 {
			specs = append(specs, spec{lit: fd.lit})
			continue
		}
		var sp spec
		switch {
		case fd.letter == 'y' && fd.count == 4:
			sp = spec{4, 4, 'y', ""}
		case fd.letter == 'y' && fd.count == 2:
			sp = spec{2, 2, 'Y', ""} // two-digit year, base 2000
		case strings.ContainsRune("MdHms", fd.letter) && fd.count == 2:
			sp = spec{2, 2, fd.letter, ""}
		case strings.ContainsRune("MdH", fd.letter) && fd.count == 1:
			sp = spec{1, 19, fd.letter, ""}
			if i+1 < len(fields) && fields[i+1].letter != 0 {
				return nil, &UnsupportedFunctionError{Name: "to_date pattern with a variable-width field next to another field"}
			}
		default:
			return nil, &UnsupportedFunctionError{Name: "to_date pattern letters " + strings.Repeat(string(fd.letter), fd.count)}
		}
		specs = append(specs, sp)
	}
	return func(s string) (int64, bool) {
		vals := map[rune]int{'y': 1970, 'M': 1, 'd': 1}
		pos := 0
		for _, sp := range specs {
			if sp.field == 0 {
				if !strings.HasPrefix(s[pos:], sp.lit) {
					return 0, false
				}
				pos += len(sp.lit)
				continue
			}
			j := pos
			for j < len(s) && j-pos < sp.max && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			if j-pos < sp.min {
				return 0, false
			}
			v, err := strconv.Atoi(s[pos:j])
			if err != nil {
				return 0, false
			}
			pos = j
			if sp.field == 'Y' {
				vals['y'] = 2000 + v
			} else {
				vals[sp.field] = v
			}
		}
		if pos != len(s) {
			return 0, false
		}
		y, m, d := vals['y'], vals['M'], vals['d']
		if h, ok := vals['H']; ok && h > 23 || vals['m'] > 59 || vals['s'] > 59 {
			return 0, false
		}
		if y < 1 || m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m) {
			return 0, false
		}
		return daysFromCivil(y, m, d), true
	}, nil
}
