// Package agent is udfx's LLM rewrite agent: a rewrite.Agent that holds a
// tool-calling conversation with a model behind any OpenAI-compatible
// Chat Completions endpoint (a hosted API, vLLM, Ollama, NIM).
//
// The model only proposes. Its tools are the harness itself: it reads the
// UDF and udfx's reference pages, submits candidates to the real
// differential test (rewrite.Spec.Check) and times accepted ones
// (rewrite.Spec.Bench). Whatever it finishes with is tested again by the
// rewrite stages like any other candidate, so nothing a model writes is
// called verified without passing the same gates.
//
// Every conversation is bounded (turns, tokens, wall time, repeated
// identical calls), retried on 429/5xx/timeouts, and saved, with the API
// key redacted, as <workspace>/transcripts/<stage>-<n>.json.
package agent

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/udfx/udfx/harness/rewrite"
)

// Defaults of Config's zero values.
const (
	DefaultBaseURL        = "https://api.openai.com/v1"
	DefaultModel          = "gpt-4.1"
	DefaultMaxTurns       = 20
	DefaultMaxTokens      = 200_000
	DefaultTimeout        = 10 * time.Minute
	DefaultMaxRetries     = 3
	DefaultRequestTimeout = 2 * time.Minute
	DefaultRepeatLimit    = 3
	// DefaultMaxSubmissions bounds the differential tests one conversation
	// may start: each can take minutes on Spark.
	DefaultMaxSubmissions = 12
	// maxRetryDelay caps both the backoff and a server's Retry-After.
	maxRetryDelay = 30 * time.Second
)

// Config configures the model agent.
type Config struct {
	// BaseURL is the OpenAI-compatible endpoint ("http://localhost:8000/v1");
	// empty means DefaultBaseURL.
	BaseURL string
	// APIKey is sent as a bearer token. It is redacted from everything the
	// agent writes or returns. Empty sends no key (local servers).
	APIKey string
	Model  string
	// MaxTurns bounds the model requests of one conversation.
	MaxTurns int
	// MaxTokens bounds the total tokens (prompt and completion, as the
	// endpoint reports them) of one conversation: each request's
	// completion is capped by what is left, a request whose prompt alone
	// would not fit is not sent, and an answer that overshoots anyway is
	// not acted on.
	MaxTokens int64
	// Timeout bounds the wall time of one conversation: its requests and
	// the differential tests and benchmarks its tool calls start.
	Timeout time.Duration
	// MaxRetries is how often one request is retried on 429, 5xx, a
	// timeout or a transport error; 0 means DefaultMaxRetries, negative
	// means never.
	MaxRetries int
	// Backoff is the wait before retry n (from 0); nil means 0.5 s·2ⁿ,
	// at most 8 s. A longer Retry-After from the server wins, up to 30 s.
	Backoff func(retry int) time.Duration
	// RequestTimeout bounds one HTTP attempt.
	RequestTimeout time.Duration
	// RepeatLimit is how many identical calls (same tool, same arguments)
	// end a conversation.
	RepeatLimit int
	// MaxSubmissions is how many candidates one conversation may have
	// tested; 0 means DefaultMaxSubmissions.
	MaxSubmissions int
	// PriceInPerMTok and PriceOutPerMTok are USD per million prompt and
	// completion tokens; with either nil a transcript's cost is null.
	PriceInPerMTok, PriceOutPerMTok *float64
	// HTTPClient sends the requests; nil means a fresh http.Client.
	HTTPClient *http.Client
	// Workspace is the UDF's workspace folder (.udfx/<udf>): transcripts
	// and the model's scratch files are written only below it. New
	// removes the transcripts of an earlier run.
	Workspace string
	// Log receives one redacted line per conversation; nil discards.
	Log func(string)
}

// OpenAI is the model agent. It implements rewrite.Agent.
type OpenAI struct {
	cfg    Config
	chat   openai.ChatCompletionService
	redact func(string) string

	mu          sync.Mutex
	transcripts []string
	counts      map[string]int
	// judged remembers every candidate Check judged for a spec, so a
	// candidate submitted again is answered from it, not tested twice.
	judged map[*rewrite.Spec]map[string]*rewrite.Tried
	// optimizeDone is set once the model finished an optimize
	// conversation with nothing new: later attempts are not asked.
	optimizeDone map[*rewrite.Spec]bool
	// context is extra text for the first user message (Auto passes the
	// built-in translator's declines).
	context map[*rewrite.Spec]string
}

