package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/internal/applyjournal"
	"github.com/udfx/udfx/internal/patch"
	"github.com/udfx/udfx/internal/treetest"
)

const celsiusPath = "examples/python-celsius/celsius.py"

func repoTree(t *testing.T, root string) map[string]string {
	return treetest.Snapshot(t, root, ".git", patch.WorkspaceDirName)
}

// killApply runs an apply of to_fahrenheit's rewrite into repo and kills
// it after both new files and before the source are renamed into place:
// the tree is half-applied.
func killApply(t *testing.T, repo string) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(repo, celsiusPath))
	require.NoError(t, err)
	files := []applyjournal.File{
		{Path: "udfx-rewrites/to_fahrenheit/rewrite.sql", New: []byte("celsius * 9.0D / 5.0D + 32.0D\n")},
		{Path: "udfx-rewrites/to_fahrenheit/evidence.json", New: []byte("{}\n")},
		{Path: celsiusPath, Old: src, New: append([]byte("# rewritten\n"), src...)},
	}
	c := &applyjournal.Commit{Root: repo, Dir: patch.JournalDir(repo, "to_fahrenheit"), UDF: "to_fahrenheit", Files: files,
		AfterStep: func(step int) error {
			if step == len(files)+3 {
				return errors.New("killed")
			}
			return nil
		}}
	require.Error(t, c.Run())
}

const rolledBack = "udfx: rolled back an interrupted --apply of to_fahrenheit: removed udfx-rewrites/to_fahrenheit/evidence.json, udfx-rewrites/to_fahrenheit/rewrite.sql\n"

// verify fails on a half-applied tree and changes nothing; every command
// that reads the repository rolls it back first, saying so on stderr, and
// then goes on (here into a usage error of its own); verify then passes.
func TestAnInterruptedApplyIsRolledBackBeforeTheCommandRuns(t *testing.T) {
	repo := scaffoldRepo(t)
	old := repoTree(t, repo)
	for _, args := range [][]string{
		{"rewrite", "--recover"},
		{"rewrite", celsiusPath, "--rows", "0"},
		{"test", celsiusPath},
		{"scaffold", celsiusPath + ":to_fahrenheit", "--rows", "0"},
		{"bench", celsiusPath, "--rows", "0"},
	} {
		killApply(t, repo)
		half := repoTree(t, repo)
		require.NotEqual(t, old, half)

		stdout, stderr, code := runCLI(t, repo, "verify", "--skip-rerun", "--format", "json")
		assert.Equal(t, exitFailed, code, stderr)
		var doc struct {
			Items []struct{ UDF, File, Status, Detail string }
		}
		require.NoError(t, json.Unmarshal([]byte(stdout), &doc), stdout)
		var statuses []string
		for _, it := range doc.Items {
			statuses = append(statuses, it.Status)
		}
		assert.Contains(t, statuses, "interrupted-apply")
		assert.NotContains(t, stderr, "rolled back")
		assert.Equal(t, half, repoTree(t, repo), "verify repairs nothing")

		stdout, stderr, code = runCLI(t, repo, args...)
		if args[1] == "--recover" {
			assert.Equal(t, exitOK, code, stderr)
			assert.Equal(t, "1 interrupted --apply rolled back in "+repo+"\n", stdout)
			assert.Equal(t, rolledBack, stderr)
		} else {
			assert.Equal(t, exitUsage, code, "%v: %s", args, stderr)
			assert.Regexp(t, "^"+rolledBack+"udfx: ", stderr, "%v", args)
		}
		assert.Equal(t, old, repoTree(t, repo), "%v", args)
	}

	stdout, stderr, code := runCLI(t, repo, "rewrite", "--recover")
	assert.Equal(t, exitOK, code)
	assert.Equal(t, "0 interrupted --apply rolled back in "+repo+"\n", stdout)
	assert.Empty(t, stderr)
	_, stderr, code = runCLI(t, repo, "verify", "--skip-rerun")
	assert.Equal(t, exitOK, code, stderr)
}

// A file changed since the crash is named and left alone, with exit 4;
// so is a damaged journal.
func TestARollBackThatWouldLoseWorkStops(t *testing.T) {
	repo := scaffoldRepo(t)
	killApply(t, repo)
	mine := filepath.Join(repo, "udfx-rewrites", "to_fahrenheit", "rewrite.sql")
	require.NoError(t, os.WriteFile(mine, []byte("my own edit\n"), 0o644))
	half := repoTree(t, repo)

	_, stderr, code := runCLI(t, repo, "scaffold", celsiusPath, "--rows", "0")
	assert.Equal(t, exitState, code)
	assert.Contains(t, stderr, "udfx: cannot roll back the interrupted --apply of to_fahrenheit: udfx-rewrites/to_fahrenheit/rewrite.sql changed since")
	assert.Equal(t, half, repoTree(t, repo))
	stdout, _, code := runCLI(t, repo, "verify", "--skip-rerun")
	assert.Equal(t, exitFailed, code)
	assert.Contains(t, stdout, "interrupted-apply")

	journal := filepath.Join(patch.JournalDir(repo, "to_fahrenheit"), applyjournal.FileName)
	require.NoError(t, os.WriteFile(journal, []byte("{\"format\": "), 0o644))
	_, stderr, code = runCLI(t, repo, "rewrite", "--recover")
	assert.Equal(t, exitState, code)
	assert.Contains(t, stderr, "the journal of an interrupted --apply is damaged: "+journal)
	assert.Equal(t, half, repoTree(t, repo))
}

func TestRewriteRecoverUsage(t *testing.T) {
	repo := scaffoldRepo(t)
	for _, args := range [][]string{
		{"rewrite", "--recover", celsiusPath},
		{"rewrite", "--recover", "--apply"},
	} {
		_, stderr, code := runCLI(t, repo, args...)
		assert.Equal(t, exitUsage, code, "%v", args)
		assert.Contains(t, stderr, "--recover takes no FILE, --apply or --force", "%v", args)
	}
	_, stderr, code := runCLI(t, repo, "rewrite")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "udfx rewrite takes a UDF (FILE[:NAME]), or files and folders to rewrite every UDF in them")
}
