package translate

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/difftest"
	"github.com/udfx/udfx/harness/runner/runners"
	"github.com/udfx/udfx/harness/spark"
	"github.com/udfx/udfx/harness/testsetup"
	"github.com/udfx/udfx/harness/udf"
)

// sparkGolden is the full corpus run's check of every verified rewrite
// against real Apache Spark; the fast run only checks that it lists the
// verified cases of report.golden.
const sparkGolden = "spark-reference.golden"

// verifiedCase is a case the translator rewrote and the differential test
// verified, with the rewrite's SQL.
type verifiedCase struct {
	u   *udf.UDF
	sql string
}

// sparkOn is the Spark a reference runs on: Env picks its Python (nil:
// the repository's .venv, Spark 4.1), ANSI its mode.
type sparkOn struct {
	env  func(string) string
	ansi bool
	// survey: a disagreement is a finding about that Spark, reported in
	// the golden file, not a failure (the rules are proved for the
	// default Spark; a proof for another runs there at rewrite time).
	survey bool
	// oneByOne compares the rows the original throws on, each in a Spark
	// job of its own (difftest.Options.ProveThrowingRows), where the
	// default reference leaves them out: the surveys' findings must cover
	// the rows where a version's ANSI mode differs most.
	oneByOne bool
}

// defaultSpark is the reference of the default Spark: 4.1, ANSI on.
var defaultSpark = sparkOn{ansi: true}

func (o sparkOn) mode() string {
	if o.ansi {
		return "ANSI on"
	}
	return "ANSI off"
}

// sparkOutcome is one verified case checked against real Spark.
type sparkOutcome struct {
	verdict           string // agree, disagree or error
	compared, leftOut int
	detail            string
}

// sparkReference checks each verified rewrite against an independent
// reference: its original registered in real Apache Spark, as its source
// registers it (spark.udf.register of the Scala Function1 or Java UDFn
// class, the Python @udf imported from its file), not run in udfx's own
// runners. difftest runs both sides as queries of one Spark session over
// the rows of the case's differential test, ANSI on, and requires the
// rewrite's plan to have lost the UDF node and its column type to be the
// original's. Spark stops a job at its first exception, so the rows on
// which the original throws in udfx's runner are left out and counted
// (difftest.Options.LeaveOutThrowingRows); a Spark job that fails on the
// other rows is a disagreement. One session runs every case: the JVM
// UDFs' jars are compiled before it starts (each source file once), so
// that no job restarts it. A disagreement always fails; a case that
// could not be checked fails when strict, and is otherwise only
// reported (the caller's golden file records it).
func sparkReference(t *testing.T, cases []verifiedCase, strict bool, on sparkOn) (report string, bad int) {
	t.Helper()
	root, err := testsetup.RepoRoot()
	require.NoError(t, err)
	ctx := context.Background()

	start := time.Now()
	var jvmUDFs []*udf.UDF
	for _, c := range cases {
		if c.u.Language == udf.Scala || c.u.Language == udf.Java {
			jvmUDFs = append(jvmUDFs, c.u)
		}
	}
	jars, err := spark.CompileUDFs(ctx, jvmUDFs, spark.Config{Dir: root, Env: on.env})
	var env *spark.EnvError
	require.False(t, errors.As(err, &env), "the corpus's Spark reference needs Spark %s (the repository's .venv, or SPARK_HOME): %v", spark.PinnedVersion, err)
	if err != nil {
		// Each case that did not compile fails below with its own error.
		t.Logf("compiling the JVM originals for Spark: %v", err)
	}
	var onPath []string
	for _, j := range jars {
		if j != "" {
			onPath = append(onPath, j)
		}
	}
	t.Logf("compiled %d JVM originals for Spark in %.0fs", len(onPath), time.Since(start).Seconds())

	start = time.Now()
	s, err := spark.Start(ctx, spark.Config{ANSI: on.ansi, Dir: root, Jars: onPath, Env: on.env})
	require.NoError(t, err, "starting Spark for the corpus's reference")
	defer s.Close()
	info := s.Info()
	t.Logf("Spark %s (%s, Java %s) started in %.0fs", info.SparkVersion, info.Master, info.JavaVersion, time.Since(start).Seconds())

	start = time.Now()
	outcomes := make([]sparkOutcome, len(cases))
	agree, disagree, failed, rejected, originals, leftOut := 0, 0, 0, 0, 0, 0
	for i, c := range cases {
		cctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
		rep, err := difftest.Run(cctx, c.u, difftest.Rewrite{SQL: c.sql}, difftest.Options{
			Seed: corpusSeed, Rows: corpusRows, ANSI: on.ansi, Spark: s,
			NewRunner: runners.New, LeaveOutThrowingRows: !on.oneByOne, ProveThrowingRows: on.oneByOne})
		cancel()
		o := &outcomes[i]
		var ue *difftest.UsageError
		var oe *difftest.OriginalError
		switch {
		case err != nil && on.survey && errors.As(err, &ue):
			// Spark's analysis refused the rewrite (a function this
			// version lacks): a finding of the survey.
			o.verdict, o.detail = "rejected", ue.Error()
			rejected++
		case err != nil && on.survey && errors.As(err, &oe):
			// The original fails in this Spark where udfx's runner,
			// which stores results as the default Spark does, returns
			// values: a finding too.
			o.verdict, o.detail = "original", oe.Error()
			originals++
		case err != nil:
			o.verdict, o.detail = "error", fmt.Sprintf("%v (rewrite %s)", err, c.sql)
			failed++
		case !rep.Equal:
			o.verdict = "disagree"
			o.detail = fmt.Sprintf("%d mismatches", rep.Mismatches)
			if rep.Refuted != "" {
				o.detail += "; " + rep.Refuted
			}
			if ce := rep.Counterexample; ce != nil {
				o.detail += fmt.Sprintf("; counterexample %v: original %s, rewrite %s", ce.Inputs, ce.Original, ce.Rewrite)
			}
			o.detail += " (rewrite " + c.sql + ")"
			disagree++
		default:
			o.verdict = "agree"
			agree++
		}
		if rep != nil {
			o.compared, o.leftOut = rep.Rows-rep.LeftOutRows, rep.LeftOutRows+rep.OneByOneRows
			leftOut += o.leftOut
		}
		if (o.verdict == "disagree" && !on.survey) || (strict && o.verdict == "error") {
			t.Errorf("%s %s: real Spark %s: %s", c.u.Language, c.u.Name, o.verdict, o.detail)
		}
	}
	t.Logf("%d cases checked on Spark in %.0fs (%d session restarts)", len(cases), time.Since(start).Seconds(), s.Restarts())

	var b strings.Builder
	thrown, thrownCol, thrownSum := "are left out", "left out", "rows left out where the original throws"
	if on.oneByOne {
		thrown, thrownCol, thrownSum = "are compared\none by one, each in a Spark job of its own", "1-by-1", "rows where the original throws compared one by one"
	}
	fmt.Fprintf(&b, "Each verified rewrite of report.golden against its original registered in\n"+
		"real Apache Spark %s (%s), not run in udfx's runners: both sides are\n"+
		"queries of one session, %s, over the rows of the case's differential\n"+
		"test (seed %d, %d rows). Spark stops a job at its first exception, so the\n"+
		"rows on which the original throws in udfx's runner %s.\n\n", info.SparkVersion, info.Master, on.mode(), corpusSeed, corpusRows, thrown)
	fmt.Fprintf(&b, "%-10s %-20s %-9s %8s %8s\n", "language", "udf", "spark", "compared", thrownCol)
	for i, c := range cases {
		o := outcomes[i]
		line := fmt.Sprintf("%-10s %-20s %-9s %8d %8d", c.u.Language, c.u.Name, o.verdict, o.compared, o.leftOut)
		if o.detail != "" {
			line += " " + o.detail
		}
		b.WriteString(line + "\n")
	}
	errs := ""
	if rejected > 0 {
		errs = fmt.Sprintf(", %d rejected by Spark's analysis", rejected)
	}
	if originals > 0 {
		errs += fmt.Sprintf(", %d whose original fails in this Spark where udfx's runner returns values", originals)
	}
	if failed > 0 {
		errs += fmt.Sprintf(", %d could not be checked", failed)
	}
	fmt.Fprintf(&b, "\nindependent reference (real Spark %s, %s): %d verified cases agree, %d disagree%s, %d %s\n",
		info.SparkVersion, on.mode(), agree, disagree, errs, leftOut, thrownSum)
	if !strict {
		failed = 0
	}
	if on.survey {
		disagree = 0
	}
	return b.String(), disagree + failed
}

