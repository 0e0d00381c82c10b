package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/mavenjar"
)

func TestSetupCheckFindsTheRepositoryEnvironment(t *testing.T) {
	stdout, stderr, code := runCLI(t, repoRoot(t), "setup", "--check", "--format", "json")
	require.Equal(t, exitOK, code, stderr)
	var out struct {
		Checks []struct {
			Name string `json:"name"`
			OK   bool   `json:"ok"`
		} `json:"checks"`
		Python     string `json:"python"`
		PythonFrom string `json:"python_from"`
		Ready      bool   `json:"ready"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &out), stdout)
	assert.True(t, out.Ready)
	assert.Contains(t, out.PythonFrom, ".venv in ")
	require.Len(t, out.Checks, 5)
	for _, c := range out.Checks[:3] {
		assert.True(t, c.OK, c.Name)
	}
	assert.Equal(t, "bubblewrap (bwrap)", out.Checks[4].Name)
}

func TestSetupNamesAMissingJDK(t *testing.T) {
	stdout, stderr, code := runCLIEnv(t, repoRoot(t), map[string]string{"JAVA_HOME": t.TempDir()}, "setup", "--check")
	assert.Equal(t, exitInternal, code)
	assert.Regexp(t, `(?m)^JDK \(java\) +MISSING`, stdout)
	assert.Contains(t, stdout, "does not run")
	assert.Contains(t, stdout, "point JAVA_HOME at a JDK 17 or 21")
	assert.Contains(t, stderr, "udfx: missing: JDK (java), JDK (javac) (what each is for and how to install it is above)")
}

func TestSetupUsage(t *testing.T) {
	_, stderr, code := runCLI(t, repoRoot(t), "setup", "--format", "sarif")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, `unknown --format "sarif"`)
}

// TestSetupShowsAndFetchesTheJars: setup names each RapidsUDF jar of the
// local Maven repository UDFX_MAVEN_REPO names, says how to fetch a
// missing one, and --jars takes the ones already there without Maven.
func TestSetupShowsAndFetchesTheJars(t *testing.T) {
	repo := t.TempDir()
	t.Setenv(mavenjar.RepoEnv, repo)
	stdout, stderr, code := runCLI(t, repoRoot(t), "setup", "--check")
	require.Equal(t, exitOK, code, stderr)
	assert.Regexp(t, `(?m)^cuDF jar +optional, not fetched +udfx setup --jars fetches `+regexp.QuoteMeta(mavenjar.CuDF)+`$`, stdout)
	assert.Regexp(t, `(?m)^RAPIDS jar +optional, not fetched +udfx setup --jars fetches `+regexp.QuoteMeta(mavenjar.Rapids)+`$`, stdout)

	_, stderr, code = runCLI(t, repoRoot(t), "setup", "--check", "--jars")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "give one of them")

	var paths []string
	for _, a := range []string{mavenjar.CuDF, mavenjar.Rapids} {
		p, err := mavenjar.Path(repo, a)
		require.NoError(t, err)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte("PK"), 0o644))
		paths = append(paths, p)
	}
	stdout, stderr, code = runCLI(t, repoRoot(t), "setup", "--jars", "--format", "json")
	require.Equal(t, exitOK, code, stderr)
	var out struct {
		Jars []struct {
			Name, Artifact, Path string
		} `json:"jars"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &out), stdout)
	require.Len(t, out.Jars, 2)
	assert.Equal(t, mavenjar.CuDF, out.Jars[0].Artifact)
	assert.Equal(t, paths[0], out.Jars[0].Path)
	assert.Equal(t, paths[1], out.Jars[1].Path)
}
