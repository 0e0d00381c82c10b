package columnar_test

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

	"github.com/udfx/udfx/harness/render/columnar"
	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/runner/jvm"
	"github.com/udfx/udfx/harness/testsetup"
	"github.com/udfx/udfx/harness/translate"
	"github.com/udfx/udfx/harness/translate/corpus"
	"github.com/udfx/udfx/harness/translate/ir"
)

const corpusDir = "../../harness/translate/testdata/corpus"

// corpusRapidsUDF is a verified Java or Scala corpus case and its
// RapidsUDF, or why it has none.
type corpusRapidsUDF struct {
	entry   corpus.Entry
	file    columnar.File
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
		pkg, err := columnar.PackageOf(c.Source.Src)
		require.NoError(t, err)
		files, err := columnar.RenderIn(c.UDF, res.IR, ".udfx/"+c.Name+"/evidence.json", pkg)
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
	tools, err := jvm.Toolchain(os.Getenv)
	require.NoError(t, err)
	cudf, rapids := testsetup.RapidsJars(t)

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
			var files []columnar.File
			for _, r := range rs {
				files = append(files, r.file)
			}
			start := time.Now()
			classes, out, err := javacRapidsUDFs(t, tools, src, files, cudf, rapids)
			require.NoError(t, err, "javac of %s's RapidsUDF classes:\n%s", src.Path, out)
			require.Empty(t, strings.TrimSpace(string(out)), "javac printed diagnostics")
			t.Logf("%d RapidsUDF classes compiled in %s", len(files), time.Since(start).Round(time.Millisecond))
			pkg, err := columnar.PackageOf(src.Src)
			require.NoError(t, err)
			for _, r := range rs {
				_, err := os.Stat(filepath.Join(append([]string{classes}, strings.Split(pkg, ".")...)...) + "/" + r.entry.Name + "RapidsUDF.class")
				assert.NoError(t, err, "%s: javac wrote no class", r.entry.Name)
			}
		})
	}

	// What the renderer declines is what javac rejects: HasPrefix
	// (Function1[String, Boolean]) rendered as if its apply returned an
	// object does not compile.
	t.Run("declined shape", func(t *testing.T) {
		entries, err := corpus.Load(corpusDir, func(c corpus.Case) bool { return c.File == "Corpus.scala" && c.Name == "HasPrefix" })
		require.NoError(t, err)
		require.Len(t, entries, 1)
		e := entries[0]
		require.True(t, e.UDF.ReturnPrimitive)
		res, err := translate.Translate(e.UDF, e.Source.Src)
		require.NoError(t, err)
		pkg, err := columnar.PackageOf(e.Source.Src)
		require.NoError(t, err)
		_, err = columnar.RenderIn(e.UDF, res.IR, ".udfx/HasPrefix/evidence.json", pkg)
		var re *ir.RenderError
		require.ErrorAs(t, err, &re)
		forced := *e.UDF
		forced.ReturnPrimitive = false
		files, err := columnar.RenderIn(&forced, res.IR, ".udfx/HasPrefix/evidence.json", pkg)
		require.NoError(t, err)
		_, out, err := javacRapidsUDFs(t, tools, e.Source, files, cudf, rapids)
		require.Error(t, err, "javac compiled a subclass of HasPrefix")
		assert.Contains(t, string(out), "cannot implement apply(T1)")
	})
}

// javacRapidsUDFs compiles generated RapidsUDF files as udfx rewrite does,
// against the jars and the classes of src (the JVM runner's compile, from
// its cache when compiled before), and returns the classes folder and
// javac's output.
func javacRapidsUDFs(t *testing.T, tools jvm.Tools, src *corpus.Source, files []columnar.File, cudf, rapids string) (string, []byte, error) {
	t.Helper()
	ctx := context.Background()
	orig, err := jvm.CompileSource(ctx, &tools, runner.Limits{}, src.Path, "")
	require.NoError(t, err)
	dir := t.TempDir()
	var srcs []string
	for _, f := range files {
		p := filepath.Join(dir, "src", filepath.Base(f.Path))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, f.Content, 0o644))
		srcs = append(srcs, p)
	}
	classes := filepath.Join(dir, "classes")
	cp := strings.Join([]string{cudf, rapids, orig, filepath.Join(tools.SparkJars, "*")}, string(os.PathListSeparator))
	args := append(append(append(jvm.JavacFlags(), jvm.GeneratedJavacLint...), "-d", classes, "-cp", cp), srcs...)
	out, err := exec.CommandContext(ctx, tools.Javac, args...).CombinedOutput()
	return classes, out, err
}
