package translate

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/pycase"
	"github.com/udfx/udfx/harness/pyenv"
)

// TestWhitespaceSetsMatchTheRuntimes: the characters the trim rules
// remove are, code point for code point over all of Unicode, what the
// real runtimes remove: Character.isWhitespace (String.strip) and
// c <= ' ' (String.trim) from the JVM, str.isspace (str.strip) from the
// CPython that runs the originals. A JDK or CPython whose Unicode tables
// differ fails here before any rewrite relies on the set.
func TestWhitespaceSetsMatchTheRuntimes(t *testing.T) {
	var pySet []rune
	cpythonJSON(t, "[c for c in range(0x110000) if chr(c).isspace()]", &pySet)
	require.Equal(t, pySet, codePoints(pyWhitespace), "str.isspace")
	// float() and int() strip less: ASCII by Py_ISSPACE, which leaves
	// out U+001C..U+001F, the rest as Unicode whitespace.
	var numSet []rune
	cpythonJSON(t, `(lambda g: (exec("def ok(s):\n try: return float(s) == 4.0 and int(s) == 4\n except ValueError: return False", g), [c for c in range(0x110000) if g["ok"](chr(c) + "4" + chr(c))])[1])({})`, &numSet)
	require.Equal(t, numSet, codePoints(pyNumberWhitespace), "the whitespace float() and int() strip")

	dir := t.TempDir()
	src := filepath.Join(dir, "Ws.java")
	require.NoError(t, os.WriteFile(src, []byte(`public class Ws {
  public static void main(String[] a) {
    StringBuilder ws = new StringBuilder("["), trim = new StringBuilder("[");
    for (int c = 0; c <= Character.MAX_CODE_POINT; c++) {
      // strip() removes leading and trailing Character.isWhitespace;
      // trim() every char <= U+0020: ask the methods themselves.
      String s = new String(Character.toChars(c));
      if ((s + "a").strip().equals("a")) ws.append(ws.length() > 1 ? "," : "").append(c);
      if ((s + "a").trim().equals("a")) trim.append(trim.length() > 1 ? "," : "").append(c);
    }
    System.out.println(ws.append("]") + "\n" + trim.append("]"));
  }
}
`), 0o644))
	out, err := exec.Command("java", src).Output()
	require.NoError(t, err)
	var javaWS, javaTrim []rune
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	require.Len(t, lines, 2, "%s", out)
	require.NoError(t, json.Unmarshal([]byte(lines[0]), &javaWS))
	require.NoError(t, json.Unmarshal([]byte(lines[1]), &javaTrim))
	require.Equal(t, javaWS, codePoints(javaWhitespace), "String.strip")
	require.Equal(t, javaTrim, codePoints(javaTrimChars), "String.trim")
}

func codePoints(s string) []rune {
	out := []rune(s)
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// TestPythonDecimalDigitsMatchCPython: the digits float() reads beyond
// ASCII are, over all of Unicode, CPython's decimal digits, each mapped
// to its value.
func TestPythonDecimalDigitsMatchCPython(t *testing.T) {
	var unicode string
	cpythonJSON(t, "unicodedata.unidata_version", &unicode)
	require.Equal(t, pycase.Unicode(), unicode, "the digits are read as the CPython of package pycase's tables reads them")
	var want [][2]int
	cpythonJSON(t, "[[c, unicodedata.decimal(chr(c))] for c in range(0x80, 0x110000) if unicodedata.decimal(chr(c), None) is not None]", &want)
	from, to := []rune(pyDigitsFrom), []rune(pyDigitsTo)
	require.Len(t, to, len(from))
	got := make([][2]int, len(from))
	for i := range from {
		got[i] = [2]int{int(from[i]), int(to[i] - '0')}
	}
	require.Equal(t, want, got)
}

// TestPythonDigitClassesMatchCPython: over all of Unicode, the classes
// of str.isdigit() and str.isdecimal() are CPython's.
func TestPythonDigitClassesMatchCPython(t *testing.T) {
	expand := func(ranges [][2]rune) []int {
		var out []int
		for _, r := range ranges {
			for c := r[0]; c <= r[1]; c++ {
				out = append(out, int(c))
			}
		}
		sort.Ints(out)
		return out
	}
	for method, ranges := range map[string][][2]rune{"isdigit": pyDigitRanges(), "isdecimal": pyDecimalDigitRanges()} {
		var want []int
		cpythonJSON(t, "[c for c in range(0x110000) if chr(c)."+method+"()]", &want)
		require.Equal(t, want, expand(ranges), "str.%s()", method)
	}
}

// cpythonJSON evaluates a Python expression in the CPython that runs the
// originals and decodes its JSON into v.
func cpythonJSON(t *testing.T, expr string, v any) {
	t.Helper()
	py, ok := pyenv.Find(nil, ".")
	require.True(t, ok, "no Python environment (udfx setup)")
	out, err := exec.Command(py.Python, "-c", "import json, sys, unicodedata; json.dump("+expr+", sys.stdout)").Output()
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(out, v))
}
