package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runWith runs udfx in-process like runCLI, through a command tree that
// has the skills, scaffold and mcp commands whether or not root.go lists
// them yet.
func runWith(t *testing.T, dir string, args ...string) (string, string, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	e := &env{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, WorkDir: dir}
	root := newRootCmd(e)
	have := map[string]bool{}
	for _, c := range root.Commands() {
		have[c.Name()] = true
	}
	for name, mk := range map[string]func(*env) *cobra.Command{"skills": newSkillsCmd, "scaffold": newScaffoldCmd, "mcp": newMCPCmd} {
		if !have[name] {
			root.AddCommand(mk(e))
		}
	}
	root.SetArgs(args)
	err := root.Execute()
	if err != nil {
		stderr.WriteString("udfx: " + err.Error() + "\n")
	}
	return stdout.String(), stderr.String(), exitCode(err)
}

// checkGolden compares one output with a golden file, or rewrites it under
// -update (the same flag and rules as TestGolden).
func checkGolden(t *testing.T, dir, name, got string) {
	t.Helper()
	p := filepath.Join(dir, name)
	if *update || os.Getenv("UDFX_UPDATE_GOLDEN") == "1" {
		if got == "" && name != "stdout.golden" {
			_ = os.Remove(p)
			return
		}
		require.NoError(t, os.WriteFile(p, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(p)
	if os.IsNotExist(err) && name != "stdout.golden" {
		want, err = nil, nil
	}
	require.NoError(t, err)
	assert.Equal(t, string(want), got, "%s differs (regenerate with -update and review the diff)", p)
}

func checkGoldenRun(t *testing.T, dir, stdout, stderr string, code int) {
	t.Helper()
	checkGolden(t, dir, "stdout.golden", stdout)
	checkGolden(t, dir, "stderr.golden", stderr)
	codeText := ""
	if code != 0 {
		codeText = strconv.Itoa(code) + "\n"
	}
	checkGolden(t, dir, "exit-code", codeText)
}

// The skills-* golden cases are ordinary TestGolden cases; this runs them
// through runWith too, so they hold before root.go lists the command.
func TestSkillsGolden(t *testing.T) {
	cases, err := filepath.Glob(filepath.Join("testdata", "golden", "skills-*", "cmd"))
	require.NoError(t, err)
	require.NotEmpty(t, cases)
	for _, cmdFile := range cases {
		dir := filepath.Dir(cmdFile)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			line, err := os.ReadFile(cmdFile)
			require.NoError(t, err)
			stdout, stderr, code := runWith(t, repoRoot(t), strings.Fields(string(line))...)
			checkGoldenRun(t, dir, stdout, stderr, code)
		})
	}
}

func TestSkillsShowPrintsEachSKILLmd(t *testing.T) {
	for _, name := range []string{"scaffold", "convert", "benchmark", "optimize"} {
		stdout, stderr, code := runWith(t, repoRoot(t), "skills", "show", name)
		require.Equal(t, exitOK, code, stderr)
		want, err := os.ReadFile(filepath.Join(repoRoot(t), "skills", name, "SKILL.md"))
		require.NoError(t, err)
		assert.Equal(t, string(want), stdout)
	}
}

func TestSkillsListJSON(t *testing.T) {
	stdout, _, code := runWith(t, repoRoot(t), "skills", "list", "--format", "json")
	require.Equal(t, exitOK, code)
	var doc struct {
		Skills []struct{ Name, Description, Path string }
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &doc))
	require.Len(t, doc.Skills, 4)
	for _, s := range doc.Skills {
		assert.Equal(t, "skills/"+s.Name+"/SKILL.md", s.Path)
		assert.NotEmpty(t, s.Description)
	}
}

