package evidence

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRoundTripAndAtomicWrite(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, Dir, "ToFahrenheit", FileName)
	r := &Record{SchemaVersion: SchemaVersion, Tool: "udfx test", Original: Original{File: "a.scala", Name: "ToFahrenheit", SpanSHA256: SpanHash([]byte("x\r\ny"))},
		Rewrites: []RewriteFile{{Target: "sql", Path: "udfx-rewrites/ToFahrenheit/rewrite.sql", SHA256: SHA256([]byte("sql"))}}, Result: Verified}
	require.NoError(t, Write(p, r))
	back, err := Read(p)
	require.NoError(t, err)
	assert.Equal(t, r, back)
	assert.Equal(t, SpanHash([]byte("x\ny")), back.Original.SpanSHA256, "CRLF endings do not change the hash")
	entries, err := os.ReadDir(filepath.Dir(p))
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary file is left behind")

	require.NoError(t, os.WriteFile(p, []byte(`{"schema_version": 9}`), 0o644))
	_, err = Read(p)
	assert.ErrorContains(t, err, "schema version 9")
	require.NoError(t, os.WriteFile(p, []byte(`not json`), 0o644))
	_, err = Read(p)
	assert.ErrorContains(t, err, "not a udfx record")
}

func TestMarkers(t *testing.T) {
	rec := "udfx-rewrites/ToFahrenheit/evidence.json"
	for _, ext := range []string{".sql", ".java", ".scala", ".cu", ".py"} {
		line := MarkerLine(ext, rec)
		got, err := FindMarker([]byte("first\n" + line + "\nrest"))
		require.NoError(t, err, ext)
		assert.Equal(t, rec, got)
	}
	assert.Equal(t, "-- udfx:rewrite record="+rec, MarkerLine(".sql", rec))
	_, err := FindMarker([]byte("SELECT 1"))
	assert.ErrorIs(t, err, ErrNoMarker)
}

func TestStripSQLComments(t *testing.T) {
	assert.Equal(t, "a +\n  b", StripSQLComments("-- udfx:rewrite record=x\r\n\r\na +\r\n  -- note\r\n  b\r\n"))
	assert.Equal(t, "", StripSQLComments("-- only\n"))
	// Spark ends a -- comment at a lone \r: the line is kept for the
	// expression parser to refuse, not dropped with the code after it.
	assert.Equal(t, "a\n-- x\r+ 1.0D", StripSQLComments("-- header\na\n-- x\r+ 1.0D\r\n"))
}
