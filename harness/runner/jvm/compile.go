package jvm

import (
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/udfx/udfx/harness/buildpath"
	"github.com/udfx/udfx/harness/internal/buildcache"
	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/internal/sandbox"
)

// driverSource is the generated driver: one Java class that calls the UDF
// reflectively, configured by its arguments, so it is compiled once per
// JDK and classpath rather than once per UDF.
//
//go:embed driver/UdfxDriver.java
var driverSource []byte

const driverClass = "UdfxDriver"

// fingerprint identifies a classpath for the cache: jar names, sizes and
// modification times, so that replaced jars invalidate compiled classes.
// Names are taken with symbolic links resolved: the same jars reached
// through each checkout's .venv link are one classpath, not one per
// checkout (every repository a test creates compiled everything again).
func fingerprint(jars []string) (string, error) {
	h := sha256.New()
	for _, j := range jars {
		st, err := os.Stat(j)
		if err != nil {
			return "", fmt.Errorf("classpath: %w", err)
		}
		if real, err := filepath.EvalSymlinks(j); err == nil {
			j = real
		}
		if st.IsDir() {
			// A class folder (UDFX_CLASSPATH): its files, which a
			// rebuild rewrites without touching the folder's own time.
			err := filepath.WalkDir(j, func(p string, d os.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				fi, err := d.Info()
				if err != nil {
					return err
				}
				fmt.Fprintf(h, "%s\x00%d\x00%d\n", p, fi.Size(), fi.ModTime().UnixNano())
				return nil
			})
			if err != nil {
				return "", fmt.Errorf("classpath: %w", err)
			}
			continue
		}
		fmt.Fprintf(h, "%s\x00%d\x00%d\n", j, st.Size(), st.ModTime().UnixNano())
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// resolved is p with symbolic links resolved, or p when that fails: the
// cache keys name files where they are, not the way they were reached.
func resolved(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

func hashOf(parts ...[]byte) string {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%d:", len(p))
		h.Write(p)
	}
	return hex.EncodeToString(h.Sum(nil))[:40]
}

// compileDriver compiles the driver against Spark's jars, and returns its
// classes and the JVM options Spark's launcher gives every Spark JVM.
func compileDriver(ctx context.Context, t *Tools, cacheDir, cpHash string) (string, []string, error) {
	key := hashOf([]byte("driver"), driverSource, []byte(cpHash), []byte(t.JDKVersion))
	dir, err := compileOwnJava(ctx, t, filepath.Join(cacheDir, "driver"), key, filepath.Join(t.SparkJars, "*"),
		map[string][]byte{driverClass + ".java": driverSource},
		func(output string) error {
			// The driver is udfx's own code: failing to compile it means
			// Spark's jars lack what it uses.
			return &runner.EnvError{What: "Spark jars", Msg: fmt.Sprintf("udfx's driver does not compile against %s (Spark %s); udfx needs Spark 4: %s", t.SparkJars, t.SparkVersion, tail(output, 2000))}
		},
		func(out string) error {
			cp := filepath.Join(out, "classes") + string(os.PathListSeparator) + filepath.Join(t.SparkJars, "*")
			cmd := runner.Command(ctx, t.Java, "-cp", cp, driverClass, "--module-options")
			opts, err := cmd.Output()
			if err != nil {
				return &runner.EnvError{What: "Spark jars", Msg: fmt.Sprintf("cannot read Spark's JVM options from %s: %v", t.SparkJars, err)}
			}
			return os.WriteFile(filepath.Join(out, moduleOptionsFile), opts, 0o644)
		})
	if err != nil {
		return "", nil, err
	}
	opts, err := os.ReadFile(filepath.Join(dir, moduleOptionsFile))
	if err != nil {
		return "", nil, fmt.Errorf("reading Spark's JVM options: %w", err)
	}
	return filepath.Join(dir, "classes"), strings.Fields(string(opts)), nil
}

// compileOwnJava compiles udfx's own Java sources (file name to text)
// against cp into a folder cached under root by key, and returns that
// folder; the classes are in its "classes" folder. failed turns javac's
// output into the error for sources that do not compile; after, if not
// nil, finishes the folder before it is published.
func compileOwnJava(ctx context.Context, t *Tools, root, key, cp string, sources map[string][]byte, failed func(output string) error, after func(out string) error) (string, error) {
	dir, _, err := buildcache.Dir(root, key, func(out string) error {
		var srcs []string
		for name, src := range sources {
			p := filepath.Join(out, "src", name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return fmt.Errorf("writing udfx's Java: %w", err)
			}
			if err := os.WriteFile(p, src, 0o644); err != nil {
				return fmt.Errorf("writing udfx's Java: %w", err)
			}
			srcs = append(srcs, p)
		}
		slices.Sort(srcs)
		args := append(JavacFlags(), "-proc:none", "-nowarn", "-encoding", "UTF-8", "-d", filepath.Join(out, "classes"))
		if cp != "" {
			args = append(args, "-cp", cp)
		}
		res, err := runTool(ctx, nil, sandbox.Paths{}, t.Javac, append(args, srcs...)...)
		if err != nil {
			return fmt.Errorf("compiling udfx's Java: %w", err)
		}
		if res.code != 0 {
			return failed(res.output)
		}
		if after != nil {
			return after(out)
		}
		return nil
	})
	return dir, err
}

const moduleOptionsFile = "module-options.txt"

// compileUser compiles the user's file as it is, returning the folder of
// its classes and whether they came from the cache. The compiler reads
// the user's source, so it runs in the sandbox sb, writing only its build
// folder.
//
// build is what the repository's build adds to Spark's jars (nil: nothing):
// javac finds the classes the file uses in its source roots and writes
// them beside the file's; scalac compiles the roots' Scala files with it.
func compileUser(ctx context.Context, t *Tools, sb sandbox.Decision, cacheDir, cpHash, file string, scala bool, u *udf.UDF, build *buildpath.Classpath) (string, bool, error) {
	src, err := os.ReadFile(file)
	if err != nil {
		return "", false, fmt.Errorf("reading the UDF's source: %w", err)
	}
	// lifted is compiled beside the file (Scala's object, lift.go) or
	// instead of it (Java's copy with the field inserted).
	lifted, liftedName, replaces := LiftedSource(u), LiftedFile, false
	if j := liftedJava(u, src); j != nil {
		lifted, liftedName, replaces = j, filepath.Base(file), true
	}
	buildKey, buildSources, err := buildInputs(build, file, scala)
	if err != nil {
		return "", false, err
	}
	compiler := "javac " + t.JDKVersion
	if scala {
		var jars []string
		for _, j := range t.ScalaJars {
			jars = append(jars, resolved(j))
		}
		compiler = "scalac " + t.ScalaVersion + " " + strings.Join(jars, ":")
	}
	key := hashOf([]byte("user"), src, []byte(filepath.Base(file)), driverSource, []byte(cpHash), []byte(t.JDKVersion), []byte(compiler), lifted, []byte(buildKey))
	dir, hit, err := buildcache.Dir(filepath.Join(cacheDir, "classes"), key, func(out string) error {
		classes := filepath.Join(out, "classes")
		if err := os.MkdirAll(classes, 0o755); err != nil {
			return fmt.Errorf("creating %s: %w", classes, err)
		}
		sources, compiled := []string{file}, file
		if lifted != nil {
			// The object or field that holds a UDF defined inside a
			// method (lift.go), compiled with the file it reads.
			p := filepath.Join(out, "lifted", liftedName)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return fmt.Errorf("creating %s: %w", filepath.Dir(p), err)
			}
			if err := os.WriteFile(p, lifted, 0o644); err != nil {
				return fmt.Errorf("writing %s: %w", p, err)
			}
			if replaces {
				sources, compiled = []string{p}, p
			} else {
				sources = append(sources, p)
			}
		}
		var res toolResult
		var err error
		paths := sandbox.Paths{
			Writable: []string{out},
			Readable: append([]string{file, t.JavaHome, t.Java, t.Javac, t.SparkJars}, t.ScalaJars...),
		}
		sparkCP := filepath.Join(t.SparkJars, "*")
		implicit := "-implicit:none"
		var sourcePath []string
		if build != nil {
			paths.Readable = append(append(paths.Readable, build.SourceRoots...), build.Jars...)
			sparkCP = strings.Join(append([]string{sparkCP}, build.Jars...), string(os.PathListSeparator))
			if len(build.SourceRoots) > 0 {
				// The classes the file uses from its module and the
				// modules it depends on run with it: javac writes them.
				implicit = "-implicit:class"
				sourcePath = []string{"-sourcepath", strings.Join(build.SourceRoots, string(os.PathListSeparator))}
			}
		}
		// The compiler's own arguments; a run over folders may hand them
		// to a warm compiler (CompilePool) where no build is involved.
		var req compileRequest
		if scala {
			// scalac 2.13, run on the JDK found; Spark's jars carry the
			// Scala library the job links with at run time.
			cp := t.ScalaJars[1] + string(os.PathListSeparator) + sparkCP
			req = compileRequest{tool: "scalac", out: out, sources: append(slices.Clone(sources), buildSources...),
				args: append([]string{"-nowarn", "-encoding", "UTF-8", "-classpath", cp, "-d", classes}, append(sources, buildSources...)...)}
		} else {
			req = compileRequest{tool: "javac", out: out, sources: []string{compiled},
				args: append(append([]string{"-proc:none", "-nowarn", "-encoding", "UTF-8", implicit, "-cp", sparkCP}, sourcePath...), "-d", classes, compiled)}
		}
		served := false
		if build.Empty() {
			res, served, err = compilePoolFrom(ctx).compile(ctx, t, &sb, cacheDir, req)
		}
		switch {
		case err != nil || served:
		case scala:
			args := append(slices.Clone(CompilerJVMFlags), "-Xss16m", "-cp", strings.Join(t.ScalaJars, string(os.PathListSeparator)), "scala.tools.nsc.Main")
			res, err = runTool(ctx, &sb, paths, t.Java, append(args, req.args...)...)
		default:
			res, err = runTool(ctx, &sb, paths, t.Javac, append(JavacFlags(), req.args...)...)
		}
		if err != nil {
			return fmt.Errorf("compiling %s: %w", file, err)
		}
		if res.code != 0 {
			return compileError(file, compiled, res.output)
		}
		return nil
	})
	if err != nil {
		return "", false, err
	}
	return filepath.Join(dir, "classes"), hit, nil
}

// CompileSource compiles a Scala or Java source file as it is, as New
// does for the runner, against the Spark jars of t, and returns the folder
// of its classes. They come from the runner's cache (CacheDir) when the
// same source was compiled before against the same jars and compilers, as
// it is when a rewrite has run the original first. A source that does not
// compile is a *runner.CompileError. The compiler reads the user's source,
// so it runs contained as limits say, like the runner's own compile.
func CompileSource(ctx context.Context, t *Tools, limits runner.Limits, file, cacheDir string) (string, error) {
	scala := strings.HasSuffix(file, ".scala")
	if !scala && !strings.HasSuffix(file, ".java") {
		return "", fmt.Errorf("%s is neither a Scala nor a Java file", file)
	}
	if t.SparkJars == "" || t.Javac == "" || scala && len(t.ScalaJars) == 0 {
		return "", &runner.EnvError{What: "JDK", Msg: "compiling " + file + " needs a JDK, Spark's jars and, for Scala, a Scala " + t.scalaBinary() + " compiler: " + strings.Join(t.Notes, "; ")}
	}
	if cacheDir == "" {
		d, err := defaultCacheDir()
		if err != nil {
			return "", err
		}
		cacheDir = d
	}
	sb, err := limits.Contain()
	if err != nil {
		return "", err
	}
	cpHash, err := classpathHash(t)
	if err != nil {
		return "", err
	}
	classes, _, err := compileUser(ctx, t, sb, cacheDir, cpHash, file, scala, nil, nil)
	return classes, err
}

// classpathHash is the fingerprint of Spark's jars in t. The cache keys
// hash the jars where they really are: two checkouts whose .venv links
// the same environment share compiled classes.
func classpathHash(t *Tools) (string, error) {
	jars, err := sparkClasspath(resolved(t.SparkJars))
	if err != nil {
		return "", err
	}
	return fingerprint(jars)
}

// diagRE matches the first line of a scalac 2.13 or javac diagnostic:
// "path/File.scala:12: error: type mismatch;".
var diagRE = regexp.MustCompile(`(?m)^(.+?):(\d+): error: (.*)$`)

// compileError turns compiler output into a CompileError at the first
// error in the user's file, with the lines that explain it; an error in
// compiled, the copy of the file that was compiled instead, is the file's.
func compileError(file, compiled, output string) error {
	lines := strings.Split(output, "\n")
	for i, line := range lines {
		m := diagRE.FindStringSubmatch(line)
		if m == nil || !sameFile(m[1], file) && !sameFile(m[1], compiled) {
			continue
		}
		n, _ := strconv.Atoi(m[2])
		msg := m[3]
		// scalac continues "type mismatch;" on the next lines
		// ("found : Double", "required: String") before the source line.
		for _, more := range lines[i+1:] {
			tm := strings.TrimSpace(more)
			if diagRE.MatchString(more) || tm == "" || !(strings.HasPrefix(tm, "found") || strings.HasPrefix(tm, "required")) {
				break
			}
			msg += " " + tm
		}
		return &runner.CompileError{File: file, Line: n, Msg: msg}
	}
	if strings.Contains(output, "java.lang.StackOverflowError") {
		// The tail of the output is the compiler's own stack frames.
		return &runner.CompileError{File: file, Msg: "does not compile: the compiler ran out of stack (java.lang.StackOverflowError): an expression nested too deeply"}
	}
	return &runner.CompileError{File: file, Msg: "does not compile: " + tail(strings.TrimSpace(output), 2000)}
}

func sameFile(a, b string) bool {
	if a == b {
		return true
	}
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && aa == bb
}

type toolResult struct {
	code   int
	output string
}

// runTool runs a compiler, in the sandbox sb with paths unless sb is nil
// (udfx's own driver); a non-zero exit is a result, not an error.
func runTool(ctx context.Context, sb *sandbox.Decision, paths sandbox.Paths, name string, args ...string) (toolResult, error) {
	cmd := runner.Command(ctx, name, args...)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	var err error
	if sb != nil {
		err = sb.Start(cmd, paths)
	} else {
		err = cmd.Start()
	}
	if err == nil {
		err = cmd.Wait()
	}
	var exit *exec.ExitError
	switch {
	case err == nil:
		return toolResult{0, out.String()}, nil
	case ctx.Err() != nil:
		return toolResult{}, ctx.Err()
	case errors.As(err, &exit):
		return toolResult{exit.ExitCode(), out.String()}, nil
	}
	return toolResult{}, fmt.Errorf("running %s: %w", name, err)
}

// buildInputs is what the build adds to the compile's cache key (the
// libraries' fingerprint and every source in its roots) and the Scala
// files scalac compiles with the UDF's file (javac finds its own on the
// source path).
func buildInputs(build *buildpath.Classpath, file string, scala bool) (string, []string, error) {
	if build.Empty() {
		return "", nil, nil
	}
	fp, err := fingerprint(build.Jars)
	if err != nil {
		return "", nil, err
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\n", fp)
	var scalaFiles []string
	self, _ := filepath.Abs(file)
	for _, root := range build.SourceRoots {
		err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !d.Type().IsRegular() {
				return err
			}
			ext := filepath.Ext(p)
			if ext != ".java" && ext != ".scala" {
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			fmt.Fprintf(h, "%s\x00%d:", p, len(b))
			h.Write(b)
			if scala && ext == ".scala" && p != self {
				scalaFiles = append(scalaFiles, p)
			}
			return nil
		})
		if err != nil {
			return "", nil, fmt.Errorf("reading the sources of %s: %w", build.Build, err)
		}
	}
	return hex.EncodeToString(h.Sum(nil)), scalaFiles, nil
}
