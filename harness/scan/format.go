package scan

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/internal/termsafe"
)

// Document is the JSON form of a scan: the Result plus the tool that made
// it. Its schema is documented in docs/scan-json.md.
type Document struct {
	Tool Tool `json:"tool"`
	*Result
}

// Tool names udfx and its version in reports.
type Tool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// WriteJSON writes res as an indented JSON Document.
func WriteJSON(w io.Writer, res *Result, version string) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(Document{Tool: Tool{Name: "udfx", Version: version}, Result: res})
}

// Signature renders a UDF's parameters and return type:
// "(celsius: double) -> double". Unknown types are left out of parameters
// and shown as "?" for the return.
func Signature(u *udf.UDF) string {
	parts := make([]string, len(u.Params))
	for i, p := range u.Params {
		parts[i] = p.Name
		if p.Type != nil {
			parts[i] += ": " + p.Type.String()
		}
	}
	ret := "?"
	if u.Return != nil {
		ret = u.Return.String()
	}
	return "(" + strings.Join(parts, ", ") + ") -> " + ret
}

// FeasibleTargets lists the targets the classification found feasible.
func FeasibleTargets(u *udf.UDF) []string {
	var out []string
	for _, t := range u.Targets {
		if t.Feasible {
			out = append(out, string(t.Target))
		}
	}
	return out
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// WriteTable writes one row per UDF, then a summary line, for people.
func WriteTable(w io.Writer, res *Result) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	if len(res.UDFs) > 0 {
		fmt.Fprintln(tw, "LOCATION\tLANG\tKIND\tNAME\tSIGNATURE\tSQL NAME\tUSES\tFEASIBLE\tBLOCKERS")
	}
	for i := range res.UDFs {
		u := &res.UDFs[i]
		blockers := make([]string, 0, len(u.Blockers))
		seen := map[udf.BlockerKind]bool{}
		for _, b := range u.Blockers {
			if !seen[b.Kind] {
				seen[b.Kind] = true
				blockers = append(blockers, string(b.Kind))
			}
		}
		kind := string(u.Kind)
		switch {
		case u.PandasFlavor != "":
			kind += " (" + string(u.PandasFlavor) + ")"
		case u.RDDOperation != "":
			kind += " (" + u.RDDOperation + ")"
		}
		// Names come from the repository: a file named with a newline or
		// an escape sequence is printed quoted.
		fmt.Fprintf(tw, "%s:%d:%d\t%s\t%s\t%s\t%s\t%s\t%d\t%s\t%s\n",
			termsafe.String(u.File), u.Span.Start.Line, u.Span.Start.Column, u.Language, kind, termsafe.String(u.Name), termsafe.String(Signature(u)),
			termsafe.String(orDash(strings.Join(u.RegisteredNames, ","))), len(u.UseSites),
			orDash(strings.Join(FeasibleTargets(u), ",")), orDash(strings.Join(blockers, ",")))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(res.UDFs) > 0 {
		fmt.Fprintln(w)
	}
	_, err := fmt.Fprintf(w, "%s in %s scanned", plural(len(res.UDFs), "UDF"), plural(res.FilesScanned, "file"))
	if err != nil {
		return err
	}
	if n := len(res.Errors); n > 0 {
		fmt.Fprintf(w, ", %s could not be parsed", plural(n, "file"))
	}
	if n := len(res.Skipped); n > 0 {
		fmt.Fprintf(w, ", %s skipped", plural(n, "file"))
	}
	if _, err = fmt.Fprintln(w); err != nil {
		return err
	}
	// Say why each file was skipped, as the JSON does.
	for _, s := range res.Skipped {
		if _, err := fmt.Fprintf(w, "skipped %s: %s\n", termsafe.String(s.File), termsafe.String(s.Reason)); err != nil {
			return err
		}
	}
	return nil
}

func plural(n int, noun string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
