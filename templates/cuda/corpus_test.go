package cuda_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/gpu/native"
	"github.com/udfx/udfx/gpu/toolkit"
	"github.com/udfx/udfx/harness/render/cuda"
	"github.com/udfx/udfx/harness/runner/jvm"
	"github.com/udfx/udfx/harness/testsetup"
	"github.com/udfx/udfx/harness/translate"
	"github.com/udfx/udfx/harness/translate/corpus"
	"github.com/udfx/udfx/harness/translate/ir"
)

const corpusDir = "../../harness/translate/testdata/corpus"

// corpusRewrite is a verified Java or Scala corpus case and its CUDA
// rewrite, or why it has none.
type corpusRewrite struct {
	c       corpus.Case
	files   []cuda.File
	decline string
}

// corpusRewrites renders the CUDA target of every Java and Scala case the
// corpus manifest expects verified, in manifest order.
func corpusRewrites(t *testing.T) []corpusRewrite {
	t.Helper()
	entries, err := corpus.Load(corpusDir, corpus.VerifiedJVM)
	require.NoError(t, err)
	var out []corpusRewrite
	for _, c := range entries {
		u := c.UDF
		res, err := translate.Translate(u, c.Source.Src)
		require.NoError(t, err)
		require.Empty(t, res.Declines, "%s %s is verified in the manifest", c.File, c.Name)
		files, err := cuda.Render(u, res.IR, ".udfx/"+c.Name+"/evidence.json")
		var re *ir.RenderError
		switch {
		case errors.As(err, &re):
			out = append(out, corpusRewrite{c: c.Case, decline: re.Error()})
		case err != nil:
			require.NoError(t, err, "%s %s", c.File, c.Name)
		default:
			out = append(out, corpusRewrite{c: c.Case, files: files})
		}
	}
	return out
}

// TestCorpusCUDATargets records which verified Java and Scala corpus
// cases have a CUDA rewrite and why the others have none
// (testdata/corpus-cuda.golden, -update rewrites it), so that a case
// gaining or losing the target is a reviewed change.
func TestCorpusCUDATargets(t *testing.T) {
	var rs []corpus.Rendered
	for _, r := range corpusRewrites(t) {
		rs = append(rs, corpus.Rendered{Case: r.c, Decline: r.decline})
	}
	got := corpus.TargetList("cuda", "a CUDA rewrite", rs)
	corpus.CheckGolden(t, filepath.Join("testdata", "corpus-cuda.golden"), got, *update)
}

// nativeUnit is one rewrite's CUDA files, named for the test's messages.
type nativeUnit struct {
	label string
	files []cuda.File
}

