package udf

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSpanContains(t *testing.T) {
	out := Span{Start: Position{Line: 10, Column: 5}, End: Position{Line: 14, Column: 2}}
	for _, tc := range []struct {
		in   Span
		want bool
	}{
		{Span{Start: Position{Line: 11, Column: 1}, End: Position{Line: 11, Column: 9}}, true},
		{out, true}, // ends included
		{Span{Start: Position{Line: 10, Column: 4}, End: Position{Line: 11, Column: 1}}, false},
		{Span{Start: Position{Line: 14, Column: 1}, End: Position{Line: 14, Column: 3}}, false},
		{Span{Start: Position{Line: 30, Column: 5}, End: Position{Line: 30, Column: 9}}, false},
	} {
		assert.Equal(t, tc.want, out.Contains(tc.in), tc.in.String())
	}
}
