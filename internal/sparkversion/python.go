package sparkversion

import (
	"strings"

	"go.yaml.in/yaml/v3"
)

// ParseRequirements reads a pip requirements or constraints file.
// Options (-r, -c, -e, --index-url) are skipped rather than followed: an
// included file is read in its own right when the walk reaches it.
func ParseRequirements(rel string, data []byte) []Declared {
	var out []Declared
	lines := strings.Split(string(data), "\n")
	for i := 0; i < len(lines); i++ {
		start := i + 1
		line := strings.TrimRight(lines[i], "\r")
		// A trailing backslash continues the requirement on the next
		// line (pip-compile writes hashes that way).
		for strings.HasSuffix(line, "\\") && i+1 < len(lines) {
			i++
			line = line[:len(line)-1] + " " + strings.TrimRight(lines[i], "\r")
		}
		line = stripPipComment(line)
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "-") {
			continue
		}
		// Per-requirement options such as --hash follow the requirement.
		if j := strings.Index(line, " -"); j >= 0 {
			line = strings.TrimSpace(line[:j])
		}
		if d, ok := pythonDecl(line, rel, start, line); ok {
			out = append(out, d)
		}
	}
	return out
}

// stripPipComment drops a comment the way pip does: # at the start of a
// line or after whitespace (a # inside a URL fragment is not one).
func stripPipComment(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '#' && (i == 0 || s[i-1] == ' ' || s[i-1] == '\t') {
			return s[:i]
		}
	}
	return s
}

// ParseSetupCfg reads install_requires and extras_require from a
// setuptools setup.cfg.
func ParseSetupCfg(rel string, data []byte) []Declared {
	var out []Declared
	section, key := "", ""
	for i, raw := range strings.Split(string(data), "\n") {
		line := strings.TrimRight(raw, "\r")
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") || strings.HasPrefix(trimmed, ";") {
			continue
		}
		indented := line[0] == ' ' || line[0] == '\t'
		var value string
		switch {
		case !indented && strings.HasPrefix(trimmed, "["):
			section = strings.TrimSpace(strings.Trim(trimmed, "[]"))
			key = ""
			continue
		case !indented:
			k, v, found := strings.Cut(trimmed, "=")
			if !found {
				k, v, found = strings.Cut(trimmed, ":")
			}
			if !found {
				key = ""
				continue
			}
			key = strings.TrimSpace(k)
			value = v
		default:
			value = trimmed
		}
		wanted := (section == "options" && key == "install_requires") ||
			(section == "options.extras_require" && key != "")
		if !wanted {
			continue
		}
		value = strings.TrimSpace(stripPipComment(value))
		if value == "" {
			continue
		}
		if d, ok := pythonDecl(value, rel, i+1, value); ok {
			out = append(out, d)
		}
	}
	return out
}

// ParseSetupPy reads every plain string literal in a setup.py that is, as
// a whole, a requirement for PySpark: install_requires, extras_require and
// lists assigned first and passed in later all hold such literals. The
// file is never run, so versions built by code (f-strings, concatenation,
// a read of a VERSION file) are not seen.
func ParseSetupPy(rel string, data []byte) []Declared {
	var out []Declared
	li := newLineIndex(data)
	s := string(data)
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '#':
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case c == '"' || c == '\'':
			// A prefix letter right before the quote (f, r, b, u) was
			// consumed as part of an identifier below; an f-string is
			// recognised there.
			body, end, ok := pyString(s, i)
			if ok && !strings.ContainsAny(body, "\\\n") {
				if d, ok := pythonDecl(body, rel, li.line(i), body); ok {
					out = append(out, d)
				}
			}
			i = end
		case isIdentByte(c):
			j := i
			for j < len(s) && isIdentByte(s[j]) {
				j++
			}
			word := strings.ToLower(s[i:j])
			if j < len(s) && (s[j] == '"' || s[j] == '\'') && len(word) <= 2 && strings.Trim(word, "rbuf") == "" {
				// Skip the literal: an f-string's text is computed, and
				// bytes are not requirements.
				_, end, _ := pyString(s, j)
				if !strings.ContainsAny(word, "fb") {
					body, _, ok := pyString(s, j)
					if ok && !strings.ContainsAny(body, "\\\n") {
						if d, ok := pythonDecl(body, rel, li.line(j), body); ok {
							out = append(out, d)
						}
					}
				}
				i = end
				continue
			}
			i = j
		default:
			i++
		}
	}
	return out
}

func isIdentByte(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

// pyString reads the Python string literal starting at s[i] (a quote) and
// returns its raw body and the offset after it. Unterminated literals end
// at the end of the line (or file, when triple-quoted) and are not ok.
func pyString(s string, i int) (body string, end int, ok bool) {
	q := s[i]
	if strings.HasPrefix(s[i:], strings.Repeat(string(q), 3)) {
		delim := s[i : i+3]
		j := strings.Index(s[i+3:], delim)
		if j < 0 {
			return "", len(s), false
		}
		return s[i+3 : i+3+j], i + 3 + j + 3, true
	}
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '\n':
			return "", j, false
		case q:
			return s[i+1 : j], j + 1, true
		}
	}
	return "", len(s), false
}

// ParseCondaEnv reads a conda environment file: conda match specs under
// dependencies, and PEP 508 requirements under its pip: list.
func ParseCondaEnv(rel string, data []byte) []Declared {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil || len(doc.Content) == 0 {
		return nil
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil
	}
	var out []Declared
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value != "dependencies" || root.Content[i+1].Kind != yaml.SequenceNode {
			continue
		}
		for _, item := range root.Content[i+1].Content {
			switch item.Kind {
			case yaml.ScalarNode:
				if d, ok := condaDecl(item.Value, rel, item.Line); ok {
					out = append(out, d)
				}
			case yaml.MappingNode:
				for k := 0; k+1 < len(item.Content); k += 2 {
					if item.Content[k].Value != "pip" || item.Content[k+1].Kind != yaml.SequenceNode {
						continue
					}
					for _, p := range item.Content[k+1].Content {
						if p.Kind != yaml.ScalarNode {
							continue
						}
						if d, ok := pythonDecl(p.Value, rel, p.Line, p.Value); ok {
							out = append(out, d)
						}
					}
				}
			}
		}
	}
	return out
}

// condaDecl reads one conda match spec: [channel::]name[ op version[ build]]
// or name=version[=build].
func condaDecl(spec, rel string, line int) (Declared, bool) {
	text := strings.TrimSpace(spec)
	s := text
	if i := strings.LastIndex(s, "::"); i >= 0 {
		s = s[i+2:]
	}
	if strings.ContainsAny(s, "[]") {
		return Declared{}, false // bracket syntax: rare, not read
	}
	j := 0
	for j < len(s) && (isIdentByte(s[j]) || s[j] == '-' || s[j] == '.') {
		j++
	}
	if !sparkPythonPackages[normalizeName(s[:j])] {
		return Declared{}, false
	}
	rest := strings.TrimSpace(s[j:])
	if strings.HasPrefix(rest, "=") && !strings.HasPrefix(rest, "==") {
		// name=version=build: the build string says nothing of the
		// version.
		if k := strings.IndexByte(rest[1:], '='); k >= 0 {
			rest = rest[:k+1]
		}
	}
	return specDecl(rest, conda, rel, line, text)
}
