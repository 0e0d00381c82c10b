package scan

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/sarif"
	"github.com/udfx/udfx/harness/udf"
)

// lineFrontend is a front-end for tests of the walk and the runner: every
// line "UDF name" is a UDF, "SYNTAX" a syntax error and "PANIC" a bug.
type lineFrontend struct {
	lang   udf.Language
	closed *atomic.Int32
}

func (f *lineFrontend) Language() udf.Language { return f.lang }
func (f *lineFrontend) Close()                 { f.closed.Add(1) }

func (f *lineFrontend) Parse(path string, src []byte) ([]udf.UDF, error) {
	var out []udf.UDF
	for i, line := range strings.Split(string(src), "\n") {
		pos := udf.Position{Line: i + 1, Column: 1}
		switch {
		case line == "SYNTAX":
			return nil, &udf.ParseError{File: path, Pos: pos, Message: "syntax error"}
		case line == "PANIC":
			panic("boom")
		case strings.HasPrefix(line, "UDF "):
			u := udf.UDF{Name: strings.TrimPrefix(line, "UDF "), Language: f.lang, Kind: udf.KindLambda, File: path,
				Span: udf.Span{Start: pos, End: udf.Position{Line: i + 1, Column: len(line) + 1}}, Return: udf.Prim(udf.Double)}
			u.Finish()
			out = append(out, u)
		}
	}
	return out, nil
}

type fixture struct {
	dir    string
	closed atomic.Int32
}

