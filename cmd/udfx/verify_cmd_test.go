package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/difftest"
	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/runner/runners"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/udf/frontends"
	"github.com/udfx/udfx/harness/verify"
)

// End-to-end tests of `udfx verify`: a temporary repository holds the
// Python Celsius example, the SQL rewrite the translator emits for it and
// a record made the way `udfx rewrite` makes one (span hash, file hash,
// the result of a differential test against real CPython). verify then
// re-runs the original in CPython too.

// translatedSQL is the translator's rewrite of to_fahrenheit.
const translatedSQL = "CASE WHEN (`celsius` IS NULL) THEN CAST(NULL AS DOUBLE) ELSE (((`celsius` * 9.0D) / 5.0D) + 32.0D) END"

const (
	verifySQLPath    = "udfx-rewrites/to_fahrenheit/rewrite.sql"
	verifyRecordPath = "udfx-rewrites/to_fahrenheit/evidence.json"
)

// verifyRepo builds the repository and returns its folder.
func verifyRepo(t *testing.T) string {
	t.Helper()
	// The example's own folder has no .venv above a temporary folder:
	// point the Python runner at the repository's.
	if _, err := os.Stat(filepath.Join(repoRoot(t), ".venv", "bin", "python")); err == nil {
		t.Setenv("UDFX_PYTHON", filepath.Join(repoRoot(t), ".venv", "bin", "python"))
	}
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join(repoRoot(t), "examples", "python-celsius", "celsius.py"))
	require.NoError(t, err)
	writeFile(t, filepath.Join(dir, "jobs", "celsius.py"), string(src))
	writeSQLRewrite(t, dir, translatedSQL)
	writeRecord(t, dir)
	return dir
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
}

func writeSQLRewrite(t *testing.T, dir, sql string) {
	t.Helper()
	writeFile(t, filepath.Join(dir, verifySQLPath), evidence.MarkerLine(".sql", verifyRecordPath)+"\n-- to_fahrenheit (jobs/celsius.py) as a Spark SQL expression\n"+sql+"\n")
}

// writeRecord proves the current rewrite against the current UDF and
// stores the record.
func writeRecord(t *testing.T, dir string) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(dir, "jobs", "celsius.py"))
	require.NoError(t, err)
	fe := frontends.New(udf.Python)
	defer fe.Close()
	udfs, err := fe.Parse("jobs/celsius.py", src)
	require.NoError(t, err)
	require.Len(t, udfs, 1)
	u := udfs[0]
	span, err := evidence.SpanText(src, u.Span)
	require.NoError(t, err)
	sqlFile, err := os.ReadFile(filepath.Join(dir, verifySQLPath))
	require.NoError(t, err)
	u.File = filepath.Join(dir, "jobs", "celsius.py")
	opts := difftest.Options{Seed: 1, Rows: 2000, ANSI: true, Limits: runner.DefaultLimits, NewRunner: runners.New}
	rep, err := difftest.Run(context.Background(), &u, difftest.Rewrite{SQL: evidence.StripSQLComments(string(sqlFile))}, opts)
	require.NoError(t, err)
	require.True(t, rep.Equal, "the translator's SQL is exact")
	inputsHash, err := verify.InputsHash(&u, opts.Seed, opts.Rows)
	require.NoError(t, err)
	require.NoError(t, evidence.Write(filepath.Join(dir, verifyRecordPath), &evidence.Record{
		SchemaVersion: evidence.SchemaVersion, Tool: "udfx " + version,
		Original: evidence.Original{File: "jobs/celsius.py", Name: u.Name, Language: string(u.Language), SpanSHA256: evidence.SpanHash(span),
			SignatureSHA256: evidence.SignatureHash(&u), DependsOn: evidence.Dependencies(&u, src)},
		Rewrites:     []evidence.RewriteFile{{Target: "sql", Path: verifySQLPath, SHA256: evidence.SHA256(sqlFile)}},
		InputsSHA256: inputsHash,
		Seed:         opts.Seed, Rows: opts.Rows, Engine: evidence.Engine{Name: rep.Engine, ANSI: rep.ANSI},
		Policy: opts.Policy, Result: evidence.Verified,
	}))
}

