package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runPlanCmd runs `udfx plan` in-process from the repository root with the
// given standard input.
func runPlanCmd(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	e := &env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, WorkDir: repoRoot(t)}
	cmd := newPlanCmd(e)
	cmd.SetArgs(args)
	cmd.SetOut(&out)
	cmd.SetErr(&errb)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	err := cmd.Execute()
	if err != nil {
		errb.WriteString("udfx: " + err.Error() + "\n")
	}
	return out.String(), errb.String(), exitCode(err)
}

const sparkPlans = "harness/plan/testdata/spark/"

func TestPlanStdin(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(repoRoot(t), sparkPlans, "python-udf.final.formatted.txt"))
	require.NoError(t, err)
	fromStdin, stderr, code := runPlanCmd(t, string(b), "-")
	require.Equal(t, 0, code, stderr)
	fromFile, _, code := runPlanCmd(t, "", sparkPlans+"python-udf.final.formatted.txt")
	require.Equal(t, 0, code)
	assert.Equal(t, strings.SplitN(fromFile, "\n", 2)[1], strings.SplitN(fromStdin, "\n", 2)[1])
	assert.True(t, strings.HasPrefix(fromStdin, "Plan: -\n"))

	_, stderr, code = runPlanCmd(t, "\nnot a plan\n", "-")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "plan -:2: not a physical plan")
}

func TestPlanJSON(t *testing.T) {
	out, stderr, code := runPlanCmd(t, "", "--format", "json", sparkPlans+"pandas-udf.final.simple.txt")
	require.Equal(t, 0, code, stderr)
	var doc struct {
		Schema string `json:"schema"`
		File   string `json:"file"`
		Report struct {
			Engine string `json:"engine"`
			UDFs   []struct {
				Kind     string `json:"kind"`
				Function string `json:"function"`
				Boundary bool   `json:"boundary"`
			} `json:"udfs"`
			TotalTransitions int `json:"total_transitions"`
		} `json:"report"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	assert.Equal(t, planSchema, doc.Schema)
	assert.Equal(t, "spark", doc.Report.Engine)
	require.Len(t, doc.Report.UDFs, 2)
	assert.Equal(t, "ArrowEvalPython", doc.Report.UDFs[0].Kind)
	assert.Equal(t, "to_fahrenheit_vec", doc.Report.UDFs[0].Function)
	assert.Equal(t, 1, doc.Report.TotalTransitions)
}

func TestPlanFailOnUDF(t *testing.T) {
	_, _, code := runPlanCmd(t, "", "--fail-on-udf", sparkPlans+"sql-rewrite.final.simple.txt")
	assert.Equal(t, exitOK, code, "a rewritten plan without UDFs passes the gate")
	_, stderr, code := runPlanCmd(t, "", "--fail-on-udf", sparkPlans+"python-udf.final.simple.txt")
	assert.Equal(t, exitFailed, code)
	assert.Contains(t, stderr, "2 UDF node(s)")
	// With --before/--after the gate reads the rewritten plan.
	_, _, code = runPlanCmd(t, "", "--fail-on-udf", "--before", sparkPlans+"python-udf.final.simple.txt", "--after", sparkPlans+"sql-rewrite.final.simple.txt")
	assert.Equal(t, exitOK, code)
	_, _, code = runPlanCmd(t, "", "--fail-on-udf", "--before", sparkPlans+"sql-rewrite.final.simple.txt", "--after", sparkPlans+"java-udf.final.simple.txt")
	assert.Equal(t, exitFailed, code)
}

func TestPlanUsage(t *testing.T) {
	for _, args := range [][]string{
		{"--format", "xml", sparkPlans + "python-udf.simple.txt"},
		{"--after", sparkPlans + "python-udf.simple.txt"},
		{"--before", "a", "--after", "b", "c"},
		{"a", "b"},
	} {
		_, stderr, code := runPlanCmd(t, "", args...)
		assert.Equal(t, exitUsage, code, "%v: %s", args, stderr)
	}
}
