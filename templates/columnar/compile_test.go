package columnar

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The real artifacts the generated Java compiles against, from Maven
// Central. cudf 26.08.1 and rapids-4-spark_2.13 26.08.1 are the newest
// releases Central serves (its maven-metadata.xml, 2026); both ship only
// with a CUDA classifier, the native libraries inside. RapidsUDF
// (com.nvidia.spark.RapidsUDF) is only in the rapids-4-spark dist jar:
// sql-plugin-api is not published.
const (
	cudfArtifact   = "ai.rapids:cudf:26.08.1:jar:cuda12"
	rapidsArtifact = "com.nvidia:rapids-4-spark_2.13:26.08.1:jar:cuda12"
)

// TestGeneratedJavaCompiles renders the RapidsUDF of each ToFahrenheit
// example and compiles it with javac against the real cudf and
// rapids-4-spark jars, Spark's jars from the repository's .venv and the
// user's original class, compiled first (javac, or scalac from pyspark's
// scala-compiler jar).
func TestGeneratedJavaCompiles(t *testing.T) {
	sparkJars := findSparkJars(t)
	cudf := resolve(t, cudfArtifact)
	rapids := resolve(t, rapidsArtifact)
	jars, err := filepath.Glob(filepath.Join(sparkJars, "*.jar"))
	require.NoError(t, err)
	sparkCP := strings.Join(jars, string(os.PathListSeparator))
	for _, ex := range examples {
		t.Run(ex.name, func(t *testing.T) {
			x := loadExample(t, ex.file, "ToFahrenheit")
			files, err := RenderIn(x.u, x.e, record, x.pkg)
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
				run(t, "java", "-cp", scalaCP, "scala.tools.nsc.Main", "-usejavacp", "-d", classes, "-classpath", sparkCP, ex.file)
			} else {
				run(t, "javac", "-d", classes, "-cp", sparkCP, ex.file)
			}
			t.Logf("original compiled in %s", time.Since(start).Round(time.Millisecond))
			gen := filepath.Join(dir, filepath.Base(files[0].Path))
			require.NoError(t, os.WriteFile(gen, files[0].Content, 0o644))
			cp := strings.Join([]string{cudf, rapids, classes, sparkCP}, string(os.PathListSeparator))
			start = time.Now()
			run(t, "javac", "-Xlint:all", "-Xlint:-serial", "-Xlint:-processing", "-Xlint:-classfile", "-Xlint:-path", "-Werror", "-d", classes, "-cp", cp, gen)
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
			require.FailNow(t, "no .venv with pyspark above the test folder: create it with .ci/requirements.txt")
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

// resolve brings artifact (group:artifact:version:jar:classifier) into
// the local Maven repository, ~/.m2/repository (a CI cache), and returns
// the jar's path. A refusal from Maven Central fails the test: the
// generated code is only proven against the real artifacts.
func resolve(t *testing.T, artifact string) string {
	t.Helper()
	f := strings.Split(artifact, ":")
	require.Len(t, f, 5, artifact)
	home, err := os.UserHomeDir()
	require.NoError(t, err)
	repo := filepath.Join(home, ".m2", "repository")
	jar := filepath.Join(append([]string{repo}, strings.Split(f[0], ".")...)...)
	jar = filepath.Join(jar, f[1], f[2], f[1]+"-"+f[2]+"-"+f[4]+".jar")
	if _, err := os.Stat(jar); err == nil {
		return jar
	}
	start := time.Now()
	out, err := exec.Command("mvn", "-B", "-q", "dependency:get", "-Dtransitive=false", "-Dartifact="+artifact).CombinedOutput()
	require.NoError(t, err, "Maven Central did not serve %s; the RapidsUDF cannot be compiled against the real artifact:\n%s", artifact, out)
	st, err := os.Stat(jar)
	require.NoError(t, err, "mvn resolved %s but %s is missing", artifact, jar)
	t.Logf("downloaded %s: %.0f MB in %s", artifact, float64(st.Size())/1e6, time.Since(start).Round(time.Second))
	return jar
}
