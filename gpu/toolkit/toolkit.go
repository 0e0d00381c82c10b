// Package toolkit finds the CUDA compiler and the cuDF headers that udfx
// builds CUDA rewrites with, and installs pinned copies from PyPI into the
// user's cache folder when the machine has none, so that the kernels, JNI
// bridges and RapidsUDF jars compile on a machine without a GPU (CI, a
// laptop). Nothing here runs on a device.
//
// What the wheels really hold: nvidia-cuda-nvcc-cu12 12.9 ships ptxas and
// libnvvm only, no nvcc driver, so the CUDA 12 wheels cannot compile a .cu
// file. The CUDA 13 wheels (nvidia-cuda-nvcc, -crt, -runtime, -cccl and
// nvidia-nvvm) lay out a whole toolkit under nvidia/cu13/ (bin/nvcc,
// nvvm/bin/cicc, include/, include/cccl, lib/) and compile with the
// system's g++ as host compiler. The cuDF headers come from the
// libcudf-cu12 wheel of the cuDF jar's release (only its include/ is
// kept), with RMM's and rapids-logger's.
package toolkit

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/udfx/udfx/harness/pyenv"

	"github.com/udfx/udfx/harness/filelock"
)

// CUDAVersion is the toolkit the pinned wheels install.
const CUDAVersion = "13.2.86"

// CUDAWheels are the pins of the CUDA compiler; pip installs them
// together into one --target folder (a second install into the same
// folder would replace the shared nvidia/ package).
var CUDAWheels = []string{
	"nvidia-cuda-nvcc==" + CUDAVersion,
	"nvidia-cuda-crt==" + CUDAVersion,
	"nvidia-cuda-runtime==" + CUDAVersion,
	"nvidia-cuda-cccl==" + CUDAVersion,
	"nvidia-nvvm==" + CUDAVersion,
}

// CudfWheels are the pins of the headers the generated kernel and JNI
// bridge include: libcudf of the cuDF jar's release (mavenjar.CuDF,
// 26.08.1), and the RMM and rapids-logger it requires. Only their include
// folders are kept (the libcudf wheel is 0.7 GB, its headers 20 MB).
var CudfWheels = []string{"libcudf-cu12==26.8.1", "librmm-cu12==26.8.0", "rapids-logger==0.2.3"}

// readyFile marks a finished install; its content is the pins.
const readyFile = "udfx-ready"

// NVCC is a CUDA compiler and where it came from.
type NVCC struct {
	// Path is the nvcc executable.
	Path string
	// Include are the toolkit's include folders (cuda_runtime.h, and
	// CCCL for a wheel install), for the host compiler of JNI code.
	Include []string
	// From says where it was found: "PATH", "CUDA_HOME", "udfx's cache in …".
	From string
}

// PrereqError says what is missing and how to get it.
type PrereqError struct{ Msg string }

func (e *PrereqError) Error() string { return e.Msg }

// CacheDir is the folder name takes in udfx's cache (<user cache>/udfx/name).
func CacheDir(name string) (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache folder for udfx's CUDA toolkit: %w", err)
	}
	return filepath.Join(cache, "udfx", name), nil
}

// cudaDir is where the pinned CUDA wheels are installed.
func cudaDir() (string, error) { return CacheDir("cuda-" + CUDAVersion) }

// cudfDir is where the pinned cuDF headers are extracted.
func cudfDir() (string, error) { return CacheDir("cudf-headers-26.8.1") }

func ready(dir string, pins []string) bool {
	b, err := os.ReadFile(filepath.Join(dir, readyFile))
	return err == nil && string(b) == strings.Join(pins, "\n")
}

