package scala

// ColumnSyntax is src with the `$` of each `$"name"` column reference
// (spark.implicits' StringContext interpolator, in nearly every Scala job)
// replaced by `s`, and nothing else changed: the same length, so every
// offset, line and column stays where it is. tree-sitter's Scala grammar
// has no `$` interpolator and fails the whole file on it; `s"name"` parses
// as the same shape. The `$` is replaced only in code, where it stands
// alone before a quote, never inside a string, a character literal or a
// comment. It returns nil when src has no such `$`.
func ColumnSyntax(src []byte) []byte {
	var out []byte
	i := 0
	n := len(src)
	// depth counts the ${ ... } code blocks of interpolated strings the
	// scan is inside; braces says, per block, how many { it has open.
	var braces []int
	inInterp := false // inside an interpolated string (after its quote)
	for i < n {
		c := src[i]
		if inInterp {
			switch {
			case c == '\\' && i+1 < n:
				i += 2
			case c == '$' && i+1 < n && src[i+1] == '$':
				i += 2
			case c == '$' && i+1 < n && src[i+1] == '{':
				braces = append(braces, 0)
				inInterp = false
				i += 2
			case c == '"' || c == '\n':
				inInterp = false
				i++
			default:
				i++
			}
			continue
		}
		switch {
		case c == '/' && i+1 < n && src[i+1] == '/':
			for i < n && src[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < n && src[i+1] == '*':
			// Scala's block comments nest.
			depth := 0
			for i < n {
				if src[i] == '/' && i+1 < n && src[i+1] == '*' {
					depth++
					i += 2
					continue
				}
				if src[i] == '*' && i+1 < n && src[i+1] == '/' {
					depth--
					i += 2
					if depth == 0 {
						break
					}
					continue
				}
				i++
			}
		case c == '"' && i+2 < n && src[i+1] == '"' && src[i+2] == '"':
			i += 3
			for i+2 < n && !(src[i] == '"' && src[i+1] == '"' && src[i+2] == '"') {
				i++
			}
			i += 3
			for i < n && src[i] == '"' {
				i++
			}
		case c == '"':
			if i > 0 && identByte(src[i-1]) {
				// s"...", f"...", $"..." (rewritten below): an
				// interpolated string.
				inInterp = true
				i++
				continue
			}
			i++
			for i < n && src[i] != '"' && src[i] != '\n' {
				if src[i] == '\\' {
					i++
				}
				i++
			}
			i++
		case c == '\'':
			// 'a', '\n', '\u0041': a character literal; otherwise a
			// symbol or a quote in a type, left as it is.
			switch {
			case i+2 < n && src[i+1] != '\\' && src[i+2] == '\'':
				i += 3
			case i+1 < n && src[i+1] == '\\':
				j := i + 2
				for j < n && j < i+8 && src[j] != '\'' {
					j++
				}
				i = j + 1
			default:
				i++
			}
		case c == '$' && i+1 < n && src[i+1] == '"' && (i == 0 || !identByte(src[i-1])):
			if out == nil {
				out = append([]byte(nil), src...)
			}
			out[i] = 's'
			i++
		case c == '{' && len(braces) > 0:
			braces[len(braces)-1]++
			i++
		case c == '}' && len(braces) > 0:
			if braces[len(braces)-1] == 0 {
				braces = braces[:len(braces)-1]
				inInterp = true
			} else {
				braces[len(braces)-1]--
			}
			i++
		default:
			i++
		}
	}
	return out
}

// identByte is a byte that may end an identifier (an interpolator's name).
func identByte(b byte) bool {
	return b == '_' || b == '$' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= 0x80
}
