package agent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/openai/openai-go/v3"

	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/rewrite"
)

// Transcript is one conversation as saved in
// <workspace>/transcripts/<stage>-<n>.json. Every string in it has the
// API key redacted.
type Transcript struct {
	Stage    string `json:"stage"`
	N        int    `json:"n"`
	UDF      string `json:"udf"`
	Agent    string `json:"agent"`
	Model    string `json:"model"`
	Endpoint string `json:"endpoint"`
	Started  string `json:"started"`
	// Outcome is finished (with candidates), declined, budget (a turn,
	// token or wall-time budget stopped it), repeated (the same call too
	// often), error (the endpoint failed) or canceled.
	Outcome    string              `json:"outcome"`
	Reason     string              `json:"reason,omitempty"`
	Candidates []rewrite.Candidate `json:"candidates"`
	Submitted  []Submission        `json:"submitted"`
	Files      []string            `json:"files,omitempty"`
	Turns      int                 `json:"turns"`
	Retries    int                 `json:"retries"`
	WallS      float64             `json:"wall_seconds"`
	Limits     Limits              `json:"limits"`
	Usage      Usage               `json:"usage"`
	// CostUSD is computed from the configured prices; null when either
	// price is unknown.
	CostUSD  *float64  `json:"cost_usd"`
	Prices   Prices    `json:"prices_usd_per_million_tokens"`
	Requests []Request `json:"requests"`
	Messages []Message `json:"messages"`

	start time.Time
}

// Submission is a candidate the model sent to the differential test and
// the harness's verdict (the candidate number is report.md's).
type Submission struct {
	Candidate int    `json:"candidate"`
	SQL       string `json:"sql"`
	Accepted  bool   `json:"accepted"`
	Reason    string `json:"reason,omitempty"`
}

// Limits are the budgets the conversation ran under.
type Limits struct {
	MaxTurns    int     `json:"max_turns"`
	MaxTokens   int64   `json:"max_tokens"`
	TimeoutS    float64 `json:"timeout_seconds"`
	MaxRetries  int     `json:"max_retries"`
	RepeatLimit int     `json:"repeat_limit"`
	// MaxSubmissions bounds the candidates one conversation has tested.
	MaxSubmissions int `json:"max_submissions"`
}

// Usage is token usage as the endpoint reported it.
type Usage struct {
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
	TotalTokens      int64 `json:"total_tokens"`
}

// Prices are USD per million tokens; null when not configured.
type Prices struct {
	Input  *float64 `json:"input"`
	Output *float64 `json:"output"`
}

// Request is one HTTP attempt.
type Request struct {
	Turn    int     `json:"turn"`
	Attempt int     `json:"attempt"`
	Status  int     `json:"status"`
	Error   string  `json:"error,omitempty"`
	Seconds float64 `json:"seconds"`
	Usage   *Usage  `json:"usage,omitempty"`
}

// Message is one message of the conversation.
type Message struct {
	Role         string     `json:"role"`
	Turn         int        `json:"turn,omitempty"`
	Content      string     `json:"content,omitempty"`
	ToolCalls    []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID   string     `json:"tool_call_id,omitempty"`
	Name         string     `json:"name,omitempty"`
	FinishReason string     `json:"finish_reason,omitempty"`
}

// ToolCall is a call the model made.
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

func newTranscript(a *OpenAI, stage string, n int, spec *rewrite.Spec) *Transcript {
	cfg := a.cfg
	return &Transcript{
		Stage: stage, N: n, UDF: spec.UDF.Name, Agent: a.Name(), Model: cfg.Model,
		Endpoint: redactURL(cfg.BaseURL, a.redact),
		Started:  time.Now().UTC().Format(time.RFC3339),
		Limits: Limits{
			MaxTurns: cfg.MaxTurns, MaxTokens: cfg.MaxTokens, TimeoutS: cfg.Timeout.Seconds(),
			MaxRetries: cfg.MaxRetries, RepeatLimit: cfg.RepeatLimit, MaxSubmissions: cfg.MaxSubmissions,
		},
		Prices:     Prices{Input: cfg.PriceInPerMTok, Output: cfg.PriceOutPerMTok},
		Candidates: []rewrite.Candidate{},
		Submitted:  []Submission{},
		Requests:   []Request{},
		start:      time.Now(),
	}
}

