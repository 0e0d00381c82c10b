// Package skills loads, validates and installs skill folders in the Agent
// Skills format (https://agentskills.io/specification): a folder holding a
// SKILL.md that starts with YAML front matter naming the skill and saying
// when to use it. udfx ships one skill per rewrite stage (the embedded
// skills.FS); outside coding agents read them from the folders `udfx skills
// install` writes.
package skills

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	builtin "github.com/udfx/udfx/skills"
)

// FileName is the file that makes a folder a skill.
const FileName = "SKILL.md"

// Limits of the specification.
const (
	MaxNameLen          = 64
	MaxDescriptionLen   = 1024
	MaxCompatibilityLen = 500
)

// Skill is one skill folder.
type Skill struct {
	Name          string            `json:"name"`
	Description   string            `json:"description"`
	License       string            `json:"license,omitempty"`
	Compatibility string            `json:"compatibility,omitempty"`
	Metadata      map[string]string `json:"metadata,omitempty"`
	AllowedTools  []string          `json:"allowed_tools,omitempty"`
	// Path is where SKILL.md was read from, for messages.
	Path string `json:"path"`
	// Body is the Markdown after the front matter.
	Body string `json:"-"`
	// Files are the folder's files by slash-separated path relative to the
	// folder, SKILL.md included: what Install writes.
	Files map[string][]byte `json:"-"`
}

// Source returns the skill's SKILL.md as read.
func (s *Skill) Source() []byte { return s.Files[FileName] }

// Problem is one rule a SKILL.md breaks, at a line of it.
type Problem struct {
	File string
	Line int
	Msg  string
}

func (p *Problem) Error() string { return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Msg) }

// ValidationError lists every problem found in one or more skills, so one
// run shows them all.
type ValidationError struct{ Problems []*Problem }

func (e *ValidationError) Error() string {
	msgs := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		msgs[i] = p.Error()
	}
	return strings.Join(msgs, "\n")
}

// fields are the front matter keys the specification defines; the
// reference validator (skills-ref) rejects any other, and so do we, so a
// skill udfx accepts is accepted everywhere.
var fields = []string{"name", "description", "license", "compatibility", "metadata", "allowed-tools"}

// Builtin returns udfx's own skills, one per rewrite stage.
func Builtin() ([]*Skill, error) {
	return Load(builtin.FS, "skills")
}

// Load reads every skill folder directly under the root of fsys: each
// folder with a SKILL.md. display prefixes paths in messages (the folder
// fsys stands for). The skills come sorted by name. A folder breaking a
// rule makes Load return a *ValidationError naming every problem.
func Load(fsys fs.FS, display string) ([]*Skill, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("read skills folder %s: %w", display, err)
	}
	var out []*Skill
	var problems []*Problem
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if _, err := fs.Stat(fsys, path.Join(e.Name(), FileName)); err != nil {
			continue
		}
		s, err := LoadFolder(fsys, e.Name(), path.Join(display, e.Name()))
		if err != nil {
			var ve *ValidationError
			if errors.As(err, &ve) {
				problems = append(problems, ve.Problems...)
				continue
			}
			return nil, err
		}
		out = append(out, s)
	}
	if len(problems) > 0 {
		return nil, &ValidationError{Problems: problems}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// LoadFolder reads and validates the skill in folder dir of fsys, with
// every file in it. display is the folder's path for messages.
func LoadFolder(fsys fs.FS, dir, display string) (*Skill, error) {
	src, err := fs.ReadFile(fsys, path.Join(dir, FileName))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path.Join(display, FileName), err)
	}
	s, err := Parse(path.Join(display, FileName), path.Base(dir), src)
	if err != nil {
		return nil, err
	}
	s.Files = map[string][]byte{}
	err = fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s: only regular files can be installed", path.Join(display, strings.TrimPrefix(p, dir+"/")))
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		s.Files[strings.TrimPrefix(p, dir+"/")] = b
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read skill %s: %w", display, err)
	}
	return s, nil
}

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// Parse reads one SKILL.md. file names it in messages; folder is the name
// of the folder holding it, which the skill's name must equal. Problems
// come back as a *ValidationError with the line of each in the file.
func Parse(file, folder string, src []byte) (*Skill, error) {
	p := &skillParser{file: file}
	front, body, end, ok := p.splitFrontMatter(src)
	if !ok {
		return nil, p.fail()
	}
	s := &Skill{Path: file, Body: body}
	m, ok := p.frontMatter(front, end)
	if !ok {
		return nil, p.fail()
	}
	p.readFields(s, m, folder)
	if len(p.problems) > 0 {
		return nil, p.fail()
	}
	s.Files = map[string][]byte{FileName: bytes.Clone(src)}
	return s, nil
}

