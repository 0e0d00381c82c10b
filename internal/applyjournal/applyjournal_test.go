package applyjournal

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/internal/treetest"
)

// errCrash stands for the process being killed after a step.
var errCrash = errors.New("killed")

// snapshot is the tree below root, modes included, .udfx (where
// journals live) left out.
func snapshot(t *testing.T, root string) map[string]string {
	return treetest.Snapshot(t, root, ".udfx")
}

// fixture is a repository and the apply of a rewrite to it: two source
// files replaced (one executable), a file added to an existing folder,
// two files in folders the apply creates.
type fixture struct {
	root  string
	dir   string
	files []File
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	root := t.TempDir()
	write := func(rel, content string, mode fs.FileMode) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), mode))
		require.NoError(t, os.Chmod(p, mode))
	}
	write("jobs/celsius.py", "df.select(to_fahrenheit(col('c')))\n", 0o644)
	write("jobs/run.sh", "spark-submit jobs/celsius.py\n", 0o755)
	write("README.md", "jobs\n", 0o644)
	return &fixture{
		root: root,
		dir:  filepath.Join(root, ".udfx", "to_fahrenheit", "apply-journal"),
		files: []File{
			{Path: "udfx-rewrites/to_fahrenheit/rewrite.sql", New: []byte("celsius * 1.8D + 32.0D\n")},
			{Path: "udfx-rewrites/to_fahrenheit/evidence.json", New: []byte("{}\n")},
			{Path: "jobs/celsius.py", Old: []byte("df.select(to_fahrenheit(col('c')))\n"), New: []byte("df.select(expr('c * 1.8D + 32.0D'))\n")},
			{Path: "jobs/run.sh", Old: []byte("spark-submit jobs/celsius.py\n"), New: []byte("spark-submit --conf x jobs/celsius.py\n")},
			{Path: "jobs/NOTES", New: []byte("rewritten\n")},
		},
	}
}

// crashAfter runs the commit and kills it after step k.
func (f *fixture) crashAfter(t *testing.T, k int) {
	t.Helper()
	c := &Commit{Root: f.root, Dir: f.dir, UDF: "to_fahrenheit", Files: f.files, AfterStep: func(step int) error {
		if step == k {
			return errCrash
		}
		return nil
	}}
	require.ErrorIs(t, c.Run(), errCrash)
}

// A crash after any step but the last leaves an open journal, and the
// roll back gives back the old tree byte for byte, modes included; the
// folders the apply created are gone. After the last step the apply is
// committed: the tree is the new one and there is nothing to roll back.
func TestACrashAfterAnyStepRollsBackToTheOldTree(t *testing.T) {
	steps := Steps(len(newFixture(t).files))
	require.Equal(t, 12, steps)
	for k := 1; k <= steps; k++ {
		t.Run(fmt.Sprint("step ", k), func(t *testing.T) {
			f := newFixture(t)
			old := snapshot(t, f.root)
			f.crashAfter(t, k)
			if k == steps {
				assert.False(t, IsOpen(f.dir), "the apply is committed")
				tree := snapshot(t, f.root)
				assert.Equal(t, "-rw-r--r--\ndf.select(expr('c * 1.8D + 32.0D'))\n", tree["jobs/celsius.py"])
				assert.Equal(t, "-rwxr-xr-x\nspark-submit --conf x jobs/celsius.py\n", tree["jobs/run.sh"], "the new content keeps the old file's mode")
				_, err := Recover(f.root, f.dir)
				assert.ErrorIs(t, err, fs.ErrNotExist)
				return
			}
			require.True(t, IsOpen(f.dir))
			j, err := Open(f.root, f.dir)
			require.NoError(t, err)
			assert.Equal(t, "to_fahrenheit", j.UDF())
			assert.Len(t, j.Files(), len(f.files))
			if k > len(f.files)+1 {
				assert.NotEqual(t, old, snapshot(t, f.root), "after a rename the tree is half-applied")
			}
			rep, err := Recover(f.root, f.dir)
			require.NoError(t, err)
			assert.Equal(t, old, snapshot(t, f.root))
			assert.False(t, IsOpen(f.dir))
			_, err = os.Stat(f.dir)
			assert.ErrorIs(t, err, fs.ErrNotExist, "the journal's folder is removed")
			renamed := k - len(f.files) - 1
			switch {
			case renamed <= 0:
				assert.Equal(t, "no file had been changed yet", rep.Summary())
			case renamed == len(f.files):
				assert.Equal(t, "restored jobs/celsius.py, jobs/run.sh; removed jobs/NOTES, udfx-rewrites/to_fahrenheit/evidence.json, udfx-rewrites/to_fahrenheit/rewrite.sql", rep.Summary())
			default:
				assert.Len(t, append(rep.Restored, rep.Removed...), renamed)
			}
			_, err = Recover(f.root, f.dir)
			assert.ErrorIs(t, err, fs.ErrNotExist, "a second recovery finds nothing")
		})
	}
}

