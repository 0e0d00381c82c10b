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
	t := &regexTranslation{p: p, out: &javaRegex{}}
	if err := t.translate(); err != nil {
		return nil, err
	}
	re, err := regexp.Compile(t.b.String())
	if err != nil {
		return nil, unsupportedRe(p, "syntax RE2 rejects ("+err.Error()+")")
	}
	t.out.re = re
	return t.out, nil
}

// regexTranslation is compileJavaRegex's translation of the Java pattern
// p into RE2 syntax: p[i:] is still to be read, b holds the translation
// of p[:i].
type regexTranslation struct {
	p       string
	i       int
	b       strings.Builder
	out     *javaRegex
	dotAll  bool // a leading (?s)
	inClass bool // inside [...]
}

// translate translates the whole pattern, one construct at a time.
func (t *regexTranslation) translate() error {
	p := t.p
	for t.i < len(p) {
		c := p[t.i]
		var err error
		switch {
		case c == '\\':
			err = t.escape()
		case t.inClass:
			err = t.classChar(c)
		case c == '[' && needsSets(p, t.i):
			err = t.setClass()
		case c == '[':
			t.openClass()
		case c == '(':
			err = t.group()
		case c == '.':
			t.dot()
		case c == '$':
			t.out.dollar = true
			t.b.WriteString(`\z`)
			t.i++
		case c == '*' || c == '+' || c == '?' || c == '}':
			err = t.quantifier(c)
		case c == '{':
			err = t.repetition()
		default:
			r, size := utf8.DecodeRuneInString(p[t.i:])
			t.b.WriteRune(r)
			t.i += size
		}
		if err != nil {
			return err
		}
	}
	if t.inClass {
		return unsupportedRe(p, "an unclosed character class")
	}
	return nil
}

