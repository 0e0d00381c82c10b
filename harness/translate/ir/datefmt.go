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
// one is one field; text between single quotes is literal, and ” is one
// quote inside or outside them; any other character is literal. An
// error names what udfx does not render, or what the JDK refuses (an
// unterminated quote, which throws IllegalArgumentException).
func ParseSimpleDateFormat(p string) ([]DateField, error) {
	var out []DateField
	var text strings.Builder
	flush := func() {
		if text.Len() > 0 {
			out = append(out, DateField{Text: text.String()})
			text.Reset()
		}
	}
	for i := 0; i < len(p); {
		c := p[i]
		switch {
		case c == '\'':
			if i+1 < len(p) && p[i+1] == '\'' {
				text.WriteByte('\'')
				i += 2
				continue
			}
			j := i + 1
			for {
				k := strings.IndexByte(p[j:], '\'')
				if k < 0 {
					return nil, fmt.Errorf("an unterminated quote in %q (the JDK throws IllegalArgumentException)", p)
				}
				text.WriteString(p[j : j+k])
				j += k + 1
				if j < len(p) && p[j] == '\'' {
					text.WriteByte('\'')
					j++
					continue
				}
				break
			}
			i = j
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i
			for j < len(p) && p[j] == c {
				j++
			}
			count := j - i
			if strings.IndexByte(SimpleDateFormatLetters, c) < 0 {
				return nil, fmt.Errorf("the pattern letter %c", c)
			}
			if count > maxDateFieldCount || c == 'a' && count > 1 {
				return nil, fmt.Errorf("the pattern field %s", p[i:j])
			}
			flush()
			out = append(out, DateField{Letter: c, Count: count})
			i = j
		default:
			text.WriteByte(c)
			i++
		}
	}
	flush()
	return out, nil
}
