package spark

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/udfx/udfx/harness/runner/jvm"
	"github.com/udfx/udfx/internal/execpath"

	"github.com/udfx/udfx/harness/pyenv"
)

// Install is where Spark and its runtimes were found.
type Install struct {
	// Python is the interpreter the driver runs in; PythonPath, when not
	// empty, is what PYTHONPATH must hold for it to import pyspark
	// (SPARK_HOME's python/lib zips).
	Python     string
	PythonPath []string
	// SparkHome is SPARK_HOME when Spark came from there; empty for the
	// pyspark package, which finds its own.
	SparkHome string
	// Jars is the folder of Spark's jars: JVM UDFs compile against them.
	// Empty for a pyspark without jars (pyspark-client: Connect only).
	Jars         string
	SparkVersion string
	ScalaBinary  string
	// From says where Spark came from ("SPARK_HOME=/opt/spark", "pyspark in
	// /repo/.venv").
	From string

	// Java is the java launcher Spark starts (JAVA_HOME/bin/java, else java
	// on PATH); JavaVersion its version, JavaMajor its feature release.
	// Empty for a Connect session, which needs no local JVM.
	Java        string
	JavaHome    string
	JavaVersion string
	JavaMajor   int
}

// SparkMajor is the major version of SparkVersion (4 for "4.1.1").
func (in *Install) SparkMajor() int { return majorOf(in.SparkVersion) }

func majorOf(v string) int {
	head, _, _ := strings.Cut(v, ".")
	n, _ := strconv.Atoi(head)
	return n
}

// Find locates Spark (SPARK_HOME, else pyspark in the interpreter udfx
// uses) and, unless remote is set, a Java that version of Spark runs on.
// dir is where a .venv is looked for, walking up.
func Find(ctx context.Context, env func(string) string, dir string, remote bool) (*Install, error) {
	if env == nil {
		env = os.Getenv
	}
	in := &Install{}
	py, err := findPython(env, dir)
	if err != nil {
		return nil, err
	}
	in.Python = py
	if sh := env("SPARK_HOME"); sh != "" {
		if err := in.fromSparkHome(sh); err != nil {
			return nil, err
		}
	} else if err := in.fromPyspark(ctx); err != nil {
		return nil, err
	}
	if in.Jars == "" && !remote {
		return nil, &EnvError{What: "Spark", Msg: fmt.Sprintf("pyspark %s (%s) has no jars: it is the Connect-only client (pyspark-client), which cannot start a local or cluster Spark; install the full package (pip install pyspark==%s) or use a Spark Connect server (--spark-remote sc://host:15002)", in.SparkVersion, in.From, in.SparkVersion)}
	}
	if remote {
		return in, nil
	}
	if err := in.findJava(ctx, env); err != nil {
		return nil, err
	}
	return in, nil
}

// findPython picks the interpreter as the Python runner does: $UDFX_PYTHON,
// else a .venv/bin/python in dir or a folder above it, else python3.
func findPython(env func(string) string, dir string) (string, error) {
	if f, ok := pyenv.Find(env, dir); ok {
		found, err := exec.LookPath(f.Python)
		if err != nil {
			if f.From == "UDFX_PYTHON" {
				return "", &EnvError{What: "Python", Msg: fmt.Sprintf("UDFX_PYTHON is %s, which is not an interpreter (%v); point it at a Python 3.11+ that has pyspark, or unset it and run udfx setup", f.Python, err)}
			}
			return "", &EnvError{What: "Python", Msg: fmt.Sprintf("%s (from %s) is not an interpreter (%v); recreate it, or run udfx setup", f.Python, f.From, err)}
		}
		return found, nil
	}
	p := execpath.Look("python3", env("PATH"))
	if p == "" {
		return "", &EnvError{What: "Python", Msg: "no Python: run udfx setup (it creates a Python environment with pyspark), or set UDFX_PYTHON to a Python 3.9+ that has pyspark"}
	}
	return p, nil
}

var sparkCoreRE = regexp.MustCompile(`^spark-core_(\d+\.\d+)-(.+)\.jar$`)

// jarsVersion reads Spark's and Scala's versions from the spark-core jar's
// name.
func jarsVersion(dir string) (spark, scala string, err error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return "", "", err
	}
	for _, e := range ents {
		if m := sparkCoreRE.FindStringSubmatch(e.Name()); m != nil {
			return m[2], m[1], nil
		}
	}
	return "", "", fmt.Errorf("%s has no spark-core jar", dir)
}

