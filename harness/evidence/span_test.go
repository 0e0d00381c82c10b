package evidence

import (
	"bytes"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/udf"
)

func TestSpanText(t *testing.T) {
	src := []byte("ab\nçé→x\n\nlast")
	pos := func(l, c int) udf.Position { return udf.Position{Line: l, Column: c} }
	cases := []struct {
		span udf.Span
		want string
		err  bool
	}{
		{udf.Span{Start: pos(1, 1), End: pos(1, 3)}, "ab", false},
		{udf.Span{Start: pos(2, 2), End: pos(2, 4)}, "é→", false},
		{udf.Span{Start: pos(1, 2), End: pos(2, 5)}, "b\nçé→x", false},
		{udf.Span{Start: pos(2, 4), End: pos(4, 5)}, "x\n\nlast", false},
		{udf.Span{Start: pos(3, 1), End: pos(3, 1)}, "", false},
		{udf.Span{Start: pos(1, 4), End: pos(1, 4)}, "", true},
		{udf.Span{Start: pos(5, 1), End: pos(5, 1)}, "", true},
		{udf.Span{Start: pos(2, 1), End: pos(1, 1)}, "", true},
		{udf.Span{Start: pos(0, 1), End: pos(1, 1)}, "", true},
	}
	for _, c := range cases {
		got, err := SpanText(src, c.span)
		if c.err {
			assert.ErrorIs(t, err, ErrSpanOutside, "%v", c.span)
			continue
		}
		require.NoError(t, err, "%v", c.span)
		assert.Equal(t, c.want, string(got), "%v", c.span)
	}
}

// FuzzSpanText: any span either is refused or yields a slice of the
// source that starts where the start position says.
func FuzzSpanText(f *testing.F) {
	f.Add([]byte("ab\nçé→x\n"), 1, 1, 2, 3)
	f.Add([]byte("\r\n\r\n"), 2, 1, 2, 2)
	f.Add([]byte{0xff, '\n', 0xc3}, 1, 2, 2, 2)
	f.Fuzz(func(t *testing.T, src []byte, l1, c1, l2, c2 int) {
		got, err := SpanText(src, udf.Span{Start: udf.Position{Line: l1, Column: c1}, End: udf.Position{Line: l2, Column: c2}})
		if err != nil {
			if !errors.Is(err, ErrSpanOutside) {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		if !bytes.Contains(src, got) {
			t.Fatalf("%q is not part of %q", got, src)
		}
		if l1 == l2 && bytes.IndexByte(got, '\n') >= 0 {
			t.Fatalf("a one-line span %q crosses a line", got)
		}
	})
}
