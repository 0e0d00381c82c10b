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
	"github.com/udfx/udfx/harness/udf"
)

// versionGolden is the corpus's survey of the Spark version minor
// ("3.5": spark35-reference.golden): each case verified for the default
// Spark (report.golden), its translation in the form a proof for that
// version uses, checked against its original registered in real Spark of
// that version, in its default ANSI mode.
func versionGolden(minor string) string {
	return "spark" + strings.ReplaceAll(minor, ".", "") + "-reference.golden"
}

// TestCorpusOnOtherSparks surveys which of the translator's proved
// rewrites hold on each Spark version udfx proves for besides the
// default, in the version's own ANSI mode: every case report.golden
// records as verified is translated again, in the form a proof for that
// version uses (with ANSI off, ir.ForANSIOff: the JVM's wrapping
// arithmetic as Spark's own operators), and checked as sparkReference
// does, in a session of that version from udfx's environment of it. A
// disagreement is a finding, not a failure: udfx proves a rewrite for
// such a version on that version itself at rewrite time, where such a
// rule is refuted and the UDF declined. Each run must equal its golden
// file (-update rewrites it). The fast run starts no Spark and checks
// that each file lists exactly the verified cases; the full run (-update,
// UDFX_CORPUS_SPARK=3.5 or all, task corpus SPARK=3.5) checks every one
// on Spark. An original that fails in that Spark where udfx's runner
// returns values, and a rewrite its analysis rejects, are findings too;
// only what could not be checked at all fails.
func TestCorpusOnOtherSparks(t *testing.T) {
	entries, err := corpus.Load(corpusDir, nil)
	require.NoError(t, err)
	proven := provenInGolden(t, corpusDir)
	type translated struct {
		e   corpus.Entry
		res *Result
	}
	var typed []translated
	var perType []string
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
		typed = append(typed, translated{e, res})
	}
	var cases []surveyCase
	for _, c := range typed {
		cases = append(cases, surveyCase{u: c.e.UDF, res: c.res})
	}
	surveyVersions(t, corpusDir, cases, perType)
}

// surveyCase is a case verified for the default Spark: its UDF as proved
// and the translator's result for it.
type surveyCase struct {
	u   *udf.UDF
	res *Result
}

// surveyVersions checks each case on each Spark version besides the
// default, in the form a proof for that version uses, against dir's
// golden file of that version (versionGolden); perType lists the cases
// verified per type, which are not surveyed. Without UDFX_CORPUS_SPARK or
// -update it starts no Spark and checks only that each file lists
// exactly the cases.
func surveyVersions(t *testing.T, dir string, typed []surveyCase, perType []string) {
	t.Helper()
	survey := os.Getenv("UDFX_CORPUS_SPARK")
	for _, se := range pyenv.SparkEnvs() {
		if se.Minor == pyenv.DefaultSpark() {
			continue
		}
		t.Run(se.Minor, func(t *testing.T) {
			ansi := pyenv.DefaultANSI(se.Minor)
			var cases []verifiedCase
			var offForm []string
			for _, c := range typed {
				sql := c.res.SQL
				if off, ok := ir.ForANSIOff(c.res.IR); ok && !ansi {
					var err error
					sql, err = sparksql.Render(off)
					require.NoError(t, err, "%s %s", c.u.File, c.u.Name)
					offForm = append(offForm, string(c.u.Language)+" "+c.u.Name)
				}
				cases = append(cases, verifiedCase{u: c.u, sql: sql})
			}
			golden := filepath.Join(dir, versionGolden(se.Minor))
			// -update surveys every version, or the one UDFX_CORPUS_SPARK
			// names; the others then only have their files checked.
			full := survey == se.Minor || survey == "all" || (*update && survey == "")
			if !full {
				b, err := os.ReadFile(golden)
				require.NoError(t, err, "run the survey (task corpus SPARK=%s, or -update) to create %s", se.Minor, golden)
				listed := []string{}
				for k := range referenceVerdicts(b) {
					listed = append(listed, k)
				}
				want := []string{}
				for _, c := range cases {
					want = append(want, string(c.u.Language)+" "+c.u.Name)
				}
				assert.ElementsMatch(t, want, listed, "%s does not list the verified cases: run the survey (task corpus SPARK=%s) and review", golden, se.Minor)
				return
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
			defer cancel()
			python, err := se.Ensure(ctx, func(s string) { t.Log(s) })
			require.NoError(t, err)
			on := sparkOn{env: pyenv.WithPython(os.Getenv, python), ansi: ansi, survey: true, oneByOne: true}
			report, bad := sparkReference(t, cases, true, on)
			if len(offForm) > 0 {
				report += fmt.Sprintf("in %s's form (ANSI off: Spark's own wrapping arithmetic, a raise before a division by zero or a short array), %d: %s\n", se.Minor, len(offForm), strings.Join(offForm, ", "))
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
				assert.Equal(t, string(want), report, "the corpus's Spark %s survey changed: review, then regenerate with -update", se.Minor)
			}
			assert.Zero(t, bad, "verified rewrites that could not be checked on Spark %s", se.Minor)
		})
	}
}
