package evidence

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/udfx/udfx/harness/udf"
)

// ErrSpanOutside is a span that does not lie inside the source.
var ErrSpanOutside = errors.New("span outside the source")

// SpanText returns the source text a span covers. Lines are 1-based and
// split at '\n'; columns are 1-based Unicode code points, as the
// front-ends report them; End is just after the last character. This is
// the text evidence.SpanHash hashes for Record.Original.SpanSHA256.
func SpanText(src []byte, s udf.Span) ([]byte, error) {
	lines := udf.NewLines(src)
	start, ok := lines.Offset(s.Start)
	if !ok {
		return nil, fmt.Errorf("%w: start %d:%d", ErrSpanOutside, s.Start.Line, s.Start.Column)
	}
	end, ok := lines.Offset(s.End)
	if !ok || end < start {
		return nil, fmt.Errorf("%w: end %d:%d", ErrSpanOutside, s.End.Line, s.End.Column)
	}
	return src[start:end], nil
}

// LineContext is the text around src[from:to] on its lines: before runs
// from the start of the line holding from, after to the end of the line
// holding to (without the '\n'). A use site's context finds it again
// when lines above it move, and tells an edited site from a moved one.
func LineContext(src []byte, from, to int) (before, after string) {
	start := bytes.LastIndexByte(src[:from], '\n') + 1
	end := len(src)
	if i := bytes.IndexByte(src[to:], '\n'); i >= 0 {
		end = to + i
	}
	return string(src[start:from]), string(src[to:end])
}
