package jvm

import (
	"archive/zip"
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/internal/execpath"

	"github.com/udfx/udfx/harness/pyenv"
)

// MinJDK is the oldest JDK Spark 4 runs on.
const MinJDK = 17

// ScalaBinary is the Scala version Spark 4's jars are built for; the
// user's Scala source must be compiled by a 2.13 scalac to link with them.
// Spark 3.5's jars are Scala 2.12's (ScalaBinary35), and Tools.ScalaBinary
// is that of the jars found.
const ScalaBinary = "2.13"

// ScalaBinary35 is the Scala version of Spark 3.5's jars, the one older
// Spark udfx proves for (pyspark 3.5 brings its 2.12 compiler).
const ScalaBinary35 = "2.12"

// CompilerJVMFlags are the JVM options scalac runs with. A compile is a
// short run in which the optimizing JIT (C2) costs more than it saves:
// stopping at C1 took scalac on the ToFahrenheit example from 42-47 s to
// 23-30 s, and javac on the Java example from 15 s to 8 s, on a loaded
// 2-core machine. The JIT tier changes no compiled class.
var CompilerJVMFlags = []string{"-XX:TieredStopAtLevel=1"}

// JavacFlags are CompilerJVMFlags as javac's launcher takes them.
func JavacFlags() []string {
	var out []string
	for _, f := range CompilerJVMFlags {
		out = append(out, "-J"+f)
	}
	return out
}

// GeneratedJavacLint are javac's options for the Java udfx generates
// (RapidsUDF classes): every lint warning an error, but for the
// categories that say nothing about the generated code: serialVersionUID
// (serial), annotation processing, class files and class path entries of
// the jars compiled against, and a generated class that names an
// auxiliary class of the user's file (a non-public class beside another
// in Corpus.java), which warns only that javac could not find it by file
// name from sources; udfx compiles against the user's classes.
var GeneratedJavacLint = []string{
	"-Xlint:all", "-Xlint:-serial", "-Xlint:-processing", "-Xlint:-classfile", "-Xlint:-path", "-Xlint:-auxiliaryclass",
	"-Werror",
}

// Tools is what Toolchain found on this machine.
type Tools struct {
	// JavaHome is the JDK's folder; Java and Javac its launchers.
	JavaHome    string
	Java, Javac string
	// JDKVersion is the full version ("17.0.15"), JDKMajor its feature
	// release (17), JDKVendor the IMPLEMENTOR from the JDK's release file.
	JDKVersion string
	JDKMajor   int
	JDKVendor  string

	// ScalaJars are scala-compiler, scala-library and scala-reflect, in
	// that order, of ScalaBinary; empty when no such compiler was found.
	ScalaJars []string
	// ScalaBinary is the Scala version SparkJars are built for, which
	// the compiler must be: ScalaBinary, or ScalaBinary35 for Spark 3.5.
	ScalaBinary  string
	ScalaVersion string
	// ScalaFrom says where the compiler came from (SCALA_HOME, scalac on
	// PATH, SPARK_HOME, pyspark, the udfx cache).
	ScalaFrom string

	// SparkJars is the folder of Spark's jars (SPARK_HOME/jars or the
	// pyspark package's jars); empty when none was found.
	SparkJars    string
	SparkVersion string
	SparkFrom    string

	// Notes say what was looked for and not found (or found unusable),
	// for doctor-style messages.
	Notes []string
}

// Toolchain looks for a JDK, a Scala 2.13 compiler and Spark's jars, as
// New does for a UDF in the current folder. Only a missing or too old JDK
// is an error; what else is missing is in Tools.Notes.
func Toolchain(env func(string) string) (Tools, error) {
	wd, err := os.Getwd()
	if err != nil {
		wd = "."
	}
	cache, err := defaultCacheDir()
	if err != nil {
		cache = ""
	}
	return findTools(context.Background(), env, wd, cache)
}

func defaultCacheDir() (string, error) {
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache folder for compiled classes: %w", err)
	}
	return filepath.Join(d, "udfx", "jvm"), nil
}

