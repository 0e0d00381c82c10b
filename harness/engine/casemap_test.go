package engine

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"go/format"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"
)

var updateCaseMap = flag.Bool("update-casemap", false, "regenerate casemap_spark.go from real Spark")

// caseMapFile is the generated table of Spark's case mappings where they
// differ from Go's.
const caseMapFile = "casemap_spark.go"

// TestSparkCaseMappingsAreTheEnginesTable runs Spark's lower() and upper()
// on every Unicode code point (testdata/casemap/spark_casemap.py, about a
// minute) and checks that casemap_spark.go holds exactly the code points
// where they differ from Go's unicode.ToLower and ToUpper, with Spark's
// result: the engine's lower and upper are Spark's on every code point,
// and this test fails when the pinned Spark (its ICU) or Go (its Unicode
// tables) changes them. The same run probes every code point's class in
// Spark's final sigma rule (cased, case-ignorable or neither), which the
// file holds as two range tables, and checks the engine's lower and
// initcap against Spark's on seeded random strings of Σ and samples of
// each class. -update-casemap regenerates the file.
func TestSparkCaseMappingsAreTheEnginesTable(t *testing.T) {
	t.Parallel()
	py := livePython(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, py, filepath.Join("testdata", "casemap", "spark_casemap.py"))
	cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s spark_casemap.py: %v%s", py, err, stderrOf(err))
	}
	var spark struct {
		Spark   string                 `json:"spark"`
		Lower   map[string]string      `json:"lower"`
		Upper   map[string]string      `json:"upper"`
		Sigma   map[string]sigmaProbes `json:"sigma"`
		Strings [][3]string            `json:"strings"`
	}
	if err := json.Unmarshal(out, &spark); err != nil {
		t.Fatal(err)
	}
	cased, ignorable, err := sigmaClasses(spark.Sigma)
	if err != nil {
		t.Fatalf("Spark %s: %v", spark.Spark, err)
	}
	src := caseMapSource(spark.Spark, exceptions(spark.Lower, unicode.ToLower), exceptions(spark.Upper, unicode.ToUpper), cased, ignorable)
	if *updateCaseMap {
		if err := os.WriteFile(caseMapFile, src, 0o644); err != nil {
			t.Fatal(err)
		}
		// The strings below check the tables the test was compiled with:
		// run it again without the flag.
		t.Logf("final sigma: %d cased code points in %d ranges, %d case-ignorable in %d ranges", count(cased), len(cased), count(ignorable), len(ignorable))
		return
	}
	have, err := os.ReadFile(caseMapFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(have, src) {
		t.Fatalf("Spark %s's case mappings are no longer %s: review, then go test ./harness/engine -run %s -update-casemap", spark.Spark, caseMapFile, t.Name())
	}
	// The tables are Spark's; the scan over them is checked here on
	// strings, and in TestLiveConformance on generated inputs.
	finals, titled := 0, 0
	for _, c := range spark.Strings {
		if got := sparkLower(c[0]); got != c[1] {
			t.Errorf("lower(%+q) = %+q, Spark %+q", c[0], got, c[1])
		}
		if strings.ContainsRune(c[1], 'ς') {
			finals++
		}
		got, e := initcapRow([]any{c[0]})
		if e != nil {
			continue // refused: a title case the engine does not model
		}
		titled++
		if got != c[2] {
			t.Errorf("initcap(%+q) = %+q, Spark %+q", c[0], got, c[2])
		}
	}
	if len(spark.Strings) < 1000 || finals < 100 || titled < 1000 {
		t.Errorf("Spark's random strings: %d, %d of them with a final sigma, %d initcap not refused: too few to check the scan", len(spark.Strings), finals, titled)
	}
}

// sigmaProbes are the code points that one of spark_casemap.py's probes
// found cased, and cased or skipped as case-ignorable, as [lo, hi] ranges.
type sigmaProbes struct {
	Cased            [][2]rune `json:"cased"`
	CasedOrIgnorable [][2]rune `json:"cased_or_ignorable"`
}

