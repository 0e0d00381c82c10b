package skills

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The rules come from the Agent Skills specification
// (agentskills/agentskills docs/specification.mdx) and its reference
// validator (skills-ref/src/skills_ref/validator.py), which also rejects
// fields the specification does not define.
func TestParseRules(t *testing.T) {
	long := func(n int) string { return strings.Repeat("a", n) }
	cases := []struct {
		name   string
		folder string
		src    string
		want   []string // "line: message part"; empty: valid
	}{
		{"minimal", "pdf-processing", "---\nname: pdf-processing\ndescription: Extract PDF text. Use with PDFs.\n---\n# Body\n", nil},
		{"all optional fields", "a1-b2", "---\nname: a1-b2\ndescription: d\nlicense: Apache-2.0\ncompatibility: Requires udfx on PATH\nmetadata:\n  author: udfx\n  version: \"1.0\"\nallowed-tools: Bash(udfx:*) Read\n---\n", nil},
		{"allowed-tools as a list", "x", "---\nname: x\ndescription: d\nallowed-tools:\n  - Bash(udfx:*)\n  - Read\n---\n", nil},
		{"CRLF line ends", "x", "---\r\nname: x\r\ndescription: d\r\n---\r\nbody\r\n", nil},
		{"64-character name", long(64), "---\nname: " + long(64) + "\ndescription: d\n---\n", nil},
		{"1024-character description", "x", "---\nname: x\ndescription: " + long(1024) + "\n---\n", nil},
		{"multi-line description", "x", "---\nname: x\ndescription: >\n  First line,\n  second line.\n---\n", nil},

		{"no front matter", "x", "# Title\nname: x\n", []string{"1: SKILL.md must start with YAML front matter"}},
		{"empty file", "x", "", []string{"1: SKILL.md must start with YAML front matter"}},
		{"unclosed front matter", "x", "---\nname: x\ndescription: d\n", []string{"1: the front matter opened here is never closed"}},
		{"missing name and description", "x", "---\nlicense: MIT\n---\n", []string{"1: the front matter has no name", "1: the front matter has no description"}},
		{"empty front matter", "x", "---\n---\n", []string{"1: the front matter has no name", "1: the front matter has no description"}},
		{"uppercase name", "PDF-Processing", "---\nname: PDF-Processing\ndescription: d\n---\n", []string{`2: name "PDF-Processing" may hold only lowercase letters a-z, digits and hyphens`}},
		{"leading hyphen", "-pdf", "---\nname: -pdf\ndescription: d\n---\n", []string{`2: name "-pdf" must not start or end with a hyphen`}},
		{"trailing hyphen", "pdf-", "---\nname: pdf-\ndescription: d\n---\n", []string{`2: name "pdf-" must not start or end with a hyphen`}},
		{"double hyphen", "pdf--processing", "---\nname: pdf--processing\ndescription: d\n---\n", []string{`2: name "pdf--processing" must not hold two hyphens in a row`}},
		{"underscore", "pdf_processing", "---\nname: pdf_processing\ndescription: d\n---\n", []string{`2: name "pdf_processing" may hold only`}},
		{"non-ASCII letter", "café", "---\nname: café\ndescription: d\n---\n", []string{`2: name "café" may hold only`}},
		{"65-character name", long(65), "---\nname: " + long(65) + "\ndescription: d\n---\n", []string{"2: name is 65 characters long; at most 64 are allowed"}},
		{"empty name", "x", "---\nname: \"\"\ndescription: d\n---\n", []string{"2: name must not be empty"}},
		{"name is a number", "x", "---\nname: 12\ndescription: d\n---\n", []string{"2: name must be a string"}},
		{"name differs from folder", "convert", "---\nname: scaffold\ndescription: d\n---\n", []string{`2: name "scaffold" must equal the name of its folder, "convert"`}},
		{"empty description", "x", "---\nname: x\ndescription: \"  \"\n---\n", []string{"3: description must not be empty"}},
		{"null description", "x", "---\nname: x\ndescription:\n---\n", []string{"3: description must be a string"}},
		{"1025-character description", "x", "---\nname: x\ndescription: " + long(1025) + "\n---\n", []string{"3: description is 1025 characters long; at most 1024 are allowed"}},
		{"description counted in characters", "x", "---\nname: x\ndescription: " + strings.Repeat("é", 1024) + "\n---\n", nil},
		{"501-character compatibility", "x", "---\nname: x\ndescription: d\ncompatibility: " + long(501) + "\n---\n", []string{"4: compatibility is 501 characters long; at most 500 are allowed"}},
		{"metadata not a mapping", "x", "---\nname: x\ndescription: d\nmetadata: v1\n---\n", []string{"4: metadata must be a mapping"}},
		{"metadata number value", "x", "---\nname: x\ndescription: d\nmetadata:\n  version: 1.0\n---\n", []string{`5: metadata "version" must map a string to a string`}},
		{"allowed-tools mapping", "x", "---\nname: x\ndescription: d\nallowed-tools:\n  bash: yes\n---\n", []string{"4: allowed-tools must be a space-separated string or a list of strings"}},
		{"unknown field", "x", "---\nname: x\ndescription: d\nversion: 2\n---\n", []string{`4: unknown field "version"`}},
		{"duplicate field", "x", "---\nname: x\ndescription: d\nname: x\n---\n", []string{`4: field "name" is given twice (first at line 2)`}},
		{"front matter a list", "x", "---\n- name\n---\n", []string{"2: front matter must be a mapping"}},
		{"YAML syntax error", "x", "---\nname: x\ndescription: d\nlicense: [MIT\n---\n", []string{"3: front matter is not valid YAML: did not find expected ',' or ']'"}},
		{"YAML error on its line", "x", "---\nname: x\ndescription: d: e\n---\n", []string{"3: front matter is not valid YAML: mapping values are not allowed"}},
		{"several problems at once", "x", "---\nname: X\nlicense: 3\n---\n", []string{`2: name "X" may hold only`, "3: license must be a string", "1: the front matter has no description"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			file := c.folder + "/SKILL.md"
			s, err := Parse(file, c.folder, []byte(c.src))
			if len(c.want) == 0 {
				require.NoError(t, err)
				assert.Equal(t, c.folder, s.Name)
				assert.Equal(t, c.src, string(s.Source()))
				return
			}
			var ve *ValidationError
			require.True(t, errors.As(err, &ve), "want a *ValidationError, got %v", err)
			require.Len(t, ve.Problems, len(c.want), "%v", err)
			for i, w := range c.want {
				assert.True(t, strings.HasPrefix(ve.Problems[i].Error(), file+":"+w), "problem %d: got %q, want prefix %q", i, ve.Problems[i].Error(), file+":"+w)
			}
		})
	}
}

