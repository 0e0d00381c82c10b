package pipeline

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/spark"
	"github.com/udfx/udfx/harness/testsetup"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/udf/python"
)

// TestMain links udfx's Python environment, whose interpreter runs the
// translator and Spark, the first time on a fresh machine.
func TestMain(m *testing.M) { os.Exit(testsetup.Main(m)) }

func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := testsetup.RepoRoot()
	require.NoError(t, err)
	return root
}

func pythonBin(t *testing.T) string {
	return filepath.Join(repoRoot(t), ".venv", "bin", "python")
}

// chain finds the pipeline named name in src as the front-end does.
func chain(t *testing.T, path string, src []byte, name string) *udf.UDF {
	t.Helper()
	fe := python.New()
	defer fe.Close()
	udfs, err := fe.Parse(path, src)
	require.NoError(t, err)
	for i := range udfs {
		if udfs[i].Name == name && udfs[i].Kind == udf.KindRDDPipeline {
			return &udfs[i]
		}
	}
	t.Fatalf("%s: no rdd-pipeline %s", path, name)
	return nil
}

func translate(t *testing.T, src string) (*Translation, error) {
	t.Helper()
	u := chain(t, "job.py", []byte(src), "counts")
	return Translate(context.Background(), pythonBin(t), Request{Source: src, Path: "job.py", Name: u.Name, Line: u.Span.Start.Line, Record: "udfx-rewrites/counts/evidence.json"})
}

const jobHead = "from operator import add\nimport operator\nfrom pyspark.sql import SparkSession\n\n\ndef main(spark, path, sc):\n"

func TestTranslateRules(t *testing.T) {
	for _, c := range []struct {
		name, body, rewrite string
	}{
		{"split on a space", `    lines = spark.sparkContext.textFile(path)
    counts = lines.flatMap(lambda l: l.split(" ")).map(lambda w: (w, 1)).reduceByKey(add)
    return dict(counts.collect())
`, `__udfx_text__.selectExpr("explode(split(value, ' ', -1)) AS word").groupBy("word").count()`},
		{"split on white space, inline textFile, lambda add", `    counts = spark.sparkContext.textFile(path).flatMap(lambda l: l.split()).map(lambda w: (w, 1)).reduceByKey(lambda a, b: a + b)
    return counts.count()
`, "__udfx_text__.selectExpr(\"explode(split(value, '[\\t-\\r\\u001c- \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]+', -1)) AS word\").where(\"word != ''\").groupBy(\"word\").count()"},
		{"a regex character in the separator, a filter, operator.add", `    lines = sc.textFile(path)
    counts = lines.flatMap(lambda l: l.split("|")).filter(lambda w: w != "").map(lambda w: (w, 1)).reduceByKey(operator.add)
    for k, v in counts.collect():
        print(k, v)
`, `__udfx_text__.selectExpr("explode(split(value, '[|]', -1)) AS word").where("word != ''").groupBy("word").count()`},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr, err := translate(t, jobHead+c.body)
			require.NoError(t, err)
			assert.Equal(t, c.rewrite, tr.RewriteExpr)
			assert.True(t, strings.HasPrefix(tr.OriginalExpr, "(__udfx_rdd__"), tr.OriginalExpr)
		})
	}
}

// TestTranslateFindsTheSession: the new code reads the text with the
// session the job's textFile ran on where the function shows it is one
// (SparkSession.builder...getOrCreate() or a SparkSession annotation),
// else with the session SparkSession.builder.getOrCreate() returns (one
// SparkContext per JVM), and declines when it can do neither.
func TestTranslateFindsTheSession(t *testing.T) {
	chain := "    counts = s.sparkContext.textFile(path).flatMap(lambda l: l.split()).map(lambda w: (w, 1)).reduceByKey(add)\n    return counts.count()\n"
	for _, c := range []struct{ name, src, head string }{
		{"built here", jobHead + "    s = SparkSession.builder.appName(\"x\").getOrCreate()\n" + chain, "s.read.text(path)"},
		{"annotated", strings.Replace(jobHead, "def main(spark, path, sc)", "def main(s: SparkSession, path)", 1) + chain, "s.read.text(path)"},
		{"a parameter", strings.Replace(jobHead, "def main(spark, path, sc)", "def main(s, path)", 1) + chain, "SparkSession.builder.getOrCreate().read.text(path)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr, err := translate(t, c.src)
			require.NoError(t, err)
			assert.Contains(t, tr.New, "\n        "+c.head+"\n")
		})
	}
	src := "from operator import add\n\n\ndef main(s, path):\n" + chain
	_, err := translate(t, src)
	var de *DeclineError
	require.ErrorAs(t, err, &de)
	assert.Contains(t, de.Reason, "which udfx cannot show is a SparkSession's sparkContext")
}

