package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/txtar"

	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/testsetup"
)

// The forgery corpus (issue 26): each file in testdata/forgeries is one
// attempt by a pull request to make `udfx verify` pass something that
// was not proved. It starts from a repository where `udfx rewrite
// --apply` proved and applied a rewrite, edits the code, the rewrite,
// the record or the config as the file says, re-hashes the record as a
// forger would, and runs the full gate. Every attempt must fail the gate
// with the reason the file names.
//
// An attempt's header:
//
//	base: celsius | scala | vectors | wordcount | pertype   the applied repository it starts from
//	class: N                          the forgery class (for the count)
//	want: STATUS: TEXT                an item with STATUS whose detail has TEXT
//	want: usage: TEXT                 the gate stops (exit 2) saying TEXT
//	args: --flag ...                  extra verify arguments (optional)
//
// and its sections, applied in order (PATH is from the repository root;
// {{site}} is the first recorded use site's text, {{sql}} the SQL):
//
//	-- write PATH --     the file's new content
//	-- append PATH --    text added at its end
//	-- replace PATH --   OLD, a line ">>>", NEW: the first OLD becomes NEW
//	-- delete PATH --    removes it
//	-- symlink PATH --   makes it a link to the content (one line)
//	-- chmod PATH --     sets its mode (octal, one line)
//	-- record UDF --     lines "set PATH JSON", "add PATH JSON" (append to
//	                     an array), "del PATH" on the record's JSON, where
//	                     PATH is dotted (use_sites.0.new)

// forgeryBases are the applied repositories the attempts start from.
var forgeryBases = map[string]struct{ example, file, ref string }{
	"celsius": {"python-celsius", "celsius.py", "examples/python-celsius/celsius.py"},
	"scala":   {"scala-to-fahrenheit", "ToFahrenheit.scala", "examples/scala-to-fahrenheit/ToFahrenheit.scala"},
	"vectors": {"python-vectors", "vectors.py", "examples/python-vectors/vectors.py:moving_average"},
	// The RDD word count, rewritten to DataFrame code and proved on Spark.
	"wordcount": {"python-wordcount", "wordcount.py", "examples/python-wordcount/wordcount.py:counts"},
	// A UDF no source types, proved per type behind a typeof guard.
	"pertype": {"python-per-type", "scores.py", "examples/python-per-type/scores.py:band"},
}

type forgery struct {
	name, base, class, want string
	args                    []string
	archive                 *txtar.Archive
}

func readForgeries(t *testing.T) []forgery {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "forgeries", "*.txtar"))
	require.NoError(t, err)
	var out []forgery
	for _, p := range paths {
		a, err := txtar.ParseFile(p)
		require.NoError(t, err)
		f := forgery{name: strings.TrimSuffix(filepath.Base(p), ".txtar"), archive: a}
		for _, line := range strings.Split(string(a.Comment), "\n") {
			k, v, ok := strings.Cut(line, ":")
			if !ok {
				continue
			}
			v = strings.TrimSpace(v)
			switch k {
			case "base":
				f.base = v
			case "class":
				f.class = v
			case "want":
				f.want = v
			case "args":
				f.args = strings.Fields(v)
			}
		}
		require.Contains(t, forgeryBases, f.base, "%s: base", p)
		require.NotEmpty(t, f.want, "%s: want", p)
		require.NotEmpty(t, f.class, "%s: class", p)
		out = append(out, f)
	}
	return out
}

