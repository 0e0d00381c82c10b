package cuda

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/gpu/toolkit"
	"github.com/udfx/udfx/harness/runner/jvm"
)

// jvmExamples are the Java and Scala examples whose rewrites have the
// CUDA target.
var jvmExamples = []struct{ name, file, udf string }{
	{"java", "../../examples/java-to-fahrenheit/ToFahrenheit.java", "ToFahrenheit"},
	{"scala", "../../examples/scala-to-fahrenheit/ToFahrenheit.scala", "ToFahrenheit"},
	{"scala-lambda", "../../examples/scala-lambda-fahrenheit/FahrenheitLambda.scala", "toFahrenheit"},
}

var comments = regexp.MustCompile(`(?m)^\s*//.*\n|/\*.*?\*/`)

// buildKey is the native sources of a rewrite without their comments
// (the marker, the UDF's and parameters' names in prose): rewrites with the same key
// compile to the same library, so each is built once.
func buildKey(files []File) string {
	var b strings.Builder
	for _, f := range files {
		if !strings.Contains(f.Path, "/") && f.Path != CMake {
			b.WriteString(f.Path + "\n" + comments.ReplaceAllString(string(f.Content), "") + "\n")
		}
	}
	return b.String()
}

// TestNVCCBuildsExamples compiles the kernel and JNI bridge of every
// Java/Scala example's CUDA rewrite with nvcc (sm_90 and compute_90,
// --fmad=false, IEEE division and square root, no flush-to-zero, every
// warning an error) against the cuDF 26.08 headers, and links them into
// the shared library the Java class loads. nvcc and the headers come
// from PyPI into udfx's cache the first time. Nothing runs on a device.
func TestNVCCBuildsExamples(t *testing.T) {
	ctx := context.Background()
	start := time.Now()
	nvcc, err := toolkit.Ensure(ctx, toolkit.Options{Progress: func(s string) { t.Log(s) }})
	require.NoError(t, err)
	cudf, err := toolkit.EnsureCudfHeaders(ctx, toolkit.Options{Progress: func(s string) { t.Log(s) }})
	require.NoError(t, err)
	t.Logf("nvcc from %s, cuDF headers ready in %s", nvcc.From, time.Since(start).Round(time.Second))
	tools, err := jvm.Toolchain(os.Getenv)
	require.NoError(t, err)

	built := map[string]string{} // build key -> the example that built it
	for _, ex := range jvmExamples {
		u, e := translated(t, ex.file, ex.udf)
		files, err := Render(u, e, record)
		require.NoError(t, err)
		key := buildKey(files)
		if by, ok := built[key]; ok {
			t.Logf("%s: same native sources as %s, built once", ex.name, by)
			continue
		}
		built[key] = ex.name
		t.Run(ex.name, func(t *testing.T) {
			start := time.Now()
			lib, err := BuildLibrary(ctx, nvcc, cudf, tools.JavaHome, files, t.TempDir())
			require.NoError(t, err)
			t.Logf("built %s in %s", filepath.Base(lib.Path), time.Since(start).Round(time.Millisecond))
			for _, c := range lib.Commands[:1] {
				for _, flag := range []string{"--fmad=false", "--prec-div=true", "--prec-sqrt=true", "--ftz=false", "arch=compute_90,code=sm_90", "arch=compute_90,code=compute_90", "all-warnings"} {
					assert.Contains(t, c, flag)
				}
				assert.NotContains(t, c, "fast-math")
			}
			var class string
			for _, f := range files {
				if strings.HasPrefix(f.Path, "java/") {
					class = strings.TrimSuffix(filepath.Base(f.Path), ".java")
				}
			}
			ok, err := ExportsSymbol(lib.Path, "Java_udfx_cuda_"+class+"_00024Native_evaluate")
			require.NoError(t, err)
			assert.True(t, ok, "%s exports the JNI entry point of udfx.cuda.%s", lib.Path, class)
		})
	}
}

// TestNVCCBuildFailsOnWarning shows the build failing on a warning that
// g++ alone would let pass: an unused variable in the kernel.
func TestNVCCBuildFailsOnWarning(t *testing.T) {
	nvcc, ok := toolkit.Find(nil)
	cudf, hok := toolkit.CudfHeaders()
	if !ok || !hok {
		// TestNVCCBuildsExamples installs both; run alone, install here.
		var err error
		nvcc, err = toolkit.Ensure(context.Background(), toolkit.Options{})
		require.NoError(t, err)
		cudf, err = toolkit.EnsureCudfHeaders(context.Background(), toolkit.Options{})
		require.NoError(t, err)
	}
	files := []File{
		{Path: Kernel, Content: []byte("__global__ void k(int* p) { int unused = 1; p[0] = 0; }\n")},
		{Path: JNI, Content: []byte("int udfx_nothing() { return 0; }\n")},
		{Path: "java/udfx/cuda/XCuda.java", Content: []byte("class XCuda {}\n")},
	}
	_, err := BuildLibrary(context.Background(), nvcc, cudf, "/nonexistent", files, t.TempDir())
	var be *BuildError
	require.ErrorAs(t, err, &be)
	assert.Contains(t, be.Output, "unused")
}
