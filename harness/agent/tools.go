package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"

	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/rewrite"
)

// maxSQL bounds a submitted expression: far above any real UDF's, far
// below what would slow the engine's parser down.
const maxSQL = 20_000

// tool is one function the model may call. run returns the result the
// model reads; an error becomes an {"error": ...} result, never a failure
// of the agent.
type tool struct {
	name, description string
	params            map[string]any
	run               func(c *conversation, ctx context.Context, args json.RawMessage) (map[string]any, error)
}

var tools = []tool{
	{
		name:        "read_udf",
		description: "Read the UDF: its signature with Spark types, its definition's source text, and its use sites.",
		params:      object(map[string]any{}),
		run:         readUDF,
	},
	{
		name:        "read_reference",
		description: "Read a reference page shipped with udfx. Pages: " + strings.Join(referencePages(), ", ") + ".",
		params: object(map[string]any{
			"page": map[string]any{"type": "string", "enum": referencePages(), "description": "the page to read"},
		}, "page"),
		run: readReference,
	},
	{
		name: "submit_candidate",
		description: "Run udfx's differential test on a candidate: the real original against the candidate on the embedded Spark SQL engine " +
			"(ANSI on, bit-exact) over the generated inputs. Returns the verdict with the minimal counterexample, or the engine's error.",
		params: object(map[string]any{
			"target": map[string]any{"type": "string", "enum": []string{rewrite.TargetSQL}, "description": "the rewrite target; only sql is tested"},
			"sql":    map[string]any{"type": "string", "description": "a Spark SQL expression over the UDF's parameter names"},
		}, "target", "sql"),
		run: submitCandidate,
	},
	{
		name:        "run_benchmark",
		description: "Time an accepted candidate against the original on the same inputs (medians of several alternating runs).",
		params: object(map[string]any{
			"sql": map[string]any{"type": "string", "description": "the SQL of a candidate submit_candidate accepted"},
		}, "sql"),
		run: runBenchmark,
	},
	{
		name:        "write_file",
		description: "Write a scratch file (notes, drafts) under the workspace's agent-files/ folder. Nothing written here becomes a rewrite.",
		params: object(map[string]any{
			"path":    map[string]any{"type": "string", "description": "a relative path inside agent-files/"},
			"content": map[string]any{"type": "string"},
		}, "path", "content"),
		run: writeFile,
	},
	{
		name: "finish",
		description: "End the conversation with the candidates you stand behind (each is tested again by udfx), " +
			"or with no candidates and a decline_reason saying why no exact rewrite exists.",
		params: object(map[string]any{
			"candidates": map[string]any{
				"type": "array",
				"items": object(map[string]any{
					"target": map[string]any{"type": "string", "enum": []string{rewrite.TargetSQL}},
					"sql":    map[string]any{"type": "string"},
				}, "target", "sql"),
			},
			"decline_reason": map[string]any{"type": "string"},
		}),
		run: finish,
	},
}

func object(props map[string]any, required ...string) map[string]any {
	o := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		o["required"] = required
	}
	return o
}

func toolParams() []openai.ChatCompletionToolUnionParam {
	out := make([]openai.ChatCompletionToolUnionParam, len(tools))
	for i, t := range tools {
		out[i] = openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
			Name: t.name, Description: openai.String(t.description), Parameters: shared.FunctionParameters(t.params),
		})
	}
	return out
}

func toolNames() []string {
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.name
	}
	return names
}

// call runs one tool call and returns its result as JSON text.
func (c *conversation) call(ctx context.Context, name, args string) string {
	key := name + "\x00" + canonical(args)
	c.calls[key]++
	n := c.calls[key]
	if n >= c.a.cfg.RepeatLimit {
		c.stop("repeated", fmt.Sprintf("stopped: the model made the same call (%s with the same arguments) %d times", name, n))
		return encode(map[string]any{"error": fmt.Sprintf("stopped: this identical call was made %d times; the conversation ends", n)})
	}
	var out map[string]any
	var err error
	if t := lookup(name); t == nil {
		err = fmt.Errorf("unknown tool %q; the tools are: %s", name, strings.Join(toolNames(), ", "))
	} else {
		raw := json.RawMessage(args)
		if strings.TrimSpace(args) == "" {
			raw = json.RawMessage("{}")
		}
		out, err = t.run(c, ctx, raw)
	}
	if err != nil {
		out = map[string]any{"error": err.Error()}
	}
	if n == c.a.cfg.RepeatLimit-1 {
		out["warning"] = fmt.Sprintf("this is call %d with exactly these arguments; the result will not change, and call %d ends the conversation", n, n+1)
	}
	return encode(out)
}

func lookup(name string) *tool {
	for i := range tools {
		if tools[i].name == name {
			return &tools[i]
		}
	}
	return nil
}

