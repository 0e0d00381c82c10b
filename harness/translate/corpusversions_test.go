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

// versionGolden is the corpus's survey of the Spark version minor in
// ANSI mode ansi ("3.5" in its default mode, off: spark35-reference.golden;
// "4.1" with ANSI off: spark41-ansi-off-reference.golden): each case
// verified for the default Spark (report.golden), its translation in the
// form a proof for that version and mode uses, checked against its
// original registered in real Spark of that version, in that mode.
func versionGolden(minor string, ansi bool) string {
	name := "spark" + strings.ReplaceAll(minor, ".", "")
	if ansi != pyenv.DefaultANSI(minor) {
		name += "-ansi-" + onOff(ansi)
	}
	return name + "-reference.golden"
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// surveyTarget is one Spark version and ANSI mode the corpus is surveyed
// on.
type surveyTarget struct {
	env  pyenv.SparkEnv
	ansi bool
}

func (st surveyTarget) name() string { return st.env.Minor + " ANSI " + onOff(st.ansi) }

// task is the task corpus invocation that surveys st.
func (st surveyTarget) task() string {
	if st.ansi == pyenv.DefaultANSI(st.env.Minor) {
		return "task corpus SPARK=" + st.env.Minor
	}
	return "task corpus SPARK=" + st.env.Minor + " ANSI=" + onOff(st.ansi)
}

// surveyTargets are the versions and modes a survey covers: every
// version besides the default in its default mode, and the default
// version with ANSI off (the setting of jobs moved to Spark 4 that keep
// Spark 3's NULLs). UDFX_CORPUS_SPARK with UDFX_CORPUS_ANSI=on|off names
// another (task corpus SPARK=4.3 ANSI=off); the returned name is the one
// the variables select for a full run ("" when none, "all" for all).
func surveyTargets(t *testing.T) ([]surveyTarget, string) {
	t.Helper()
	survey := os.Getenv("UDFX_CORPUS_SPARK")
	mode := os.Getenv("UDFX_CORPUS_ANSI")
	var targets []surveyTarget
	for _, se := range pyenv.SparkEnvs() {
		def := pyenv.DefaultANSI(se.Minor)
		if se.Minor != pyenv.DefaultSpark() {
			targets = append(targets, surveyTarget{se, def})
		} else if def {
			targets = append(targets, surveyTarget{se, false})
		}
	}
	if mode == "" {
		return targets, survey
	}
	require.Contains(t, []string{"on", "off"}, mode, "UDFX_CORPUS_ANSI is on or off")
	require.NotContains(t, []string{"", "all"}, survey, "UDFX_CORPUS_ANSI needs the version it is for in UDFX_CORPUS_SPARK")
	for _, se := range pyenv.SparkEnvs() {
		if se.Minor != survey {
			continue
		}
		st := surveyTarget{se, mode == "on"}
		if st.ansi == pyenv.DefaultANSI(se.Minor) && se.Minor == pyenv.DefaultSpark() {
			t.Fatalf("Spark %s with ANSI %s is the default reference: run task corpus", survey, mode)
		}
		for _, have := range targets {
			if have.name() == st.name() {
				return targets, st.name()
			}
		}
		return append(targets, st), st.name()
	}
	t.Fatalf("UDFX_CORPUS_SPARK=%s: udfx proves for Spark %s", survey, pyenv.SparkMinors())
	return nil, ""
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

// surveyVersions checks each case on each Spark version and mode of
// surveyTargets, in the form a proof for that version and mode uses,
// against dir's golden file of it (versionGolden); perType lists the
// cases verified per type, which are not surveyed. Without
// UDFX_CORPUS_SPARK or -update it starts no Spark and checks only that
// each file lists exactly the cases.
func surveyVersions(t *testing.T, dir string, typed []surveyCase, perType []string) {
	t.Helper()
	targets, survey := surveyTargets(t)
	for _, st := range targets {
		se, ansi := st.env, st.ansi
		t.Run(st.name(), func(t *testing.T) {
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
			golden := filepath.Join(dir, versionGolden(se.Minor, ansi))
			// -update surveys every target, or the one UDFX_CORPUS_SPARK
			// (and UDFX_CORPUS_ANSI) names; the others then only have
			// their files checked.
			full := survey == "all" || (*update && survey == "") ||
				survey == st.name() || (survey == se.Minor && ansi == pyenv.DefaultANSI(se.Minor))
			if !full {
				b, err := os.ReadFile(golden)
				require.NoError(t, err, "run the survey (%s, or -update) to create %s", st.task(), golden)
				listed := []string{}
				for k := range referenceVerdicts(b) {
					listed = append(listed, k)
				}
				want := []string{}
				for _, c := range cases {
					want = append(want, string(c.u.Language)+" "+c.u.Name)
				}
				assert.ElementsMatch(t, want, listed, "%s does not list the verified cases: run the survey (%s) and review", golden, st.task())
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
				assert.Equal(t, string(want), report, "the corpus's Spark %s survey changed: review, then regenerate with -update", st.name())
			}
			assert.Zero(t, bad, "verified rewrites that could not be checked on Spark %s", st.name())
		})
	}
}
