// Package pyenv finds the Python interpreter udfx runs originals and Spark
// with, and creates udfx's own managed environment (pinned pyspark, pandas,
// pyarrow) when a machine has none, so that a first run needs no manual
// setup step.
//
// The order of authority is the same everywhere: $UDFX_PYTHON, then a
// .venv in the UDF's folder or one above it, then the managed environment
// under the user's cache folder.
package pyenv

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/udfx/udfx/harness/filelock"
)

// Requirements pins what the managed environment installs. CI, the tests
// and `udfx setup` all install exactly this file.
//
//go:embed requirements.txt
var Requirements []byte

// readyFile marks a managed environment whose install finished; a folder
// without it is a broken attempt and is rebuilt.
const readyFile = "udfx-ready"

// MinPython is the oldest CPython the pins install on: pyspark 4.1 needs
// 3.10, and numpy 2.3 needs 3.11.
var MinPython = [2]int{3, 11}

// Found is an interpreter and where it came from, for messages and
// reports ("UDFX_PYTHON", ".venv in /repo", "udfx's environment in …").
type Found struct {
	Python string
	From   string
}

// Find returns the interpreter udfx uses for a UDF in dir, or ok=false
// when there is none of udfx's kinds (callers may still fall back to a
// python3 on PATH). getenv reads the environment (os.Getenv when nil).
func Find(getenv func(string) string, dir string) (Found, bool) {
	if getenv == nil {
		getenv = os.Getenv
	}
	if p := getenv("UDFX_PYTHON"); p != "" {
		return Found{Python: p, From: "UDFX_PYTHON"}, true
	}
	if p, ok := VenvAbove(dir); ok {
		return Found{Python: p, From: ".venv in " + filepath.Dir(filepath.Dir(filepath.Dir(p)))}, true
	}
	if m, err := ManagedDir(); err == nil && ready(m, Requirements) {
		return Found{Python: filepath.Join(m, "bin", "python"), From: "udfx's environment in " + m}, true
	}
	return Found{}, false
}

// WithPython is getenv with UDFX_PYTHON set to python: what Find, the
// runners and the Spark engine read then names that interpreter, whatever
// .venv lies above the UDF.
func WithPython(getenv func(string) string, python string) func(string) string {
	return func(k string) string {
		if k == "UDFX_PYTHON" {
			return python
		}
		return getenv(k)
	}
}

// VenvAbove returns the .venv/bin/python in dir or the nearest folder
// above it.
func VenvAbove(dir string) (string, bool) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", false
	}
	for d := abs; ; d = filepath.Dir(d) {
		p := filepath.Join(d, ".venv", "bin", "python")
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, true
		}
		if filepath.Dir(d) == d {
			return "", false
		}
	}
}

// ManagedDir is the folder of the managed environment for the pinned
// requirements: a new pin set gets a new folder, so an old one is never
// half-upgraded in place.
func ManagedDir() (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache folder for udfx's Python environment (%w); set UDFX_PYTHON to a Python with pyspark instead", err)
	}
	return managedDirIn(cache, Requirements), nil
}

// ManagedPython is the managed environment's interpreter, whether or not
// it exists yet.
func ManagedPython() (string, error) {
	d, err := ManagedDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "bin", "python"), nil
}

// ready says whether the environment in dir finished installing reqs.
func ready(dir string, reqs []byte) bool {
	b, err := os.ReadFile(filepath.Join(dir, readyFile))
	return err == nil && bytes.Equal(b, reqs)
}

// Options of Ensure.
type Options struct {
	// Dir is the environment's folder; ManagedDir when empty.
	Dir string
	// Requirements to install; the embedded pins when nil.
	Requirements []byte
	// BasePython creates the environment; python3 on PATH when empty.
	BasePython string
	// Progress hears each step (nil: quiet).
	Progress func(step string)
}

// PrereqError says what is missing on the machine and how to get it.
type PrereqError struct {
	What string
	Msg  string
}

func (e *PrereqError) Error() string { return e.What + ": " + e.Msg }

// Ensure makes sure the managed environment exists and is complete, and
// returns its interpreter. Concurrent callers (parallel test packages, two
// udfx runs) wait for one another through a lock file; the one that holds
// it builds, the others then find it ready.
func Ensure(ctx context.Context, opts Options) (string, error) {
	if opts.Requirements == nil {
		opts.Requirements = Requirements
	}
	if opts.Dir == "" {
		d, err := ManagedDir()
		if err != nil {
			return "", err
		}
		opts.Dir = d
	}
	progress := opts.Progress
	if progress == nil {
		progress = func(string) {}
	}
	python := filepath.Join(opts.Dir, "bin", "python")
	isReady := func() bool { return ready(opts.Dir, opts.Requirements) }
	if isReady() {
		return python, nil
	}
	if err := os.MkdirAll(filepath.Dir(opts.Dir), 0o755); err != nil {
		return "", fmt.Errorf("udfx's Python environment: %w", err)
	}
	unlock, err := filelock.Lock(ctx, opts.Dir+".lock", func() { progress("waiting for another udfx run that is creating the Python environment") })
	if err != nil {
		return "", fmt.Errorf("udfx's Python environment: lock %s: %w", opts.Dir+".lock", err)
	}
	defer unlock()
	if isReady() {
		return python, nil
	}
	base, err := CheckBasePython(ctx, opts.BasePython)
	if err != nil {
		return "", err
	}
	if err := os.RemoveAll(opts.Dir); err != nil {
		return "", fmt.Errorf("udfx's Python environment: remove the unfinished %s: %w", opts.Dir, err)
	}
	progress(fmt.Sprintf("creating udfx's Python environment in %s (first run only)", opts.Dir))
	names := pinnedNames(opts.Requirements)
	args := []string{"-m", "venv", opts.Dir}
	if len(names) == 0 {
		// Nothing to install, so no pip: ensurepip is most of venv's time.
		args = append(args, "--without-pip")
	}
	if out, err := exec.CommandContext(ctx, base, args...).CombinedOutput(); err != nil {
		msg := strings.TrimSpace(string(out))
		if strings.Contains(msg, "ensurepip") {
			return "", &PrereqError{What: "Python", Msg: fmt.Sprintf("%s cannot create a virtual environment (its venv module lacks ensurepip); on Debian or Ubuntu: apt-get install python3-venv", base)}
		}
		return "", fmt.Errorf("udfx's Python environment: %s -m venv %s: %v: %s", base, opts.Dir, err, msg)
	}
	reqs := filepath.Join(opts.Dir, "requirements.txt")
	if err := os.WriteFile(reqs, opts.Requirements, 0o644); err != nil {
		return "", fmt.Errorf("udfx's Python environment: %w", err)
	}
	if len(names) > 0 {
		progress("installing " + strings.Join(names, ", ") + " with pip")
		if err := pipInstall(ctx, python, reqs, progress); err != nil {
			return "", err
		}
	}
	if err := os.WriteFile(filepath.Join(opts.Dir, readyFile), opts.Requirements, 0o644); err != nil {
		return "", fmt.Errorf("udfx's Python environment: %w", err)
	}
	return python, nil
}

