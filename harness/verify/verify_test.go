package verify

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/difftest"
	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/udf/frontends"
	"github.com/udfx/udfx/harness/value"
)

// goRunner stands in for CPython in these unit tests: it computes
// celsius * 9.0 / 5.0 + 32.0 in Go, which is the same IEEE 754 double
// arithmetic CPython does. The real runner is used by the CLI's
// end-to-end tests (cmd/udfx/verify_cmd_test.go).
type goRunner struct{}

func (goRunner) Run(_ context.Context, rows [][]value.Value) ([]value.Value, error) {
	out := make([]value.Value, len(rows))
	for i, r := range rows {
		if r[0].IsNull() {
			out[i] = value.NullValue()
			continue
		}
		out[i] = value.DoubleOf(r[0].Float64()*9.0/5.0 + 32.0)
	}
	return out, nil
}
func (goRunner) Describe() string { return "Go test double" }
func (goRunner) Close() error     { return nil }

func goRunners(context.Context, *udf.UDF, runner.Limits) (runner.Runner, error) {
	return goRunner{}, nil
}

// exactSQL is what the translator emits for to_fahrenheit.
const exactSQL = "CASE WHEN (`celsius` IS NULL) THEN CAST(NULL AS DOUBLE) ELSE (((`celsius` * 9.0D) / 5.0D) + 32.0D) END"

const testRows = 1000

// repo is a temporary repository holding the Python Celsius example, its
// SQL rewrite and the record, made as `udfx rewrite` makes one: the span
// hash of the definition, the rewrite's sha256 and the result of a real
// differential test.
type repo struct {
	dir, source, sqlPath, recordPath string
}

func newRepo(t *testing.T) *repo {
	t.Helper()
	dir := t.TempDir()
	r := &repo{
		dir:        dir,
		source:     filepath.Join(dir, "jobs", "celsius.py"),
		sqlPath:    filepath.Join(dir, evidence.Dir, "to_fahrenheit", "rewrite.sql"),
		recordPath: filepath.Join(dir, evidence.Dir, "to_fahrenheit", evidence.FileName),
	}
	src, err := os.ReadFile(filepath.Join("..", "..", "examples", "python-celsius", "celsius.py"))
	require.NoError(t, err)
	r.write(t, r.source, string(src))
	require.NoError(t, os.Mkdir(filepath.Join(dir, ".git"), 0o755))
	r.writeSQL(t, exactSQL)
	r.record(t, func(*evidence.Record) {})
	return r
}

func (r *repo) write(t *testing.T, path, content string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
}

func (r *repo) writeSQL(t *testing.T, sql string) {
	t.Helper()
	r.write(t, r.sqlPath, evidence.MarkerLine(".sql", evidence.Dir+"/to_fahrenheit/"+evidence.FileName)+"\n-- to_fahrenheit as Spark SQL\n"+sql+"\n")
}

// record writes the record from the current files, then lets edit change
// it.
func (r *repo) record(t *testing.T, edit func(*evidence.Record)) {
	t.Helper()
	src, err := os.ReadFile(r.source)
	require.NoError(t, err)
	fe := frontends.New(udf.Python)
	defer fe.Close()
	udfs, err := fe.Parse("jobs/celsius.py", src)
	require.NoError(t, err)
	require.Len(t, udfs, 1)
	u := udfs[0]
	span, err := evidence.SpanText(src, u.Span)
	require.NoError(t, err)
	sqlFile, err := os.ReadFile(r.sqlPath)
	require.NoError(t, err)
	u.File = r.source
	rep, err := difftest.Run(context.Background(), &u, difftest.Rewrite{SQL: evidence.StripSQLComments(string(sqlFile))},
		difftest.Options{Seed: 7, Rows: testRows, ANSI: true, NewRunner: goRunners})
	require.NoError(t, err)
	result := evidence.Verified
	if !rep.Equal {
		result = evidence.Failed
	}
	inputsHash, err := InputsHash(&u, 7, testRows)
	require.NoError(t, err)
	rec := &evidence.Record{
		SchemaVersion: evidence.SchemaVersion, Tool: "udfx test",
		Original: evidence.Original{File: "jobs/celsius.py", Name: u.Name, Language: string(u.Language), SpanSHA256: evidence.SpanHash(span),
			SignatureSHA256: evidence.SignatureHash(&u), DependsOn: evidence.Dependencies(&u, src)},
		Rewrites:     []evidence.RewriteFile{{Target: "sql", Path: evidence.Dir + "/to_fahrenheit/rewrite.sql", SHA256: evidence.SHA256(sqlFile)}},
		InputsSHA256: inputsHash,
		Seed:         7, Rows: testRows, Engine: evidence.Engine{Name: "embedded", ANSI: true},
		Result: result, Mismatches: rep.Mismatches,
	}
	edit(rec)
	require.NoError(t, evidence.Write(r.recordPath, rec))
}