func encode(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprintf(`{"error": %q}`, "cannot encode the result: "+err.Error())
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// canonical makes arguments that differ only in spacing or key order
// compare equal.
func canonical(args string) string {
	var v any
	if err := json.Unmarshal([]byte(args), &v); err != nil {
		return strings.TrimSpace(args)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return strings.TrimSpace(args)
	}
	return string(b)
}

// decode parses a tool's arguments strictly, so that a misspelt field is
// reported rather than silently empty.
func decode(name string, args json.RawMessage, v any) error {
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("invalid arguments for %s: %v; send a JSON object matching the tool's parameters", name, err)
	}
	if dec.More() {
		return fmt.Errorf("invalid arguments for %s: text after the JSON object", name)
	}
	return nil
}

func readUDF(c *conversation, _ context.Context, args json.RawMessage) (map[string]any, error) {
	var none struct{}
	if err := decode("read_udf", args, &none); err != nil {
		return nil, err
	}
	u := c.spec.UDF
	params := make([]map[string]any, len(u.Params))
	for i, p := range u.Params {
		params[i] = map[string]any{"name": p.Name, "type": p.Type.String(), "source_type": p.SourceType, "primitive": p.Primitive}
	}
	uses := make([]map[string]any, len(u.UseSites))
	for i, s := range u.UseSites {
		uses[i] = map[string]any{"kind": s.Kind, "span": s.Span.String(), "text": s.Text}
	}
	def, err := evidence.SpanText(c.spec.Source, u.Span)
	if err != nil {
		return nil, fmt.Errorf("the definition's text: %w", err)
	}
	return map[string]any{
		"name": u.Name, "language": u.Language, "kind": u.Kind, "file": u.File,
		"signature": signature(c.spec), "params": params, "return_type": u.Return.String(),
		"null_skips_call":  u.NullSkipsCall,
		"registered_names": u.RegisteredNames,
		"definition":       map[string]any{"span": u.Span.String(), "text": string(def)},
		"use_sites":        uses,
	}, nil
}

func readReference(_ *conversation, _ context.Context, args json.RawMessage) (map[string]any, error) {
	var a struct {
		Page string `json:"page"`
	}
	if err := decode("read_reference", args, &a); err != nil {
		return nil, err
	}
	text, err := referencePage(a.Page)
	if err != nil {
		return nil, err
	}
	return map[string]any{"page": a.Page, "text": text}, nil
}

type candidateArgs struct {
	Target string `json:"target"`
	SQL    string `json:"sql"`
}

func (a *candidateArgs) check(tool string) error {
	a.SQL = strings.TrimSpace(a.SQL)
	if a.Target == "" {
		a.Target = rewrite.TargetSQL
	}
	switch {
	case a.Target != rewrite.TargetSQL:
		return fmt.Errorf("%s: target %q cannot be tested here; submit sql (udfx renders columnar and cuda from its own translator's IR)", tool, a.Target)
	case a.SQL == "":
		return fmt.Errorf("%s: sql is empty", tool)
	case len(a.SQL) > maxSQL:
		return fmt.Errorf("%s: sql is %d characters, more than %d", tool, len(a.SQL), maxSQL)
	}
	return nil
}

func submitCandidate(c *conversation, ctx context.Context, args json.RawMessage) (map[string]any, error) {
	var a candidateArgs
	if err := decode("submit_candidate", args, &a); err != nil {
		return nil, err
	}
	if err := a.check("submit_candidate"); err != nil {
		return nil, err
	}
	judged := c.a.judgedFor(c.spec)
	if t := judged[a.SQL]; t != nil {
		out := verdict(t)
		out["note"] = fmt.Sprintf("already judged as candidate %d; not tested again", t.Index)
		return out, nil
	}
	if c.spec.Check == nil {
		return nil, errors.New("submit_candidate: the harness has no differential test to run here")
	}
	if n := len(c.tr.Submitted); n >= c.a.cfg.MaxSubmissions {
		return nil, fmt.Errorf("submit_candidate: this conversation has had its %d candidates tested; finish with the best accepted one, or decline", n)
	}
	cand := rewrite.Candidate{Target: a.Target, SQL: a.SQL, Origin: c.origin()}
	t, err := c.spec.Check(ctx, cand)
	if err != nil {
		return nil, fmt.Errorf("the harness could not test the candidate: %v", c.a.redact(err.Error()))
	}
	judged[a.SQL] = t
	c.tr.Submitted = append(c.tr.Submitted, Submission{Candidate: t.Index, SQL: a.SQL, Accepted: t.Accepted, Reason: t.Reason})
	return verdict(t), nil
}

