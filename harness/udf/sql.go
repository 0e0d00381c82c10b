package udf

import "strings"

// SQLCalls reports whether sql, the text of a string literal, calls the
// function name: the name as a whole identifier (case-insensitive, as
// Spark resolves function names), optionally quoted in backticks, followed
// by "(" after optional white space.
func SQLCalls(sql, name string) bool {
	if name == "" {
		return false
	}
	lower, want := strings.ToLower(sql), strings.ToLower(name)
	for from := 0; from < len(lower); {
		i := strings.Index(lower[from:], want)
		if i < 0 {
			return false
		}
		start, end := from+i, from+i+len(want)
		from = start + 1
		if start > 0 && start-1 < len(lower) && lower[start-1] == '`' && end < len(lower) && lower[end] == '`' {
			start--
			end++
		}
		if start > 0 && isIdentByte(lower[start-1]) {
			continue
		}
		j := end
		for j < len(lower) && (lower[j] == ' ' || lower[j] == '\t' || lower[j] == '\n' || lower[j] == '\r') {
			j++
		}
		if j < len(lower) && lower[j] == '(' {
			return true
		}
	}
	return false
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}
