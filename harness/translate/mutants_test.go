package translate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/difftest"
	"github.com/udfx/udfx/harness/engine"
	"github.com/udfx/udfx/harness/runner/runners"
	"github.com/udfx/udfx/harness/spark"
	"github.com/udfx/udfx/harness/testsetup"
	"github.com/udfx/udfx/harness/translate/corpus"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/udf/frontends"
)

// The mutation test (issue 26): how strong is udfx's differential test?
// Each verified rewrite of a sample of the corpus, and of a few
// literal-heavy UDFs in testdata/mutants, is mutated as a model's near
// miss would be (an operator swapped, a literal edited, a guard dropped,
// a function swapped). udfx's test, as rewrite runs it (10,000 rows, the
// near misses of both sides' literals), must refute every mutant that
// real Apache Spark shows to differ from the original. A mutant udfx's
// test passes is run on Spark with other inputs (another seed, twice the
// rows): if Spark sees no difference it is counted equivalent, if it does
// the mutant escaped and the test fails. A sample of the refuted mutants
// is run on Spark too, to show the refutations are Spark's.

const (
	mutantRows      = 10_000
	mutantSparkRows = 20_000
	// mutantEvery samples the corpus's verified cases: every n-th one,
	// which keeps each language and category in the sample and the run
	// within a few minutes.
	mutantEvery = 5
	// confirmEvery samples the refuted mutants checked on Spark.
	confirmEvery = 10
)

// mutant is one edit of a proved rewrite.
type mutant struct {
	u        *udf.UDF
	operator string
	sql      string
}

func TestMutantsOfVerifiedRewrites(t *testing.T) {
	entries, err := corpus.Load(corpusDir, func(c corpus.Case) bool { return c.Expect == "verified" })
	require.NoError(t, err)
	var seeds []seed
	for i, e := range entries {
		if i%mutantEvery == 0 {
			seeds = append(seeds, seed{e.UDF, e.Source.Src})
		}
	}
	seeds = append(seeds, mutantSeeds(t)...)

	var mutants []mutant
	for _, sd := range seeds {
		u := sd.u
		res, err := Translate(u, sd.src)
		require.NoError(t, err, "%s", u.Name)
		require.Empty(t, res.Declines, "%s is a verified case", u.Name)
		for _, m := range mutate(res.SQL) {
			if m.sql == res.SQL || compiles(u, m.sql) != nil {
				continue // not a rewrite a model could get past the engine
			}
			mutants = append(mutants, mutant{u: u, operator: m.operator, sql: m.sql})
		}
	}
	require.NotEmpty(t, mutants)

	// udfx's test, as rewrite runs it on a candidate.
	start := time.Now()
	refuted := make([]bool, len(mutants))
	errs := make([]error, len(mutants))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for i, m := range mutants {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			rep, err := difftest.Run(context.Background(), m.u, difftest.Rewrite{SQL: m.sql}, difftest.Options{
				Seed: 1, Rows: mutantRows, ANSI: true, NewRunner: runners.New, NearMisses: true})
			errs[i] = err
			refuted[i] = err == nil && !rep.Equal
		}()
	}
	wg.Wait()
	t.Logf("udfx's test ran %d mutants of %d rewrites in %.0fs", len(mutants), len(seeds), time.Since(start).Seconds())

	// Real Spark on the survivors and on a sample of the refuted.
	var onSpark []int
	nRefuted := 0
	for i := range mutants {
		require.NoError(t, errs[i], "%s %s: %s", mutants[i].u.Name, mutants[i].operator, mutants[i].sql)
		if !refuted[i] {
			onSpark = append(onSpark, i)
			continue
		}
		if nRefuted%confirmEvery == 0 {
			onSpark = append(onSpark, i)
		}
		nRefuted++
	}
	s := mutantSpark(t, mutants, onSpark)
	equivalent, escaped, confirmed, sampled := 0, 0, 0, 0
	verdicts := make([]string, len(mutants))
	for i := range mutants {
		if refuted[i] {
			verdicts[i] = "refuted"
		}
	}
	for _, i := range onSpark {
		m := mutants[i]
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		rep, err := difftest.Run(ctx, m.u, difftest.Rewrite{SQL: m.sql}, difftest.Options{
			Seed: 2, Rows: mutantSparkRows, ANSI: true, Spark: s, NewRunner: runners.New,
			NearMisses: true, LeaveOutThrowingRows: true})
		cancel()
		require.NoError(t, err, "%s %s on Spark: %s", m.u.Name, m.operator, m.sql)
		differs := !rep.Equal
		switch {
		case refuted[i]:
			sampled++
			if differs {
				confirmed++
				verdicts[i] = "refuted, Spark differs too"
			} else {
				verdicts[i] = "refuted, Spark agrees on its rows (the original throws on the others)"
				t.Logf("refuted by udfx's test, not by Spark on its rows: %s %s: %s", m.u.Name, m.operator, m.sql)
			}
		case differs:
			escaped++
			verdicts[i] = "ESCAPED"
			t.Errorf("escaped: %s %s: %s passes udfx's test but differs in real Spark: %s", m.u.Name, m.operator, m.sql, describeCounterexample(rep))
		default:
			equivalent++
			verdicts[i] = "equivalent"
		}
	}
	score := fmt.Sprintf("mutation score: %d mutants of %d proved rewrites: %d refuted by udfx's test, %d equivalent (real Spark %s agrees on %d rows and the near misses), %d escaped; Spark confirmed %d of %d sampled refutations",
		len(mutants), len(seeds), nRefuted, equivalent, s.Info().SparkVersion, mutantSparkRows, escaped, confirmed, sampled)
	t.Log(score)
	// The outcome of each mutant is reviewed like the corpus's report:
	// a change (a mutant newly equivalent, a score that dropped) shows
	// in the golden file's diff. .ci/run prints its last line.
	var b strings.Builder
	b.WriteString("Mutants of proved rewrites (operator and function swaps, literal edits,\n" +
		"dropped guards) and what udfx's test and real Spark make of them.\n\n")
	for i, m := range mutants {
		fmt.Fprintf(&b, "%-8s %-22s %-24s %s\n    %s\n", m.u.Language, m.u.Name, m.operator, verdicts[i], m.sql)
	}
	b.WriteString("\n" + score + "\n")
	corpus.CheckGolden(t, filepath.Join("testdata", "mutants", "mutants.golden"), b.String(), *update)
	assert.Zero(t, escaped)
	assert.Greater(t, nRefuted, 3*len(mutants)/4, "most mutants are refuted")

	// The near miss is among them, and refuted.
	found := false
	for i, m := range mutants {
		if m.u.Name == "is_temp" && m.operator == "literal one shorter" && strings.Contains(m.sql, "startswith(`table_name`, 'tmp')") {
			found = true
			assert.True(t, refuted[i], "startswith(table_name, 'tmp') is refuted")
		}
	}
	assert.True(t, found, "the issue's mutant startswith(table_name, 'tmp') is generated")
}