// forgeRecord writes sql as the rewrite, updates its hash in the record
// and lets edit change the record further, keeping "verified".
func forgeRecord(t *testing.T, dir, sql string, edit func(*evidence.Record)) {
	t.Helper()
	writeSQLRewrite(t, dir, sql)
	b, err := os.ReadFile(filepath.Join(dir, verifySQLPath))
	require.NoError(t, err)
	rec, err := evidence.Read(filepath.Join(dir, verifyRecordPath))
	require.NoError(t, err)
	rec.Rewrites[0].SHA256 = evidence.SHA256(b)
	edit(rec)
	require.NoError(t, evidence.Write(filepath.Join(dir, verifyRecordPath), rec))
}

func TestVerifyPassesOnAVerifiedRewrite(t *testing.T) {
	dir := verifyRepo(t)
	stdout, stderr, code := runCLI(t, dir, "verify")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.Regexp(t, `(?m)^to_fahrenheit\s+sql\s+pass\s+udfx-rewrites/to_fahrenheit/rewrite\.sql\s+hashes match the record; differential test re-run: 20060 of 20060 rows agree \(bit-exact, ANSI on, errors compared; 10000 rows for each of seeds 1, 104729, each with 30 near misses of the original's and the rewrite's literals\)$`, stdout)
	assert.NotContains(t, stdout, "relaxations in force")
	assert.Contains(t, stdout, "1 rewrite checked (1 records): 1 pass\n")
	assert.Empty(t, stderr)

	// From a parent folder, naming the repository.
	stdout, stderr, code = runCLI(t, filepath.Dir(dir), "verify", filepath.Base(dir), "--skip-rerun")
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stdout, "1 rewrite checked (1 records, hashes only): 1 pass\n")
}

func TestVerifyFailsStaleAfterTheUDFIsEdited(t *testing.T) {
	dir := verifyRepo(t)
	p := filepath.Join(dir, "jobs", "celsius.py")
	src, err := os.ReadFile(p)
	require.NoError(t, err)
	writeFile(t, p, strings.Replace(string(src), "celsius * 9.0 / 5.0 + 32.0", "celsius * 9.0 / 5.0 + 32.5", 1))
	stdout, stderr, code := runCLI(t, dir, "verify")
	require.Equal(t, exitFailed, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.Regexp(t, `(?m)^to_fahrenheit\s+sql\s+stale-udf\s+udfx-rewrites/to_fahrenheit/rewrite\.sql\s+the UDF changed: to_fahrenheit at jobs/celsius\.py:7 hashes to [0-9a-f]{12}, the record has [0-9a-f]{12}$`, stdout)
	assert.Contains(t, stderr, "udfx: gate failed: 1 rewrite checked (1 records): 1 stale-udf")
}

func TestVerifyFailsStaleAfterTheRewriteIsEdited(t *testing.T) {
	dir := verifyRepo(t)
	writeSQLRewrite(t, dir, "celsius * 1.8 + 32.0")
	stdout, _, code := runCLI(t, dir, "verify", "--skip-rerun")
	require.Equal(t, exitFailed, code)
	assert.Regexp(t, `(?m)^to_fahrenheit\s+sql\s+stale-rewrite\s+\S+\s+the rewrite changed: sha256 [0-9a-f]{12}, the record has [0-9a-f]{12}$`, stdout)
}

func TestVerifyFindsTheCounterexampleAfterTheSQLChanges(t *testing.T) {
	dir := verifyRepo(t)
	writeSQLRewrite(t, dir, "celsius * 1.8 + 32.0")
	b, err := os.ReadFile(filepath.Join(dir, verifySQLPath))
	require.NoError(t, err)
	rec, err := evidence.Read(filepath.Join(dir, verifyRecordPath))
	require.NoError(t, err)
	rec.Rewrites[0].SHA256 = evidence.SHA256(b)
	require.NoError(t, evidence.Write(filepath.Join(dir, verifyRecordPath), rec))

	_, _, code := runCLI(t, dir, "verify", "--skip-rerun")
	assert.Equal(t, exitOK, code, "the hashes alone match")

	stdout, stderr, code := runCLI(t, dir, "verify", "--format", "json")
	require.Equal(t, exitFailed, code, "stderr: %s", stderr)
	var doc struct {
		Passed bool
		Items  []struct {
			Status         string
			Detail         string
			Rerun          bool
			Counterexample struct {
				Inputs []struct {
					Name  string
					Value struct{ Text string }
				}
				Original, Rewrite struct{ Text string }
			}
		}
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &doc), stdout)
	assert.False(t, doc.Passed)
	require.Len(t, doc.Items, 1)
	it := doc.Items[0]
	assert.Equal(t, "mismatch", it.Status)
	assert.True(t, it.Rerun)
	assert.Regexp(t, `^the rewrite differs from to_fahrenheit on \d+ of 100\d\d rows \(seed 1; bit-exact, ANSI on, errors compared; 10000 rows for each of seeds 1, 104729, each with \d\d near misses of the original's and the rewrite's literals\); counterexample: celsius = 13\.0 → original 55\.4, rewrite 55\.400000000000006$`, it.Detail)
	require.Len(t, it.Counterexample.Inputs, 1)
	assert.Equal(t, "13.0", it.Counterexample.Inputs[0].Value.Text)
	assert.Equal(t, "55.4", it.Counterexample.Original.Text)
	assert.Equal(t, "55.400000000000006", it.Counterexample.Rewrite.Text)
}