func findTools(ctx context.Context, env func(string) string, startDir, cacheDir string) (Tools, error) {
	var t Tools
	if err := t.findJDK(ctx, env); err != nil {
		return t, err
	}
	t.findSpark(ctx, env, startDir)
	t.findScala(env, cacheDir)
	return t, nil
}

func (t *Tools) findJDK(ctx context.Context, env func(string) string) error {
	if jh := env("JAVA_HOME"); jh != "" {
		// An explicit JAVA_HOME is what the user wants: a broken one is
		// reported, not silently replaced by another JDK.
		if !execpath.IsExecutable(filepath.Join(jh, "bin", "javac")) || !execpath.IsExecutable(filepath.Join(jh, "bin", "java")) {
			return &runner.EnvError{What: "JDK", Msg: fmt.Sprintf("JAVA_HOME is %s, which has no bin/java and bin/javac; point it at a JDK %d or later (a JRE has no javac)", jh, MinJDK)}
		}
		t.JavaHome = jh
	} else {
		javac := execpath.Look("javac", env("PATH"))
		if javac == "" {
			return &runner.EnvError{What: "JDK", Msg: fmt.Sprintf("JAVA_HOME is not set and there is no javac on PATH; install a JDK %d or later (e.g. apt-get install openjdk-17-jdk-headless) and set JAVA_HOME", MinJDK)}
		}
		real, err := filepath.EvalSymlinks(javac)
		if err != nil {
			return &runner.EnvError{What: "JDK", Msg: fmt.Sprintf("cannot resolve %s: %v", javac, err)}
		}
		t.JavaHome = filepath.Dir(filepath.Dir(real))
		if !execpath.IsExecutable(filepath.Join(t.JavaHome, "bin", "java")) {
			return &runner.EnvError{What: "JDK", Msg: fmt.Sprintf("found %s but no java next to it in %s/bin", javac, t.JavaHome)}
		}
	}
	t.Java = filepath.Join(t.JavaHome, "bin", "java")
	t.Javac = filepath.Join(t.JavaHome, "bin", "javac")
	if err := t.jdkVersion(ctx); err != nil {
		return err
	}
	if t.JDKMajor < MinJDK {
		return &runner.EnvError{What: "JDK", Msg: fmt.Sprintf("%s is Java %s; Spark 4 needs Java %d or later", t.JavaHome, t.JDKVersion, MinJDK)}
	}
	return nil
}

var javaVersionRE = regexp.MustCompile(`version "([^"]+)"`)

// jdkVersion reads the JDK's release file, or asks java -version when it
// has none.
func (t *Tools) jdkVersion(ctx context.Context) error {
	if b, err := os.ReadFile(filepath.Join(t.JavaHome, "release")); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			k, v, ok := strings.Cut(line, "=")
			if !ok {
				continue
			}
			v = strings.Trim(strings.TrimSpace(v), `"`)
			switch k {
			case "JAVA_VERSION":
				t.JDKVersion = v
			case "IMPLEMENTOR":
				t.JDKVendor = v
			}
		}
	}
	if t.JDKVersion == "" {
		ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		out, err := exec.CommandContext(ctx, t.Java, "-version").CombinedOutput()
		if err != nil {
			return &runner.EnvError{What: "JDK", Msg: fmt.Sprintf("%s -version failed: %v: %s", t.Java, err, tail(string(out), 500))}
		}
		m := javaVersionRE.FindStringSubmatch(string(out))
		if m == nil {
			return &runner.EnvError{What: "JDK", Msg: fmt.Sprintf("cannot read the version from %s -version: %s", t.Java, tail(string(out), 500))}
		}
		t.JDKVersion = m[1]
	}
	t.JDKMajor = JavaMajor(t.JDKVersion)
	return nil
}

// JavaMajor reads the feature release from a Java version: "1.8.0_392"
// is 8, "17.0.15" is 17, "21" is 21.
func JavaMajor(v string) int {
	parts := strings.FieldsFunc(v, func(r rune) bool { return r == '.' || r == '_' || r == '-' || r == '+' })
	if len(parts) == 0 {
		return 0
	}
	n, _ := strconv.Atoi(parts[0])
	if n == 1 && len(parts) > 1 {
		n, _ = strconv.Atoi(parts[1])
	}
	return n
}

