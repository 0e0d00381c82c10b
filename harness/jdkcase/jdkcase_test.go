package jdkcase

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/casemap/casemaptest"
	"github.com/udfx/udfx/harness/engine"
	"github.com/udfx/udfx/harness/pyenv"
	"github.com/udfx/udfx/harness/runner/jvm"
	"github.com/udfx/udfx/harness/testsetup"
	"github.com/udfx/udfx/harness/udf"
)

func TestMain(m *testing.M) { os.Exit(testsetup.Main(m)) }

var updateTables = flag.Bool("update-jdkcase", false, "regenerate tables.go from the JDK and Spark")

const tablesFile = "tables.go"

type diffs map[string]struct {
	Keeps bool `json:"keeps"`
}

type scriptOutput struct {
	JDK    string         `json:"jdk"`
	Locale string         `json:"locale"`
	Spark  string         `json:"spark"`
	Upper  diffs          `json:"upper"`
	Lower  diffs          `json:"lower"`
	Digits map[string]int `json:"digits"`
	// BreakLetter and BreakApart are the word iterator's own classes of
	// supplementary code points (finalsigma.go).
	BreakLetter []rune `json:"break_letter"`
	BreakApart  []rune `json:"break_apart"`
	// SigmaSamples are strings with Σ and the JDK's lower case of each.
	SigmaSamples [][2]string `json:"sigma_samples"`
	Checked      int         `json:"checked"`
	CheckedSigma int         `json:"checked_sigma"`
	Wrong        []struct {
		S, Fn, JDK, Spark string
	} `json:"wrong"`
}

// TestJDKCaseMappingTables compares the JDK with Spark over every code
// point (testdata/jdkcase.py, a minute or two): tables.go must hold
// exactly where they differ. The same run evaluates UpperSQL and LowerSQL
// in Spark against the JDK on strings around every differing code point
// and on random ones, ParseSQL against Integer.parseInt and
// Long.parseLong on numbers in every digit the JDK reads, and
// ParseDoubleSQL against Double.parseDouble on the syntax it reads and
// the spellings only Spark reads; and LowerSQL's final sigma against the
// JDK around every code point and on random strings of every class the
// word iterator knows. The JDK is the one Spark runs in; the test checks
// that it is the one udfx's JVM runner runs originals in.
// -update-jdkcase regenerates tables.go; review the difference first.
func TestJDKCaseMappingTables(t *testing.T) {
	t.Parallel()
	py, ok := pyenv.Find(nil, ".")
	require.True(t, ok, "no Python environment with pyspark (udfx setup, or UDFX_PYTHON)")
	tools, err := jvm.Toolchain(os.Getenv)
	require.NoError(t, err)
	sqls := casemaptest.Forms(t, *updateTables, LowerUpToSigmaSQL, UpperSQL)
	for suffix, x := range casemaptest.Inputs {
		sql, err := LowerSQL(x)
		require.True(t, err == nil || *updateTables, "%v", err)
		if err != nil {
			sql = "lower(" + x + ")"
		}
		sqls["lowerexact"+suffix] = sql
	}
	for suffix, x := range map[string]string{"": "`s`", "_bound": "concat(`s`, '')"} {
		sqls["parseInt"+suffix] = ParseSQL(x, "CAST(NULL AS INT)", false)
		sqls["parseLong"+suffix] = ParseSQL(x, "CAST(NULL AS BIGINT)", true)
		sqls["parseDouble"+suffix] = ParseDoubleSQL(x, "CAST(NULL AS DOUBLE)")
	}
	// Spark runs in the runner's JDK.
	var got scriptOutput
	casemaptest.Run(t, py.Python, filepath.Join("testdata", "jdkcase.py"), []string{"JAVA_HOME=" + tools.JavaHome}, sqls, &got)
	require.Equal(t, tools.JDKVersion, got.JDK, "Spark ran in another JDK than the runner's")
	require.Equal(t, Locale, got.Locale)

	src := tablesSource(got)
	if *updateTables {
		require.NoError(t, os.WriteFile(tablesFile, src, 0o644))
		return
	}
	have, err := os.ReadFile(tablesFile)
	require.NoError(t, err)
	require.True(t, bytes.Equal(have, src), "JDK %s and Spark %s no longer differ as %s says: review, then go test ./harness/jdkcase -run %s -update-jdkcase",
		got.JDK, got.Spark, tablesFile, t.Name())
	require.Greater(t, got.Checked, 3000)
	require.Greater(t, got.CheckedSigma, 1000000)
	for _, w := range got.Wrong {
		t.Errorf("%s(%+q): the JDK gives %+q, the SQL in Spark %+q", w.Fn, w.S, w.JDK, w.Spark)
	}
	require.Greater(t, len(got.SigmaSamples), 4000)
	engineLowers(t, got.SigmaSamples)
}

// engineLowers evaluates LowerSQL in the embedded engine, which rewrites
// are first tested in, on strings whose lower case the JDK gave.
func engineLowers(t *testing.T, samples [][2]string) {
	t.Helper()
	sql, err := LowerSQL("`s`")
	require.NoError(t, err)
	expr, err := engine.Compile(sql, []engine.Column{{Name: "s", Type: &udf.Type{Kind: udf.String}}}, engine.Options{ANSI: true, TimeZone: "UTC"})
	require.NoError(t, err)
	mem := memory.NewGoAllocator()
	sb := array.NewStringBuilder(mem)
	for _, s := range samples {
		sb.Append(s[0])
	}
	col := sb.NewArray()
	defer col.Release()
	rec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "s", Type: arrow.BinaryTypes.String}}, nil), []arrow.Array{col}, int64(len(samples)))
	defer rec.Release()
	res, err := expr.Eval(rec, mem)
	require.NoError(t, err)
	require.Empty(t, res.Errors)
	have := res.Values.(*array.String)
	for i, s := range samples {
		if have.Value(i) != s[1] {
			t.Errorf("LowerSQL(%+q) in the embedded engine: %+q, the JDK %+q", s[0], have.Value(i), s[1])
		}
	}
}

