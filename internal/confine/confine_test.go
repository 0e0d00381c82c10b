package confine

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestJoin(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "repo")
	outside := filepath.Join(base, "outside")
	require.NoError(t, os.MkdirAll(filepath.Join(root, "src"), 0o755))
	require.NoError(t, os.MkdirAll(outside, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(outside, "celsius.py"), nil, 0o644))
	require.NoError(t, os.Symlink(outside, filepath.Join(root, "link")))
	require.NoError(t, os.Symlink(filepath.Join(outside, "celsius.py"), filepath.Join(root, "src", "file-link.py")))
	require.NoError(t, os.Symlink("../src", filepath.Join(root, "inner")))

	for _, c := range []struct {
		rel, want string
	}{
		{"src/celsius.py", ""},
		{"src/new/folder/file.py", ""},
		{"inner/celsius.py", ""},
		{"src/../src/celsius.py", ""},
		{"../outside/celsius.py", "leads outside the repository, to " + filepath.Join(outside, "celsius.py")},
		{"src/../../outside/celsius.py", "leads outside the repository"},
		{"link/celsius.py", "leads outside the repository, to " + filepath.Join(outside, "celsius.py")},
		{"link/new/file.sql", "leads outside the repository, to " + filepath.Join(outside, "new", "file.sql")},
		{"src/file-link.py", "leads outside the repository, to " + filepath.Join(outside, "celsius.py")},
		{"/etc/passwd", "is not a path relative to the repository"},
		{`src\..\..\x`, "is not a path relative to the repository"},
		{"", `"" is not a path relative`},
		{"..", "leads outside the repository"},
	} {
		abs, err := Join(root, c.rel)
		if c.want == "" {
			require.NoError(t, err, c.rel)
			assert.Equal(t, filepath.Join(root, filepath.FromSlash(c.rel)), abs)
			continue
		}
		var oe *OutsideError
		require.ErrorAs(t, err, &oe, c.rel)
		assert.Contains(t, err.Error(), c.want, c.rel)
		assert.Equal(t, c.rel, oe.Path)
	}
}

func FuzzJoin(f *testing.F) {
	root := f.TempDir()
	for _, s := range []string{"a/b", "../x", "a/../../x", "/x", "a\\b", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, rel string) {
		abs, err := Join(root, rel)
		if err != nil {
			return
		}
		r, err := filepath.Rel(root, abs)
		require.NoError(t, err)
		assert.True(t, local(r), "%q joined to %s", rel, abs)
	})
}