// skillParser collects the problems of one SKILL.md.
type skillParser struct {
	file     string
	problems []*Problem
}

func (p *skillParser) add(line int, format string, args ...any) {
	p.problems = append(p.problems, &Problem{File: p.file, Line: line, Msg: fmt.Sprintf(format, args...)})
}

func (p *skillParser) fail() error { return &ValidationError{Problems: p.problems} }

// splitFrontMatter splits src into the front matter's text and the body
// after it; end is the index of the closing "---" line.
func (p *skillParser) splitFrontMatter(src []byte) (front, body string, end int, ok bool) {
	if !utf8.Valid(src) {
		p.add(1, "SKILL.md is not UTF-8 text")
		return "", "", 0, false
	}
	lines := strings.SplitAfter(string(src), "\n")
	if len(lines) == 0 || trimEOL(lines[0]) != "---" {
		p.add(1, "SKILL.md must start with YAML front matter: a line \"---\", the fields, and a closing \"---\"")
		return "", "", 0, false
	}
	end = -1
	for i := 1; i < len(lines); i++ {
		if trimEOL(lines[i]) == "---" {
			end = i
			break
		}
	}
	if end < 0 {
		p.add(1, "the front matter opened here is never closed by a \"---\" line")
		return "", "", 0, false
	}
	return strings.Join(lines[1:end], ""), strings.Join(lines[end+1:], ""), end, true
}

// frontMatter parses the front matter as YAML and returns its mapping
// of fields (an empty one for empty front matter).
func (p *skillParser) frontMatter(front string, end int) (*yaml.Node, bool) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(front), &doc); err != nil {
		// yaml counts lines from the front matter's first line, the
		// file's second; for some errors it names the line where the
		// construct began, so the line is a close hint, kept inside the
		// front matter.
		if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
			n, _ := strconv.Atoi(m[1])
			p.add(min(max(n+1, 2), end+1), "front matter is not valid YAML: %s", m[2])
		} else {
			p.add(2, "front matter is not valid YAML: %s", strings.TrimPrefix(err.Error(), "yaml: "))
		}
		return nil, false
	}
	switch {
	case doc.Kind == 0 || len(doc.Content) == 0:
		return &yaml.Node{Kind: yaml.MappingNode}, true
	case doc.Content[0].Kind == yaml.MappingNode:
		return doc.Content[0], true
	default:
		p.add(doc.Content[0].Line+1, "front matter must be a mapping of fields (name: ..., description: ...)")
		return nil, false
	}
}

// readFields reads the fields of mapping m into s, checking each, and
// that name and description are there.
func (p *skillParser) readFields(s *Skill, m *yaml.Node, folder string) {
	seen := map[string]int{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		line := k.Line + 1
		key := k.Value
		if prev, dup := seen[key]; dup {
			p.add(line, "field %q is given twice (first at line %d)", key, prev)
			continue
		}
		seen[key] = line
		switch key {
		case "name":
			p.name(s, v, line, folder)
		case "description":
			s.Description = p.text(key, v, line, MaxDescriptionLen, "description must not be empty: say what the skill does and when to use it")
		case "license":
			s.License = p.text(key, v, line, 0, "")
		case "compatibility":
			s.Compatibility = p.text(key, v, line, MaxCompatibilityLen, "compatibility must not be empty when given")
		case "metadata":
			p.metadata(s, v, line)
		case "allowed-tools":
			p.allowedTools(s, v, line)
		default:
			p.add(line, "unknown field %q: the Agent Skills fields are %s", key, strings.Join(fields, ", "))
		}
	}
	if _, ok := seen["name"]; !ok {
		p.add(1, "the front matter has no name")
	}
	if _, ok := seen["description"]; !ok {
		p.add(1, "the front matter has no description")
	}
}