func TestForgeryCorpus(t *testing.T) {
	forgeries := readForgeries(t)
	require.GreaterOrEqual(t, len(forgeries), 60, "the corpus holds at least 60 attempts")
	classes := map[string]int{}
	for _, f := range forgeries {
		classes[f.class]++
	}
	// Each class of the issue in several forms.
	for _, c := range []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "11", "12", "13"} {
		assert.GreaterOrEqual(t, classes[c], 2, "class %s has attempts", c)
	}

	testsetup.RapidsJars(t) // the Scala base renders and packages its columnar files
	bases := map[string]string{}
	for name, b := range forgeryBases {
		dir := exampleRepo(t, b.example, b.file)
		stdout, stderr, code := runCLI(t, dir, "rewrite", b.ref, "--rows", "2000", "--apply")
		require.Equal(t, exitOK, code, "base %s: stdout:\n%s\nstderr:\n%s", name, stdout, stderr)
		stdout, stderr, code = runCLI(t, dir, "verify", "--sandbox", "off") // Spark's workers are not contained
		require.Equal(t, exitOK, code, "base %s passes the gate before any forgery: stdout:\n%s\nstderr:\n%s", name, stdout, stderr)
		bases[name] = dir
	}

	for _, f := range forgeries {
		t.Run(f.name, func(t *testing.T) {
			parent := t.TempDir()
			dir := filepath.Join(parent, "repo")
			require.NoError(t, os.CopyFS(dir, os.DirFS(bases[f.base])))
			forge(t, parent, dir, f)
			stdout, stderr, code := runCLI(t, dir, append([]string{"verify", "--format", "json"}, f.args...)...)
			status, text, _ := strings.Cut(f.want, ":")
			status, text = strings.TrimSpace(status), strings.TrimSpace(text)
			if status == "usage" {
				assert.Equal(t, exitUsage, code, "stdout: %s\nstderr: %s", stdout, stderr)
				assert.Contains(t, stderr, text)
				return
			}
			assert.NotEqual(t, exitOK, code, "the gate passed the forgery: %s", stdout)
			var doc struct {
				Items []struct{ Status, Detail, File string }
			}
			require.NoError(t, json.Unmarshal([]byte(stdout), &doc), "stdout: %s\nstderr: %s", stdout, stderr)
			var seen []string
			for _, it := range doc.Items {
				if it.Status == status && strings.Contains(it.Detail, text) {
					t.Logf("%s %s: %s", it.Status, it.File, it.Detail)
					return
				}
				seen = append(seen, it.Status+" "+it.File+": "+it.Detail)
			}
			t.Errorf("no %s item says %q; the items:\n%s", status, text, strings.Join(seen, "\n"))
		})
	}
	var counts []string
	for c, n := range classes {
		counts = append(counts, fmt.Sprintf("class %s: %d", c, n))
	}
	sort.Strings(counts)
	t.Logf("%d forgeries, %s", len(forgeries), strings.Join(counts, ", "))
}

// forge applies f's sections to the repository in dir (parent holds it,
// so that a path may lead outside it), then re-hashes each record as a
// forger would: every rewrite file's sha256 and every use site's.
func forge(t *testing.T, parent, dir string, f forgery) {
	t.Helper()
	site, sql := forgeryPlaceholders(t, dir, f.base)
	expand := func(s string) string {
		return strings.NewReplacer("{{site}}", site, "{{sql}}", sql).Replace(s)
	}
	for _, sec := range f.archive.Files {
		op, arg, _ := strings.Cut(sec.Name, " ")
		path := filepath.Join(dir, filepath.FromSlash(arg))
		require.True(t, strings.HasPrefix(path, parent), "%s stays in the test's folder", arg)
		data := expand(string(sec.Data))
		switch op {
		case "write":
			require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
			require.NoError(t, os.RemoveAll(path))
			require.NoError(t, os.WriteFile(path, []byte(data), 0o755))
		case "append":
			b, err := os.ReadFile(path)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(path, append(b, data...), 0o644))
		case "replace":
			old, new, ok := strings.Cut(data, "\n>>>\n")
			require.True(t, ok, "%s: replace needs OLD, >>>, NEW", sec.Name)
			old, new = strings.TrimSuffix(old, "\n"), strings.TrimSuffix(new, "\n")
			b, err := os.ReadFile(path)
			require.NoError(t, err)
			require.Contains(t, string(b), old, "%s", sec.Name)
			require.NoError(t, os.WriteFile(path, []byte(strings.Replace(string(b), old, new, 1)), 0o644))
		case "delete":
			require.NoError(t, os.RemoveAll(path))
		case "symlink":
			require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
			require.NoError(t, os.RemoveAll(path))
			require.NoError(t, os.Symlink(strings.TrimSpace(data), path))
		case "chmod":
			mode, err := strconv.ParseUint(strings.TrimSpace(data), 8, 32)
			require.NoError(t, err)
			require.NoError(t, os.Chmod(path, fs.FileMode(mode)))
			t.Cleanup(func() { _ = os.Chmod(path, 0o755) })
		case "record":
			editRecord(t, filepath.Join(dir, evidence.Dir, arg, evidence.FileName), data)
		default:
			t.Fatalf("%s: unknown section %q", f.name, sec.Name)
		}
	}
	rehash(t, dir)
}

