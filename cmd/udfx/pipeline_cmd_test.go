package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/evidence"
)

// wordcountRepo is tempRepo with the word count example added.
func wordcountRepo(t *testing.T, src string) string {
	t.Helper()
	dir := tempRepo(t)
	p := filepath.Join(dir, "examples", "python-wordcount", "wordcount.py")
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(src), 0o644))
	git(t, dir, "add", ".")
	git(t, dir, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "wordcount")
	return dir
}

func exampleWordcount(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "examples", "python-wordcount", "wordcount.py"))
	require.NoError(t, err)
	return string(b)
}

// TestRewriteWordCountAsDataFrame rewrites the RDD word count by the name
// scan gives its chain, applies it, and verifies it on Spark; then a record
// and file that both claim other DataFrame code are refused, since verify
// derives the code from the chain itself.
func TestRewriteWordCountAsDataFrame(t *testing.T) {
	dir := wordcountRepo(t, exampleWordcount(t))
	file := filepath.Join(dir, "examples", "python-wordcount", "wordcount.py")
	stdout, stderr, code := runCLI(t, dir, "rewrite", "examples/python-wordcount/wordcount.py:counts", "--apply")
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	assert.Contains(t, stdout, "counts (python rdd-pipeline, examples/python-wordcount/wordcount.py)")
	assert.Contains(t, stdout, "step           flatMap(split(' ')) -> explode(split(value, ' ', -1))")
	assert.Regexp(t, `result         verified: 10000 lines \(seed 1\): both collected the same \d+ results`, stdout)
	assert.Contains(t, stdout, "applied        3 files changed")
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	job := string(b)
	assert.Contains(t, job, `        spark.read.text(path)
        .selectExpr("explode(split(value, ' ', -1)) AS word")
        .groupBy("word")
        .count()
    )
    for word, count in counts.collect():`)
	assert.NotContains(t, job, "reduceByKey")
	out, err := exec.Command(filepath.Join(dir, ".venv", "bin", "python"), "-m", "py_compile", file).CombinedOutput()
	require.NoError(t, err, "the patched job compiles: %s", out)

	stdout, stderr, code = runCLI(t, dir, "verify", "--sandbox", "off")
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	assert.Regexp(t, `counts +dataframe +pass +udfx-rewrites/counts/rewrite.py +hashes match the record; the file holds the recorded rewrite in the chain's place; the rewrite is what udfx derives from the chain; re-run on Apache Spark 4.1.1 \(local\[2\]\): the same multisets for seeds 1, 104729`, stdout)

	// The decoy: the DataFrame code edited to split on commas
	// and, in an unused function, the verbatim chain, so that "the chain
	// is in the file (patch not applied)" passed. The record is untouched.
	recPath := filepath.Join(dir, "udfx-rewrites", "counts", evidence.FileName)
	rec, err := evidence.Read(recPath)
	require.NoError(t, err)
	edited := strings.Replace(rec.UseSites[0].New, "split(value, ' ', -1)", "split(value, ',', -1)", 1)
	decoy := strings.Replace(job, rec.UseSites[0].New, edited, 1) + "\n\ndef _unused(path):\n" +
		"    spark = SparkSession.builder.appName(\"wordcount\").getOrCreate()\n" +
		"    lines = spark.sparkContext.textFile(path)\n" +
		"    counts = " + rec.UseSites[0].Old + "\n    for word, count in counts.collect():\n        print(word, count)\n"
	require.NoError(t, os.WriteFile(file, []byte(decoy), 0o644))
	stdout, stderr, code = runCLI(t, dir, "verify", "--sandbox", "off")
	require.Equal(t, 1, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	assert.Contains(t, stdout, "stale-use-site")
	assert.Contains(t, stdout, "does not hold the rewrite of counts that --apply wrote")
	assert.NotContains(t, stdout, "patch not applied")
	require.NoError(t, os.WriteFile(file, []byte(job), 0o644))

	// A forged pair: the job splits on commas and the record says so.
	forged := strings.Replace(rec.UseSites[0].New, "split(value, ' ', -1)", "split(value, ',', -1)", 1)
	require.NoError(t, os.WriteFile(file, []byte(strings.Replace(job, rec.UseSites[0].New, forged, 1)), 0o644))
	rec.UseSites[0].New, rec.UseSites[0].NewSHA256 = forged, evidence.SHA256([]byte(forged))
	rb, err := json.MarshalIndent(rec, "", "  ")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(recPath, rb, 0o644))
	stdout, stderr, code = runCLI(t, dir, "verify", "--sandbox", "off")
	require.Equal(t, 1, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	assert.Contains(t, stdout, "stale-use-site")
	assert.Contains(t, stdout, "what udfx derives from the chain now")
}

// TestRewritePipelineDeclinesAStepWithItsLine: a chain with a step udfx
// has no exact rule for is declined before Spark starts, naming the step,
// and the repository is left as it was.
func TestRewritePipelineDeclinesAStepWithItsLine(t *testing.T) {
	src := strings.Replace(exampleWordcount(t), ".reduceByKey(add)", ".reduceByKey(add)\n        .sortByKey()", 1)
	dir := wordcountRepo(t, src)
	stdout, stderr, code := runCLI(t, dir, "rewrite", "examples/python-wordcount/wordcount.py:counts", "--apply")
	require.Equal(t, 1, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	assert.Contains(t, stdout, "declined       line 11: sortByKey on counts: no DataFrame rule in udfx for this step")
	assert.NotContains(t, stderr, "starting Spark")
	assert.Empty(t, strings.TrimSpace(git(t, dir, "status", "--porcelain")), "the repository is untouched")
}

// TestBenchTimesTheRDDJobAgainstItsRewrite: FILE alone names the chain
// (its lambdas are part of it), and bench times both Spark jobs.
func TestBenchTimesTheRDDJobAgainstItsRewrite(t *testing.T) {
	dir := wordcountRepo(t, exampleWordcount(t))
	stdout, stderr, code := runCLI(t, dir, "bench", "examples/python-wordcount/wordcount.py", "--engine", "spark", "--rows", "20000", "--runs", "1", "--warmup", "0", "--sandbox", "off", "--format", "json")
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	var res struct {
		UDF       string    `json:"udf"`
		Engine    string    `json:"engine"`
		Original  string    `json:"original"`
		OriginalS []float64 `json:"original_s"`
		RewriteS  []float64 `json:"rewrite_s"`
		Speedup   float64   `json:"speedup"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &res))
	assert.Equal(t, "counts", res.UDF)
	assert.Equal(t, "spark", res.Engine)
	assert.Contains(t, res.Original, "the RDD chain (flatMap, map, reduceByKey)")
	assert.Len(t, res.OriginalS, 1)
	assert.Len(t, res.RewriteS, 1)
	assert.Greater(t, res.Speedup, 0.0)
}