// sigmaClasses are the cased and the case-ignorable code points of Spark's
// final sigma rule, as ranges, from its four probes: before and after a Σ,
// in lower and in initcap. One table serves all four only if they agree,
// so they must; a code point probed cased must also be passed over by the
// probe that finds case-ignorable ones, or the probes are not measuring
// the rule they assume.
func sigmaClasses(probes map[string]sigmaProbes) (cased, ignorable [][2]rune, err error) {
	want := []string{"lower_before", "lower_after", "initcap_before", "initcap_after"}
	if len(probes) != len(want) {
		return nil, nil, fmt.Errorf("final sigma probes %v, want %v", slices.Sorted(maps.Keys(probes)), want)
	}
	first := probes[want[0]]
	for _, k := range want {
		p, ok := probes[k]
		if !ok {
			return nil, nil, fmt.Errorf("no final sigma probe %s", k)
		}
		if !slices.Equal(p.Cased, first.Cased) || !slices.Equal(p.CasedOrIgnorable, first.CasedOrIgnorable) {
			return nil, nil, fmt.Errorf("final sigma: the classes probed by %s are not those probed by %s", k, want[0])
		}
	}
	in := func(rs [][2]rune, r rune) bool {
		i, found := slices.BinarySearchFunc(rs, r, func(x [2]rune, r rune) int { return cmp.Compare(x[1], r) })
		return found || i < len(rs) && rs[i][0] <= r
	}
	var ign []rune
	for _, rg := range first.CasedOrIgnorable {
		for r := rg[0]; r <= rg[1]; r++ {
			if !in(first.Cased, r) {
				ign = append(ign, r)
			}
		}
	}
	for _, rg := range first.Cased {
		for r := rg[0]; r <= rg[1]; r++ {
			if !in(first.CasedOrIgnorable, r) {
				return nil, nil, fmt.Errorf("final sigma: U+%04X probes cased but not cased or case-ignorable: the probes do not measure the rule they assume", r)
			}
		}
	}
	return first.Cased, toRanges(ign), nil
}

// toRanges are the sorted code points rs as [lo, hi] ranges.
func toRanges(rs []rune) [][2]rune {
	var out [][2]rune
	for _, r := range rs {
		if n := len(out); n > 0 && out[n-1][1] == r-1 {
			out[n-1][1] = r
			continue
		}
		out = append(out, [2]rune{r, r})
	}
	return out
}

// count is the number of code points in ranges.
func count(ranges [][2]rune) int {
	n := 0
	for _, rg := range ranges {
		n += int(rg[1]-rg[0]) + 1
	}
	return n
}

// exceptions are the code points whose Spark mapping (spark, only the
// ones that change; the others map to themselves) is not Go's simple one.
func exceptions(spark map[string]string, goMap func(rune) rune) map[rune]string {
	out := map[rune]string{}
	for cp := rune(0); cp <= unicode.MaxRune; cp++ {
		if cp >= 0xD800 && cp <= 0xDFFF {
			continue
		}
		want, ok := spark[strconv.Itoa(int(cp))]
		if !ok {
			want = string(cp)
		}
		if string(goMap(cp)) != want {
			out[cp] = want
		}
	}
	return out
}

