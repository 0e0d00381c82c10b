package engine

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// javaRegex is a java.util.regex pattern translated to Go's RE2 syntax.
// Constructs whose meaning differs only on some inputs are recorded so
// that those rows fail loudly instead of matching differently.
type javaRegex struct {
	re *regexp.Regexp
	// dollar: the pattern uses $, which in Java also matches before a
	// final line terminator; a subject ending in one is not reproducible.
	dollar bool
}

func unsupportedRe(p, c string) error { return &UnsupportedRegexError{Pattern: p, Construct: c} }

// compileJavaRegex translates a Java regular expression to Go's syntax
// where the two engines agree, and fails naming the construct elsewhere.
func compileJavaRegex(p string) (*javaRegex, error) {
	var b strings.Builder
	out := &javaRegex{}
	dotAll := false
	inClass := false
	i := 0
	for i < len(p) {
		c := p[i]
		switch {
		case c == '\\':
			if i+1 >= len(p) {
				return nil, unsupportedRe(p, "a trailing backslash")
			}
			e := p[i+1]
			i += 2
			switch {
			case e >= '1' && e <= '9':
				return nil, unsupportedRe(p, "backreference \\"+string(e))
			case e == 'k':
				return nil, unsupportedRe(p, "named backreference \\k")
			case e == 'd' || e == 'D' || e == 'w' || e == 'W':
				b.WriteByte('\\')
				b.WriteByte(e)
			case e == 's':
				// Java's \s includes \x0B, RE2's does not.
				if inClass {
					b.WriteString(`\t\n\x0B\f\r `)
				} else {
					b.WriteString(`[\t\n\x0B\f\r ]`)
				}
			case e == 'S':
				if inClass {
					return nil, unsupportedRe(p, `\S inside a character class`)
				}
				b.WriteString(`[^\t\n\x0B\f\r ]`)
			case e == 't' || e == 'n' || e == 'r' || e == 'f' || e == 'a':
				b.WriteByte('\\')
				b.WriteByte(e)
			case e == 'e':
				b.WriteString(`\x1B`)
			case e == 'A' || e == 'z':
				if inClass {
					return nil, unsupportedRe(p, "\\"+string(e)+" inside a character class")
				}
				b.WriteByte('\\')
				b.WriteByte(e)
			case e == 'Q':
				end := strings.Index(p[i:], `\E`)
				lit := p[i:]
				if end >= 0 {
					lit = p[i : i+end]
					i += end + 2
				} else {
					i = len(p)
				}
				b.WriteString(regexp.QuoteMeta(lit))
			case e == 'x':
				if i < len(p) && p[i] == '{' {
					end := strings.IndexByte(p[i:], '}')
					if end < 0 || !isHex(p[i+1:i+end]) {
						return nil, unsupportedRe(p, `a malformed \x{...} escape`)
					}
					b.WriteString(`\x{` + p[i+1:i+end] + `}`)
					i += end + 1
				} else {
					if i+2 > len(p) || !isHex(p[i:i+2]) {
						return nil, unsupportedRe(p, `a malformed \x escape`)
					}
					b.WriteString(`\x{` + p[i:i+2] + `}`)
					i += 2
				}
			case e == 'u':
				if i+4 > len(p) || !isHex(p[i:i+4]) {
					return nil, unsupportedRe(p, `a malformed \u escape`)
				}
				v, _ := strconv.ParseUint(p[i:i+4], 16, 32)
				if v >= 0xD800 && v <= 0xDFFF {
					return nil, unsupportedRe(p, `a surrogate \u escape`)
				}
				b.WriteString(`\x{` + p[i:i+4] + `}`)
				i += 4
			case e == '0':
				j := i
				for j < len(p) && j < i+3 && p[j] >= '0' && p[j] <= '7' {
					j++
				}
				if j == i {
					return nil, unsupportedRe(p, `a malformed octal escape`)
				}
				v, _ := strconv.ParseUint(p[i:j], 8, 32)
				if v > 0377 {
					j--
					v, _ = strconv.ParseUint(p[i:j], 8, 32)
				}
				b.WriteString(`\x{` + strconv.FormatUint(v, 16) + `}`)
				i = j
			case e == 'p' || e == 'P':
				name := ""
				if i < len(p) && p[i] == '{' {
					end := strings.IndexByte(p[i:], '}')
					if end < 0 {
						return nil, unsupportedRe(p, `a malformed \p{...}`)
					}
					name = p[i+1 : i+end]
					i += end + 1
				} else if i < len(p) {
					name = p[i : i+1]
					i++
				}
				if !goCategory(name) {
					return nil, unsupportedRe(p, `\p{`+name+`}`)
				}
				b.WriteString(`\` + string(e) + `{` + name + `}`)
			case e == 'b' || e == 'B':
				return nil, unsupportedRe(p, `\`+string(e)+` (Java's word boundary is Unicode-aware)`)
			case e == 'G' || e == 'Z' || e == 'R' || e == 'X' || e == 'h' || e == 'H' || e == 'v' || e == 'V' || e == 'c' || e == 'N':
				return nil, unsupportedRe(p, `\`+string(e))
			case e < 0x80 && (e >= 'a' && e <= 'z' || e >= 'A' && e <= 'Z'):
				return nil, unsupportedRe(p, `the escape \`+string(e))
			default:
				// An escaped non-letter stands for itself.
				r, size := utf8.DecodeRuneInString(p[i-1:])
				i += size - 1
				b.WriteString(regexp.QuoteMeta(string(r)))
			}
			continue
		case inClass:
			switch c {
			case '[':
				return nil, unsupportedRe(p, "a nested character class or union")
			case '&':
				if i+1 < len(p) && p[i+1] == '&' {
					return nil, unsupportedRe(p, "character class intersection &&")
				}
			case ']':
				inClass = false
			}
			b.WriteByte(c)
			i++
			continue
		case c == '[':
			inClass = true
			b.WriteByte(c)
			i++
			if i < len(p) && p[i] == '^' {
				b.WriteByte('^')
				i++
			}
			// A leading ] is a literal in Java and in RE2.
			if i < len(p) && p[i] == ']' {
				b.WriteString(`\]`)
				i++
			}
			continue
		case c == '(':
			if strings.HasPrefix(p[i:], "(?") {
				rest := p[i+2:]
				switch {
				case strings.HasPrefix(rest, ":"):
					b.WriteString("(?:")
					i += 3
					continue
				case strings.HasPrefix(rest, "="):
					return nil, unsupportedRe(p, "lookahead (?=")
				case strings.HasPrefix(rest, "!"):
					return nil, unsupportedRe(p, "negative lookahead (?!")
				case strings.HasPrefix(rest, "<="):
					return nil, unsupportedRe(p, "lookbehind (?<=")
				case strings.HasPrefix(rest, "<!"):
					return nil, unsupportedRe(p, "negative lookbehind (?<!")
				case strings.HasPrefix(rest, ">"):
					return nil, unsupportedRe(p, "atomic group (?>")
				case strings.HasPrefix(rest, "<"):
					end := strings.IndexByte(rest, '>')
					if end < 0 {
						return nil, unsupportedRe(p, "a malformed named group")
					}
					b.WriteString("(?P<" + rest[1:end] + ">")
					i += 2 + end + 1
					continue
				}
				// Inline flags: only s (dot matches all) means the same.
				j := 0
				for j < len(rest) && rest[j] != ')' && rest[j] != ':' {
					j++
				}
				flags := rest[:j]
				for _, f := range flags {
					if f != 's' {
						return nil, unsupportedRe(p, "the embedded flag (?"+flags+")")
					}
				}
				if j < len(rest) && rest[j] == ')' && i == 0 {
					dotAll = true
					i += 2 + j + 1
					continue
				}
				return nil, unsupportedRe(p, "a scoped embedded flag (?"+flags+")")
			}
			b.WriteByte('(')
			i++
			continue
		case c == '.':
			if dotAll {
				b.WriteString(`(?s:.)`)
			} else {
				// Java's dot excludes every line terminator, not only \n.
				b.WriteString(`[^\n\r\x{85}\x{2028}\x{2029}]`)
			}
			i++
			continue
		case c == '$':
			out.dollar = true
			b.WriteString(`\z`)
			i++
			continue
		case c == '*' || c == '+' || c == '?' || c == '}':
			b.WriteByte(c)
			i++
			if i < len(p) && p[i] == '+' {
				return nil, unsupportedRe(p, "a possessive quantifier "+string(c)+"+")
			}
			continue
		case c == '{':
			end := strings.IndexByte(p[i:], '}')
			if end < 0 {
				return nil, unsupportedRe(p, "a malformed repetition {")
			}
			for _, part := range strings.Split(p[i+1:i+end], ",") {
				if n, err := strconv.Atoi(part); err == nil && n > 1000 {
					return nil, unsupportedRe(p, "a repetition count over 1000")
				}
			}
			b.WriteString(p[i : i+end])
			i += end
			continue
		}
		r, size := utf8.DecodeRuneInString(p[i:])
		b.WriteRune(r)
		i += size
	}
	if inClass {
		return nil, unsupportedRe(p, "an unclosed character class")
	}
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil, unsupportedRe(p, "syntax RE2 rejects ("+err.Error()+")")
	}
	out.re = re
	return out, nil
}

// goCategory reports Unicode general categories that RE2 and Java name
// alike (L, Lu, Nd, ...).
func goCategory(name string) bool {
	if len(name) != 1 && len(name) != 2 {
		return false
	}
	_, err := regexp.Compile(`\p{` + name + `}`)
	return err == nil && name[0] >= 'A' && name[0] <= 'Z'
}

// check returns an error for a subject the translation cannot match
// like Java: with $ in the pattern, one ending in a line terminator.
func (j *javaRegex) check(s string) *RowError {
	if j.dollar && s != "" {
		r, _ := utf8.DecodeLastRuneInString(s)
		if r == '\n' || r == '\r' || r == 0x85 || r == 0x2028 || r == 0x2029 {
			return errUnsupportedValue("a string ending in a line terminator matched against $")
		}
	}
	return nil
}

// expandJava applies a java.util.regex.Matcher replacement string ($n,
// ${name}, \x escapes) to one match.
func expandJava(re *regexp.Regexp, repl, src string, m []int) (string, *RowError) {
	var b strings.Builder
	ngroups := re.NumSubexp()
	for i := 0; i < len(repl); i++ {
		c := repl[i]
		switch c {
		case '\\':
			i++
			if i >= len(repl) {
				return "", rowErr(classIllegalArg, "", "character to be escaped is missing")
			}
			b.WriteByte(repl[i])
		case '$':
			i++
			if i >= len(repl) {
				return "", rowErr(classIllegalArg, "", "Illegal group reference: group index is missing")
			}
			g := -1
			if repl[i] == '{' {
				end := strings.IndexByte(repl[i:], '}')
				if end < 0 {
					return "", rowErr(classIllegalArg, "", "named capturing group is missing trailing '}'")
				}
				g = re.SubexpIndex(repl[i+1 : i+end])
				if g < 0 {
					return "", rowErr(classIllegalArg, "", "No group with name {%s}", repl[i+1:i+end])
				}
				i += end
			} else {
				if repl[i] < '0' || repl[i] > '9' {
					return "", rowErr(classIllegalArg, "", "Illegal group reference")
				}
				g = int(repl[i] - '0')
				if g > ngroups {
					return "", rowErr(classIndexOOB, "", "No group %d", g)
				}
				// Java takes more digits while the number stays a valid group.
				for i+1 < len(repl) && repl[i+1] >= '0' && repl[i+1] <= '9' {
					ng := g*10 + int(repl[i+1]-'0')
					if ng > ngroups {
						break
					}
					g = ng
					i++
				}
			}
			if m[2*g] >= 0 {
				b.WriteString(src[m[2*g]:m[2*g+1]])
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), nil
}