// text reads a string field; with max > 0 it must also be non-blank
// (blank is the message) and at most max characters long.
func (p *skillParser) text(field string, v *yaml.Node, line, max int, blank string) string {
	t, ok := str(v)
	if !ok {
		p.add(line, "%s must be a string", field)
		return ""
	}
	if max > 0 {
		switch n := utf8.RuneCountInString(t); {
		case strings.TrimSpace(t) == "":
			p.add(line, "%s", blank)
		case n > max:
			p.add(line, "%s is %d characters long; at most %d are allowed", field, n, max)
		}
	}
	return t
}

// name reads the name field, which must follow the specification's
// rules and equal the folder's name.
func (p *skillParser) name(s *Skill, v *yaml.Node, line int, folder string) {
	name, ok := str(v)
	if !ok {
		p.add(line, "name must be a string")
		return
	}
	s.Name = name
	for _, msg := range nameProblems(name) {
		p.add(line, "%s", msg)
	}
	if len(nameProblems(name)) == 0 && name != folder {
		p.add(line, "name %q must equal the name of its folder, %q", name, folder)
	}
}

// metadata reads the metadata field: a mapping of strings to strings.
func (p *skillParser) metadata(s *Skill, v *yaml.Node, line int) {
	if v.Kind != yaml.MappingNode {
		p.add(line, "metadata must be a mapping of string keys to string values")
		return
	}
	s.Metadata = map[string]string{}
	for j := 0; j+1 < len(v.Content); j += 2 {
		mk, mv := v.Content[j], v.Content[j+1]
		key, kok := str(mk)
		val, vok := str(mv)
		if !kok || !vok {
			p.add(mk.Line+1, "metadata %q must map a string to a string (quote values such as \"1.0\")", mk.Value)
			continue
		}
		s.Metadata[key] = val
	}
}

// allowedTools reads the allowed-tools field: a space-separated string
// or a list of strings.
func (p *skillParser) allowedTools(s *Skill, v *yaml.Node, line int) {
	switch v.Kind {
	case yaml.ScalarNode:
		t, ok := str(v)
		if !ok {
			p.add(line, "allowed-tools must be a space-separated string or a list of strings")
			return
		}
		s.AllowedTools = strings.Fields(t)
	case yaml.SequenceNode:
		for _, it := range v.Content {
			t, ok := str(it)
			if !ok {
				p.add(it.Line+1, "allowed-tools must list strings")
				continue
			}
			s.AllowedTools = append(s.AllowedTools, t)
		}
	default:
		p.add(line, "allowed-tools must be a space-separated string or a list of strings")
	}
}

// nameProblems checks a name against the specification's rules.
func nameProblems(name string) []string {
	var out []string
	switch n := utf8.RuneCountInString(name); {
	case n == 0:
		return []string{"name must not be empty"}
	case n > MaxNameLen:
		out = append(out, fmt.Sprintf("name is %d characters long; at most %d are allowed", n, MaxNameLen))
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			out = append(out, fmt.Sprintf("name %q may hold only lowercase letters a-z, digits and hyphens", name))
			break
		}
	}
	if strings.HasPrefix(name, "-") || strings.HasSuffix(name, "-") {
		out = append(out, fmt.Sprintf("name %q must not start or end with a hyphen", name))
	}
	if strings.Contains(name, "--") {
		out = append(out, fmt.Sprintf("name %q must not hold two hyphens in a row", name))
	}
	return out
}

// ValidName reports whether name follows the specification's name rules.
func ValidName(name string) bool { return len(nameProblems(name)) == 0 }

// str returns a scalar's value when YAML reads it as a string. The
// specification wants strings, and YAML reads `version: 1.0` as a number
// and `name: true` as a boolean: those must be quoted.
func str(n *yaml.Node) (string, bool) {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" {
		return "", false
	}
	return n.Value, true
}

func trimEOL(s string) string {
	return strings.TrimSuffix(strings.TrimSuffix(s, "\n"), "\r")
}
