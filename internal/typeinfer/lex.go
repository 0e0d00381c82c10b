package typeinfer

import (
	"strings"

	"github.com/udfx/udfx/harness/udf"
)

// A small lexer over Python and Scala/Java text: enough to skip comments
// and string literals while matching brackets, and to read a literal's
// value. It never fails: unterminated constructs end at the end of input.

// lit is one string literal: its byte range in the source and its value.
type lit struct {
	start, end int
	value      string
}

// arg is one argument of a call: its text, and its keyword for a Python
// keyword argument (name=value).
type arg struct {
	text string
	kw   string
}

// skipToken returns the end of the comment or string literal starting at
// i, or i when none starts there.
func skipToken(s string, i int, lang udf.Language) (end int, isString bool) {
	c := s[i]
	switch {
	case c == '#' && lang == udf.Python:
		return lineEnd(s, i), false
	case c == '/' && lang != udf.Python && strings.HasPrefix(s[i:], "//"):
		return lineEnd(s, i), false
	case c == '/' && lang != udf.Python && strings.HasPrefix(s[i:], "/*"):
		if j := strings.Index(s[i+2:], "*/"); j >= 0 {
			return i + 2 + j + 2, false
		}
		return len(s), false
	case c == '"' || (c == '\'' && lang == udf.Python):
		q := string(c)
		if strings.HasPrefix(s[i:], q+q+q) {
			if j := strings.Index(s[i+3:], q+q+q); j >= 0 {
				return i + 3 + j + 3, true
			}
			return len(s), true
		}
		for j := i + 1; j < len(s); j++ {
			switch s[j] {
			case '\\':
				j++
			case c:
				return j + 1, true
			case '\n':
				return j, true
			}
		}
		return len(s), true
	case c == '\'':
		// A Scala/Java character literal 'x' or '\n'; a Scala symbol 'x
		// is not a literal.
		if i+2 < len(s) && s[i+1] != '\\' && s[i+2] == '\'' {
			return i + 3, false
		}
		if i+3 < len(s) && s[i+1] == '\\' && s[i+3] == '\'' {
			return i + 4, false
		}
	}
	return i, false
}

func lineEnd(s string, i int) int {
	if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(s)
}

// stringLiterals lists the string literals of src outside comments, and
// the comments.
func stringLiterals(src string, lang udf.Language) (lits, comments []lit) {
	for i := 0; i < len(src); {
		end, isString := skipToken(src, i, lang)
		if end == i {
			i++
			continue
		}
		if isString {
			v, _ := unquote(src[i:end], lang)
			lits = append(lits, lit{start: i, end: end, value: v})
		} else {
			comments = append(comments, lit{start: i, end: end})
		}
		i = end
	}
	return lits, comments
}

// closeParen is the index of the bracket closing the one at s[open], or
// -1.
func closeParen(s string, open int) int {
	return closeWith(s, open, udf.Python)
}

func closeWith(s string, open int, lang udf.Language) int {
	depth := 0
	for i := open; i < len(s); {
		if end, _ := skipToken(s, i, lang); end > i {
			i = end
			continue
		}
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				return i
			}
		}
		i++
	}
	return -1
}

// splitArgs splits the arguments of the call whose '(' is at s[open].
func splitArgs(s string, open int, lang udf.Language) []arg {
	end := closeWith(s, open, lang)
	if end < 0 {
		return nil
	}
	inner := s[open+1 : end]
	var out []arg
	depth, start := 0, 0
	flush := func(j int) {
		t := strings.TrimSpace(inner[start:j])
		if t == "" {
			return
		}
		a := arg{text: t}
		if lang == udf.Python {
			if k := strings.IndexByte(t, '='); k > 0 && reIdent.MatchString(strings.TrimSpace(t[:k])) && !strings.HasPrefix(t[k:], "==") {
				a = arg{kw: strings.TrimSpace(t[:k]), text: strings.TrimSpace(t[k+1:])}
			}
		}
		out = append(out, a)
	}
	for i := 0; i < len(inner); {
		if e, _ := skipToken(inner, i, lang); e > i {
			i = e
			continue
		}
		switch inner[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ',':
			if depth == 0 {
				flush(i)
				start = i + 1
			}
		}
		i++
	}
	flush(len(inner))
	return out
}

// unquote returns the value of text when text is exactly one plain string
// literal (no f-string, no interpolation).
func unquote(text string, lang udf.Language) (string, bool) {
	if lang == udf.Python && len(text) > 0 && (text[0] == 'r' || text[0] == 'R') {
		if v, ok := unquoteRaw(text[1:]); ok {
			return v, true
		}
	}
	if len(text) < 2 {
		return "", false
	}
	q := text[0]
	if q != '"' && (q != '\'' || lang != udf.Python) {
		return "", false
	}
	if end, isString := skipToken(text, 0, lang); !isString || end != len(text) {
		return "", false
	}
	tq := strings.Repeat(string(q), 3)
	if len(text) >= 6 && strings.HasPrefix(text, tq) && strings.HasSuffix(text, tq) {
		return text[3 : len(text)-3], true
	}
	body := text[1 : len(text)-1]
	if !strings.Contains(body, "\\") {
		return body, true
	}
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		if body[i] == '\\' && i+1 < len(body) {
			i++
			switch body[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case '\\', '"', '\'':
				b.WriteByte(body[i])
			default:
				return "", false // an escape udfx does not read: no value
			}
			continue
		}
		b.WriteByte(body[i])
	}
	return b.String(), true
}

func unquoteRaw(text string) (string, bool) {
	if len(text) < 2 || (text[0] != '"' && text[0] != '\'') || text[len(text)-1] != text[0] {
		return "", false
	}
	body := text[1 : len(text)-1]
	if strings.ContainsRune(body, rune(text[0])) || strings.Contains(body, "\n") {
		return "", false
	}
	return body, true
}

// firstExpr is the expression at the start of rest: a string literal, or
// the text up to the first newline or ';' outside brackets.
func firstExpr(rest string, lang udf.Language) string {
	rest = strings.TrimLeft(rest, " \t")
	if rest == "" {
		return ""
	}
	if end, isString := skipToken(rest, 0, lang); isString {
		return rest[:end]
	}
	depth := 0
	for i := 0; i < len(rest); {
		if e, _ := skipToken(rest, i, lang); e > i {
			i = e
			continue
		}
		switch rest[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case '\n', ';':
			if depth <= 0 {
				return strings.TrimSpace(rest[:i])
			}
		}
		i++
	}
	return strings.TrimSpace(rest)
}
