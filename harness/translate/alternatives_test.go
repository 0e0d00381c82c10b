package translate

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/difftest"
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
// refuted here, case by case.
func TestCorpusAlternatives(t *testing.T) {
	entries, err := corpus.Load(corpusDir, func(c corpus.Case) bool { return c.Expect == "verified" })
	require.NoError(t, err)
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
		sql, err := ir.SQL(alt)
		require.NoError(t, err, "%s %s", e.File, e.Name)
		lines[i] = fmt.Sprintf("%-20s %-20s %s", e.File, e.Name, sql)
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
	got := strings.Join(kept, "\n") + fmt.Sprintf("\n\n%d of %d verified cases have the form without the null guard, each proved\n", len(kept), len(entries))
	corpus.CheckGolden(t, filepath.Join(corpusDir, "alternatives.golden"), got, *update)
}
