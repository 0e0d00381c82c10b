package ir

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseSimpleDateFormat(t *testing.T) {
	rows := []struct {
		pattern string
		fields  []DateField
		err     string
	}{
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
	}
	for _, r := range rows {
		got, err := ParseSimpleDateFormat(r.pattern)
		if r.err != "" {
			require.Error(t, err, r.pattern)
			assert.Contains(t, err.Error(), r.err, r.pattern)
			continue
		}
		require.NoError(t, err, r.pattern)
		assert.Equal(t, r.fields, got, r.pattern)
	}
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
		var b strings.Builder
		for _, fd := range fields {
			if fd.Letter == 0 {
				// Leading quotes as '', the rest in one quoted run with
				// its quotes doubled: after an opening quote, a quote
				// would read as '' again.
				rest := strings.TrimLeft(fd.Text, "'")
				b.WriteString(strings.Repeat("''", len(fd.Text)-len(rest)))
				if rest != "" {
					b.WriteString("'" + strings.ReplaceAll(rest, "'", "''") + "'")
				}
				continue
			}
			require.Contains(t, SimpleDateFormatLetters, string(fd.Letter))
			require.True(t, fd.Count >= 1 && fd.Count <= maxDateFieldCount)
			b.WriteString(strings.Repeat(string(fd.Letter), fd.Count))
		}
		again, err := ParseSimpleDateFormat(b.String())
		require.NoError(t, err, "%q rewritten as %q", p, b.String())
		require.Equal(t, fields, again, "%q rewritten as %q", p, b.String())
	})
}

func TestParseDateTimeFormatter(t *testing.T) {
	rows := []struct {
		pattern string
		fields  []DateField
		err     string
	}{
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
	}
	for _, r := range rows {
		got, err := ParseDateTimeFormatter(r.pattern)
		if r.err != "" {
			require.Error(t, err, r.pattern)
			assert.Contains(t, err.Error(), r.err, r.pattern)
			continue
		}
		require.NoError(t, err, r.pattern)
		assert.Equal(t, r.fields, got, r.pattern)
	}
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
		var b strings.Builder
		for _, fd := range fields {
			if fd.Letter == 0 {
				b.WriteString("'" + strings.ReplaceAll(fd.Text, "'", "''") + "'")
				continue
			}
			require.Contains(t, DateTimeFormatterLetters, string(fd.Letter))
			b.WriteString(strings.Repeat(string(fd.Letter), fd.Count))
		}
		again, err := ParseDateTimeFormatter(b.String())
		require.NoError(t, err, "%q rewritten as %q", p, b.String())
		require.Equal(t, fields, again, "%q rewritten as %q", p, b.String())
	})
}
