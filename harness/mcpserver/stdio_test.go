package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rawSession runs the server over StdioTransport on pipes and lets a test
// write raw lines and read the replies.
type rawSession struct {
	in   *io.PipeWriter
	out  *bufio.Scanner
	done chan error
}

func startRaw(t *testing.T, run RunFunc) *rawSession {
	t.Helper()
	srv, err := New(run, Options{Root: t.TempDir(), Version: "test"})
	require.NoError(t, err)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &rawSession{in: inW, out: bufio.NewScanner(outR), done: make(chan error, 1)}
	go func() {
		s.done <- srv.Run(context.Background(), &StdioTransport{In: inR, Out: outW})
		outW.Close()
	}()
	t.Cleanup(func() { inW.Close(); outR.Close() })
	return s
}

func (s *rawSession) send(t *testing.T, line string) {
	t.Helper()
	_, err := s.in.Write([]byte(line + "\n"))
	require.NoError(t, err)
}

type reply struct {
	ID     any             `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func (s *rawSession) next(t *testing.T) reply {
	t.Helper()
	got := make(chan bool, 1)
	go func() { got <- s.out.Scan() }()
	select {
	case ok := <-got:
		require.True(t, ok, "the server closed its output: %v", s.out.Err())
	case <-time.After(10 * time.Second):
		t.Fatal("no reply")
	}
	var r reply
	require.NoError(t, json.Unmarshal(s.out.Bytes(), &r), "%s", s.out.Text())
	return r
}

const initLine = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// TestMalformedLinesAreAnsweredAndTheSessionGoesOn: each kind of bad line
// gets its JSON-RPC error, and the next request is still served.
func TestMalformedLinesAreAnsweredAndTheSessionGoesOn(t *testing.T) {
	s := startRaw(t, (&fake{reply: Result{Stdout: "{}"}}).run)
	s.send(t, initLine)
	require.Nil(t, s.next(t).Error)
	s.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for _, c := range []struct {
		line string
		code int
		id   any
	}{
		{`{"jsonrpc":"2.0","id":2,"method":"tools/list"`, -32700, nil}, // unterminated
		{"\x00\xff\xfe binary \x01", -32700, nil},
		{`[{"jsonrpc":"2.0","id":3,"method":"tools/list"}]`, -32600, nil},
		{`[]`, -32600, nil},
		{`42`, -32600, nil},
		{`{"jsonrpc":"1.0","id":4,"method":"tools/list"}`, -32600, float64(4)},
	} {
		s.send(t, c.line)
		r := s.next(t)
		if assert.NotNil(t, r.Error, "%q", c.line) {
			assert.Equal(t, c.code, r.Error.Code, "%q: %s", c.line, r.Error.Message)
		}
		assert.Equal(t, c.id, r.ID, "%q", c.line)
	}
	s.send(t, `{"jsonrpc":"2.0","id":5,"method":"tools/list"}`)
	r := s.next(t)
	assert.Equal(t, float64(5), r.ID)
	assert.Nil(t, r.Error)
	assert.Contains(t, string(r.Result), `"scan"`)
}

// TestEndOfInputKeepsPendingReplies: a client that sends a call and
// closes its side still gets the reply, then the server returns.
func TestEndOfInputKeepsPendingReplies(t *testing.T) {
	run := func(ctx context.Context, args []string) Result {
		time.Sleep(200 * time.Millisecond)
		return Result{Stdout: `{"ok":true}`}
	}
	s := startRaw(t, run)
	s.send(t, initLine)
	require.Nil(t, s.next(t).Error)
	s.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	s.send(t, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"verify","arguments":{}}}`)
	require.NoError(t, s.in.Close())
	r := s.next(t)
	assert.Equal(t, float64(7), r.ID)
	assert.Nil(t, r.Error)
	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not return at the end of input")
	}
}
