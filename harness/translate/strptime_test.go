package translate

import (
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// strptimeSamples are texts around what each tested format accepts:
// dates that exist and do not (29 February of 1900, 2000 and 2024, 31
// April, month 13, day 0, year 0), one- and two-digit fields, %d's
// space-padded " 5", Unicode digits (Arabic-Indic, fullwidth), seconds
// 60 and 61, hour 24, the letter T in other cases and the dotless ı,
// whitespace other than a space, text left over at either end; then
// seeded random assemblies of such parts.
func strptimeSamples() []string {
	xs := []string{"", "/", "//", "01/01/2020", "1/1/2020", "31/12/9999", "01/01/0001", "01/01/0000", "29/02/2000",
		"29/02/1900", "29/02/2024", "29/02/2023", "31/04/2021", "30/04/2021", "00/01/2020", "32/01/2020", "01/13/2020",
		"01/00/2020", " 5/01/2020", " 5/1/2020", "05/ 1/2020", "١٢/٠٣/٢٠٢٠", "12/03/２０２０", "1٣/03/2020", "01/01/2020 ",
		" 01/01/2020", "01/01/20201", "01/01/202", "1/1/20", "01-01-2020", "2020-01-31", "2020-02-30", "2020-1-5",
		"2020-01-31 23:59:59", "2020-01-31 23:59:60", "2020-01-31 23:59:61", "2020-01-31 24:00:00", "2020-01-31  1:2:3",
		"2020-01-31\t1:02:03", "2020-01-31\u30001:02:03", "2020-01-31\u00a01:02:03", "2020-01-31 1:02:3", "2020-01-31 01:02:03x",
		"2020-01-31T10:15", "2020-01-31t10:15", "2020-01-31ı10:15", "2020-01-31İ10:15", "2020-01-31T7:5", "2020-01-31T07:60",
		"02/29/00", "02/29/68", "02/29/69", "12/31/99", "1/1/68", "1/1/69", "13/01/20", "2/30/20", "٠١/٠١/٢٠", "1/1/2",
		"01/01/2020\n", "\n01/01/2020", "31/1/2020", "3/10/2020", "1/10/2020", "10/1/2020", "0/1/2020", "1/0/2020"}
	days := []string{"1", "01", "9", "09", "10", "19", "20", "29", "30", "31", "32", "0", "00", " 5", "3", "٣١", "1٠"}
	months := []string{"1", "01", "2", "02", "4", "9", "10", "11", "12", "13", "0", "00", "١٢", "２"}
	years := []string{"2020", "2000", "1900", "2024", "0001", "0000", "9999", "0999", "٢٠٢٠", "20", "00", "68", "69", "99", "202"}
	times := []string{"0", "00", "9", "23", "24", "59", "60", "61", "٥", "7"}
	r := rand.New(rand.NewSource(20261204))
	pick := func(p []string) string { return p[r.Intn(len(p))] }
	digits := "0123456789١٢"
	for i := 0; i < 600; i++ {
		// Runs of digits for the formats without separators: CPython
		// takes the first match, which may leave digits over.
		var b strings.Builder
		for n := 4 + r.Intn(6); n > 0; n-- {
			b.WriteRune([]rune(digits)[r.Intn(len([]rune(digits)))])
		}
		xs = append(xs, b.String())
	}
	xs = append(xs, "20200115", "2020115", "202011", "2020111", "2020011", "20201231", "20201301", "20200230", "2020 1 5",
		"01012020", "1112020", "010120", "0101202", "3112202", "311220", "29022000", "290220", "2902200")
	for i := 0; i < 1500; i++ {
		switch i % 4 {
		case 0:
			xs = append(xs, pick(days)+"/"+pick(months)+"/"+pick(years))
		case 1:
			xs = append(xs, pick(years)+"-"+pick(months)+"-"+pick(days)+pick([]string{" ", "  ", "\t", "\u2003"})+pick(times)+":"+pick(times)+":"+pick(times))
		case 2:
			xs = append(xs, pick(months)+"/"+pick(days)+"/"+pick(years))
		default:
			xs = append(xs, pick(years)+"-"+pick(months)+"-"+pick(days)+pick([]string{"T", "t", "ı", "İ", " "})+pick(times)+":"+pick(times))
		}
	}
	return xs
}

// TestStrptimeMatchesCPython proves datetime.strptime(raw, F).strftime(G)
// against CPython on the samples, on the embedded engine and on real
// Spark, for formats of each shape the rule takes.
func TestStrptimeMatchesCPython(t *testing.T) {
	var samples []map[string]any
	for _, s := range strptimeSamples() {
		samples = append(samples, map[string]any{"raw": s})
	}
	var srcs []string
	for i, f := range [][2]string{
		{"%d/%m/%Y", "%Y-%m-%d"},
		{"%Y-%m-%d %H:%M:%S", "%d.%m.%y %H%M%S"},
		{"%m/%d/%y", "%Y%m%d"},
		{"%Y-%m-%dT%H:%M", "%Y/%m/%d %H:%M %%"},
		{"%Y%m%d", "%Y-%m-%d"},
		{"%d%m20%y", "%d.%m.%Y"},
	} {
		srcs = append(srcs, fmt.Sprintf("from datetime import datetime\n\nfrom pyspark.sql.functions import udf\n\n\n@udf(\"string\")\n"+
			"def p%d(raw: str) -> str:\n    try:\n        return datetime.strptime(raw, %q).strftime(%q)\n    except (ValueError, TypeError):\n        return \"-\"\n", i, f[0], f[1]))
	}
	proveOnSamples(t, srcs, samples)
}

// TestStrptimeLettersMatchCPython: the characters a format's letter
// matches are, for every ASCII letter, the ones CPython's
// re.IGNORECASE matches with it.
func TestStrptimeLettersMatchCPython(t *testing.T) {
	var want map[string][]rune
	// Each letter is matched, ignoring case, only by characters that a
	// letter of either case matches: find those first.
	cpythonJSON(t, `(lambda re, cands: {L: [c for c in cands if re.fullmatch(L, chr(c), re.I)] for L in __import__("string").ascii_letters})`+
		`(__import__("re"), [c for c in range(0x110000) if __import__("re").fullmatch("[A-Za-z]", chr(c), __import__("re").I)])`, &want)
	require.Len(t, want, 52)
	for l, cps := range want {
		got := pyIgnoreCase(l[0])
		sort.Slice(got, func(i, j int) bool { return got[i] < got[j] })
		require.Equal(t, cps, got, "letter %s", l)
	}
}
