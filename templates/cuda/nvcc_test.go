package cuda_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/gpu/native"
	"github.com/udfx/udfx/gpu/toolkit"
	"github.com/udfx/udfx/harness/render/cuda"
	"github.com/udfx/udfx/harness/testsetup"
)

// jvmExamples are the Java and Scala examples whose rewrites have the
// CUDA target.
var jvmExamples = []struct{ name, file, udf string }{
	{"java", "../../examples/java-to-fahrenheit/ToFahrenheit.java", "ToFahrenheit"},
	{"scala", "../../examples/scala-to-fahrenheit/ToFahrenheit.scala", "ToFahrenheit"},
	{"scala-lambda", "../../examples/scala-lambda-fahrenheit/FahrenheitLambda.scala", "toFahrenheit"},
}

// ensureToolkit finds nvcc and the cuDF headers, installing them from
// PyPI into udfx's cache the first time.
func ensureToolkit(t *testing.T) (toolkit.NVCC, []string) {
	t.Helper()
	return testsetup.NVCC(t), testsetup.CudfHeaders(t)
}

// TestNVCCBuildFailsOnWarning shows the build failing on a warning that
// g++ alone would let pass: an unused variable in the kernel.
func TestNVCCBuildFailsOnWarning(t *testing.T) {
	nvcc, cudf := ensureToolkit(t)
	files := []cuda.File{
		{Path: cuda.Kernel, Content: []byte("__global__ void k(int* p) { int unused = 1; p[0] = 0; }\n")},
		{Path: cuda.JNI, Content: []byte("int udfx_nothing() { return 0; }\n")},
		{Path: "java/udfx/cuda/XCuda.java", Content: []byte("class XCuda {}\n")},
	}
	_, err := native.BuildLibrary(context.Background(), nvcc, cudf, "/nonexistent", files, t.TempDir())
	var be *native.BuildError
	require.ErrorAs(t, err, &be)
	assert.Contains(t, be.Output, "unused")
}
