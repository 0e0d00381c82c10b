package sparkversion

import (
	"strings"
)

// A small TOML reader: go.mod has no TOML library and this package only
// needs strings, arrays and inline tables with their lines, so a reader of
// that subset beats a new dependency. Anything it does not understand makes
// the whole file unreadable, which the callers turn into "no
// declaration".

type tomlValue struct {
	kind       byte // 's' string, 'a' array, 't' inline table, 'o' anything else
	str        string
	line       int
	start, end int
	arr        []tomlValue
	keys       []string
	vals       []tomlValue
}

// get is an inline table's value for key, by exact key.
func (v tomlValue) get(key string) (tomlValue, bool) {
	for i, k := range v.keys {
		if k == key {
			return v.vals[i], true
		}
	}
	return tomlValue{}, false
}

type tomlEntry struct {
	path  []string // table path then the key's parts
	val   tomlValue
	line  int // line of the key
	start int // offset of the key
}

type tomlParser struct {
	s     string
	i     int
	li    lineIndex
	depth int
}

func parseTOML(data []byte) ([]tomlEntry, bool) {
	p := &tomlParser{s: string(data), li: newLineIndex(data)}
	var table []string
	var out []tomlEntry
	for {
		p.skipSpace(true)
		if p.i >= len(p.s) {
			return out, true
		}
		if p.s[p.i] == '[' {
			arrayTable := strings.HasPrefix(p.s[p.i:], "[[")
			if arrayTable {
				p.i += 2
			} else {
				p.i++
			}
			path, ok := p.key()
			if !ok {
				return nil, false
			}
			closing := "]"
			if arrayTable {
				closing = "]]"
			}
			p.skipSpace(false)
			if !strings.HasPrefix(p.s[p.i:], closing) {
				return nil, false
			}
			p.i += len(closing)
			table = path
		} else {
			start := p.i
			path, ok := p.key()
			if !ok {
				return nil, false
			}
			p.skipSpace(false)
			if p.i >= len(p.s) || p.s[p.i] != '=' {
				return nil, false
			}
			p.i++
			p.skipSpace(false)
			v, ok := p.value()
			if !ok {
				return nil, false
			}
			full := append(append([]string(nil), table...), path...)
			out = append(out, tomlEntry{path: full, val: v, line: p.li.line(start), start: start})
		}
		p.skipSpace(false)
		if p.i < len(p.s) && p.s[p.i] != '\n' && p.s[p.i] != '\r' {
			return nil, false
		}
	}
}

// skipSpace skips blanks and comments, and newlines when nl is true.
func (p *tomlParser) skipSpace(nl bool) {
	for p.i < len(p.s) {
		switch c := p.s[p.i]; {
		case c == ' ' || c == '\t':
			p.i++
		case (c == '\n' || c == '\r') && nl:
			p.i++
		case c == '#':
			for p.i < len(p.s) && p.s[p.i] != '\n' {
				p.i++
			}
		default:
			return
		}
	}
}

func (p *tomlParser) key() ([]string, bool) {
	var path []string
	for {
		p.skipSpace(false)
		if p.i >= len(p.s) {
			return nil, false
		}
		switch p.s[p.i] {
		case '"', '\'':
			v, ok := p.str()
			if !ok || v.kind != 's' {
				return nil, false
			}
			path = append(path, v.str)
		default:
			j := p.i
			for j < len(p.s) && (isIdentByte(p.s[j]) || p.s[j] == '-') {
				j++
			}
			if j == p.i {
				return nil, false
			}
			path = append(path, p.s[p.i:j])
			p.i = j
		}
		p.skipSpace(false)
		if p.i < len(p.s) && p.s[p.i] == '.' {
			p.i++
			continue
		}
		return path, true
	}
}

// str reads a string of any of TOML's four kinds. Multi-line strings and
// escaped basic strings come back as kind 'o': a requirement never needs
// them, and decoding them right is not worth the risk.
func (p *tomlParser) str() (tomlValue, bool) {
	start := p.i
	v := tomlValue{kind: 's', line: p.li.line(start), start: start}
	q := p.s[p.i]
	if triple := strings.Repeat(string(q), 3); strings.HasPrefix(p.s[p.i:], triple) {
		j := strings.Index(p.s[p.i+3:], triple)
		if j < 0 {
			return v, false
		}
		p.i += 3 + j + 3
		for p.i < len(p.s) && p.s[p.i] == q { // """a"""" ends with quotes in the body
			p.i++
		}
		v.kind, v.end = 'o', p.i
		return v, true
	}
	for j := p.i + 1; j < len(p.s); j++ {
		switch p.s[j] {
		case '\n':
			return v, false
		case '\\':
			if q == '"' {
				v.kind = 'o'
				j++
			}
		case q:
			if v.kind == 's' {
				v.str = p.s[p.i+1 : j]
			}
			p.i = j + 1
			v.end = p.i
			return v, true
		}
	}
	return v, false
}

