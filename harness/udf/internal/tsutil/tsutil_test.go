package tsutil

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/udfx/udfx/harness/udf"
)

var python = sitter.NewLanguage(tspython.Language())

func TestPositionsCountCodePoints(t *testing.T) {
	p := NewParser(python)
	defer p.Close()
	src := "s = 'ß😀'; x = 1\ny = 2\n"
	s, err := p.Parse("a.py", []byte(src))
	require.NoError(t, err)
	defer s.Close()
	// "x" is the 11th character of line 1, though its 15th byte.
	assert.Equal(t, udf.Position{Line: 1, Column: 11}, s.Pos(uint(len("s = 'ß😀'; "))))
	assert.Equal(t, udf.Position{Line: 2, Column: 1}, s.Pos(uint(len("s = 'ß😀'; x = 1\n"))))
	assert.Equal(t, udf.Position{Line: 3, Column: 1}, s.Pos(uint(len(src)+10)), "offsets past the end clamp")
}

func TestParseReportsTheFirstSyntaxError(t *testing.T) {
	p := NewParser(python)
	defer p.Close()
	_, err := p.Parse("bad.py", []byte("ok = 1\ndef f(:\n    return 1\n"))
	var pe *udf.ParseError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, "bad.py", pe.File)
	assert.Equal(t, 2, pe.Pos.Line)
	assert.Contains(t, pe.Message, "syntax error")

	p.Close()
	_, err = p.Parse("a.py", []byte("x = 1\n"))
	assert.EqualError(t, err, "parse a.py: parser used after Close")
}

func TestShorten(t *testing.T) {
	assert.Equal(t, "abc", shorten("abc", 5))
	assert.Equal(t, "ab...", shorten("abcdef", 2))
	assert.Equal(t, "...", shorten("😀x", 2), "never cut inside a character")
}
