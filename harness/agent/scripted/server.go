// Package scripted is an OpenAI-compatible Chat Completions server that
// replays a scripted conversation, for testing model agents without a
// network. Each request gets the next scripted turn: an assistant message
// with tool calls or content, or an HTTP error. A turn may check the
// request it answers (the last tool result, the system prompt); a failed
// check is recorded and answered with HTTP 400 so the client sees it too.
//
// The JSON shapes follow OpenAI's published Chat Completions reference
// (the chat.completion object, its choices, tool_calls and usage, and the
// error object), which the openai-go client decodes.
package scripted

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"
)

// Turn is one scripted answer.
type Turn struct {
	// Check inspects the request before it is answered.
	Check func(r *Request) error
	// Status, when non-zero, answers with this HTTP status and an error
	// object instead of a completion; RetryAfter sets that header.
	Status     int
	RetryAfter string
	// ErrorMessage replaces the error object's message (a real 401 echoes
	// part of the key it refused).
	ErrorMessage string
	// Delay holds the answer back, to make a client's request time out.
	Delay time.Duration
	// Content and ToolCalls make the assistant message.
	Content   string
	ToolCalls []Call
	// FinishReason defaults to tool_calls with calls, stop without.
	FinishReason string
	// Usage defaults to a prompt of one token per 4 request bytes and 20
	// completion tokens.
	Usage *Usage
}

// Call is one tool call of a scripted turn. Arguments is the raw JSON
// text the model sends (it may be malformed on purpose).
type Call struct {
	Name      string
	Arguments string
}

// Tool makes a Call.
func Tool(name, arguments string) Call { return Call{Name: name, Arguments: arguments} }

// Usage is a response's token usage.
type Usage struct {
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
	TotalTokens      int64 `json:"total_tokens"`
}

// Request is a request as the server received it.
type Request struct {
	Path          string
	Authorization string
	Model         string
	Messages      []Message
	Tools         []string
	Body          string
}

// Message is one message of a request.
type Message struct {
	Role       string
	Content    string
	ToolCallID string
	ToolCalls  []Call
}

// System returns the system prompt.
func (r *Request) System() string {
	for _, m := range r.Messages {
		if m.Role == "system" || m.Role == "developer" {
			return m.Content
		}
	}
	return ""
}

// LastToolResult returns the content of the last tool message.
func (r *Request) LastToolResult() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "tool" {
			return r.Messages[i].Content
		}
	}
	return ""
}

// LastToolResultContains is a Check.
func LastToolResultContains(parts ...string) func(*Request) error {
	return func(r *Request) error {
		last := r.LastToolResult()
		for _, p := range parts {
			if !strings.Contains(last, p) {
				return fmt.Errorf("the last tool result lacks %q: %s", p, last)
			}
		}
		return nil
	}
}

// SystemContains is a Check.
func SystemContains(parts ...string) func(*Request) error {
	return func(r *Request) error {
		s := r.System()
		for _, p := range parts {
			if !strings.Contains(s, p) {
				return fmt.Errorf("the system prompt lacks %q", p)
			}
		}
		return nil
	}
}

// Server replays a script.
type Server struct {
	srv *httptest.Server

	mu       sync.Mutex
	turns    []Turn
	next     int
	then     func(n int) Turn
	requests []Request
	errs     []error
}

// New starts a server that answers the turns in order.
func New(turns ...Turn) *Server {
	s := &Server{turns: turns}
	s.srv = httptest.NewServer(http.HandlerFunc(s.handle))
	return s
}

// Then sets the turns after the script: then(n) answers the n-th extra
// request (from 0). Without it, a request past the script is an error.
func (s *Server) Then(then func(n int) Turn) *Server {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.then = then
	return s
}

// URL is the base URL a client is configured with (ending in /v1).
func (s *Server) URL() string { return s.srv.URL + "/v1" }

// Close stops the server.
func (s *Server) Close() { s.srv.Close() }

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Err returns the failed checks and protocol errors so far, joined.
func (s *Server) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return errors.Join(s.errs...)
}

// Unused is how many scripted turns were never requested.
func (s *Server) Unused() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return max(len(s.turns)-s.next, 0)
}

// failure records err and answers with it.
func (s *Server) failure(status int, err error) reply {
	s.errs = append(s.errs, err)
	return reply{write: func(w http.ResponseWriter) { writeError(w, status, "invalid_request_error", err.Error(), "") }}
}

// reply is an answer decided under the lock and written after its delay.
type reply struct {
	delay time.Duration
	write func(http.ResponseWriter)
}

func (s *Server) handle(w http.ResponseWriter, hr *http.Request) {
	r := s.answer(hr)
	if r.delay > 0 {
		t := time.NewTimer(r.delay)
		defer t.Stop()
		select {
		case <-hr.Context().Done():
			return
		case <-t.C:
		}
	}
	r.write(w)
}

