package pyenv

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEnsureCreatesOnceAndSaysSo builds a real (empty) environment with
// the machine's python3: the first call reports its steps, the second
// finds it ready and says nothing; a changed pin set rebuilds it.
func TestEnsureCreatesOnceAndSaysSo(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "python-test")
	var steps []string
	opts := Options{Dir: dir, Requirements: []byte("# no packages\n"), Progress: func(s string) { steps = append(steps, s) }}
	py, err := Ensure(context.Background(), opts)
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(dir, "bin", "python"), py)
	assert.FileExists(t, py)
	require.Len(t, steps, 1, "%q", steps)
	assert.Equal(t, "creating udfx's Python environment in "+dir+" (first run only)", steps[0])

	steps = nil
	_, err = Ensure(context.Background(), opts)
	require.NoError(t, err)
	assert.Empty(t, steps, "a ready environment is reused silently")

	// An interrupted build (no ready marker) is rebuilt, not trusted.
	require.NoError(t, os.Remove(filepath.Join(dir, readyFile)))
	_, err = Ensure(context.Background(), opts)
	require.NoError(t, err)
	assert.Len(t, steps, 1)
}

func TestBasePythonThatIsMissingIsAPrerequisite(t *testing.T) {
	_, err := CheckBasePython(context.Background(), "/nonexistent/python3")
	var pe *PrereqError
	require.ErrorAs(t, err, &pe)
	assert.Contains(t, pe.Msg, "apt-get install python3 python3-venv")
}

func TestFindOrder(t *testing.T) {
	repo := t.TempDir()
	sub := filepath.Join(repo, "jobs", "etl")
	require.NoError(t, os.MkdirAll(filepath.Join(repo, ".venv", "bin"), 0o755))
	require.NoError(t, os.MkdirAll(sub, 0o755))
	venvPy := filepath.Join(repo, ".venv", "bin", "python")
	require.NoError(t, os.WriteFile(venvPy, nil, 0o755))

	env := map[string]string{"UDFX_PYTHON": "/opt/py/bin/python"}
	f, ok := Find(func(k string) string { return env[k] }, sub)
	require.True(t, ok)
	assert.Equal(t, Found{Python: "/opt/py/bin/python", From: "UDFX_PYTHON"}, f)

	f, ok = Find(func(string) string { return "" }, sub)
	require.True(t, ok)
	assert.Equal(t, venvPy, f.Python)
	assert.True(t, strings.HasPrefix(f.From, ".venv in "+repo), f.From)
}

func TestPinned(t *testing.T) {
	assert.Equal(t, "4.1.1", Pinned("pyspark"))
	assert.Empty(t, Pinned("nosuch"))
}

func TestPinnedNames(t *testing.T) {
	assert.Equal(t, []string{"pyspark", "pandas", "pyarrow", "numpy", "numba", "llvmlite", "grpcio", "grpcio-status", "googleapis-common-protos", "zstandard", "protobuf"}, pinnedNames(Requirements))
}

func TestSparkVersionIsThePinnedPyspark(t *testing.T) {
	v := SparkVersion()
	assert.Regexp(t, `^4\.\d+\.\d+$`, v)
	assert.Contains(t, string(Requirements), "\npyspark=="+v+"\n")
}