func TestTranslateDeclines(t *testing.T) {
	for _, c := range []struct {
		name, body, reason string
	}{
		{"split with maxsplit", `    counts = spark.sparkContext.textFile(path).flatMap(lambda l: l.split(" ", 1)).map(lambda w: (w, 1)).reduceByKey(add)
    return counts.count()
`, "literal separator only"},
		{"a separator from a variable", `    sep = " "
    counts = spark.sparkContext.textFile(path).flatMap(lambda l: l.split(sep)).map(lambda w: (w, 1)).reduceByKey(add)
    return counts.count()
`, "literal separator only"},
		{"a backslash in the separator", `    counts = spark.sparkContext.textFile(path).flatMap(lambda l: l.split("\\")).map(lambda w: (w, 1)).reduceByKey(add)
    return counts.count()
`, "does not write into a Spark regex"},
		{"lower-casing", `    counts = spark.sparkContext.textFile(path).flatMap(lambda l: l.split()).map(lambda w: (w.lower(), 1)).reduceByKey(add)
    return counts.count()
`, "map(lambda w: (w.lower(), 1))"},
		{"a float one", `    counts = spark.sparkContext.textFile(path).flatMap(lambda l: l.split()).map(lambda w: (w, 1.0)).reduceByKey(add)
    return counts.count()
`, "map(lambda w: (w, 1.0))"},
		{"max, not add", `    counts = spark.sparkContext.textFile(path).flatMap(lambda l: l.split()).map(lambda w: (w, 1)).reduceByKey(max)
    return counts.count()
`, "reduceByKey(max)"},
		{"sorted afterwards", `    counts = spark.sparkContext.textFile(path).flatMap(lambda l: l.split()).map(lambda w: (w, 1)).reduceByKey(add).sortByKey()
    return counts.count()
`, "sortByKey on counts"},
		{"minPartitions", `    counts = spark.sparkContext.textFile(path, 4).flatMap(lambda l: l.split()).map(lambda w: (w, 1)).reduceByKey(add)
    return counts.count()
`, "minPartitions"},
		{"the path changes in between", `    lines = sc.textFile(path)
    path = "other"
    counts = lines.flatMap(lambda l: l.split()).map(lambda w: (w, 1)).reduceByKey(add)
    return counts.count()
`, "path changes between"},
		{"results used as tuples", `    counts = spark.sparkContext.textFile(path).flatMap(lambda l: l.split()).map(lambda w: (w, 1)).reduceByKey(add)
    return str(counts.collect())
`, "is used as `str(counts.collect())`"},
		{"add shadowed in the function", `    add = max
    counts = spark.sparkContext.textFile(path).flatMap(lambda l: l.split()).map(lambda w: (w, 1)).reduceByKey(add)
    return counts.count()
`, "reduceByKey(add)"},
		{"a path computed by a call", `    counts = spark.sparkContext.textFile(pick(path)).flatMap(lambda l: l.split()).map(lambda w: (w, 1)).reduceByKey(add)
    return counts.count()
`, "is evaluated again where the chain was"},
		{"read before the chain in a loop", `    counts = None
    for p in [path, path]:
        if counts is not None:
            print(counts.collect()[0])
        counts = spark.sparkContext.textFile(p).flatMap(lambda l: l.split()).map(lambda w: (w, 1)).reduceByKey(add)
    return counts.count()
`, "is used as `counts is not None`"},
		{"global", `    global counts
    counts = spark.sparkContext.textFile(path).flatMap(lambda l: l.split()).map(lambda w: (w, 1)).reduceByKey(add)
`, "is declared global"},
		{"results saved", `    counts = spark.sparkContext.textFile(path).flatMap(lambda l: l.split()).map(lambda w: (w, 1)).reduceByKey(add)
    counts.saveAsTextFile("out")
`, "saveAsTextFile"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := translate(t, jobHead+c.body)
			var de *DeclineError
			require.True(t, errors.As(err, &de), "want a decline, got %v", err)
			assert.Contains(t, de.Reason, c.reason)
			assert.Regexp(t, `^line \d+: `, de.Reason, "the decline names the line")
		})
	}
}

