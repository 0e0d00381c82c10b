package verify

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The gate's code is what docs/threat-model.md has to be checked against,
// so it stays small: it re-checks records with the patch, render, test
// and engine packages, never with the stage machine that wrote them, the
// build of native code or the packaging of jars (docs/architecture.md).
func TestTheGateDoesNotImportTheStageMachine(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	require.NoError(t, err, "go list: %s", out)
	deps := strings.Fields(string(out))
	require.Contains(t, deps, "github.com/udfx/udfx/harness/verify")
	const module = "github.com/udfx/udfx/"
	for _, forbidden := range []string{"harness/rewrite", "harness/mavenjar", "templates", "gpu/native", "harness/agent"} {
		for _, d := range deps {
			rel := strings.TrimPrefix(d, module)
			if rel == forbidden || strings.HasPrefix(rel, forbidden+"/") {
				t.Errorf("udfx verify depends on %s", d)
			}
		}
	}
}
