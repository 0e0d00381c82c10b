package digest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestKeyDelimitsItsParts(t *testing.T) {
	assert.NotEqual(t, Key("ab", "c"), Key("a", "bc"))
	assert.NotEqual(t, Key("a"), Key("a", ""))
	assert.Equal(t, Key("a", "b"), Key("a", "b"))
}

func gitRepo(t *testing.T) (dir string, run func(args ...string), write func(name, text string)) {
	t.Helper()
	dir = t.TempDir()
	run = func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.email=t@example.com", "-c", "user.name=t"}, args...)...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "git %v: %s", args, out)
	}
	write = func(name, text string) {
		t.Helper()
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	run("init", "-q")
	return dir, run, write
}

func TestSourcesFollowsTheFamilysFiles(t *testing.T) {
	dir, run, write := gitRepo(t)
	write(".gitignore", "out/\n")
	write("jobs/a.py", "x = 1\n")
	write("src/A.scala", "object A\n")
	run("add", ".")
	run("commit", "-qm", "base")
	digest := func(f Family) string {
		t.Helper()
		d, err := Sources(context.Background(), dir, f)
		require.NoError(t, err)
		return d
	}
	py, jvm := digest(PythonFamily), digest(JVMFamily)
	assert.NotEqual(t, py, jvm)

	write("src/A.scala", "object A { val b = 2 }\n")
	assert.Equal(t, py, digest(PythonFamily), "a Scala edit leaves Python UDFs")
	assert.NotEqual(t, jvm, digest(JVMFamily))

	write("out/gen.py", "ignored = True\n")
	write("README.md", "docs\n")
	assert.Equal(t, py, digest(PythonFamily), "ignored and unrelated files")
	write("jobs/requirements.txt", "boto3==1.35.0\n")
	assert.NotEqual(t, py, digest(PythonFamily), "a new pin, not yet added to git")
	py = digest(PythonFamily)
	require.NoError(t, os.Remove(filepath.Join(dir, "jobs", "a.py")))
	assert.NotEqual(t, py, digest(PythonFamily), "a file deleted")

	_, err := Sources(context.Background(), t.TempDir(), PythonFamily)
	assert.Error(t, err, "no git repository: no digest, no cache")
}
