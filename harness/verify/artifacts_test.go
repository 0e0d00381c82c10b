package verify

import (
	"archive/zip"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/render/columnar"
	"github.com/udfx/udfx/harness/render/cuda"
	"github.com/udfx/udfx/harness/render/sparksql"
	"github.com/udfx/udfx/harness/translate"
	"github.com/udfx/udfx/harness/udf"
)

func jarOf(t *testing.T, entries map[string]string) []byte {
	t.Helper()
	var b bytes.Buffer
	z := zip.NewWriter(&b)
	for _, name := range []string{"META-INF/MANIFEST.MF", "a/B.class", "udfx/native/libx.so"} {
		if c, ok := entries[name]; ok {
			w, err := z.Create(name)
			require.NoError(t, err)
			_, err = w.Write([]byte(c))
			require.NoError(t, err)
		}
	}
	require.NoError(t, z.Close())
	return b.Bytes()
}

// TestCheckArtifact: a RapidsUDF jar passes only with the recorded bytes
// and entries; a missing jar is reported as not checked, not as stale.
func TestCheckArtifact(t *testing.T) {
	content := map[string]string{"META-INF/MANIFEST.MF": "Manifest-Version: 1.0\r\n", "a/B.class": "\xca\xfe\xba\xbe", "udfx/native/libx.so": "\x7fELF"}
	jar := jarOf(t, content)
	a := evidence.Artifact{Targets: []string{"columnar", "cuda"}, Path: ".udfx/X/udfx-X-rapids.jar", SHA256: evidence.SHA256(jar)}
	for _, n := range []string{"META-INF/MANIFEST.MF", "a/B.class", "udfx/native/libx.so"} {
		a.Entries = append(a.Entries, evidence.ArtifactEntry{Path: n, SHA256: evidence.SHA256([]byte(content[n]))})
	}
	p := filepath.Join(t.TempDir(), "x.jar")

	problem, present := checkArtifact(p, a)
	assert.False(t, present)
	assert.Empty(t, problem)

	require.NoError(t, os.WriteFile(p, jar, 0o644))
	problem, present = checkArtifact(p, a)
	assert.True(t, present)
	assert.Empty(t, problem)

	require.NoError(t, os.WriteFile(p, append(jar, 0), 0o644))
	problem, _ = checkArtifact(p, a)
	assert.Contains(t, problem, "the RapidsUDF jar .udfx/X/udfx-X-rapids.jar changed: sha256")

	// A jar rebuilt with another class: the jar's hash is recorded anew by
	// hand, the entry still differs.
	other := map[string]string{"META-INF/MANIFEST.MF": content["META-INF/MANIFEST.MF"], "a/B.class": "\xca\xfe\xba\xbe\x00", "udfx/native/libx.so": content["udfx/native/libx.so"]}
	jar2 := jarOf(t, other)
	require.NoError(t, os.WriteFile(p, jar2, 0o644))
	a2 := a
	a2.SHA256 = evidence.SHA256(jar2)
	problem, _ = checkArtifact(p, a2)
	assert.Contains(t, problem, "a/B.class does not hash as recorded")

	// The library left out.
	delete(other, "udfx/native/libx.so")
	other["a/B.class"] = content["a/B.class"]
	jar3 := jarOf(t, other)
	require.NoError(t, os.WriteFile(p, jar3, 0o644))
	a3 := a
	a3.SHA256 = evidence.SHA256(jar3)
	problem, _ = checkArtifact(p, a3)
	assert.Contains(t, problem, "holds 2 entries, the record lists 3")
}

// renderedRepo is a repository holding the Java ToFahrenheit example and
// a record of its translator's SQL with the columnar and cuda files
// rendered from that expression, as udfx rewrite writes them.
type renderedRepo struct {
	*hashRepo
	files map[string]string // rewrite file -> content, by path
}

