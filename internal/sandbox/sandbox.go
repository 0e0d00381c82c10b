// Package sandbox contains the processes that compile and run a user's
// original UDF. udfx runs the original for real, and an original is code
// from the repository: it could write anywhere the user can, open the
// network or start processes that outlive the run. Under bubblewrap
// (bwrap) it sees the whole file system read-only except the folders its
// runner writes, a private empty /tmp, no network (a network namespace of
// its own, with only a loopback, and no Unix sockets: a seccomp filter),
// its own process, IPC and session namespaces, and no capabilities, so
// that even as root it cannot remount anything writable.
//
// This package is the one place that decides: Mode is what the user asked
// for (--sandbox auto|on|off), Available whether bwrap works on this
// machine, Decide the outcome for a runner, Decision.Start starts a
// runner's process accordingly, and Args is the bwrap command line.
package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Mode is what --sandbox asked for.
type Mode string

const (
	// Auto contains the original where bubblewrap works and runs it
	// uncontained, with a note, where it does not. The zero Mode is Auto.
	Auto Mode = "auto"
	// On contains the original or refuses to run it.
	On Mode = "on"
	// Off trusts the repository: the original runs with the user's
	// permissions, as the repository's own tests would.
	Off Mode = "off"
)

// ParseMode reads a --sandbox value.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(s); m {
	case Auto, On, Off:
		return m, nil
	}
	return "", fmt.Errorf("unknown --sandbox %q: want auto, on or off", s)
}

// BwrapVar names the environment variable that points udfx at a bwrap
// other than the one on PATH.
const BwrapVar = "UDFX_BWRAP"

// Package is the Debian and Ubuntu package that has bwrap.
const Package = "bubblewrap"

// UnavailableError says bwrap cannot contain a process here.
type UnavailableError struct {
	// Reason is short, for a report: "bubblewrap not found".
	Reason string
	// Detail says what was tried.
	Detail string
	// Installed is true when bwrap is there but fails.
	Installed bool
}

func (e *UnavailableError) Error() string {
	fix := fmt.Sprintf("install it (on Debian or Ubuntu: apt-get install %s)", Package)
	if e.Installed {
		fix = "it needs namespaces (user, mount, pid, network) that this machine or container refuses; allow them"
	}
	return fmt.Sprintf("%s (%s): udfx contains the original with bubblewrap; %s, or pass --sandbox off to run the original with your permissions", e.Reason, e.Detail, fix)
}

// Tool is a bwrap that passed the probe.
type Tool struct {
	Path    string
	Version string // "bubblewrap 0.8.0"
}

type probe struct {
	once sync.Once
	tool Tool
	err  error
}

var probes sync.Map // bwrap path → *probe

// Available finds bwrap ($UDFX_BWRAP, else bwrap on PATH) and checks,
// once per process and path, that it can start a contained process here:
// a container without user namespaces, or one that forbids mounting a
// fresh /proc, has a bwrap that cannot.
func Available() (Tool, error) {
	if runtime.GOOS != "linux" {
		return Tool{}, &UnavailableError{Reason: "no sandbox on " + runtime.GOOS, Detail: "bubblewrap needs Linux namespaces"}
	}
	name, from := "bwrap", "on PATH"
	if v := os.Getenv(BwrapVar); v != "" {
		name, from = v, "in "+BwrapVar
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return Tool{}, &UnavailableError{Reason: "bubblewrap not found", Detail: fmt.Sprintf("no %s %s", name, from)}
	}
	p, _ := probes.LoadOrStore(path, &probe{})
	pr := p.(*probe)
	pr.once.Do(func() { pr.tool, pr.err = run(path) })
	return pr.tool, pr.err
}

// ProbeArgs is the command line of the probe of the namespaces: bwrap
// runs itself, contained as a runner's process would be but for the
// seccomp filter (which needs a descriptor), to print its version
// ("bubblewrap 0.8.0").
func ProbeArgs(bwrap string) []string {
	return Args(bwrap, "/", Paths{}, -1, []string{bwrap, "--version"})
}

// ProbeOK reports whether the probe's output is bwrap's version.
func ProbeOK(out []byte) bool {
	return strings.HasPrefix(strings.TrimSpace(string(out)), "bubblewrap ")
}

// run is the full probe: bwrap runs itself contained exactly as a
// runner's process is, seccomp filter included.
func run(path string) (Tool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, path, "--version")
	cmd.Dir = "/"
	cmd.Stdout, cmd.Stderr = &out, &out
	err := start(path, cmd, Paths{})
	if err == nil {
		err = cmd.Wait()
	}
	text := strings.TrimSpace(out.String())
	if err != nil || !ProbeOK(out.Bytes()) {
		if text == "" && err != nil {
			text = err.Error()
		}
		first, _, _ := strings.Cut(text, "\n")
		return Tool{}, &UnavailableError{Reason: "bubblewrap does not work here", Detail: fmt.Sprintf("%s failed to start a contained process: %s", path, first), Installed: true}
	}
	return Tool{Path: path, Version: text}, nil
}