func (r *repo) verify(t *testing.T, skipRerun bool) *Result {
	t.Helper()
	res, err := Run(context.Background(), Options{Root: r.dir, Display: ".", SkipRerun: skipRerun, NewRunner: goRunners})
	require.NoError(t, err)
	return res
}

func only(t *testing.T, res *Result) Item {
	t.Helper()
	require.Len(t, res.Items, 1, "%+v", res.Items)
	return res.Items[0]
}

func TestVerifiedRewritePasses(t *testing.T) {
	r := newRepo(t)
	res := r.verify(t, false)
	it := only(t, res)
	assert.Equal(t, Pass, it.Status, it.Detail)
	assert.True(t, it.Rerun)
	assert.Equal(t, "to_fahrenheit", it.UDF)
	assert.Equal(t, "sql", it.Target)
	assert.Equal(t, "udfx-rewrites/to_fahrenheit/rewrite.sql", it.File)
	assert.Equal(t, "udfx-rewrites/to_fahrenheit/evidence.json", it.Record)
	assert.Equal(t, "jobs/celsius.py", it.Original)
	// The project's policy, not the record's: at least DefaultRows rows,
	// for the record's seed and each of udfx's own.
	// and, with each seed, the near misses of the literals of celsius.py
	// and of the rewrite (9.0, 5.0, 32.0 and their neighbours).
	const near = 30
	assert.Contains(t, it.Detail, fmt.Sprintf("%d of %d rows agree (bit-exact, ANSI on, errors compared; %d rows for each of seeds 7, 1, 104729, each with %d near misses of the original's and the rewrite's literals)", 3*(DefaultRows+near), 3*(DefaultRows+near), DefaultRows, near))
	assert.Empty(t, it.Relaxations)
	assert.True(t, res.Passed())
	assert.Equal(t, 1, res.Records)
}

func TestEditedUDFIsStale(t *testing.T) {
	r := newRepo(t)
	src, err := os.ReadFile(r.source)
	require.NoError(t, err)
	r.write(t, r.source, strings.Replace(string(src), "+ 32.0", "+ 32.5", 1))
	it := only(t, r.verify(t, true))
	assert.Equal(t, StaleUDF, it.Status)
	assert.Contains(t, it.Detail, "the UDF changed: to_fahrenheit at jobs/celsius.py:7 hashes to ")
	assert.Equal(t, Location{File: "jobs/celsius.py", Line: 7}, it.Location)

	// An edit outside the definition leaves the record valid.
	r.write(t, r.source, "# a comment above\n"+string(src))
	assert.Equal(t, Pass, only(t, r.verify(t, true)).Status)
	// CRLF line endings do not make it stale either.
	r.write(t, r.source, strings.ReplaceAll(string(src), "\n", "\r\n"))
	assert.Equal(t, Pass, only(t, r.verify(t, true)).Status)
}

func TestMissingOriginalIsStale(t *testing.T) {
	r := newRepo(t)
	src, err := os.ReadFile(r.source)
	require.NoError(t, err)
	r.write(t, r.source, strings.Replace(string(src), "def to_fahrenheit", "def to_f", 1))
	it := only(t, r.verify(t, false))
	assert.Equal(t, StaleUDF, it.Status)
	assert.Equal(t, "the UDF changed: jobs/celsius.py no longer defines to_fahrenheit", it.Detail)

	r.write(t, r.source, "def f(:\n")
	it = only(t, r.verify(t, false))
	assert.Equal(t, StaleUDF, it.Status)
	assert.Contains(t, it.Detail, "no longer parses")

	require.NoError(t, os.Remove(r.source))
	it = only(t, r.verify(t, false))
	assert.Equal(t, StaleUDF, it.Status)
	assert.Equal(t, "the UDF changed: its file jobs/celsius.py is gone", it.Detail)
}