func TestVerifyFailsUnverifiedForARewriteWithoutARecord(t *testing.T) {
	dir := verifyRepo(t)
	writeFile(t, filepath.Join(dir, "udfx-rewrites", "to_celsius", "rewrite.sql"),
		evidence.MarkerLine(".sql", "udfx-rewrites/to_celsius/evidence.json")+"\n(fahrenheit - 32.0D) * 5.0D / 9.0D\n")
	stdout, stderr, code := runCLI(t, dir, "verify", "--skip-rerun")
	require.Equal(t, exitFailed, code, stderr)
	assert.Regexp(t, `(?m)^-\s+sql\s+unverified\s+udfx-rewrites/to_celsius/rewrite\.sql\s+its marker names udfx-rewrites/to_celsius/evidence\.json, which does not exist$`, stdout)
	assert.Regexp(t, `(?m)^to_fahrenheit\s+sql\s+pass\s+`, stdout)
	assert.Contains(t, stdout, "2 rewrites checked (1 records, hashes only): 1 pass, 1 unverified\n")
}

func TestVerifyCannotRunTheOriginal(t *testing.T) {
	dir := verifyRepo(t)
	stdout, stderr, code := runCLIEnv(t, dir, map[string]string{"UDFX_PYTHON": filepath.Join(dir, "no-python-here")}, "verify")
	require.Equal(t, exitInternal, code, "stdout: %s", stdout)
	assert.Regexp(t, `(?m)^to_fahrenheit\s+sql\s+error\s+\S+\s+cannot run the original: `, stdout)
	assert.Contains(t, stderr, "udfx: could not check every rewrite: ")
}

// brokenRepo has one failure of each kind the hashes show.
func brokenRepo(t *testing.T) string {
	t.Helper()
	dir := verifyRepo(t)
	for i := range 12 {
		writeFile(t, filepath.Join(dir, "orphans", fmt.Sprintf("o%02d.sql", i)), evidence.MarkerLine(".sql", "udfx-rewrites/gone/evidence.json")+"\n1\n")
	}
	p := filepath.Join(dir, "jobs", "celsius.py")
	src, err := os.ReadFile(p)
	require.NoError(t, err)
	writeFile(t, p, strings.Replace(string(src), "9.0 / 5.0", "9.0 / 5.00", 1))
	return dir
}