func TestParseFields(t *testing.T) {
	src := "---\nname: a1-b2\ndescription: >-\n  Folded\n  text.\nlicense: Apache-2.0\ncompatibility: Needs udfx\nmetadata:\n  author: udfx\nallowed-tools: Bash(udfx:*)  Read\n---\n# Body\n\ntext\n"
	s, err := Parse("a1-b2/SKILL.md", "a1-b2", []byte(src))
	require.NoError(t, err)
	assert.Equal(t, &Skill{
		Name: "a1-b2", Description: "Folded text.", License: "Apache-2.0", Compatibility: "Needs udfx",
		Metadata: map[string]string{"author": "udfx"}, AllowedTools: []string{"Bash(udfx:*)", "Read"},
		Path: "a1-b2/SKILL.md", Body: "# Body\n\ntext\n", Files: map[string][]byte{"SKILL.md": []byte(src)},
	}, s)
}

var udfxCommand = regexp.MustCompile("`udfx ([a-z]+)")

func TestBuiltinSkillsAreValid(t *testing.T) {
	ss, err := Builtin()
	require.NoError(t, err)
	var names []string
	for _, s := range ss {
		names = append(names, s.Name)
		assert.Equal(t, "skills/"+s.Name+"/SKILL.md", s.Path)
		assert.Equal(t, []string{FileName}, keys(s.Files))
		// Each tells an outside agent to use udfx's commands as its tools
		// and evidence, and names only commands udfx has.
		assert.Contains(t, s.Body, "\n## Tools\n", s.Name)
		cmds := udfxCommand.FindAllStringSubmatch(s.Body, -1)
		assert.NotEmpty(t, cmds, s.Name)
		for _, m := range cmds {
			assert.Contains(t, []string{"scan", "scaffold", "test", "bench", "rewrite", "verify", "skills", "mcp"}, m[1], "%s names udfx %s", s.Name, m[1])
		}
	}
	assert.Equal(t, []string{"benchmark", "convert", "optimize", "scaffold"}, names)
}