func caseMapSource(version string, lower, upper map[rune]string, cased, ignorable [][2]rune) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by go test ./harness/engine -run TestSparkCaseMappingsAreTheEnginesTable -update-casemap; DO NOT EDIT.\n\n")
	fmt.Fprintf(&b, "package engine\n\nimport \"unicode\"\n\n")
	fmt.Fprintf(&b, "// caseMapSpark is the Spark version the tables were read from.\nconst caseMapSpark = %q\n\n", version)
	for _, m := range []struct {
		name, fn string
		m        map[rune]string
	}{{"sparkLowerExceptions", "lower", lower}, {"sparkUpperExceptions", "upper", upper}} {
		fmt.Fprintf(&b, "// %s are Spark's %s() of the code points where it is not Go's\n// unicode.To%s.\nvar %s = map[rune]string{\n", m.name, m.fn, map[string]string{"lower": "Lower", "upper": "Upper"}[m.fn], m.name)
		keys := make([]rune, 0, len(m.m))
		for k := range m.m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			fmt.Fprintf(&b, "\t0x%04X: %+q,\n", k, m.m[k])
		}
		b.WriteString("}\n\n")
	}
	writeRangeTable(&b, "sparkSigmaCased", "are the code points Spark's lower() and initcap() count as cased\n// letters in the final sigma rule (not case-ignorable ones, which are skipped)", cased)
	writeRangeTable(&b, "sparkSigmaIgnorable", "are the code points Spark's lower() and initcap() skip as\n// case-ignorable in the final sigma rule, whether cased or not", ignorable)
	out, err := format.Source(b.Bytes())
	if err != nil {
		panic(err)
	}
	return out
}

// writeRangeTable writes ranges as a unicode.RangeTable for unicode.Is.
func writeRangeTable(b *bytes.Buffer, name, doc string, ranges [][2]rune) {
	fmt.Fprintf(b, "// %s %s.\nvar %s = &unicode.RangeTable{\n", name, doc, name)
	var r16, r32 []string
	latin := 0
	for _, rg := range ranges {
		lo, hi := rg[0], rg[1]
		if lo <= 0xFFFF {
			h := min(hi, 0xFFFF)
			r16 = append(r16, fmt.Sprintf("{0x%04X, 0x%04X, 1},", lo, h))
			if h <= unicode.MaxLatin1 {
				latin++
			}
			lo = h + 1
		}
		if lo <= hi {
			r32 = append(r32, fmt.Sprintf("{0x%04X, 0x%04X, 1},", lo, hi))
		}
	}
	for _, t := range []struct {
		field string
		rows  []string
	}{{"R16: []unicode.Range16", r16}, {"R32: []unicode.Range32", r32}} {
		if len(t.rows) == 0 {
			continue
		}
		fmt.Fprintf(b, "\t%s{\n", t.field)
		for _, row := range t.rows {
			fmt.Fprintf(b, "\t\t%s\n", row)
		}
		b.WriteString("\t},\n")
	}
	fmt.Fprintf(b, "\tLatinOffset: %d,\n}\n\n", latin)
}