// escape translates a backslash escape, in or outside a character class.
func (t *regexTranslation) escape() error {
	p, b := t.p, &t.b
	if t.i+1 >= len(p) {
		return unsupportedRe(p, "a trailing backslash")
	}
	e := p[t.i+1]
	t.i += 2
	switch {
	case e >= '1' && e <= '9':
		return unsupportedRe(p, "backreference \\"+string(e))
	case e == 'k':
		return unsupportedRe(p, "named backreference \\k")
	case e == 'd' || e == 'D' || e == 'w' || e == 'W':
		b.WriteByte('\\')
		b.WriteByte(e)
	case e == 's':
		// Java's \s includes \x0B, RE2's does not.
		if t.inClass {
			b.WriteString(`\t\n\x0B\f\r `)
		} else {
			b.WriteString(`[\t\n\x0B\f\r ]`)
		}
	case e == 'S':
		if t.inClass {
			return unsupportedRe(p, `\S inside a character class`)
		}
		b.WriteString(`[^\t\n\x0B\f\r ]`)
	case e == 't' || e == 'n' || e == 'r' || e == 'f' || e == 'a':
		b.WriteByte('\\')
		b.WriteByte(e)
	case e == 'e':
		b.WriteString(`\x1B`)
	case e == 'A' || e == 'z':
		if t.inClass {
			return unsupportedRe(p, "\\"+string(e)+" inside a character class")
		}
		b.WriteByte('\\')
		b.WriteByte(e)
	case e == 'Q':
		t.quoted()
	case e == 'x' || e == 'u' || e == '0':
		return t.codePoint(e)
	case e == 'p' || e == 'P':
		return t.property(e)
	case e == 'b' || e == 'B':
		return unsupportedRe(p, `\`+string(e)+` (Java's word boundary is Unicode-aware)`)
	case e == 'G' || e == 'Z' || e == 'R' || e == 'X' || e == 'h' || e == 'H' || e == 'v' || e == 'V' || e == 'c' || e == 'N':
		return unsupportedRe(p, `\`+string(e))
	case e < 0x80 && (e >= 'a' && e <= 'z' || e >= 'A' && e <= 'Z'):
		return unsupportedRe(p, `the escape \`+string(e))
	default:
		// An escaped non-letter stands for itself.
		r, size := utf8.DecodeRuneInString(p[t.i-1:])
		t.i += size - 1
		b.WriteString(regexp.QuoteMeta(string(r)))
	}
	return nil
}

// quoted translates \Q...\E, or \Q to the end of the pattern, to the
// literal text it quotes.
func (t *regexTranslation) quoted() {
	p, i := t.p, t.i
	end := strings.Index(p[i:], `\E`)
	lit := p[i:]
	if end >= 0 {
		lit = p[i : i+end]
		i += end + 2
	} else {
		i = len(p)
	}
	t.b.WriteString(regexp.QuoteMeta(lit))
	t.i = i
}

// codePoint translates the escapes of a character by its code (\xhh,
// \x{h...h}, \uhhhh, \0ooo) to RE2's \x{...}.
func (t *regexTranslation) codePoint(e byte) error {
	p, b, i := t.p, &t.b, t.i
	switch e {
	case 'x':
		if i < len(p) && p[i] == '{' {
			end := strings.IndexByte(p[i:], '}')
			if end < 0 || !isHex(p[i+1:i+end]) {
				return unsupportedRe(p, `a malformed \x{...} escape`)
			}
			b.WriteString(`\x{` + p[i+1:i+end] + `}`)
			i += end + 1
		} else {
			if i+2 > len(p) || !isHex(p[i:i+2]) {
				return unsupportedRe(p, `a malformed \x escape`)
			}
			b.WriteString(`\x{` + p[i:i+2] + `}`)
			i += 2
		}
	case 'u':
		if i+4 > len(p) || !isHex(p[i:i+4]) {
			return unsupportedRe(p, `a malformed \u escape`)
		}
		v, _ := strconv.ParseUint(p[i:i+4], 16, 32)
		if v >= 0xD800 && v <= 0xDFFF {
			return unsupportedRe(p, `a surrogate \u escape`)
		}
		b.WriteString(`\x{` + p[i:i+4] + `}`)
		i += 4
	case '0':
		j := i
		for j < len(p) && j < i+3 && p[j] >= '0' && p[j] <= '7' {
			j++
		}
		if j == i {
			return unsupportedRe(p, `a malformed octal escape`)
		}
		v, _ := strconv.ParseUint(p[i:j], 8, 32)
		if v > 0377 {
			j--
			v, _ = strconv.ParseUint(p[i:j], 8, 32)
		}
		b.WriteString(`\x{` + strconv.FormatUint(v, 16) + `}`)
		i = j
	}
	t.i = i
	return nil
}

// property translates \p{Name}, \pN and their negations \P, for the
// Unicode general categories RE2 names alike.
func (t *regexTranslation) property(e byte) error {
	name, err := t.propertyName()
	if err != nil {
		return err
	}
	t.b.WriteString(`\` + string(e) + `{` + name + `}`)
	return nil
}

// propertyName reads the name after \p or \P ({Name} or one letter), a
// general category RE2 names alike.
func (t *regexTranslation) propertyName() (string, error) {
	p, i := t.p, t.i
	name := ""
	if i < len(p) && p[i] == '{' {
		end := strings.IndexByte(p[i:], '}')
		if end < 0 {
			return "", unsupportedRe(p, `a malformed \p{...}`)
		}
		name = p[i+1 : i+end]
		i += end + 1
	} else if i < len(p) {
		name = p[i : i+1]
		i++
	}
	if !goCategory(name) {
		return "", unsupportedRe(p, `\p{`+name+`}`)
	}
	t.i = i
	return name, nil
}

// classChar copies a character of a character class, refusing Java's
// nested classes, unions and intersections.
func (t *regexTranslation) classChar(c byte) error {
	switch c {
	case '[':
		return unsupportedRe(t.p, "a nested character class or union")
	case '&':
		if t.i+1 < len(t.p) && t.p[t.i+1] == '&' {
			return unsupportedRe(t.p, "character class intersection &&")
		}
	case ']':
		t.inClass = false
	}
	t.b.WriteByte(c)
	t.i++
	return nil
}

// openClass translates the opening [ or [^ of a character class.
func (t *regexTranslation) openClass() {
	p := t.p
	t.inClass = true
	t.b.WriteByte('[')
	t.i++
	if t.i < len(p) && p[t.i] == '^' {
		t.b.WriteByte('^')
		t.i++
	}
	// A leading ] is a literal in Java and in RE2.
	if t.i < len(p) && p[t.i] == ']' {
		t.b.WriteString(`\]`)
		t.i++
	}
}

// group translates an opening parenthesis: a capturing, non-capturing or
// named group, or a leading (?s); lookaround, atomic groups and other
// embedded flags are refused.
func (t *regexTranslation) group() error {
	p, i := t.p, t.i
	if !strings.HasPrefix(p[i:], "(?") {
		t.b.WriteByte('(')
		t.i++
		return nil
	}
	rest := p[i+2:]
	switch {
	case strings.HasPrefix(rest, ":"):
		t.b.WriteString("(?:")
		t.i += 3
		return nil
	case strings.HasPrefix(rest, "="):
		return unsupportedRe(p, "lookahead (?=")
	case strings.HasPrefix(rest, "!"):
		return unsupportedRe(p, "negative lookahead (?!")
	case strings.HasPrefix(rest, "<="):
		return unsupportedRe(p, "lookbehind (?<=")
	case strings.HasPrefix(rest, "<!"):
		return unsupportedRe(p, "negative lookbehind (?<!")
	case strings.HasPrefix(rest, ">"):
		return unsupportedRe(p, "atomic group (?>")
	case strings.HasPrefix(rest, "<"):
		end := strings.IndexByte(rest, '>')
		if end < 0 {
			return unsupportedRe(p, "a malformed named group")
		}
		t.b.WriteString("(?P<" + rest[1:end] + ">")
		t.i += 2 + end + 1
		return nil
	}
	// Inline flags: only s (dot matches all) means the same.
	j := 0
	for j < len(rest) && rest[j] != ')' && rest[j] != ':' {
		j++
	}
	flags := rest[:j]
	for _, f := range flags {
		if f != 's' {
			return unsupportedRe(p, "the embedded flag (?"+flags+")")
		}
	}
	if j < len(rest) && rest[j] == ')' && i == 0 {
		t.dotAll = true
		t.i += 2 + j + 1
		return nil
	}
	return unsupportedRe(p, "a scoped embedded flag (?"+flags+")")
}

// dot translates '.'; a leading (?s) makes it match every character.
func (t *regexTranslation) dot() {
	if t.dotAll {
		t.b.WriteString(`(?s:.)`)
	} else {
		// Java's dot excludes every line terminator, not only \n.
		t.b.WriteString(`[^\n\r\x{85}\x{2028}\x{2029}]`)
	}
	t.i++
}

// quantifier copies *, +, ? or the closing } of a repetition, refusing a
// possessive quantifier.
func (t *regexTranslation) quantifier(c byte) error {
	t.b.WriteByte(c)
	t.i++
	if t.i < len(t.p) && t.p[t.i] == '+' {
		return unsupportedRe(t.p, "a possessive quantifier "+string(c)+"+")
	}
	return nil
}

// repetition copies a repetition {n}, {n,} or {n,m} up to its closing },
// which quantifier copies; counts over 1000 are refused.
func (t *regexTranslation) repetition() error {
	p, i := t.p, t.i
	end := strings.IndexByte(p[i:], '}')
	if end < 0 {
		return unsupportedRe(p, "a malformed repetition {")
	}
	for _, part := range strings.Split(p[i+1:i+end], ",") {
		if n, err := strconv.Atoi(part); err == nil && n > 1000 {
			return unsupportedRe(p, "a repetition count over 1000")
		}
	}
	t.b.WriteString(p[i : i+end])
	t.i += end
	return nil
}

// constPattern reads a constant regex argument; Spark compiles a constant
// pattern once, and the engine requires one so that an unsupported
// construct is reported at compile time.
func constPattern(name string, n node) (*javaRegex, bool, error) {
	l, ok := n.(*litNode)
	if !ok {
		return nil, false, &UnsupportedFunctionError{Name: name + " with a non-constant pattern"}
	}
	if l.v == nil {
		return nil, true, nil
	}
	re, err := compileJavaRegex(l.v.(string))
	return re, false, err
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
