package udf

import (
	"bytes"
	"sort"
	"unicode/utf8"
)

// Lines converts between byte offsets in a source and Positions: lines
// are 1-based and split at '\n', columns are 1-based Unicode code points
// (an invalid UTF-8 byte counts as one). The front-ends report positions
// so, records store them so, and every conversion in udfx goes through
// here.
type Lines struct {
	src    []byte
	starts []int // the offset of each line's first byte
}

// NewLines indexes the line starts of src.
func NewLines(src []byte) *Lines {
	l := &Lines{src: src, starts: []int{0}}
	for i, b := range src {
		if b == '\n' {
			l.starts = append(l.starts, i+1)
		}
	}
	return l
}

// Position is the position of the byte offset off, clamped to the source.
func (l *Lines) Position(off int) Position {
	off = min(max(off, 0), len(l.src))
	// The last line starting at or before off.
	line := sort.Search(len(l.starts), func(i int) bool { return l.starts[i] > off }) - 1
	return Position{Line: line + 1, Column: utf8.RuneCount(l.src[l.starts[line]:off]) + 1}
}

// Offset is the byte offset of p, or false when p is not in the source: a
// line past the last, or a column past the end of its line.
func (l *Lines) Offset(p Position) (int, bool) {
	if p.Line < 1 || p.Column < 1 || p.Line > len(l.starts) {
		return 0, false
	}
	o := l.starts[p.Line-1]
	end := len(l.src)
	if i := bytes.IndexByte(l.src[o:], '\n'); i >= 0 {
		end = o + i
	}
	for col := 1; col < p.Column; col++ {
		if o >= end {
			return 0, false
		}
		_, size := utf8.DecodeRune(l.src[o:end])
		o += size
	}
	return o, true
}

// PositionOf is NewLines(src).Position(off), for a single conversion.
func PositionOf(src []byte, off int) Position { return NewLines(src).Position(off) }

// OffsetOf is NewLines(src).Offset(p), for a single conversion.
func OffsetOf(src []byte, p Position) (int, bool) { return NewLines(src).Offset(p) }