func newRenderedRepo(t *testing.T) *renderedRepo {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", "examples", "java-to-fahrenheit", "ToFahrenheit.java"))
	require.NoError(t, err)
	h := newHashRepo(t, "src/ToFahrenheit.java", udf.Java, "ToFahrenheit", string(src))
	u := parseOne(t, filepath.Join(h.dir, h.file), udf.Java, "ToFahrenheit")
	res, err := translate.Translate(u, src)
	require.NoError(t, err)
	require.NotNil(t, res.IR)
	sql, err := sparksql.Render(res.IR)
	require.NoError(t, err)
	h.record(t, sql, false)
	recDir := evidence.Dir + "/ToFahrenheit"
	r := &renderedRepo{hashRepo: h, files: map[string]string{}}
	col, err := columnar.RenderIn(u, res.IR, recDir+"/"+evidence.FileName, "examples.temperature")
	require.NoError(t, err)
	for _, f := range col {
		r.files[recDir+"/columnar/"+filepath.Base(f.Path)] = string(f.Content)
	}
	cu, err := cuda.Render(u, res.IR, recDir+"/"+evidence.FileName)
	require.NoError(t, err)
	for _, f := range cu {
		r.files[recDir+"/cuda/"+f.Path] = string(f.Content)
	}
	r.rerecord(t, nil)
	return r
}

// rerecord writes every rewrite file, then the record listing them with
// their hashes, then lets edit change the record.
func (r *renderedRepo) rerecord(t *testing.T, edit func(*evidence.Record)) {
	t.Helper()
	rec, err := evidence.Read(r.recordPath)
	require.NoError(t, err)
	rec.Rewrites = rec.Rewrites[:1]
	paths := make([]string, 0, len(r.files))
	for p := range r.files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		target := "cuda"
		if strings.Contains(p, "/columnar/") {
			target = "columnar"
		}
		r.write(t, p, r.files[p])
		rec.Rewrites = append(rec.Rewrites, evidence.RewriteFile{Target: target, Path: p, SHA256: evidence.SHA256([]byte(r.files[p]))})
	}
	if edit != nil {
		edit(rec)
	}
	require.NoError(t, evidence.Write(r.recordPath, rec))
}

func (r *renderedRepo) verifyAll(t *testing.T) []Item {
	t.Helper()
	res, err := Run(context.Background(), Options{Root: r.dir, Display: ".", SkipRerun: true})
	require.NoError(t, err)
	require.Len(t, res.Items, 1+len(r.files), "%+v", res.Items)
	return res.Items
}

// TestRenderedFilesAreRenderedAgain: the columnar and cuda files need a
// GPU to run, so verify renders them again from the proved expression
// and compares: a file edited with its hash updated in the record (which
// passed on the hash before), or one udfx does not render, is stale.
func TestRenderedFilesAreRenderedAgain(t *testing.T) {
	r := newRenderedRepo(t)
	for _, it := range r.verifyAll(t) {
		require.Equal(t, Pass, it.Status, "%s: %s", it.File, it.Detail)
		if it.Target != "sql" {
			assert.Contains(t, it.Detail, "rendered again from the proved expression: identical", it.File)
		}
	}

	colPath := evidence.Dir + "/ToFahrenheit/columnar/ToFahrenheitRapidsUDF.java"
	require.Contains(t, r.files, colPath)
	good := r.files[colPath]
	require.Contains(t, good, "Scalar.fromDouble(32d)")
	r.files[colPath] = strings.Replace(good, "Scalar.fromDouble(32d)", "Scalar.fromDouble(33d)", 1)
	r.rerecord(t, nil)
	for _, it := range r.verifyAll(t) {
		if it.File == colPath {
			assert.Equal(t, StaleRewrite, it.Status)
			assert.Regexp(t, `^the columnar file is not what udfx renders from the proved expression \(first difference at line \d+\)$`, it.Detail)
		} else {
			assert.Equal(t, Pass, it.Status, "%s: %s", it.File, it.Detail)
		}
	}
	r.files[colPath] = good

	kernel := evidence.Dir + "/ToFahrenheit/cuda/udf_row.h"
	require.Contains(t, r.files, kernel)
	goodKernel := r.files[kernel]
	r.files[kernel] = goodKernel + "// and something else\n"
	r.rerecord(t, nil)
	for _, it := range r.verifyAll(t) {
		if it.File == kernel {
			assert.Equal(t, StaleRewrite, it.Status)
			assert.Contains(t, it.Detail, "the cuda file is not what udfx renders")
		}
	}
	r.files[kernel] = goodKernel

	extra := evidence.Dir + "/ToFahrenheit/cuda/extra.cu"
	r.files[extra] = "__global__ void k() {}\n"
	r.rerecord(t, nil)
	for _, it := range r.verifyAll(t) {
		if it.File == extra {
			assert.Equal(t, StaleRewrite, it.Status)
			assert.Equal(t, "udfx renders no cuda file "+extra+" from the proved expression", it.Detail)
		}
	}
	delete(r.files, extra)

	// A proved SQL that is not the translator's: no columnar or cuda file
	// is udfx's rendering of it.
	r.rerecord(t, nil)
	h := r.hashRepo
	h.record(t, "(celsius * 1.8D) + 32.0D", false)
	r.rerecord(t, nil)
	for _, it := range r.verifyAll(t) {
		if it.Target != "sql" {
			assert.Equal(t, StaleRewrite, it.Status, it.File)
			assert.Contains(t, it.Detail, "the proved SQL is not the built-in translator's expression")
		}
	}
}

