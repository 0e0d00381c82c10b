package agent

import (
	"context"
	"encoding/json"
	"testing"
)

// FuzzToolCall: whatever name and arguments a model sends, the answer is
// a JSON object for the model, never a panic or an error up the stack.
func FuzzToolCall(f *testing.F) {
	for _, seed := range [][2]string{
		{"read_udf", `{}`}, {"read_udf", ``}, {"read_udf", `{"x": 1}`},
		{"read_reference", `{"page": "spark-sql"}`}, {"read_reference", `{"page": "../../go.mod"}`},
		{"submit_candidate", `{"target": "sql", "sql": "celsius * 9.0D / 5.0D + 32.0D"}`},
		{"submit_candidate", `{"target": "sql", "sql": "celsius`}, {"submit_candidate", `[1, 2]`},
		{"run_benchmark", `{"sql": "x"}`}, {"write_file", `{"path": "../x", "content": ""}`},
		{"write_file", `{"path": "a/b", "content": "c"}`},
		{"finish", `{"candidates": [{"target": "cuda", "sql": "x"}]}`}, {"finish", `{"decline_reason": 7}`},
		{"", `null`}, {"run_sql", `{"q": "SELECT 1"}`},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, name, args string) {
		a, err := New(Config{BaseURL: "http://127.0.0.1:1/v1", Workspace: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		spec := celsiusSpec(t, nil)
		c := &conversation{a: a, stage: "convert", spec: spec, calls: map[string]int{}, tr: newTranscript(a, "convert", 1, spec)}
		out := c.call(context.Background(), name, args)
		var v map[string]any
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatalf("%s(%q) answered %q, not a JSON object: %v", name, args, out, err)
		}
		if _, isErr := v["error"]; !isErr && lookup(name) == nil {
			t.Fatalf("unknown tool %q answered without an error: %s", name, out)
		}
	})
}