// Decision is how a runner's processes run: contained by a Tool, or not,
// for a reason.
type Decision struct {
	tool   Tool
	reason string
}

// Decide applies m to this machine. On where bwrap is unusable is an
// *UnavailableError; Auto there is an uncontained Decision that says why.
func Decide(m Mode) (Decision, error) {
	if m == Off {
		return Decision{reason: "--sandbox off"}, nil
	}
	t, err := Available()
	if err != nil {
		var ue *UnavailableError
		if m != On && errors.As(err, &ue) {
			return Decision{reason: ue.Reason}, nil
		}
		return Decision{}, err
	}
	return Decision{tool: t}, nil
}

// Contained reports whether processes run in the sandbox.
func (d Decision) Contained() bool { return d.tool.Path != "" }

// Reason says why d is not Contained; "" when it is.
func (d Decision) Reason() string { return d.reason }

// String says, for a report, whether and how the original was contained.
func (d Decision) String() string {
	if d.Contained() {
		return "sandboxed (bubblewrap: read-only file system, private /tmp, no network)"
	}
	if d.reason == "" {
		return "not sandboxed"
	}
	return "not sandboxed (" + d.reason + ")"
}

// OnSpark is what a report says of an original that --engine spark ran:
// Spark's driver and workers talk to udfx over local ports, or run on a
// cluster, and are not contained.
const OnSpark = "not sandboxed (Spark's own workers run it)"

// Paths are what a contained process needs beyond the read-only root.
type Paths struct {
	// Writable folders are bound read-write: what the process writes (a
	// compiler's output folder).
	Writable []string
	// Readable are paths the process reads (its program, source, class
	// path, working folder). Only those under /tmp matter: the private
	// /tmp hides them unless they are bound back, read-only.
	Readable []string
}

// Start starts cmd, contained when d is: bwrap becomes the program and
// cmd's program and arguments its command, in cmd's working folder (the
// process's own when cmd.Dir is empty). cmd's environment and its other
// settings (process group, pipes, cancellation) are kept; a
// process-group kill of cmd reaches bwrap, whose death ends everything in
// the sandbox. Wait for cmd as usual.
func (d Decision) Start(cmd *exec.Cmd, p Paths) error {
	if !d.Contained() || cmd.Err != nil {
		return cmd.Start()
	}
	return start(d.tool.Path, cmd, p)
}

func start(bwrap string, cmd *exec.Cmd, p Paths) error {
	dir := cmd.Dir
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return fmt.Errorf("sandbox: %w", err)
		}
		dir = wd
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	prog := cmd.Path
	if !filepath.IsAbs(prog) && strings.ContainsRune(prog, filepath.Separator) {
		prog = filepath.Join(dir, prog)
	}
	p.Readable = append(append([]string{}, p.Readable...), dir, prog)
	seccomp := -1
	if nativeFilter != nil {
		// bwrap reads the filter from a descriptor; the pipe holds it
		// whole (it is far below a pipe's capacity).
		r, w, err := os.Pipe()
		if err != nil {
			return fmt.Errorf("sandbox: %w", err)
		}
		defer r.Close()
		_, err = w.Write(nativeFilter)
		if cerr := w.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("sandbox: %w", err)
		}
		seccomp = 3 + len(cmd.ExtraFiles)
		cmd.ExtraFiles = append(cmd.ExtraFiles, r)
	}
	env := cmd.Env
	if env == nil {
		env = os.Environ()
	}
	launch, err := Launch(launchForks(), env, append([]string{prog}, cmd.Args[1:]...))
	if err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	argv := Args(bwrap, dir, p, seccomp, launch)
	// The launcher's shells run with no environment: the command's is
	// handed to env(1) as arguments, whole (a shell would drop the
	// variables whose names are not shell names).
	cmd.Path, cmd.Args, cmd.Env = argv[0], argv, []string{}
	return cmd.Start()
}

// launcher is the init of the sandbox's process namespace. The original
// must not be able to tell it is contained by a cheap look at itself: as
// the namespace's init it would be PID 1 with parent 0, a check a module
// can make at import to behave one way under verify and another in the
// job. So init forks a number of short-lived children, which moves the
// next PID on by a random amount, and starts a shell that starts the
// command through env(1) with the command's environment: the command gets
// an ordinary-looking PID whose parent is not init, and exactly its
// environment; its exit status is passed up as the exit of init, which
// bwrap returns. When init ends, the kernel ends the namespace.
const launcher = `n=$1; env=$2; shift 2
i=0
while [ "$i" -lt "$n" ]; do ( : ); i=$((i+1)); done
/bin/sh -c '"$@"; exit $?' udfx-run "$env" -i "$@"
exit $?`