func TestEditedRewriteIsStale(t *testing.T) {
	r := newRepo(t)
	r.writeSQL(t, "celsius * 1.8 + 32.0")
	it := only(t, r.verify(t, false))
	assert.Equal(t, StaleRewrite, it.Status)
	assert.Contains(t, it.Detail, "the rewrite changed: sha256 ")
	assert.False(t, it.Rerun, "a stale rewrite is not re-run")

	require.NoError(t, os.Remove(r.sqlPath))
	it = only(t, r.verify(t, false))
	assert.Equal(t, StaleRewrite, it.Status)
	assert.Equal(t, "the rewrite changed: the file is gone", it.Detail)
}

func TestRerunFindsTheCounterexample(t *testing.T) {
	r := newRepo(t)
	// The SQL changes and someone updates the hash by hand, keeping the
	// old "verified": only the re-run catches it.
	r.writeSQL(t, "celsius * 1.8 + 32.0")
	sqlFile, err := os.ReadFile(r.sqlPath)
	require.NoError(t, err)
	rec, err := evidence.Read(r.recordPath)
	require.NoError(t, err)
	rec.Rewrites[0].SHA256 = evidence.SHA256(sqlFile)
	require.NoError(t, evidence.Write(r.recordPath, rec))

	assert.Equal(t, Pass, only(t, r.verify(t, true)).Status, "the hashes alone match")
	it := only(t, r.verify(t, false))
	assert.Equal(t, Mismatch, it.Status)
	require.NotNil(t, it.Counterexample)
	assert.Contains(t, it.Detail, "counterexample: celsius = 13.0 → original 55.4, rewrite 55.400000000000006")
}

func TestFailedRecord(t *testing.T) {
	r := newRepo(t)
	r.writeSQL(t, "celsius * 1.8 + 32.0")
	r.record(t, func(*evidence.Record) {})
	it := only(t, r.verify(t, false))
	assert.Equal(t, Failed, it.Status)
	assert.Regexp(t, `the record's result is "failed", not "verified" \(\d+ mismatches\)`, it.Detail)
	assert.False(t, it.Rerun)
}

func TestUnverifiedRewrites(t *testing.T) {
	r := newRepo(t)
	// A second file claiming the same record, which does not list it.
	extra := filepath.Join(r.dir, "sql", "extra.sql")
	r.write(t, extra, "-- header\n"+evidence.MarkerLine(".sql", "udfx-rewrites/to_fahrenheit/evidence.json")+"\ncelsius\n")
	// A file whose record does not exist.
	orphan := filepath.Join(r.dir, "src", "Orphan.java")
	r.write(t, orphan, evidence.MarkerLine(".java", "udfx-rewrites/Orphan/evidence.json")+"\nclass Orphan {}\n")
	// A marker after line 20 does not count; nor do files in .udfx.
	r.write(t, filepath.Join(r.dir, "late.sql"), strings.Repeat("\n", 20)+evidence.MarkerLine(".sql", "x/evidence.json")+"\n")
	r.write(t, filepath.Join(r.dir, ".udfx", "to_fahrenheit", "candidate.sql"), evidence.MarkerLine(".sql", "nope/evidence.json")+"\n")

	res := r.verify(t, true)
	require.Len(t, res.Items, 3)
	byFile := map[string]Item{}
	for _, it := range res.Items {
		byFile[it.File] = it
	}
	assert.Equal(t, Pass, byFile["udfx-rewrites/to_fahrenheit/rewrite.sql"].Status)
	e := byFile["sql/extra.sql"]
	assert.Equal(t, Unverified, e.Status)
	assert.Equal(t, "to_fahrenheit", e.UDF)
	assert.Equal(t, "its record udfx-rewrites/to_fahrenheit/evidence.json does not list this file", e.Detail)
	assert.Equal(t, Location{File: "sql/extra.sql", Line: 2}, e.Location)
	o := byFile["src/Orphan.java"]
	assert.Equal(t, Unverified, o.Status)
	assert.Equal(t, "columnar", o.Target)
	assert.Equal(t, "its marker names udfx-rewrites/Orphan/evidence.json, which does not exist", o.Detail)
	assert.False(t, res.Passed())
}

