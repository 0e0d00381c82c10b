package evidence

import (
	"encoding/json"
	"regexp"
	"sort"
	"strings"

	"github.com/udfx/udfx/harness/udf"
)

// SignatureHash hashes what of a UDF's signature the differential test
// depends on: language, kind, parameter names and types, the return type
// and whether a NULL skips the call. The front-ends read these wherever
// the file declares them (a registration's return type lies outside the
// definition span), so a change there changes the hash even when the span
// does not.
func SignatureHash(u *udf.UDF) string {
	type param struct {
		Name      string `json:"name"`
		Type      string `json:"type"`
		Primitive bool   `json:"primitive"`
	}
	sig := struct {
		Language      string  `json:"language"`
		Kind          string  `json:"kind"`
		PandasFlavor  string  `json:"pandas_flavor"`
		Params        []param `json:"params"`
		Return        string  `json:"return"`
		NullSkipsCall bool    `json:"null_skips_call"`
		Untyped       bool    `json:"untyped"`
	}{Language: string(u.Language), Kind: string(u.Kind), PandasFlavor: string(u.PandasFlavor),
		Params: []param{}, NullSkipsCall: u.NullSkipsCall, Untyped: u.Untyped}
	for _, p := range u.Params {
		sig.Params = append(sig.Params, param{Name: p.Name, Type: typeText(p.Type), Primitive: p.Primitive})
	}
	sig.Return = typeText(u.Return)
	b, _ := json.Marshal(sig) // plain strings and bools: cannot fail
	return SHA256(b)
}

func typeText(t *udf.Type) string {
	if t == nil {
		return ""
	}
	return t.String()
}

// Dependency is one piece of source outside a UDF's definition span that
// its meaning depends on.
type Dependency struct {
	// Kind is body (the function a wrapping call's span names),
	// registration (a register call, with its declared return type),
	// name (a module-level constant, function, class or import the body
	// reads, or the function that makes it) or factory-arguments (the
	// literals the calls of that function pass, udf.Factory).
	Kind string `json:"kind"`
	// Name says which: the UDF's name, the registration's first line, the
	// defined name.
	Name   string `json:"name"`
	SHA256 string `json:"sha256"`
}

// Dependencies finds, cheaply and by the source's text, what u's meaning
// depends on outside its definition span in the same file: the body when
// the span is a wrapping call (udf(f, T)), the registrations, and the
// top-level definitions of the names the body reads (Python module
// constants, functions, classes and imports; Scala and Java vals, defs
// and static final fields outside the span). The list is sorted, so two
// runs over the same source give the same list. It over-approximates: a
// name that only appears in a string still counts.
func Dependencies(u *udf.UDF, src []byte) []Dependency {
	var deps []Dependency
	lines := udf.NewLines(src)
	spanFrom, okF := lines.Offset(u.Span.Start)
	spanTo, okT := lines.Offset(u.Span.End)
	if !okF || !okT {
		return nil
	}
	inSpan := func(from, to int) bool { return from >= spanFrom && to <= spanTo }
	bodyText := src[spanFrom:spanTo]
	bodyFrom, bodyTo := spanFrom, spanTo
	if from, ok := lines.Offset(u.BodySpan.Start); ok {
		if to, ok := lines.Offset(u.BodySpan.End); ok && to >= from && !inSpan(from, to) {
			deps = append(deps, Dependency{Kind: "body", Name: u.Name, SHA256: SpanHash(src[from:to])})
			bodyText, bodyFrom, bodyTo = src[from:to], from, to
		}
	}
	for _, s := range u.UseSites {
		if s.Kind != udf.UseRegister {
			continue
		}
		name := strings.TrimSpace(strings.SplitN(s.Text, "\n", 2)[0])
		deps = append(deps, Dependency{Kind: "registration", Name: name, SHA256: SpanHash([]byte(s.Text))})
	}
	used := map[string]bool{}
	for _, id := range identRe.FindAllString(string(bodyText), -1) {
		used[id] = true
	}
	for _, p := range u.Params {
		delete(used, p.Name)
	}
	for _, d := range topLevelDefs(u.Language, src) {
		if !used[d.name] || inSpan(d.from, d.to) || d.from < bodyTo && d.to > bodyFrom {
			continue
		}
		text := src[d.from:d.to]
		if d.canon != "" {
			text = []byte(d.canon)
		}
		deps = append(deps, Dependency{Kind: "name", Name: d.name, SHA256: SpanHash(text)})
	}
	if fac := u.Factory; fac != nil {
		// The function that makes the UDF, and what its calls pass: the
		// rewrite reads the arguments as constants.
		for _, d := range topLevelDefs(u.Language, src) {
			if d.name == fac.Name && !inSpan(d.from, d.to) {
				deps = append(deps, Dependency{Kind: "name", Name: d.name, SHA256: SpanHash(src[d.from:d.to])})
			}
		}
		b, _ := json.Marshal(struct {
			Args    []string `json:"args"`
			Problem string   `json:"problem"`
		}{factoryArgs(fac), fac.Problem}) // strings: cannot fail
		deps = append(deps, Dependency{Kind: "factory-arguments", Name: fac.Name, SHA256: SHA256(b)})
	}
	sort.SliceStable(deps, func(i, j int) bool {
		a, b := deps[i], deps[j]
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		return a.SHA256 < b.SHA256
	})
	return deps
}

// factoryArgs are "param=literal" for each argument of a factory.
func factoryArgs(fac *udf.Factory) []string {
	out := []string{}
	for _, a := range fac.Args {
		out = append(out, a.Param+"="+a.Literal)
	}
	return out
}

