package skills

import (
	"errors"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func skill(t *testing.T, name, desc string, extra map[string]string) *Skill {
	t.Helper()
	src := "---\nname: " + name + "\ndescription: " + desc + "\n---\n# " + name + "\n"
	s, err := Parse(name+"/SKILL.md", name, []byte(src))
	require.NoError(t, err)
	for k, v := range extra {
		s.Files[k] = []byte(v)
	}
	return s
}

// tree lists every file and folder below dir with file contents.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	require.NoError(t, filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		require.NoError(t, err)
		rel, _ := filepath.Rel(dir, p)
		if rel == "." {
			return nil
		}
		if d.IsDir() {
			out[filepath.ToSlash(rel)+"/"] = ""
			return nil
		}
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		out[filepath.ToSlash(rel)] = string(b)
		return nil
	}))
	return out
}

func TestInstallWritesEachFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "agent", "skills") // created on demand
	a := skill(t, "alpha", "first", map[string]string{"references/REF.md": "ref\n"})
	b := skill(t, "beta", "second", nil)
	got, err := Install(dir, []*Skill{a, b}, false)
	require.NoError(t, err)
	assert.Equal(t, []Installed{
		{Name: "alpha", Path: filepath.Join(dir, "alpha"), Status: StatusInstalled},
		{Name: "beta", Path: filepath.Join(dir, "beta"), Status: StatusInstalled},
	}, got)
	assert.Equal(t, map[string]string{
		"alpha/": "", "alpha/SKILL.md": string(a.Source()), "alpha/references/": "", "alpha/references/REF.md": "ref\n",
		"beta/": "", "beta/SKILL.md": string(b.Source()),
	}, tree(t, dir))
	st, err := os.Stat(filepath.Join(dir, "alpha"))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o755), st.Mode().Perm())

	// What was installed loads back as the same skills.
	back, err := Load(os.DirFS(dir), dir)
	require.NoError(t, err)
	require.Len(t, back, 2)
	assert.Equal(t, a.Files, back[0].Files)

	// Installing again changes nothing.
	got, err = Install(dir, []*Skill{a, b}, false)
	require.NoError(t, err)
	assert.Equal(t, StatusUnchanged, got[0].Status)
	assert.Equal(t, StatusUnchanged, got[1].Status)
}

func TestInstallRefusesToOverwriteADifferentSkill(t *testing.T) {
	dir := t.TempDir()
	old := skill(t, "alpha", "an older version", nil)
	keep := skill(t, "beta", "same", nil)
	_, err := Install(dir, []*Skill{old, keep}, false)
	require.NoError(t, err)
	before := tree(t, dir)

	cases := map[string]func(){
		"edited SKILL.md": func() {},
		"an extra file": func() {
			require.NoError(t, os.WriteFile(filepath.Join(dir, "alpha", "notes.txt"), []byte("mine"), 0o644))
		},
	}
	for name, prepare := range cases {
		t.Run(name, func(t *testing.T) {
			prepare()
			before = tree(t, dir)
			newer := skill(t, "alpha", "a newer version", nil)
			gamma := skill(t, "gamma", "new", nil)
			_, err := Install(dir, []*Skill{gamma, keep, newer}, false)
			var ce *ConflictError
			require.True(t, errors.As(err, &ce), "%v", err)
			assert.Equal(t, []string{"alpha"}, ce.Folders)
			assert.Contains(t, err.Error(), "already holds a different skill folder: alpha (replace with --force)")
			assert.Equal(t, before, tree(t, dir), "nothing written, not even the new skill")
		})
	}

	// A file where the folder should be is a conflict too.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "delta"), []byte("file"), 0o644))
	_, err = Install(dir, []*Skill{skill(t, "delta", "d", nil)}, false)
	var ce *ConflictError
	require.True(t, errors.As(err, &ce), "%v", err)

	// --force replaces the folder whole: the extra file is gone.
	newer := skill(t, "alpha", "a newer version", nil)
	got, err := Install(dir, []*Skill{newer, keep, skill(t, "delta", "d", nil)}, true)
	require.NoError(t, err)
	assert.Equal(t, []Status{StatusReplaced, StatusUnchanged, StatusReplaced}, []Status{got[0].Status, got[1].Status, got[2].Status})
	after := tree(t, dir)
	assert.Equal(t, string(newer.Source()), after["alpha/SKILL.md"])
	assert.NotContains(t, after, "alpha/notes.txt")
	assert.Equal(t, []string{"alpha/", "alpha/SKILL.md", "beta/", "beta/SKILL.md", "delta/", "delta/SKILL.md"}, sortedKeys(after), "no temporary or backup folders left")
}

func TestInstallLeavesNothingWhenAWriteFails(t *testing.T) {
	dir := t.TempDir()
	good := skill(t, "alpha", "fine", nil)
	// "x" is written as a file, then "x/y" needs it to be a folder: the
	// second skill's staging fails after the first was staged.
	bad := skill(t, "beta", "breaks while staged", map[string]string{"x": "file", "x/y": "under a file"})
	_, err := Install(dir, []*Skill{good, bad}, false)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "install beta")
	assert.Empty(t, tree(t, dir), "no folder of the set, no temporary folder")

	// The same when replacing: the old folders stay as they were.
	_, err = Install(dir, []*Skill{skill(t, "alpha", "old", nil)}, false)
	require.NoError(t, err)
	before := tree(t, dir)
	_, err = Install(dir, []*Skill{good, bad}, true)
	require.Error(t, err)
	assert.Equal(t, before, tree(t, dir))
}

func TestInstallValidatesFirst(t *testing.T) {
	dir := t.TempDir()
	bad := skill(t, "alpha", "d", nil)
	bad.Files[FileName] = []byte("---\nname: Alpha\ndescription: d\n---\n")
	_, err := Install(dir, []*Skill{skill(t, "beta", "d", nil), bad}, false)
	var ve *ValidationError
	require.True(t, errors.As(err, &ve), "%v", err)
	assert.Equal(t, `alpha/SKILL.md:2: name "Alpha" may hold only lowercase letters a-z, digits and hyphens`, err.Error())
	assert.Empty(t, tree(t, dir))

	escape := skill(t, "gamma", "d", map[string]string{"../evil": "x"})
	_, err = Install(dir, []*Skill{escape}, false)
	assert.ErrorContains(t, err, `skill gamma: file "../evil" is outside its folder`)
	_, err = Install(dir, []*Skill{skill(t, "beta", "d", nil), skill(t, "beta", "e", nil)}, false)
	assert.ErrorContains(t, err, "skill beta is given twice")
	assert.Empty(t, tree(t, dir))
}

func sortedKeys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
