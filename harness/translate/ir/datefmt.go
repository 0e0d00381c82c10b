package ir

import (
	"fmt"
	"strings"
)

// DateField is one field of a java.text.SimpleDateFormat pattern: a run
// of Count copies of the pattern letter Letter, or, where Letter is 0,
// the literal Text.
type DateField struct {
	Letter byte
	Count  int
	Text   string
}

// SimpleDateFormatLetters are the pattern letters JVMDateFormatUTC
// renders: the numbers of the date and the time, the English names of
// months (MMM, MMMM) and weekdays (E) of en_US, and the 12-hour clock
// (h, a). The others (era, week, day of the year, zones) are declined.
const SimpleDateFormatLetters = "yMdHhmsSEa"

// maxDateFieldCount bounds a numeric field's width: the JDK pads to any
// count, udfx renders the widths real patterns use.
const maxDateFieldCount = 9

// ParseSimpleDateFormat splits a SimpleDateFormat pattern as the JDK's
// compile does: a letter of a-z or A-Z is a pattern letter, and a run of
// one is one field; text between single quotes is literal, and two
// single quotes are one, inside or outside them; any other character is
// literal. An error names what udfx does not render, or what the JDK
// refuses (an unterminated quote, which throws IllegalArgumentException).
func ParseSimpleDateFormat(p string) ([]DateField, error) {
	var fl fieldList
	for i := 0; i < len(p); {
		c := p[i]
		switch {
		case c == '\'':
			if i+1 < len(p) && p[i+1] == '\'' {
				fl.text.WriteByte('\'')
				i += 2
				continue
			}
			j := i + 1
			for {
				k := strings.IndexByte(p[j:], '\'')
				if k < 0 {
					return nil, fmt.Errorf("an unterminated quote in %q (the JDK throws IllegalArgumentException)", p)
				}
				fl.text.WriteString(p[j : j+k])
				j += k + 1
				if j < len(p) && p[j] == '\'' {
					fl.text.WriteByte('\'')
					j++
					continue
				}
				break
			}
			i = j
		case isPatternLetter(c):
			f, j, err := letterField(p, i, SimpleDateFormatLetters, func(c byte, count int) bool {
				return count <= maxDateFieldCount && (c != 'a' || count == 1)
			})
			if err != nil {
				return nil, err
			}
			fl.add(f)
			i = j
		default:
			fl.text.WriteByte(c)
			i++
		}
	}
	fl.flush()
	return fl.out, nil
}

// DateTimeFormatterLetters are the pattern letters JVMDateTimeFormatUTC
// renders: SimpleDateFormat's, with S a fraction of the second, and u
// the proleptic year (uuuu, or u).
const DateTimeFormatterLetters = "yuMdHhmsSEa"

// ParseDateTimeFormatter splits a java.time DateTimeFormatter.ofPattern
// pattern as DateTimeFormatterBuilder.appendPattern does: a letter of
// a-z or A-Z is a pattern letter, a run of one is one field; text
// between single quotes is literal, two single quotes in it are one,
// and so are two alone, and four (one quote, where SimpleDateFormat
// reads two); [ ] (optional sections) and the reserved # { } are not
// rendered. Field
// widths are the JDK's: a number of d, H, h, m or s has at most two
// letters, M and E at most four (five is the narrow name), a one;
// others throw IllegalArgumentException.
func ParseDateTimeFormatter(p string) ([]DateField, error) {
	var fl fieldList
	maxCount := map[byte]int{'y': maxDateFieldCount, 'u': 4, 'M': 4, 'd': 2, 'H': 2, 'h': 2, 'm': 2, 's': 2, 'S': maxDateFieldCount, 'E': 4, 'a': 1}
	for i := 0; i < len(p); {
		c := p[i]
		switch {
		case c == '\'':
			j := i + 1
			for ; j < len(p); j++ {
				if p[j] == '\'' {
					if j+1 < len(p) && p[j+1] == '\'' {
						j++
						continue
					}
					break
				}
			}
			if j >= len(p) {
				return nil, fmt.Errorf("an incomplete string literal in %q (the JDK throws IllegalArgumentException)", p)
			}
			lit := p[i+1 : j]
			if lit == "" {
				fl.text.WriteByte('\'')
			} else {
				fl.text.WriteString(strings.ReplaceAll(lit, "''", "'"))
			}
			i = j + 1
		case isPatternLetter(c):
			f, j, err := letterField(p, i, DateTimeFormatterLetters, func(c byte, count int) bool {
				return count <= maxCount[c] && (c != 'u' || count == 1 || count == 4)
			})
			if err != nil {
				return nil, err
			}
			fl.add(f)
			i = j
		case c == '[' || c == ']':
			return nil, fmt.Errorf("an optional section (%c)", c)
		case c == '#' || c == '{' || c == '}':
			return nil, fmt.Errorf("the reserved character %c (the JDK throws IllegalArgumentException)", c)
		default:
			fl.text.WriteByte(c)
			i++
		}
	}
	fl.flush()
	return fl.out, nil
}

// isPatternLetter: both JDK formatters reserve a-z and A-Z as letters.
func isPatternLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// letterField reads the run of one letter at p[i]: its field and the
// index after it, or an error where the letter is not in letters or the
// run's length is not one fits allows.
func letterField(p string, i int, letters string, fits func(c byte, count int) bool) (DateField, int, error) {
	c := p[i]
	j := i
	for j < len(p) && p[j] == c {
		j++
	}
	if strings.IndexByte(letters, c) < 0 {
		return DateField{}, 0, fmt.Errorf("the pattern letter %c", c)
	}
	if !fits(c, j-i) {
		return DateField{}, 0, fmt.Errorf("the pattern field %s", p[i:j])
	}
	return DateField{Letter: c, Count: j - i}, j, nil
}

// fieldList collects a pattern's fields, literal text joined into one
// field until the next letter.
type fieldList struct {
	out  []DateField
	text strings.Builder
}

func (l *fieldList) flush() {
	if l.text.Len() > 0 {
		l.out = append(l.out, DateField{Text: l.text.String()})
		l.text.Reset()
	}
}

func (l *fieldList) add(f DateField) {
	l.flush()
	l.out = append(l.out, f)
}