func TestUnreadableRecordIsUnverified(t *testing.T) {
	r := newRepo(t)
	r.write(t, r.recordPath, "{not json")
	res := r.verify(t, true)
	require.Len(t, res.Items, 2)
	for _, it := range res.Items {
		assert.Equal(t, Unverified, it.Status, it.File)
	}
	assert.Contains(t, res.Items[0].Detail+res.Items[1].Detail, "not a udfx record")
}

func TestOriginalThatCannotRunIsAnError(t *testing.T) {
	r := newRepo(t)
	res, err := Run(context.Background(), Options{Root: r.dir, Display: ".", NewRunner: func(context.Context, *udf.UDF, runner.Limits) (runner.Runner, error) {
		return nil, &runner.EnvError{What: "Python", Msg: "no interpreter"}
	}})
	require.NoError(t, err)
	it := only(t, res)
	assert.Equal(t, Error, it.Status)
	assert.Contains(t, it.Detail, "cannot run the original: ")
	assert.True(t, res.HasErrors())
}

func TestSkipRerunNeverStartsTheOriginal(t *testing.T) {
	r := newRepo(t)
	res, err := Run(context.Background(), Options{Root: r.dir, Display: ".", SkipRerun: true, NewRunner: func(context.Context, *udf.UDF, runner.Limits) (runner.Runner, error) {
		return nil, errors.New("the original must not run with SkipRerun")
	}})
	require.NoError(t, err)
	it := only(t, res)
	assert.Equal(t, Pass, it.Status)
	assert.False(t, it.Rerun)
	assert.Equal(t, "hashes match the record", it.Detail)
}

func TestBadRoot(t *testing.T) {
	_, err := Run(context.Background(), Options{Root: filepath.Join(t.TempDir(), "nope"), Display: "nope"})
	var ie *InputError
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, "nope: no such file or directory", err.Error())
}

// sample is a result with one item of each status, for the writers.
func sample() *Result {
	ce := &difftest.Counterexample{
		Inputs:   []difftest.NamedValue{{Name: "celsius", Value: difftest.JSONValue{Value: value.DoubleOf(13)}}},
		Original: difftest.JSONValue{Value: value.DoubleOf(55.4)}, Rewrite: difftest.JSONValue{Value: value.DoubleOf(55.400000000000006)}, Shrunk: true,
	}
	return &Result{Root: ".", Records: 3, Items: []Item{
		{UDF: "a", Target: "sql", File: "udfx-rewrites/a/rewrite.sql", Record: "udfx-rewrites/a/evidence.json", Status: Pass, Detail: "hashes match the record", Location: Location{"udfx-rewrites/a/rewrite.sql", 1}},
		{UDF: "b", Target: "sql", File: "udfx-rewrites/b/rewrite.sql", Record: "udfx-rewrites/b/evidence.json", Status: StaleUDF, Detail: "the UDF changed: b at src/B.scala:4", Location: Location{"src/B.scala", 4}},
		{UDF: "c", Target: "sql", File: "udfx-rewrites/c/rewrite.sql", Record: "udfx-rewrites/c/evidence.json", Status: Mismatch, Detail: "differs; counterexample: celsius = 13.0", Counterexample: ce, Location: Location{"udfx-rewrites/c/rewrite.sql", 1}},
		{UDF: "-", Target: "sql", File: "odd, name%.sql", Status: Unverified, Detail: "its marker names x, which does not exist\nsecond line", Location: Location{"odd, name%.sql", 2}},
	}}
}

