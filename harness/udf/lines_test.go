package udf

import (
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

func TestLinesConvertBothWays(t *testing.T) {
	src := []byte("ab\né😀x\n\nz")
	for _, c := range []struct {
		off  int
		want Position
	}{
		{0, Position{1, 1}}, {2, Position{1, 3}}, {3, Position{2, 1}},
		{5, Position{2, 2}}, {9, Position{2, 3}}, {11, Position{3, 1}},
		{12, Position{4, 1}}, {13, Position{4, 2}},
	} {
		assert.Equal(t, c.want, PositionOf(src, c.off), "offset %d", c.off)
		off, ok := OffsetOf(src, c.want)
		assert.True(t, ok, "%v", c.want)
		assert.Equal(t, c.off, off, "%v", c.want)
	}
	for _, p := range []Position{{0, 1}, {1, 0}, {1, 4}, {3, 2}, {5, 1}, {4, 3}} {
		_, ok := OffsetOf(src, p)
		assert.False(t, ok, "%v is outside the source", p)
	}
	assert.Equal(t, Position{4, 2}, PositionOf(src, 99), "clamped to the end")
}

// FuzzLines checks the index against a count from the start of the source.
func FuzzLines(f *testing.F) {
	f.Add([]byte("a\nbc\n"), 3)
	f.Add([]byte("\xff\xfe\n\xe2\x82"), 4)
	f.Fuzz(func(t *testing.T, src []byte, off int) {
		if off < 0 || off > len(src) {
			return
		}
		want := Position{Line: 1, Column: 1}
		for i := 0; i < off; {
			if src[i] == '\n' {
				want.Line, want.Column = want.Line+1, 1
				i++
				continue
			}
			_, size := utf8.DecodeRune(src[i:])
			i += size
			want.Column++
		}
		got := PositionOf(src, off)
		// An offset inside a multi-byte character has no position of its
		// own: only check offsets that start a character.
		if !utf8.RuneStart(safeByte(src, off)) {
			return
		}
		if got != want {
			t.Fatalf("PositionOf(%q, %d) = %v, want %v", src, off, got, want)
		}
		back, ok := OffsetOf(src, got)
		if !ok || back != off {
			t.Fatalf("OffsetOf(%q, %v) = %d, %v; want %d", src, got, back, ok, off)
		}
	})
}

func safeByte(src []byte, i int) byte {
	if i < len(src) {
		return src[i]
	}
	return 0
}