// answer records the request and picks its turn.
func (s *Server) answer(hr *http.Request) reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	if hr.Method != http.MethodPost || (hr.URL.Path != "/v1/chat/completions" && hr.URL.Path != "/chat/completions") {
		return s.failure(http.StatusNotFound, fmt.Errorf("unexpected %s %s", hr.Method, hr.URL.Path))
	}
	body, err := io.ReadAll(hr.Body)
	if err != nil {
		return s.failure(http.StatusBadRequest, fmt.Errorf("read body: %w", err))
	}
	req, err := parseRequest(body)
	if err != nil {
		return s.failure(http.StatusBadRequest, err)
	}
	req.Path = hr.URL.Path
	req.Authorization = hr.Header.Get("Authorization")
	s.requests = append(s.requests, *req)
	n := len(s.requests)

	var turn Turn
	switch {
	case s.next < len(s.turns):
		turn = s.turns[s.next]
		s.next++
	case s.then != nil:
		turn = s.then(n - 1 - len(s.turns))
	default:
		return s.failure(http.StatusInternalServerError, fmt.Errorf("request %d: the script has only %d turns", n, len(s.turns)))
	}
	if turn.Check != nil {
		if err := turn.Check(req); err != nil {
			return s.failure(http.StatusBadRequest, fmt.Errorf("request %d: %w", n, err))
		}
	}
	if turn.Status != 0 {
		typ, code := "server_error", ""
		switch {
		case turn.Status == http.StatusTooManyRequests:
			typ, code = "requests", "rate_limit_exceeded"
		case turn.Status < 500:
			typ = "invalid_request_error"
		}
		msg := turn.ErrorMessage
		if msg == "" {
			msg = http.StatusText(turn.Status) + " (scripted)"
		}
		return reply{delay: turn.Delay, write: func(w http.ResponseWriter) {
			if turn.RetryAfter != "" {
				w.Header().Set("Retry-After", turn.RetryAfter)
			}
			writeError(w, turn.Status, typ, msg, code)
		}}
	}
	return reply{delay: turn.Delay, write: func(w http.ResponseWriter) { writeCompletion(w, n, req, turn, len(body)) }}
}

// wire types of the request.
type wireRequest struct {
	Model    string        `json:"model"`
	Messages []wireMessage `json:"messages"`
	Tools    []struct {
		Type     string `json:"type"`
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
}

type wireMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCallID string          `json:"tool_call_id"`
	ToolCalls  []wireToolCall  `json:"tool_calls"`
}

type wireToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

func parseRequest(body []byte) (*Request, error) {
	var w wireRequest
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, fmt.Errorf("the request is not a chat completion request: %w", err)
	}
	if w.Model == "" || len(w.Messages) == 0 {
		return nil, errors.New("the request has no model or no messages")
	}
	r := &Request{Model: w.Model, Body: string(body)}
	for _, t := range w.Tools {
		r.Tools = append(r.Tools, t.Function.Name)
	}
	for _, m := range w.Messages {
		msg := Message{Role: m.Role, ToolCallID: m.ToolCallID, Content: contentText(m.Content)}
		for _, tc := range m.ToolCalls {
			msg.ToolCalls = append(msg.ToolCalls, Call{Name: tc.Function.Name, Arguments: tc.Function.Arguments})
		}
		r.Messages = append(r.Messages, msg)
	}
	return r, nil
}

// contentText reads a message's content: a string, or an array of text
// parts.
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) == nil {
		var b strings.Builder
		for _, p := range parts {
			b.WriteString(p.Text)
		}
		return b.String()
	}
	return ""
}

func writeCompletion(w http.ResponseWriter, n int, req *Request, turn Turn, bodyLen int) {
	type fn struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	}
	type toolCall struct {
		ID       string `json:"id"`
		Type     string `json:"type"`
		Function fn     `json:"function"`
	}
	var calls []toolCall
	for i, c := range turn.ToolCalls {
		calls = append(calls, toolCall{ID: fmt.Sprintf("call_%04d_%d", n, i), Type: "function", Function: fn(c)})
	}
	var content any // JSON null when the message has only tool calls
	if turn.Content != "" || len(calls) == 0 {
		content = turn.Content
	}
	finish := turn.FinishReason
	if finish == "" {
		finish = "stop"
		if len(calls) > 0 {
			finish = "tool_calls"
		}
	}
	usage := Usage{PromptTokens: int64(bodyLen/4 + 1), CompletionTokens: 20}
	if turn.Usage != nil {
		usage = *turn.Usage
	}
	if usage.TotalTokens == 0 {
		usage.TotalTokens = usage.PromptTokens + usage.CompletionTokens
	}
	message := map[string]any{"role": "assistant", "content": content, "refusal": nil, "annotations": []any{}}
	if len(calls) > 0 {
		message["tool_calls"] = calls
	}
	resp := map[string]any{
		"id":      fmt.Sprintf("chatcmpl-scripted%04d", n),
		"object":  "chat.completion",
		"created": 1735689600 + n,
		"model":   req.Model,
		"choices": []any{map[string]any{
			"index": 0, "message": message, "logprobs": nil, "finish_reason": finish,
		}},
		"usage": map[string]any{
			"prompt_tokens": usage.PromptTokens, "completion_tokens": usage.CompletionTokens, "total_tokens": usage.TotalTokens,
			"prompt_tokens_details":     map[string]any{"cached_tokens": 0, "audio_tokens": 0},
			"completion_tokens_details": map[string]any{"reasoning_tokens": 0, "audio_tokens": 0, "accepted_prediction_tokens": 0, "rejected_prediction_tokens": 0},
		},
		"service_tier":       "default",
		"system_fingerprint": "fp_scripted",
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(resp)
}

func writeError(w http.ResponseWriter, status int, typ, msg, code string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	var c any
	if code != "" {
		c = code
	}
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": msg, "type": typ, "param": nil, "code": c}})
}