func TestTable(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, sample().WriteTable(&b))
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	require.Len(t, lines, 6)
	assert.Regexp(t, `^UDF\s+TARGET\s+STATUS\s+FILE\s+DETAIL$`, lines[0])
	assert.Regexp(t, `^b\s+sql\s+stale-udf\s+udfx-rewrites/b/rewrite\.sql\s+the UDF changed`, lines[2])
	assert.Contains(t, lines[4], "does not exist second line", "details stay on one line")
	assert.Equal(t, "4 rewrites checked (3 records): 1 pass, 1 stale-udf, 1 unverified, 1 mismatch", lines[5])
}

func TestJSON(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, sample().WriteJSON(&b, "1.2.3"))
	var doc struct {
		SchemaVersion int            `json:"schema_version"`
		Tool          string         `json:"tool"`
		Passed        bool           `json:"passed"`
		Counts        map[string]int `json:"counts"`
		Items         []struct {
			Status         string
			Location       Location
			Counterexample *struct {
				Inputs []struct {
					Name  string
					Value struct{ Text, Token string }
				}
			}
		}
	}
	require.NoError(t, json.Unmarshal(b.Bytes(), &doc))
	assert.Equal(t, 1, doc.SchemaVersion)
	assert.Equal(t, "udfx 1.2.3", doc.Tool)
	assert.False(t, doc.Passed)
	assert.Equal(t, map[string]int{"pass": 1, "stale-udf": 1, "mismatch": 1, "unverified": 1}, doc.Counts)
	require.Len(t, doc.Items, 4)
	assert.Equal(t, Location{"src/B.scala", 4}, doc.Items[1].Location)
	require.NotNil(t, doc.Items[2].Counterexample)
	assert.Equal(t, "13.0", doc.Items[2].Counterexample.Inputs[0].Value.Text)
	assert.Equal(t, "d402a000000000000", doc.Items[2].Counterexample.Inputs[0].Value.Token)

	b.Reset()
	require.NoError(t, (&Result{Root: "."}).WriteJSON(&b, "x"))
	assert.Contains(t, b.String(), `"items": []`, "an empty run is an empty list, not null")
}

func TestSARIF(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, sample().WriteSARIF(&b, "1.2.3"))
	var log struct {
		Version string
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name  string
					Rules []struct {
						ID                   string
						DefaultConfiguration struct{ Level string }
					}
				}
			}
			Results []struct {
				RuleID    string
				RuleIndex int
				Level     string
				Message   struct{ Text string }
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI       string
							URIBaseID string `json:"uriBaseId"`
						}
						Region struct{ StartLine int }
					}
				}
			}
		}
	}
	require.NoError(t, json.Unmarshal(b.Bytes(), &log))
	assert.Equal(t, "2.1.0", log.Version)
	require.Len(t, log.Runs, 1)
	run := log.Runs[0]
	var ids []string
	for _, r := range run.Tool.Driver.Rules {
		ids = append(ids, r.ID)
		level := "error"
		if r.ID == RelaxationRule {
			level = "note"
		}
		assert.Equal(t, level, r.DefaultConfiguration.Level, r.ID)
	}
	assert.Equal(t, []string{"interrupted-apply", "stale-udf", "stale-use-site", "stale-rewrite", "unverified", "inconsistent-record", "failed", "undeclared-relaxation", "mismatch", "wrong-engine", "error", "relaxation"}, ids)
	require.Len(t, run.Results, 3, "passing rewrites are not results")
	for _, res := range run.Results {
		assert.Equal(t, res.RuleID, ids[res.RuleIndex])
		assert.Equal(t, "SRCROOT", res.Locations[0].PhysicalLocation.ArtifactLocation.URIBaseID)
	}
	assert.Equal(t, "src/B.scala", run.Results[0].Locations[0].PhysicalLocation.ArtifactLocation.URI)
	assert.Equal(t, 4, run.Results[0].Locations[0].PhysicalLocation.Region.StartLine)
	assert.Equal(t, "odd%2C%20name%25.sql", run.Results[2].Locations[0].PhysicalLocation.ArtifactLocation.URI)
}

