package agent

import (
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/rewrite"
	"github.com/udfx/udfx/skills"
)

//go:embed reference/*.md
var referenceFS embed.FS

// referencePages lists the pages read_reference serves, by name (the file
// name without .md).
func referencePages() []string {
	entries, err := fs.ReadDir(referenceFS, "reference")
	if err != nil {
		return nil
	}
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".md"))
	}
	sort.Strings(names)
	return names
}

func referencePage(name string) (string, error) {
	for _, p := range referencePages() {
		if p == name {
			b, err := referenceFS.ReadFile("reference/" + name + ".md")
			if err != nil {
				return "", fmt.Errorf("read_reference: %w", err)
			}
			return string(b), nil
		}
	}
	return "", fmt.Errorf("read_reference: no page %q; the pages are: %s", name, strings.Join(referencePages(), ", "))
}

// skill returns a stage's SKILL.md without its front matter.
func skill(stage string) string {
	b, err := skills.FS.ReadFile(stage + "/SKILL.md")
	if err != nil {
		// The stages are fixed and embedded; a missing one is a build
		// defect that TestEverySkillIsEmbedded catches.
		return ""
	}
	s := string(b)
	if rest, ok := strings.CutPrefix(s, "---\n"); ok {
		if i := strings.Index(rest, "\n---\n"); i >= 0 {
			s = rest[i+len("\n---\n"):]
		}
	}
	return strings.TrimSpace(s)
}

// ansiPhrase says which ANSI mode the differential test runs in: the
// target Spark's default.
func ansiPhrase(spec *rewrite.Spec) string {
	if spec != nil && spec.ANSIOff {
		return "with ANSI off (the project's Spark runs so: integral + - * wrap there as on the JVM, and casts, division by zero and overflow give NULL instead of an error)"
	}
	return "with ANSI on"
}

// systemPrompt is the stage's SKILL.md, how its steps map onto the tools,
// and the UDF's spec.
func (a *OpenAI) systemPrompt(stage string, spec *rewrite.Spec) string {
	var b strings.Builder
	fmt.Fprintf(&b, "You are the %s stage of udfx, which rewrites Apache Spark UDFs into forms accelerated engines run natively. "+
		"You propose; udfx's differential test decides. A candidate counts only when udfx tests it equal to the real original "+
		"on every generated row, bit for bit, %s.\n\n", stage, ansiPhrase(spec))
	b.WriteString("# The stage's skill\n\n")
	b.WriteString(skill(stage))
	b.WriteString("\n\n# Your tools in this conversation\n\n")
	b.WriteString("The skill names udfx commands; here the tools do that work, on the workspace the scaffold stage already wrote:\n")
	b.WriteString("- read_udf: the UDF's signature, definition and use sites.\n")
	b.WriteString("- read_reference: udfx's pages (" + strings.Join(referencePages(), ", ") + ").\n")
	b.WriteString("- submit_candidate: `udfx test --sql` on the scaffold's inputs; returns the verdict and the minimal counterexample or the engine's error.\n")
	b.WriteString("- run_benchmark: times an accepted candidate against the original.\n")
	b.WriteString("- write_file: scratch notes under the workspace; never a rewrite.\n")
	b.WriteString("- finish: ends the conversation with the candidates you stand behind, or a decline_reason.\n")
	b.WriteString("Only the sql target is yours to propose: udfx renders columnar and cuda from its own translator. " +
		"Never guess: if no exact expression exists, finish with a decline_reason naming the construct. " +
		"Do not repeat a call with the same arguments; its answer will not change.\n\n")
	b.WriteString("# The UDF\n\n")
	b.WriteString(specText(spec))
	return b.String()
}

func specText(spec *rewrite.Spec) string {
	u := spec.UDF
	var b strings.Builder
	fmt.Fprintf(&b, "- name: %s (%s %s) in %s at %s\n", u.Name, u.Language, u.Kind, u.File, u.Span)
	fmt.Fprintf(&b, "- signature: %s\n", signature(spec))
	for _, p := range u.Params {
		fmt.Fprintf(&b, "- parameter %s: Spark type %s", p.Name, p.Type)
		if p.SourceType != "" {
			fmt.Fprintf(&b, ", declared %s", p.SourceType)
		}
		if p.Primitive {
			b.WriteString(", JVM primitive")
		}
		b.WriteString("\n")
	}
	if u.NullSkipsCall {
		b.WriteString("- Spark returns NULL for a NULL input without calling the function\n")
	}
	if len(u.RegisteredNames) > 0 {
		fmt.Fprintf(&b, "- registered in SQL as: %s\n", strings.Join(u.RegisteredNames, ", "))
	}
	fmt.Fprintf(&b, "- targets asked for: %s\n", strings.Join(spec.Targets, ", "))
	if def, err := evidence.SpanText(spec.Source, u.Span); err == nil {
		fmt.Fprintf(&b, "\nDefinition:\n\n```%s\n%s\n```\n", u.Language, def)
	}
	return b.String()
}

func (a *OpenAI) convertTask(spec *rewrite.Spec) string {
	u := spec.UDF
	var b strings.Builder
	fmt.Fprintf(&b, "Write a Spark SQL expression over %s that returns exactly what %s returns for every input, NULLs, NaN, "+
		"infinities, -0.0 and errors included. Test it with submit_candidate, fix it from the counterexample until it is accepted, "+
		"then call finish with it. If no exact expression exists, call finish with a decline_reason.", paramList(spec), u.Name)
	if extra := a.contextFor(spec); extra != "" {
		b.WriteString("\n\n" + extra)
	}
	return b.String()
}

func (a *OpenAI) optimizeTask(spec *rewrite.Spec, best rewrite.Candidate, attempt int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Optimize attempt %d. The current best rewrite of %s, verified, is:\n\n    %s\n\n", attempt, spec.UDF.Name, best.SQL)
	if tried := judgedList(a.judgedFor(spec)); len(tried) > 0 {
		b.WriteString("Candidates you already submitted in this run:\n")
		for _, t := range tried {
			v := "accepted"
			if !t.Accepted {
				v = "rejected: " + t.Reason
			}
			fmt.Fprintf(&b, "- %d: %s (%s)\n", t.Index, t.Candidate.SQL, v)
		}
		b.WriteString("\n")
	}
	b.WriteString("Propose an expression that is faster on the embedded engine and still exact: test it with submit_candidate, " +
		"time it with run_benchmark beside the best, and finish with the candidates that are faster. " +
		"If you see nothing faster, finish with no candidates and a decline_reason.")
	return b.String()
}

func paramList(spec *rewrite.Spec) string {
	names := make([]string, len(spec.UDF.Params))
	for i, p := range spec.UDF.Params {
		names[i] = "`" + p.Name + "`"
	}
	if len(names) == 0 {
		return "no parameters"
	}
	return "its parameter(s) " + strings.Join(names, ", ")
}