// Find returns the nvcc on PATH, else $CUDA_HOME/bin/nvcc, else the one
// udfx installed in its cache; ok is false when there is none. getenv
// reads the environment (os.Getenv when nil).
func Find(getenv func(string) string) (NVCC, bool) {
	if getenv == nil {
		getenv = os.Getenv
	}
	if p, err := exec.LookPath("nvcc"); err == nil {
		return fromRoot(p, "PATH"), true
	}
	if h := getenv("CUDA_HOME"); h != "" {
		p := filepath.Join(h, "bin", "nvcc")
		if isFile(p) {
			return fromRoot(p, "CUDA_HOME"), true
		}
	}
	if d, err := cudaDir(); err == nil && ready(d, CUDAWheels) {
		root := filepath.Join(d, "nvidia", "cu13")
		return NVCC{
			Path:    filepath.Join(root, "bin", "nvcc"),
			Include: []string{filepath.Join(root, "include"), filepath.Join(root, "include", "cccl")},
			From:    "udfx's cache in " + d,
		}, true
	}
	return NVCC{}, false
}

// fromRoot describes an installed toolkit by its nvcc: include/ beside
// bin/, and the targets/ layout of the CUDA installers.
func fromRoot(nvcc, from string) NVCC {
	root := filepath.Dir(filepath.Dir(nvcc))
	n := NVCC{Path: nvcc, From: from}
	for _, d := range []string{filepath.Join(root, "include"), filepath.Join(root, "targets", "x86_64-linux", "include"), filepath.Join(root, "include", "cccl")} {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			n.Include = append(n.Include, d)
		}
	}
	return n
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// Options of Ensure and EnsureCudfHeaders.
type Options struct {
	// Python runs pip; when empty, the Python udfx finds (pyenv.Find from
	// the working folder), else python3 on PATH.
	Python string
	// Progress hears each step (nil: quiet).
	Progress func(string)
}

func (o Options) progress(s string) {
	if o.Progress != nil {
		o.Progress(s)
	}
}

func (o Options) python() (string, error) {
	if o.Python != "" {
		return o.Python, nil
	}
	wd, _ := os.Getwd()
	if f, ok := pyenv.Find(nil, wd); ok {
		return f.Python, nil
	}
	if p, err := exec.LookPath("python3"); err == nil {
		return p, nil
	}
	return "", &PrereqError{Msg: "no Python with pip to install the CUDA compiler from PyPI: run udfx setup, install the CUDA toolkit (nvcc on PATH or CUDA_HOME), or set UDFX_PYTHON"}
}

// Ensure returns Find's nvcc, or installs the pinned CUDA wheels into
// udfx's cache (once; concurrent callers wait on a lock) and returns
// that one.
func Ensure(ctx context.Context, opts Options) (NVCC, error) {
	if n, ok := Find(nil); ok {
		return n, nil
	}
	dir, err := cudaDir()
	if err != nil {
		return NVCC{}, err
	}
	err = install(ctx, opts, dir, CUDAWheels, func(python, tmp string) error {
		args := append([]string{"-m", "pip", "install", "--disable-pip-version-check", "--no-input", "--progress-bar", "off", "--no-deps", "--only-binary=:all:", "--target", tmp}, CUDAWheels...)
		return runPip(ctx, python, args)
	})
	if err != nil {
		return NVCC{}, err
	}
	n, ok := Find(nil)
	if !ok || !isFile(n.Path) {
		return NVCC{}, fmt.Errorf("CUDA toolkit: pip installed %s but %s has no nvcc", strings.Join(CUDAWheels, " "), dir)
	}
	return n, nil
}

// CudfHeaders returns the include folders of the cached cuDF headers, in
// the order the compilers take them; ok is false before
// EnsureCudfHeaders has extracted them.
func CudfHeaders() ([]string, bool) {
	dir, err := cudfDir()
	if err != nil || !ready(dir, CudfWheels) {
		return nil, false
	}
	return cudfIncludes(dir), true
}

func cudfIncludes(dir string) []string {
	var inc []string
	for _, d := range []string{"libcudf/include", "libcudf/include/rapids", "librmm/include", "librmm/include/rapids", "rapids_logger/include"} {
		inc = append(inc, filepath.Join(dir, filepath.FromSlash(d)))
	}
	return inc
}