// verdict is what the model learns of a tested candidate.
func verdict(t *rewrite.Tried) map[string]any {
	out := map[string]any{"candidate": t.Index, "accepted": t.Accepted}
	if t.Accepted {
		out["verdict"] = "accepted: equal to the original on every row, bit-exact"
		if t.Report != nil {
			out["verdict"] = "accepted: equal to the original on every row, bit-exact, " + rewrite.ANSIName(t.Report.ANSI)
		}
	} else {
		out["verdict"] = "rejected: " + t.Reason
	}
	if r := t.Report; r != nil {
		out["rows"] = r.Rows - r.NearMissRows
		if r.NearMissRows > 0 {
			// Rows built from the literals of the original and the
			// candidate: a literal off by one character fails here.
			out["near_misses"] = r.NearMissRows
		}
		out["mismatches"] = r.Mismatches
		if len(r.OriginalExceptions) > 0 {
			out["original_exceptions"] = r.OriginalExceptions
		}
		if len(r.RewriteExceptions) > 0 {
			out["rewrite_exceptions"] = r.RewriteExceptions
		}
		if r.Counterexample != nil {
			out["counterexample"] = r.Counterexample
		}
	}
	return out
}

func runBenchmark(c *conversation, ctx context.Context, args json.RawMessage) (map[string]any, error) {
	var a struct {
		SQL string `json:"sql"`
	}
	if err := decode("run_benchmark", args, &a); err != nil {
		return nil, err
	}
	a.SQL = strings.TrimSpace(a.SQL)
	t := c.a.judgedFor(c.spec)[a.SQL]
	if t == nil || !t.Accepted {
		return nil, errors.New("run_benchmark: only a candidate that submit_candidate accepted can be timed; submit it first")
	}
	if c.spec.Bench == nil {
		return nil, errors.New("run_benchmark: the harness has no benchmark to run here")
	}
	b, err := c.spec.Bench(ctx, t.Candidate)
	if err != nil {
		return nil, fmt.Errorf("the harness could not time the candidate: %v", c.a.redact(err.Error()))
	}
	return map[string]any{
		"candidate": t.Index, "rows": b.Rows, "runs": b.Runs,
		"original_median_s": b.OriginalMedianS, "rewrite_median_s": b.RewriteMedianS,
		"original_spread_s": b.OriginalSpreadS, "rewrite_spread_s": b.RewriteSpreadS,
		"speedup": b.Speedup,
	}, nil
}

func writeFile(c *conversation, _ context.Context, args json.RawMessage) (map[string]any, error) {
	var a struct {
		Path    string `json:"path"`
		Content string `json:"content"`
	}
	if err := decode("write_file", args, &a); err != nil {
		return nil, err
	}
	rel, err := writeScratch(c.a.cfg.Workspace, a.Path, []byte(a.Content))
	if err != nil {
		return nil, err
	}
	c.tr.Files = append(c.tr.Files, rel)
	return map[string]any{"written": rel, "bytes": len(a.Content)}, nil
}

func finish(c *conversation, _ context.Context, args json.RawMessage) (map[string]any, error) {
	var a struct {
		Candidates    []candidateArgs `json:"candidates"`
		DeclineReason string          `json:"decline_reason"`
	}
	if err := decode("finish", args, &a); err != nil {
		return nil, err
	}
	var cands []rewrite.Candidate
	seen := map[string]bool{}
	for i := range a.Candidates {
		ca := &a.Candidates[i]
		if err := ca.check(fmt.Sprintf("finish: candidate %d", i+1)); err != nil {
			return nil, err
		}
		if seen[ca.SQL] {
			continue
		}
		seen[ca.SQL] = true
		cands = append(cands, rewrite.Candidate{Target: ca.Target, SQL: ca.SQL, Origin: c.origin()})
	}
	c.done = true
	if len(cands) > 0 {
		c.tr.Outcome = "finished"
		c.res = result{candidates: cands}
		return map[string]any{"finished": true, "candidates": len(cands)}, nil
	}
	reason := strings.TrimSpace(a.DeclineReason)
	if reason == "" {
		reason = "no candidate and no reason given"
	}
	c.tr.Outcome = "declined"
	c.res = result{reason: "declined: " + reason}
	return map[string]any{"finished": true, "declined": reason}, nil
}

func (c *conversation) origin() string {
	return fmt.Sprintf("%s, %s conversation %d", c.a.Name(), c.stage, c.tr.N)
}

func signature(spec *rewrite.Spec) string {
	u := spec.UDF
	parts := make([]string, len(u.Params))
	for i, p := range u.Params {
		parts[i] = p.Name + ": " + p.Type.String()
	}
	return "(" + strings.Join(parts, ", ") + ") -> " + u.Return.String()
}

// judgedList lists the candidates already judged for a spec, by index.
func judgedList(m map[string]*rewrite.Tried) []*rewrite.Tried {
	out := make([]*rewrite.Tried, 0, len(m))
	for _, t := range m {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Index < out[j].Index })
	return out
}
