package gpu

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/pyenv"
	"github.com/udfx/udfx/harness/testsetup"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// dryRun runs device/check.sh --dry-run with env added to the test's own
// and returns its output and exit status.
func dryRun(t *testing.T, env []string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command("sh", append([]string{"device/check.sh", "--dry-run"}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	code := 0
	if err != nil {
		var ee *exec.ExitError
		require.ErrorAs(t, err, &ee, "%s", out)
		code = ee.ExitCode()
	}
	return string(out), code
}

// section returns the lines of out from the line head: up to the next
// line without indentation.
func section(out, head string) string {
	var b strings.Builder
	in := false
	for _, l := range strings.Split(out, "\n") {
		switch {
		case l == head:
			in = true
		case in && strings.HasPrefix(l, "  "):
			b.WriteString(l + "\n")
		case in:
			return b.String()
		}
	}
	return b.String()
}

// TestDeviceCheckDryRun runs the device check's dry run on this CPU
// machine with the real nvcc, Python and RAPIDS jars: it finds what a
// device run needs, names what is missing and prints exactly the plan
// of work (testdata/dry-run-plan.golden, -update rewrites it).
func TestDeviceCheckDryRun(t *testing.T) {
	nvcc := testsetup.NVCC(t)
	wd, err := os.Getwd()
	require.NoError(t, err)
	py, ok := pyenv.Find(nil, wd)
	require.True(t, ok, "no Python with pyspark (testsetup links the repository's .venv)")
	cudf, rapids := testsetup.RapidsJars(t)
	artifact := filepath.Join(t.TempDir(), "udfx-ToFahrenheit-rapids.jar")
	base := []string{"OUT=/tmp/udfx-device-check", "NVCC=" + nvcc.Path, "PYTHON=" + py.Python,
		"UDFX_CUDF_JAR=" + cudf, "UDFX_RAPIDS_JAR=" + rapids, "UDFX_REWRITE_SQL=celsius * 9.0D / 5.0D + 32.0D"}

	t.Run("missing artifact", func(t *testing.T) {
		out, code := dryRun(t, append(base, "UDFX_ARTIFACT_JAR="+artifact))
		assert.Equal(t, 1, code, out)
		env := section(out, "environment:")
		assert.Contains(t, env, "  missing  udfx's RapidsUDF jar of examples/java-to-fahrenheit (UDFX_ARTIFACT_JAR)\n")
		assert.Equal(t, 1, strings.Count(env, "missing"), env)
		assert.Contains(t, out, "check.sh: 1 requirement(s) missing")
		assert.NotContains(t, out, "dry run: nothing was run")
	})
	t.Run("ready", func(t *testing.T) {
		require.NoError(t, os.WriteFile(artifact, []byte("PK"), 0o644))
		out, code := dryRun(t, append(base, "UDFX_ARTIFACT_JAR="+artifact))
		require.Equal(t, 0, code, out)
		env := section(out, "environment:")
		assert.NotContains(t, env, "missing", env)
		assert.Contains(t, env, "  ok       nvcc ("+nvcc.Path+")\n")
		assert.Regexp(t, `(?m)^  (ok|absent)   an NVIDIA GPU \(nvidia-smi\)`, env)
		assert.Contains(t, out, "dry run: nothing was run\n")
		golden(t, "dry-run-plan.golden", section(out, "plan:"))
	})
	t.Run("skip spark", func(t *testing.T) {
		out, code := dryRun(t, []string{"OUT=/tmp/udfx-device-check", "NVCC=" + nvcc.Path}, "--skip-spark")
		require.Equal(t, 0, code, out)
		assert.NotContains(t, section(out, "environment:"), "jar")
		golden(t, "dry-run-skip-spark.golden", section(out, "plan:"))
	})
	t.Run("unknown option", func(t *testing.T) {
		out, code := dryRun(t, nil, "--fast")
		assert.Equal(t, 2, code, out)
	})
}

// TestDeviceCheckBuildOnly builds, on this machine without a GPU, what a
// device machine without nvcc runs: the driver of the ToFahrenheit case
// and the bandwidth kernel, with the device check's own nvcc flags
// (warnings are errors here too); then the dry run with UDFX_PREBUILT
// plans no build.
func TestDeviceCheckBuildOnly(t *testing.T) {
	nvcc := testsetup.NVCC(t)
	dir := t.TempDir()
	cmd := exec.Command("sh", "device/check.sh", "--build-only", dir)
	cmd.Env = append(os.Environ(), "NVCC="+nvcc.Path+" -Werror all-warnings", "UDFX_CASES=ToFahrenheit")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	for _, bin := range []string{"ToFahrenheit", "bandwidth"} {
		st, err := os.Stat(filepath.Join(dir, bin))
		require.NoError(t, err, "%s", out)
		assert.NotZero(t, st.Mode()&0o111, "%s is executable", bin)
	}
	plan, code := dryRun(t, []string{"OUT=/tmp/udfx-device-check", "UDFX_PREBUILT=" + dir}, "--skip-spark")
	require.Equal(t, 0, code, plan)
	assert.Contains(t, plan, "  ok       prebuilt binaries in UDFX_PREBUILT ("+dir+")\n")
	assert.Contains(t, plan, "  1. build: none, the binaries of check.sh --build-only in UDFX_PREBUILT\n")
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	p := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.WriteFile(p, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(p)
	require.NoError(t, err, "run go test -update to create %s", p)
	assert.Equal(t, string(want), got)
}