// TestFinalSigma checks lower(), initcap() and ILIKE around Σ against
// what Spark 4.1.1 printed for each (CPython's str.lower agrees on every
// lower but the Unicode 16 letter). initcap "" is a row the engine
// refuses for another character (İ, a letter newer than Go's tables).
func TestFinalSigma(t *testing.T) {
	quote := strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace
	for _, c := range []struct{ in, lower, initcap string }{
		{"Σ", "σ", "Σ"},
		{"ΑΣ", "ας", "Ας"},
		{"ΑΣΑ", "ασα", "Ασα"},
		{"ΣΑ", "σα", "Σα"},
		{"ΣΣ", "σς", "Σς"},
		{"ΑΣς", "ασς", "Ασς"},
		{"ΑΣ ΒΣ", "ας βς", "Ας Βς"},
		{"ὈΔΥΣΣΕΎΣ", "ὀδυσσεύς", "Ὀδυσσεύς"},
		// Case-ignorable characters are skipped both ways: the period and
		// colon and apostrophe (Word_Break MidNumLet, MidLetter), marks,
		// the soft hyphen and ZWJ (Cf).
		{"ΑΣ.", "ας.", "Ας."},
		{"Α.Σ", "α.ς", "Α.ς"},
		{"Σ.Σ", "σ.ς", "Σ.ς"},
		{"Α:Σ", "α:ς", "Α:ς"},
		{"Α'Σ", "α'ς", "Α'ς"},
		{"ΑΣ\u0301", "ας\u0301", "Ας\u0301"},
		{"ΑΣ\u0301Α", "ασ\u0301α", "Ασ\u0301α"},
		{"ΑΣ\u0301Σ", "ασ\u0301ς", "Ασ\u0301ς"},
		{"Σ\u0301", "σ\u0301", "Σ\u0301"},
		{"ΑΣ\u00ad", "ας\u00ad", "Ας\u00ad"},
		{"ΑΣ\u00adb", "ασ\u00adb", "Ασ\u00adb"},
		{"Α\u200dΣ", "α\u200dς", "Α\u200dς"},
		// Cased and case-ignorable at once counts as case-ignorable:
		// U+0345 (Mn, Other_Lowercase), ʰ (Lm, Other_Lowercase).
		{"A\u0345Σ", "a\u0345ς", "A\u0345ς"},
		{"\u0345Σ", "\u0345σ", "Ισ"},
		{"ΑΣ\u0345 Σ", "ας\u0345 σ", "Ας\u0345 Σ"},
		{"ʰΣ", "ʰσ", "ʰσ"},
		{"aʰΣ", "aʰς", "Aʰς"},
		{"ΑΣʰ", "αςʰ", "Αςʰ"},
		{"ΑΣʰa", "ασʰa", "Ασʰa"},
		// Neither: digits, space, hyphen-minus end the scan.
		{"1Σ", "1σ", "1σ"},
		{"ΑΣ1", "ας1", "Ας1"},
		{"ΑΣ 1", "ας 1", "Ας 1"},
		{"Α-Σ", "α-σ", "Α-σ"},
		{"Α ΣΣ", "α σς", "Α Σς"},
		// Cased without being a letter (So, Other_Uppercase); letters with
		// Spark's own lower case: the context is the original string.
		{"ⒶΣ", "ⓐς", "Ⓐς"},
		{"İΣ", "i\u0307ς", ""},
		{"ΑΣ\U00010D50", "ασ\U00010D70", ""},
	} {
		for f, want := range map[string]string{"lower": c.lower, "initcap": c.initcap} {
			if want == "" {
				continue
			}
			expr := fmt.Sprintf("%s('%s')", f, quote(c.in))
			if got := evalConst(t, expr, true); got != "string "+strconv.Quote(want) {
				t.Errorf("%s: got %s, want %q", expr, got, want)
			}
		}
	}
	// ILIKE lowercases its pattern too: 'ΑΣ%' is 'ας%', since % is no
	// letter, and no longer matches 'ασα'.
	checkConstCases(t, []sparkCase{
		{"'ΑΣ' ILIKE 'ας'", "boolean true", ""},
		{"'ΑΣΑ' ILIKE '%ς%'", "boolean false", ""},
		{"'ας' ILIKE 'ΑΣ'", "boolean true", ""},
		{"'ασ' ILIKE 'ΑΣ'", "boolean false", ""},
		{"'ασα' ILIKE 'ΑΣ%'", "boolean false", ""},
		{"'ας' ILIKE 'ΑΣ%'", "boolean true", ""},
		{"'ΑΣΑ' ILIKE 'ΑΣ_'", "boolean false", ""},
	})
}

// TestInitcapTitlesTheFirstCharacter checks, by Spark 4.1.1's results, that
// initcap title-cases a word's first character itself: capitals whose
// lower case titles to another character stay.
func TestInitcapTitlesTheFirstCharacter(t *testing.T) {
	checkConstCases(t, []sparkCase{
		{"initcap('\u212aA')", "string \"\u212aa\"", ""},
		{"initcap('a \u212a\u212a')", "string \"A \u212ak\"", ""},
		{"initcap('\u1c90\u1c91')", "string \"\u1c90\u10d1\"", ""},
		{"initcap('\u2126\u2126')", "string \"\u2126ω\"", ""},
		{"initcap('\u212b\u212b')", "string \"\u212bå\"", ""},
		{"initcap('ϴϴ')", "string \"ϴθ\"", ""},
		{"initcap('ẞẞ')", "string \"ẞß\"", ""},
		{"initcap('ǅǄ Ǆǅ')", "string \"ǅǆ ǅǆ\"", ""},
		{"initcap('Σ\u212a')", "string \"Σk\"", ""},
	})
}
