package digest

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/internal/treetest"
)

func TestKeyDelimitsItsParts(t *testing.T) {
	assert.NotEqual(t, Key("ab", "c"), Key("a", "bc"))
	assert.NotEqual(t, Key("a"), Key("a", ""))
	assert.Equal(t, Key("a", "b"), Key("a", "b"))
}

func TestSourcesFollowsTheFamilysFiles(t *testing.T) {
	dir, run, write := treetest.GitRepo(t)
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
