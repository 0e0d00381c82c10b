package main

import (
	"github.com/spf13/pflag"

	"github.com/udfx/udfx/harness/rewrite"
)

// agentOptions are the flags that choose and bound the rewrite agent.
type agentOptions struct {
	name string
}

func addAgentFlags(f *pflag.FlagSet, o *agentOptions) {
	f.StringVar(&o.name, "agent", "builtin", "who proposes rewrites: builtin")
}

// newAgent builds the agent the flags ask for; workspace is the UDF's
// workspace folder, where an agent keeps its transcripts.
func newAgent(_ *env, o *agentOptions, _ string) (rewrite.Agent, error) {
	if o.name != "builtin" {
		return nil, usageErrorf("unknown --agent %q: builtin", o.name)
	}
	return rewrite.Builtin{}, nil
}