// A file changed between the crash and the recovery is named and not
// overwritten, and nothing else is rolled back either.
func TestRecoverRefusesAFileChangedSince(t *testing.T) {
	f := newFixture(t)
	f.crashAfter(t, Steps(len(f.files))-1)
	p := filepath.Join(f.root, "jobs", "celsius.py")
	require.NoError(t, os.WriteFile(p, []byte("my own edit\n"), 0o644))
	before := snapshot(t, f.root)

	_, err := Recover(f.root, f.dir)
	var ce *ConflictError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, []string{"jobs/celsius.py"}, ce.Files)
	assert.Contains(t, err.Error(), "jobs/celsius.py changed since")
	assert.Contains(t, err.Error(), f.dir)
	assert.Equal(t, before, snapshot(t, f.root), "nothing is rolled back")
	assert.True(t, IsOpen(f.dir), "the journal stays for the user to decide")

	// A folder where a file was is a change too.
	require.NoError(t, os.Remove(p))
	require.NoError(t, os.Mkdir(p, 0o755))
	_, err = Recover(f.root, f.dir)
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, []string{"jobs/celsius.py"}, ce.Files)
	require.NoError(t, os.Remove(p))

	// Putting the new content back lets the roll back run.
	require.NoError(t, os.WriteFile(p, []byte("df.select(expr('c * 1.8D + 32.0D'))\n"), 0o644))
	_, err = Recover(f.root, f.dir)
	require.NoError(t, err)
	assert.Equal(t, "-rw-r--r--\ndf.select(to_fahrenheit(col('c')))\n", snapshot(t, f.root)["jobs/celsius.py"])
}

// A truncated journal, or a damaged copy of an old file, is an error that
// names the file; nothing is changed.
func TestADamagedJournalIsNamed(t *testing.T) {
	t.Run("truncated journal", func(t *testing.T) {
		f := newFixture(t)
		f.crashAfter(t, Steps(len(f.files))-1)
		jp := filepath.Join(f.dir, FileName)
		b, err := os.ReadFile(jp)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(jp, b[:len(b)/2], 0o644))
		before := snapshot(t, f.root)
		_, err = Recover(f.root, f.dir)
		var de *DamagedError
		require.ErrorAs(t, err, &de)
		assert.Equal(t, jp, de.Path)
		assert.Contains(t, err.Error(), jp)
		assert.Equal(t, before, snapshot(t, f.root))
		_, err = Open(f.root, f.dir)
		assert.ErrorAs(t, err, &de)
	})
	t.Run("a path outside the tree", func(t *testing.T) {
		f := newFixture(t)
		f.crashAfter(t, 1)
		jp := filepath.Join(f.dir, FileName)
		j, err := Open(f.root, f.dir)
		require.NoError(t, err)
		j.m.Files[0].Path = "../outside"
		b, err := json.Marshal(j.m)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(jp, b, 0o644))
		_, err = Recover(f.root, f.dir)
		var de *DamagedError
		require.ErrorAs(t, err, &de)
		assert.Contains(t, err.Error(), `file "../outside"`)
	})
	t.Run("damaged copy of an old file", func(t *testing.T) {
		f := newFixture(t)
		f.crashAfter(t, Steps(len(f.files))-1)
		backup := filepath.Join(f.dir, "old-2")
		require.NoError(t, os.WriteFile(backup, []byte("garbage"), 0o600))
		before := snapshot(t, f.root)
		_, err := Recover(f.root, f.dir)
		var de *DamagedError
		require.ErrorAs(t, err, &de)
		assert.Equal(t, backup, de.Path)
		assert.Contains(t, err.Error(), "jobs/celsius.py's old content does not hash as the journal says")
		assert.Equal(t, before, snapshot(t, f.root))
	})
}

// A rename that fails while udfx runs is rolled back at once, through the
// same journal: the files already renamed get their old content back.
func TestAFailedRenameIsRolledBack(t *testing.T) {
	f := newFixture(t)
	old := snapshot(t, f.root)
	n := len(f.files)
	c := &Commit{Root: f.root, Dir: f.dir, UDF: "to_fahrenheit", Files: f.files, AfterStep: func(step int) error {
		if step == n+3 {
			// After two renames, the third file's staged content goes
			// missing, so its rename fails.
			j, err := Open(f.root, f.dir)
			require.NoError(t, err)
			require.NoError(t, os.Remove(j.abs(j.m.Files[2].Staged)))
		}
		return nil
	}}
	err := c.Run()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "apply jobs/celsius.py")
	assert.Contains(t, err.Error(), "(nothing was changed)")
	assert.Equal(t, old, snapshot(t, f.root))
	assert.False(t, IsOpen(f.dir))
}
