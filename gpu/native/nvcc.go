// Package native builds what harness/render/cuda renders: the device
// library (nvcc for the kernel, g++ for the JNI bridge) that the RAPIDS
// Accelerator loads, and a host build of the per-row function (g++) that
// runs as a runner.Runner, so the differential test judges the CUDA
// rewrite on a machine without a GPU. udfx rewrite builds with it; udfx
// verify only re-renders and so does not import it.
package native

import (
	"context"
	"debug/elf"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/udfx/udfx/gpu/toolkit"
	"github.com/udfx/udfx/harness/render/cuda"
)

// DeviceArch are nvcc's code generation flags: Hopper machine code
// (sm_90) and its PTX (compute_90), which a newer GPU's driver compiles.
var DeviceArch = []string{
	"-gencode", "arch=compute_90,code=sm_90",
	"-gencode", "arch=compute_90,code=compute_90",
}

// DeviceFlags are nvcc's flags for the kernel. C++20 is what the cuDF
// 26.08 headers need (cudf::host_span converts to std::span). Exactness:
// --fmad=false (nvcc fuses a*b+c by default; the JVM rounds twice), IEEE
// division and square root, no flush-to-zero, never --use_fast_math.
// Every warning, nvcc's and the host compiler's, is an error.
var DeviceFlags = append([]string{
	"-std=c++20", "-O2",
	"--fmad=false", "--prec-div=true", "--prec-sqrt=true", "--ftz=false",
	"--extended-lambda", "--expt-relaxed-constexpr",
	"-Werror", "all-warnings",
	"-Xcompiler", "-fPIC,-ffp-contract=off,-Wall,-Wextra,-Werror",
}, DeviceArch...)

// JNIFlags are g++'s flags for the JNI bridge, host code only.
var JNIFlags = []string{"-std=c++20", "-O2", "-ffp-contract=off", "-fPIC", "-Wall", "-Wextra", "-Werror"}

// Library is a built native library of a CUDA rewrite.
type Library struct {
	// Path is lib<name>.so; Name what System.loadLibrary takes.
	Path, Name string
	// Commands are the compile and link commands that built it.
	Commands []string
}

// LibraryName is the name the rendered Java class loads
// (System.loadLibrary) for files, Render's output.
func LibraryName(files []cuda.File) (string, error) {
	for _, f := range files {
		if strings.HasPrefix(f.Path, "java/") {
			cls := strings.TrimSuffix(filepath.Base(f.Path), ".java")
			return "udfx_" + strings.ToLower(cls), nil
		}
	}
	return "", fmt.Errorf("the CUDA rewrite has no Java class")
}

// BuildLibrary compiles the kernel (nvcc) and the JNI bridge (g++) of
// files, Render's output, against the cuDF headers cudf and the JDK in
// javaHome, and links them into lib<name>.so in outDir. A compile error
// or any warning is a *BuildError with the compiler's output. Nothing
// runs on a device: the library's cuDF symbols are resolved when the JVM
// loads it after the cuDF jar's libcudf.so.
func BuildLibrary(ctx context.Context, nvcc toolkit.NVCC, cudf []string, javaHome string, files []cuda.File, outDir string) (*Library, error) {
	name, err := LibraryName(files)
	if err != nil {
		return nil, err
	}
	src, err := os.MkdirTemp("", "udfx-cuda-build-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(src)
	for _, f := range files {
		if strings.Contains(f.Path, "/") {
			continue // the Java class
		}
		if err := os.WriteFile(filepath.Join(src, f.Path), f.Content, 0o644); err != nil {
			return nil, err
		}
	}
	var inc []string
	inc = append(inc, "-I"+src)
	for _, d := range cudf {
		inc = append(inc, "-isystem", d)
	}
	jni := append([]string{}, inc...)
	for _, d := range append(append([]string{}, nvcc.Include...), filepath.Join(javaHome, "include"), filepath.Join(javaHome, "include", "linux")) {
		jni = append(jni, "-isystem", d)
	}
	lib := &Library{Name: name, Path: filepath.Join(outDir, "lib"+name+".so")}
	kernelObj, jniObj := filepath.Join(src, "udf_kernel.o"), filepath.Join(src, "udf_jni.o")
	steps := [][]string{
		append(append(append([]string{nvcc.Path}, DeviceFlags...), inc...), "-c", filepath.Join(src, cuda.Kernel), "-o", kernelObj),
		append(append(append([]string{"g++"}, JNIFlags...), jni...), "-c", filepath.Join(src, cuda.JNI), "-o", jniObj),
		append(append([]string{nvcc.Path, "-shared"}, DeviceArch...), kernelObj, jniObj, "-o", lib.Path),
	}
	for _, s := range steps {
		cmd := exec.CommandContext(ctx, s[0], s[1:]...)
		out, err := cmd.CombinedOutput()
		line := strings.Join(s, " ")
		lib.Commands = append(lib.Commands, line)
		if err == nil && len(strings.TrimSpace(string(out))) > 0 {
			// A diagnostic that did not stop the build is still a failure.
			err = fmt.Errorf("the compiler printed diagnostics")
		}
		if err != nil {
			o := string(out)
			if len(o) > 8<<10 {
				o = o[len(o)-8<<10:]
			}
			return nil, &BuildError{Command: line, Output: o, Err: err}
		}
	}
	return lib, nil
}

// ExportsSymbol reports whether the shared library at path exports sym
// (the JNI entry point the Java class binds to).
func ExportsSymbol(path, sym string) (bool, error) {
	f, err := elf.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	syms, err := f.DynamicSymbols()
	if err != nil {
		return false, err
	}
	for _, s := range syms {
		if s.Name == sym && s.Section != elf.SHN_UNDEF {
			return true, nil
		}
	}
	return false, nil
}
