package pyenv

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Each Spark version udfx proves for has its own pins and folder, the
// default is the newest, and the mode a proof runs in is the version's
// own default.
func TestSparkEnvsHaveTheirOwnPinsAndFolders(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	envs := SparkEnvs()
	require.Len(t, envs, 4)
	assert.Equal(t, "3.5, 4.0, 4.1, 4.3", SparkMinors())
	assert.Equal(t, "4.1", DefaultSpark())
	def, err := ManagedDir()
	require.NoError(t, err)
	dirs := map[string]bool{}
	for _, e := range envs {
		assert.Regexp(t, `^`+e.Minor+`\.\d+$`, e.Version, "the pyspark pin is of its version")
		d, err := e.Dir()
		require.NoError(t, err)
		assert.Equal(t, filepath.Dir(def), filepath.Dir(d))
		assert.Equal(t, e.Minor == DefaultSpark(), d == def, "only the default version's folder is the managed environment")
		assert.False(t, dirs[d], "each version has a folder of its own")
		dirs[d] = true
	}
	assert.False(t, bytes.Contains(envs[0].Requirements, []byte("numba")), "3.5's environment holds only what its Spark needs")
	_, ready := envs[0].Ready()
	assert.False(t, ready)

	_, ok := EnvFor("3.4")
	assert.False(t, ok)
	e, ok := EnvFor("3.5")
	require.True(t, ok)
	assert.Equal(t, envs[0], e)

	for minor, want := range map[string]bool{"3.5": false, "3.4": false, "2.4": false, "4.0": true, "4.1": true, "4.3": true, "x": false} {
		assert.Equal(t, want, DefaultANSI(minor), minor)
	}
}
