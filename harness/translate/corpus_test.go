package translate

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/difftest"
	"github.com/udfx/udfx/harness/pertype"
	"github.com/udfx/udfx/harness/runner/runners"
	"github.com/udfx/udfx/harness/translate/corpus"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/internal/typeinfer"
)

var update = flag.Bool("update", false, "rewrite testdata/corpus/report.golden and spark-reference.golden from the current outcomes")

const corpusDir = "testdata/corpus"

// corpusSeed and corpusRows are the differential test's inputs for every
// case, on udfx's runners and on Spark alike.
const (
	corpusSeed = 7
	corpusRows = 300
)

// TestCorpus runs the built-in translator over the corpus and proves
// every rewrite it emits against the real original (scalac/javac + JVM,
// CPython) on the embedded engine, ANSI on, bit-exact. The full run also
// checks every verified rewrite against its original registered in real
// Spark (sparkReference, spark-reference.golden). Each case must
// have its manifest outcome, and the report (outcomes by language and
// category, and per case) must match report.golden, so a case that flips
// either way fails until the golden file is regenerated with -update and
// reviewed. Each source file is compiled once (the JVM runner caches
// classes by source), so the cost is one JVM or CPython start per
// verified case.
func TestCorpus(t *testing.T) {
	entries, err := corpus.Load(corpusDir, nil)
	require.NoError(t, err)
	lines := make([]string, len(entries))
	type key struct{ lang, cat string }
	counts := map[key]map[string]int{}
	type result struct {
		u               *udf.UDF
		outcome, detail string
	}
	results := make([]result, len(entries))
	for i, e := range entries {
		results[i].u = e.UDF
	}
	// The originals run in parallel, one per CPU: each verified case
	// costs a JVM or CPython start. The first case of each file runs
	// alone so that its file is compiled once, then cached.
	//
	// A case whose translation is, to the letter, the SQL the reviewed
	// golden report records as verified was proved against its original
	// when that report was written; it is proved again only in a full run
	// (-update, UDFX_CORPUS_PROVE_ALL=1, task corpus), so that the suite
	// fits its time budget. Every other rewrite (a new case, a changed SQL,
	// a decline that became a rewrite) and the first case of each file,
	// which keeps each runner exercised, are proved in every run.
	full := *update || os.Getenv("UDFX_CORPUS_PROVE_ALL") == "1"
	proven := map[string]string{}
	if !full {
		proven = provenInGolden(t, corpusDir)
	}
	reproved := proveInFileOrder(len(entries), func(i int) (string, *udf.UDF, []byte) {
		return entries[i].File, results[i].u, entries[i].Source.Src
	}, proven, func(i int, outcome, detail string, _ *udf.UDF) {
		results[i].outcome, results[i].detail = outcome, detail
	})
	t.Logf("%d of %d cases proved against their originals in this run; the others' SQL is what the golden report records as proved (UDFX_CORPUS_PROVE_ALL=1 proves all)", reproved, len(entries))
	for i, c := range entries {
		u, outcome, detail := results[i].u, results[i].outcome, results[i].detail
		k := key{string(u.Language), c.Category}
		if counts[k] == nil {
			counts[k] = map[string]int{}
		}
		counts[k][outcome]++
		lines[i] = fmt.Sprintf("%-10s %-20s %-18s %-9s %s", u.Language, c.Name, c.Category, outcome, detail)
		switch c.Expect {
		case "verified":
			assert.Equal(t, "verified", outcome, "%s %s: %s", c.File, c.Name, detail)
		case "declined":
			if assert.Equal(t, "declined", outcome, "%s %s: %s", c.File, c.Name, detail) {
				assert.True(t, strings.HasPrefix(detail, c.Construct+":"), "%s %s: want the decline of %q, got %s", c.File, c.Name, c.Construct, detail)
			}
		}
	}
	var b strings.Builder
	keys := make([]key, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].lang != keys[j].lang {
			return keys[i].lang < keys[j].lang
		}
		return keys[i].cat < keys[j].cat
	})
	fmt.Fprintf(&b, "%-10s %-18s %8s %8s %8s %8s\n", "language", "category", "verified", "declined", "refuted", "error")
	total := map[string]int{}
	for _, k := range keys {
		m := counts[k]
		fmt.Fprintf(&b, "%-10s %-18s %8d %8d %8d %8d\n", k.lang, k.cat, m["verified"], m["declined"], m["refuted"], m["error"])
		for o, n := range m {
			total[o] += n
		}
	}
	fmt.Fprintf(&b, "%-10s %-18s %8d %8d %8d %8d\n", "all", "", total["verified"], total["declined"], total["refuted"], total["error"])
	fmt.Fprintf(&b, "\n%d cases, %.0f%% verified\n\n", len(entries), 100*float64(total["verified"])/float64(len(entries)))
	b.WriteString(strings.Join(lines, "\n") + "\n")
	report := b.String()
	t.Log("\n" + report)

	var verified []verifiedCase
	for _, r := range results {
		if r.outcome == "verified" {
			verified = append(verified, verifiedCase{u: r.u, sql: r.detail})
		}
	}
	if full {
		checkSparkReference(t, corpusDir, verified, true)
	} else {
		checkSparkReferenceCovers(t, corpusDir, verified, true)
	}

	golden := filepath.Join(corpusDir, "report.golden")
	if *update {
		require.NoError(t, os.WriteFile(golden, []byte(report), 0o644))
		return
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err, "run go test -run TestCorpus -update ./harness/translate to create it")
	assert.Equal(t, string(want), report, "the corpus outcomes changed: review, then regenerate with -update")
	assert.Zero(t, total["refuted"], "a rewrite the translator emitted was refuted by the real original")
}