// pipInstall runs pip and relays which package it is fetching, so a
// first run that downloads a few hundred MB does not look stuck.
func pipInstall(ctx context.Context, python, reqs string, progress func(string)) error {
	cmd := exec.CommandContext(ctx, python, "-m", "pip", "install", "--disable-pip-version-check", "--no-input", "--progress-bar", "off", "-r", reqs)
	cmd.WaitDelay = 5 * time.Second
	var tail bytes.Buffer
	pr, pw, err := os.Pipe()
	if err != nil {
		return err
	}
	cmd.Stdout, cmd.Stderr = pw, pw
	if err := cmd.Start(); err != nil {
		pw.Close()
		pr.Close()
		return fmt.Errorf("udfx's Python environment: pip: %w", err)
	}
	pw.Close()
	sc := bufio.NewScanner(pr)
	for sc.Scan() {
		line := sc.Text()
		tail.WriteString(line + "\n")
		if tail.Len() > 8<<10 {
			tail.Next(tail.Len() - 8<<10)
		}
		if pkg, ok := strings.CutPrefix(line, "Collecting "); ok {
			progress("pip: fetching " + strings.Fields(pkg)[0])
		} else if strings.HasPrefix(line, "Installing collected packages") {
			progress("pip: installing")
		}
	}
	pr.Close()
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("udfx's Python environment: pip install -r %s failed (%v); its last lines:\n%s", reqs, err, strings.TrimSpace(tail.String()))
	}
	return nil
}

var pinRE = regexp.MustCompile(`^([A-Za-z0-9_.\-]+)==(\S+)`)

// pins lists the top-level pins as name and version, in file order.
func pins(reqs []byte) [][2]string {
	var out [][2]string
	for _, l := range strings.Split(string(reqs), "\n") {
		if m := pinRE.FindStringSubmatch(strings.TrimSpace(l)); m != nil {
			out = append(out, [2]string{m[1], m[2]})
		}
	}
	return out
}

// pinnedNames lists the top-level pins, for the progress line.
func pinnedNames(reqs []byte) []string {
	var names []string
	for _, p := range pins(reqs) {
		names = append(names, p[0])
	}
	return names
}

// Pinned is the version the environment installs of package name; empty
// when it is not pinned.
func Pinned(name string) string {
	for _, p := range pins(Requirements) {
		if p[0] == name {
			return p[1]
		}
	}
	return ""
}

var pyVersionRE = regexp.MustCompile(`Python (\d+)\.(\d+)`)

// CheckBasePython finds the Python that creates the environment and
// checks its version.
func CheckBasePython(ctx context.Context, base string) (string, error) {
	if base == "" {
		base = "python3"
	}
	p, err := exec.LookPath(base)
	if err != nil {
		return "", &PrereqError{What: "Python", Msg: fmt.Sprintf("no %s on PATH: install Python %d.%d or newer (on Debian or Ubuntu: apt-get install python3 python3-venv), or set UDFX_PYTHON to a Python that has pyspark", base, MinPython[0], MinPython[1])}
	}
	out, err := exec.CommandContext(ctx, p, "--version").CombinedOutput()
	if err != nil {
		return "", &PrereqError{What: "Python", Msg: fmt.Sprintf("%s --version failed: %v", p, err)}
	}
	m := pyVersionRE.FindStringSubmatch(string(out))
	if m == nil {
		return "", &PrereqError{What: "Python", Msg: fmt.Sprintf("%s is not CPython (it says %q)", p, strings.TrimSpace(string(out)))}
	}
	major, _ := strconv.Atoi(m[1])
	minor, _ := strconv.Atoi(m[2])
	if major != MinPython[0] || minor < MinPython[1] {
		return "", &PrereqError{What: "Python", Msg: fmt.Sprintf("%s is Python %d.%d; pyspark needs %d.%d or newer", p, major, minor, MinPython[0], MinPython[1])}
	}
	return p, nil
}

// SparkVersion is the pyspark version Requirements pins ("4.1.1"): the
// Spark udfx proves for when it runs the embedded engine or its own
// environment's Spark.
func SparkVersion() string { return pysparkPin(Requirements) }
