package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// End-to-end tests of `udfx test`: the originals run for real (a JVM with
// scalac/javac and Spark's jars, CPython with pyspark), the rewrites on the
// embedded engine.

var celsiusExamples = []struct{ name, target string }{
	{"scala", "examples/scala-to-fahrenheit/ToFahrenheit.scala:ToFahrenheit"},
	{"java", "examples/java-to-fahrenheit/ToFahrenheit.java"},
	{"python", "examples/python-celsius/celsius.py:to_fahrenheit"},
}

func TestTestCommandProvesTheCelsiusRewrite(t *testing.T) {
	t.Parallel()
	for _, ex := range celsiusExamples {
		t.Run(ex.name, func(t *testing.T) {
			stdout, stderr, code := runCLI(t, repoRoot(t), "test", ex.target, "--sql", "celsius * 9.0 / 5.0 + 32.0", "--workspace", t.TempDir())
			require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
			// 10,000 generated rows and the near misses of the literals
			// 9.0, 5.0 and 32.0 of both sides.
			assert.Contains(t, stdout, "rows            10030 (")
			assert.Contains(t, stdout, "special-value rows")
			assert.Contains(t, stdout, ", 30 near misses of the literals; seed 1)")
			assert.Contains(t, stdout, "mismatches      0\n")
			assert.Contains(t, stdout, "EQUAL: 10030 of 10030 rows agree")
		})
	}
}

func TestTestCommandRefutesAWrongRewrite(t *testing.T) {
	t.Parallel()
	for _, ex := range celsiusExamples {
		t.Run(ex.name, func(t *testing.T) {
			stdout, stderr, code := runCLI(t, repoRoot(t), "test", ex.target, "--sql", "celsius * 1.8 + 32.0", "--workspace", t.TempDir(), "--format", "json")
			require.Equal(t, exitFailed, code, "stderr: %s", stderr)
			var rep struct {
				Equal          bool
				Mismatches     int
				Rows           int
				Counterexample struct {
					Inputs []struct {
						Name  string
						Value struct{ Text, Token string }
					}
					Original, Rewrite struct{ Text, Token string }
				}
			}
			require.NoError(t, json.Unmarshal([]byte(stdout), &rep), stdout)
			assert.False(t, rep.Equal)
			assert.Positive(t, rep.Mismatches)
			require.Len(t, rep.Counterexample.Inputs, 1)
			// Shrunk to a value a person can check by hand.
			assert.Equal(t, "celsius", rep.Counterexample.Inputs[0].Name)
			assert.Equal(t, "13.0", rep.Counterexample.Inputs[0].Value.Text)
			assert.Equal(t, "55.4", rep.Counterexample.Original.Text)
			assert.Equal(t, "55.400000000000006", rep.Counterexample.Rewrite.Text)
		})
	}
}

func TestTestCommandReportsThrowingAndRunawayOriginals(t *testing.T) {
	t.Parallel()
	root := repoRoot(t)
	stdout, stderr, code := runCLI(t, root, "test", "cmd/udfx/testdata/udfs/Guarded.scala:SqrtOrThrow", "--sql", "sqrt(x)", "--workspace", t.TempDir(), "--rows", "2000")
	require.Equal(t, exitFailed, code, "stderr: %s", stderr)
	assert.Regexp(t, `original threw  \d+ rows \(java\.lang\.IllegalArgumentException ×\d+\)`, stdout)
	assert.Contains(t, stdout, "original → throws java.lang.IllegalArgumentException: negative: ")
	assert.Contains(t, stdout, "rewrite  → NaN")

	// The same UDF with a rewrite that also fails there: ANSI raises on
	// the invalid cast, so the error rows agree.
	stdout, stderr, code = runCLI(t, root, "test", "cmd/udfx/testdata/udfs/Guarded.scala:SqrtOrThrow",
		"--sql", "CASE WHEN x < 0 THEN CAST('negative' AS DOUBLE) ELSE sqrt(x) END", "--workspace", t.TempDir(), "--rows", "2000")
	require.Equal(t, exitOK, code, "stderr: %s\n%s", stderr, stdout)
	assert.Regexp(t, `error rows      \d+ rows threw in both`, stdout)

	// The loop never ends: the whole limit is waited out, so keep it short.
	_, stderr, code = runCLI(t, root, "test", "cmd/udfx/testdata/udfs/Guarded.scala:SpinsAboveAHundred", "--sql", "x", "--workspace", t.TempDir(), "--rows", "200", "--timeout", "3s")
	assert.Equal(t, exitInternal, code)
	assert.Contains(t, stderr, "did not finish evaluating its rows within 3s")
	assert.Contains(t, stderr, "start-up is not counted")
	assert.Contains(t, stderr, "input: x = ")
}