func describeCounterexample(rep *difftest.Report) string {
	if ce := rep.Counterexample; ce != nil {
		return fmt.Sprintf("%v → original %s, rewrite %s", ce.Inputs, ce.Original, ce.Rewrite)
	}
	return fmt.Sprintf("%d mismatches", rep.Mismatches)
}

// seed is a UDF whose proved rewrite is mutated, with its file's source.
type seed struct {
	u   *udf.UDF
	src []byte
}

// mutantSeeds are the UDFs of testdata/mutants: literal-heavy forms real
// code has, whose near misses a random input never holds.
func mutantSeeds(t *testing.T) []seed {
	t.Helper()
	path := filepath.Join("testdata", "mutants", "literals.py")
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	fe := frontends.New(udf.Python)
	defer fe.Close()
	us, err := fe.Parse(path, src)
	require.NoError(t, err)
	abs, err := filepath.Abs(path)
	require.NoError(t, err)
	var out []seed
	for i := range us {
		us[i].File = abs
		out = append(out, seed{&us[i], src})
	}
	require.NotEmpty(t, out)
	return out
}

// mutantSpark starts the Spark session the mutants at idx run in, with
// the JVM originals among them compiled onto its class path.
func mutantSpark(t *testing.T, mutants []mutant, idx []int) *spark.Session {
	t.Helper()
	root, err := testsetup.RepoRoot()
	require.NoError(t, err)
	var jvm []*udf.UDF
	seen := map[*udf.UDF]bool{}
	for _, i := range idx {
		u := mutants[i].u
		if (u.Language == udf.Scala || u.Language == udf.Java) && !seen[u] {
			seen[u] = true
			jvm = append(jvm, u)
		}
	}
	ctx := context.Background()
	jars, err := spark.CompileUDFs(ctx, jvm, spark.Config{Dir: root})
	require.NoError(t, err)
	var onPath []string
	for _, j := range jars {
		if j != "" {
			onPath = append(onPath, j)
		}
	}
	s, err := spark.Start(ctx, spark.Config{ANSI: true, Dir: root, Jars: onPath})
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s
}

// compiles reports whether the engine accepts sql over u's parameters.
func compiles(u *udf.UDF, sql string) error {
	cols := make([]engine.Column, len(u.Params))
	for i, p := range u.Params {
		cols[i] = engine.Column{Name: p.Name, Type: p.Type}
	}
	_, err := engine.Compile(sql, cols, engine.Options{ANSI: true})
	return err
}

type edit struct{ operator, sql string }

