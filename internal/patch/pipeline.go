package patch

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/pipeline"
	"github.com/udfx/udfx/harness/udf"
)

// UsePipeline is the kind of the use site a pipeline's patch writes: the
// chain's value replaced by the DataFrame code.
const UsePipeline = "pipeline"

// PipelineSpec is what a pipeline record's spec hash covers: the chain's
// name, its steps as translated and both sides' code as the test ran it.
func PipelineSpec(u *udf.UDF, tr *pipeline.Translation) []byte {
	b, _ := json.Marshal(struct {
		Kind         udf.Kind `json:"kind"`
		Name         string   `json:"name"`
		Steps        []string `json:"steps"`
		OriginalExpr string   `json:"original_expr"`
		RewriteExpr  string   `json:"rewrite_expr"`
	}{u.Kind, u.Name, tr.Steps, tr.OriginalExpr, tr.RewriteExpr})
	return b
}

// PipelineFile is the rewrite file of a pipeline record: the chain it
// replaces and the code that replaced it, for the reviewer and for
// verify, which writes it again from the chain.
func PipelineFile(recPath string, u *udf.UDF, old string, tr *pipeline.Translation) []byte {
	var b strings.Builder
	b.WriteString(evidence.MarkerLine(".py", recPath) + "\n")
	fmt.Fprintf(&b, "\"\"\"The RDD chain %s in %s, rewritten as DataFrame code by udfx.\n\n", u.Name, u.File)
	b.WriteString("The patch writes the new code where the chain was; this file keeps both\n")
	b.WriteString("for review. udfx verify derives the new code from the chain again and\n")
	b.WriteString("re-runs the test.\n\nSteps:\n")
	for _, s := range tr.Steps {
		b.WriteString("  " + s + "\n")
	}
	b.WriteString("\nWhat the test does not compare:\n")
	for _, n := range tr.Notes {
		b.WriteString("  " + n + "\n")
	}
	b.WriteString("\"\"\"\n\nORIGINAL = " + pyTriple(old) + "\n\nREWRITE = " + pyTriple(tr.New) + "\n")
	return []byte(b.String())
}

// pyTriple quotes s as a raw triple-quoted Python string when it can be
// one, else as an escaped string literal.
func pyTriple(s string) string {
	if !strings.Contains(s, `"""`) && !strings.HasSuffix(s, `\`) && !strings.HasSuffix(s, `"`) {
		return `r"""` + s + `"""`
	}
	q, _ := json.Marshal(s)
	return string(q)
}

// ReplaceSpan returns src with the text at span replaced by text, and the
// span text now covers.
func ReplaceSpan(src []byte, span udf.Span, text string) ([]byte, udf.Span, error) {
	from, err := offsetOf(src, span.Start)
	if err != nil {
		return nil, udf.Span{}, err
	}
	to, err := offsetOf(src, span.End)
	if err != nil || to < from {
		return nil, udf.Span{}, fmt.Errorf("span %s is outside the source", span)
	}
	out := make([]byte, 0, len(src)-(to-from)+len(text))
	out = append(append(append(out, src[:from]...), text...), src[to:]...)
	return out, udf.Span{Start: span.Start, End: udf.PositionOf(out, from+len(text))}, nil
}
