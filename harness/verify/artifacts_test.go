package verify

import (
	"archive/zip"
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/evidence"
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

// TestRecordWithArtifact runs the gate over a record that lists a
// columnar file and the jar built from it: the jar as recorded passes, a
// changed jar makes the columnar item stale (the sql item stays), and a
// checkout without the jar passes with a detail saying it was not checked.
func TestRecordWithArtifact(t *testing.T) {
	r := newRepo(t)
	colPath := evidence.Dir + "/to_fahrenheit/columnar/ToFahrenheitRapidsUDF.java"
	col := "// a RapidsUDF\nclass ToFahrenheitRapidsUDF {}\n"
	r.write(t, filepath.Join(r.dir, filepath.FromSlash(colPath)), col)
	content := map[string]string{"META-INF/MANIFEST.MF": "Manifest-Version: 1.0\r\n", "a/B.class": "\xca\xfe\xba\xbe"}
	jar := jarOf(t, content)
	jarRel := ".udfx/to_fahrenheit/udfx-to_fahrenheit-rapids.jar"
	jarAbs := filepath.Join(r.dir, filepath.FromSlash(jarRel))
	r.write(t, jarAbs, string(jar))
	r.record(t, func(rec *evidence.Record) {
		rec.Rewrites = append(rec.Rewrites, evidence.RewriteFile{Target: "columnar", Path: colPath, SHA256: evidence.SHA256([]byte(col))})
		rec.Artifacts = []evidence.Artifact{{Targets: []string{"columnar"}, Path: jarRel, SHA256: evidence.SHA256(jar), Entries: []evidence.ArtifactEntry{
			{Path: "META-INF/MANIFEST.MF", SHA256: evidence.SHA256([]byte(content["META-INF/MANIFEST.MF"]))},
			{Path: "a/B.class", SHA256: evidence.SHA256([]byte(content["a/B.class"]))},
		}}}
	})
	byTarget := func(res *Result) map[string]Item {
		m := map[string]Item{}
		for _, it := range res.Items {
			m[it.Target] = it
		}
		require.Len(t, m, 2, "%+v", res.Items)
		return m
	}

	items := byTarget(r.verify(t, true))
	assert.Equal(t, Pass, items["columnar"].Status, items["columnar"].Detail)
	assert.Contains(t, items["columnar"].Detail, "its jar "+jarRel+" matches the record (2 entries)")
	assert.NotContains(t, items["sql"].Detail, "jar")

	r.write(t, jarAbs, string(jar)+"x")
	items = byTarget(r.verify(t, true))
	assert.Equal(t, StaleRewrite, items["columnar"].Status)
	assert.Contains(t, items["columnar"].Detail, "the RapidsUDF jar "+jarRel+" changed")
	assert.Equal(t, Pass, items["sql"].Status)

	require.NoError(t, os.Remove(jarAbs))
	items = byTarget(r.verify(t, true))
	assert.Equal(t, Pass, items["columnar"].Status)
	assert.Contains(t, items["columnar"].Detail, "is not here (udfx rewrite builds it), so its hashes were not checked")
}
