// Package termsafe makes text that comes from a repository (file names,
// UDF names, messages that quote them) safe to print on a terminal, in a
// Markdown table or in a CI log. A file may be named with a newline, an
// escape sequence or a bidirectional override: printed raw, it would
// forge a line of the report, recolour the terminal or reorder what the
// reader sees.
package termsafe

import (
	"strconv"
	"unicode/utf8"
)

// String returns s unchanged when it is valid UTF-8 made of printable
// characters and spaces, and otherwise s quoted as a Go string literal
// ("a\nb", "caf\xe9.py"): quoted whole, so that the escapes cannot be
// read as part of a name.
func String(s string) string {
	if Clean(s) {
		return s
	}
	return strconv.Quote(s)
}

// Clean reports whether s prints as itself.
func Clean(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r != ' ' && !strconv.IsPrint(r) {
			return false
		}
	}
	return true
}