// New checks cfg and builds the agent. It does no network I/O.
func New(cfg Config) (*OpenAI, error) {
	if cfg.Workspace == "" {
		return nil, errors.New("agent: no workspace")
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = DefaultBaseURL
	}
	u, err := url.Parse(cfg.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("agent: the endpoint %q is not an http(s) URL", redactURL(cfg.BaseURL, secretRedactor(cfg.APIKey)))
	}
	if cfg.Model == "" {
		cfg.Model = DefaultModel
	}
	if cfg.MaxTurns <= 0 {
		cfg.MaxTurns = DefaultMaxTurns
	}
	if cfg.MaxTokens <= 0 {
		cfg.MaxTokens = DefaultMaxTokens
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	switch {
	case cfg.MaxRetries == 0:
		cfg.MaxRetries = DefaultMaxRetries
	case cfg.MaxRetries < 0:
		cfg.MaxRetries = 0
	}
	if cfg.Backoff == nil {
		cfg.Backoff = exponentialBackoff
	}
	if cfg.RequestTimeout <= 0 {
		cfg.RequestTimeout = DefaultRequestTimeout
	}
	if cfg.MaxSubmissions <= 0 {
		cfg.MaxSubmissions = DefaultMaxSubmissions
	}
	if cfg.RepeatLimit <= 0 {
		cfg.RepeatLimit = DefaultRepeatLimit
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{}
	}
	if cfg.Log == nil {
		cfg.Log = func(string) {}
	}
	// The service is built from explicit options only: openai.NewClient
	// would also read OPENAI_* from the process environment, which the
	// caller may not have meant to use (and whose key the redactor would
	// not know).
	redact := secretRedactor(cfg.APIKey)
	opts := []option.RequestOption{
		option.WithBaseURL(cfg.BaseURL),
		// Every response is redacted before anything reads it (redact.go).
		option.WithHTTPClient(redactingClient(cfg.HTTPClient, redact)),
		// Retries are this package's own (complete), so that each attempt
		// is in the transcript and the backoff can be bounded and tested.
		option.WithMaxRetries(0),
	}
	if cfg.APIKey != "" {
		opts = append(opts, option.WithAPIKey(cfg.APIKey))
	}
	// Transcripts of an earlier run in this workspace would not describe
	// this one, whether or not this run holds a conversation.
	if err := os.RemoveAll(filepath.Join(cfg.Workspace, "transcripts")); err != nil {
		return nil, fmt.Errorf("agent: clear the old transcripts: %w", err)
	}
	return &OpenAI{
		cfg:          cfg,
		chat:         openai.NewChatCompletionService(opts...),
		redact:       redact,
		counts:       map[string]int{},
		judged:       map[*rewrite.Spec]map[string]*rewrite.Tried{},
		optimizeDone: map[*rewrite.Spec]bool{},
		context:      map[*rewrite.Spec]string{},
	}, nil
}

func exponentialBackoff(retry int) time.Duration {
	d := 500 * time.Millisecond << min(retry, 4)
	return min(d, 8*time.Second)
}

// Name implements rewrite.Agent.
func (a *OpenAI) Name() string {
	return "model " + a.cfg.Model + " (OpenAI-compatible API)"
}

// Transcripts lists the conversations saved so far, relative to the
// workspace ("transcripts/convert-1.json"), in the order they were held.
func (a *OpenAI) Transcripts() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.transcripts...)
}

// EndpointError is the model endpoint failing: an HTTP error that is not
// retried, or one that persisted through every retry. Its text is
// redacted.
type EndpointError struct {
	// Status is the last HTTP status, 0 for a transport error.
	Status   int
	Attempts int
	Msg      string
}

func (e *EndpointError) Error() string {
	return fmt.Sprintf("the model endpoint failed after %d attempt(s): %s", e.Attempts, e.Msg)
}

// Convert implements rewrite.Agent: one conversation for the sql target.
// The model's candidates are returned for the stages to test (those it
// already submitted are not tested twice); a model that declines, or runs
// out of a budget, gives no candidates and a Decline with the reason.
func (a *OpenAI) Convert(ctx context.Context, spec *rewrite.Spec) ([]rewrite.Candidate, []rewrite.Decline, error) {
	res, err := a.converse(ctx, "convert", spec, a.convertTask(spec))
	if err != nil {
		return nil, nil, err
	}
	if len(res.candidates) > 0 {
		return res.candidates, nil, nil
	}
	u := spec.UDF
	return nil, []rewrite.Decline{{
		Target: rewrite.TargetSQL, Construct: "the UDF " + u.Name,
		Reason: a.Name() + ": " + res.reason, Where: u.Span.String(),
	}}, nil
}

// Optimize implements rewrite.Agent: one conversation per attempt, until
// the model finishes without a new candidate.
func (a *OpenAI) Optimize(ctx context.Context, spec *rewrite.Spec, best rewrite.Candidate, attempt int) ([]rewrite.Candidate, error) {
	a.mu.Lock()
	done := a.optimizeDone[spec]
	a.mu.Unlock()
	if done {
		return nil, nil
	}
	res, err := a.converse(ctx, "optimize", spec, a.optimizeTask(spec, best, attempt))
	if err != nil {
		return nil, err
	}
	var fresh []rewrite.Candidate
	for _, c := range res.candidates {
		if c.Target != best.Target || c.SQL != best.SQL {
			fresh = append(fresh, c)
		}
	}
	if len(fresh) == 0 {
		a.mu.Lock()
		a.optimizeDone[spec] = true
		a.mu.Unlock()
	}
	return fresh, nil
}

// nextTranscript reserves transcripts/<stage>-<n>.json.
func (a *OpenAI) nextTranscript(stage string) (rel string, n int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.counts[stage]++
	n = a.counts[stage]
	rel = fmt.Sprintf("transcripts/%s-%d.json", stage, n)
	a.transcripts = append(a.transcripts, rel)
	return rel, n
}

// judgedFor returns the verdict cache of a spec.
func (a *OpenAI) judgedFor(spec *rewrite.Spec) map[string]*rewrite.Tried {
	a.mu.Lock()
	defer a.mu.Unlock()
	m := a.judged[spec]
	if m == nil {
		m = map[string]*rewrite.Tried{}
		a.judged[spec] = m
	}
	return m
}

// SetContext adds text to the first user message of the spec's
// conversations (what another agent already found).
func (a *OpenAI) SetContext(spec *rewrite.Spec, text string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.context[spec] = text
}

func (a *OpenAI) contextFor(spec *rewrite.Spec) string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.context[spec]
}

// redactURL drops user info and the query, where a key may hide, and
// redacts the rest.
func redactURL(raw string, redact func(string) string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return redact(raw)
	}
	u.User = nil
	u.RawQuery = ""
	u.Fragment = ""
	return redact(u.String())
}
