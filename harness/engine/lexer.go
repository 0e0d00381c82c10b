package engine

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

type tkind int

const (
	tEOF tkind = iota
	tIdent
	tQuoted // backquoted identifier
	tNumber
	tStr
	tOp
)

type tok struct {
	kind tkind
	text string // identifier name, operator, raw number text, or unescaped string
	pos  int
}

// commentWhy is why an expression may hold no comment. A comment is where
// two parsers part: Spark's nests /* */ and ends -- at \r as well as \n
// (and continues it over a backslash-newline), so "END /* /* */ -- */ +
// 1.0D" is END to one reader and END + 1.0D to Spark. What udfx proves,
// stores and inlines must mean to Spark exactly what was evaluated.
const commentWhy = "a rewrite expression holds no comments: Spark nests /* */ comments and ends -- comments at \\r too, so a comment can hide code from one parser and not from another"

// lex splits an expression into tokens. Keywords are identifiers; the
// parser compares them case-insensitively, as Spark's lexer does.
func lex(src string) ([]tok, error) {
	var out []tok
	i := 0
	for i < len(src) {
		if len(out) > MaxTokens {
			return nil, &SyntaxError{Pos: i, Msg: fmt.Sprintf("the expression has more than %d tokens, which udfx does not parse", MaxTokens)}
		}
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			i++
		case c == '-' && i+1 < len(src) && src[i+1] == '-':
			return nil, &UnsafeError{Construct: "a comment (--)", Why: commentWhy, Pos: i}
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			return nil, &UnsafeError{Construct: "a comment (/* */)", Why: commentWhy, Pos: i}
		case isIdentStart(c):
			j := i
			for j < len(src) && isIdentPart(src[j]) {
				j++
			}
			out = append(out, tok{kind: tIdent, text: src[i:j], pos: i})
			i = j
		case c >= 0x80:
			r, _ := utf8.DecodeRuneInString(src[i:])
			return nil, &SyntaxError{Pos: i, Msg: fmt.Sprintf("unexpected character %q", r)}
		case c == '`':
			var b strings.Builder
			j := i + 1
			for {
				if j >= len(src) {
					return nil, &SyntaxError{Pos: i, Msg: "unterminated quoted identifier"}
				}
				if src[j] == '`' {
					if j+1 < len(src) && src[j+1] == '`' {
						b.WriteByte('`')
						j += 2
						continue
					}
					break
				}
				b.WriteByte(src[j])
				j++
			}
			out = append(out, tok{kind: tQuoted, text: b.String(), pos: i})
			i = j + 1
		case isDigit(c) || c == '.' && i+1 < len(src) && isDigit(src[i+1]):
			j := i
			for j < len(src) && isDigit(src[j]) {
				j++
			}
			if j < len(src) && src[j] == '.' {
				j++
				for j < len(src) && isDigit(src[j]) {
					j++
				}
			}
			if j < len(src) && (src[j] == 'e' || src[j] == 'E') {
				k := j + 1
				if k < len(src) && (src[k] == '+' || src[k] == '-') {
					k++
				}
				if k < len(src) && isDigit(src[k]) {
					for k < len(src) && isDigit(src[k]) {
						k++
					}
					j = k
				}
			}
			// Type suffixes: L S Y F D BD (case-insensitive).
			if j+1 < len(src) && strings.EqualFold(src[j:j+2], "bd") && (j+2 >= len(src) || !isIdentPart(src[j+2])) {
				j += 2
			} else if j < len(src) && strings.ContainsRune("lLsSyYfFdD", rune(src[j])) && (j+1 >= len(src) || !isIdentPart(src[j+1])) {
				j++
			}
			if j < len(src) && isIdentPart(src[j]) {
				return nil, &SyntaxError{Pos: i, Msg: fmt.Sprintf("invalid number literal %q", src[i:j+1])}
			}
			out = append(out, tok{kind: tNumber, text: src[i:j], pos: i})
			i = j
		case c == '\'' || c == '"':
			s, n, err := unescapeString(src[i:])
			if err != nil {
				return nil, &SyntaxError{Pos: i, Msg: err.Error()}
			}
			out = append(out, tok{kind: tStr, text: s, pos: i})
			i += n
		default:
			ops := []string{"<=>", "::", "->", "==", "!=", "<>", "<=", ">=", "||", "=", "<", ">", "+", "-", "*", "/", "%", "&", "|", "^", "~", "(", ")", ",", "[", "]", ".", "!"}
			found := ""
			for _, op := range ops {
				if strings.HasPrefix(src[i:], op) {
					found = op
					break
				}
			}
			if found == "" {
				return nil, &SyntaxError{Pos: i, Msg: fmt.Sprintf("unexpected character %q", c)}
			}
			out = append(out, tok{kind: tOp, text: found, pos: i})
			i += len(found)
		}
	}
	out = append(out, tok{kind: tEOF, pos: len(src)})
	return out, nil
}

