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