func newFixture(t *testing.T, files map[string]string) *fixture {
	t.Helper()
	fx := &fixture{dir: t.TempDir()}
	for name, content := range files {
		p := filepath.Join(fx.dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	return fx
}

func (fx *fixture) run(t *testing.T, paths ...string) (*Result, error) {
	t.Helper()
	return Run(context.Background(), Options{
		Paths:   paths,
		BaseDir: fx.dir,
		NewFrontend: func(l udf.Language) udf.Frontend {
			return &lineFrontend{lang: l, closed: &fx.closed}
		},
	})
}

func names(res *Result) []string {
	var out []string
	for _, u := range res.UDFs {
		out = append(out, u.File+":"+u.Name)
	}
	return out
}

func TestScanWalksLanguagesAndOrdersResults(t *testing.T) {
	fx := newFixture(t, map[string]string{
		"b/Job.scala":     "UDF second\nUDF first_in_line_order",
		"a/job.py":        "x\nUDF py",
		"a/Job.java":      "UDF java",
		"a/script.sc":     "UDF worksheet",
		"README.md":       "UDF not_source",
		"a/notes.txt":     "UDF not_source",
		"c/empty.py":      "",
		"c/deep/x/y/z.py": "UDF deep",
	})
	res, err := fx.run(t)
	require.NoError(t, err)
	assert.Equal(t, []string{
		"a/Job.java:java", "a/job.py:py", "a/script.sc:worksheet",
		"b/Job.scala:second", "b/Job.scala:first_in_line_order", "c/deep/x/y/z.py:deep",
	}, names(res))
	assert.Equal(t, 6, res.FilesScanned)
	assert.Empty(t, res.Errors)
	assert.Positive(t, fx.closed.Load(), "front-ends are closed")
}

func TestScanHonoursGitignoreAndSkipsVendoredHiddenAndBinary(t *testing.T) {
	fx := newFixture(t, map[string]string{
		".gitignore":                 "build/\n*.gen.py\n",
		"src/.gitignore":             "local_*.scala\n",
		"src/Keep.scala":             "UDF keep",
		"src/local_Tmp.scala":        "UDF ignored_nested",
		"src/x.gen.py":               "UDF ignored_glob",
		"build/Out.scala":            "UDF ignored_dir",
		"vendor/lib/V.java":          "UDF vendored",
		"node_modules/m/n.py":        "UDF vendored",
		".venv/lib/site.py":          "UDF hidden",
		".udfx/to_f/orig.scala":      "UDF workspace",
		"src/blob.py":                "UDF bin\x00ary",
		"third_party/T.scala":        "UDF vendored",
		"src/pkg/site-packages/a.py": "UDF vendored",
	})
	require.NoError(t, os.Mkdir(filepath.Join(fx.dir, ".git"), 0o755))
	res, err := fx.run(t, ".")
	require.NoError(t, err)
	assert.Equal(t, []string{"src/Keep.scala:keep"}, names(res))
	assert.Equal(t, []Skipped{{File: "src/blob.py", Reason: "binary content"}}, res.Skipped)

	// Scanning a subfolder still honours the .gitignore above it.
	res, err = fx.run(t, "src")
	require.NoError(t, err)
	assert.Equal(t, []string{"src/Keep.scala:keep"}, names(res))
}

func TestScanSymlinkLoopsAndDuplicates(t *testing.T) {
	fx := newFixture(t, map[string]string{"a/A.scala": "UDF a"})
	require.NoError(t, os.Symlink("..", filepath.Join(fx.dir, "a", "up")))          // a loop
	require.NoError(t, os.Symlink("a", filepath.Join(fx.dir, "alias")))             // the same folder again
	require.NoError(t, os.Symlink("missing", filepath.Join(fx.dir, "dangling.py"))) // a dangling link
	res, err := fx.run(t, ".", "a/A.scala")
	require.NoError(t, err)
	assert.Equal(t, []string{"a/A.scala:a"}, names(res), "each file once, no endless walk")
}

func TestScanBadPaths(t *testing.T) {
	fx := newFixture(t, map[string]string{"notes.txt": "x"})
	_, err := fx.run(t, "nope")
	var inErr *InputError
	require.ErrorAs(t, err, &inErr)
	assert.Equal(t, "nope: no such file or directory", err.Error())

	_, err = fx.run(t, "notes.txt")
	require.ErrorAs(t, err, &inErr)
	assert.Contains(t, err.Error(), "notes.txt: not a Scala (.scala, .sc), Java (.java) or Python (.py) file")
}

func TestScanReportsParseErrorsAndGoesOn(t *testing.T) {
	fx := newFixture(t, map[string]string{
		"bad.py":  "UDF lost\nSYNTAX",
		"good.py": "UDF kept",
	})
	res, err := fx.run(t)
	require.NoError(t, err)
	assert.Equal(t, []string{"good.py:kept"}, names(res), "no partial output from the broken file")
	require.Len(t, res.Errors, 1)
	assert.Equal(t, "bad.py:2:1: syntax error", res.Errors[0].Error())
	assert.Equal(t, 2, res.FilesScanned)
}

func TestScanFrontendPanicIsAnInternalError(t *testing.T) {
	fx := newFixture(t, map[string]string{"boom.py": "PANIC", "ok.py": "UDF ok"})
	_, err := fx.run(t)
	var ie *InternalError
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, "boom.py", ie.File)
	assert.Contains(t, err.Error(), "python front-end panicked: boom")
}

func TestScanProgressAndWorkers(t *testing.T) {
	files := map[string]string{}
	for i := range 50 {
		files[filepath.Join("p", string(rune('a'+i%26))+strings.Repeat("x", i/26)+".py")] = "UDF u"
	}
	fx := newFixture(t, files)
	var calls []int
	res, err := Run(context.Background(), Options{
		BaseDir: fx.dir, Workers: 4,
		NewFrontend: func(l udf.Language) udf.Frontend { return &lineFrontend{lang: l, closed: &fx.closed} },
		Progress: func(done, total int) {
			assert.Equal(t, 50, total)
			calls = append(calls, done)
		},
	})
	require.NoError(t, err)
	assert.Len(t, res.UDFs, 50)
	require.Len(t, calls, 50)
	assert.Equal(t, 50, calls[49])
	assert.Equal(t, int32(4*1), fx.closed.Load(), "one front-end per worker and language, all closed")
}

func TestScanCancelled(t *testing.T) {
	fx := newFixture(t, map[string]string{"a.py": "UDF a"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Run(ctx, Options{BaseDir: fx.dir, NewFrontend: func(l udf.Language) udf.Frontend {
		return &lineFrontend{lang: l, closed: &fx.closed}
	}})
	assert.ErrorIs(t, err, context.Canceled)
}

func TestFormats(t *testing.T) {
	fx := newFixture(t, map[string]string{"dir with space/job.py": "UDF f", "bad.py": "SYNTAX"})
	res, err := fx.run(t)
	require.NoError(t, err)

	var buf bytes.Buffer
	require.NoError(t, WriteJSON(&buf, res, "1.2.3"))
	var doc map[string]any
	require.NoError(t, json.Unmarshal(buf.Bytes(), &doc))
	assert.Equal(t, map[string]any{"name": "udfx", "version": "1.2.3"}, doc["tool"])
	assert.EqualValues(t, SchemaVersion, doc["schema_version"])
	assert.Len(t, doc["udfs"], 1)
	assert.Len(t, doc["errors"], 1)

	buf.Reset()
	require.NoError(t, WriteSARIF(&buf, res, "1.2.3"))
	var log sarif.Log
	require.NoError(t, json.Unmarshal(buf.Bytes(), &log))
	assert.Equal(t, "2.1.0", log.Version)
	run := log.Runs[0]
	require.Len(t, run.Results, 2)
	ids := map[string]bool{}
	for _, r := range run.Tool.Driver.Rules {
		ids[r.ID] = true
	}
	for _, r := range run.Results {
		assert.True(t, ids[r.RuleID], "result rule %s is declared", r.RuleID)
		assert.Equal(t, r.RuleID, run.Tool.Driver.Rules[r.RuleIndex].ID)
	}
	assert.Equal(t, "dir%20with%20space/job.py", run.Results[0].Locations[0].PhysicalLocation.ArtifactLocation.URI)
	assert.Equal(t, "SRCROOT", run.Results[0].Locations[0].PhysicalLocation.ArtifactLocation.URIBaseID)
	assert.Equal(t, "parse-error", run.Results[1].RuleID)
	assert.Equal(t, "warning", run.Results[1].Level)

	buf.Reset()
	require.NoError(t, WriteTable(&buf, res))
	out := buf.String()
	assert.Contains(t, out, "LOCATION")
	assert.Contains(t, out, "dir with space/job.py:1:1")
	assert.Contains(t, out, "1 UDF in 2 files scanned, 1 file could not be parsed\n")
}

// TestScanNamesAndSkipsANonUTF8FileName: a file named caf\xe9.py was
// listed as caf\ufffd.py, and rewriting it failed with FileNotFoundError:
// it is skipped, named (quoted in the table), with the reason.
func TestScanNamesAndSkipsANonUTF8FileName(t *testing.T) {
	fx := newFixture(t, map[string]string{"src/ok.py": "UDF ok", "src/caf\xe9.py": "UDF cafe"})
	res, err := fx.run(t, ".")
	require.NoError(t, err)
	assert.Equal(t, []string{"src/ok.py:ok"}, names(res))
	require.Len(t, res.Skipped, 1)
	assert.Equal(t, "src/caf\xe9.py", res.Skipped[0].File)
	assert.Contains(t, res.Skipped[0].Reason, "not valid UTF-8")
	var b bytes.Buffer
	require.NoError(t, WriteTable(&b, res))
	assert.Contains(t, b.String(), `skipped "src/caf\xe9.py": its name is not valid UTF-8`)
	assert.True(t, utf8.ValidString(b.String()))
}