var sparkCoreRE = regexp.MustCompile(`^spark-core_(\d+\.\d+)-(.+)\.jar$`)

// sparkVersion checks that dir holds Spark's jars for Scala 2.13 (or
// Spark 3.5's for 2.12) and returns Spark's version and that Scala's.
func sparkVersion(dir string) (version, scala string, err error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return "", "", err
	}
	for _, e := range ents {
		if m := sparkCoreRE.FindStringSubmatch(e.Name()); m != nil {
			if m[1] != ScalaBinary && !(m[1] == ScalaBinary35 && strings.HasPrefix(m[2], "3.5.")) {
				return "", "", fmt.Errorf("%s holds Spark %s for Scala %s; udfx needs Spark 4 built for Scala %s, or Spark 3.5 for Scala %s", dir, m[2], m[1], ScalaBinary, ScalaBinary35)
			}
			return m[2], m[1], nil
		}
	}
	return "", "", fmt.Errorf("%s has no spark-core jar", dir)
}

func (t *Tools) findSpark(ctx context.Context, env func(string) string, startDir string) {
	try := func(dir, from string) bool {
		v, scala, err := sparkVersion(dir)
		if err != nil {
			t.Notes = append(t.Notes, fmt.Sprintf("Spark jars from %s: %v", from, err))
			return false
		}
		t.SparkJars, t.SparkVersion, t.SparkFrom, t.ScalaBinary = dir, v, from, scala
		return true
	}
	if sh := env("SPARK_HOME"); sh != "" && try(filepath.Join(sh, "jars"), "SPARK_HOME") {
		return
	}
	if py := env("UDFX_PYTHON"); py != "" {
		if dir, err := pysparkJars(ctx, py); err != nil {
			t.Notes = append(t.Notes, fmt.Sprintf("pyspark from UDFX_PYTHON=%s: %v", py, err))
		} else if try(dir, "pyspark ("+py+")") {
			return
		}
	}
	// A project virtualenv next to the source: look for its site-packages
	// directly, which is faster than starting its Python.
	for dir := startDir; ; {
		matches, _ := filepath.Glob(filepath.Join(dir, ".venv", "lib", "python*", "site-packages", "pyspark", "jars"))
		sort.Strings(matches)
		for _, m := range matches {
			if try(m, "pyspark ("+filepath.Join(dir, ".venv")+")") {
				return
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	if m, err := pyenv.ManagedDir(); err == nil {
		matches, _ := filepath.Glob(filepath.Join(m, "lib", "python*", "site-packages", "pyspark", "jars"))
		sort.Strings(matches)
		for _, jars := range matches {
			if try(jars, "pyspark (udfx's environment in "+m+")") {
				return
			}
		}
	}
	if py := execpath.Look("python3", env("PATH")); py != "" {
		if dir, err := pysparkJars(ctx, py); err != nil {
			t.Notes = append(t.Notes, fmt.Sprintf("pyspark from %s: %v", py, err))
		} else if try(dir, "pyspark ("+py+")") {
			return
		}
	}
	t.Notes = append(t.Notes, "no Spark jars: run udfx setup (it installs pyspark in udfx's own Python environment), set UDFX_PYTHON to a Python with pyspark 4, or set SPARK_HOME to a Spark 4 distribution")
}

// pysparkJars asks a Python where the pyspark package is, without
// importing it (which is slow).
func pysparkJars(ctx context.Context, python string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, python, "-c",
		"import importlib.util, os; s = importlib.util.find_spec('pyspark'); print(os.path.dirname(s.origin) if s else '')").Output()
	if err != nil {
		return "", fmt.Errorf("cannot ask %s for pyspark: %w", python, err)
	}
	dir := strings.TrimSpace(string(out))
	if dir == "" {
		return "", errors.New("pyspark is not installed there")
	}
	return filepath.Join(dir, "jars"), nil
}

func (t *Tools) findScala(env func(string) string, cacheDir string) {
	type place struct{ dir, from string }
	var places []place
	if sh := env("SCALA_HOME"); sh != "" {
		places = append(places, place{filepath.Join(sh, "lib"), "SCALA_HOME"})
	}
	if sc := execpath.Look("scalac", env("PATH")); sc != "" {
		if real, err := filepath.EvalSymlinks(sc); err == nil {
			places = append(places, place{filepath.Join(filepath.Dir(filepath.Dir(real)), "lib"), "scalac on PATH"})
		}
	}
	if sh := env("SPARK_HOME"); sh != "" {
		places = append(places, place{filepath.Join(sh, "jars"), "SPARK_HOME"})
	}
	if t.SparkJars != "" && t.SparkFrom != "SPARK_HOME" {
		places = append(places, place{t.SparkJars, t.SparkFrom})
	}
	if cacheDir != "" {
		places = append(places, place{scalaCacheDir(cacheDir, t.scalaBinary()), "the udfx cache"})
	}
	for _, p := range places {
		jars, version, err := scalaJars(p.dir, t.scalaBinary())
		if err != nil {
			t.Notes = append(t.Notes, fmt.Sprintf("Scala compiler from %s: %v", p.from, err))
			continue
		}
		t.ScalaJars, t.ScalaVersion, t.ScalaFrom = jars, version, p.from
		return
	}
	t.Notes = append(t.Notes, "no Scala "+t.scalaBinary()+" compiler: run udfx setup (pyspark brings one), set SCALA_HOME, or put scalac on PATH")
}

// scalaBinary is the Scala version the compiler must be: that of the
// Spark jars found, else Spark 4's.
func (t *Tools) scalaBinary() string {
	if t.ScalaBinary != "" {
		return t.ScalaBinary
	}
	return ScalaBinary
}

func scalaCacheDir(cacheDir, binary string) string {
	return filepath.Join(cacheDir, "scala-"+binary)
}

// scalaJars finds scala-compiler, scala-library and scala-reflect in dir
// and checks the compiler is of Scala binary (2.13).
func scalaJars(dir, binary string) ([]string, string, error) {
	var jars []string
	for _, name := range []string{"scala-compiler", "scala-library", "scala-reflect"} {
		matches, _ := filepath.Glob(filepath.Join(dir, name+"*.jar"))
		var best string
		for _, m := range matches {
			base := strings.TrimSuffix(filepath.Base(m), ".jar")
			// scala-library.jar or scala-library-2.13.17.jar, not
			// scala-library_3 or other artifacts sharing the prefix.
			if base == name || strings.HasPrefix(base, name+"-") && base[len(name)+1] >= '0' && base[len(name)+1] <= '9' {
				best = m
			}
		}
		if best == "" {
			return nil, "", fmt.Errorf("no %s jar in %s", name, dir)
		}
		jars = append(jars, best)
	}
	v, err := compilerVersion(jars[0])
	if err != nil {
		return nil, "", err
	}
	if !strings.HasPrefix(v, binary+".") {
		return nil, "", fmt.Errorf("%s is Scala %s; the Spark found needs Scala %s", jars[0], v, binary)
	}
	return jars, v, nil
}

// compilerVersion reads version.number from the compiler jar's
// compiler.properties.
func compilerVersion(jar string) (string, error) {
	zr, err := zip.OpenReader(jar)
	if err != nil {
		return "", fmt.Errorf("cannot open %s: %w", jar, err)
	}
	defer zr.Close()
	f, err := zr.Open("compiler.properties")
	if err != nil {
		return "", fmt.Errorf("%s has no compiler.properties: %w", jar, err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), "="); ok && strings.TrimSpace(k) == "version.number" {
			return strings.TrimSpace(v), nil
		}
	}
	return "", fmt.Errorf("%s: compiler.properties has no version.number", jar)
}

// sparkClasspath lists Spark's jars, sorted, for hashing; the JVM itself
// gets the folder as a dir/* wildcard.
func sparkClasspath(dir string) ([]string, error) {
	var jars []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != dir {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".jar") {
			jars = append(jars, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("listing Spark jars in %s: %w", dir, err)
	}
	sort.Strings(jars)
	return jars, nil
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}