func TestLoadReportsEveryBrokenFolder(t *testing.T) {
	fsys := fstest.MapFS{
		"good/SKILL.md":           {Data: []byte("---\nname: good\ndescription: d\n---\n")},
		"good/references/REF.md":  {Data: []byte("ref")},
		"bad/SKILL.md":            {Data: []byte("---\nname: Bad\ndescription: d\n---\n")},
		"worse/SKILL.md":          {Data: []byte("---\nname: worse\n---\n")},
		"not-a-skill/README.md":   {Data: []byte("no SKILL.md here")},
		".hidden-tmp/SKILL.md":    {Data: []byte("broken")},
		"loose-file-at-root.md":   {Data: []byte("x")},
		"other/SKILL.md":          {Data: []byte("---\nname: other\ndescription: d\n---\n")},
		"other/scripts/run.sh":    {Data: []byte("#!/bin/sh\n")},
		"other/scripts/nested/x":  {Data: []byte("x")},
		"other/assets/.gitignore": {Data: []byte("")},
	}
	_, err := Load(fsys, "dir")
	var ve *ValidationError
	require.True(t, errors.As(err, &ve), "%v", err)
	assert.Equal(t, "dir/bad/SKILL.md:2: name \"Bad\" may hold only lowercase letters a-z, digits and hyphens\n"+
		"dir/worse/SKILL.md:1: the front matter has no description", err.Error())

	delete(fsys, "bad/SKILL.md")
	delete(fsys, "worse/SKILL.md")
	ss, err := Load(fsys, "dir")
	require.NoError(t, err)
	require.Len(t, ss, 2)
	assert.Equal(t, "good", ss[0].Name)
	assert.Equal(t, []string{"SKILL.md", "references/REF.md"}, keys(ss[0].Files))
	assert.Equal(t, []string{".gitignore", "SKILL.md", "nested/x", "run.sh"}, baseKeys(ss[1].Files))
}

func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func baseKeys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(k, "scripts/"), "assets/"), "references/"))
	}
	sort.Strings(out)
	return out
}

func TestLoadFolderFromDisk(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "x"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "x", "SKILL.md"), []byte("---\nname: x\ndescription: d\n---\n"), 0o644))
	ss, err := Load(os.DirFS(dir), dir)
	require.NoError(t, err)
	require.Len(t, ss, 1)
	assert.Equal(t, filepath.ToSlash(filepath.Join(dir, "x", "SKILL.md")), ss[0].Path)
}

func FuzzParse(f *testing.F) {
	f.Add("---\nname: x\ndescription: d\n---\nbody")
	f.Add("---\nname: x\ndescription: d\nmetadata:\n  a: b\nallowed-tools: [a, b]\n---\n")
	f.Add("---\n: :\n---\n")
	f.Add("---\nname: &a x\ndescription: *a\n---\n")
	f.Fuzz(func(t *testing.T, src string) {
		s, err := Parse("x/SKILL.md", "x", []byte(src))
		if err != nil {
			var ve *ValidationError
			if !errors.As(err, &ve) || len(ve.Problems) == 0 {
				t.Fatalf("error %v is not a *ValidationError with problems", err)
			}
			for _, p := range ve.Problems {
				if p.Line < 1 || p.Line > strings.Count(src, "\n")+1 {
					t.Fatalf("problem %q points at line %d of a %d-line file", p.Msg, p.Line, strings.Count(src, "\n")+1)
				}
			}
			return
		}
		if s.Name != "x" || strings.TrimSpace(s.Description) == "" {
			t.Fatalf("accepted name %q description %q", s.Name, s.Description)
		}
	})
}
