package sparkversion

import (
	"regexp"
	"strings"
)

// A token of Scala, Groovy or Kotlin build code. Only strings, names and
// punctuation matter; comments are dropped so that a commented-out
// dependency (common in build.sbt) never counts.
type jtok struct {
	kind       byte // 's' string, 'i' name (dotted), 'p' punctuation
	s          string
	quote      byte   // for strings: ' or "
	prefix     string // for strings: an interpolator such as s or f
	escaped    bool   // for strings: holds a backslash, so s is not the value
	start, end int
	line       int
}

// lexJVM tokenises build code. singleQuoted says whether '…' is a string
// (Groovy) or a character literal (Scala, Kotlin).
func lexJVM(data []byte, singleQuoted bool) []jtok {
	s := string(data)
	li := newLineIndex(data)
	var out []jtok
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			i++
		case strings.HasPrefix(s[i:], "//"):
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case strings.HasPrefix(s[i:], "/*"):
			j := strings.Index(s[i+2:], "*/")
			if j < 0 {
				return out
			}
			i += 2 + j + 2
		case c == '"' || (c == '\'' && singleQuoted):
			t, end := lexString(s, i, "")
			t.line = li.line(i)
			out = append(out, t)
			i = end
		case c == '\'':
			// A Scala or Kotlin char literal ('a', '\n') or a Scala
			// symbol ('foo): skip what it can be.
			if i+2 < len(s) && s[i+2] == '\'' {
				i += 3
			} else if i+3 < len(s) && s[i+1] == '\\' && s[i+3] == '\'' {
				i += 4
			} else {
				i++
			}
		case isIdentByte(c) || c == '$':
			j := i
			for j < len(s) && (isIdentByte(s[j]) || s[j] == '$' || (s[j] == '.' && j+1 < len(s) && (isIdentByte(s[j+1]) || s[j+1] == '$'))) {
				j++
			}
			if j < len(s) && s[j] == '"' && !strings.Contains(s[i:j], ".") {
				// An interpolator: s"…", f"…", raw"…".
				t, end := lexString(s, j, s[i:j])
				t.start = i
				t.line = li.line(i)
				out = append(out, t)
				i = end
				continue
			}
			out = append(out, jtok{kind: 'i', s: s[i:j], start: i, end: j, line: li.line(i)})
			i = j
		case strings.ContainsRune("%:=+-*/<>!&|^~?#@", rune(c)):
			j := i
			for j < len(s) && strings.ContainsRune("%:=+-*/<>!&|^~?#@", rune(s[j])) && !strings.HasPrefix(s[j:], "//") && !strings.HasPrefix(s[j:], "/*") {
				j++
			}
			if j == i {
				j++
			}
			out = append(out, jtok{kind: 'p', s: s[i:j], start: i, end: j, line: li.line(i)})
			i = j
		default:
			out = append(out, jtok{kind: 'p', s: s[i : i+1], start: i, end: i + 1, line: li.line(i)})
			i++
		}
	}
	return out
}

// lexString reads a string literal at s[i]; an unterminated one ends at
// the end of the line and is marked escaped so its text is never used.
func lexString(s string, i int, prefix string) (jtok, int) {
	q := s[i]
	t := jtok{kind: 's', quote: q, prefix: prefix, start: i}
	if strings.HasPrefix(s[i:], strings.Repeat(string(q), 3)) {
		delim := s[i : i+3]
		j := strings.Index(s[i+3:], delim)
		if j < 0 {
			t.escaped, t.end = true, len(s)
			return t, len(s)
		}
		t.s = s[i+3 : i+3+j]
		t.end = i + 3 + j + 3
		return t, t.end
	}
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			t.escaped = true
			j++
		case '\n':
			t.escaped, t.end = true, j
			return t, j
		case q:
			t.s = s[i+1 : j]
			t.end = j + 1
			return t, t.end
		}
	}
	t.escaped, t.end = true, len(s)
	return t, len(s)
}

// plain reports whether a string token's text is its value: no escapes,
// no interpolation.
func (t jtok) plain() bool {
	if t.kind != 's' || t.escaped {
		return false
	}
	if t.prefix != "" || t.quote == '"' {
		return !strings.Contains(t.s, "$")
	}
	return true
}

// varDef is a name bound to a string literal in the same file.
type varDef struct {
	value string
	line  int
	text  string
}

// defs collects `[val|var|def|lazy val|String] name[: Type] = "lit"`,
// `name := "lit"` (sbt settings, read back as name.value) and Gradle's
// extra-property forms. A literal followed by + or ++ is an expression,
// not a value.
type defs struct {
	vals, settings map[string][]varDef
}