// forgeryPlaceholders are the base's first use site and its SQL.
func forgeryPlaceholders(t *testing.T, dir, base string) (site, sql string) {
	t.Helper()
	recs, err := filepath.Glob(filepath.Join(dir, evidence.Dir, "*", evidence.FileName))
	require.NoError(t, err)
	require.Len(t, recs, 1, "base %s has one record", base)
	rec, err := evidence.Read(recs[0])
	require.NoError(t, err)
	if len(rec.UseSites) > 0 {
		site = rec.UseSites[0].New
	}
	for _, rw := range rec.Rewrites {
		if rw.Target == "sql" {
			b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rw.Path)))
			require.NoError(t, err)
			sql = strings.TrimSpace(evidence.StripSQLComments(string(b)))
		}
	}
	return site, sql
}

// editRecord applies set/add/del lines to the record's JSON.
func editRecord(t *testing.T, path, script string) {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var doc any
	require.NoError(t, json.Unmarshal(b, &doc))
	for _, line := range strings.Split(strings.TrimSpace(script), "\n") {
		op, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
		at, val, _ := strings.Cut(rest, " ")
		keys := strings.Split(at, ".")
		var v any
		if op != "del" {
			require.NoError(t, json.Unmarshal([]byte(val), &v), "%s: %s", path, line)
		}
		doc = jsonEdit(t, doc, keys, op, v)
	}
	out, err := json.MarshalIndent(doc, "", "  ")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, out, 0o644))
}

func jsonEdit(t *testing.T, node any, keys []string, op string, v any) any {
	t.Helper()
	if len(keys) == 0 {
		switch op {
		case "set":
			return v
		case "add":
			arr, ok := node.([]any)
			require.True(t, ok || node == nil, "add to a non-array")
			return append(arr, v)
		}
		t.Fatalf("unknown record op %q", op)
	}
	k := keys[0]
	switch n := node.(type) {
	case map[string]any:
		if len(keys) == 1 && op == "del" {
			delete(n, k)
			return n
		}
		n[k] = jsonEdit(t, n[k], keys[1:], op, v)
		return n
	case []any:
		i, err := strconv.Atoi(k)
		require.NoError(t, err)
		require.Less(t, i, len(n))
		if len(keys) == 1 && op == "del" {
			return append(n[:i], n[i+1:]...)
		}
		n[i] = jsonEdit(t, n[i], keys[1:], op, v)
		return n
	case nil:
		m := map[string]any{}
		m[k] = jsonEdit(t, nil, keys[1:], op, v)
		return m
	}
	t.Fatalf("cannot edit %v at %s", node, k)
	return nil
}

// rehash makes every record's hashes of its rewrite files and use sites
// match what is there, as a forger who edits them would.
func rehash(t *testing.T, dir string) {
	t.Helper()
	recs, err := filepath.Glob(filepath.Join(dir, evidence.Dir, "*", evidence.FileName))
	require.NoError(t, err)
	for _, p := range recs {
		rec, err := evidence.Read(p)
		if err != nil {
			continue // an attempt on the record's syntax
		}
		for i, rw := range rec.Rewrites {
			if b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rw.Path))); err == nil {
				rec.Rewrites[i].SHA256 = evidence.SHA256(b)
			}
		}
		for i, s := range rec.UseSites {
			rec.UseSites[i].NewSHA256 = evidence.SHA256([]byte(s.New))
		}
		require.NoError(t, evidence.Write(p, rec))
	}
}
