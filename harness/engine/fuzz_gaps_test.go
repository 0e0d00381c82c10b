package engine

import (
	"testing"
	"time"
	"unicode/utf8"
)

// FuzzTextParsers feeds arbitrary text to the parsers added for url_decode,
// format_number patterns and datetime patterns: none may panic, decoding
// valid UTF-8 bytes must give them back, and every decoded string is valid
// UTF-8.
func FuzzTextParsers(f *testing.F) {
	for _, s := range []string{"%zz", "a+b%20c", "%E2%82", "%F0%9F%98%80", "%C0%80", "%+1", "#,##0.00", "'o''clock' yyyy-MM-dd HH:mm:ss.SSS", "d/M/yyyy", "yyyyMMdd"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if v, e := urlDecode(s); e == nil && !utf8.ValidString(v.(string)) {
			t.Errorf("urlDecode(%q) = %q is not valid UTF-8", s, v)
		}
		out := javaDecodeUTF8([]byte(s))
		if !utf8.ValidString(out) {
			t.Errorf("javaDecodeUTF8(%q) = %q is not valid UTF-8", s, out)
		}
		if utf8.ValidString(s) && out != s {
			t.Errorf("javaDecodeUTF8 changed valid UTF-8 %q to %q", s, out)
		}
		if nf, ok := parseNumberPattern(s); ok {
			_ = formatNumber(float64(-1234.5678), tDouble, nf)
		}
		if p, err := dateParser(s); err == nil {
			_, _ = p(s)
			_, _ = p("2020-01-01")
		}
		if fm, upgrade, err := dateFormatter(s); err == nil && !upgrade {
			_, _ = fm(timeOf(0))
		}
	})
}

func timeOf(us int64) time.Time { return time.UnixMicro(us).UTC() }
