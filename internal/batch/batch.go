// Package batch runs one command over every UDF of a repository: it picks
// the UDFs a scan found that the user's filters keep, runs a per-UDF
// function on each in turn, and keeps one row per UDF for the summary
// (text lines while it runs, a table or JSON at the end).
//
// The per-UDF work is the caller's: batch knows nothing of runtimes or
// proofs, so a UDF that fails ends as an error row and the run goes on.
package batch

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/udfx/udfx/harness/udf"
)

// Status is how one UDF's run ended.
type Status string

const (
	// Verified: a rewrite passed its differential test.
	Verified Status = "verified"
	// Declined: no exact rewrite was proposed.
	Declined Status = "declined"
	// Refuted: a proposed rewrite was tested and differs.
	Refuted Status = "refuted"
	// Error: the UDF could not be taken through (its original did not
	// run, its types are unknown, a runtime failed).
	Error Status = "error"
	// Skipped: the run did not try the UDF (no asked target applies,
	// or another UDF's run covers it).
	Skipped Status = "skipped"
)

// Statuses in the order the summary counts them.
var Statuses = []Status{Verified, Declined, Refuted, Error, Skipped}

// Filter says which of a scan's UDFs a run takes. Empty fields keep all.
type Filter struct {
	Languages []udf.Language
	Kinds     []udf.Kind
	// Names are path.Match globs over the UDF's name; a UDF is kept when
	// one matches its name or one of its registered SQL names.
	Names []string
	// Files, when not nil, keeps only UDFs in these files (absolute,
	// slash-separated paths): --changed-since.
	Files map[string]bool
}

// Check refuses a filter that would fail later: an unknown language or
// kind, a malformed glob.
func (f Filter) Check() error {
	for _, l := range f.Languages {
		if l != udf.Scala && l != udf.Java && l != udf.Python {
			return fmt.Errorf("unknown language %q: want scala, java or python", l)
		}
	}
	for _, k := range f.Kinds {
		if !slices.Contains(udf.Kinds, k) {
			return fmt.Errorf("unknown kind %q: want one of %s", k, kindNames())
		}
	}
	for _, g := range f.Names {
		if _, err := path.Match(g, ""); err != nil {
			return fmt.Errorf("name pattern %q: %w", g, err)
		}
	}
	return nil
}

func kindNames() string {
	names := make([]string, len(udf.Kinds))
	for i, k := range udf.Kinds {
		names[i] = string(k)
	}
	return strings.Join(names, ", ")
}

// keeps is whether f keeps u; abs is u's file as an absolute path.
func (f Filter) keeps(u *udf.UDF, abs string) bool {
	if len(f.Languages) > 0 && !slices.Contains(f.Languages, u.Language) {
		return false
	}
	if len(f.Kinds) > 0 && !slices.Contains(f.Kinds, u.Kind) {
		return false
	}
	if f.Files != nil && !f.Files[abs] {
		return false
	}
	if len(f.Names) == 0 {
		return true
	}
	for _, g := range f.Names {
		for _, n := range append([]string{u.Name}, u.RegisteredNames...) {
			if ok, _ := path.Match(g, n); ok {
				return true
			}
		}
	}
	return false
}

// Item is one UDF a run takes, or skips with a reason.
type Item struct {
	UDF udf.UDF
	// Ref is FILE:NAME as a single-UDF command takes it.
	Ref string
	// Skip, when set, is why the run does not try the UDF.
	Skip string
}

// Select is the UDFs of a scan that f keeps, in the scan's order (by
// file, then position). abs resolves a UDF's file as scan reported it.
// A function passed to an RDD transformation inside a chain udfx rewrites
// whole is listed as skipped: the chain's row stands for it.
func Select(udfs []udf.UDF, f Filter, abs func(string) string) []Item {
	var items []Item
	for _, u := range udfs {
		if !f.keeps(&u, abs(u.File)) {
			continue
		}
		it := Item{UDF: u, Ref: u.File + ":" + u.Name}
		if u.Kind == udf.KindRDDLambda {
			if p := enclosingPipeline(udfs, &u); p != "" {
				it.Skip = "part of the RDD chain " + p + ", rewritten whole"
			}
		}
		items = append(items, it)
	}
	return items
}

