package verify

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/config"
	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/udf/frontends"
	"github.com/udfx/udfx/harness/value"
	"github.com/udfx/udfx/internal/patch"
)

// The reproductions of issue 11: records that claim more than they
// proved, and code that runs something other than what was proved.

// wrongSQL is off by one degree: no comparison policy short of a huge
// tolerance accepts it.
const wrongSQL = "celsius * 9.0D / 5.0D + 33.0D"

// forge rewrites the SQL file and updates its hash in the record, keeping
// "verified", then lets edit change the record further.
func (r *repo) forge(t *testing.T, sql string, edit func(*evidence.Record)) {
	t.Helper()
	r.writeSQL(t, sql)
	b, err := os.ReadFile(r.sqlPath)
	require.NoError(t, err)
	rec, err := evidence.Read(r.recordPath)
	require.NoError(t, err)
	rec.Rewrites[0].SHA256 = evidence.SHA256(b)
	rec.Result, rec.Mismatches = evidence.Verified, 0
	edit(rec)
	require.NoError(t, evidence.Write(r.recordPath, rec))
}

func (r *repo) config(t *testing.T, yaml string) {
	t.Helper()
	r.write(t, filepath.Join(r.dir, config.File), yaml)
}

func TestForgedToleranceIsAnUndeclaredRelaxation(t *testing.T) {
	r := newRepo(t)
	r.forge(t, wrongSQL, func(rec *evidence.Record) { rec.Policy = value.Policy{Abs: 1e9} })
	for _, skip := range []bool{true, false} {
		it := only(t, r.verify(t, skip))
		assert.Equal(t, UndeclaredRelaxation, it.Status, it.Detail)
		assert.Contains(t, it.Detail, "the record claims an absolute tolerance of 1e+09, which udfx.yaml does not grant to to_fahrenheit")
		assert.False(t, it.Rerun)
		assert.Equal(t, Location{File: "udfx-rewrites/to_fahrenheit/evidence.json", Line: 1}, it.Location)
	}

	// Without the claim the re-run, bit-exact, finds the counterexample.
	r.forge(t, wrongSQL, func(rec *evidence.Record) { rec.Policy = value.Policy{} })
	it := only(t, r.verify(t, false))
	assert.Equal(t, Mismatch, it.Status, it.Detail)
	assert.Contains(t, it.Detail, "(seed 7; bit-exact, ANSI on, errors compared;")
}

