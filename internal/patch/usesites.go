package patch

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/udf"
)

// UseEdit says what the patch does at one use site.
type UseEdit struct {
	Kind udf.UseKind `json:"kind"`
	Span string      `json:"span"`
	Old  string      `json:"old"`
	// New is the replacement; "" when the site is kept.
	New string `json:"new,omitempty"`
	// Note says why a site is kept, or what to check after the change.
	Note string `json:"note,omitempty"`
	// At is where New lies in the rewritten source (zero when kept).
	At udf.Span `json:"at,omitempty"`
}

var sqlIdent = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*`)

// substitute replaces each reference to a parameter in the SQL
// expression (bare or `backquoted`, outside string literals) by the
// matching argument text.
func substitute(sql string, params []udf.Param, args []string) (string, error) {
	if len(params) != len(args) {
		return "", fmt.Errorf("%d arguments for %d parameters", len(args), len(params))
	}
	// Spark resolves column names case-insensitively (the default
	// spark.sql.caseSensitive=false), and so does the embedded engine the
	// candidate was proved on: CELSIUS is the parameter celsius. A name
	// that matches two parameters is ambiguous to Spark too.
	var ambiguous error
	lookup := func(name string) (string, bool) {
		found := -1
		for i, p := range params {
			if strings.EqualFold(p.Name, name) {
				if found >= 0 && ambiguous == nil {
					ambiguous = fmt.Errorf("%q names both parameters %s and %s", name, params[found].Name, p.Name)
				}
				if found < 0 || p.Name == name {
					found = i
				}
			}
		}
		if found < 0 {
			return "", false
		}
		return args[found], true
	}
	var b strings.Builder
	for i := 0; i < len(sql); {
		c := sql[i]
		switch {
		case c == '\'' || c == '"':
			j, err := skipQuoted(sql, i, c, '\\')
			if err != nil {
				return "", err
			}
			b.WriteString(sql[i:j])
			i = j
		case c == '`':
			j, err := skipQuoted(sql, i, '`', 0)
			if err != nil {
				return "", err
			}
			name := strings.ReplaceAll(sql[i+1:j-1], "``", "`")
			if a, ok := lookup(name); ok {
				b.WriteString(a)
			} else {
				b.WriteString(sql[i:j])
			}
			i = j
		case c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z':
			id := sqlIdent.FindString(sql[i:])
			rest := strings.TrimLeft(sql[i+len(id):], " \t\n")
			if a, ok := lookup(id); ok && !strings.HasPrefix(rest, "(") && !precededByDot(sql, i) {
				b.WriteString(a)
			} else {
				b.WriteString(id)
			}
			i += len(id)
		case c >= '0' && c <= '9':
			// A number literal with a suffix (9.0D) is not an identifier.
			j := i
			for j < len(sql) && (sql[j] == '.' || sql[j] == '_' || sql[j] >= '0' && sql[j] <= '9' || sql[j] >= 'A' && sql[j] <= 'Z' || sql[j] >= 'a' && sql[j] <= 'z') {
				j++
			}
			b.WriteString(sql[i:j])
			i = j
		default:
			b.WriteByte(c)
			i++
		}
	}
	if ambiguous != nil {
		return "", ambiguous
	}
	return b.String(), nil
}

func precededByDot(s string, i int) bool {
	return i > 0 && s[i-1] == '.'
}

// skipQuoted returns the index just past the quoted text starting at
// s[i] == q. esc is the escape character (0: the quote doubled escapes).
func skipQuoted(s string, i int, q, esc byte) (int, error) {
	for j := i + 1; j < len(s); j++ {
		switch {
		case esc != 0 && s[j] == esc:
			j++
		case s[j] == q:
			if esc == 0 && j+1 < len(s) && s[j+1] == q {
				j++
				continue
			}
			return j + 1, nil
		}
	}
	return 0, fmt.Errorf("unterminated %c in %q", q, s)
}