func enclosingPipeline(udfs []udf.UDF, u *udf.UDF) string {
	for _, p := range udfs {
		if p.Kind == udf.KindRDDPipeline && p.File == u.File && p.Span.Contains(u.Span) {
			return p.Name
		}
	}
	return ""
}

// Row is how one UDF's run ended, for the summary.
type Row struct {
	UDF      string       `json:"udf"`
	File     string       `json:"file"`
	Language udf.Language `json:"language"`
	Kind     udf.Kind     `json:"kind"`
	Status   Status       `json:"status"`
	Target   string       `json:"target,omitempty"`
	Reason   string       `json:"reason,omitempty"`
	Speedup  float64      `json:"speedup,omitempty"`
	Seconds  float64      `json:"seconds"`
	// Report is the UDF's report.md, relative to the working directory.
	Report string `json:"report,omitempty"`
	// RewriteDir is where a verified rewrite's patch puts its files and
	// evidence record, relative to the repository root.
	RewriteDir string `json:"rewrite_dir,omitempty"`
	// Cached is set when the row comes from an earlier run's proof of
	// the same UDF, unchanged (Cache); Seconds is then the lookup's.
	Cached bool `json:"cached,omitempty"`
}

// Result is a whole run.
type Result struct {
	Rows    []Row   `json:"udfs"`
	Seconds float64 `json:"seconds"`
	// Stopped is set when the run ended before its last UDF (the
	// context was cancelled): the rows are those it finished.
	Stopped bool `json:"stopped,omitempty"`
}

// Count is how many rows ended with s.
func (r *Result) Count(s Status) int {
	n := 0
	for _, row := range r.Rows {
		if row.Status == s {
			n++
		}
	}
	return n
}

// Hooks tell the caller how a run goes; nil hooks are not called. They
// are called one at a time, never concurrently.
type Hooks struct {
	// Start is called before an item runs.
	Start func(it *Item)
	// Done is called with an item's row once it ran: the done-th of n to
	// finish (from 1).
	Done func(done, n int, row *Row)
}

// Run runs each item's UDF through one, jobs at a time (at least one),
// and returns their rows in the items' order. A skipped item gets its row
// without running. A cancelled ctx stops the run between UDFs (the UDFs
// in flight see ctx themselves, and their rows are kept).
func Run(ctx context.Context, items []Item, one func(context.Context, *Item) Row, jobs int, h Hooks) *Result {
	start := time.Now()
	jobs = max(1, min(jobs, len(items)))
	rows := make([]*Row, len(items))
	var mu sync.Mutex // hooks, done and stopped
	done, stopped := 0, false
	var next atomic.Int64
	var wg sync.WaitGroup
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(items) {
					return
				}
				if ctx.Err() != nil {
					mu.Lock()
					stopped = true
					mu.Unlock()
					return
				}
				rows[i] = runOne(ctx, &items[i], one, &mu, h)
				mu.Lock()
				done++
				if h.Done != nil {
					h.Done(done, len(items), rows[i])
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	res := &Result{Stopped: stopped, Seconds: seconds(time.Since(start))}
	for _, r := range rows {
		if r != nil {
			res.Rows = append(res.Rows, *r)
		}
	}
	return res
}

func runOne(ctx context.Context, it *Item, one func(context.Context, *Item) Row, mu *sync.Mutex, h Hooks) *Row {
	if h.Start != nil {
		mu.Lock()
		h.Start(it)
		mu.Unlock()
	}
	t0 := time.Now()
	var row Row
	if it.Skip != "" {
		row = Row{Status: Skipped, Reason: it.Skip}
	} else {
		row = one(ctx, it)
	}
	row.UDF, row.File, row.Language, row.Kind = it.UDF.Name, it.UDF.File, it.UDF.Language, it.UDF.Kind
	row.Seconds = seconds(time.Since(t0))
	return &row
}

// seconds is d in seconds to the millisecond, as reports show it.
func seconds(d time.Duration) float64 { return float64(d.Milliseconds()) / 1000 }