func TestVerifyFormats(t *testing.T) {
	dir := brokenRepo(t)

	stdout, _, code := runCLI(t, dir, "verify", "--skip-rerun", "--format", "sarif")
	require.Equal(t, exitFailed, code)
	var sarif struct {
		Version string
		Runs    []struct {
			Tool struct {
				Driver struct{ Rules []struct{ ID string } }
			}
			Results []struct {
				RuleID    string
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI       string
							URIBaseID string `json:"uriBaseId"`
						}
					}
				}
			}
		}
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &sarif), stdout)
	assert.Equal(t, "2.1.0", sarif.Version)
	var ids []string
	for _, r := range sarif.Runs[0].Tool.Driver.Rules {
		ids = append(ids, r.ID)
	}
	assert.Subset(t, ids, []string{"stale-udf", "stale-rewrite", "unverified", "failed", "mismatch"})
	results := sarif.Runs[0].Results
	require.Len(t, results, 13)
	rules := map[string]int{}
	for _, r := range results {
		rules[r.RuleID]++
		loc := r.Locations[0].PhysicalLocation.ArtifactLocation
		assert.Equal(t, "SRCROOT", loc.URIBaseID)
		assert.False(t, filepath.IsAbs(loc.URI), loc.URI)
	}
	assert.Equal(t, map[string]int{"stale-udf": 1, "unverified": 12}, rules)

	stdout, _, code = runCLI(t, dir, "verify", "--skip-rerun", "--format", "junit")
	require.Equal(t, exitFailed, code)
	var junit struct {
		XMLName  xml.Name `xml:"testsuites"`
		Tests    int      `xml:"tests,attr"`
		Failures int      `xml:"failures,attr"`
		Suites   []struct {
			Cases []struct {
				Name    string `xml:"name,attr"`
				Failure *struct {
					Type string `xml:"type,attr"`
					Text string `xml:",chardata"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	require.NoError(t, xml.Unmarshal([]byte(stdout), &junit), stdout)
	assert.Equal(t, 13, junit.Tests)
	assert.Equal(t, 13, junit.Failures)
	require.Len(t, junit.Suites[0].Cases, 13)
	assert.Contains(t, junit.Suites[0].Cases[0].Failure.Text, "its marker names udfx-rewrites/gone/evidence.json")

	_, stderr, code := runCLI(t, dir, "verify", "--format", "yaml")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, `unknown --format "yaml"`)
	_, stderr, code = runCLI(t, dir, "verify", "nowhere")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "nowhere: no such file or directory")
	_, _, code = runCLI(t, dir, "verify", "a", "b")
	assert.Equal(t, exitUsage, code)
}

// One run writes every format CI uploads: the table on stdout and the same
// results as JSON, SARIF and JUnit files, each what --format would print,
// written even though the gate failed.
func TestVerifyWritesMoreFormatsFromOneRun(t *testing.T) {
	dir := brokenRepo(t)
	out := t.TempDir()
	stdout, stderr, code := runCLI(t, dir, "verify", "--skip-rerun",
		"--json", filepath.Join(out, "v.json"), "--sarif", filepath.Join(out, "v.sarif"), "--junit", filepath.Join(out, "v.xml"))
	require.Equal(t, exitFailed, code, "stderr:\n%s", stderr)
	table, _, _ := runCLI(t, dir, "verify", "--skip-rerun")
	assert.Equal(t, table, stdout, "stdout stays the table")
	for file, format := range map[string]string{"v.json": "json", "v.sarif": "sarif", "v.xml": "junit"} {
		got, err := os.ReadFile(filepath.Join(out, file))
		require.NoError(t, err)
		want, _, _ := runCLI(t, dir, "verify", "--skip-rerun", "--format", format)
		assert.Equal(t, want, string(got), "the %s file", format)
	}

	_, stderr, code = runCLI(t, dir, "verify", "--skip-rerun", "--json", "r.out", "--junit", "r.out")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "--json and --junit both name r.out")
	_, stderr, code = runCLI(t, dir, "verify", "--skip-rerun", "--sarif", "nowhere/v.sarif")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "--sarif nowhere/v.sarif: no folder nowhere to write it in")
}

// runCLIEnv runs the CLI with an environment.
func runCLIEnv(t *testing.T, dir string, vars map[string]string, args ...string) (string, string, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(args, &env{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, WorkDir: dir,
		Getenv: func(k string) string { return vars[k] }, Spark: sparkPool, CacheDir: testCacheDir})
	return stdout.String(), stderr.String(), code
}

func TestVerifyOnGitHubActions(t *testing.T) {
	dir := brokenRepo(t)
	summary := filepath.Join(t.TempDir(), "summary.md")
	writeFile(t, summary, "earlier step\n")
	vars := map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": summary}

	stdout, _, code := runCLIEnv(t, dir, vars, "verify", "--skip-rerun")
	require.Equal(t, exitFailed, code)
	var annotations []string
	for _, l := range strings.Split(stdout, "\n") {
		if strings.HasPrefix(l, "::error ") {
			annotations = append(annotations, l)
		}
	}
	require.Len(t, annotations, verify.MaxAnnotations)
	assert.True(t, strings.HasPrefix(annotations[0], "::error file=jobs/celsius.py,line=7,title=udfx verify%3A stale-udf::to_fahrenheit (sql rewrite udfx-rewrites/to_fahrenheit/rewrite.sql): the UDF changed"), annotations[0])
	assert.Contains(t, stdout, "udfx verify: 3 more failing rewrites not annotated; see the step summary for the full table\n")

	md, err := os.ReadFile(summary)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(md), "earlier step\n### udfx verify: failed\n"), "appended: %s", md)
	assert.Equal(t, 13, strings.Count(string(md), "\n| ")-1, "the full table, not the capped list")

	// With a document on stdout the annotations go to stderr.
	stdout, stderr, code := runCLIEnv(t, dir, vars, "verify", "--skip-rerun", "--format", "json")
	require.Equal(t, exitFailed, code)
	assert.True(t, json.Valid([]byte(stdout)))
	assert.Equal(t, verify.MaxAnnotations, strings.Count(stderr, "::error "))

	md, err = os.ReadFile(summary)
	require.NoError(t, err)
	assert.Equal(t, 2, strings.Count(string(md), "### udfx verify: failed\n"), "each run appends its table")

	// Outside Actions: no annotations, no summary.
	stdout, _, _ = runCLIEnv(t, dir, map[string]string{"GITHUB_STEP_SUMMARY": summary}, "verify", "--skip-rerun")
	assert.NotContains(t, stdout, "::error")
	md2, err := os.ReadFile(summary)
	require.NoError(t, err)
	assert.Equal(t, md, md2)
}

// The reproduction of issue 11: a wrong rewrite whose record claims a
// huge tolerance passed the full gate. Now the claim fails unless the
// repository's udfx.yaml grants it, and a granted one is shown.
func TestVerifyForgedToleranceEndToEnd(t *testing.T) {
	dir := verifyRepo(t)
	forgeRecord(t, dir, "celsius * 9.0D / 5.0D + 33.0D", func(rec *evidence.Record) { rec.Policy.Abs = 1e9 })
	stdout, stderr, code := runCLI(t, dir, "verify")
	require.Equal(t, exitFailed, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.Regexp(t, `(?m)^to_fahrenheit\s+sql\s+undeclared-relaxation\s+\S+\s+the record claims an absolute tolerance of 1e\+09, which udfx\.yaml does not grant to to_fahrenheit`, stdout)
	assert.Contains(t, stderr, "1 undeclared-relaxation")

	writeFile(t, filepath.Join(dir, "udfx.yaml"), "relaxations:\n  - udf: to_fahrenheit\n    abs: 1e9\n    reason: reviewed in PR 7\n")
	summary := filepath.Join(t.TempDir(), "summary.md")
	stdout, stderr, code = runCLIEnv(t, dir, map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": summary,
		"UDFX_PYTHON": os.Getenv("UDFX_PYTHON")}, "verify")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.Contains(t, stdout, "relaxations in force (granted by udfx.yaml):\n  to_fahrenheit: within absolute 1e+09 (udfx.yaml:2: reviewed in PR 7)\n")
	md, err := os.ReadFile(summary)
	require.NoError(t, err)
	assert.Contains(t, string(md), "- to_fahrenheit: within absolute 1e+09 (udfx.yaml:2: reviewed in PR 7)")

	// A config udfx cannot accept stops the gate, naming the line.
	writeFile(t, filepath.Join(dir, "udfx.yaml"), "relaxations:\n  - udf: to_fahrenheit\n    abs: 1e9\n    tolerance: 2\n    reason: r\n")
	_, stderr, code = runCLI(t, dir, "verify", "--skip-rerun")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, `udfx.yaml:4: unknown key "tolerance" in a relaxation`)
}

func TestRewriteRefusesToleranceFlags(t *testing.T) {
	dir := t.TempDir()
	for _, flag := range []string{"--ulp=2", "--abs=1e-9", "--allow-error-to-null", "--ansi=false"} {
		_, stderr, code := runCLI(t, dir, "rewrite", "nowhere.py", flag)
		assert.Equal(t, exitUsage, code, flag)
		assert.Contains(t, stderr, "declare it for the UDF, with a reason, in udfx.yaml at the repository root", flag)
	}
	stdout, _, code := runCLI(t, dir, "rewrite", "--help")
	require.Equal(t, exitOK, code)
	assert.NotContains(t, stdout, "--ulp", "hidden")
	stdout, _, code = runCLI(t, dir, "verify", "--help")
	require.Equal(t, exitOK, code)
	assert.Contains(t, stdout, "a drift check, not a proof")
}

// TestVerifyNeverRunsTheRepositorysVenvUnasked: a pull request can commit
// a .venv/bin/python that patches the original at start-up (a +33
// rewrite then passed). verify re-runs the originals in UDFX_PYTHON or
// udfx's own environment, names the interpreter in its output, and takes
// the repository's only when --python names it.
func TestVerifyNeverRunsTheRepositorysVenvUnasked(t *testing.T) {
	dir := verifyRepo(t)
	real := os.Getenv("UDFX_PYTHON")
	require.NotEmpty(t, real, "verifyRepo points UDFX_PYTHON at the repository's environment")
	marker := filepath.Join(t.TempDir(), "ran")
	wrapper := filepath.Join(dir, ".venv", "bin", "python")
	writeFile(t, wrapper, "#!/bin/sh\necho ran >> "+marker+"\nexec "+real+" \"$@\"\n")
	require.NoError(t, os.Chmod(wrapper, 0o755))

	stdout, stderr, code := runCLI(t, dir, "verify", "--sandbox", "off")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.Regexp(t, `(?m)^Python: /\S+/bin/python \(udfx's environment; sha256 [0-9a-f]{12}\)$`, stdout)
	assert.NotContains(t, stdout, wrapper)
	assert.NoFileExists(t, marker, "the repository's .venv never ran")

	var doc struct {
		Python       string `json:"python"`
		PythonFrom   string `json:"python_from"`
		PythonSHA256 string `json:"python_sha256"`
	}
	stdout, _, code = runCLIEnv(t, dir, map[string]string{"UDFX_PYTHON": real}, "verify", "--sandbox", "off", "--format", "json")
	require.Equal(t, exitOK, code)
	require.NoError(t, json.Unmarshal([]byte(stdout), &doc))
	assert.Equal(t, real, doc.Python)
	assert.Equal(t, "UDFX_PYTHON", doc.PythonFrom)
	realExe, err := filepath.EvalSymlinks(real)
	require.NoError(t, err)
	exe, err := os.ReadFile(realExe)
	require.NoError(t, err)
	assert.Equal(t, evidence.SHA256(exe), doc.PythonSHA256, "the hash of the binary that ran, links followed")
	assert.NoFileExists(t, marker)

	stdout, stderr, code = runCLI(t, dir, "verify", "--sandbox", "off", "--python", ".venv/bin/python")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.Contains(t, stdout, "Python: "+wrapper+" (--python; sha256 "+evidence.SHA256([]byte("#!/bin/sh\necho ran >> " + marker + "\nexec " + real + " \"$@\"\n"))[:12]+")\n")
	assert.FileExists(t, marker, "named with --python, it runs")

	_, stderr, code = runCLI(t, dir, "verify", "--python", "no/such/python")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "--python no/such/python")
}