// TestSQLKeepsOnlyTheTablesCodePoints checks the forms' shape without
// Spark: a table's code points are kept, and a column is not rebound.
func TestSQLKeepsOnlyTheTablesCodePoints(t *testing.T) {
	up, err := UpperSQL("`s`")
	require.NoError(t, err)
	low, err := LowerUpToSigmaSQL("concat(`s`, '')")
	require.NoError(t, err)
	exact, err := LowerSQL("`s`")
	require.NoError(t, err)
	// An ASCII string, and one with no Σ and no kept code point, is
	// Spark's lower outside any lambda.
	require.True(t, strings.HasPrefix(exact, "CASE WHEN octet_length(`s`) = char_length(`s`) OR (instr(`s`, 'Σ') = 0 AND NOT (`s` RLIKE '["), exact)
	require.Contains(t, exact, "ELSE element_at(transform(array(CASE WHEN instr(`s`, 'Σ') = 0 THEN `s` ELSE ")
	if len(upperDiffs) > 0 {
		require.Contains(t, up, fmt.Sprintf(`\\x{%X}`, upperDiffs[0].Lo))
		require.True(t, strings.HasPrefix(up, "CASE WHEN octet_length(`s`) = char_length(`s`) OR NOT (`s` RLIKE"), up)
	}
	if len(lowerDiffs) > 0 {
		// A short expression is written out, not bound.
		require.True(t, strings.HasPrefix(low, "CASE WHEN octet_length(concat(`s`, '')) = char_length(concat(`s`, '')) OR NOT (concat(`s`, '') RLIKE"), low)
		require.Contains(t, low, "ELSE element_at(transform(array(concat(`s`, '')), udfx_s -> array_join(")
	}
	require.Equal(t, strconv.Itoa(tableJDKMajor), JDK())
}

// tablesSource renders tables.go from the script's comparison.
func tablesSource(o scriptOutput) []byte {
	var b bytes.Buffer
	b.WriteString("// Code generated by go test ./harness/jdkcase -run TestJDKCaseMappingTables -update-jdkcase; DO NOT EDIT.\n\n")
	b.WriteString("package jdkcase\n\nimport \"github.com/udfx/udfx/harness/casemap\"\n\n")
	fmt.Fprintf(&b, "// The tables compare JDK %s's String.toUpperCase() and toLowerCase() in\n// the locale %s with Spark %s's upper() and lower().\nconst (\n\ttableJDK = %q\n\ttableJDKMajor = %d\n\ttableSpark = %q\n)\n\n",
		o.JDK, o.Locale, o.Spark, o.JDK, jvm.JavaMajor(o.JDK), o.Spark)
	for _, t := range []struct {
		name, doc string
		d         diffs
	}{{"upperDiffs", "upper", o.Upper}, {"lowerDiffs", "lower", o.Lower}} {
		cps := casemaptest.SortedKeys(t.d)
		fmt.Fprintf(&b, "// %s are the code points whose %s case differs.\nvar %s = []Diff{\n", t.name, t.doc, t.name)
		for i := 0; i < len(cps); {
			keeps := t.d[strconv.Itoa(int(cps[i]))].Keeps
			j := i
			for j+1 < len(cps) && cps[j+1] == cps[j]+1 && t.d[strconv.Itoa(int(cps[j+1]))].Keeps == keeps {
				j++
			}
			fmt.Fprintf(&b, "\t{Lo: 0x%04X, Hi: 0x%04X, Keeps: %t},\n", cps[i], cps[j], keeps)
			i = j + 1
		}
		b.WriteString("}\n\n")
	}
	for _, r := range []struct {
		name, doc string
		cps       []rune
	}{
		{"breakLetterRuns", "are supplementary code points the word iterator takes\n// for letters though Character.getType has them unassigned.", o.BreakLetter},
		{"breakApartRuns", "are supplementary code points the word iterator keeps\n// apart though Character.getType has them letters, digits, marks or\n// format characters.", o.BreakApart},
	} {
		fmt.Fprintf(&b, "// %s %s\nvar %s = []casemap.Run{\n", r.name, r.doc, r.name)
		for i := 0; i < len(r.cps); {
			j := i
			for j+1 < len(r.cps) && r.cps[j+1] == r.cps[j]+1 {
				j++
			}
			fmt.Fprintf(&b, "\t{Lo: 0x%04X, Hi: 0x%04X},\n", r.cps[i], r.cps[j])
			i = j + 1
		}
		b.WriteString("}\n\n")
	}
	cps := casemaptest.SortedKeys(o.Digits)
	b.WriteString("// digitRuns are the chars beyond ASCII that Integer.parseInt reads as digits.\nvar digitRuns = []DigitRun{\n")
	for i := 0; i < len(cps); {
		first := o.Digits[strconv.Itoa(int(cps[i]))]
		j := i
		for j+1 < len(cps) && cps[j+1] == cps[j]+1 && o.Digits[strconv.Itoa(int(cps[j+1]))] == first+(j+1-i) {
			j++
		}
		fmt.Fprintf(&b, "\t{Lo: 0x%04X, Hi: 0x%04X, First: %d},\n", cps[i], cps[j], first)
		i = j + 1
	}
	b.WriteString("}\n")
	src, err := format.Source(bytes.TrimRight(b.Bytes(), "\n"))
	if err != nil {
		panic(err)
	}
	return src
}