// TestNVCCBuildsAll compiles the kernel, the JNI bridge and the Java
// class of the CUDA rewrite of every Java and Scala example and of every
// corpus case that has one, with BuildLibrary's flags (sm_90 and
// compute_90, --fmad=false, IEEE division and square root, no
// flush-to-zero, every warning an error) against the cuDF 26.08 headers
// and jars, and links them into one shared library. Rewrites whose native
// sources are the same but for comments are built once. nvcc and the
// headers come from PyPI into udfx's cache the first time; nothing runs
// on a device. BuildLibrary itself, as udfx rewrite --native runs it, is
// tested in harness/rewrite (TestBuildArtifactBuildsTheNativeLibrary).
//
// nvcc takes tens of seconds on two cores to read the cuDF headers, so
// the rewrites are compiled together: one translation unit includes each
// rewrite's unmodified udf_kernel.cu inside a namespace of its own, after
// the headers they all include (whose include guards make the per-rewrite
// includes of them no-ops), and another does the same with udf_jni.cpp.
// The JNI entry points keep their C names; where two rewrites' classes
// share a name (CircleArea is in both corpus files), a macro renames the
// later one's entry point in the batch. The library must export every
// rewrite's entry point.
func TestNVCCBuildsAll(t *testing.T) {
	ctx := context.Background()
	nvcc, cudf := ensureToolkit(t)
	tools, err := jvm.Toolchain(os.Getenv)
	require.NoError(t, err)

	var units []nativeUnit
	built := map[string]string{}
	add := func(label string, files []cuda.File) {
		key := buildKey(files)
		if by, ok := built[key]; ok {
			t.Logf("%s: same native sources as %s, built once", label, by)
			return
		}
		built[key] = label
		units = append(units, nativeUnit{label, files})
	}
	for _, ex := range jvmExamples {
		u, e := translated(t, ex.file, ex.udf)
		files, err := cuda.Render(u, e, record)
		require.NoError(t, err)
		add("example "+ex.name, files)
	}
	for _, r := range corpusRewrites(t) {
		if r.files != nil {
			add(r.c.File+" "+r.c.Name, r.files)
		}
	}
	require.Greater(t, len(units), 20, "the corpus has more than 20 CUDA rewrites (testdata/corpus-cuda.golden)")

	dir := t.TempDir()
	start := time.Now()
	lib, entries := buildBatch(t, ctx, nvcc, cudf, tools.JavaHome, units, dir)
	t.Logf("%d kernels and bridges compiled and linked in %s", len(units), time.Since(start).Round(time.Second))
	for i, u := range units {
		ok, err := native.ExportsSymbol(lib, entries[i])
		require.NoError(t, err)
		assert.True(t, ok, "%s: the library exports %s", u.label, entries[i])
	}

	// The Java classes, with javac's warnings as errors, in as few javac
	// runs as classes of the same name allow.
	cudfJar, rapidsJar := testsetup.RapidsJars(t)
	cp := strings.Join([]string{cudfJar, rapidsJar, filepath.Join(tools.SparkJars, "*")}, string(os.PathListSeparator))
	var rounds [][]string
	seen := map[string]int{}
	for i, u := range units {
		class := javaClass(t, u.files)
		r := seen[class]
		seen[class]++
		if r == len(rounds) {
			rounds = append(rounds, nil)
		}
		for _, f := range u.files {
			if strings.HasPrefix(f.Path, "java/") {
				p := filepath.Join(dir, fmt.Sprint(i), filepath.FromSlash(f.Path))
				require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
				require.NoError(t, os.WriteFile(p, f.Content, 0o644))
				rounds[r] = append(rounds[r], p)
			}
		}
	}
	for _, srcs := range rounds {
		args := append(append(append(jvm.JavacFlags(), jvm.GeneratedJavacLint...), "-d", t.TempDir(), "-cp", cp), srcs...)
		start := time.Now()
		out, err := exec.CommandContext(ctx, tools.Javac, args...).CombinedOutput()
		require.NoError(t, err, "javac of the CUDA classes:\n%s", out)
		require.Empty(t, strings.TrimSpace(string(out)), "javac printed diagnostics")
		t.Logf("%d Java classes compiled in %s", len(srcs), time.Since(start).Round(time.Second))
	}
}

var comments = regexp.MustCompile(`(?m)^\s*//.*\n|/\*.*?\*/`)

// buildKey is the native sources of a rewrite without their comments
// (the marker, the UDF's and parameters' names in prose): rewrites with
// the same key compile to the same library, so each is built once.
func buildKey(files []cuda.File) string {
	var b strings.Builder
	for _, f := range files {
		if !strings.Contains(f.Path, "/") && f.Path != cuda.CMake {
			b.WriteString(f.Path + "\n" + comments.ReplaceAllString(string(f.Content), "") + "\n")
		}
	}
	return b.String()
}

var systemInclude = regexp.MustCompile(`(?m)^#include <[^>]+>\n`)