func TestTestCommandUsageErrors(t *testing.T) {
	t.Parallel()
	root := repoRoot(t)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"test", "examples/python-celsius/celsius.py"}, "exactly one of --sql or --rewrite"},
		{[]string{"test", "examples/python-celsius/celsius.py", "--sql", "x", "--rewrite", "f.sql"}, "exactly one of --sql or --rewrite"},
		{[]string{"test", "examples/python-vectors/vectors.py", "--sql", "1"}, "defines 2 UDFs (mean_pairwise_abs_diff, moving_average): pick one with"},
		{[]string{"test", "examples/python-celsius/celsius.py:nope", "--sql", "1"}, `has no UDF named "nope" (it has to_fahrenheit)`},
		{[]string{"test", "examples/scala-no-udf/WarmReadings.scala", "--sql", "1"}, "defines no UDF"},
		{[]string{"test", "README.md", "--sql", "1"}, "not a Scala, Java or Python file"},
		{[]string{"test", "examples/python-celsius/celsius.py", "--sql", "frobnicate(celsius)"}, "frobnicate"},
		{[]string{"test", "examples/python-celsius/celsius.py", "--sql", "celsius +"}, "rewrite \"celsius +\""},
		{[]string{"test", "examples/python-celsius/celsius.py", "--sql", "CAST(celsius AS INT)"}, "has type int but to_fahrenheit returns double"},
		{[]string{"test", "examples/python-celsius/celsius.py", "--sql", "celsius", "--signed-zero", "loose"}, `unknown --signed-zero "loose"`},
	}
	for _, c := range cases {
		_, stderr, code := runCLI(t, root, append(c.args, "--workspace", t.TempDir())...)
		assert.Equal(t, exitUsage, code, "%v: %s", c.args, stderr)
		assert.Contains(t, stderr, c.want, "%v", c.args)
	}
}

func TestTestCommandCannotRunTheOriginal(t *testing.T) {
	root := repoRoot(t)
	dir := t.TempDir()
	broken := filepath.Join(dir, "Broken.scala")
	require.NoError(t, os.WriteFile(broken, []byte("object O {\n  val f = udf((x: Double) => x * 2.0\n}\n"), 0o644))
	_, stderr, code := runCLI(t, root, "test", broken, "--sql", "x * 2.0", "--workspace", dir)
	assert.Equal(t, exitInternal, code)
	assert.Contains(t, stderr, "cannot run the original: "+broken+":2:")

	// A file that parses but does not compile: scalac's error, with its line.
	_, stderr, code = runCLI(t, root, "test", "cmd/udfx/testdata/udfs/DoesNotCompile.scala", "--sql", "x", "--workspace", dir)
	assert.Equal(t, exitInternal, code, stderr)
	assert.Contains(t, stderr, "DoesNotCompile.scala:5")

	t.Setenv("JAVA_HOME", filepath.Join(dir, "no-jdk-here"))
	_, stderr, code = runCLI(t, root, "test", "examples/java-to-fahrenheit/ToFahrenheit.java", "--sql", "celsius", "--workspace", dir)
	assert.Equal(t, exitInternal, code)
	assert.Contains(t, stderr, "cannot run the original: JDK")
	assert.Equal(t, 1, strings.Count(stderr, "cannot run the original"), "one prefix, not one per layer: %s", stderr)
}

func TestTestCommandTestsTheSamples(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	samples := filepath.Join(dir, "rows.jsonl")
	require.NoError(t, os.WriteFile(samples, []byte("{\"celsius\": 21.5}\n{\"celsius\": -40}\n{\"celsius\": null}\n"), 0o644))
	stdout, stderr, code := runCLI(t, repoRoot(t), "test", "examples/python-celsius/celsius.py", "--sql", "celsius * 9.0 / 5.0 + 32.0",
		"--samples", samples, "--rows", "500", "--workspace", dir)
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stdout, "3 sample rows")
	assert.Contains(t, stdout, "EQUAL: 533 of 533 rows agree")
	_, err := os.Stat(filepath.Join(dir, "to_fahrenheit", "inputs.arrow"))
	assert.NoError(t, err, "the inputs are saved in the workspace")

	require.NoError(t, os.WriteFile(samples, []byte("{\"celsius\": \"warm\"}\n"), 0o644))
	_, stderr, code = runCLI(t, repoRoot(t), "test", "examples/python-celsius/celsius.py", "--sql", "celsius", "--samples", samples, "--workspace", dir)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "rows.jsonl:1")
	assert.Contains(t, stderr, "warm")
}
