package cuda

import (
	"context"
	"os"
	"path/filepath"
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

// TestNVCCBuildsExamples compiles the kernel and JNI bridge of the Java
// example's CUDA rewrite the way udfx rewrite --native does
// (BuildLibrary): nvcc for sm_90 and compute_90, --fmad=false, IEEE
// division and square root, no flush-to-zero, every warning an error,
// against the cuDF 26.08 headers, linked into the shared library the
// Java class loads. nvcc and the headers come from PyPI into udfx's
// cache the first time. Nothing runs on a device. The other examples and
// the corpus are compiled with the same flags by TestNVCCBuildsAll.
func TestNVCCBuildsExamples(t *testing.T) {
	ctx := context.Background()
	nvcc, cudf := ensureToolkit(t)
	tools, err := jvm.Toolchain(os.Getenv)
	require.NoError(t, err)
	ex := jvmExamples[0]
	u, e := translated(t, ex.file, ex.udf)
	files, err := Render(u, e, record)
	require.NoError(t, err)
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
	class := javaClass(t, files)
	ok, err := ExportsSymbol(lib.Path, "Java_udfx_cuda_"+class+"_00024Native_evaluate")
	require.NoError(t, err)
	assert.True(t, ok, "%s exports the JNI entry point of udfx.cuda.%s", lib.Path, class)
}

// ensureToolkit finds nvcc and the cuDF headers, installing them from
// PyPI into udfx's cache the first time.
func ensureToolkit(t *testing.T) (toolkit.NVCC, []string) {
	t.Helper()
	start := time.Now()
	progress := toolkit.Options{Progress: func(s string) { t.Log(s) }}
	nvcc, err := toolkit.Ensure(context.Background(), progress)
	require.NoError(t, err)
	cudf, err := toolkit.EnsureCudfHeaders(context.Background(), progress)
	require.NoError(t, err)
	t.Logf("nvcc from %s, cuDF headers ready in %s", nvcc.From, time.Since(start).Round(time.Second))
	return nvcc, cudf
}

// TestNVCCBuildFailsOnWarning shows the build failing on a warning that
// g++ alone would let pass: an unused variable in the kernel.
func TestNVCCBuildFailsOnWarning(t *testing.T) {
	nvcc, cudf := ensureToolkit(t)
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
