package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"

	"github.com/udfx/udfx/harness/rewrite"
)

// result is how a conversation ended.
type result struct {
	candidates []rewrite.Candidate
	// reason says why there are no candidates: the model's decline or
	// the budget that stopped it.
	reason string
}

// conversation is one stage's dialogue with the model.
type conversation struct {
	a     *OpenAI
	stage string
	spec  *rewrite.Spec
	tr    *Transcript
	msgs  []openai.ChatCompletionMessageParamUnion
	// calls counts identical calls (tool name and canonical arguments).
	calls map[string]int
	// done is set by finish or a guard; res is then the outcome.
	done bool
	res  result
}

// converse holds one conversation and saves its transcript, whatever
// happens. A budget or a decline is a result; an error is the endpoint
// failing (EndpointError), the caller's context ending, or the transcript
// not being writable.
func (a *OpenAI) converse(ctx context.Context, stage string, spec *rewrite.Spec, task string) (res result, err error) {
	rel, n := a.nextTranscript(stage)
	c := &conversation{a: a, stage: stage, spec: spec, calls: map[string]int{}}
	c.tr = newTranscript(a, stage, n, spec)
	system := a.systemPrompt(stage, spec)
	c.msgs = []openai.ChatCompletionMessageParamUnion{openai.SystemMessage(system), openai.UserMessage(task)}
	c.tr.message(Message{Role: "system", Content: system})
	c.tr.message(Message{Role: "user", Content: task})

	defer func() {
		c.tr.finish(c, err)
		if werr := c.tr.write(a, rel); werr != nil && err == nil {
			err = werr
		}
		a.cfg.Log(a.redact(c.tr.summary(rel)))
	}()
	if err := c.run(ctx); err != nil {
		return result{}, err
	}
	return c.res, nil
}

func (c *conversation) stop(outcome, reason string) {
	c.done = true
	c.tr.Outcome = outcome
	c.res = result{reason: reason}
}

// run is the loop: ask the model, answer its tool calls, until it
// finishes or a guard stops it.
func (c *conversation) run(ctx context.Context) error {
	cfg := c.a.cfg
	// The wall-time budget is the whole conversation's: the model's
	// requests and the differential tests and benchmarks its tool calls
	// start. A test cut off by it ends its runner's process (the next
	// test starts a fresh one) or, on --engine spark, the Spark session.
	convCtx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()
	wallTime := func(during string) {
		c.stop("budget", fmt.Sprintf("stopped by the wall-time budget of %s%s without finishing", cfg.Timeout, during))
	}
	tools := toolParams()
	// lastTotal is the previous request's prompt and completion: the next
	// request sends all of it again, so its prompt is at least as long.
	var lastTotal int64
	for turn := 1; !c.done; turn++ {
		used := c.tr.Usage.TotalTokens
		switch {
		case turn > cfg.MaxTurns:
			c.stop("budget", fmt.Sprintf("stopped by the turn budget: %d model requests without finishing", cfg.MaxTurns))
			return nil
		case used+lastTotal >= cfg.MaxTokens:
			c.stop("budget", fmt.Sprintf("stopped by the token budget: %d tokens used of %d, and the next request would send at least %d more, without finishing", used, cfg.MaxTokens, lastTotal))
			return nil
		case convCtx.Err() != nil && ctx.Err() == nil:
			wallTime("")
			return nil
		}
		c.tr.Turns = turn
		params := openai.ChatCompletionNewParams{Model: shared.ChatModel(cfg.Model), Messages: c.msgs, Tools: tools}
		// The answer may use what is left of the budget after the prompt,
		// which is at least lastTotal tokens.
		params.MaxCompletionTokens = openai.Int(cfg.MaxTokens - used - lastTotal)
		resp, err := c.complete(ctx, convCtx, turn, params)
		if err != nil {
			var ee *EndpointError
			switch {
			case ctx.Err() != nil:
				return fmt.Errorf("agent: %w", ctx.Err())
			case convCtx.Err() != nil:
				wallTime("")
				return nil
			case errors.As(err, &ee):
				c.tr.Outcome = "error"
				c.tr.Reason = ee.Error()
			}
			return err
		}
		c.tr.addUsage(resp.Usage)
		lastTotal = c.tr.Usage.TotalTokens - used
		if len(resp.Choices) == 0 {
			err := &EndpointError{Status: http.StatusOK, Attempts: 1, Msg: "the response has no choices"}
			c.tr.Outcome, c.tr.Reason = "error", err.Error()
			return err
		}
		msg := resp.Choices[0].Message
		c.msgs = append(c.msgs, msg.ToParam())
		rec := Message{Role: "assistant", Turn: turn, Content: msg.Content, FinishReason: resp.Choices[0].FinishReason}
		for _, tc := range msg.ToolCalls {
			rec.ToolCalls = append(rec.ToolCalls, ToolCall{ID: tc.ID, Name: toolName(tc), Arguments: toolArgs(tc)})
		}
		c.tr.message(rec)
		if total := c.tr.Usage.TotalTokens; total > cfg.MaxTokens {
			// The answer took the conversation over its budget (a prompt
			// longer than expected, or a server that ignores the
			// completion limit): what it asks for is not done.
			c.stop("budget", fmt.Sprintf("stopped by the token budget: request %d brought the total to %d tokens of %d; its tool calls were not run", turn, total, cfg.MaxTokens))
			for _, tc := range msg.ToolCalls {
				c.answer(turn, tc.ID, toolName(tc), `{"error": "not run: the token budget is spent"}`)
			}
			return nil
		}
		if len(msg.ToolCalls) == 0 {
			// A model that answers in prose has not finished: only the
			// finish tool ends a conversation, so that its candidates are
			// explicit.
			nudge := "Reply with tool calls only: test a candidate with submit_candidate, and end with finish (candidates, or a decline_reason)."
			c.msgs = append(c.msgs, openai.UserMessage(nudge))
			c.tr.message(Message{Role: "user", Turn: turn, Content: nudge})
			continue
		}
		for _, tc := range msg.ToolCalls {
			if c.done {
				// Every tool call gets an answer, or the next request
				// would be malformed; none is sent after the end.
				c.answer(turn, tc.ID, toolName(tc), `{"error": "not run: the conversation already ended"}`)
				continue
			}
			if convCtx.Err() != nil && ctx.Err() == nil {
				wallTime(fmt.Sprintf(" before %s could run", toolName(tc)))
				c.answer(turn, tc.ID, toolName(tc), `{"error": "not run: the wall-time budget is spent"}`)
				continue
			}
			out := c.call(convCtx, toolName(tc), toolArgs(tc))
			if ctx.Err() != nil {
				return fmt.Errorf("agent: %w", ctx.Err())
			}
			if convCtx.Err() != nil && !c.done {
				wallTime(fmt.Sprintf(" while %s was running", toolName(tc)))
			}
			c.answer(turn, tc.ID, toolName(tc), out)
		}
	}
	return nil
}

