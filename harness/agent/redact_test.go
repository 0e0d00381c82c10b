package agent

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/agent/scripted"
	"github.com/udfx/udfx/harness/evidence"
)

// A JSON body that writes the key with escapes is still redacted: the
// transport reads the decoded strings, not the bytes.
func TestRedactBodyDecodesJSONEscapes(t *testing.T) {
	r := secretRedactor(testKey)
	escaped := `\u0073` + testKey[1:] // "s" written as \u0073
	body := []byte(`{"choices": [{"message": {"content": "key ` + escaped + `", "n": 12345678901234567890}}], "` + testKey + `": 1}`)
	out := string(redactBody(body, r))
	assert.NotContains(t, out, testKey)
	assert.NotContains(t, out, escaped)
	assert.Contains(t, out, `"content":"key [REDACTED]"`)
	assert.Contains(t, out, `12345678901234567890`, "numbers keep their digits")
	assert.Contains(t, out, `"[REDACTED]":1`)
	assert.Equal(t, "text with [REDACTED] in it", string(redactBody([]byte("text with "+testKey+" in it"), r)))
}

// keyedSQL is a candidate that passes the differential test and spells
// the key in a string literal: a model that echoes the key into its
// candidate.
const keyedSQL = "CASE WHEN '" + testKey + "' = '' THEN 0.0D ELSE celsius * 9.0D / 5.0D + 32.0D END"

// The key echoed by the model and the endpoint through every way in (an
// error body, a tool's arguments, a candidate, a decline reason) reaches
// none of udfx's outputs: report.md, evidence.json and the patch, the
// transcripts, the log lines (stderr), the outcome the CLI prints
// (stdout), and the tool results sent back to the model.
func TestTheKeyEchoedIntoEachOutputIsRedacted(t *testing.T) {
	noKeyInRequests := func(r *scripted.Request) error {
		if strings.Contains(r.Body, testKey) {
			return assert.AnError
		}
		return nil
	}
	srv := scripted.New(
		// An error body that quotes the key.
		scripted.Turn{Status: http.StatusInternalServerError, ErrorMessage: "upstream failed for key " + testKey},
		// A tool argument.
		withCheck(call("write_file", `{"path": "notes.txt", "content": "the key is `+testKey+`"}`), noKeyInRequests),
		// A candidate.
		withCheck(submit(keyedSQL), noKeyInRequests),
		withCheck(finishWith(keyedSQL), noKeyInRequests),
		// A decline reason (optimize).
		withCheck(call("finish", `{"decline_reason": "nothing faster; my key is `+testKey+`"}`), noKeyInRequests),
	)
	defer srv.Close()
	var mu sync.Mutex
	var logged []string
	out, _, ws := runCelsius(t, srv, func(c *Config) {
		c.Backoff = nil
		c.Log = func(s string) { mu.Lock(); logged = append(logged, s); mu.Unlock() }
	})
	// runCelsius checked every file under the workspace (report.md,
	// evidence.json, rewrite.patch, transcripts, agent-files) and that
	// the server's checks passed.
	require.NotNil(t, out.Best, "the redacted candidate still passes")
	assert.Equal(t, strings.ReplaceAll(keyedSQL, testKey, "[REDACTED]"), out.Best.Candidate.SQL)
	for _, f := range []string{"report.md", "evidence.json", "rewrite.patch", "agent-files/notes.txt"} {
		b, err := os.ReadFile(filepath.Join(ws, f))
		require.NoError(t, err, f)
		assert.NotContains(t, string(b), testKey, f)
	}
	rec, err := evidence.Read(filepath.Join(ws, "evidence.json"))
	require.NoError(t, err)
	assert.Equal(t, evidence.Verified, rec.Result)
	for _, l := range logged {
		assert.NotContains(t, l, testKey)
	}
	for _, r := range srv.Requests() {
		assert.NotContains(t, r.Body, testKey, "a request sent to the endpoint")
	}
	for _, tr := range out.Tried {
		assert.NotContains(t, tr.Candidate.SQL+tr.Reason+tr.Candidate.Origin, testKey)
	}
}

// A decline reason that holds the key reaches report.md (the declines)
// redacted.
func TestTheKeyInADeclineReasonIsRedacted(t *testing.T) {
	srv := scripted.New(call("finish", `{"decline_reason": "cannot; key `+testKey+`"}`))
	defer srv.Close()
	out, _, ws := runCelsius(t, srv, nil)
	require.Len(t, out.Declines, 1)
	assert.Contains(t, out.Declines[0].Reason, "cannot; key [REDACTED]")
	b, err := os.ReadFile(filepath.Join(ws, "report.md"))
	require.NoError(t, err)
	assert.Contains(t, string(b), "cannot; key [REDACTED]")
	assert.NotContains(t, string(b), testKey)
}