// swaps are the operator and function swaps, each tried at its first
// place in the code (outside literals and quoted names).
var swaps = []struct{ operator, from, to string }{
	{"+ to -", " + ", " - "}, {"- to +", " - ", " + "}, {"* to /", " * ", " / "}, {"/ to *", " / ", " * "},
	{"< to <=", " < ", " <= "}, {"<= to <", " <= ", " < "}, {"> to >=", " > ", " >= "}, {">= to >", " >= ", " > "},
	{"= to <>", " = ", " <> "}, {"AND to OR", " AND ", " OR "}, {"OR to AND", " OR ", " AND "},
	{"upper to lower", "upper(", "lower("}, {"lower to upper", "lower(", "upper("},
	{"ltrim to rtrim", "ltrim(", "rtrim("}, {"trim to ltrim", "trim(", "ltrim("},
	{"floor to ceil", "floor(", "ceil("}, {"ceil to floor", "ceil(", "floor("},
	{"least to greatest", "least(", "greatest("}, {"greatest to least", "greatest(", "least("},
	{"startswith to endswith", "startswith(", "endswith("}, {"endswith to startswith", "endswith(", "startswith("},
	{"round to bround", "round(", "bround("}, {"IS NULL to IS NOT NULL", " IS NULL", " IS NOT NULL"},
}

var (
	numberLit = regexp.MustCompile(`\b\d+(\.\d+)?([DLSYF]|BD)?\b`)
	guarded   = regexp.MustCompile(`^CASE WHEN \(.*?\) THEN .*? ELSE (.*) END$`)
)

// mutate returns the mutants of sql.
func mutate(sql string) []edit {
	code := codeMask(sql)
	var out []edit
	for _, s := range swaps {
		if i := indexInCode(sql, code, s.from); i >= 0 {
			out = append(out, edit{s.operator, sql[:i] + s.to + sql[i+len(s.from):]})
		}
	}
	// The first number one more; the first string literal one character
	// shorter, and one longer.
	for _, m := range numberLit.FindAllStringSubmatchIndex(sql, -1) {
		if !code[m[0]] || (m[0] > 0 && (isIdent(sql[m[0]-1]) || sql[m[0]-1] == '.')) {
			continue
		}
		digits := sql[m[0]:m[1]]
		if m[4] >= 0 {
			digits = sql[m[0]:m[4]]
		}
		whole, frac, _ := strings.Cut(digits, ".")
		n, err := strconv.Atoi(whole)
		if err != nil {
			continue
		}
		bumped := strconv.Itoa(n + 1)
		if frac != "" {
			bumped += "." + frac
		}
		out = append(out, edit{"number + 1", sql[:m[0]] + bumped + sql[m[0]+len(digits):]})
		break
	}
	if from, to, ok := firstStringLiteral(sql); ok {
		lit := sql[from+1 : to-1]
		if lit != "" {
			out = append(out, edit{"literal one shorter", sql[:from+1] + lit[:len(lit)-1] + sql[to-1:]})
		}
		out = append(out, edit{"literal one longer", sql[:to-1] + "_" + sql[to-1:]})
	}
	if m := guarded.FindStringSubmatch(sql); m != nil {
		out = append(out, edit{"guard dropped", m[1]})
	}
	return out
}

func isIdent(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// codeMask marks the bytes of sql outside string literals and
// `quoted names`.
func codeMask(sql string) []bool {
	mask := make([]bool, len(sql))
	var quote byte
	for i := 0; i < len(sql); i++ {
		c := sql[i]
		switch {
		case quote == 0 && (c == '\'' || c == '"' || c == '`'):
			quote = c
		case quote != 0 && c == '\\' && quote != '`':
			i++
		case quote != 0 && c == quote:
			quote = 0
		case quote == 0:
			mask[i] = true
		}
	}
	return mask
}

func indexInCode(sql string, code []bool, sub string) int {
	for off := 0; ; {
		i := strings.Index(sql[off:], sub)
		if i < 0 {
			return -1
		}
		if code[off+i] && (sub[0] != ' ' || code[off+i+len(sub)-1] || sub[len(sub)-1] != ' ') {
			return off + i
		}
		off += i + 1
	}
}

// firstStringLiteral is the byte range of the first '...' literal, its
// quotes included.
func firstStringLiteral(sql string) (int, int, bool) {
	for i := 0; i < len(sql); i++ {
		switch sql[i] {
		case '`':
			j := strings.IndexByte(sql[i+1:], '`')
			if j < 0 {
				return 0, 0, false
			}
			i += j + 1
		case '\'':
			for j := i + 1; j < len(sql); j++ {
				if sql[j] == '\\' {
					j++
					continue
				}
				if sql[j] == '\'' {
					return i, j + 1, true
				}
			}
			return 0, 0, false
		}
	}
	return 0, 0, false
}