func collectDefs(toks []jtok, data []byte) defs {
	d := defs{vals: map[string][]varDef{}, settings: map[string][]varDef{}}
	add := func(m map[string][]varDef, name string, from int, lit jtok, next int) {
		if !lit.plain() {
			return
		}
		if next < len(toks) && toks[next].kind == 'p' && strings.HasPrefix(toks[next].s, "+") && toks[next].line == lit.line {
			return
		}
		// The text runs to the last token of the definition, a closing
		// parenthesis included.
		m[name] = append(m[name], varDef{value: lit.s, line: toks[from].line, text: string(data[toks[from].start:toks[next-1].end])})
	}
	for i := range toks {
		t := toks[i]
		if t.kind != 'i' {
			continue
		}
		from := i
		if i > 0 && toks[i-1].kind == 'i' && isDeclKeyword(toks[i-1].s) {
			from = i - 1
			if i > 1 && toks[i-2].kind == 'i' && toks[i-2].s == "lazy" {
				from = i - 2
			}
		}
		name := lastSegment(t.s)
		j := i + 1
		// name: Type = "lit"
		if j+1 < len(toks) && toks[j].kind == 'p' && toks[j].s == ":" && toks[j+1].kind == 'i' {
			j += 2
		}
		if j+1 < len(toks) && toks[j].kind == 'p' {
			switch toks[j].s {
			case "=":
				if toks[j+1].kind == 's' {
					add(d.vals, name, from, toks[j+1], j+2)
				}
			case ":=":
				if toks[j+1].kind == 's' && j == i+1 {
					add(d.settings, name, i, toks[j+1], j+2)
				}
			}
		}
		// Gradle Kotlin DSL: val name by extra("lit")
		if from < i && i+4 < len(toks) && toks[i+1].s == "by" && toks[i+2].s == "extra" && toks[i+3].s == "(" && toks[i+4].kind == 's' {
			if i+5 < len(toks) && toks[i+5].s == ")" {
				add(d.vals, name, from, toks[i+4], i+6)
			}
		}
		// extra["name"] = "lit" and set("name", "lit")
		if (t.s == "extra" || strings.HasSuffix(t.s, ".extra")) && i+5 < len(toks) &&
			toks[i+1].s == "[" && toks[i+2].kind == 's' && toks[i+3].s == "]" && toks[i+4].s == "=" && toks[i+5].kind == 's' && toks[i+2].plain() {
			add(d.vals, toks[i+2].s, i, toks[i+5], i+6)
		}
		if lastSegment(t.s) == "set" && i+5 < len(toks) && toks[i+1].s == "(" && toks[i+2].kind == 's' && toks[i+2].plain() &&
			toks[i+3].s == "," && toks[i+4].kind == 's' && toks[i+5].s == ")" {
			add(d.vals, toks[i+2].s, i, toks[i+4], i+6)
		}
	}
	return d
}

func isDeclKeyword(s string) bool {
	switch s {
	case "val", "var", "def", "String", "final":
		return true
	}
	return false
}

