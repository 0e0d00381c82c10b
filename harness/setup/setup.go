// Package setup checks what udfx needs on a machine and says, for each
// thing missing, what it is for and how to get it. What can be fetched
// (the Python environment with pyspark, the Maven artifacts) udfx fetches
// itself; what cannot (a JDK, Python 3, Maven) is checked up front here,
// with one clear message each, instead of failing deep inside a run.
package setup

import (
	"context"
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"strings"

	"github.com/udfx/udfx/harness/pyenv"
	"github.com/udfx/udfx/harness/runner/jvm"
	"github.com/udfx/udfx/internal/sandbox"
)

// System is what the checks look at; tests replace it with a fake
// machine.
type System struct {
	// LookPath finds a program (exec.LookPath).
	LookPath func(name string) (string, error)
	// Output runs a program and returns its combined output.
	Output func(ctx context.Context, name string, args ...string) ([]byte, error)
	// Getenv reads the environment.
	Getenv func(string) string
}

// Host is the real machine.
func Host(getenv func(string) string) System {
	return System{
		LookPath: exec.LookPath,
		Output: func(ctx context.Context, name string, args ...string) ([]byte, error) {
			return exec.CommandContext(ctx, name, args...).CombinedOutput()
		},
		Getenv: getenv,
	}
}

// Check is one prerequisite's state.
type Check struct {
	Name string `json:"name"`
	// OK is false when the prerequisite is missing or unusable.
	OK bool `json:"ok"`
	// Found says what was found ("java 17.0.15 at /usr/bin/java").
	Found string `json:"found,omitempty"`
	// Problem says what is wrong, what it is needed for and how to fix
	// it; empty when OK.
	Problem string `json:"problem,omitempty"`
	// Optional prerequisites only serve some features; a missing one
	// does not fail the setup.
	Optional bool `json:"optional,omitempty"`
}

// MinJava is the oldest JDK Spark 4 runs on.
const MinJava = 17

// Checks looks at the JDK (java and javac), Python 3 with its venv
// module, Maven (optional: only compiling RapidsUDF classes needs it) and
// bubblewrap (optional: without it the original runs uncontained).
func Checks(ctx context.Context, sys System) []Check {
	return []Check{checkJava(ctx, sys), checkJavac(sys), checkPython(ctx, sys), checkMaven(sys), checkBubblewrap(ctx, sys)}
}

var javaVersionRE = regexp.MustCompile(`version "([^"]+)"`)

func javaPath(sys System) (string, string) {
	if jh := sys.Getenv("JAVA_HOME"); jh != "" {
		return jh + "/bin/java", "JAVA_HOME=" + jh
	}
	p, err := sys.LookPath("java")
	if err != nil {
		return "", ""
	}
	return p, "PATH"
}

func checkJava(ctx context.Context, sys System) Check {
	c := Check{Name: "JDK (java)"}
	java, from := javaPath(sys)
	if java == "" {
		c.Problem = fmt.Sprintf("no java on PATH and JAVA_HOME is not set: udfx runs Scala and Java UDFs in a JVM, and Spark 4 needs Java %d or 21; install a JDK (on Debian or Ubuntu: apt-get install openjdk-17-jdk-headless)", MinJava)
		return c
	}
	out, err := sys.Output(ctx, java, "-version")
	if err != nil {
		c.Problem = fmt.Sprintf("%s (from %s) does not run (%v): point JAVA_HOME at a JDK %d or 21, or unset it to use java on PATH", java, from, err, MinJava)
		return c
	}
	m := javaVersionRE.FindStringSubmatch(string(out))
	if m == nil {
		c.Problem = fmt.Sprintf("%s -version does not say its version (%q)", java, firstLine(out))
		return c
	}
	major := jvm.JavaMajor(m[1])
	c.Found = fmt.Sprintf("java %s at %s", m[1], java)
	if major < MinJava {
		c.Problem = fmt.Sprintf("%s is Java %d; Spark 4 needs Java %d or 21: install a newer JDK (on Debian or Ubuntu: apt-get install openjdk-17-jdk-headless) and put it first on PATH or in JAVA_HOME", java, major, MinJava)
		return c
	}
	c.OK = true
	return c
}