// A relaxation the repository declares is honoured, and every output
// shows it.
func TestDeclaredRelaxationIsHonouredAndShown(t *testing.T) {
	r := newRepo(t)
	r.forge(t, wrongSQL, func(rec *evidence.Record) { rec.Policy = value.Policy{Abs: 1e9} })
	r.config(t, "version: 1\nrelaxations:\n  - udf: to_fahrenheit\n    abs: 1e9\n    reason: the dashboard rounds to whole degrees\n")
	res := r.verify(t, false)
	it := only(t, res)
	require.Equal(t, Pass, it.Status, it.Detail)
	want := "within absolute 1e+09 (udfx.yaml:3: the dashboard rounds to whole degrees)"
	assert.Equal(t, []string{want}, it.Relaxations)
	assert.Contains(t, it.Detail, "within absolute 1e+09, ANSI on, errors compared")

	var b bytes.Buffer
	require.NoError(t, res.WriteTable(&b))
	assert.Contains(t, b.String(), "relaxations in force (granted by udfx.yaml):\n  to_fahrenheit: "+want+"\n")
	b.Reset()
	require.NoError(t, res.WriteMarkdown(&b))
	assert.Contains(t, b.String(), "- to_fahrenheit: "+want+"\n")
	b.Reset()
	require.NoError(t, res.WriteJSON(&b, "x"))
	var doc struct {
		Items []struct{ Relaxations []string }
	}
	require.NoError(t, json.Unmarshal(b.Bytes(), &doc))
	assert.Equal(t, []string{want}, doc.Items[0].Relaxations)
	b.Reset()
	require.NoError(t, res.WriteSARIF(&b, "x"))
	assert.Contains(t, b.String(), `"ruleId": "relaxation"`)
	assert.Contains(t, b.String(), "to_fahrenheit is verified with a relaxation: "+want)
	rs := res.RelaxationsInForce()
	require.Len(t, rs, 1)
	assert.Equal(t, Location{File: "udfx.yaml", Line: 3}, rs[0].Location, "the note points at the entry")
	b.Reset()
	require.NoError(t, res.WriteJUnit(&b))
	var junit struct {
		Suites []struct {
			Cases []struct {
				Properties []struct {
					Name  string `xml:"name,attr"`
					Value string `xml:"value,attr"`
				} `xml:"properties>property"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	require.NoError(t, xml.Unmarshal(b.Bytes(), &junit), b.String())
	require.Len(t, junit.Suites[0].Cases[0].Properties, 1)
	assert.Equal(t, want, junit.Suites[0].Cases[0].Properties[0].Value)

	// An entry for another UDF, or another file, grants nothing here.
	r.config(t, "relaxations:\n  - udf: to_fahrenheit\n    file: jobs/other.py\n    abs: 1e9\n    reason: r\n")
	assert.Equal(t, UndeclaredRelaxation, only(t, r.verify(t, true)).Status)
}

func TestForgedRowsAndULP(t *testing.T) {
	r := newRepo(t)
	// 1.8 for 9/5 is off by an ulp on some inputs.
	r.forge(t, "celsius * 1.8D + 32.0D", func(rec *evidence.Record) {
		rec.Rows = 1
		rec.Policy = value.Policy{ULP: 2}
		h, err := InputsHash(parseOne(t, r.source, udf.Python, "to_fahrenheit"), rec.Seed, 1)
		require.NoError(t, err)
		rec.InputsSHA256 = h
	})
	it := only(t, r.verify(t, false))
	assert.Equal(t, UndeclaredRelaxation, it.Status, it.Detail)
	assert.Contains(t, it.Detail, "a tolerance of 2 ulp")

	// A consistent forgery of the rows alone: the inputs hash is made to
	// match one row, and the re-run still tests DefaultRows rows.
	r.forge(t, "celsius * 1.8D + 32.0D", func(rec *evidence.Record) {
		rec.Rows, rec.Policy = 1, value.Policy{}
		u := parseOne(t, r.source, udf.Python, "to_fahrenheit")
		h, err := InputsHash(u, rec.Seed, 1)
		require.NoError(t, err)
		rec.InputsSHA256 = h
	})
	it = only(t, r.verify(t, false))
	assert.Equal(t, Mismatch, it.Status, it.Detail)
	assert.Contains(t, it.Detail, "rows (seed 7; bit-exact, ANSI on, errors compared; 10000 rows for each of seeds 7, 1, 104729, each with ")

	// Rows changed without the inputs hash: the record does not
	// regenerate.
	r.forge(t, exactSQL, func(rec *evidence.Record) { rec.Rows = 5000 })
	it = only(t, r.verify(t, true))
	assert.Equal(t, InconsistentRecord, it.Status)
	assert.Contains(t, it.Detail, "the inputs that seed 7 and 5000 rows generate for to_fahrenheit hash to ")
}

func TestRecordWithoutTheNewHashesIsStale(t *testing.T) {
	r := newRepo(t)
	r.forge(t, exactSQL, func(rec *evidence.Record) { rec.Original.SignatureSHA256 = "" })
	it := only(t, r.verify(t, true))
	assert.Equal(t, StaleUDF, it.Status)
	assert.Contains(t, it.Detail, "has no signature hash")
}

func parseOne(t *testing.T, path string, lang udf.Language, name string) *udf.UDF {
	t.Helper()
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	fe := frontends.New(lang)
	defer fe.Close()
	us, err := fe.Parse("x", src)
	require.NoError(t, err)
	for i := range us {
		if us[i].Name == name {
			return &us[i]
		}
	}
	t.Fatalf("%s defines no %s", path, name)
	return nil
}

// hashRepo is a repository with one UDF and a verified record made from
// its current files, as udfx rewrite makes one (hashes of the applied
// files), for checks that need no re-run.
type hashRepo struct {
	dir, file, sqlPath, recordPath string
	lang                           udf.Language
	name                           string
}

func newHashRepo(t *testing.T, file string, lang udf.Language, name, source string) *hashRepo {
	t.Helper()
	dir := t.TempDir()
	h := &hashRepo{dir: dir, file: file, lang: lang, name: name,
		sqlPath:    filepath.Join(dir, evidence.Dir, name, "rewrite.sql"),
		recordPath: filepath.Join(dir, evidence.Dir, name, evidence.FileName)}
	require.NoError(t, os.Mkdir(filepath.Join(dir, ".git"), 0o755))
	h.write(t, file, source)
	return h
}

func (h *hashRepo) write(t *testing.T, rel, content string) {
	t.Helper()
	p := filepath.Join(h.dir, filepath.FromSlash(rel))
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
}

func (h *hashRepo) read(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(h.dir, filepath.FromSlash(rel)))
	require.NoError(t, err)
	return string(b)
}

// record proves nothing: it hashes the files as they are. With apply,
// the use sites are first rewritten to sql, as --apply does.
func (h *hashRepo) record(t *testing.T, sql string, apply bool) {
	t.Helper()
	src := []byte(h.read(t, h.file))
	u := parseOne(t, filepath.Join(h.dir, h.file), h.lang, h.name)
	u.File = h.file
	var uses []evidence.UseSite
	if apply {
		newSrc, edits, err := patch.RewriteUseSites(u, src, sql)
		require.NoError(t, err)
		uses = patch.RecordUseSites(h.file, newSrc, edits)
		require.NotEmpty(t, uses)
		h.write(t, h.file, string(newSrc))
		src = newSrc
		u = parseOne(t, filepath.Join(h.dir, h.file), h.lang, h.name)
	}
	span, err := evidence.SpanText(src, u.Span)
	require.NoError(t, err)
	recRel := evidence.Dir + "/" + h.name + "/" + evidence.FileName
	sqlFile := evidence.MarkerLine(".sql", recRel) + "\n" + sql + "\n"
	h.write(t, evidence.Dir+"/"+h.name+"/rewrite.sql", sqlFile)
	inputsHash, err := InputsHash(u, 1, 100)
	require.NoError(t, err)
	require.NoError(t, evidence.Write(h.recordPath, &evidence.Record{
		SchemaVersion: evidence.SchemaVersion, Tool: "test",
		Original: evidence.Original{File: h.file, Name: h.name, Language: string(h.lang), SpanSHA256: evidence.SpanHash(span),
			SignatureSHA256: evidence.SignatureHash(u), DependsOn: evidence.Dependencies(u, src)},
		Rewrites:     []evidence.RewriteFile{{Target: "sql", Path: evidence.Dir + "/" + h.name + "/rewrite.sql", SHA256: evidence.SHA256([]byte(sqlFile))}},
		InputsSHA256: inputsHash, Seed: 1, Rows: 100, Engine: evidence.Engine{Name: "embedded", ANSI: true},
		Result: evidence.Verified, UseSites: uses,
	}))
}

func (h *hashRepo) verify(t *testing.T) Item {
	t.Helper()
	res, err := Run(context.Background(), Options{Root: h.dir, Display: ".", SkipRerun: true})
	require.NoError(t, err)
	return only(t, res)
}

func (h *hashRepo) edit(t *testing.T, old, new string) {
	t.Helper()
	src := h.read(t, h.file)
	require.Contains(t, src, old)
	h.write(t, h.file, strings.Replace(src, old, new, 1))
}

func TestEditedUseSiteAfterApply(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "examples", "python-celsius", "celsius.py"))
	require.NoError(t, err)
	h := newHashRepo(t, "jobs/celsius.py", udf.Python, "to_fahrenheit", string(src))
	h.record(t, exactSQL, true)
	applied := h.read(t, h.file)
	require.Contains(t, applied, "expr(\"CASE WHEN (`temperature` IS NULL)")
	it := h.verify(t)
	require.Equal(t, Pass, it.Status, it.Detail)

	// Lines added above move the site: it is still what was proved.
	h.write(t, h.file, "# moved\n\n"+applied)
	assert.Equal(t, Pass, h.verify(t).Status)

	// The inlined expression edited: what runs is not what was proved.
	h.write(t, h.file, applied)
	h.edit(t, "+ 32.0D) END\")", "+ 33.0D) END\")")
	it = h.verify(t)
	assert.Equal(t, StaleUseSite, it.Status, it.Detail)
	assert.Contains(t, it.Detail, "the inlined rewrite at jobs/celsius.py:17 changed")
	assert.Equal(t, Location{File: "jobs/celsius.py", Line: 17}, it.Location)

	// The record edited to match the inlined text: it no longer follows
	// from rewrite.sql.
	rec, err := evidence.Read(h.recordPath)
	require.NoError(t, err)
	rec.UseSites[0].New = strings.Replace(rec.UseSites[0].New, "+ 32.0D", "+ 33.0D", 1)
	rec.UseSites[0].NewSHA256 = evidence.SHA256([]byte(rec.UseSites[0].New))
	require.NoError(t, evidence.Write(h.recordPath, rec))
	it = h.verify(t)
	assert.Equal(t, StaleUseSite, it.Status, it.Detail)
	assert.Contains(t, it.Detail, "does not follow from the SQL rewrite")
}

// A Scala UDF1 registered with a return type outside its class: the
// front-end reads the class's types, so only the registration's hash
// sees the edit.
const scalaRegistered = `package x

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.types.DoubleType
import org.apache.spark.sql.api.java.UDF1

class ToF extends UDF1[java.lang.Double, java.lang.Double] {
  override def call(celsius: java.lang.Double): java.lang.Double = {
    if (celsius == null) null else celsius * 9.0 / 5.0 + 32.0
  }
}

object Job {
  def main(args: Array[String]): Unit = {
    val spark = SparkSession.builder().getOrCreate()
    spark.udf.register("to_f", new ToF(), DoubleType)
    spark.sql("SELECT to_f(t) FROM r")
  }
}
`

func TestEditedRegistrationReturnType(t *testing.T) {
	h := newHashRepo(t, "src/Job.scala", udf.Scala, "ToF", scalaRegistered)
	h.record(t, "CASE WHEN (`celsius` IS NULL) THEN CAST(NULL AS DOUBLE) ELSE (((`celsius` * 9.0D) / 5.0D) + 32.0D) END", false)
	require.Equal(t, Pass, h.verify(t).Status)
	h.edit(t, "new ToF(), DoubleType)", "new ToF(), FloatType)")
	it := h.verify(t)
	assert.Equal(t, StaleUDF, it.Status, it.Detail)
	assert.Contains(t, it.Detail, `registration spark.udf.register("to_f", new ToF(), FloatType) is not in the record`)
}

// A Python UDF made by udf(f, T): its span is the wrapping call, so the
// body, the helper and the constant it reads lie outside it.
const pythonWrapped = `from pyspark.sql.functions import col, udf
from pyspark.sql.types import DoubleType

OFFSET = 32.0


def scale(x):
    return x * 9.0 / 5.0


def convert(celsius: float) -> float:
    if celsius is None:
        return None
    return scale(celsius) + OFFSET


to_fahrenheit = udf(convert, DoubleType())


def main(df):
    df.withColumn("f", to_fahrenheit(col("t")))
`

func TestEditsOutsideTheSpanThatChangeTheMeaning(t *testing.T) {
	for _, c := range []struct{ name, old, new, want string }{
		{"body", "return scale(celsius) + OFFSET", "return scale(celsius) + OFFSET + 1", "body convert hashes differently"},
		{"constant", "OFFSET = 32.0", "OFFSET = 33.0", "name OFFSET hashes differently"},
		{"helper", "return x * 9.0 / 5.0", "return x * 9.0 / 5.5", "name scale hashes differently"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHashRepo(t, "jobs/wrapped.py", udf.Python, "convert", pythonWrapped)
			h.record(t, "`celsius` * 9.0D / 5.0D + 32.0D", false)
			require.Equal(t, Pass, h.verify(t).Status)
			h.edit(t, c.old, c.new)
			it := h.verify(t)
			assert.Equal(t, StaleUDF, it.Status, it.Detail)
			assert.Contains(t, it.Detail, c.want)
		})
	}
	// Unrelated edits do not make it stale: a new import name on the
	// same line, a new function, main changing.
	h := newHashRepo(t, "jobs/wrapped.py", udf.Python, "convert", pythonWrapped)
	h.record(t, "`celsius` * 9.0D / 5.0D + 32.0D", false)
	h.edit(t, "import col, udf", "import col, lit, udf")
	h.edit(t, `df.withColumn("f"`, `df.withColumn("fahrenheit"`)
	h.write(t, h.file, h.read(t, h.file)+"\n\ndef other():\n    return OFFSET\n")
	it := h.verify(t)
	assert.Equal(t, Pass, it.Status, it.Detail)
}

func TestTheGateStopsOnAConfigItCannotRead(t *testing.T) {
	r := newRepo(t)
	r.config(t, "relaxations:\n  - udf: to_fahrenheit\n    ulp: 2\n")
	_, err := Run(context.Background(), Options{Root: r.dir, Display: ".", SkipRerun: true})
	var ce *config.Error
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, "udfx.yaml:2: the relaxation of to_fahrenheit has no reason: say why the project accepts it", err.Error())
}

func TestDeclaredANSIOffAndErrorToNull(t *testing.T) {
	r := newRepo(t)
	r.forge(t, exactSQL, func(rec *evidence.Record) { rec.Engine.ANSI, rec.AllowErrorToNull = false, true })
	it := only(t, r.verify(t, true))
	assert.Equal(t, UndeclaredRelaxation, it.Status)
	assert.Contains(t, it.Detail, "the record claims NULL accepted where the original throws, ANSI off, which")

	r.config(t, "relaxations:\n  - udf: to_fahrenheit\n    file: jobs/celsius.py\n    ansi: false\n    allow_error_to_null: true\n    reason: the job runs with ANSI off\n")
	it = only(t, r.verify(t, false))
	require.Equal(t, Pass, it.Status, it.Detail)
	assert.Contains(t, it.Policy, "bit-exact, ANSI off, NULL accepted for errors")
	assert.Equal(t, []string{
		"NULL accepted where the original throws (udfx.yaml:2: the job runs with ANSI off)",
		"ANSI off (udfx.yaml:2: the job runs with ANSI off)",
	}, it.Relaxations)
}

// TestNestedConfigStopsTheGate: relaxations come only from the udfx.yaml
// at the repository root. A nested one beside records that it would
// relax (the forged tolerance passed under it before) is an error that
// names it, and the root's entries name files from the root.
func TestNestedConfigStopsTheGate(t *testing.T) {
	r := newRepo(t)
	r.forge(t, wrongSQL, func(rec *evidence.Record) { rec.Policy = value.Policy{Abs: 1e9} })
	grant := "version: 1\nrelaxations:\n  - udf: to_fahrenheit\n    abs: 1e9\n    reason: the dashboard rounds to whole degrees\n"
	for _, nested := range []string{"udfx-rewrites/udfx.yaml", "jobs/udfx.yaml", "udfx-rewrites/to_fahrenheit/udfx.yaml"} {
		r.write(t, filepath.Join(r.dir, filepath.FromSlash(nested)), grant)
		_, err := Run(context.Background(), Options{Root: r.dir, Display: ".", NewRunner: goRunners})
		var ce *config.Error
		require.ErrorAs(t, err, &ce, nested)
		assert.Equal(t, nested, ce.File)
		assert.Contains(t, err.Error(), "udfx reads relaxations only from the udfx.yaml at the repository root (udfx.yaml)")
		require.NoError(t, os.Remove(filepath.Join(r.dir, filepath.FromSlash(nested))))
	}

	// A record below the root (a project folder with its own
	// udfx-rewrites) is relaxed by the root's entry naming its file from
	// the root, and by no other.
	sub := filepath.Join(r.dir, "projects", "weather")
	require.NoError(t, os.MkdirAll(sub, 0o755))
	for _, d := range []string{"jobs", evidence.Dir} {
		require.NoError(t, os.Rename(filepath.Join(r.dir, d), filepath.Join(sub, d)))
	}
	r.config(t, "version: 1\nrelaxations:\n  - udf: to_fahrenheit\n    file: jobs/celsius.py\n    abs: 1e9\n    reason: r\n")
	assert.Equal(t, UndeclaredRelaxation, only(t, r.verify(t, true)).Status, "jobs/celsius.py is not the UDF's file seen from the root")
	r.config(t, "version: 1\nrelaxations:\n  - udf: to_fahrenheit\n    file: projects/weather/jobs/celsius.py\n    abs: 1e9\n    reason: r\n")
	it := only(t, r.verify(t, false))
	assert.Equal(t, Pass, it.Status, it.Detail)
	assert.Equal(t, []string{"within absolute 1e+09 (udfx.yaml:3: r)"}, it.Relaxations)
}

// TestCommentsSparkReadsOtherwiseFail: a rewrite.sql whose expression
// carries a comment that Spark reads differently from a simpler parser
// (nested block comments, a line comment ended by a lone \r) passed the
// embedded engine's re-run while Spark adds 1.0; it now fails, naming
// the comment.
func TestCommentsSparkReadsOtherwiseFail(t *testing.T) {
	for _, sql := range []string{
		exactSQL + " /* /* */ -- */ + 1.0D",
		exactSQL + " -- a note\r+ 1.0D",
		exactSQL + "\n-- a note\r+ 1.0D",
	} {
		r := newRepo(t)
		r.forge(t, sql, func(*evidence.Record) {})
		it := only(t, r.verify(t, false))
		assert.NotEqual(t, Pass, it.Status, "%q", sql)
		assert.Contains(t, it.Detail, "a rewrite expression holds no comments", "%q", sql)
	}
}

// TestEntriesVerifyCannotProveAreRefused: verify re-runs one rewrite per
// record. A second entry beside it (another sql file, a vectorized file
// beside the sql one, a second fast entry, a target udfx does not write)
// passed on its hash alone, whatever it held; now the record is refused.
func TestEntriesVerifyCannotProveAreRefused(t *testing.T) {
	wrong := "celsius * 9.0D / 5.0D + 33.0D\n"
	for _, c := range []struct {
		name string
		add  []evidence.RewriteFile
		want string
	}{
		{"a second sql file", []evidence.RewriteFile{{Target: "sql", Path: "udfx-rewrites/to_fahrenheit/rewrite2.sql"}},
			"the record lists 2 rewrites that verify proves (sql (udfx-rewrites/to_fahrenheit/rewrite.sql), sql (udfx-rewrites/to_fahrenheit/rewrite2.sql))"},
		{"vectorized beside sql", []evidence.RewriteFile{{Target: "vectorized-python", Path: "udfx-rewrites/to_fahrenheit/rewrite.py"}},
			"the record lists 2 rewrites that verify proves"},
		{"two fast entries", []evidence.RewriteFile{{Target: "vectorized-python-fast", Path: "udfx-rewrites/to_fahrenheit/a.py"}, {Target: "vectorized-python-fast", Path: "udfx-rewrites/to_fahrenheit/b.py"}},
			"the record lists 3 rewrites that verify proves"},
		{"an unknown target", []evidence.RewriteFile{{Target: "pandas", Path: "udfx-rewrites/to_fahrenheit/rewrite.py"}},
			`as a rewrite of target "pandas", which udfx does not write and verify cannot prove`},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newRepo(t)
			r.record(t, func(rec *evidence.Record) {
				for _, rw := range c.add {
					r.write(t, filepath.Join(r.dir, filepath.FromSlash(rw.Path)), wrong)
					rw.SHA256 = evidence.SHA256([]byte(wrong))
					rec.Rewrites = append(rec.Rewrites, rw)
				}
			})
			res := r.verify(t, false)
			require.Len(t, res.Items, 1+len(c.add))
			for _, it := range res.Items {
				assert.Equal(t, InconsistentRecord, it.Status, it.File)
				assert.Contains(t, it.Detail, c.want)
			}
		})
	}

	// A vectorized record with a columnar file: udfx renders those only
	// from a proved SQL rewrite.
	r := newRepo(t)
	r.record(t, func(rec *evidence.Record) {
		rec.Rewrites[0].Target = "vectorized-python"
		rec.Rewrites = append(rec.Rewrites, evidence.RewriteFile{Target: "columnar", Path: "udfx-rewrites/to_fahrenheit/columnar/X.java", SHA256: evidence.SHA256([]byte(wrong))})
		r.write(t, filepath.Join(r.dir, "udfx-rewrites/to_fahrenheit/columnar/X.java"), wrong)
	})
	for _, it := range r.verify(t, true).Items {
		assert.Equal(t, InconsistentRecord, it.Status, it.File)
		assert.Contains(t, it.Detail, "udfx renders columnar files only from a proved SQL rewrite")
	}
}