func (c *conversation) answer(turn int, id, name, content string) {
	content = c.a.redact(content)
	c.msgs = append(c.msgs, openai.ToolMessage(content, id))
	c.tr.message(Message{Role: "tool", Turn: turn, ToolCallID: id, Name: name, Content: content})
}

func toolName(tc openai.ChatCompletionMessageToolCallUnion) string {
	if tc.Type == "custom" {
		return tc.Custom.Name
	}
	return tc.Function.Name
}

func toolArgs(tc openai.ChatCompletionMessageToolCallUnion) string {
	if tc.Type == "custom" {
		return tc.Custom.Input
	}
	return tc.Function.Arguments
}

// complete sends one request, retrying 429, 5xx, timeouts and transport
// errors with backoff. Each attempt is recorded in the transcript.
func (c *conversation) complete(ctx, convCtx context.Context, turn int, params openai.ChatCompletionNewParams) (*openai.ChatCompletion, error) {
	cfg := c.a.cfg
	for attempt := 0; ; attempt++ {
		reqCtx, cancel := context.WithTimeout(convCtx, cfg.RequestTimeout)
		start := time.Now()
		resp, err := c.a.chat.New(reqCtx, params)
		timedOut := errors.Is(reqCtx.Err(), context.DeadlineExceeded)
		cancel()
		r := Request{Turn: turn, Attempt: attempt + 1, Seconds: time.Since(start).Seconds()}
		if err == nil {
			r.Status = http.StatusOK
			r.Usage = usageOf(resp.Usage)
			c.tr.Requests = append(c.tr.Requests, r)
			return resp, nil
		}
		retry, status, msg := classify(err, timedOut && convCtx.Err() == nil)
		r.Status, r.Error = status, c.a.redact(msg)
		c.tr.Requests = append(c.tr.Requests, r)
		if ctx.Err() != nil || convCtx.Err() != nil {
			return nil, err
		}
		if !retry || attempt >= cfg.MaxRetries {
			return nil, &EndpointError{Status: status, Attempts: attempt + 1, Msg: c.a.redact(msg)}
		}
		delay := cfg.Backoff(attempt)
		if d, ok := retryAfter(err); ok && d > delay {
			delay = d
		}
		delay = min(delay, maxRetryDelay)
		c.tr.Retries++
		t := time.NewTimer(delay)
		select {
		case <-convCtx.Done():
			t.Stop()
			return nil, convCtx.Err()
		case <-t.C:
		}
	}
}

// classify says whether an error is worth retrying, its HTTP status (0
// for none) and a message. The API error's own text is a status summary;
// the response body is not quoted (it may echo the request).
func classify(err error, requestTimedOut bool) (retry bool, status int, msg string) {
	var apiErr *openai.Error
	if errors.As(err, &apiErr) {
		status = apiErr.StatusCode
		msg = apiErr.Error()
		if apiErr.Message != "" {
			msg += ": " + apiErr.Message
		}
		retry = status == http.StatusRequestTimeout || status == http.StatusConflict || status == http.StatusTooManyRequests || status >= 500
		return retry, status, msg
	}
	if requestTimedOut {
		return true, 0, "the request timed out"
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return true, 0, "transport error: " + err.Error()
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return false, 0, "the response is not valid JSON: " + err.Error()
	}
	// Other errors come from the transport too (a reset connection, an
	// EOF mid-response): worth another attempt.
	return true, 0, err.Error()
}

// retryAfter reads a Retry-After header in seconds from an API error.
func retryAfter(err error) (time.Duration, bool) {
	var apiErr *openai.Error
	if !errors.As(err, &apiErr) || apiErr.Response == nil {
		return 0, false
	}
	s, perr := strconv.ParseFloat(apiErr.Response.Header.Get("Retry-After"), 64)
	if perr != nil || s < 0 {
		return 0, false
	}
	return time.Duration(s * float64(time.Second)), true
}