// EnsureCudfHeaders returns CudfHeaders, downloading the pinned wheels
// and extracting their include folders the first time.
func EnsureCudfHeaders(ctx context.Context, opts Options) ([]string, error) {
	if inc, ok := CudfHeaders(); ok {
		return inc, nil
	}
	dir, err := cudfDir()
	if err != nil {
		return nil, err
	}
	err = install(ctx, opts, dir, CudfWheels, func(python, tmp string) error {
		wheels := filepath.Join(tmp, ".wheels")
		args := append([]string{"-m", "pip", "download", "--disable-pip-version-check", "--no-input", "--progress-bar", "off", "--no-deps", "--only-binary=:all:", "-d", wheels}, CudfWheels...)
		if err := runPip(ctx, python, args); err != nil {
			return err
		}
		files, err := filepath.Glob(filepath.Join(wheels, "*.whl"))
		if err != nil || len(files) != len(CudfWheels) {
			return fmt.Errorf("cuDF headers: pip downloaded %d wheels for %d pins", len(files), len(CudfWheels))
		}
		for _, w := range files {
			if err := extractIncludes(w, tmp); err != nil {
				return err
			}
		}
		return os.RemoveAll(wheels)
	})
	if err != nil {
		return nil, err
	}
	return cudfIncludes(dir), nil
}

// install fills dir once: under a lock, into dir+".part", then a rename
// and the ready marker, so a broken attempt is redone and a reader never
// sees half an install.
func install(ctx context.Context, opts Options, dir string, pins []string, fill func(python, tmp string) error) error {
	if ready(dir, pins) {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return err
	}
	unlock, err := filelock.Lock(ctx, dir+".lock", func() { opts.progress("waiting for another udfx run that is installing " + filepath.Base(dir)) })
	if err != nil {
		return fmt.Errorf("lock %s: %w", dir+".lock", err)
	}
	defer unlock()
	if ready(dir, pins) {
		return nil
	}
	python, err := opts.python()
	if err != nil {
		return err
	}
	tmp := dir + ".part"
	for _, d := range []string{tmp, dir} {
		if err := os.RemoveAll(d); err != nil {
			return err
		}
	}
	opts.progress(fmt.Sprintf("installing %s from PyPI into %s (first run only)", strings.Join(pins, " "), dir))
	if err := fill(python, tmp); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(tmp, readyFile), []byte(strings.Join(pins, "\n")), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, dir)
}

func runPip(ctx context.Context, python string, args []string) error {
	out, err := exec.CommandContext(ctx, python, args...).CombinedOutput()
	if err != nil {
		tail := out
		if len(tail) > 4<<10 {
			tail = tail[len(tail)-4<<10:]
		}
		return fmt.Errorf("%s %s: %v:\n%s", python, strings.Join(args, " "), err, bytes.TrimSpace(tail))
	}
	return nil
}

// extractIncludes copies the entries under <package>/include/ of a wheel
// into dir, keeping their paths; names that would leave dir are refused.
func extractIncludes(wheel, dir string) error {
	z, err := zip.OpenReader(wheel)
	if err != nil {
		return fmt.Errorf("cuDF headers: %w", err)
	}
	defer z.Close()
	n := 0
	for _, f := range z.File {
		parts := strings.SplitN(f.Name, "/", 3)
		if len(parts) < 3 || parts[1] != "include" || strings.HasSuffix(f.Name, "/") {
			continue
		}
		clean := filepath.Clean(filepath.FromSlash(f.Name))
		if filepath.IsAbs(clean) || strings.HasPrefix(clean, "..") {
			return fmt.Errorf("cuDF headers: %s holds an entry outside its folder: %s", wheel, f.Name)
		}
		dst := filepath.Join(dir, clean)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := copyEntry(f, dst); err != nil {
			return fmt.Errorf("cuDF headers: %s: %w", f.Name, err)
		}
		n++
	}
	if n == 0 {
		return fmt.Errorf("cuDF headers: %s has no include/ folder", filepath.Base(wheel))
	}
	return nil
}

func copyEntry(f *zip.File, dst string) error {
	r, err := f.Open()
	if err != nil {
		return err
	}
	defer r.Close()
	w, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(w, r); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}
