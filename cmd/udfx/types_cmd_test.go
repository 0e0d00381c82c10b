package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/evidence"
)

// End-to-end tests of types taken from use: UDFs with no type hints,
// whose parameter types come from the schema in their file, a --types
// flag, a FILE:NAME(types) argument or what scalac would infer.

// typesRepo copies cmd/udfx/testdata/types into a new git repository.
func typesRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	src := repoRoot(t)
	from := filepath.Join(src, "cmd", "udfx", "testdata", "types")
	entries, err := os.ReadDir(from)
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "jobs"), 0o755))
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(from, e.Name()))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, "jobs", e.Name()), b, 0o644))
	}
	require.NoError(t, os.Symlink(filepath.Join(src, ".venv"), filepath.Join(dir, ".venv")))
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".gitignore"), []byte(".venv\n"), 0o644))
	git(t, dir, "init", "-q")
	git(t, dir, "add", ".")
	git(t, dir, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "jobs")
	return dir
}

func readRecord(t *testing.T, dir, udfName string) *evidence.Record {
	t.Helper()
	rec, err := evidence.Read(filepath.Join(dir, ".udfx", udfName, "evidence.json"))
	require.NoError(t, err)
	return rec
}

func TestRewriteTypesFromTheSchemaInTheFile(t *testing.T) {
	t.Parallel()
	dir := typesRepo(t)
	// The Celsius example without hints: the type of celsius is the one
	// spark.read.schema(...) gives the column the UDF is applied to.
	stdout, stderr, code := runCLI(t, dir, "rewrite", "jobs/celsius_nohints.py", "--apply")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.Contains(t, stdout, "candidate 1    sql: verified")
	report, err := os.ReadFile(filepath.Join(dir, ".udfx", "to_fahrenheit", "report.md"))
	require.NoError(t, err)
	assert.Contains(t, string(report), "- types: celsius double (dataflow: spark.read.schema at line 17: celsius double); return double (registration)\n")
	rec := readRecord(t, dir, "to_fahrenheit")
	assert.Equal(t, []evidence.TypeSource{
		{Name: "celsius", Type: "double", Source: "dataflow", Detail: "spark.read.schema at line 17: celsius double"},
		{Name: "return", Type: "double", Source: "registration"},
	}, rec.TypeSources)

	// --apply replaced the call site the type was read from: verify
	// re-runs the test with the record's types.
	git(t, dir, "add", ".")
	git(t, dir, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "rewrite")
	stdout, stderr, code = runCLI(t, dir, "verify")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.Contains(t, stdout, "pass")
}

func TestRewriteTypesOfALambdaFromAStructType(t *testing.T) {
	t.Parallel()
	dir := typesRepo(t)
	stdout, stderr, code := runCLI(t, dir, "rewrite", "jobs/lambda_struct.py")
	// c's type comes from the StructType the UDF's column is read with.
	// CPython raises TypeError on None * 9.0: the rewrite raises on the
	// same rows, and the differential test compares the errors.
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.Contains(t, stdout, "candidate 1    sql: verified")
	assert.Contains(t, stdout, "raise_error(")
	report, err := os.ReadFile(filepath.Join(dir, ".udfx", "to_f", "report.md"))
	require.NoError(t, err)
	assert.Contains(t, string(report), "- types: c double (dataflow: createDataFrame at line 16: temp_c double); return double (registration)\n")
	assert.Regexp(t, `both sides threw: TypeError → USER_RAISED_EXCEPTION`, string(report))
	assert.Equal(t, []evidence.TypeSource{
		{Name: "c", Type: "double", Source: "dataflow", Detail: "createDataFrame at line 16: temp_c double"},
		{Name: "return", Type: "double", Source: "registration"},
	}, readRecord(t, dir, "to_f").TypeSources)
}

func TestRewriteScalaReturnTypeOfAMatch(t *testing.T) {
	t.Parallel()
	dir := typesRepo(t)
	stdout, stderr, code := runCLI(t, dir, "rewrite", "jobs/MatchLambda.scala", "--target", "sql")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.Contains(t, stdout, "candidate 1    sql: verified")
	report, err := os.ReadFile(filepath.Join(dir, ".udfx", "code", "report.md"))
	require.NoError(t, err)
	assert.Contains(t, string(report), "- types: s string (source); return string (source)\n")
	assert.Equal(t, []evidence.TypeSource{
		{Name: "s", Type: "string", Source: "source"},
		{Name: "return", Type: "string", Source: "source"},
	}, readRecord(t, dir, "code").TypeSources)
}

// scaffold needs one type per parameter (rewrite proves per type instead:
// pertype_cmd_test.go).
func TestScaffoldUnknownTypeNamesTheFlag(t *testing.T) {
	t.Parallel()
	dir := typesRepo(t)
	_, stderr, code := runCLI(t, dir, "scaffold", "jobs/untyped.py")
	assert.Equal(t, exitInternal, code)
	assert.Contains(t, stderr, "jobs/untyped.py:8: the Spark type of parameter celsius of to_fahrenheit is not known from the source (no schema in the file declares a column celsius; the body fits any of tinyint, smallint, int, bigint, float, double, and udfx does not choose one); give it with --types 'celsius TYPE'")
}

