// Package sqllit writes Spark SQL string literals, for the renderer and
// for the packages that write SQL of their own (pycase's tables).
package sqllit

import (
	"fmt"
	"strings"
	"unicode"
)

// String is v as a Spark SQL string literal: the quote and the backslash
// escaped, and the characters of the Basic Multilingual Plane that do not
// print (controls, spaces other than ' ', format characters) as Spark's
// four-digit \u escape (a tab is \u0009), so that the SQL stays one
// readable line in any file.
// Spark has no escape for the other planes; those are written as they are.
func String(v string) string {
	var sb strings.Builder
	sb.WriteByte('\'')
	for _, r := range v {
		switch {
		case r == '\'' || r == '\\':
			sb.WriteByte('\\')
			sb.WriteRune(r)
		case r <= 0xFFFF && r != ' ' && !unicode.IsPrint(r):
			fmt.Fprintf(&sb, "\\u%04X", r)
		default:
			sb.WriteRune(r)
		}
	}
	sb.WriteByte('\'')
	return sb.String()
}
