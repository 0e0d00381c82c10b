package mdtext

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestText(t *testing.T) {
	for in, want := range map[string]string{
		"plain words":       "plain words",
		"a\n  b\tc":         "a b c",
		"x | y":             `x \| y`,
		"`c` + 1":           "'c' + 1",
		"evil\x1b[31m name": `"evil\x1b[31m name"`,
		"caf\xe9":           `"caf\xe9"`,
	} {
		assert.Equal(t, want, Text(in), "%q", in)
	}
}

func TestCode(t *testing.T) {
	for in, want := range map[string]string{
		"`c` * 1.8D + 32.0D": "`` `c` * 1.8D + 32.0D ``",
		"a | b\nc":           "`` a \\| b c ``",
		"x `` y":             "``` x `` y ```",
	} {
		assert.Equal(t, want, Code(in), "%q", in)
	}
}
