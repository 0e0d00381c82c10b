package translate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/pyenv"
	"github.com/udfx/udfx/harness/render/sparksql"
	"github.com/udfx/udfx/harness/translate/corpus"
	"github.com/udfx/udfx/harness/translate/ir"
)

// spark35Golden is the corpus's survey of Spark 3.5 with ANSI off: each
// case verified for the default Spark (report.golden), its translation in
// 3.5's form checked against its original registered in real Spark 3.5.
const spark35Golden = "spark35-reference.golden"

// TestCorpusOnSpark35 surveys which of the translator's proved rewrites
// hold on Spark 3.5 with ANSI off, the mode 3.5 runs in by default: every
// case report.golden records as verified is translated again, in the form
// a proof for 3.5 uses (ir.ForANSIOff: the JVM's wrapping arithmetic as
// Spark's own operators), and checked as sparkReference does, in a Spark
// 3.5 session from udfx's environment of that version. A disagreement is
// a finding, not a failure: udfx proves a rewrite for 3.5 on 3.5 itself at
// rewrite time, where such a rule is refuted and the UDF declined. The
// run must equal spark35-reference.golden (-update rewrites it). The
// fast run starts no Spark and checks that the file lists exactly the
// verified cases; the full run (-update, UDFX_CORPUS_SPARK35=1, task
// corpus SPARK=3.5) checks every one on Spark.
func TestCorpusOnSpark35(t *testing.T) {
	entries, err := corpus.Load(corpusDir, nil)
	require.NoError(t, err)
	proven := provenInGolden(t, corpusDir)
	var cases []verifiedCase
	var perType, offForm []string
	for _, e := range entries {
		if _, ok := proven[string(e.UDF.Language)+" "+e.Name]; !ok {
			continue
		}
		res, err := Translate(e.UDF, e.Source.Src)
		require.NoError(t, err, "%s %s", e.File, e.Name)
		if res.IR == nil {
			// Verified for each assignment of its open parameter types
			// (corpusPerType); the survey takes typed cases only.
			perType = append(perType, string(e.UDF.Language)+" "+e.UDF.Name)
			continue
		}
		sql := res.SQL
		if off, ok := ir.ForANSIOff(res.IR); ok {
			sql, err = sparksql.Render(off)
			require.NoError(t, err, "%s %s", e.File, e.Name)
			offForm = append(offForm, string(e.UDF.Language)+" "+e.UDF.Name)
		}
		cases = append(cases, verifiedCase{u: e.UDF, sql: sql})
	}
	golden := filepath.Join(corpusDir, spark35Golden)
	if !*update && os.Getenv("UDFX_CORPUS_SPARK35") != "1" {
		b, err := os.ReadFile(golden)
		require.NoError(t, err, "run the survey (task corpus SPARK=3.5, or -update) to create %s", spark35Golden)
		listed := []string{}
		for k := range referenceVerdicts(b) {
			listed = append(listed, k)
		}
		want := []string{}
		for _, c := range cases {
			want = append(want, string(c.u.Language)+" "+c.u.Name)
		}
		assert.ElementsMatch(t, want, listed, "%s does not list the verified cases: run the survey (task corpus SPARK=3.5) and review", spark35Golden)
		return
	}
	env35, ok := pyenv.EnvFor("3.5")
	require.True(t, ok)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	python, err := env35.Ensure(ctx, func(s string) { t.Log(s) })
	require.NoError(t, err)
	on := sparkOn{env: pyenv.WithPython(os.Getenv, python), ansi: pyenv.DefaultANSI("3.5"), survey: true}
	report, bad := sparkReference(t, cases, true, on)
	if len(offForm) > 0 {
		report += fmt.Sprintf("in 3.5's form (Spark's own wrapping arithmetic, ANSI off), %d: %s\n", len(offForm), strings.Join(offForm, ", "))
	}
	if len(perType) > 0 {
		report += "not surveyed (verified per assignment of open parameter types): " + strings.Join(perType, ", ") + "\n"
	}
	t.Log("\n" + report)
	if *update {
		require.NoError(t, os.WriteFile(golden, []byte(report), 0o644))
	} else {
		want, err := os.ReadFile(golden)
		require.NoError(t, err, "run go test -run %s -update ./harness/translate to create it", t.Name())
		assert.Equal(t, string(want), report, "the corpus's Spark 3.5 survey changed: review, then regenerate with -update")
	}
	assert.Zero(t, bad, "verified rewrites that could not be checked on Spark 3.5")
}
