package scripted

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func post(t *testing.T, url, body string) (int, map[string]any) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	var v map[string]any
	require.NoError(t, json.Unmarshal(b, &v), string(b))
	return resp.StatusCode, v
}

const request = `{"model": "m", "messages": [{"role": "system", "content": "be exact"},
 {"role": "user", "content": [{"type": "text", "text": "hello"}]},
 {"role": "tool", "tool_call_id": "call_1", "content": "{\"accepted\":false}"}],
 "tools": [{"type": "function", "function": {"name": "finish"}}]}`

func TestServerReplaysTheScript(t *testing.T) {
	s := New(
		Turn{Check: LastToolResultContains(`"accepted":false`), ToolCalls: []Call{Tool("finish", `{"decline_reason": "x"}`)}},
		Turn{Status: 429, RetryAfter: "1"},
		Turn{Check: SystemContains("not there")},
	)
	defer s.Close()

	code, v := post(t, s.URL()+"/chat/completions", request)
	require.Equal(t, 200, code)
	assert.Equal(t, "chat.completion", v["object"])
	assert.Equal(t, "m", v["model"])
	choice := v["choices"].([]any)[0].(map[string]any)
	assert.Equal(t, "tool_calls", choice["finish_reason"])
	msg := choice["message"].(map[string]any)
	assert.Nil(t, msg["content"])
	call := msg["tool_calls"].([]any)[0].(map[string]any)
	assert.Equal(t, "function", call["type"])
	assert.Equal(t, map[string]any{"name": "finish", "arguments": `{"decline_reason": "x"}`}, call["function"])
	usage := v["usage"].(map[string]any)
	assert.Equal(t, usage["prompt_tokens"].(float64)+usage["completion_tokens"].(float64), usage["total_tokens"])

	code, v = post(t, s.srv.URL+"/chat/completions", request)
	assert.Equal(t, 429, code)
	assert.Equal(t, "rate_limit_exceeded", v["error"].(map[string]any)["code"])

	code, _ = post(t, s.URL()+"/chat/completions", request)
	assert.Equal(t, 400, code)
	code, _ = post(t, s.URL()+"/chat/completions", request)
	assert.Equal(t, 500, code, "past the script")
	code, _ = post(t, s.URL()+"/embeddings", request)
	assert.Equal(t, 404, code)

	err := s.Err()
	require.Error(t, err)
	assert.Contains(t, err.Error(), `request 3: the system prompt lacks "not there"`)
	assert.Contains(t, err.Error(), "request 4: the script has only 3 turns")
	assert.Contains(t, err.Error(), "unexpected POST /v1/embeddings")
	reqs := s.Requests()
	require.Len(t, reqs, 4)
	assert.Equal(t, "be exact", reqs[0].System())
	assert.Equal(t, "hello", reqs[0].Messages[1].Content)
	assert.Equal(t, []string{"finish"}, reqs[0].Tools)
	assert.Zero(t, s.Unused())
}

func TestServerThen(t *testing.T) {
	var seen []int
	s := New().Then(func(n int) Turn { seen = append(seen, n); return Turn{Content: "prose"} })
	defer s.Close()
	for range 2 {
		code, v := post(t, s.URL()+"/chat/completions", request)
		require.Equal(t, 200, code)
		assert.Equal(t, "stop", v["choices"].([]any)[0].(map[string]any)["finish_reason"])
	}
	assert.Equal(t, []int{0, 1}, seen)
	require.NoError(t, s.Err())
	code, _ := post(t, s.URL()+"/chat/completions", `{"model": "m"}`)
	assert.Equal(t, 400, code)
	assert.ErrorContains(t, s.Err(), "no model or no messages")
}