func checkJavac(sys System) Check {
	c := Check{Name: "JDK (javac)"}
	name := "javac"
	if jh := sys.Getenv("JAVA_HOME"); jh != "" {
		name = jh + "/bin/javac"
	}
	p, err := sys.LookPath(name)
	if err != nil {
		c.Problem = "no " + name + " (on PATH or in JAVA_HOME): udfx compiles Java UDFs and its call drivers with javac, so a JRE is not enough; install the full JDK (on Debian or Ubuntu: apt-get install openjdk-17-jdk-headless)"
		return c
	}
	c.Found, c.OK = p, true
	return c
}

var pyVersionRE = regexp.MustCompile(`Python (\d+)\.(\d+)`)

func checkPython(ctx context.Context, sys System) Check {
	c := Check{Name: "Python 3"}
	if p := sys.Getenv("UDFX_PYTHON"); p != "" {
		c.Found, c.OK = p+" (UDFX_PYTHON)", true
		return c
	}
	p, err := sys.LookPath("python3")
	if err != nil {
		c.Problem = fmt.Sprintf("no python3 on PATH: udfx runs Python UDFs in CPython and starts Spark through pyspark; install Python %d.%d or newer (on Debian or Ubuntu: apt-get install python3 python3-venv)", pyenv.MinPython[0], pyenv.MinPython[1])
		return c
	}
	out, err := sys.Output(ctx, p, "--version")
	m := pyVersionRE.FindStringSubmatch(string(out))
	if err != nil || m == nil {
		c.Problem = fmt.Sprintf("%s --version does not say a CPython version (%q): put a CPython %d.%d or newer first on PATH", p, firstLine(out), pyenv.MinPython[0], pyenv.MinPython[1])
		return c
	}
	major, _ := strconv.Atoi(m[1])
	minor, _ := strconv.Atoi(m[2])
	c.Found = fmt.Sprintf("python %d.%d at %s", major, minor, p)
	if major != pyenv.MinPython[0] || minor < pyenv.MinPython[1] {
		c.Problem = fmt.Sprintf("%s is Python %d.%d; udfx's pinned pyspark 4.1 and numpy need %d.%d or newer: install a newer Python 3 and put it first on PATH", p, major, minor, pyenv.MinPython[0], pyenv.MinPython[1])
		return c
	}
	if out, err := sys.Output(ctx, p, "-c", "import venv, ensurepip"); err != nil {
		c.Problem = fmt.Sprintf("%s has no venv module with ensurepip (%s): udfx creates its Python environment with it; on Debian or Ubuntu: apt-get install python3-venv", p, firstLine(out))
		return c
	}
	c.OK = true
	return c
}

func checkMaven(sys System) Check {
	c := Check{Name: "Maven (mvn)", Optional: true}
	p, err := sys.LookPath("mvn")
	if err != nil {
		c.Problem = "no mvn on PATH: only needed to fetch the cuDF and RAPIDS jars that the generated RapidsUDF classes are compiled against (the columnar and CUDA targets, and their tests); on Debian or Ubuntu: apt-get install maven"
		return c
	}
	c.Found, c.OK = p, true
	return c
}

func checkBubblewrap(ctx context.Context, sys System) Check {
	c := Check{Name: "bubblewrap (bwrap)", Optional: true}
	name := "bwrap"
	if v := sys.Getenv(sandbox.BwrapVar); v != "" {
		name = v
	}
	p, err := sys.LookPath(name)
	if err != nil {
		c.Problem = fmt.Sprintf("no %s: udfx contains the original UDF it runs (the repository's code) with bubblewrap, a read-only file system and no network; without it the original runs with your permissions (--sandbox auto says so, --sandbox on refuses); on Debian or Ubuntu: apt-get install %s", name, sandbox.Package)
		return c
	}
	argv := sandbox.ProbeArgs(p)
	out, err := sys.Output(ctx, argv[0], argv[1:]...)
	if err != nil || !sandbox.ProbeOK(out) {
		c.Problem = fmt.Sprintf("%s cannot start a contained process here (%s): a container without user namespaces, or one that forbids mounting /proc; the original then runs with your permissions (--sandbox auto says so, --sandbox on refuses)", p, firstLine(out))
		return c
	}
	c.Found, c.OK = fmt.Sprintf("%s at %s", firstLine(out), p), true
	return c
}

func firstLine(b []byte) string {
	s := strings.TrimSpace(string(b))
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

// Missing returns the checks that fail and are not optional.
func Missing(checks []Check) []Check {
	var out []Check
	for _, c := range checks {
		if !c.OK && !c.Optional {
			out = append(out, c)
		}
	}
	return out
}