func TestTypesFlagAndSignatureArgument(t *testing.T) {
	t.Parallel()
	dir := typesRepo(t)
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		detail string
		stderr string
	}{
		{name: "flag", args: []string{"jobs/untyped.py", "--types", "celsius double"}, code: exitOK, detail: "--types celsius double"},
		{name: "signature", args: []string{"jobs/untyped.py:to_fahrenheit(double)"}, code: exitOK, detail: "jobs/untyped.py:to_fahrenheit(double)"},
		{name: "both", args: []string{"jobs/untyped.py:to_fahrenheit(double)", "--types", "celsius double"}, code: exitUsage, stderr: "give the types once"},
		{name: "arity", args: []string{"jobs/untyped.py:to_fahrenheit(double, int)"}, code: exitUsage, stderr: "--types: 2 types for the 1 parameters of to_fahrenheit"},
		{name: "unknown parameter", args: []string{"jobs/untyped.py", "--types", "x double"}, code: exitUsage, stderr: "to_fahrenheit has no parameter x (it has celsius)"},
		{name: "registration wins", args: []string{"jobs/untyped.py", "--types", "(double) -> string"}, code: exitUsage, stderr: "the return type of to_fahrenheit is double in the source (registration), not string"},
		{name: "bad type", args: []string{"jobs/untyped.py", "--types", "celsius dubble"}, code: exitUsage, stderr: `unknown type "dubble"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := runCLI(t, dir, append([]string{"scaffold", "--rows", "100", "--format", "json"}, tc.args...)...)
			require.Equal(t, tc.code, code, "stderr: %s\nstdout: %s", stderr, stdout)
			assert.Contains(t, stderr, tc.stderr)
			if tc.detail != "" {
				spec, err := os.ReadFile(filepath.Join(dir, ".udfx", "to_fahrenheit", "spec.json"))
				require.NoError(t, err)
				assert.Contains(t, string(spec), `"source": "flag"`)
				assert.Contains(t, string(spec), `"detail": "`+tc.detail+`"`)
			}
		})
	}
}

func TestLambdaNameFromScanIsAcceptedBack(t *testing.T) {
	t.Parallel()
	// scan prints <lambda@11:23> for the word count's flatMap lambda; the
	// ':' inside it must not split FILE:NAME.
	stdout, stderr, code := runCLI(t, repoRoot(t), "scaffold", "examples/python-wordcount/wordcount.py:<lambda@11:23>", "--workspace", t.TempDir())
	assert.NotContains(t, stderr, "has no UDF named", stdout)
	assert.NotContains(t, stderr, "not a Scala, Java or Python file")
	// It is found; RDD lambdas have no Spark types, so it stops there.
	assert.Equal(t, exitInternal, code)
	assert.Contains(t, stderr, "parameter line of <lambda@11:23> is not known from the source")
}

func TestParseUDFRef(t *testing.T) {
	exists := func(p string) bool { return p == "odd:name.py" }
	for _, tc := range []struct {
		in   string
		want udfRef
	}{
		{"a/b.py", udfRef{path: "a/b.py"}},
		{"a/b.py:f", udfRef{path: "a/b.py", name: "f"}},
		{"wordcount.py:<lambda@11:23>", udfRef{path: "wordcount.py", name: "<lambda@11:23>"}},
		{"python/pairs.py:<lambda@7:21>", udfRef{path: "python/pairs.py", name: "<lambda@7:21>"}},
		{"A.scala:ToF(double, decimal(10,2))", udfRef{path: "A.scala", name: "ToF", types: "(double, decimal(10,2))"}},
		{"C:/repo/A.java:f", udfRef{path: "C:/repo/A.java", name: "f"}},
		{"odd:name.py", udfRef{path: "odd:name.py"}},
		{"notes.txt:f", udfRef{path: "notes.txt:f"}},
	} {
		assert.Equal(t, tc.want, parseUDFRef(tc.in, exists), tc.in)
	}
}

// After --apply the call a type was read from is gone, so the record
// carries the type; verify puts the recorded call back and reads the type
// from the job again. A schema edited since is a stale UDF, not a pass
// with the old type.
func TestVerifyReadsTheTypeFromTheJobAgainAfterApply(t *testing.T) {
	t.Parallel()
	dir := typesRepo(t)
	stdout, stderr, code := runCLI(t, dir, "rewrite", "jobs/prices.py:band", "--rows", "1000", "--apply")
	require.Equal(t, exitOK, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	require.Equal(t, "dataflow", readRecord(t, dir, "band").TypeSources[0].Source)
	stdout, stderr, code = runCLI(t, dir, "verify")
	require.Equal(t, exitOK, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)

	path := filepath.Join(dir, "jobs", "prices.py")
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, []byte(strings.Replace(string(b), "price double", "price string", 1)), 0o644))
	stdout, _, code = runCLI(t, dir, "verify")
	assert.Equal(t, exitFailed, code)
	assert.Contains(t, stdout, "stale-udf")
	assert.Contains(t, stdout, "the job now gives price the type string (spark.read.schema at line 19: price string); the record was proved for double")

	require.NoError(t, os.WriteFile(path, []byte(strings.Replace(string(b), `.schema("id bigint, price double")`, "", 1)), 0o644))
	stdout, _, code = runCLI(t, dir, "verify")
	assert.Equal(t, exitFailed, code)
	assert.Contains(t, stdout, "the job no longer shows the type of price's column (the record was proved for price double")
}