// TestRecordWithArtifact runs the gate over a record that lists a
// columnar file and the jar built from it: the jar as recorded passes, a
// changed jar makes the columnar item stale (the sql item stays), and a
// checkout without the jar passes with a detail saying it was not checked.
func TestRecordWithArtifact(t *testing.T) {
	r := newRenderedRepo(t)
	content := map[string]string{"META-INF/MANIFEST.MF": "Manifest-Version: 1.0\r\n", "a/B.class": "\xca\xfe\xba\xbe"}
	jar := jarOf(t, content)
	jarRel := ".udfx/ToFahrenheit/udfx-ToFahrenheit-rapids.jar"
	jarAbs := filepath.Join(r.dir, filepath.FromSlash(jarRel))
	r.write(t, jarRel, string(jar))
	r.rerecord(t, func(rec *evidence.Record) {
		rec.Artifacts = []evidence.Artifact{{Targets: []string{"columnar"}, Path: jarRel, SHA256: evidence.SHA256(jar), Entries: []evidence.ArtifactEntry{
			{Path: "META-INF/MANIFEST.MF", SHA256: evidence.SHA256([]byte(content["META-INF/MANIFEST.MF"]))},
			{Path: "a/B.class", SHA256: evidence.SHA256([]byte(content["a/B.class"]))},
		}}}
	})
	byTarget := func(items []Item) map[string]Item {
		m := map[string]Item{}
		for _, it := range items {
			if it.Target != "cuda" {
				m[it.Target] = it
			}
		}
		require.Len(t, m, 2, "%+v", items)
		return m
	}

	items := byTarget(r.verifyAll(t))
	assert.Equal(t, Pass, items["columnar"].Status, items["columnar"].Detail)
	assert.Contains(t, items["columnar"].Detail, "its jar "+jarRel+" matches the record (2 entries)")
	assert.NotContains(t, items["sql"].Detail, "jar")

	r.write(t, jarRel, string(jar)+"x")
	items = byTarget(r.verifyAll(t))
	assert.Equal(t, StaleRewrite, items["columnar"].Status)
	assert.Contains(t, items["columnar"].Detail, "the RapidsUDF jar "+jarRel+" changed")
	assert.Equal(t, Pass, items["sql"].Status)

	require.NoError(t, os.Remove(jarAbs))
	items = byTarget(r.verifyAll(t))
	assert.Equal(t, Pass, items["columnar"].Status)
	assert.Contains(t, items["columnar"].Detail, "is not here (udfx rewrite builds it), so its hashes were not checked")
}
