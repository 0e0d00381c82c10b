package main

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/spf13/pflag"

	"github.com/udfx/udfx/harness/agent"
	"github.com/udfx/udfx/harness/rewrite"
)

// agentOptions are the flags that choose and bound the rewrite agent.
type agentOptions struct {
	name      string
	model     string
	baseURL   string
	maxTurns  int
	maxTokens int64
	timeout   time.Duration
	priceIn   string
	priceOut  string
	optimize  bool
}

func addAgentFlags(f *pflag.FlagSet, o *agentOptions) {
	f.StringVar(&o.name, "agent", "builtin", "who proposes rewrites: builtin (the offline translator), openai (a model behind an OpenAI-compatible endpoint), auto (builtin first, the model for what it declines and for optimize)")
	f.StringVar(&o.model, "model", "", "model name for --agent openai|auto (default $OPENAI_MODEL, else "+agent.DefaultModel+")")
	f.StringVar(&o.baseURL, "base-url", "", "OpenAI-compatible endpoint (default $OPENAI_BASE_URL, else "+agent.DefaultBaseURL+" when $OPENAI_API_KEY is set)")
	f.IntVar(&o.maxTurns, "max-turns", agent.DefaultMaxTurns, "model requests per conversation")
	f.Int64Var(&o.maxTokens, "max-tokens", agent.DefaultMaxTokens, "tokens (prompt and completion) per conversation")
	f.DurationVar(&o.timeout, "agent-timeout", agent.DefaultTimeout, "wall time of each conversation: the model's requests and the tests and benchmarks it starts (--timeout bounds each run of the original)")
	f.StringVar(&o.priceIn, "price-in", "", "USD per million prompt tokens, for the transcripts' cost (default $UDFX_AGENT_PRICE_IN)")
	f.StringVar(&o.priceOut, "price-out", "", "USD per million completion tokens (default $UDFX_AGENT_PRICE_OUT)")
	f.BoolVar(&o.optimize, "optimize", false, "optimize stage: also try the translator's equivalent forms (a null guard that Spark's own NULL propagation makes redundant, removed); each is proved by the same differential test and timed beside the first, and the fastest is kept")
}

// newAgent builds the agent the flags ask for; workspace is the UDF's
// workspace folder, where an agent keeps its transcripts.
func newAgent(e *env, o *agentOptions, workspace string) (rewrite.Agent, error) {
	switch o.name {
	case "builtin":
		return rewrite.Builtin{Alternatives: o.optimize}, nil
	case "openai", "auto":
	default:
		return nil, usageErrorf("unknown --agent %q: builtin, openai or auto", o.name)
	}
	base := o.baseURL
	if base == "" {
		base = e.getenv("OPENAI_BASE_URL")
	}
	key := e.getenv("OPENAI_API_KEY")
	if base == "" && key == "" {
		if o.name == "openai" {
			return nil, usageErrorf("--agent openai needs a model endpoint: set OPENAI_BASE_URL (any OpenAI-compatible server; or --base-url) and/or OPENAI_API_KEY (for %s)", agent.DefaultBaseURL)
		}
		fmt.Fprintln(e.Stderr, "udfx: --agent auto: no model endpoint configured (OPENAI_BASE_URL, OPENAI_API_KEY); using the built-in translator alone")
		return rewrite.Builtin{Alternatives: o.optimize}, nil
	}
	if o.maxTurns <= 0 || o.maxTokens <= 0 || o.timeout <= 0 {
		return nil, usageErrorf("--max-turns, --max-tokens and --agent-timeout must be positive")
	}
	priceIn, err := price(e, "--price-in", o.priceIn, "UDFX_AGENT_PRICE_IN")
	if err != nil {
		return nil, err
	}
	priceOut, err := price(e, "--price-out", o.priceOut, "UDFX_AGENT_PRICE_OUT")
	if err != nil {
		return nil, err
	}
	model := o.model
	if model == "" {
		model = e.getenv("OPENAI_MODEL")
	}
	logf := func(s string) { fmt.Fprintln(e.Stderr, s) }
	m, err := agent.New(agent.Config{
		BaseURL: base, APIKey: key, Model: model,
		MaxTurns: o.maxTurns, MaxTokens: o.maxTokens, Timeout: o.timeout,
		PriceInPerMTok: priceIn, PriceOutPerMTok: priceOut,
		Workspace: workspace, Log: logf,
	})
	if err != nil {
		return nil, usageError(err)
	}
	if o.name == "openai" {
		return m, nil
	}
	return &agent.Auto{Builtin: rewrite.Builtin{Alternatives: o.optimize}, Model: m, Log: logf}, nil
}

// price reads a USD-per-million-tokens price from its flag or variable;
// nil when neither is set.
func price(e *env, flag, value, variable string) (*float64, error) {
	if value == "" {
		value = e.getenv(variable)
	}
	if value == "" {
		return nil, nil
	}
	p, err := strconv.ParseFloat(value, 64)
	if err != nil || p < 0 || math.IsNaN(p) || math.IsInf(p, 0) {
		return nil, usageErrorf("%s (or $%s): %q is not a price in USD per million tokens", flag, variable, value)
	}
	return &p, nil
}
