package verify

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/udf"
)

// appliedCelsius is examples/python-celsius with its rewrite applied and
// recorded; proved is the inlined expression the record lists.
func appliedCelsius(t *testing.T) (h *hashRepo, applied, proved string) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", "examples", "python-celsius", "celsius.py"))
	require.NoError(t, err)
	h = newHashRepo(t, "jobs/celsius.py", udf.Python, "to_fahrenheit", string(src))
	h.record(t, exactSQL, true)
	rec, err := evidence.Read(h.recordPath)
	require.NoError(t, err)
	require.Len(t, rec.UseSites, 1)
	applied = h.read(t, h.file)
	require.Equal(t, Pass, h.verify(t).Status)
	return h, applied, rec.UseSites[0].New
}

// Issue 26, forgery 1: the use site edited and the proved text kept
// elsewhere in the file. Each copy of the proved text must be a recorded
// site in the code, and the line that held the site is found by its
// context.
func TestACopyOfTheProvedTextDoesNotStandInForTheSite(t *testing.T) {
	edited := func(applied, proved string) string {
		return strings.Replace(applied, proved, strings.Replace(proved, "+ 32.0D", "+ 33.0D", 1), 1)
	}
	cases := []struct {
		name string
		make func(applied, proved string) string
		want string
	}{
		{"in a comment", func(a, p string) string { return edited(a, p) + "# " + p + "\n" }, "outside the code, in a comment or a string"},
		{"in a docstring", func(a, p string) string {
			return edited(a, p) + "\n\ndef notes():\n    \"\"\"" + strings.ReplaceAll(p, `"`, `\"`) + "\"\"\"\n"
		}, "changed"},
		{"in a string", func(a, p string) string { return edited(a, p) + "\nNOTE = '" + p + "'\n" }, "outside the code, in a comment or a string"},
		{"in dead code with the site's line", func(a, p string) string {
			line := lineWith(a, p)
			return edited(a, p) + "\n\ndef _unused(readings):\n" + line + "\n"
		}, "the line that held the proved expression now runs"},
		{"in dead code, the site moved below it", func(a, p string) string {
			line := lineWith(a, p)
			return strings.Replace(edited(a, p), "def main(", "def _unused(readings):\n"+line+"\n\n\ndef main(", 1)
		}, "the line that held the proved expression now runs"},
		{"an extra call of the proved text", func(a, p string) string {
			return a + "\n\ndef again(readings):\n    return readings.select(" + p + ")\n"
		}, "the record lists 1 such sites"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h, applied, proved := appliedCelsius(t)
			h.write(t, h.file, c.make(applied, proved))
			it := h.verify(t)
			assert.Equal(t, StaleUseSite, it.Status, it.Detail)
			assert.Contains(t, it.Detail, c.want)
		})
	}

	// The record's span pointed at a copy in a comment: the copy is not
	// code, whatever the record says.
	h, applied, proved := appliedCelsius(t)
	h.write(t, h.file, edited(applied, proved)+"# "+proved+"\n")
	rec, err := evidence.Read(h.recordPath)
	require.NoError(t, err)
	n := strings.Count(h.read(t, h.file), "\n")
	rec.UseSites[0].Span = udf.Span{Start: udf.Position{Line: n, Column: 3}, End: udf.Position{Line: n, Column: 3 + len(proved)}}
	rec.UseSites[0].Before, rec.UseSites[0].After = "# ", ""
	require.NoError(t, evidence.Write(h.recordPath, rec))
	it := h.verify(t)
	assert.Equal(t, StaleUseSite, it.Status, it.Detail)
	assert.Contains(t, it.Detail, "outside the code")
}

// Moves that keep what runs pass: lines above the site, the site's
// function moved below another, and whitespace elsewhere.
func TestAMovedUseSitePasses(t *testing.T) {
	h, applied, proved := appliedCelsius(t)
	h.write(t, h.file, "# a header\n\n"+strings.Replace(applied, "def main(", "def other():\n    return 1\n\n\ndef main(", 1))
	it := h.verify(t)
	assert.Equal(t, Pass, it.Status, it.Detail)

	// The code after the site changed on its line: found by the code
	// before it.
	h.write(t, h.file, strings.Replace(applied, ".write.parquet(dst)", ".write.mode(\"overwrite\").parquet(dst)", 1))
	it = h.verify(t)
	assert.Equal(t, Pass, it.Status, it.Detail)

	// Both sides of its line changed and the site moved: udfx cannot tell
	// it from other code, so it is not the recorded site.
	line := lineWith(applied, proved)
	h.write(t, h.file, "# a header\n"+strings.Replace(applied, line, "    out = ("+strings.TrimSpace(line)+")", 1))
	it = h.verify(t)
	assert.Equal(t, StaleUseSite, it.Status, it.Detail)
	assert.Contains(t, it.Detail, "the inlined rewrite at jobs/celsius.py:17 changed")
}

// lineWith is the line of s holding sub.
func lineWith(s, sub string) string {
	i := strings.Index(s, sub)
	start := strings.LastIndex(s[:i], "\n") + 1
	end := strings.Index(s[i:], "\n")
	return s[start : i+end]
}

// The Scala SQL-string use site, edited, with the proved string kept in
// a comment or in dead code.
func TestScalaSQLStringSiteCopies(t *testing.T) {
	const sql = "CASE WHEN (`celsius` IS NULL) THEN CAST(NULL AS DOUBLE) ELSE (((`celsius` * 9.0D) / 5.0D) + 32.0D) END"
	for _, c := range []struct{ name, tail, want string }{
		{"comment", "// %s\n", "outside the code"},
		{"dead code", "object Unused {\n  def run(spark: SparkSession) = spark.sql(%s)\n}\n", "the line that held the proved expression now runs"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHashRepo(t, "src/Job.scala", udf.Scala, "ToF", scalaRegistered)
			h.record(t, sql, true)
			require.Equal(t, Pass, h.verify(t).Status)
			rec, err := evidence.Read(h.recordPath)
			require.NoError(t, err)
			require.Len(t, rec.UseSites, 1)
			proved := rec.UseSites[0].New
			require.Equal(t, udf.UseSQL, udf.UseKind(rec.UseSites[0].Kind))
			src := h.read(t, h.file)
			src = strings.Replace(src, proved, strings.Replace(proved, "+ 32.0D", "+ 33.0D", 1), 1)
			h.write(t, h.file, src+fmt.Sprintf(c.tail, proved))
			it := h.verify(t)
			assert.Equal(t, StaleUseSite, it.Status, it.Detail)
			assert.Contains(t, it.Detail, c.want)
		})
	}
}