// TestWhitespaceClassIsCPythons checks the rewrite's class of white space
// against str.isspace() on every code point, in the interpreter itself.
func TestWhitespaceClassIsCPythons(t *testing.T) {
	tr, err := translate(t, jobHead+`    counts = spark.sparkContext.textFile(path).flatMap(lambda l: l.split()).map(lambda w: (w, 1)).reduceByKey(add)
    return counts.count()
`)
	require.NoError(t, err)
	script := `import json, re, sys
expr = sys.stdin.read()
sql = json.loads(re.search(r'selectExpr\(("(?:[^"\\]|\\.)*")\)', expr).group(1))
cls = re.search(r"split\(value, '(\[.*\]\+)', -1\)", sql, re.S).group(1)
rx = re.compile(cls)
bad = [hex(c) for c in range(0x110000) if bool(rx.fullmatch(chr(c))) != chr(c).isspace()]
print(json.dumps(bad))
`
	out := runPython(t, script, tr.RewriteExpr)
	assert.Equal(t, "[]", strings.TrimSpace(out), "code points where the class and str.isspace() disagree")
}

// TestProveWordCount runs the example's chain and its rewrite on real
// Spark over the special lines; and a rewrite that splits on Java's \s,
// as a hand translation would, refuted on them.
func TestProveWordCount(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	root := repoRoot(t)
	file := filepath.Join(root, "examples", "python-wordcount", "wordcount.py")
	src, err := os.ReadFile(file)
	require.NoError(t, err)
	s, err := spark.Start(ctx, spark.Config{Dir: root, ANSI: true})
	require.NoError(t, err)
	defer s.Close()
	u := chain(t, "examples/python-wordcount/wordcount.py", src, "counts")
	p, err := prove(ctx, s, pythonBin(t), file, src, u, 2000, t.TempDir())
	require.NoError(t, err)
	assert.True(t, p.Equal(), p.Describe())
	assert.Greater(t, p.Result.Distinct, 100)

	// The same job splitting with no argument, against \s+ and no filter.
	ws := strings.Replace(string(src), `line.split(" ")`, `line.split()`, 1)
	wsFile := filepath.Join(t.TempDir(), "wordcount_ws.py")
	require.NoError(t, os.WriteFile(wsFile, []byte(ws), 0o644))
	uw := chain(t, "wordcount_ws.py", []byte(ws), "counts")
	p, err = prove(ctx, s, pythonBin(t), wsFile, []byte(ws), uw, 2000, t.TempDir())
	require.NoError(t, err)
	assert.True(t, p.Equal(), p.Describe())
	wrong := `__udfx_text__.selectExpr("explode(split(value, '\\\\s+', -1)) AS word").groupBy("word").count()`
	res, err := s.PipelineTest(ctx, spark.PipelineJob{File: wsFile, OriginalExpr: p.Translation.OriginalExpr, RewriteExpr: wrong, Input: p.Input})
	require.NoError(t, err)
	assert.Greater(t, res.Differences, 0, "splitting on \\s differs from str.split() on the special lines")
}

// prove translates u, the chain in src (the module at file), as rewrite
// and verify do, and tests the translation over rows lines of seed 1.
func prove(ctx context.Context, s *spark.Session, python, file string, src []byte, u *udf.UDF, rows int, dir string) (*Proof, error) {
	tr, err := Translate(ctx, python, Request{Source: string(src), Path: u.File, Name: u.Name, Line: u.Span.Start.Line, Record: "udfx-rewrites/counts/evidence.json"})
	if err != nil {
		return nil, err
	}
	return Test(ctx, s, file, u.Name, tr, 1, rows, dir)
}

func runPython(t *testing.T, script, stdin string) string {
	t.Helper()
	cmd := exec.Command(pythonBin(t), "-I", "-c", script)
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, string(out))
	return string(out)
}