// checkSparkReference runs the Spark reference in a full corpus run and
// compares it with (or, with -update, writes) dir's spark-reference.golden.
// strict: see sparkReference.
func checkSparkReference(t *testing.T, dir string, cases []verifiedCase, strict bool) {
	t.Helper()
	report, bad := sparkReference(t, cases, strict, defaultSpark)
	t.Log("\n" + report)
	golden := filepath.Join(dir, sparkGolden)
	if *update {
		require.NoError(t, os.WriteFile(golden, []byte(report), 0o644))
	} else {
		want, err := os.ReadFile(golden)
		require.NoError(t, err, "run go test -run %s -update ./harness/translate to create it", t.Name())
		assert.Equal(t, string(want), report, "the corpus's Spark reference changed: review, then regenerate with -update")
	}
	assert.Zero(t, bad, "verified rewrites that real Spark's original disagrees with, or that could not be checked on Spark")
}

// checkSparkReferenceCovers is the fast run's check of dir's
// spark-reference.golden: it lists exactly the cases verified now, each as
// agreeing with real Spark. (-update writes both golden files together,
// so a stale one means a hand edit or a reference never run.) Unless
// strict, a case the file records as not checked on Spark may stay so.
func checkSparkReferenceCovers(t *testing.T, dir string, cases []verifiedCase, strict bool) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, sparkGolden))
	require.NoError(t, err, "run the full corpus (task corpus, or -update) to create %s", sparkGolden)
	listed := referenceVerdicts(b)
	want := map[string]string{}
	for _, c := range cases {
		k := string(c.u.Language) + " " + c.u.Name
		want[k] = "agree"
		if !strict && listed[k] == "error" {
			want[k] = "error"
		}
	}
	assert.Equal(t, want, listed, "%s does not list the verified cases as agreeing with real Spark: run the full corpus (task corpus) and review", sparkGolden)
}

// referenceVerdicts reads a reference golden file's case lines: the
// verdict of each case, by "language name".
func referenceVerdicts(golden []byte) map[string]string {
	out := map[string]string{}
	for _, l := range strings.Split(string(golden), "\n") {
		f := strings.Fields(l)
		if len(f) >= 5 && (f[0] == string(udf.Scala) || f[0] == string(udf.Java) || f[0] == string(udf.Python)) {
			out[f[0]+" "+f[1]] = f[2]
		}
	}
	return out
}
