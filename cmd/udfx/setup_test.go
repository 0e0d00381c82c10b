package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/mavenjar"
	"github.com/udfx/udfx/harness/pyenv"
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
	_, stderr, code = runCLI(t, repoRoot(t), "setup", "--spark", "3.4")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, `--spark "3.4": udfx proves for Spark `+pyenv.SparkMinors())
	_, stderr, code = runCLI(t, repoRoot(t), "setup", "--check", "--spark", "3.5")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "--check creates nothing")
}

// udfx setup --spark 3.5 creates that version's environment, with its
// own pyspark, beside the default one, and says where it is.
func TestSetupCreatesTheEnvironmentOfASparkVersion(t *testing.T) {
	env35, ok := pyenv.EnvFor("3.5")
	require.True(t, ok)
	stdout, stderr, code := runCLI(t, repoRoot(t), "setup", "--spark", "3.5", "--format", "json")
	require.Equal(t, exitOK, code, stderr)
	var out struct {
		Python    string `json:"python"`
		SparkEnvs []struct {
			Version string `json:"version"`
			PySpark string `json:"pyspark"`
			Python  string `json:"python"`
			Ready   bool   `json:"ready"`
		} `json:"spark_environments"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &out), stdout)
	var versions []string
	for _, e := range out.SparkEnvs {
		versions = append(versions, e.Version)
	}
	assert.Equal(t, []string{"3.5", "4.0", "4.3"}, versions, "every version but the default")
	se := out.SparkEnvs[0]
	assert.Equal(t, "3.5", se.Version)
	assert.Equal(t, env35.Version, se.PySpark)
	require.True(t, se.Ready)
	assert.NotEqual(t, out.Python, se.Python)
	got, err := exec.Command(se.Python, "-c", "import pyspark; print(pyspark.__version__)").Output()
	require.NoError(t, err)
	assert.Equal(t, env35.Version, strings.TrimSpace(string(got)))
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
