package agent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// The API key's one way out of udfx is back in through the endpoint: a
// model or a server that echoes it (in a decline reason, a tool's
// arguments, a candidate, an error body). Everything the endpoint sends
// passes through redactingTransport before openai-go decodes it, so no
// string udfx holds afterwards (a candidate, a reason, a transcript, a
// report, a line on stdout or stderr, a tool result sent back) can carry
// the key: that is the choke point. The transcripts, log lines and tool
// results are redacted again on their way out, for what udfx computes
// itself (a counterexample whose value spells the key).

// maxResponse bounds a response body udfx reads from the endpoint.
const maxResponse = 64 << 20

type redactingTransport struct {
	base   http.RoundTripper
	redact func(string) string
}

// redactingClient is hc with every response redacted; hc is not changed.
func redactingClient(hc *http.Client, redact func(string) string) *http.Client {
	c := *hc
	base := c.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	c.Transport = &redactingTransport{base: base, redact: redact}
	return &c
}

func (t *redactingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return nil, &redactedError{err: err, msg: t.redact(err.Error())}
	}
	for k, vs := range resp.Header {
		for i := range vs {
			vs[i] = t.redact(vs[i])
		}
		resp.Header[k] = vs
	}
	resp.Status = t.redact(resp.Status)
	if resp.Body == nil {
		return resp, nil
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse+1))
	resp.Body.Close()
	if err != nil {
		return nil, &redactedError{err: err, msg: t.redact("reading the response: " + err.Error())}
	}
	if len(b) > maxResponse {
		return nil, fmt.Errorf("the endpoint's response is larger than %d bytes", maxResponse)
	}
	b = redactBody(b, t.redact)
	resp.Body = io.NopCloser(bytes.NewReader(b))
	resp.ContentLength = int64(len(b))
	resp.Header.Set("Content-Length", strconv.Itoa(len(b)))
	return resp, nil
}

// redactBody redacts a response body. JSON is decoded first, so that a key
// written with escapes ("\u0073k-...") is found in the decoded strings
// (keys and values); anything else is redacted as text.
func redactBody(b []byte, redact func(string) string) []byte {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err == nil && !dec.More() {
		var out bytes.Buffer
		enc := json.NewEncoder(&out)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(redactValue(v, redact)); err == nil {
			return out.Bytes()
		}
	}
	return []byte(redact(string(b)))
}

func redactValue(v any, redact func(string) string) any {
	switch v := v.(type) {
	case string:
		return redact(v)
	case []any:
		for i := range v {
			v[i] = redactValue(v[i], redact)
		}
		return v
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[redact(k)] = redactValue(x, redact)
		}
		return out
	}
	return v
}

// redactedError keeps a transport error's type for errors.As (a net.Error
// is retried) while its text is redacted.
type redactedError struct {
	err error
	msg string
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// secretRedactor replaces every occurrence of the key. Any non-empty key
// is redacted, however short: a string that happens to equal it is
// mangled rather than the key leaked.
func secretRedactor(key string) func(string) string {
	if key == "" {
		return func(s string) string { return s }
	}
	return func(s string) string { return strings.ReplaceAll(s, key, "[REDACTED]") }
}
