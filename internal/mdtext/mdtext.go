// Package mdtext puts text into udfx's Markdown reports (rewrite's
// report.md, verify's --format markdown). Much of that text comes from the
// repository or the model: a name with a newline or a '|' would end a
// table row or forge a line, a backquote would open a code span, and an
// escape sequence would reach whoever prints the report.
package mdtext

import (
	"strings"

	"github.com/udfx/udfx/internal/termsafe"
)

// Text is s as inline text or one table cell: on one line (each run of
// white space one space), quoted by termsafe when it holds a control
// character or invalid UTF-8, '|' escaped, and backquotes as apostrophes
// so that it cannot open a code span (and so can sit inside one).
func Text(s string) string {
	s = termsafe.String(strings.Join(strings.Fields(s), " "))
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.ReplaceAll(s, "`", "'")
}

// Code is s as a code span that keeps its backquotes (SQL identifiers):
// on one line, '|' escaped for tables, fenced by more backquotes than the
// longest run in s (two at least) and padded with a space each side.
func Code(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	s = strings.ReplaceAll(s, "|", `\|`)
	longest, run := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", max(2, longest+1))
	return fence + " " + s + " " + fence
}