func usageOf(u openai.CompletionUsage) *Usage {
	return &Usage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens, TotalTokens: u.TotalTokens}
}

func (t *Transcript) addUsage(u openai.CompletionUsage) {
	t.Usage.PromptTokens += u.PromptTokens
	t.Usage.CompletionTokens += u.CompletionTokens
	total := u.TotalTokens
	if total == 0 {
		// Some servers leave the total out.
		total = u.PromptTokens + u.CompletionTokens
	}
	t.Usage.TotalTokens += total
}

func (t *Transcript) message(m Message) { t.Messages = append(t.Messages, m) }

// finish fills the outcome once the conversation is over.
func (t *Transcript) finish(c *conversation, err error) {
	t.WallS = time.Since(t.start).Seconds()
	if c.res.candidates != nil {
		// A copy: redaction rewrites the transcript's strings, never the
		// candidates the stages will test.
		t.Candidates = append(t.Candidates[:0:0], c.res.candidates...)
	}
	switch {
	case err != nil && t.Outcome == "":
		t.Outcome = "canceled"
		t.Reason = err.Error()
	case t.Reason == "":
		t.Reason = c.res.reason
	}
	if t.Prices.Input != nil && t.Prices.Output != nil {
		cost := (float64(t.Usage.PromptTokens)**t.Prices.Input + float64(t.Usage.CompletionTokens)**t.Prices.Output) / 1e6
		t.CostUSD = &cost
	}
}

// write saves the transcript, redacted, atomically.
func (t *Transcript) write(a *OpenAI, rel string) error {
	t.redactAll(a.redact)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(t); err != nil {
		return fmt.Errorf("agent: encode transcript: %w", err)
	}
	path := filepath.Join(a.cfg.Workspace, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("agent: transcript: %w", err)
	}
	if err := evidence.WriteFileAtomic(path, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("agent: transcript: %w", err)
	}
	return nil
}

// redactAll redacts every string field: the key must not reach the file
// even if a server or the model echoed it.
func (t *Transcript) redactAll(r func(string) string) {
	t.Endpoint, t.Reason = r(t.Endpoint), r(t.Reason)
	for i := range t.Candidates {
		t.Candidates[i].SQL = r(t.Candidates[i].SQL)
		t.Candidates[i].Origin = r(t.Candidates[i].Origin)
	}
	for i := range t.Submitted {
		t.Submitted[i].SQL, t.Submitted[i].Reason = r(t.Submitted[i].SQL), r(t.Submitted[i].Reason)
	}
	for i := range t.Files {
		t.Files[i] = r(t.Files[i])
	}
	for i := range t.Requests {
		t.Requests[i].Error = r(t.Requests[i].Error)
	}
	for i := range t.Messages {
		m := &t.Messages[i]
		m.Content, m.Name, m.ToolCallID = r(m.Content), r(m.Name), r(m.ToolCallID)
		for j := range m.ToolCalls {
			tc := &m.ToolCalls[j]
			tc.ID, tc.Name, tc.Arguments = r(tc.ID), r(tc.Name), r(tc.Arguments)
		}
	}
}

// summary is the one line logged per conversation.
func (t *Transcript) summary(rel string) string {
	cost := "cost unknown"
	if t.CostUSD != nil {
		cost = fmt.Sprintf("$%.4f", *t.CostUSD)
	}
	line := fmt.Sprintf("agent: %s-%d: %s after %d turn(s), %d tokens, %s; transcript %s", t.Stage, t.N, t.Outcome, t.Turns, t.Usage.TotalTokens, cost, rel)
	if t.Outcome != "finished" && t.Reason != "" {
		line += " (" + t.Reason + ")"
	}
	return line
}