// buildBatch compiles units' kernels with nvcc and their bridges with
// g++, each kind as one translation unit, and links both into one shared
// library in dir. It returns the library and each unit's JNI entry point
// in it. A diagnostic fails the test.
func buildBatch(t *testing.T, ctx context.Context, nvcc toolkit.NVCC, cudf []string, javaHome string, units []nativeUnit, dir string) (string, []string) {
	t.Helper()
	var kernels, bridges strings.Builder
	for i, u := range units {
		caseDir := filepath.Join(dir, fmt.Sprint(i))
		require.NoError(t, os.MkdirAll(caseDir, 0o755))
		for _, f := range u.files {
			if strings.Contains(f.Path, "/") || f.Path == cuda.CMake {
				continue
			}
			require.NoError(t, os.WriteFile(filepath.Join(caseDir, f.Path), f.Content, 0o644))
			if i > 0 {
				continue
			}
			// The headers every rewrite includes, first and at global
			// scope, from the first rewrite's files.
			switch f.Path {
			case cuda.Kernel:
				kernels.WriteString(strings.Join(systemInclude.FindAllString(string(f.Content), -1), ""))
				kernels.WriteString("#include \"0/" + cuda.JVMHeader + "\"\n")
			case cuda.JNI:
				bridges.WriteString(strings.Join(systemInclude.FindAllString(string(f.Content), -1), ""))
			}
		}
	}
	entries := make([]string, len(units))
	taken := map[string]bool{}
	for i, u := range units {
		fmt.Fprintf(&kernels, "\n// %s\n#undef UDFX_UDF_ROW_H\nnamespace udfx_unit%d {\n#include \"%d/%s\"\n}\n", u.label, i, i, cuda.Kernel)
		entry := "Java_udfx_cuda_" + javaClass(t, u.files) + "_00024Native_evaluate"
		entries[i] = entry
		if taken[entry] {
			entries[i] = fmt.Sprintf("%s_unit%d", entry, i)
			fmt.Fprintf(&bridges, "\n// %s\n#define %s %s\nnamespace udfx_unit%d {\n#include \"%d/%s\"\n}\n#undef %s\n", u.label, entry, entries[i], i, i, cuda.JNI, entry)
		} else {
			fmt.Fprintf(&bridges, "\n// %s\nnamespace udfx_unit%d {\n#include \"%d/%s\"\n}\n", u.label, i, i, cuda.JNI)
		}
		taken[entry] = true
	}
	kernelSrc, bridgeSrc := filepath.Join(dir, "kernels.cu"), filepath.Join(dir, "bridges.cpp")
	require.NoError(t, os.WriteFile(kernelSrc, []byte(kernels.String()), 0o644))
	require.NoError(t, os.WriteFile(bridgeSrc, []byte(bridges.String()), 0o644))

	inc := []string{"-I" + dir}
	for _, d := range cudf {
		inc = append(inc, "-isystem", d)
	}
	jni := append([]string{}, inc...)
	for _, d := range append(append([]string{}, nvcc.Include...), filepath.Join(javaHome, "include"), filepath.Join(javaHome, "include", "linux")) {
		jni = append(jni, "-isystem", d)
	}
	lib := filepath.Join(dir, "libudfx_corpus.so")
	kernelObj, bridgeObj := filepath.Join(dir, "kernels.o"), filepath.Join(dir, "bridges.o")
	for _, s := range [][]string{
		append(append(append([]string{nvcc.Path}, native.DeviceFlags...), inc...), "-c", kernelSrc, "-o", kernelObj),
		append(append(append([]string{"g++"}, native.JNIFlags...), jni...), "-c", bridgeSrc, "-o", bridgeObj),
		append(append([]string{nvcc.Path, "-shared"}, native.DeviceArch...), kernelObj, bridgeObj, "-o", lib),
	} {
		start := time.Now()
		out, err := exec.CommandContext(ctx, s[0], s[1:]...).CombinedOutput()
		require.NoError(t, err, "%s:\n%s", strings.Join(s, " "), tailOf(string(out), 8<<10))
		require.Empty(t, strings.TrimSpace(string(out)), "%s printed diagnostics", filepath.Base(s[0]))
		t.Logf("%s step in %s", filepath.Base(s[0]), time.Since(start).Round(time.Second))
	}
	return lib, entries
}

func javaClass(t *testing.T, files []cuda.File) string {
	t.Helper()
	for _, f := range files {
		if strings.HasPrefix(f.Path, "java/") {
			return strings.TrimSuffix(filepath.Base(f.Path), ".java")
		}
	}
	require.FailNow(t, "the CUDA rewrite has no Java class")
	return ""
}

func tailOf(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}