func TestJUnit(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, sample().WriteJUnit(&b))
	var doc struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Suites   []struct {
			Cases []struct {
				Name    string `xml:"name,attr"`
				Failure *struct {
					Message string `xml:"message,attr"`
					Type    string `xml:"type,attr"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	require.NoError(t, xml.Unmarshal(b.Bytes(), &doc))
	assert.Equal(t, 4, doc.Tests)
	assert.Equal(t, 3, doc.Failures)
	require.Len(t, doc.Suites, 1)
	cases := doc.Suites[0].Cases
	require.Len(t, cases, 4)
	assert.Nil(t, cases[0].Failure)
	require.NotNil(t, cases[1].Failure)
	assert.Equal(t, "stale-udf", cases[1].Failure.Type)
	assert.Equal(t, "the UDF changed: b at src/B.scala:4", cases[1].Failure.Message)
}

func TestAnnotationsAreCapped(t *testing.T) {
	res := &Result{}
	for i := range 13 {
		res.Items = append(res.Items, Item{UDF: fmt.Sprintf("u%02d", i), Target: "sql", File: "f.sql", Status: Unverified, Detail: "line one\nline two", Location: Location{"dir/f,1.sql", 3}})
	}
	res.Items = append(res.Items, Item{UDF: "ok", Status: Pass})
	var b bytes.Buffer
	require.NoError(t, res.WriteAnnotations(&b))
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	require.Len(t, lines, MaxAnnotations+1)
	assert.Equal(t, "::error file=dir/f%2C1.sql,line=3,title=udfx verify%3A unverified::u00 (sql rewrite f.sql): line one%0Aline two", lines[0])
	assert.Equal(t, "udfx verify: 3 more failing rewrites not annotated; see the step summary for the full table", lines[MaxAnnotations])

	b.Reset()
	require.NoError(t, sample().WriteAnnotations(&b))
	lines = strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	require.Len(t, lines, 3)
	assert.True(t, strings.HasPrefix(lines[0], "::error file=src/B.scala,line=4,"), "stale first: %s", lines[0])
}

func TestMarkdown(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, sample().WriteMarkdown(&b))
	s := b.String()
	assert.True(t, strings.HasPrefix(s, "### udfx verify: failed\n\n4 rewrites checked"))
	assert.Contains(t, s, "| UDF | Target | Status | File | Detail |\n|---|---|---|---|---|\n")
	assert.Contains(t, s, "| b | sql | stale-udf | `udfx-rewrites/b/rewrite.sql` | the UDF changed: b at src/B.scala:4 |")
	assert.Equal(t, 4, strings.Count(s, "\n| ")-1, "a row per rewrite after the header")
}

func TestRequireEngineRejectsRecordsOfAnotherEngine(t *testing.T) {
	r := newRepo(t)
	res, err := Run(context.Background(), Options{Root: r.dir, Display: ".", SkipRerun: true, RequireEngine: "spark", NewRunner: goRunners})
	require.NoError(t, err)
	it := only(t, res)
	assert.Equal(t, WrongEngine, it.Status)
	assert.Contains(t, it.Detail, `proved on engine "embedded"; this gate requires "spark"`)
	assert.False(t, res.Passed())

	r.record(t, func(rec *evidence.Record) {
		rec.Engine = evidence.Engine{Name: "spark", ANSI: true, Version: "4.1.1", Master: "local[2]"}
	})
	res, err = Run(context.Background(), Options{Root: r.dir, Display: ".", SkipRerun: true, RequireEngine: "spark", NewRunner: goRunners})
	require.NoError(t, err)
	assert.Equal(t, Pass, only(t, res).Status)
}

// TestRecordPathsStayInTheRepository: a record is the pull request's
// text, and each path it names (the original, a rewrite file, a use
// site's file, an artifact) must resolve inside the repository, symbolic
// links followed, before verify reads or runs it. Each forgery here
// points at an exact copy outside, which passed before.
func TestRecordPathsStayInTheRepository(t *testing.T) {
	for _, c := range []struct {
		name  string
		setup func(t *testing.T, r *repo, outside string) func(*evidence.Record)
		field string
	}{
		{"original by ..", func(t *testing.T, r *repo, outside string) func(*evidence.Record) {
			copyFile(t, r.source, filepath.Join(outside, "celsius.py"))
			return func(rec *evidence.Record) { rec.Original.File = "../outside/celsius.py" }
		}, "original.file ../outside/celsius.py leads outside the repository"},
		{"rewrite by ..", func(t *testing.T, r *repo, outside string) func(*evidence.Record) {
			copyFile(t, r.sqlPath, filepath.Join(outside, "rewrite.sql"))
			return func(rec *evidence.Record) { rec.Rewrites[0].Path = "../outside/rewrite.sql" }
		}, "rewrites[0].path ../outside/rewrite.sql leads outside"},
		{"rewrite by an absolute path", func(t *testing.T, r *repo, outside string) func(*evidence.Record) {
			return func(rec *evidence.Record) { rec.Rewrites[0].Path = "/" + filepath.ToSlash(r.sqlPath) }
		}, "rewrites[0].path \"/"},
		{"original through a linked folder", func(t *testing.T, r *repo, outside string) func(*evidence.Record) {
			copyFile(t, r.source, filepath.Join(outside, "celsius.py"))
			require.NoError(t, os.Symlink(outside, filepath.Join(r.dir, "vendor")))
			return func(rec *evidence.Record) { rec.Original.File = "vendor/celsius.py" }
		}, "original.file vendor/celsius.py leads outside the repository, to "},
		{"original as a linked file", func(t *testing.T, r *repo, outside string) func(*evidence.Record) {
			copyFile(t, r.source, filepath.Join(outside, "celsius.py"))
			require.NoError(t, os.Remove(r.source))
			require.NoError(t, os.Symlink(filepath.Join(outside, "celsius.py"), r.source))
			return func(*evidence.Record) {}
		}, "original.file jobs/celsius.py leads outside the repository"},
		{"use site by ..", func(t *testing.T, r *repo, outside string) func(*evidence.Record) {
			return func(rec *evidence.Record) {
				rec.UseSites = []evidence.UseSite{{File: "../outside/job.py", Old: "to_fahrenheit(col)", New: "x"}}
			}
		}, "use_sites[0].file ../outside/job.py leads outside"},
		{"artifact by ..", func(t *testing.T, r *repo, outside string) func(*evidence.Record) {
			return func(rec *evidence.Record) {
				rec.Artifacts = []evidence.Artifact{{Targets: []string{"sql"}, Path: "../outside/x.jar"}}
			}
		}, "artifacts[0].path ../outside/x.jar leads outside"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newRepo(t)
			outside := filepath.Join(filepath.Dir(r.dir), "outside")
			require.NoError(t, os.MkdirAll(outside, 0o755))
			r.record(t, c.setup(t, r, outside))
			res := r.verify(t, false)
			refused := 0
			for _, it := range res.Items {
				assert.NotEqual(t, Pass, it.Status, "%s: %s", it.File, it.Detail)
				assert.False(t, it.Rerun, "nothing outside was run")
				if it.Status == InconsistentRecord {
					refused++
					assert.Contains(t, it.Detail, "the record's "+c.field)
					assert.Contains(t, it.Detail, "verify reads and runs only files inside the repository")
				}
			}
			assert.Equal(t, 1, refused, "%+v", res.Items)
			assert.False(t, res.Passed())
		})
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Dir(to), 0o755))
	require.NoError(t, os.WriteFile(to, b, 0o644))
}

// TestNamesFromTheRepositoryPrintQuoted: a file named with a newline and
// an escape sequence was printed raw, forging a line of the table and
// recolouring the terminal; the table and the Markdown quote it.
func TestNamesFromTheRepositoryPrintQuoted(t *testing.T) {
	r := newRepo(t)
	name := "jobs/x\n\x1b[31mpass.sql"
	r.write(t, filepath.Join(r.dir, filepath.FromSlash(name)), evidence.MarkerLine(".sql", "udfx-rewrites/gone/evidence.json")+"\n1\n")
	res := r.verify(t, true)
	for _, write := range []func(io.Writer) error{res.WriteTable, res.WriteMarkdown} {
		var b bytes.Buffer
		require.NoError(t, write(&b))
		out := b.String()
		assert.NotContains(t, out, "\x1b")
		assert.Contains(t, out, `"jobs/x\n\x1b[31mpass.sql"`)
		for _, l := range strings.Split(out, "\n") {
			assert.False(t, strings.HasPrefix(l, "\x1b[31mpass.sql"), "no line starts with the name's second half")
		}
	}
}
