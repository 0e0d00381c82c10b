package columnar_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/render/columnar"
	"github.com/udfx/udfx/harness/runner/jvm"
	"github.com/udfx/udfx/harness/testsetup"
)

// TestGeneratedJavaCompiles renders the RapidsUDF of each ToFahrenheit
// example and compiles it with javac against the real cudf and
// rapids-4-spark jars, Spark's jars from the repository's .venv and the
// user's original class, compiled first (javac, or scalac from pyspark's
// scala-compiler jar).
func TestGeneratedJavaCompiles(t *testing.T) {
	sparkJars := findSparkJars(t)
	cudf, rapids := testsetup.RapidsJars(t)
	jars, err := filepath.Glob(filepath.Join(sparkJars, "*.jar"))
	require.NoError(t, err)
	sparkCP := strings.Join(jars, string(os.PathListSeparator))
	for _, ex := range examples {
		t.Run(ex.name, func(t *testing.T) {
			x := loadExample(t, ex.file, "ToFahrenheit")
			files, err := columnar.RenderIn(x.u, x.e, record, x.pkg)
			require.NoError(t, err)
			dir := t.TempDir()
			classes := filepath.Join(dir, "classes")
			require.NoError(t, os.MkdirAll(classes, 0o755))
			start := time.Now()
			if strings.HasSuffix(ex.file, ".scala") {
				scalaCP := strings.Join([]string{
					jarNamed(t, sparkJars, "scala-compiler_2.13-", "scala-compiler-"),
					jarNamed(t, sparkJars, "scala-library-"),
					jarNamed(t, sparkJars, "scala-reflect-"),
				}, string(os.PathListSeparator))
				run(t, "java", "-XX:TieredStopAtLevel=1", "-cp", scalaCP, "scala.tools.nsc.Main", "-usejavacp", "-d", classes, "-classpath", sparkCP, ex.file)
			} else {
				run(t, "javac", "-J-XX:TieredStopAtLevel=1", "-d", classes, "-cp", sparkCP, ex.file)
			}
			t.Logf("original compiled in %s", time.Since(start).Round(time.Millisecond))
			gen := filepath.Join(dir, filepath.Base(files[0].Path))
			require.NoError(t, os.WriteFile(gen, files[0].Content, 0o644))
			cp := strings.Join([]string{cudf, rapids, classes, sparkCP}, string(os.PathListSeparator))
			start = time.Now()
			run(t, "javac", append(append(append(jvm.JavacFlags(), jvm.GeneratedJavacLint...), "-d", classes, "-cp", cp), gen)...)
			t.Logf("RapidsUDF compiled in %s", time.Since(start).Round(time.Millisecond))
			_, err = os.Stat(filepath.Join(append([]string{classes}, strings.Split(x.pkg, ".")...)...) + "/ToFahrenheitRapidsUDF.class")
			require.NoError(t, err, "javac wrote no class")
		})
	}
}

func run(t *testing.T, name string, args ...string) {
	t.Helper()
	out, err := exec.Command(name, args...).CombinedOutput()
	require.NoError(t, err, "%s %s:\n%s", name, strings.Join(args, " "), out)
}

// findSparkJars walks up from the test's folder to the repository's
// .venv and returns pyspark's jars folder.
func findSparkJars(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	require.NoError(t, err)
	for {
		matches, _ := filepath.Glob(filepath.Join(dir, ".venv", "lib", "python3*", "site-packages", "pyspark", "jars"))
		if len(matches) > 0 {
			return matches[0]
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			require.FailNow(t, "no .venv with pyspark above the test folder (testsetup.Prepare links one)")
		}
		dir = parent
	}
}

func jarNamed(t *testing.T, dir string, prefixes ...string) string {
	t.Helper()
	for _, p := range prefixes {
		m, _ := filepath.Glob(filepath.Join(dir, p+"*.jar"))
		if len(m) > 0 {
			return m[0]
		}
	}
	require.FailNow(t, "jar missing", "no %v jar in %s", prefixes, dir)
	return ""
}