func (in *Install) fromSparkHome(sh string) error {
	in.SparkHome = sh
	in.From = "SPARK_HOME=" + sh
	in.Jars = filepath.Join(sh, "jars")
	v, scala, err := jarsVersion(in.Jars)
	if err != nil {
		return &EnvError{What: "Spark", Msg: fmt.Sprintf("SPARK_HOME is %s, which is not a Spark distribution (%v); point it at an unpacked Spark (its jars/ and python/lib/ folders), or unset it to use the pyspark package", sh, err)}
	}
	in.SparkVersion, in.ScalaBinary = v, scala
	lib := filepath.Join(sh, "python", "lib")
	zips, _ := filepath.Glob(filepath.Join(lib, "py4j-*-src.zip"))
	sort.Strings(zips)
	pz := filepath.Join(lib, "pyspark.zip")
	if _, err := os.Stat(pz); err != nil || len(zips) == 0 {
		return &EnvError{What: "Spark", Msg: fmt.Sprintf("SPARK_HOME=%s has no python/lib/pyspark.zip and py4j-*-src.zip; use a full Spark distribution", sh)}
	}
	in.PythonPath = []string{pz, zips[len(zips)-1]}
	return nil
}

// fromPyspark asks the interpreter where pyspark is, without importing it
// (which is slow).
func (in *Install) fromPyspark(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, in.Python, "-c",
		"import importlib.util, os; s = importlib.util.find_spec('pyspark'); print(os.path.dirname(s.origin) if s else '')").CombinedOutput()
	if err != nil {
		return &EnvError{What: "Python", Msg: fmt.Sprintf("cannot run %s: %v: %s", in.Python, err, strings.TrimSpace(string(out)))}
	}
	dir := strings.TrimSpace(string(out))
	if dir == "" {
		return &EnvError{What: "Spark", Msg: fmt.Sprintf("SPARK_HOME is not set and %s has no pyspark; install it (%s -m pip install pyspark==%s), set UDFX_PYTHON to a Python that has it, or set SPARK_HOME to a Spark distribution", in.Python, in.Python, PinnedVersion)}
	}
	in.From = "pyspark in " + in.Python
	if v, err := os.ReadFile(filepath.Join(dir, "version.py")); err == nil {
		if m := regexp.MustCompile(`__version__[^=]*=\s*["']([^"']+)["']`).FindSubmatch(v); m != nil {
			in.SparkVersion = string(m[1])
		}
	}
	jars := filepath.Join(dir, "jars")
	if v, scala, err := jarsVersion(jars); err == nil {
		in.Jars, in.SparkVersion, in.ScalaBinary = jars, v, scala
	}
	if in.SparkVersion == "" {
		return &EnvError{What: "Spark", Msg: fmt.Sprintf("cannot read pyspark's version in %s", dir)}
	}
	return nil
}

// javaSupported says which Java feature releases a Spark major version
// runs on, per its documentation: Spark 4 needs 17 or 21, Spark 3.5 runs
// on 8, 11 and 17.
func javaSupported(sparkMajor, java int) (bool, string) {
	switch {
	case sparkMajor >= 4:
		return java >= 17, "Java 17 or 21"
	case sparkMajor == 3:
		return java == 8 || java == 11 || java == 17, "Java 8, 11 or 17"
	}
	return java >= 8, "Java 8 or later"
}

var javaVersionRE = regexp.MustCompile(`version "([^"]+)"`)

func (in *Install) findJava(ctx context.Context, env func(string) string) error {
	if jh := env("JAVA_HOME"); jh != "" {
		j := filepath.Join(jh, "bin", "java")
		if st, err := os.Stat(j); err != nil || st.IsDir() {
			return &EnvError{What: "Java", Msg: fmt.Sprintf("JAVA_HOME is %s, which has no bin/java; point it at a JDK or JRE (Spark %s needs %s), or unset it to use java on PATH", jh, in.SparkVersion, wantJava(in.SparkMajor()))}
		}
		in.Java, in.JavaHome = j, jh
	} else {
		j := execpath.Look("java", env("PATH"))
		if j == "" {
			return &EnvError{What: "Java", Msg: fmt.Sprintf("no Java: JAVA_HOME is not set and there is no java on PATH; Spark %s needs %s (e.g. apt-get install openjdk-17-jdk-headless, then set JAVA_HOME)", in.SparkVersion, wantJava(in.SparkMajor()))}
		}
		in.Java = j
		if real, err := filepath.EvalSymlinks(j); err == nil {
			in.JavaHome = filepath.Dir(filepath.Dir(real))
		}
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, in.Java, "-version").CombinedOutput()
	if err != nil {
		return &EnvError{What: "Java", Msg: fmt.Sprintf("%s -version failed (%v): %s", in.Java, err, firstLine(string(out)))}
	}
	m := javaVersionRE.FindStringSubmatch(string(out))
	if m == nil {
		return &EnvError{What: "Java", Msg: fmt.Sprintf("cannot read the version from %s -version: %s", in.Java, firstLine(string(out)))}
	}
	in.JavaVersion = m[1]
	in.JavaMajor = jvm.JavaMajor(m[1])
	if ok, want := javaSupported(in.SparkMajor(), in.JavaMajor); !ok {
		return &EnvError{What: "Java", Msg: fmt.Sprintf("%s is Java %s, and Spark %s runs on %s; set JAVA_HOME to such a JDK", in.Java, in.JavaVersion, in.SparkVersion, want)}
	}
	return nil
}

func wantJava(sparkMajor int) string {
	_, want := javaSupported(sparkMajor, 0)
	return want
}

func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}
