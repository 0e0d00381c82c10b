package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