func (p *tomlParser) value() (tomlValue, bool) {
	if p.i >= len(p.s) {
		return tomlValue{}, false
	}
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > 64 {
		return tomlValue{}, false
	}
	start := p.i
	switch p.s[p.i] {
	case '"', '\'':
		return p.str()
	case '[':
		v := tomlValue{kind: 'a', line: p.li.line(start), start: start}
		p.i++
		for {
			p.skipSpace(true)
			if p.i >= len(p.s) {
				return v, false
			}
			if p.s[p.i] == ']' {
				p.i++
				v.end = p.i
				return v, true
			}
			e, ok := p.value()
			if !ok {
				return v, false
			}
			v.arr = append(v.arr, e)
			p.skipSpace(true)
			if p.i < len(p.s) && p.s[p.i] == ',' {
				p.i++
			} else if p.i >= len(p.s) || p.s[p.i] != ']' {
				return v, false
			}
		}
	case '{':
		v := tomlValue{kind: 't', line: p.li.line(start), start: start}
		p.i++
		for {
			p.skipSpace(true)
			if p.i >= len(p.s) {
				return v, false
			}
			if p.s[p.i] == '}' {
				p.i++
				v.end = p.i
				return v, true
			}
			k, ok := p.key()
			if !ok {
				return v, false
			}
			p.skipSpace(false)
			if p.i >= len(p.s) || p.s[p.i] != '=' {
				return v, false
			}
			p.i++
			p.skipSpace(false)
			e, ok := p.value()
			if !ok {
				return v, false
			}
			v.keys = append(v.keys, strings.Join(k, "."))
			v.vals = append(v.vals, e)
			p.skipSpace(true)
			if p.i < len(p.s) && p.s[p.i] == ',' {
				p.i++
			} else if p.i >= len(p.s) || p.s[p.i] != '}' {
				return v, false
			}
		}
	default:
		j := p.i
		for j < len(p.s) && !strings.ContainsRune(",]}#\n\r", rune(p.s[j])) {
			j++
		}
		if strings.TrimSpace(p.s[p.i:j]) == "" {
			return tomlValue{}, false
		}
		p.i = j
		return tomlValue{kind: 'o', line: p.li.line(start), start: start, end: j}, true
	}
}

// ParsePyproject reads PEP 621 dependencies (project.dependencies,
// project.optional-dependencies, PEP 735 dependency-groups, uv's
// dev-dependencies) and Poetry's dependency tables.
func ParsePyproject(rel string, data []byte) []Declared {
	entries, ok := parseTOML(data)
	if !ok {
		return nil
	}
	var out []Declared
	for _, e := range entries {
		p := e.path
		switch {
		case eq(p, "project", "dependencies"),
			len(p) == 3 && p[0] == "project" && p[1] == "optional-dependencies",
			len(p) == 2 && p[0] == "dependency-groups",
			eq(p, "tool", "uv", "dev-dependencies"):
			out = append(out, pep508Array(e.val, rel)...)
		case len(p) >= 4 && p[0] == "tool" && p[1] == "poetry":
			// tool.poetry.dependencies.<name>[.version],
			// tool.poetry.dev-dependencies.<name>[.version],
			// tool.poetry.group.<g>.dependencies.<name>[.version].
			rest := p[2:]
			switch {
			case rest[0] == "dependencies" || rest[0] == "dev-dependencies":
				rest = rest[1:]
			case len(rest) >= 3 && rest[0] == "group" && rest[2] == "dependencies":
				rest = rest[3:]
			default:
				continue
			}
			if d, ok := tableDep(rest, e, poetry, rel, data); ok {
				out = append(out, d)
			}
		}
	}
	return dedupe(out)
}

// ParsePipfile reads pipenv's [packages] and [dev-packages].
func ParsePipfile(rel string, data []byte) []Declared {
	entries, ok := parseTOML(data)
	if !ok {
		return nil
	}
	var out []Declared
	for _, e := range entries {
		if len(e.path) < 2 || (e.path[0] != "packages" && e.path[0] != "dev-packages") {
			continue
		}
		if d, ok := tableDep(e.path[1:], e, pep440, rel, data); ok {
			out = append(out, d)
		}
	}
	return out
}

func eq(p []string, want ...string) bool {
	if len(p) != len(want) {
		return false
	}
	for i := range p {
		if p[i] != want[i] {
			return false
		}
	}
	return true
}

// tableDep reads `name = "spec"`, `name = {version = "spec", …}` or, in a
// [….name] table, `version = "spec"`. An array of constraints (Poetry's
// per-Python alternatives) names several versions, so it is no
// declaration.
func tableDep(rest []string, e tomlEntry, d dialect, rel string, data []byte) (Declared, bool) {
	if len(rest) == 0 || !sparkPythonPackages[normalizeName(rest[0])] {
		return Declared{}, false
	}
	var spec tomlValue
	switch {
	case len(rest) == 1 && e.val.kind == 's':
		spec = e.val
	case len(rest) == 1 && e.val.kind == 't':
		v, ok := e.val.get("version")
		if !ok || v.kind != 's' {
			return Declared{}, false
		}
		spec = v
	case len(rest) == 2 && rest[1] == "version" && e.val.kind == 's':
		spec = e.val
	default:
		return Declared{}, false
	}
	text := data[e.start:e.val.end]
	if e.val.line != e.line {
		text = data[e.val.start:e.val.end]
	}
	return specDecl(spec.str, d, rel, e.line, string(text))
}

// pep508Array reads an array of PEP 508 requirement strings; inline tables
// (dependency-groups' include-group) are skipped.
func pep508Array(v tomlValue, rel string) []Declared {
	if v.kind != 'a' {
		return nil
	}
	var out []Declared
	for _, e := range v.arr {
		if e.kind != 's' {
			continue
		}
		if d, ok := pythonDecl(e.str, rel, e.line, e.str); ok {
			out = append(out, d)
		}
	}
	return out
}