func lastSegment(s string) string {
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// resolve looks a name up among the file's definitions. `x.value` is an
// sbt setting; any other name is matched on its last segment
// (Versions.spark finds `val spark = …` in object Versions). When two
// definitions give different literals, udfx cannot know which one scoping
// picks, so the name resolves to nothing.
func (d defs) resolve(name string) (varDef, bool) {
	m := d.vals
	if base, ok := strings.CutSuffix(name, ".value"); ok {
		m, name = d.settings, base
	}
	name = lastSegment(name)
	ds := m[name]
	if len(ds) == 0 {
		return varDef{}, false
	}
	for _, x := range ds[1:] {
		if x.value != ds[0].value {
			return varDef{}, false
		}
	}
	return ds[0], true
}

// ParseSbt reads "org.apache.spark" %% "spark-…" % version in build.sbt
// and project/*.scala, where version is a literal or a name bound to one
// in the same file.
func ParseSbt(rel string, data []byte) []Declared {
	toks := lexJVM(data, false)
	ds := collectDefs(toks, data)
	var out []Declared
	for i := 0; i+4 < len(toks); i++ {
		g, op1, a, op2, v := toks[i], toks[i+1], toks[i+2], toks[i+3], toks[i+4]
		if !g.plain() || g.s != "org.apache.spark" || op1.kind != 'p' ||
			(op1.s != "%" && op1.s != "%%" && op1.s != "%%%") ||
			a.kind != 's' || !strings.HasPrefix(a.s, "spark-") || op2.kind != 'p' || op2.s != "%" {
			continue
		}
		if i+5 < len(toks) && toks[i+5].kind == 'p' && strings.HasPrefix(toks[i+5].s, "+") {
			continue // version built by concatenation
		}
		if d, ok := jvmVersionToken(v, ds, rel, string(data[g.start:v.end])); ok {
			out = append(out, d)
		}
	}
	sortDecls(out)
	return dedupe(out)
}

// jvmVersionToken turns the version position of a coordinate into a
// declaration: a plain literal there, or the definition of a bare name.
func jvmVersionToken(v jtok, ds defs, rel, text string) (Declared, bool) {
	switch v.kind {
	case 's':
		if !v.plain() {
			return Declared{}, false
		}
		return jvmDecl(v.s, rel, v.line, text)
	case 'i':
		def, ok := ds.resolve(v.s)
		if !ok {
			return Declared{}, false
		}
		return jvmDecl(def.value, rel, def.line, def.text)
	}
	return Declared{}, false
}

var (
	gradleCoord  = regexp.MustCompile(`^org\.apache\.spark:(spark-[^:$]*|spark-[^:]*\$\{?[A-Za-z_][\w.]*\}?[^:]*):([^:@]+)(:[^:@]+)?(@\w+)?$`)
	gradleInterp = regexp.MustCompile(`^\$(?:\{([A-Za-z_][\w.]*)\}|([A-Za-z_][\w]*))$`)
)

// ParseGradle reads Spark coordinates in build.gradle and
// build.gradle.kts: "org.apache.spark:spark-…:version" strings, map or
// named-argument notation (group: …, name: …, version: …) and Kotlin's
// positional ("org.apache.spark", "spark-…", version). A version given as
// $name or ${name} is resolved only against a literal bound in the same
// file; gradle.properties and version catalogs are not read.
func ParseGradle(rel string, data []byte) []Declared {
	groovy := !strings.HasSuffix(rel, ".kts")
	toks := lexJVM(data, groovy)
	ds := collectDefs(toks, data)
	var out []Declared
	add := func(d Declared, ok bool) {
		if ok {
			out = append(out, d)
		}
	}
	for i, t := range toks {
		switch {
		case t.kind == 's' && !t.escaped && t.prefix == "":
			m := gradleCoord.FindStringSubmatch(t.s)
			if m == nil {
				continue
			}
			text := string(data[t.start:t.end])
			ver := m[2]
			if !strings.Contains(ver, "$") {
				add(jvmDecl(ver, rel, t.line, text))
				continue
			}
			// Only a double-quoted string interpolates; in Groovy '…$x'
			// is the text "$x".
			if t.quote != '"' {
				continue
			}
			im := gradleInterp.FindStringSubmatch(ver)
			if im == nil {
				continue
			}
			name := im[1] + im[2]
			if def, ok := ds.resolve(name); ok {
				add(jvmDecl(def.value, rel, def.line, def.text))
			}
		case t.kind == 'i' && t.s == "group":
			add(gradleNamed(toks, i, ds, rel, data))
		case t.kind == 'p' && t.s == "(":
			add(gradlePositional(toks, i, ds, rel, data))
		}
	}
	sortDecls(out)
	return dedupe(out)
}

// gradleNamed reads group: "org.apache.spark", name: "spark-…", version: v
// (Groovy map) or with = (Kotlin named arguments), in any order, up to the
// closing parenthesis or the end of the line.
func gradleNamed(toks []jtok, i int, ds defs, rel string, data []byte) (Declared, bool) {
	fields := map[string]jtok{}
	end := i
	for j := i; j+2 < len(toks) && j < i+16; j++ {
		if toks[j].line != toks[i].line || toks[j].s == ")" || toks[j].s == "}" {
			break
		}
		if toks[j].kind == 'i' && toks[j+1].kind == 'p' && (toks[j+1].s == ":" || toks[j+1].s == "=") {
			if _, seen := fields[toks[j].s]; !seen {
				fields[toks[j].s] = toks[j+2]
				if toks[j].s == "version" {
					end = j + 2
				}
			}
		}
	}
	g, a, v := fields["group"], fields["name"], fields["version"]
	if !g.plain() || g.s != "org.apache.spark" || a.kind != 's' || !strings.HasPrefix(a.s, "spark-") || end == i {
		return Declared{}, false
	}
	return jvmVersionToken(v, ds, rel, string(data[toks[i].start:toks[end].end]))
}

// gradlePositional reads ("org.apache.spark", "spark-…", version).
func gradlePositional(toks []jtok, i int, ds defs, rel string, data []byte) (Declared, bool) {
	if i+6 >= len(toks) {
		return Declared{}, false
	}
	g, c1, a, c2, v, closing := toks[i+1], toks[i+2], toks[i+3], toks[i+4], toks[i+5], toks[i+6]
	if !g.plain() || g.s != "org.apache.spark" || c1.s != "," || a.kind != 's' || !strings.HasPrefix(a.s, "spark-") ||
		c2.s != "," || (closing.s != ")" && closing.s != ",") {
		return Declared{}, false
	}
	return jvmVersionToken(v, ds, rel, string(data[g.start:v.end]))
}
