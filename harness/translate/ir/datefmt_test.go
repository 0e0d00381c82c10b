package ir

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// patternRow is a pattern, and its fields or the start of its error.
type patternRow struct {
	pattern string
	fields  []DateField
	err     string
}

// checkPatterns parses each row's pattern.
func checkPatterns(t *testing.T, parse func(string) ([]DateField, error), rows []patternRow) {
	t.Helper()
	for _, r := range rows {
		got, err := parse(r.pattern)
		if r.err != "" {
			require.Error(t, err, r.pattern)
			assert.Contains(t, err.Error(), r.err, r.pattern)
			continue
		}
		require.NoError(t, err, r.pattern)
		assert.Equal(t, r.fields, got, r.pattern)
	}
}

// roundTrip checks that fields, parsed from p, are what parse makes of
// them written back, text written by quote.
func roundTrip(t *testing.T, p string, fields []DateField, parse func(string) ([]DateField, error), letters string, quote func(string) string) {
	t.Helper()
	var b strings.Builder
	for _, fd := range fields {
		if fd.Letter == 0 {
			b.WriteString(quote(fd.Text))
			continue
		}
		require.Contains(t, letters, string(fd.Letter))
		require.True(t, fd.Count >= 1 && fd.Count <= maxDateFieldCount)
		b.WriteString(strings.Repeat(string(fd.Letter), fd.Count))
	}
	again, err := parse(b.String())
	require.NoError(t, err, "%q rewritten as %q", p, b.String())
	require.Equal(t, fields, again, "%q rewritten as %q", p, b.String())
}

func TestParseSimpleDateFormat(t *testing.T) {
	checkPatterns(t, ParseSimpleDateFormat, []patternRow{
		{"yyyy-MM-dd", []DateField{{Letter: 'y', Count: 4}, {Text: "-"}, {Letter: 'M', Count: 2}, {Text: "-"}, {Letter: 'd', Count: 2}}, ""},
		{"yyyyMMdd'T'HHmm", []DateField{{Letter: 'y', Count: 4}, {Letter: 'M', Count: 2}, {Letter: 'd', Count: 2}, {Text: "T"}, {Letter: 'H', Count: 2}, {Letter: 'm', Count: 2}}, ""},
		// '' is a quote, inside quoted text and outside it.
		{"h 'o''clock' ''a", []DateField{{Letter: 'h', Count: 1}, {Text: " o'clock '"}, {Letter: 'a', Count: 1}}, ""},
		{"''''", []DateField{{Text: "''"}}, ""},
		{"'", nil, "an unterminated quote"},
		{"'abc''", nil, "an unterminated quote"},
		// Letters only a-z and A-Z; other text, é included, is literal.
		{"é d", []DateField{{Text: "é "}, {Letter: 'd', Count: 1}}, ""},
		{"", nil, ""},
		{"yyyy-MM-dd z", nil, "the pattern letter z"},
		{"G yyyy", nil, "the pattern letter G"},
		{"D", nil, "the pattern letter D"},
		{"aa", nil, "the pattern field aa"},
		{"dddddddddd", nil, "the pattern field dddddddddd"},
	})
}

// FuzzParseSimpleDateFormat: the parser never panics, and what it
// accepts, written back with its text quoted, parses to the same
// fields.
func FuzzParseSimpleDateFormat(f *testing.F) {
	for _, s := range []string{"yyyy-MM-dd", "EEE, d MMM yyyy HH:mm:ss", "h 'o''clock' a", "''", "'", "yy/M/d", "S SS SSS", "é'x'"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		fields, err := ParseSimpleDateFormat(p)
		if err != nil {
			return
		}
		// Leading quotes as two single quotes each, the rest in one quoted
		// run with its quotes doubled: after an opening quote, a quote
		// would read as a pair again.
		roundTrip(t, p, fields, ParseSimpleDateFormat, SimpleDateFormatLetters, func(text string) string {
			rest := strings.TrimLeft(text, "'")
			out := strings.Repeat("''", len(text)-len(rest))
			if rest != "" {
				out += "'" + strings.ReplaceAll(rest, "'", "''") + "'"
			}
			return out
		})
	})
}

func TestParseDateTimeFormatter(t *testing.T) {
	checkPatterns(t, ParseDateTimeFormatter, []patternRow{
		{"uuuu-MM-dd", []DateField{{Letter: 'u', Count: 4}, {Text: "-"}, {Letter: 'M', Count: 2}, {Text: "-"}, {Letter: 'd', Count: 2}}, ""},
		// '''' is one quote here, where SimpleDateFormat reads two.
		{"''''", []DateField{{Text: "'"}}, ""},
		{"''", []DateField{{Text: "'"}}, ""},
		{"'o''clock' h", []DateField{{Text: "o'clock "}, {Letter: 'h', Count: 1}}, ""},
		{"'at", nil, "an incomplete string literal"},
		{"yyyy[-MM]", nil, "an optional section"},
		{"yyyy#", nil, "the reserved character #"},
		{"ddd", nil, "the pattern field ddd"},
		{"uu", nil, "the pattern field uu"},
		{"MMMMM", nil, "the pattern field MMMMM"},
		{"VV", nil, "the pattern letter V"},
	})
}

// FuzzParseDateTimeFormatter: as FuzzParseSimpleDateFormat, with
// java.time's quoting (one quoted run, its quotes doubled).
func FuzzParseDateTimeFormatter(f *testing.F) {
	for _, s := range []string{"uuuu-MM-dd", "EEE, d MMM yyyy HH:mm:ss.SSS", "'o''clock' a", "''''", "'", "yyyy[MM]", "é'x'"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		fields, err := ParseDateTimeFormatter(p)
		if err != nil {
			return
		}
		roundTrip(t, p, fields, ParseDateTimeFormatter, DateTimeFormatterLetters, func(text string) string {
			return "'" + strings.ReplaceAll(text, "'", "''") + "'"
		})
	})
}