// Launch is argv started by the launcher after n forks, with the
// environment env (NAME=VALUE entries).
func Launch(n int, env, argv []string) ([]string, error) {
	envTool, err := exec.LookPath("env")
	if err != nil {
		return nil, fmt.Errorf("env(1) starts the contained command: %w", err)
	}
	if len(argv) == 0 {
		return nil, errors.New("no command to start contained")
	}
	if strings.ContainsRune(argv[0], '=') {
		return nil, fmt.Errorf("cannot start %q contained: env(1) would read a program name holding '=' as a variable", argv[0])
	}
	out := []string{"/bin/sh", "-c", launcher, "udfx-init", strconv.Itoa(n), envTool}
	for _, kv := range env {
		// env(1) would read an entry starting with '-' as an option
		// and one without '=' as the program.
		if strings.HasPrefix(kv, "-") || !strings.ContainsRune(kv, '=') {
			continue
		}
		out = append(out, kv)
	}
	return append(out, argv...), nil
}

// launchForks is how far the launcher moves the PID on: enough that the
// command's PID says nothing (a Spark worker in a container has a small
// PID too), few enough to cost well under a second.
func launchForks() int { return 40 + rand.IntN(400) }

// Args is the bwrap command line that runs argv contained, in dir, with
// p's folders bound and, unless seccomp is negative, the seccomp filter
// read from that descriptor. The order matters, bwrap mounting each in
// turn: the read-only root, a fresh /dev and /proc, the private /tmp,
// then the folders under /tmp that must be read, then the writable ones,
// parents before children.
func Args(bwrap, dir string, p Paths, seccomp int, argv []string) []string {
	args := []string{bwrap,
		"--ro-bind", "/", "/",
		"--dev", "/dev",
		"--proc", "/proc",
		"--tmpfs", "/tmp",
	}
	for _, r := range underTmp(p.Readable) {
		args = append(args, "--ro-bind", r, r)
	}
	var w []string
	for _, d := range p.Writable {
		if d != "" {
			w = append(w, clean(d))
		}
	}
	slices.Sort(w)
	for _, d := range slices.Compact(w) {
		args = append(args, "--bind", d, d)
	}
	args = append(args,
		"--unshare-net", "--unshare-pid", "--unshare-ipc",
		// The command (the launcher, in Start) is the process
		// namespace's init, bwrap's own child: bwrap waits for it and
		// exits with its status. With bwrap's reaper as init instead,
		// bwrap exits as soon as the reaper reports the status, the
		// reaper is left to udfx (the subreaper of
		// runner.SetProcessGroup), and nobody reaps it. When the command
		// ends, the kernel ends the whole namespace.
		"--as-pid-1",
		// A session of its own: the original cannot reach the user's
		// terminal (TIOCSTI).
		"--new-session",
		"--die-with-parent",
		// Root in the sandbox without capabilities cannot remount the
		// read-only file system writable.
		"--cap-drop", "ALL")
	if seccomp >= 0 {
		args = append(args, "--seccomp", strconv.Itoa(seccomp))
	}
	args = append(args, "--chdir", dir, "--")
	return append(args, argv...)
}

// underTmp maps the paths under /tmp to the entries of /tmp that hold
// them, so that a tree kept in /tmp (a repository, a test's temporary
// folder) stays whole to the process; /tmp itself when a path is /tmp:
// the process then sees the real /tmp, read-only, and no private one.
func underTmp(paths []string) []string {
	var out []string
	var all []string
	for _, p := range paths {
		if p != "" {
			// A link on the way (a test repository's .venv linking to
			// the checkout's) must resolve inside the sandbox too.
			all = append(append(all, p), linkTargets(p, 0)...)
		}
	}
	for _, p := range all {
		rest, ok := strings.CutPrefix(clean(p), "/tmp")
		if !ok || (rest != "" && rest[0] != '/') {
			continue
		}
		first, _, _ := strings.Cut(strings.TrimPrefix(rest, "/"), "/")
		if first == "" {
			return []string{"/tmp"}
		}
		out = append(out, "/tmp/"+first)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func clean(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return filepath.Clean(p)
}

// linkTargets lists the targets of the symbolic links met on the way to p,
// in order, following each target's own links (at most 40, as the kernel).
func linkTargets(p string, depth int) []string {
	if depth >= 40 {
		return nil
	}
	parts := strings.Split(strings.TrimPrefix(clean(p), "/"), "/")
	cur := "/"
	for i, part := range parts {
		cur = filepath.Join(cur, part)
		fi, err := os.Lstat(cur)
		if err != nil {
			return nil
		}
		if fi.Mode()&os.ModeSymlink == 0 {
			continue
		}
		t, err := os.Readlink(cur)
		if err != nil {
			return nil
		}
		if !filepath.IsAbs(t) {
			t = filepath.Join(filepath.Dir(cur), t)
		}
		rest := filepath.Join(append([]string{t}, parts[i+1:]...)...)
		return append([]string{t}, linkTargets(rest, depth+1)...)
	}
	return nil
}