var identRe = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

type definition struct {
	name     string
	from, to int
	// canon, when set, is hashed instead of the source range: an import
	// binding written out alone, so that importing another name on the
	// same line does not count as a change.
	canon string
}

var (
	pyDefRe     = regexp.MustCompile(`^(?:async\s+def|def|class)\s+([A-Za-z_][A-Za-z0-9_]*)`)
	pyAssignRe  = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)\s*(?::[^=]*)?=[^=]`)
	pyImportRe  = regexp.MustCompile(`^(?:from\s+(\S+)\s+)?import\s+(.*)$`)
	jvmValRe    = regexp.MustCompile(`\b(?:val|var|def|lazy\s+val|object)\s+([A-Za-z_][A-Za-z0-9_]*)`)
	javaConstRe = regexp.MustCompile(`\bstatic\b[^=;(]*?\b([A-Za-z_][A-Za-z0-9_]*)\s*=`)
	javaMethRe  = regexp.MustCompile(`\bstatic\b[^=;(]*?\b([A-Za-z_][A-Za-z0-9_]*)\s*\(`)
)

// topLevelDefs lists the definitions a body may read by name, with the
// byte range of each.
func topLevelDefs(lang udf.Language, src []byte) []definition {
	s := string(src)
	lines := lineStarts(s)
	var defs []definition
	for i, start := range lines {
		end := len(s)
		if i+1 < len(lines) {
			end = lines[i+1]
		}
		line := strings.TrimRight(s[start:end], "\r\n")
		switch lang {
		case udf.Python:
			if line == "" || line[0] == ' ' || line[0] == '\t' || line[0] == '#' {
				continue
			}
			to := pyBlockEnd(s, lines, i)
			if m := pyDefRe.FindStringSubmatch(line); m != nil {
				from := start
				// Decorators above belong to the definition.
				for k := i - 1; k >= 0 && strings.HasPrefix(s[lines[k]:], "@"); k-- {
					from = lines[k]
				}
				defs = append(defs, definition{name: m[1], from: from, to: to})
			} else if m := pyImportRe.FindStringSubmatch(line); m != nil {
				for _, b := range importedNames(s[start:to], m[2]) {
					canon := "import " + b.what + " as " + b.name
					if m[1] != "" {
						canon = "from " + m[1] + " " + canon
					}
					defs = append(defs, definition{name: b.name, from: start, to: to, canon: canon})
				}
			} else if m := pyAssignRe.FindStringSubmatch(line); m != nil {
				defs = append(defs, definition{name: m[1], from: start, to: to})
			}
		case udf.Scala, udf.Java:
			trim := strings.TrimSpace(line)
			if strings.HasPrefix(trim, "//") || strings.HasPrefix(trim, "*") || strings.HasPrefix(trim, "import ") {
				continue
			}
			re := []*regexp.Regexp{jvmValRe}
			if lang == udf.Java {
				re = []*regexp.Regexp{javaConstRe, javaMethRe}
			}
			for _, r := range re {
				for _, m := range r.FindAllStringSubmatchIndex(line, -1) {
					defs = append(defs, definition{name: line[m[2]:m[3]], from: start, to: jvmStatementEnd(s, start)})
				}
			}
		}
	}
	return defs
}

func lineStarts(s string) []int {
	starts := []int{0}
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' && i+1 < len(s) {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// pyBlockEnd is the end of the top-level statement starting at line i:
// the following indented, blank or closing-bracket lines belong to it.
func pyBlockEnd(s string, lines []int, i int) int {
	end := len(s)
	for k := i + 1; k < len(lines); k++ {
		l := s[lines[k]:]
		if nl := strings.IndexByte(l, '\n'); nl >= 0 {
			l = l[:nl]
		}
		l = strings.TrimRight(l, "\r")
		if l == "" || l[0] == ' ' || l[0] == '\t' || l[0] == ')' || l[0] == ']' || l[0] == '}' {
			continue
		}
		end = lines[k]
		break
	}
	return strings.LastIndexFunc(s[:end], func(r rune) bool { return r != '\n' && r != '\r' && r != ' ' && r != '\t' }) + 1
}

type binding struct{ what, name string }

// importedNames are the names an import statement binds, each with what
// it binds it to.
func importedNames(stmt, names string) []binding {
	if strings.Contains(names, "(") {
		if i := strings.IndexByte(stmt, '('); i >= 0 {
			names = stmt[i+1:]
			if j := strings.IndexByte(names, ')'); j >= 0 {
				names = names[:j]
			}
		}
	}
	var out []binding
	for _, part := range strings.Split(strings.SplitN(names, "#", 2)[0], ",") {
		f := strings.Fields(strings.Trim(part, "()\\ \t\r\n"))
		switch {
		case len(f) == 3 && f[1] == "as":
			out = append(out, binding{f[0], f[2]})
		case len(f) >= 1:
			out = append(out, binding{f[0], strings.SplitN(f[0], ".", 2)[0]})
		}
	}
	return out
}

// jvmStatementEnd is the end of the Scala or Java statement starting at
// start: its braces matched when it opens a block before its line ends,
// else the line (or up to the ';' ending it).
func jvmStatementEnd(s string, start int) int {
	depth := 0
	opened := false
	for i := start; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
			opened = true
		case '}':
			depth--
			if opened && depth == 0 {
				return i + 1
			}
			if depth < 0 {
				return i
			}
		case ';':
			if depth == 0 {
				return i + 1
			}
		case '\n':
			if depth == 0 {
				return i
			}
		}
	}
	return len(s)
}
