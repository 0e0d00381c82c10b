// Package bench times an original UDF against its rewrite. Both sides run
// on the same inputs, a warm-up of each first, then timed runs that
// alternate original and rewrite, so that drift on a shared, noisy
// machine hits both alike and the ratio of the medians stays meaningful
// even when the absolute times do not.
package bench

import (
	"context"
	"fmt"
	"runtime"
	"sort"
	"time"

	"github.com/udfx/udfx/harness/plan"
)

// Result is one measured comparison.
type Result struct {
	UDF  string `json:"udf"`
	File string `json:"file"`
	SQL  string `json:"rewrite_sql"`
	Rows int    `json:"rows"`
	// Samples is the file of rows timed (repeated to Rows), "" where the
	// inputs were generated.
	Samples string `json:"samples,omitempty"`
	Warmup  int    `json:"warmup"`
	Runs    int    `json:"runs"`
	// Engine is "embedded" (the original in its own runtime, the rewrite
	// on udfx's engine) or "spark" (both as Spark jobs in one session).
	Engine string `json:"engine"`
	// Original and Rewrite describe what each side ran in.
	Original        string    `json:"original"`
	Rewrite         string    `json:"rewrite"`
	Machine         string    `json:"machine"`
	OriginalS       []float64 `json:"original_s"`
	RewriteS        []float64 `json:"rewrite_s"`
	OriginalMedianS float64   `json:"original_median_s"`
	RewriteMedianS  float64   `json:"rewrite_median_s"`
	// Spreads are max − min of the timed runs.
	OriginalSpreadS float64 `json:"original_spread_s"`
	RewriteSpreadS  float64 `json:"rewrite_spread_s"`
	// Speedup is OriginalMedianS / RewriteMedianS.
	Speedup float64 `json:"speedup"`
	// OriginalNative and RewriteNative are what Comet ran natively of
	// each side's job (engine comet).
	OriginalNative *plan.NativeCoverage `json:"original_native,omitempty"`
	RewriteNative  *plan.NativeCoverage `json:"rewrite_native,omitempty"`
}

// Machine describes this machine for reports.
func Machine() string {
	return fmt.Sprintf("%d CPUs, %s/%s, %s", runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, runtime.Version())
}

// Side is one timed run of one side.
type Side func(ctx context.Context) (time.Duration, error)

// Alternate runs warmup untimed runs of each side, then runs timed runs
// of original and rewrite in turn. progress, when set, hears each run
// ("original 2/5").
func Alternate(ctx context.Context, warmup, runs int, original, rewrite Side, progress func(string)) (origS, rewS []float64, err error) {
	if runs < 1 {
		return nil, nil, fmt.Errorf("bench: at least one timed run is needed, got %d", runs)
	}
	say := func(format string, args ...any) {
		if progress != nil {
			progress(fmt.Sprintf(format, args...))
		}
	}
	for i := 1; i <= warmup; i++ {
		say("warm-up %d/%d: original", i, warmup)
		if _, err := original(ctx); err != nil {
			return nil, nil, fmt.Errorf("warm-up of the original: %w", err)
		}
		say("warm-up %d/%d: rewrite", i, warmup)
		if _, err := rewrite(ctx); err != nil {
			return nil, nil, fmt.Errorf("warm-up of the rewrite: %w", err)
		}
	}
	for i := 1; i <= runs; i++ {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		say("run %d/%d: original", i, runs)
		o, err := original(ctx)
		if err != nil {
			return nil, nil, fmt.Errorf("run %d of the original: %w", i, err)
		}
		say("run %d/%d: rewrite", i, runs)
		r, err := rewrite(ctx)
		if err != nil {
			return nil, nil, fmt.Errorf("run %d of the rewrite: %w", i, err)
		}
		origS = append(origS, o.Seconds())
		rewS = append(rewS, r.Seconds())
	}
	return origS, rewS, nil
}

// Summarize fills the medians, spreads and speedup from the runs.
func (r *Result) Summarize() {
	r.Runs = len(r.OriginalS)
	r.OriginalMedianS, r.OriginalSpreadS = MedianSpread(r.OriginalS)
	r.RewriteMedianS, r.RewriteSpreadS = MedianSpread(r.RewriteS)
	r.Speedup = 0
	if r.RewriteMedianS > 0 {
		r.Speedup = r.OriginalMedianS / r.RewriteMedianS
	}
}

// MedianSpread returns the median and max − min of xs (0, 0 when empty).
func MedianSpread(xs []float64) (median, spread float64) {
	if len(xs) == 0 {
		return 0, 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	n := len(s)
	median = s[n/2]
	if n%2 == 0 {
		median = (s[n/2-1] + s[n/2]) / 2
	}
	return median, s[n-1] - s[0]
}
