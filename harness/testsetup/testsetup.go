// Package testsetup is the one preparer of what udfx's tests need on a
// fresh machine, so that `go test ./...` alone runs the whole suite the
// first time, in any order of packages: the Python environment with the
// pinned pyspark, pandas and pyarrow (created once under the user's cache
// folder and shared by every package and by udfx itself, linked as the
// repository's .venv where it has none), the cuDF, RAPIDS and Comet jars
// (fetched with Maven into the local repository), and nvcc with the cuDF
// headers (installed from PyPI into udfx's cache).
//
// Each preparation takes a cross-process lock, so parallel test binaries
// wait for the one that prepares and then use what it made; a test that
// needs an artifact asks for it here itself rather than relying on another
// package's tests having fetched it first. A test that cannot prepare
// fails naming what is missing: what these artifacts prove cannot be
// proved without them.
package testsetup

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/udfx/udfx/gpu/toolkit"
	"github.com/udfx/udfx/harness/mavenjar"
	"github.com/udfx/udfx/harness/pyenv"
)

// Main prepares the environment, then runs the package's tests. Use it as
//
//	func TestMain(m *testing.M) { os.Exit(testsetup.Main(m)) }
func Main(m *testing.M) int {
	if err := Prepare(); err != nil {
		fmt.Fprintln(os.Stderr, "test setup:", err)
		return 1
	}
	return m.Run()
}

// Prepare makes sure the repository has a Python environment with the
// pinned packages: its own .venv or UDFX_PYTHON when the developer set one
// up, else udfx's managed environment, linked as .venv. Safe to call from
// several test binaries at once.
func Prepare() error {
	root, err := RepoRoot()
	if err != nil {
		return err
	}
	if os.Getenv("UDFX_PYTHON") != "" {
		return nil
	}
	if _, ok := pyenv.VenvAbove(root); ok {
		return nil
	}
	w := progressWriter()
	start := time.Now()
	python, err := pyenv.Ensure(context.Background(), pyenv.Options{Progress: func(step string) {
		fmt.Fprintf(w, "test setup [%5.1fs] %s\n", time.Since(start).Seconds(), step)
	}})
	if err != nil {
		return err
	}
	// Another package may have linked it in the meantime.
	link := filepath.Join(root, ".venv")
	if err := os.Symlink(filepath.Dir(filepath.Dir(python)), link); err != nil && !os.IsExist(err) {
		return fmt.Errorf("link %s to udfx's Python environment: %w", link, err)
	}
	return nil
}

// Jar returns artifact's jar from the local Maven repository, fetching it
// with Maven the first time (mavenjar.Resolve, under its lock).
func Jar(t testing.TB, artifact string) string {
	t.Helper()
	return prepare(t, artifact, func(progress func(string)) (string, error) {
		return mavenjar.Resolve(context.Background(), artifact, progress)
	})
}

// RapidsJars returns the cuDF and RAPIDS jars the generated RapidsUDF
// classes compile against.
func RapidsJars(t testing.TB) (cudf, rapids string) {
	t.Helper()
	return Jar(t, mavenjar.CuDF), Jar(t, mavenjar.Rapids)
}

// NVCC returns the CUDA compiler, installing the pinned CUDA wheels from
// PyPI into udfx's cache the first time (gpu/toolkit, under its lock).
func NVCC(t testing.TB) toolkit.NVCC {
	t.Helper()
	return prepare(t, "nvcc", func(progress func(string)) (toolkit.NVCC, error) {
		return toolkit.Ensure(context.Background(), toolkit.Options{Progress: progress})
	})
}

// CudfHeaders returns the include folders of the cuDF headers the CUDA
// rewrites' kernels and JNI bridges compile against, extracting them from
// the pinned wheels the first time.
func CudfHeaders(t testing.TB) []string {
	t.Helper()
	return prepare(t, "the cuDF headers", func(progress func(string)) ([]string, error) {
		return toolkit.EnsureCudfHeaders(context.Background(), toolkit.Options{Progress: progress})
	})
}

// prepare runs ensure with its steps in the test's log, says how long it
// took when it had work to do, and fails the test naming what is
// missing when it cannot.
func prepare[T any](t testing.TB, what string, ensure func(progress func(string)) (T, error)) T {
	t.Helper()
	start := time.Now()
	v, err := ensure(func(s string) { t.Log(s) })
	if err != nil {
		t.Fatalf("test setup: %s is needed here and could not be prepared: %v", what, err)
	}
	if d := time.Since(start); d > time.Second {
		t.Logf("%s ready in %s", what, d.Round(time.Second))
	}
	return v
}

// progressWriter is the terminal when there is one: go test holds back a
// package's own output until it ends, and a first setup takes minutes.
func progressWriter() io.Writer {
	if f, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
		return f
	}
	return os.Stderr
}

// RepoRoot is the folder of go.mod above the test's working directory.
func RepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above %s", dir)
		}
		dir = parent
	}
}
