package pyscript

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRun(t *testing.T) {
	ctx := context.Background()
	var res struct{ Twice int }
	require.NoError(t, Run(ctx, "python3", "doubler", `import json, sys
print(json.dumps({"Twice": 2 * json.load(sys.stdin)["n"]}))`, map[string]int{"n": 21}, &res))
	assert.Equal(t, 42, res.Twice)

	err := Run(ctx, "python3", "the failing script", `raise SystemExit("no such rule")`, nil, &res)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the failing script failed in python3")
	assert.Contains(t, err.Error(), "no such rule", "the script's stderr is in the error")

	err = Run(ctx, "python3", "the chatty script", `print("hello")`, nil, &res)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the chatty script: the answer is not JSON")
}