// argument text of a SQL call: plain (possibly qualified or backquoted)
// column names need no parentheses.
var plainSQLArg = regexp.MustCompile("^(?:[A-Za-z_][A-Za-z0-9_]*|`(?:[^`]|``)*`)(?:\\.(?:[A-Za-z_][A-Za-z0-9_]*|`(?:[^`]|``)*`))*$")

func parenArg(a string) string {
	a = strings.TrimSpace(a)
	if plainSQLArg.MatchString(a) {
		return a
	}
	return "(" + a + ")"
}

// splitSQLArgs finds the call's arguments from s[open] == '(' to the
// matching ')', respecting quotes and nesting. It returns the arguments
// and the index just past the ')'.
func splitSQLArgs(s string, open int) ([]string, int, error) {
	depth := 0
	start := open + 1
	var args []string
	for i := open; i < len(s); i++ {
		switch c := s[i]; c {
		case '\'', '"':
			j, err := skipQuoted(s, i, c, '\\')
			if err != nil {
				return nil, 0, err
			}
			i = j - 1
		case '`':
			j, err := skipQuoted(s, i, '`', 0)
			if err != nil {
				return nil, 0, err
			}
			i = j - 1
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				last := strings.TrimSpace(s[start:i])
				if last != "" || len(args) > 0 {
					args = append(args, last)
				}
				return args, i + 1, nil
			}
		case ',':
			if depth == 1 {
				args = append(args, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	return nil, 0, fmt.Errorf("no closing parenthesis in %q", s[open:])
}

// rewriteSQLText replaces every call of one of names in a SQL text by
// the rewrite, its parameters replaced by the call's arguments. It
// returns the new text and how many calls it replaced.
func rewriteSQLText(text string, names []string, expr string, params []udf.Param) (string, int, error) {
	var b strings.Builder
	n := 0
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == '\'' || c == '"':
			j, err := skipQuoted(text, i, c, '\\')
			if err != nil {
				return "", 0, err
			}
			b.WriteString(text[i:j])
			i = j
		case c == '`':
			j, err := skipQuoted(text, i, '`', 0)
			if err != nil {
				return "", 0, err
			}
			b.WriteString(text[i:j])
			i = j
		case c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z':
			id := sqlIdent.FindString(text[i:])
			end := i + len(id)
			open := end
			for open < len(text) && (text[open] == ' ' || text[open] == '\t') {
				open++
			}
			if open < len(text) && text[open] == '(' && !precededByDot(text, i) && matchesName(id, names) {
				args, after, err := splitSQLArgs(text, open)
				if err != nil {
					return "", 0, err
				}
				wrapped := make([]string, len(args))
				for k, a := range args {
					wrapped[k] = parenArg(a)
				}
				sub, err := substitute(expr, params, wrapped)
				if err != nil {
					return "", 0, fmt.Errorf("call %s: %w", text[i:after], err)
				}
				b.WriteString("(" + sub + ")")
				n++
				i = after
				continue
			}
			b.WriteString(id)
			i = end
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String(), n, nil
}

// matchesName: Spark resolves function names case-insensitively.
func matchesName(id string, names []string) bool {
	for _, n := range names {
		if strings.EqualFold(id, n) {
			return true
		}
	}
	return false
}

// hostLiteral is a string literal in the host language.
type hostLiteral struct {
	quote   byte
	content string
}

// parseHostLiteral accepts plain one-line string literals without escape
// sequences: those whose content is the SQL text itself. Anything else
// (interpolators, raw or triple-quoted strings, escapes) is kept as it
// is and reported.
func parseHostLiteral(lang udf.Language, text string) (hostLiteral, error) {
	if len(text) < 2 {
		return hostLiteral{}, fmt.Errorf("not a string literal")
	}
	q := text[0]
	ok := q == '"' || (lang == udf.Python && q == '\'')
	if !ok {
		return hostLiteral{}, fmt.Errorf("not a plain string literal (a prefix or interpolator)")
	}
	if strings.HasPrefix(text, string([]byte{q, q, q})) {
		return hostLiteral{}, fmt.Errorf("a triple-quoted string")
	}
	if text[len(text)-1] != q {
		return hostLiteral{}, fmt.Errorf("not a single string literal")
	}
	content := text[1 : len(text)-1]
	if strings.ContainsAny(content, "\\\n") || strings.IndexByte(content, q) >= 0 {
		return hostLiteral{}, fmt.Errorf("a string literal with escape sequences")
	}
	return hostLiteral{quote: q, content: content}, nil
}

func (h hostLiteral) render(content string) string {
	return string(h.quote) + escapeFor(h.quote, content) + string(h.quote)
}

// escapeFor escapes content for a double- or single-quoted literal of
// Java, Scala or Python: the backslash and the quote.
func escapeFor(q byte, content string) string {
	content = strings.ReplaceAll(content, `\`, `\\`)
	return strings.ReplaceAll(content, string(q), `\`+string(q))
}

// columnArg matches a DataFrame column argument: col("x"), F.col('x'),
// functions.column("x"), or Scala's $"x".
var columnArg = regexp.MustCompile(`^(?:(?:([A-Za-z_][A-Za-z0-9_.]*)\.)?col(?:umn)?\(\s*(?:"([^"\\]*)"|'([^'\\]*)')\s*\)|\$"([^"\\]*)")$`)

// callRewrite turns `f(col("x"), ...)` into `expr("...")`. It returns the
// replacement and the qualifier of the col calls ("" when unqualified:
// then expr must be imported).
func callRewrite(u *udf.UDF, text, expr string) (string, string, error) {
	open := strings.IndexByte(text, '(')
	if open < 0 || !strings.HasSuffix(text, ")") {
		return "", "", fmt.Errorf("not a call")
	}
	args, after, err := splitSQLArgs(text, open)
	// A UDF made and called in one expression (make_prefixer("ACC-")(col("a")),
	// udf(f, T)(col("a"))): the columns are the last call's arguments, and
	// the whole expression is replaced.
	for err == nil && after < len(text) && text[after] == '(' {
		args, after, err = splitSQLArgs(text, after)
	}
	if err != nil || after != len(text) {
		return "", "", fmt.Errorf("cannot find the call's arguments")
	}
	cols := make([]string, len(args))
	qual := ""
	for i, a := range args {
		m := columnArg.FindStringSubmatch(a)
		if m == nil {
			return "", "", fmt.Errorf("argument %q is not a column reference (col(\"name\"))", a)
		}
		if i == 0 {
			qual = m[1]
		} else if m[1] != qual {
			return "", "", fmt.Errorf("arguments mix qualifiers")
		}
		name := m[2] + m[3] + m[4]
		cols[i] = "`" + strings.ReplaceAll(name, "`", "``") + "`"
	}
	sub, err := substitute(expr, u.Params, cols)
	if err != nil {
		return "", "", err
	}
	fn := "expr"
	if qual != "" {
		fn = qual + ".expr"
	}
	return fn + "(\"" + escapeFor('"', sub) + "\")", qual, nil
}

type edit struct {
	from, to int
	text     string
	// use is the index of the UseEdit this edit makes, -1 for an import.
	use int
}

// UseSiteText is the text the patch writes at a use site of kind call or
// sql whose text is old, for the SQL rewrite expr: what verify derives
// again to check that an inlined expression follows from rewrite.sql.
func UseSiteText(u *udf.UDF, kind udf.UseKind, old, expr string) (string, error) {
	text, _, err := useSiteText(u, kind, old, expr)
	return text, err
}

func useSiteText(u *udf.UDF, kind udf.UseKind, old, expr string) (text, qual string, err error) {
	switch kind {
	case udf.UseSQL:
		lit, err := parseHostLiteral(u.Language, old)
		if err != nil {
			return "", "", err
		}
		text, n, err := rewriteSQLText(lit.content, u.RegisteredNames, expr, u.Params)
		if err != nil {
			return "", "", err
		}
		if n == 0 {
			return "", "", fmt.Errorf("no call of %s found", strings.Join(u.RegisteredNames, ", "))
		}
		return lit.render(text), "", nil
	case udf.UseCall:
		return callRewrite(u, old, expr)
	}
	return "", "", fmt.Errorf("a %s use site is not rewritten", kind)
}

// RewriteUseSites returns src with the UDF's use sites changed to call
// the rewrite, and what was done at each site. Registrations stay: the
// report says to remove them once nothing calls the UDF.
func RewriteUseSites(u *udf.UDF, src []byte, expr string) ([]byte, []UseEdit, error) {
	var edits []edit
	var out []UseEdit
	needImport := false
	for _, site := range u.UseSites {
		ue := UseEdit{Kind: site.Kind, Span: site.Span.String(), Old: site.Text}
		from, err := offsetOf(src, site.Span.Start)
		if err != nil {
			return nil, nil, fmt.Errorf("use site %s: %w", site.Span, err)
		}
		to, err := offsetOf(src, site.Span.End)
		if err != nil {
			return nil, nil, fmt.Errorf("use site %s: %w", site.Span, err)
		}
		if string(src[from:to]) != site.Text {
			return nil, nil, fmt.Errorf("use site %s: the source changed since it was parsed", site.Span)
		}
		switch site.Kind {
		case udf.UseRegister:
			ue.Note = "kept: remove the registration once nothing calls " + strings.Join(u.RegisteredNames, ", ")
		case udf.UseReference:
			ue.Note = "kept: the UDF is passed around, not called"
		case udf.UseSQL, udf.UseCall:
			repl, qual, err := useSiteText(u, site.Kind, site.Text, expr)
			if err != nil {
				ue.Note = "kept: " + err.Error()
				break
			}
			ue.New = repl
			if site.Kind == udf.UseCall {
				ue.Note = "an unaliased column's name changes from the UDF call to the expression: add .alias(...) where the name matters"
				if qual == "" {
					needImport = true
				}
			}
		}
		if ue.New != "" {
			edits = append(edits, edit{from: from, to: to, text: ue.New, use: len(out)})
		}
		out = append(out, ue)
	}
	if needImport {
		if e, ok := exprImport(u.Language, src); ok {
			e.use = -1
			edits = append(edits, e)
		}
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].from > edits[j].from })
	res := append([]byte(nil), src...)
	for i, e := range edits {
		if i > 0 && e.to > edits[i-1].from {
			return nil, nil, fmt.Errorf("overlapping use sites at byte %d", e.from)
		}
		res = append(res[:e.from:e.from], append([]byte(e.text), res[e.to:]...)...)
	}
	// Where each new text lies in the result: shifted by the edits
	// before it.
	lines := udf.NewLines(res)
	for _, e := range edits {
		if e.use < 0 {
			continue
		}
		start := e.from
		for _, o := range edits {
			if o.from < e.from {
				start += len(o.text) - (o.to - o.from)
			}
		}
		out[e.use].At = udf.Span{Start: lines.Position(start), End: lines.Position(start + len(e.text))}
	}
	return res, out, nil
}

// RecordUseSites lists the applied use-site edits for the evidence
// record of a UDF in file, whose rewritten source is src.
func RecordUseSites(file string, src []byte, edits []UseEdit) []evidence.UseSite {
	var out []evidence.UseSite
	for _, e := range edits {
		if e.New == "" {
			continue
		}
		s := evidence.UseSite{File: file, Kind: string(e.Kind), Span: e.At, Old: e.Old, New: e.New, NewSHA256: evidence.SHA256([]byte(e.New))}
		if from, ok := udf.OffsetOf(src, e.At.Start); ok && from+len(e.New) <= len(src) {
			s.Before, s.After = evidence.LineContext(src, from, from+len(e.New))
		}
		out = append(out, s)
	}
	return out
}

var (
	pyFuncsImport    = regexp.MustCompile(`(?m)^from pyspark\.sql\.functions import ([A-Za-z_][A-Za-z0-9_]*(?:\s*,\s*[A-Za-z_][A-Za-z0-9_]*)*|\*)[ \t]*$`)
	scalaFuncsImport = regexp.MustCompile(`(?m)^import org\.apache\.spark\.sql\.functions\.(?:\{([^}\n]*)\}|([A-Za-z_]+))[ \t]*$`)
	javaFuncsImport  = regexp.MustCompile(`(?m)^import static org\.apache\.spark\.sql\.functions\.([A-Za-z_*]+);`)
	anyImport        = map[udf.Language]*regexp.Regexp{
		udf.Python: regexp.MustCompile(`(?m)^(?:from \S+ import [^(\n]*|import [^\n]*)$`),
		udf.Scala:  regexp.MustCompile(`(?m)^import [^\n]*$`),
		udf.Java:   regexp.MustCompile(`(?m)^import [^\n]*;[ \t]*$`),
	}
)

// exprImport returns the edit that makes `expr` callable unqualified, or
// false when it already is.
func exprImport(lang udf.Language, src []byte) (edit, bool) {
	s := string(src)
	switch lang {
	case udf.Python:
		for _, m := range pyFuncsImport.FindAllStringSubmatchIndex(s, -1) {
			names := s[m[2]:m[3]]
			if names == "*" || hasName(strings.Split(names, ","), "expr") {
				return edit{}, false
			}
		}
		if m := pyFuncsImport.FindStringSubmatchIndex(s); m != nil {
			return edit{from: m[3], to: m[3], text: ", expr"}, true
		}
		return newImportLine(lang, s, "from pyspark.sql.functions import expr")
	case udf.Scala:
		for _, m := range scalaFuncsImport.FindAllStringSubmatchIndex(s, -1) {
			if m[2] >= 0 {
				names := strings.Split(s[m[2]:m[3]], ",")
				if hasName(names, "expr") || hasName(names, "_") {
					return edit{}, false
				}
			} else if n := s[m[4]:m[5]]; n == "expr" || n == "_" {
				return edit{}, false
			}
		}
		if m := scalaFuncsImport.FindStringSubmatchIndex(s); m != nil && m[2] >= 0 {
			return edit{from: m[3], to: m[3], text: ", expr"}, true
		}
		return newImportLine(lang, s, "import org.apache.spark.sql.functions.expr")
	case udf.Java:
		for _, m := range javaFuncsImport.FindAllStringSubmatch(s, -1) {
			if m[1] == "expr" || m[1] == "*" {
				return edit{}, false
			}
		}
		return newImportLine(lang, s, "import static org.apache.spark.sql.functions.expr;")
	}
	return edit{}, false
}

func hasName(names []string, want string) bool {
	for _, n := range names {
		if strings.TrimSpace(n) == want {
			return true
		}
	}
	return false
}

// newImportLine inserts line after the file's last import (at the top
// when it has none).
func newImportLine(lang udf.Language, s, line string) (edit, bool) {
	ms := anyImport[lang].FindAllStringIndex(s, -1)
	if len(ms) == 0 {
		return edit{from: 0, to: 0, text: line + "\n"}, true
	}
	end := ms[len(ms)-1][1]
	return edit{from: end, to: end, text: "\n" + line}, true
}

// offsetOf is evidence.Offset with an error for a position outside src.
func offsetOf(src []byte, p udf.Position) (int, error) {
	o, ok := udf.OffsetOf(src, p)
	if !ok {
		return 0, fmt.Errorf("position %d:%d is outside the source", p.Line, p.Column)
	}
	return o, nil
}