func TestSkillsInstall(t *testing.T) {
	work := t.TempDir()
	stdout, stderr, code := runWith(t, work, "skills", "install", ".agents/skills")
	require.Equal(t, exitOK, code, stderr)
	assert.Equal(t, `installed  benchmark  .agents/skills/benchmark/SKILL.md
installed  convert    .agents/skills/convert/SKILL.md
installed  optimize   .agents/skills/optimize/SKILL.md
installed  scaffold   .agents/skills/scaffold/SKILL.md
`, stdout)
	for _, name := range []string{"scaffold", "convert", "benchmark", "optimize"} {
		got, err := os.ReadFile(filepath.Join(work, ".agents", "skills", name, "SKILL.md"))
		require.NoError(t, err)
		want, err := os.ReadFile(filepath.Join(repoRoot(t), "skills", name, "SKILL.md"))
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got))
	}
	// What was installed validates.
	stdout, stderr, code = runWith(t, work, "skills", "validate", ".agents/skills")
	require.Equal(t, exitOK, code, stderr)
	assert.Equal(t, "ok  benchmark  .agents/skills/benchmark/SKILL.md\nok  convert  .agents/skills/convert/SKILL.md\nok  optimize  .agents/skills/optimize/SKILL.md\nok  scaffold  .agents/skills/scaffold/SKILL.md\n", stdout)

	// Again: nothing to do.
	stdout, _, code = runWith(t, work, "skills", "install", ".agents/skills", "convert", "--format", "json")
	require.Equal(t, exitOK, code)
	assert.JSONEq(t, `{"dir": ".agents/skills", "skills": [{"name": "convert", "path": ".agents/skills/convert", "status": "unchanged"}]}`, stdout)

	// An edited copy is not overwritten without --force.
	edited := filepath.Join(work, ".agents", "skills", "convert", "SKILL.md")
	require.NoError(t, os.WriteFile(edited, []byte("---\nname: convert\ndescription: my own\n---\n"), 0o644))
	_, stderr, code = runWith(t, work, "skills", "install", ".agents/skills")
	assert.Equal(t, exitUsage, code)
	assert.Equal(t, "udfx: .agents/skills already holds a different skill folder: convert (replace with --force)\n", stderr)
	b, err := os.ReadFile(edited)
	require.NoError(t, err)
	assert.Equal(t, "---\nname: convert\ndescription: my own\n---\n", string(b))

	stdout, stderr, code = runWith(t, work, "skills", "install", ".agents/skills", "--force")
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stdout, "replaced   convert    .agents/skills/convert/SKILL.md\n")
	assert.Contains(t, stdout, "unchanged  scaffold   .agents/skills/scaffold/SKILL.md\n")
	entries, err := os.ReadDir(filepath.Join(work, ".agents", "skills"))
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	assert.Equal(t, []string{"benchmark", "convert", "optimize", "scaffold"}, names, "no temporary folders left")

	_, stderr, code = runWith(t, work, "skills", "install", ".agents/skills", "nope")
	assert.Equal(t, exitUsage, code)
	assert.Equal(t, "udfx: no skill named \"nope\" (udfx has benchmark, convert, optimize, scaffold)\n", stderr)
}

func TestSkillsValidate(t *testing.T) {
	work := t.TempDir()
	write := func(rel, content string) {
		p := filepath.Join(work, rel)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	write("mine/good-one/SKILL.md", "---\nname: good-one\ndescription: Does a thing. Use when asked.\n---\n")
	write("mine/Bad/SKILL.md", "---\nname: Bad\ndescription: d\nauthor: me\n---\n")
	write("mine/other/SKILL.md", "---\nname: another\ndescription: \"\"\n---\n")

	stdout, stderr, code := runWith(t, work, "skills", "validate", "mine")
	assert.Equal(t, exitFailed, code)
	assert.Equal(t, `mine/Bad/SKILL.md:2: name "Bad" may hold only lowercase letters a-z, digits and hyphens
mine/Bad/SKILL.md:4: unknown field "author": the Agent Skills fields are name, description, license, compatibility, metadata, allowed-tools
mine/other/SKILL.md:2: name "another" must equal the name of its folder, "other"
mine/other/SKILL.md:3: description must not be empty: say what the skill does and when to use it
`, stdout)
	assert.Equal(t, "udfx: 4 problems in mine\n", stderr)

	// One skill folder on its own.
	stdout, _, code = runWith(t, work, "skills", "validate", "mine/good-one")
	require.Equal(t, exitOK, code)
	assert.Equal(t, "ok  good-one  mine/good-one/SKILL.md\n", stdout)

	_, stderr, code = runWith(t, work, "skills", "validate", ".")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "holds no skill")
	_, _, code = runWith(t, work, "skills", "validate", "missing")
	assert.Equal(t, exitUsage, code)

	// udfx's own skills folder validates.
	stdout, _, code = runWith(t, repoRoot(t), "skills", "validate", "skills")
	require.Equal(t, exitOK, code)
	assert.Equal(t, 4, strings.Count(stdout, "ok  "))
}
