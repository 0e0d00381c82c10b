package columnar

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

	"github.com/udfx/udfx/harness/mavenjar"
	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/runner/jvm"
	"github.com/udfx/udfx/harness/translate"
	"github.com/udfx/udfx/harness/translate/corpus"
	"github.com/udfx/udfx/harness/translate/ir"
)

const corpusDir = "../../harness/translate/testdata/corpus"

// corpusRapidsUDF is a verified Java or Scala corpus case and its
// RapidsUDF, or why it has none.
type corpusRapidsUDF struct {
	entry   corpus.Entry
	file    File
	decline string
}

// corpusRapidsUDFs renders the RapidsUDF of every Java and Scala case
// the corpus manifest expects verified, in manifest order.
func corpusRapidsUDFs(t *testing.T) []corpusRapidsUDF {
	t.Helper()
	entries, err := corpus.Load(corpusDir, corpus.VerifiedJVM)
	require.NoError(t, err)
	var out []corpusRapidsUDF
	for _, c := range entries {
		res, err := translate.Translate(c.UDF, c.Source.Src)
		require.NoError(t, err)
		require.Empty(t, res.Declines, "%s %s is verified in the manifest", c.File, c.Name)
		pkg, err := PackageOf(c.Source.Src)
		require.NoError(t, err)
		files, err := RenderIn(c.UDF, res.IR, ".udfx/"+c.Name+"/evidence.json", pkg)
		var re *ir.RenderError
		switch {
		case errors.As(err, &re):
			out = append(out, corpusRapidsUDF{entry: c, decline: re.Error()})
		case err != nil:
			require.NoError(t, err, "%s %s", c.File, c.Name)
		default:
			require.Len(t, files, 1)
			out = append(out, corpusRapidsUDF{entry: c, file: files[0]})
		}
	}
	return out
}

// TestCorpusColumnarTargets records which verified Java and Scala corpus
// cases have a RapidsUDF and why the others have none
// (testdata/corpus-columnar.golden, -update rewrites it).
func TestCorpusColumnarTargets(t *testing.T) {
	var rs []corpus.Rendered
	for _, r := range corpusRapidsUDFs(t) {
		rs = append(rs, corpus.Rendered{Case: r.entry.Case, Decline: r.decline})
	}
	got := corpus.TargetList("columnar", "a RapidsUDF", rs)
	corpus.CheckGolden(t, filepath.Join("testdata", "corpus-columnar.golden"), got, *update)
}

// TestGeneratedJavaCompilesCorpus compiles the RapidsUDF of every corpus
// case that has one, as udfx rewrite does: javac -Xlint:all -Werror
// against the real cuDF and RAPIDS jars, Spark's jars and the original's
// classes (each corpus file compiled once, by the JVM runner's compile,
// from its cache when the translator's corpus test compiled it first).
// One javac per corpus file.
func TestGeneratedJavaCompilesCorpus(t *testing.T) {
	ctx := context.Background()
	tools, err := jvm.Toolchain(os.Getenv)
	require.NoError(t, err)
	cudf := resolve(t, mavenjar.CuDF)
	rapids := resolve(t, mavenjar.Rapids)

	var order []*corpus.Source
	byFile := map[*corpus.Source][]corpusRapidsUDF{}
	for _, r := range corpusRapidsUDFs(t) {
		if r.decline != "" {
			continue
		}
		src := r.entry.Source
		if byFile[src] == nil {
			order = append(order, src)
		}
		byFile[src] = append(byFile[src], r)
	}
	require.Len(t, order, 2, "both corpus files have cases with a RapidsUDF")
	for _, src := range order {
		rs := byFile[src]
		t.Run(filepath.Base(src.Path), func(t *testing.T) {
			start := time.Now()
			orig, err := jvm.CompileSource(ctx, &tools, runner.Limits{}, src.Path, "")
			require.NoError(t, err)
			t.Logf("original classes ready in %s", time.Since(start).Round(time.Millisecond))
			dir := t.TempDir()
			var srcs []string
			for _, r := range rs {
				p := filepath.Join(dir, "src", filepath.Base(r.file.Path))
				require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
				require.NoError(t, os.WriteFile(p, r.file.Content, 0o644))
				srcs = append(srcs, p)
			}
			classes := filepath.Join(dir, "classes")
			cp := strings.Join([]string{cudf, rapids, orig, filepath.Join(tools.SparkJars, "*")}, string(os.PathListSeparator))
			args := append(append(append(jvm.JavacFlags(), jvm.GeneratedJavacLint...), "-d", classes, "-cp", cp), srcs...)
			start = time.Now()
			out, err := exec.CommandContext(ctx, tools.Javac, args...).CombinedOutput()
			require.NoError(t, err, "javac of %s's RapidsUDF classes:\n%s", src.Path, out)
			require.Empty(t, strings.TrimSpace(string(out)), "javac printed diagnostics")
			t.Logf("%d RapidsUDF classes compiled in %s", len(srcs), time.Since(start).Round(time.Millisecond))
			pkg, err := PackageOf(src.Src)
			require.NoError(t, err)
			for _, r := range rs {
				_, err := os.Stat(filepath.Join(append([]string{classes}, strings.Split(pkg, ".")...)...) + "/" + r.entry.Name + "RapidsUDF.class")
				assert.NoError(t, err, "%s: javac wrote no class", r.entry.Name)
			}
		})
	}
}
