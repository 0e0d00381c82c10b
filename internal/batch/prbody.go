package batch

import (
	"fmt"
	"io"
	"strings"

	"github.com/udfx/udfx/internal/mdtext"
	"github.com/udfx/udfx/internal/termsafe"
)

// PRBody is what a pull-request description of a folder run says besides
// its rows: the tool and the command that reproduces the run.
type PRBody struct {
	Tool    string
	Command string
	// Branch, when set, is the branch the run committed the rewrites on
	// (--branch), BranchCommits commits, one per UDF.
	Branch        string
	BranchCommits int
}

// WritePRBody writes a pull-request description of the run in Markdown:
// what was proved and how, a table of the verified rewrites with their
// speedups and evidence records, one of the UDFs left as they are with
// the reason, and how a reviewer checks it again.
func WritePRBody(w io.Writer, res *Result, pr PRBody) error {
	var verified, others []*Row
	for i := range res.Rows {
		if r := &res.Rows[i]; r.Status == Verified {
			verified = append(verified, r)
		} else {
			others = append(others, r)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "## UDF rewrites proved by %s\n\n", pr.Tool)
	fmt.Fprintf(&b, "%d of %d UDFs rewritten. Each rewrite below passed udfx's differential test against its original, run in its real runtime (JVM or CPython) on generated rows, Spark's special values first; its evidence record says which rows, which comparison and which engine. Speedups are medians of alternating runs, original against rewrite, on the machine that made this change.\n\n",
		len(verified), len(res.Rows))
	if pr.Branch != "" {
		fmt.Fprintf(&b, "The rewrites are on branch %s, one commit per UDF (%d commits), each naming its UDF, target, speedup and evidence record.\n\n", prCode(pr.Branch), pr.BranchCommits)
	}
	if len(verified) > 0 {
		b.WriteString("| UDF | file | target | speedup | evidence |\n|---|---|---|---:|---|\n")
		for _, r := range verified {
			speedup := "-"
			if r.Speedup != 0 {
				speedup = fmt.Sprintf("%.1f×", r.Speedup)
			}
			evidence := "-"
			if r.RewriteDir != "" {
				evidence = prCode(r.RewriteDir + "/evidence.json")
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", prCode(r.UDF), prCode(r.File), prText(r.Target), speedup, evidence)
		}
		b.WriteString("\n")
	}
	if len(others) > 0 {
		b.WriteString("### Left as they are\n\n| UDF | file | result | why |\n|---|---|---|---|\n")
		for _, r := range others {
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", prCode(r.UDF), prCode(r.File), r.Status, prText(r.Reason))
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "### Check it again\n\n- `udfx verify` re-runs every rewrite's proof from its evidence record and fails on any that is missing, stale or wrong.\n- `%s --no-cache` proves every UDF of this change again.\n", pr.Command)
	_, err := io.WriteString(w, b.String())
	return err
}

// prText is text for a pull request's Markdown: one line, table-safe, and
// no '<', which GitHub would read as HTML (a lambda's name <lambda@3:9>).
func prText(s string) string {
	return strings.ReplaceAll(mdtext.Text(s), "<", "&lt;")
}

// prCode is a name or path from the repository as a code span: escape
// sequences quoted first, since a code span shows them raw.
func prCode(s string) string { return mdtext.Code(termsafe.String(s)) }