func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
func isIdentPart(c byte) bool { return isIdentStart(c) || isDigit(c) }
func isDigit(c byte) bool     { return c >= '0' && c <= '9' }

// unescapeString reads one quoted string literal at the start of s and
// returns its value and length. Escapes follow Spark 4.1's
// ParserUtils.unescapeSQLString: \0 \b \n \r \t \Z \\ \' \" \u with four
// hex digits (a surrogate pair of them one character, a lone surrogate
// '?'), \U with eight hex digits, octal
// \NNN, \% and \_ kept with their backslash (for LIKE), and any other
// escaped character standing for itself.
func unescapeString(s string) (string, int, error) {
	q := s[0]
	var b strings.Builder
	i := 1
	for {
		if i >= len(s) {
			return "", 0, fmt.Errorf("unterminated string literal")
		}
		c := s[i]
		if c == q {
			if i+1 < len(s) && s[i+1] == q { // a doubled quote stands for one
				b.WriteByte(q)
				i += 2
				continue
			}
			return b.String(), i + 1, nil
		}
		if c != '\\' {
			b.WriteByte(c)
			i++
			continue
		}
		if i+1 >= len(s) {
			return "", 0, fmt.Errorf("unterminated string literal")
		}
		e := s[i+1]
		switch {
		case e == 'u' && i+5 < len(s) && isHex(s[i+2:i+6]):
			v, _ := strconv.ParseUint(s[i+2:i+6], 16, 32)
			i += 6
			// Java strings are UTF-16: a high surrogate escape followed
			// by a low one is one character.
			if v >= 0xD800 && v < 0xDC00 && i+5 < len(s) && s[i] == '\\' && s[i+1] == 'u' && isHex(s[i+2:i+6]) {
				if lo, _ := strconv.ParseUint(s[i+2:i+6], 16, 32); lo >= 0xDC00 && lo <= 0xDFFF {
					b.WriteRune(utf16.DecodeRune(rune(v), rune(lo)))
					i += 6
					continue
				}
			}
			writeJavaChar(&b, rune(v))
			continue
		case e == 'U' && i+9 < len(s) && isHex(s[i+2:i+10]):
			// Spark 4 reads \U and eight hex digits as one code point.
			v, _ := strconv.ParseUint(s[i+2:i+10], 16, 32)
			if v > unicode.MaxRune {
				return "", 0, fmt.Errorf("the escape %s names no character (past U+10FFFF)", s[i:i+10])
			}
			writeJavaChar(&b, rune(v))
			i += 10
			continue
		case e >= '0' && e <= '3' && i+3 < len(s) && isOctal(s[i+1:i+4]):
			v, _ := strconv.ParseUint(s[i+1:i+4], 8, 32)
			b.WriteRune(rune(v))
			i += 4
			continue
		}
		switch e {
		case '0':
			b.WriteByte(0)
		case 'b':
			b.WriteByte('\b')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'Z':
			b.WriteByte(0x1a)
		case '%', '_':
			b.WriteByte('\\')
			b.WriteByte(e)
		default:
			// Any other escaped character (a multi-byte one too) stands for itself.
			b.WriteByte(e)
		}
		i += 2
	}
}

// writeJavaChar writes code point r as Spark stores it in UTF-8: a
// surrogate, half of a UTF-16 pair left alone, becomes '?'.
func writeJavaChar(b *strings.Builder, r rune) {
	if utf16.IsSurrogate(r) {
		b.WriteByte('?')
		return
	}
	b.WriteRune(r)
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

func isOctal(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '7' {
			return false
		}
	}
	return true
}