// corpusOutcome translates u and, when a rewrite comes out, runs the
// differential test: "verified", "refuted", "declined" (detail: the first
// decline's construct and reason) or "error".
//
// prove, when not nil, decides whether a rewrite is proved now: false
// means its SQL is one the reviewed golden report records as proved.
func corpusOutcome(u *udf.UDF, src []byte, prove func(sql string) bool) (outcome, detail string, proved *udf.UDF) {
	if u.Return != nil && typeinfer.Missing(u) != nil {
		return corpusPerType(u, src, prove)
	}
	res, err := Translate(u, src)
	if err != nil {
		return "error", err.Error(), nil
	}
	if len(res.Declines) > 0 {
		d := res.Declines[0]
		return "declined", d.Construct + ": " + d.Reason, nil
	}
	if prove != nil && !prove(res.SQL) {
		return "verified", res.SQL, u
	}
	rep, err := difftest.Run(context.Background(), u, difftest.Rewrite{SQL: res.SQL},
		difftest.Options{Seed: corpusSeed, Rows: corpusRows, ANSI: true, NewRunner: runners.New})
	if err != nil {
		return "error", fmt.Sprintf("%v (rewrite %s)", err, res.SQL), nil
	}
	if !rep.Equal {
		return "refuted", fmt.Sprintf("%d mismatches, counterexample %+v (rewrite %s)", rep.Mismatches, rep.Counterexample, res.SQL), nil
	}
	return "verified", res.SQL, u
}

// corpusPerType is corpusOutcome for a UDF some parameter of which no
// source types: proved per type as udfx rewrite proves it (package
// pertype), with the translator and the differential test. A verified
// outcome's detail is the guard, proved is its first type's UDF.
func corpusPerType(u *udf.UDF, src []byte, prove func(sql string) bool) (outcome, detail string, proved *udf.UDF) {
	as, err := pertype.Assignments(u, src)
	if err != nil {
		var unknown *typeinfer.UnknownError
		if errors.As(typeinfer.Missing(u), &unknown) {
			return "untyped", unknown.Name + ": " + unknown.Reason, nil
		}
		return "error", err.Error(), nil
	}
	translate := func(a pertype.Assignment) (pertype.Translation, error) {
		res, err := Translate(a.UDF, src)
		if err != nil {
			return pertype.Translation{}, err
		}
		if len(res.Declines) > 0 {
			return pertype.Translation{Decline: res.Declines[0].Construct + ": " + res.Declines[0].Reason}, nil
		}
		return pertype.Translation{SQL: res.SQL}, nil
	}
	test := func(a pertype.Assignment, guard string, _ int) (bool, string, string, error) {
		if prove != nil && !prove(guard) {
			return true, "", "", nil
		}
		rep, err := difftest.Run(context.Background(), a.UDF, difftest.Rewrite{SQL: guard},
			difftest.Options{Seed: corpusSeed, Rows: corpusRows, ANSI: true, NewRunner: runners.New})
		var usage *difftest.UsageError
		switch {
		case errors.As(err, &usage):
			return false, pertype.Declined, "the embedded engine cannot evaluate it: " + usage.Error(), nil
		case err != nil:
			return false, "", "", err
		case !rep.Equal:
			return false, pertype.Refuted, fmt.Sprintf("%d mismatches, counterexample %+v", rep.Mismatches, rep.Counterexample), nil
		}
		return true, "", "", nil
	}
	res, err := pertype.Prove(u, as, translate, test)
	if err != nil {
		return "error", err.Error(), nil
	}
	if res.Guard != "" {
		return "verified", res.Guard, res.Proved[0].UDF
	}
	for _, v := range res.Verdicts {
		if v.Verdict == pertype.Refuted {
			return "refuted", v.Types + ": " + v.Reason, nil
		}
	}
	return "declined", res.Verdicts[0].Reason, nil
}

// proveInFileOrder sets each case's outcome (corpusOutcome, through set)
// as the corpus tests prove them: the first case of each file alone and
// always proved (its file is compiled once, then cached, and each runner
// stays exercised), the others one per CPU, proved against their original
// unless proven records the same SQL as proved (proven is empty in a full
// run). caseOf gives a case's file, UDF (nil: the case has its outcome
// already) and source. It returns how many rewrites it proved.
func proveInFileOrder(n int, caseOf func(i int) (string, *udf.UDF, []byte), proven map[string]string, set func(i int, outcome, detail string, proved *udf.UDF)) int32 {
	var reproved atomic.Int32
	prove := func(i int, first bool) {
		_, u, src := caseOf(i)
		known := proven[string(u.Language)+" "+u.Name]
		var ran bool
		outcome, detail, proved := corpusOutcome(u, src, func(sql string) bool {
			ran = first || sql != known
			return ran
		})
		set(i, outcome, detail, proved)
		if ran {
			reproved.Add(1)
		}
	}
	first := map[string]bool{}
	var wg sync.WaitGroup
	sem := make(chan struct{}, max(2, runtime.NumCPU()))
	for i := 0; i < n; i++ {
		file, u, _ := caseOf(i)
		if u == nil {
			continue
		}
		if !first[file] {
			first[file] = true
			wg.Wait()
			prove(i, true)
			continue
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			prove(i, false)
		}()
	}
	wg.Wait()
	return reproved.Load()
}

// provenInGolden reads the verified cases of dir's golden report:
// language and name to the SQL that was proved.
func provenInGolden(t *testing.T, dir string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "report.golden"))
	if err != nil {
		return map[string]string{}
	}
	out := map[string]string{}
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.Fields(l)
		if len(f) >= 5 && f[3] == "verified" {
			// The SQL is the rest of the line after the fixed columns.
			out[f[0]+" "+f[1]] = strings.TrimSpace(l[strings.Index(l, " verified ")+len(" verified "):])
		}
	}
	return out
}
