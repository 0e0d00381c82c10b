package translate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/difftest"
	"github.com/udfx/udfx/harness/render/sparksql"
	"github.com/udfx/udfx/harness/runner/runners"
	"github.com/udfx/udfx/harness/translate/corpus"
	"github.com/udfx/udfx/harness/translate/ir"
)

// TestCorpusAlternatives proves, against the real original (JVM,
// CPython) on the corpus's inputs, NULL in every column among them, the
// equivalent form that udfx rewrite --optimize proposes for each verified
// case (ir.WithoutNullGuard), and records which cases have one in
// testdata/corpus/alternatives.golden (-update rewrites it). A rule that
// removed a guard Spark's NULL propagation does not give would be
// refuted here, case by case. As in TestCorpus, a form that is, to the
// letter, one the reviewed golden file records was proved when that file
// was written, and is proved again only in a full run (-update,
// UDFX_CORPUS_PROVE_ALL=1, task corpus); a new or changed form is proved
// in every run.
func TestCorpusAlternatives(t *testing.T) {
	entries, err := corpus.Load(corpusDir, func(c corpus.Case) bool { return c.Expect == "verified" })
	require.NoError(t, err)
	golden := filepath.Join(corpusDir, "alternatives.golden")
	recorded := map[string]bool{}
	if b, err := os.ReadFile(golden); err == nil && !*update && os.Getenv("UDFX_CORPUS_PROVE_ALL") != "1" {
		for _, l := range strings.Split(string(b), "\n") {
			recorded[l] = true
		}
	}
	proved := 0
	lines := make([]string, len(entries))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for i, e := range entries {
		res, err := Translate(e.UDF, e.Source.Src)
		require.NoError(t, err)
		require.NotNil(t, res.IR, "%s %s is verified in the manifest", e.File, e.Name)
		alt, ok := ir.WithoutNullGuard(res.IR)
		if !ok {
			continue
		}
		sql, err := sparksql.Render(alt)
		require.NoError(t, err, "%s %s", e.File, e.Name)
		lines[i] = fmt.Sprintf("%-20s %-20s %s", e.File, e.Name, sql)
		if recorded[lines[i]] {
			continue
		}
		proved++
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			rep, err := difftest.Run(context.Background(), e.UDF, difftest.Rewrite{SQL: sql},
				difftest.Options{Seed: corpusSeed, Rows: corpusRows, ANSI: true, NewRunner: runners.New})
			if assert.NoError(t, err, "%s %s", e.File, e.Name) {
				assert.True(t, rep.Equal, "%s %s: %s refuted: %d mismatches, counterexample %+v", e.File, e.Name, sql, rep.Mismatches, rep.Counterexample)
			}
		}()
	}
	wg.Wait()
	var kept []string
	for _, l := range lines {
		if l != "" {
			kept = append(kept, l)
		}
	}
	t.Logf("%d of %d alternatives proved against their originals in this run; the others are what the golden file records as proved (UDFX_CORPUS_PROVE_ALL=1 proves all)", proved, len(kept))
	got := strings.Join(kept, "\n") + fmt.Sprintf("\n\n%d of %d verified cases have the form without the null guard, each proved\n", len(kept), len(entries))
	corpus.CheckGolden(t, golden, got, *update)
}
