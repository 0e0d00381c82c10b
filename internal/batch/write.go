package batch

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/udfx/udfx/internal/termsafe"
)

// Line is the line a run prints for a UDF that finished, the done-th of
// n: "[done/n] status  detail  time  FILE:NAME".
func Line(done, n int, r *Row) string {
	width := len(fmt.Sprint(n))
	return fmt.Sprintf("[%*d/%d] %-9s %s  %s  %s", width, done, n, r.Status, detail(r), elapsed(r), termsafe.String(r.File+":"+r.UDF))
}

// elapsed is a row's time, or that it came from the cache.
func elapsed(r *Row) string {
	if r.Cached {
		return "cached"
	}
	return fmt.Sprintf("%.1fs", r.Seconds)
}

// detail is what a row's status says in a line: the verified target and
// its speedup, or the reason.
func detail(r *Row) string {
	if r.Status == Verified {
		if r.Speedup == 0 {
			return r.Target
		}
		return fmt.Sprintf("%s %.1f×", r.Target, r.Speedup)
	}
	return termsafe.String(shorten(r.Reason, 120))
}

// shorten keeps a reason to one line of at most n runes.
func shorten(s string, n int) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " …"
	}
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// WriteTable writes the summary: one row per UDF, then the counts.
func WriteTable(w io.Writer, res *Result) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "UDF\tFILE\tRESULT\tTARGET\tSPEEDUP\tTIME\tREASON / REPORT")
	for i := range res.Rows {
		r := &res.Rows[i]
		target, speedup, why := "-", "-", termsafe.String(shorten(r.Reason, 80))
		if r.Status == Verified {
			target, why = r.Target, termsafe.String(r.Report)
			if r.Speedup != 0 {
				speedup = fmt.Sprintf("%.1f×", r.Speedup)
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", termsafe.String(r.UDF), termsafe.String(r.File), r.Status, target, speedup, elapsed(r), why)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if _, err := fmt.Fprintf(w, "\n%s in %.1fs\n", counts(res), res.Seconds); err != nil {
		return err
	}
	if res.Stopped {
		fmt.Fprintln(w, "Stopped early: the rows above are the UDFs that ran.")
	}
	_, err := fmt.Fprintln(w, "Each UDF's report.md, with every reason in full, is in its workspace (.udfx/<udf>/ at the repository root).")
	return err
}

// counts is "N UDFs: a verified, b declined, ..." with the zero counts
// left out.
func counts(res *Result) string {
	var parts []string
	for _, s := range Statuses {
		if n := res.Count(s); n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, s))
		}
	}
	cached := 0
	for _, r := range res.Rows {
		if r.Cached {
			cached++
		}
	}
	noun := "UDFs"
	if len(res.Rows) == 1 {
		noun = "UDF"
	}
	out := fmt.Sprintf("%d %s", len(res.Rows), noun)
	if len(parts) > 0 {
		out += ": " + strings.Join(parts, ", ")
	}
	if cached > 0 {
		out += fmt.Sprintf(" (%d taken from earlier runs, unchanged since)", cached)
	}
	return out
}

// jsonResult is the --format json document.
type jsonResult struct {
	Tool   string         `json:"tool"`
	Counts map[Status]int `json:"counts"`
	*Result
}

// WriteJSON writes the run as one JSON document.
func WriteJSON(w io.Writer, res *Result, tool string) error {
	doc := jsonResult{Tool: tool, Counts: map[Status]int{}, Result: res}
	for _, s := range Statuses {
		doc.Counts[s] = res.Count(s)
	}
	if doc.Rows == nil {
		doc.Rows = []Row{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}
