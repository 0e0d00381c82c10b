package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/internal/treetest"
)

// README's main job: `udfx rewrite .` in examples/retail-repo. The
// example is copied into a repository of its own, as a user's checkout
// would be, and the whole flow runs: every UDF proved or declined with
// its reason, the verified set applied, and the gate passing on it.
func TestREADMEMainJobOnTheExampleRepository(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(repoRoot(t), "README.md"))
	require.NoError(t, err)
	require.Contains(t, string(readme), "cd examples/retail-repo && go run -v ../../cmd/udfx rewrite .")

	dir := t.TempDir()
	src := filepath.Join(repoRoot(t), "examples", "retail-repo")
	treetest.Copy(t, src, dir)
	git(t, dir, "init", "-q")
	git(t, dir, "add", ".")
	git(t, dir, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "retail")

	stdout, stderr, code := runCLI(t, dir, "rewrite", ".", "--format", "json", "--no-cache")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	var doc struct {
		Counts map[string]int `json:"counts"`
		UDFs   []struct {
			UDF, Status, Target, Reason string
		} `json:"udfs"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &doc), stdout)
	assert.Equal(t, map[string]int{"verified": 4, "declined": 1, "refuted": 0, "error": 0, "skipped": 0}, doc.Counts)
	got := map[string]string{}
	for _, u := range doc.UDFs {
		got[u.UDF] = u.Status + " " + u.Target
		if u.Status == "declined" {
			got[u.UDF] += " " + strings.SplitN(u.Reason, ":", 2)[0]
		}
	}
	assert.Equal(t, map[string]string{
		"shelf_price": "verified sql", "Discount": "verified sql", "kgToLb": "verified sql", "shelf_label": "verified sql",
		"pack_count": "declined  Python // of a BIGINT by a value",
	}, got)

	// shelf_price's and shelf_label's patches both edit pricing.py: the
	// set applies one and names the other with the command that applies
	// it afterwards.
	stdout, stderr, code = runCLI(t, dir, "rewrite", ".", "--apply")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.Regexp(t, `not applied +shelf_(price|label): .*apply it afterwards with udfx rewrite jobs/pricing\.py:shelf_(price|label) --apply`, stdout)
	stdout, stderr, code = runCLI(t, dir, "verify")
	require.Equal(t, exitOK, code, "stderr: %s\nstdout: %s", stderr, stdout)
	assert.Contains(t, stdout, "(3 records): ")
}
