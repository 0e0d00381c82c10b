package translate

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/runner/jvm"
	"github.com/udfx/udfx/harness/translate/corpus"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/internal/typeinfer"
)

// realCorpusDir is the real-shaped section of the corpus: UDFs written the
// way public Spark code writes them (jobs at module level, types in
// schemas, DDL strings, createDataFrame rows, casts, or nowhere), run
// zero-config as `udfx rewrite FILE:NAME` runs them, with no --types and
// no udfx comment.
const realCorpusDir = "testdata/corpus/real"

// realOutcomes are the report's outcome columns, in order.
var realOutcomes = []string{"verified", "declined", "untyped", "notfound", "refuted", "error"}

// TestRealShapedCorpus measures the reach of the whole zero-config path on
// the real-shaped section: the front-end finds the UDF as `udfx rewrite
// FILE:NAME` does (by name, registered name, or the function a lambda
// forwards to), typeinfer resolves its types from its file alone, the
// translator rewrites it, and the differential test proves the rewrite
// against the real original (corpusOutcome). A case must have its
// manifest outcome: verified, declined (with the construct of the first
// decline), untyped (with the first words of typeinfer's reason) or
// notfound; and the report (outcomes by language and category, per case,
// and the types each case was given and from where) must match
// report.golden (-update rewrites it, and spark-reference.golden). As in
// TestCorpus, a rewrite whose SQL the golden report records as verified
// is proved again only in a full run (-update, UDFX_CORPUS_PROVE_ALL=1,
// task corpus), which also checks every verified rewrite against its
// original in real Spark.
func TestRealShapedCorpus(t *testing.T) {
	cases, results := realShapedResults(t)

	// As TestCorpus: a rewrite the golden report records with the same
	// SQL is proved again only in a full run.
	full := *update || os.Getenv("UDFX_CORPUS_PROVE_ALL") == "1"
	proven := map[string]string{}
	if !full {
		proven = provenInGolden(t, realCorpusDir)
	}
	reproved := proveInFileOrder(len(results), func(i int) (string, *udf.UDF, []byte) {
		r := &results[i]
		if r.outcome != "" {
			return r.c.File, nil, nil
		}
		return r.c.File, r.u, r.src
	}, proven, func(i int, outcome, detail string, proved *udf.UDF) {
		results[i].outcome, results[i].detail, results[i].proved = outcome, detail, proved
	})
	t.Logf("%d of %d cases proved against their originals in this run; the others were not rewritten, or their SQL is what the golden report records as proved (UDFX_CORPUS_PROVE_ALL=1 proves all)", reproved, len(cases))

	type key struct{ lang, cat string }
	counts := map[key]map[string]int{}
	lines := make([]string, len(results))
	var types []string
	var verified []verifiedCase
	for i, r := range results {
		c := r.c
		lang := languageOf(c.File)
		k := key{lang, c.Category}
		if counts[k] == nil {
			counts[k] = map[string]int{}
		}
		counts[k][r.outcome]++
		lines[i] = fmt.Sprintf("%-10s %-24s %-18s %-9s %s", lang, c.Name, c.Category, r.outcome, r.detail)
		if r.u != nil {
			types = append(types, fmt.Sprintf("%-10s %-24s %s", lang, c.Name, strings.Join(typeinfer.Describe(r.u.TypeSources), "; ")))
		}
		if r.outcome == "verified" {
			verified = append(verified, verifiedCase{u: r.proved, sql: r.detail})
		}
		if !assert.Equal(t, c.Expect, r.outcome, "%s %s: %s", c.File, c.Name, r.detail) {
			continue
		}
		switch c.Expect {
		case "declined":
			assert.True(t, strings.HasPrefix(r.detail, c.Construct+":"), "%s %s: want the decline of %q, got %s", c.File, c.Name, c.Construct, r.detail)
		case "untyped", "notfound", "error":
			assert.True(t, strings.HasPrefix(r.detail, c.Construct), "%s %s: want the reason %q..., got %s", c.File, c.Name, c.Construct, r.detail)
		}
	}

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
	var b strings.Builder
	row := func(lang, cat string, m map[string]int) {
		fmt.Fprintf(&b, "%-10s %-18s", lang, cat)
		for _, o := range realOutcomes {
			fmt.Fprintf(&b, " %8d", m[o])
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "%-10s %-18s", "language", "category")
	for _, o := range realOutcomes {
		fmt.Fprintf(&b, " %8s", o)
	}
	b.WriteString("\n")
	total := map[string]int{}
	for _, k := range keys {
		row(k.lang, k.cat, counts[k])
		for o, n := range counts[k] {
			total[o] += n
		}
	}
	row("all", "", total)
	// Typed from the file: every type known before any is tried; the
	// others were proved (or not) per type.
	typed, perType := 0, 0
	for _, r := range results {
		switch {
		case r.u == nil:
		case typeinfer.Missing(r.u) == nil:
			typed++
		case r.outcome == "verified":
			perType++
		}
	}
	fmt.Fprintf(&b, "\n%d real-shaped cases, zero-config: %.0f%% verified (%d of them per type), %.0f%% typed from their file\n\n",
		len(cases), 100*float64(total["verified"])/float64(len(cases)), perType, 100*float64(typed)/float64(len(cases)))
	b.WriteString(strings.Join(lines, "\n") + "\n")
	b.WriteString("\nThe types each found case was given, and from where:\n\n" + strings.Join(types, "\n") + "\n")
	report := b.String()
	t.Log("\n" + report)

	// Strict: udfx's Spark engine registers every kind of UDF the
	// verified cases hold (Hive UDFs with CREATE TEMPORARY FUNCTION, UDFs
	// defined inside main from their lifted object), so a verified case
	// that real Spark cannot check fails, as a disagreement does.
	if full {
		checkSparkReference(t, realCorpusDir, verified, true)
	} else {
		checkSparkReferenceCovers(t, realCorpusDir, verified, true)
	}
	corpus.CheckGolden(t, filepath.Join(realCorpusDir, "report.golden"), report, *update)
	assert.Zero(t, total["refuted"], "a rewrite the translator emitted was refuted by the real original")
}

// realResult is one case of the real-shaped section: as found and typed
// zero-config, then as proved.
type realResult struct {
	c               corpus.Case
	u               *udf.UDF
	src             []byte
	outcome, detail string
	// proved is the UDF as the rewrite was proved: u, or the first
	// type's when it was proved per type.
	proved *udf.UDF
}

// realShapedResults finds and types each case of the real-shaped section
// as udfx rewrite FILE:NAME does; a case that stops before the translator
// has its outcome already.
func realShapedResults(t *testing.T) ([]corpus.Case, []realResult) {
	t.Helper()
	cases, err := corpus.Read(realCorpusDir)
	require.NoError(t, err)
	wd, err := os.Getwd()
	require.NoError(t, err)

	results := make([]realResult, len(cases))
	parsed := map[string]*corpus.Source{}
	parseErrs := map[string]string{}
	seen := map[string]bool{}
	for i, c := range cases {
		r := &results[i]
		r.c = c
		src, ok := parsed[c.File]
		if !ok {
			// A file the front-end cannot parse has no UDF for udfx
			// (scan skips it, rewrite refuses it): its cases are not found.
			var perr error
			if src, perr = corpus.Parse(realCorpusDir, c.File); perr != nil {
				_, statErr := os.Stat(filepath.Join(realCorpusDir, c.File))
				require.NoError(t, statErr)
				parseErrs[c.File] = perr.Error()
			}
			parsed[c.File] = src
		}
		if src == nil {
			r.outcome, r.detail = "notfound", "the front-end cannot parse the file: "+parseErrs[c.File]
			continue
		}
		r.src = src.Src
		r.u = udf.Lookup(src.UDFs, c.Name)
		if r.u == nil {
			var names []string
			for _, u := range src.UDFs {
				names = append(names, u.Name)
			}
			r.outcome, r.detail = "notfound", fmt.Sprintf("the front-end finds %d UDFs (%s)", len(names), strings.Join(names, ", "))
			continue
		}
		key := string(r.u.Language) + " " + c.Name
		require.False(t, seen[key], "%s: %s is in the manifest twice: names are unique per language (they key the golden reports)", c.File, key)
		seen[key] = true
		// The file's path is relative to the package folder, as a path
		// given to udfx is relative to its working directory.
		r.u.Root = wd
		// As udfx rewrite: a Scala UDF whose types only scalac knows is
		// typed from its compiled original.
		opts := typeinfer.Options{Compiled: jvm.MissingTypes(context.Background(), r.u, jvm.Options{})}
		if err := typeinfer.Resolve(r.u, r.src, opts); err != nil {
			r.outcome, r.detail = "error", err.Error()
			continue
		}
		// A parameter no source types is proved per type (corpusOutcome);
		// an unknown return type stops the UDF.
		var unknown *typeinfer.UnknownError
		if err := typeinfer.Missing(r.u); errors.As(err, &unknown) && r.u.Return == nil {
			r.outcome, r.detail = "untyped", unknown.Name+": "+unknown.Reason
		} else if err != nil && unknown == nil {
			r.outcome, r.detail = "error", err.Error()
		}
	}
	return cases, results
}

// languageOf is a case's language by its file's extension.
func languageOf(file string) string {
	return map[string]string{".scala": string(udf.Scala), ".java": string(udf.Java), ".py": string(udf.Python), ".ipynb": string(udf.Python)}[filepath.Ext(file)]
}

// TestRealShapedCorpusOnOtherSparks is TestCorpusOnOtherSparks for the
// real-shaped section: each case real/report.golden records as verified,
// found and typed zero-config as TestRealShapedCorpus does, translated in
// the form a proof for each other version uses and checked against its
// original in real Spark of that version (real/spark35-reference.golden
// and so on). The cases verified per type are listed, not surveyed.
func TestRealShapedCorpusOnOtherSparks(t *testing.T) {
	_, results := realShapedResults(t)
	proven := provenInGolden(t, realCorpusDir)
	var cases []surveyCase
	var perType []string
	for _, r := range results {
		if r.u == nil || r.outcome != "" {
			continue
		}
		name := languageOf(r.c.File) + " " + r.c.Name
		sql, ok := proven[name]
		if !ok {
			continue
		}
		if typeinfer.Missing(r.u) != nil {
			perType = append(perType, name)
			continue
		}
		res, err := Translate(r.u, r.src)
		require.NoError(t, err, name)
		require.NotNil(t, res.IR, "%s: report.golden records it verified, and the translator now declines it: %v", name, res.Declines)
		require.Equal(t, sql, res.SQL, "%s: the translation differs from the one report.golden records as verified: run the corpus (task corpus) first", name)
		cases = append(cases, surveyCase{u: r.u, res: res})
	}
	surveyVersions(t, realCorpusDir, cases, perType)
}
