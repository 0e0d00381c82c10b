// Package testsetup prepares what udfx's tests need on a fresh machine,
// so that `go test ./...` alone runs the whole suite: the Python
// environment with the pinned pyspark, pandas and pyarrow (created once
// under the user's cache folder and shared by every package and by udfx
// itself), linked as the repository's .venv where it has none.
package testsetup

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

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
