package translate

import (
	"fmt"
	"strings"
	"unicode/utf8"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/udfx/udfx/harness/pycase"
	"github.com/udfx/udfx/harness/translate/ir"
)

// pyRegexToJava rewrites a Python `re` pattern (no flags) as a Java
// pattern that matches the same strings at the same places, or says
// which construct has no exact Java form here. Python's classes for str
// patterns are Unicode: \d is every decimal digit (the Nd table float()
// uses), \s every str.isspace character, \w every str.isalnum one
// and _ (pyword_table.go); all are spelled out. `.` is
// any character but \n in Python and any but Java's five line
// terminators in Java, so it becomes [^\n]. \b (\w's boundaries),
// backreferences, `$` (which in Python also matches
// before a final \n, in Java before any final line terminator) and
// inline flags are declined.
func pyRegexToJava(p string) (string, string) {
	var b strings.Builder
	inClass := false
	classStart := false
	for i := 0; i < len(p); {
		r, size := utf8.DecodeRuneInString(p[i:])
		i += size
		switch {
		case r == '\\':
			if i >= len(p) {
				return "", "a trailing backslash"
			}
			c, n := utf8.DecodeRuneInString(p[i:])
			i += n
			switch c {
			case 'd', 's', 'w':
				set := pyClassBody(c)
				if inClass {
					b.WriteString(set)
				} else {
					b.WriteString("[" + set + "]")
				}
			case 'D', 'S', 'W':
				if inClass {
					return "", `\` + string(c) + " inside a character class"
				}
				b.WriteString("[^" + pyClassBody(c+('a'-'A')) + "]")
			case 'n', 't', 'r', 'f', 'v':
				fmt.Fprintf(&b, `\x{%X}`, map[rune]rune{'n': '\n', 't': '\t', 'r': '\r', 'f': '\f', 'v': '\v'}[c])
			case 'A':
				if inClass {
					return "", `\A inside a character class`
				}
				b.WriteString(`\A`)
			case 'Z':
				if inClass {
					return "", `\Z inside a character class`
				}
				b.WriteString(`\z`)
			default:
				if c < 0x80 && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
					return "", `the escape \` + string(c)
				}
				b.WriteString(javaLiteral(c))
			}
		case inClass:
			switch {
			case r == ']' && !classStart:
				inClass = false
				b.WriteByte(']')
			case r == '^' && classStart:
				b.WriteByte('^')
				continue
			case r == '-':
				b.WriteByte('-')
			default:
				b.WriteString(javaLiteral(r))
			}
		case r == '[':
			inClass = true
			b.WriteByte('[')
			classStart = true
			continue
		case r == '.':
			b.WriteString(`[^\x{A}]`)
		case r == '$':
			return "", "`$` (Python also matches it before a final newline)"
		case r == '(':
			if strings.HasPrefix(p[i:], "?") {
				if !strings.HasPrefix(p[i:], "?:") {
					return "", "the group (" + firstN(p[i:], 3)
				}
				b.WriteString("(?:")
				i += 2
			} else {
				b.WriteByte('(')
			}
		case r == '{' && strings.HasPrefix(p[i:], ","):
			return "", "the quantifier {,n}"
		case r == '{' && quantifierBrace(p[i:]):
			// {m}, {m,} or {m,n}: copied whole.
			j := strings.IndexByte(p[i:], '}')
			b.WriteString("{" + p[i:i+j+1])
			i += j + 1
		case r == '{':
			b.WriteString(javaLiteral(r))
		case strings.ContainsRune("^)|*+?", r):
			b.WriteRune(r)
		default:
			b.WriteString(javaLiteral(r))
		}
		classStart = false
	}
	if inClass {
		return "", "an unterminated character class"
	}
	return b.String(), ""
}

// quantifierBrace reports whether the text after a `{` makes it a
// {m}, {m,} or {m,n} quantifier (else Python reads it literally).
func quantifierBrace(s string) bool {
	j := strings.IndexByte(s, '}')
	if j <= 0 {
		return false
	}
	body := s[:j]
	m, n, comma := strings.Cut(body, ",")
	digits := func(x string) bool {
		for _, c := range x {
			if c < '0' || c > '9' {
				return false
			}
		}
		return true
	}
	return m != "" && digits(m) && (!comma || digits(n))
}

func firstN(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// javaLiteral is r as a literal in a Java pattern, inside or outside a
// class: ASCII letters and digits as they are, other ASCII escaped, the
// rest as \x{...}.
func javaLiteral(r rune) string {
	switch {
	case r < 0x80 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == ' ' || r == '_'):
		return string(r)
	case r > 0x20 && r < 0x7f:
		return `\` + string(r)
	}
	return fmt.Sprintf(`\x{%X}`, r)
}

// pyClassBody is the inside of a class for Python's \d, \s or \w.
func pyClassBody(c rune) string {
	var b strings.Builder
	if c == 'w' {
		for _, r := range pyWordRanges {
			if r[0] == r[1] {
				fmt.Fprintf(&b, `\x{%X}`, r[0])
			} else {
				fmt.Fprintf(&b, `\x{%X}-\x{%X}`, r[0], r[1])
			}
		}
		return b.String()
	}
	if c == 'd' {
		b.WriteString("0-9")
		for _, r := range pyDecimalRanges {
			fmt.Fprintf(&b, `\x{%X}-\x{%X}`, r[0], r[1])
		}
		return b.String()
	}
	for _, r := range pyWhitespace {
		fmt.Fprintf(&b, `\x{%X}`, r)
	}
	return b.String()
}

// pyReSub translates re.sub(pattern, repl, s) with literal pattern and
// replacement (no count, no flags): every non-overlapping match, left to
// right, replaced, as Java's replaceAll (Spark's regexp_replace). A
// replacement with a backslash (group references, escapes) is declined;
// `$` is escaped for Java.
func (t *tr) pyReSub(n *sitter.Node, args []*sitter.Node, e env) *binding {
	if len(args) != 3 {
		t.decline(n, "re.sub with count or flags", "only re.sub(pattern, repl, s) is translated")
		return nil
	}
	pat, ok1 := pyStringOrRaw(t.text(args[0]))
	repl, ok2 := pyStringOrRaw(t.text(args[1]))
	if !ok1 || !ok2 {
		t.decline(n, "re.sub with a pattern or replacement that is not a literal", "not translated")
		return nil
	}
	if strings.ContainsRune(repl, '\\') {
		t.decline(args[1], "a re.sub replacement with a backslash", "group references and escapes are not translated")
		return nil
	}
	jp, why := pyRegexToJava(pat)
	if why != "" {
		t.decline(args[0], "the pattern "+t.text(args[0]), why+" is not translated")
		return nil
	}
	t.pinRegexUnicode(pat)
	if matchesEmpty(pat) {
		t.decline(args[0], "the pattern "+t.text(args[0]), "it may match the empty string (alternatives and groups are not analysed), where Python's and Java's placement of empty matches is not proved equal")
		return nil
	}
	s := t.pyExpr(args[2], e)
	if s == nil {
		return nil
	}
	if !isString(s.e) {
		t.decline(args[2], "re.sub on "+typeName(s.e), "only a str subject is translated")
		return nil
	}
	var res ir.Expr = &ir.Call{Fn: ir.RegexpReplace, Args: []ir.Expr{s.e, &ir.Lit{T: tString, Value: jp}, &ir.Lit{T: tString, Value: strings.ReplaceAll(repl, "$", `\$`)}}, T: tString}
	if s.nullable {
		res = raiseWhereNull(s.e, res, "TypeError where "+t.text(n)+" gets None")
	}
	return lit(res)
}

// matchesEmpty is a conservative test: a pattern whose every element is
// optional (a quantifier allowing zero) or that has an alternative or a
// group may match the empty string.
func matchesEmpty(p string) bool {
	if strings.ContainsAny(p, "|()") || p == "" {
		return true
	}
	// Split into atoms: a class, an escape, or a character, each with
	// the quantifier after it.
	required := false
	for i := 0; i < len(p); {
		start := i
		switch p[i] {
		case '[':
			j := i + 1
			if j < len(p) && p[j] == '^' {
				j++
			}
			if j < len(p) && p[j] == ']' {
				j++
			}
			for j < len(p) && p[j] != ']' {
				if p[j] == '\\' {
					j++
				}
				j++
			}
			i = j + 1
		case '\\':
			i += 2
		case '^':
			i++
			continue
		default:
			_, size := utf8.DecodeRuneInString(p[i:])
			i += size
		}
		_ = start
		optional := false
		if i < len(p) {
			switch p[i] {
			case '*', '?':
				optional = true
				i++
			case '+':
				i++
			case '{':
				if quantifierBrace(p[i+1:]) {
					j := strings.IndexByte(p[i:], '}')
					optional = strings.HasPrefix(p[i+1:], "0,") || strings.HasPrefix(p[i+1:], "0}") || strings.HasPrefix(p[i+1:], ",")
					i += j + 1
				}
			}
			if i < len(p) && (p[i] == '?' || p[i] == '+') {
				i++
			}
		}
		if !optional {
			required = true
		}
	}
	return !required
}

// pyStringOrRaw reads a plain or raw (r"...") Python string literal.
func pyStringOrRaw(s string) (string, bool) {
	if len(s) > 2 && (s[0] == 'r' || s[0] == 'R') {
		body := s[1:]
		if strings.HasPrefix(body, `"""`) || strings.HasPrefix(body, "'''") || len(body) < 2 {
			return "", false
		}
		q := body[0]
		if (q != '"' && q != '\'') || body[len(body)-1] != q {
			return "", false
		}
		inner := body[1 : len(body)-1]
		if strings.IndexByte(inner, q) >= 0 {
			return "", false
		}
		return inner, true
	}
	return pyString(s)
}

// pyReMatch reads re.match, re.search or re.fullmatch(p, s), or the
// method of that name of a module-level re.compile(p), as the condition
// that it finds a match: the Match object is true, None false. ok is
// false where n is no such call; a decline leaves nil with ok true.
// Only the truth of the result is read, so where Python and Java place
// an empty match does not matter here, as it does for re.sub.
func (t *tr) pyReMatch(n *sitter.Node, e env) (c ir.Expr, ok bool) {
	if n.Kind() != "call" {
		return nil, false
	}
	fn := n.ChildByFieldName("function")
	if fn.Kind() != "attribute" || fn.ChildByFieldName("object").Kind() != "identifier" {
		return nil, false
	}
	obj, meth := t.text(fn.ChildByFieldName("object")), t.text(fn.ChildByFieldName("attribute"))
	if meth != "match" && meth != "search" && meth != "fullmatch" {
		return nil, false
	}
	if _, local := e[obj]; local {
		return nil, false
	}
	args := namedNonComment(n.ChildByFieldName("arguments"))
	var pat, subj *sitter.Node
	if t.pyModuleBound(obj, "re") {
		if len(args) != 2 {
			t.decline(n, "re."+meth+" with flags", "only re."+meth+"(pattern, s) is translated")
			return nil, true
		}
		pat, subj = args[0], args[1]
	} else {
		if pat = t.pyCompiledPattern(obj); pat == nil {
			return nil, false
		}
		if len(args) != 1 {
			t.decline(n, obj+"."+meth+" with pos or endpos", "only "+obj+"."+meth+"(s) is translated")
			return nil, true
		}
		subj = args[0]
	}
	if _, local := e[t.text(pat)]; pat.Kind() == "identifier" && !local {
		// US_ZIP = r"\d{5}$" at module level, assigned once.
		if v := t.pyModuleString(t.text(pat)); v != nil {
			pat = v
		}
	}
	p, lit := pyStringOrRaw(t.text(pat))
	if !lit {
		t.decline(pat, "a pattern that is not a literal", "not translated")
		return nil, true
	}
	body, dollar := trailingDollar(p)
	jp, why := pyRegexToJava(body)
	if why != "" {
		t.decline(pat, "the pattern "+t.text(pat), why+" is not translated")
		return nil, true
	}
	t.pinRegexUnicode(body)
	switch meth {
	case "match":
		// ^ is \A in Java without MULTILINE.
		jp = `^(?:` + jp + `)`
	case "search":
		jp = `(?:` + jp + `)`
	default:
		// A $ before a final newline leaves it unmatched: fullmatch
		// fails there, as without the $.
		jp, dollar = `^(?:`+jp+`)\z`, false
	}
	if dollar {
		// Python's $ matches at the end and before a final \n.
		jp += `\x{A}?\z`
	}
	s := t.pyExpr(subj, e)
	if s == nil {
		return nil, true
	}
	if !isString(s.e) {
		t.decline(subj, "re."+meth+" on "+typeName(s.e), "only a str subject is translated")
		return nil, true
	}
	var res ir.Expr = &ir.Call{Fn: ir.RegexpFind, Args: []ir.Expr{s.e, &ir.Lit{T: tString, Value: jp}}, T: tBool}
	if s.nullable {
		res = raiseWhereNull(s.e, res, "TypeError where "+t.text(n)+" gets None")
	}
	return res, true
}

// pyModuleString is the string literal of the one module-level
// `name = "literal"` that defines name, or nil.
func (t *tr) pyModuleString(name string) *sitter.Node {
	if r := t.pyModuleAssigned(name); r != nil && r.Kind() == "string" {
		return r
	}
	return nil
}

// pyModuleAssigned is the right side of the one module-level `name = …`
// that defines name, where nothing else binds it, or nil.
func (t *tr) pyModuleAssigned(name string) *sitter.Node {
	defs, others := t.nameDefs(name)
	if len(defs) != 1 || len(others) > 0 {
		return nil
	}
	d := defs[0]
	if d.Kind() != "assignment" || d.Parent() == nil || d.Parent().Kind() != "expression_statement" || d.Parent().Parent() == nil || d.Parent().Parent().Kind() != "module" {
		return nil
	}
	if l := d.ChildByFieldName("left"); l == nil || l.Kind() != "identifier" {
		return nil
	}
	return d.ChildByFieldName("right")
}

// pyCompiledPattern is the literal of the one module-level
// `name = re.compile(literal)` that defines name, or nil.
func (t *tr) pyCompiledPattern(name string) *sitter.Node {
	call := t.pyModuleAssigned(name)
	if call == nil || call.Kind() != "call" {
		return nil
	}
	fn := call.ChildByFieldName("function")
	if fn.Kind() != "attribute" || t.text(fn.ChildByFieldName("attribute")) != "compile" || !t.pyModuleBound(t.text(fn.ChildByFieldName("object")), "re") {
		return nil
	}
	args := namedNonComment(call.ChildByFieldName("arguments"))
	if len(args) == 1 && args[0].Kind() == "identifier" {
		return t.pyModuleString(t.text(args[0]))
	}
	if len(args) != 1 || args[0].Kind() != "string" {
		return nil
	}
	return args[0]
}

// trailingDollar splits a final `$` anchor off p (a Python or, in the
// subset jvmregex.go accepts, a Java pattern) where it applies to the
// whole pattern: not escaped, not in a class, and no top-level `|`
// (whose last alternative alone it would end).
func trailingDollar(p string) (string, bool) {
	if !strings.HasSuffix(p, "$") {
		return p, false
	}
	slashes := 0
	for i := len(p) - 2; i >= 0 && p[i] == '\\'; i-- {
		slashes++
	}
	if slashes%2 == 1 {
		return p, false
	}
	depth, inClass := 0, false
	for i := 0; i < len(p)-1; i++ {
		switch c := p[i]; {
		case c == '\\':
			i++
		case inClass:
			if c == ']' {
				inClass = false
			}
		case c == '[':
			inClass = true
			if i+1 < len(p) && p[i+1] == '^' {
				i++
			}
			if i+1 < len(p) && p[i+1] == ']' {
				i++
			}
		case c == '(':
			depth++
		case c == ')':
			depth--
		case c == '|' && depth == 0:
			return p, false
		}
	}
	if inClass || depth != 0 {
		return p, false
	}
	return p[:len(p)-1], true
}

// pinRegexUnicode records CPython's Unicode version where the pattern's
// classes (\d, \s, \w and their negations) come from its tables: the
// rewrite is exact for that version only.
func (t *tr) pinRegexUnicode(p string) {
	for i := 0; i+1 < len(p); i++ {
		if p[i] != '\\' {
			continue
		}
		if strings.IndexByte("dDsSwW", p[i+1]) >= 0 {
			t.pythonUnicode = pycase.Unicode()
			return
		}
		i++
	}
}
