package spark

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/runner/jvm"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/internal/typeinfer"
)

// jvmOriginal is a Scala or Java UDF compiled, as its source is, into a
// jar with a generated registration shim: a class whose static
// register(SparkSession, String) registers the UDF the way the source does
// (spark.udf.register(name, new ToFahrenheit()) for a Scala Function1
// class, so Spark builds the same ScalaUDF with the same TypeTags;
// spark.udf().register(name, new ToFahrenheit(), DataType) for a Java
// UDF1 class). The driver calls the shim through py4j.
type jvmOriginal struct {
	Jar  string
	Shim string // the shim's binary name (default package)
	// Call is the registration the shim makes, for reports.
	Call string
}

// shimVersion changes when the shims' templates do, so that cached jars
// are rebuilt.
const shimVersion = "1"

// prepareJVM compiles u's file and the shim into a jar in cacheDir (or
// finds it there).
func prepareJVM(ctx context.Context, u *udf.UDF, in *Install, env func(string) string, cacheDir string) (*jvmOriginal, error) {
	if in.Jars == "" {
		return nil, &EnvError{What: "Spark", Msg: "a Scala or Java UDF compiles against Spark's jars, and this pyspark has none"}
	}
	switch u.Kind {
	case udf.KindFunctionClass, udf.KindUDFClass, udf.KindLambda, udf.KindFunctionRef:
	case udf.KindHiveUDF, udf.KindHiveGenericUDF:
		return nil, &runner.NotCallableError{UDF: u.Name, Reason: "a Hive UDF is registered with CREATE TEMPORARY FUNCTION in a Hive-enabled session, which udfx's Spark engine does not start"}
	default:
		return nil, &runner.NotCallableError{UDF: u.Name, Reason: fmt.Sprintf("udfx's Spark engine does not register JVM UDFs of kind %s", u.Kind)}
	}
	if u.Language == udf.Java && u.Kind == udf.KindFunctionRef {
		return nil, &runner.NotCallableError{UDF: u.Name, Reason: "a Java method reference is registered as a UDFn lambda whose parameter types udfx cannot write back from the model; wrap it in a class implementing UDFn"}
	}
	if strings.HasPrefix(u.Name, "<") {
		return nil, &runner.NotCallableError{UDF: u.Name, Reason: "an anonymous function has no name by which udfx could reach it; give it a name with a val in an object"}
	}
	if err := typeinfer.Missing(u); err != nil {
		return nil, &runner.NotCallableError{UDF: u.Name, Reason: err.Error()}
	}
	src, err := os.ReadFile(u.File)
	if err != nil {
		return nil, fmt.Errorf("reading the UDF's source: %w", err)
	}
	// The JDK and the Scala compiler are found as the JVM runner finds
	// them, against this session's Spark jars.
	tenv := func(k string) string {
		switch k {
		case "SPARK_HOME":
			return in.SparkHome
		case "UDFX_PYTHON":
			return in.Python
		}
		return env(k)
	}
	tools, err := jvm.Toolchain(tenv)
	if err != nil {
		return nil, err
	}
	scala := u.Language == udf.Scala
	if scala && len(tools.ScalaJars) == 0 {
		return nil, &EnvError{What: "Scala compiler", Msg: "no Scala " + in.ScalaBinary + " compiler: " + strings.Join(tools.Notes, "; ")}
	}
	compiler := "javac " + tools.JDKVersion
	if scala {
		compiler = "scalac " + tools.ScalaVersion
	}
	key := hashOf("spark-udf", shimVersion, string(src), filepath.Base(u.File), string(u.Language), string(u.Kind), u.Name,
		strconv.Itoa(len(u.Params)), u.Return.String(), resolved(in.Jars), in.SparkVersion, compiler)
	dir := filepath.Join(cacheDir, key)
	jar := filepath.Join(dir, "udf.jar")
	callFile := filepath.Join(dir, "call.txt")
	shim := "UdfxShim_" + key[:16]
	if _, err := os.Stat(filepath.Join(dir, ".complete")); err == nil {
		call, _ := os.ReadFile(callFile)
		return &jvmOriginal{Jar: jar, Shim: shim, Call: string(call)}, nil
	}
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		return nil, fmt.Errorf("creating the jar cache %s: %w", cacheDir, err)
	}
	tmp, err := os.MkdirTemp(cacheDir, ".build-")
	if err != nil {
		return nil, fmt.Errorf("creating a build folder in %s: %w", cacheDir, err)
	}
	defer os.RemoveAll(tmp)

	userClasses := filepath.Join(tmp, "user")
	if err := compile(ctx, &tools, in, scala, u.File, userClasses, ""); err != nil {
		return nil, err
	}
	classes, err := readClasses(userClasses)
	if err != nil {
		return nil, err
	}
	expr, typed, err := registration(u, classes)
	if err != nil {
		return nil, err
	}
	shimSrc, call := shimSource(shim, u, expr, typed, scala)
	ext := ".java"
	if scala {
		ext = ".scala"
	}
	shimFile := filepath.Join(tmp, "shim", shim+ext)
	if err := os.MkdirAll(filepath.Dir(shimFile), 0o755); err != nil {
		return nil, fmt.Errorf("writing the registration shim: %w", err)
	}
	if err := os.WriteFile(shimFile, []byte(shimSrc), 0o644); err != nil {
		return nil, fmt.Errorf("writing the registration shim: %w", err)
	}
	shimClasses := filepath.Join(tmp, "shimclasses")
	if err := compile(ctx, &tools, in, scala, shimFile, shimClasses, userClasses); err != nil {
		var ce *runner.CompileError
		if errors.As(err, &ce) {
			return nil, &runner.NotCallableError{UDF: u.Name, Reason: fmt.Sprintf("Spark's register does not accept it as the source registers it (%s): %s", call, ce.Msg)}
		}
		return nil, err
	}
	out := filepath.Join(tmp, "out")
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, fmt.Errorf("creating %s: %w", out, err)
	}
	if err := writeJar(filepath.Join(out, "udf.jar"), userClasses, shimClasses); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(out, "call.txt"), []byte(call), 0o644); err != nil {
		return nil, fmt.Errorf("writing the jar cache: %w", err)
	}
	if err := os.WriteFile(filepath.Join(out, ".complete"), nil, 0o644); err != nil {
		return nil, fmt.Errorf("writing the jar cache: %w", err)
	}
	if err := os.Rename(out, dir); err != nil {
		// Another udfx built it meanwhile; a stale incomplete folder is
		// replaced.
		if _, serr := os.Stat(filepath.Join(dir, ".complete")); serr != nil {
			os.RemoveAll(dir)
			if err := os.Rename(out, dir); err != nil {
				return nil, fmt.Errorf("moving the jar into the cache: %w", err)
			}
		}
	}
	return &jvmOriginal{Jar: jar, Shim: shim, Call: call}, nil
}

func hashOf(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%d:%s", len(p), p)
	}
	return hex.EncodeToString(h.Sum(nil))[:40]
}

// registration finds the UDF in the compiled classes and returns the
// source expression the shim registers, and whether register takes the
// return type beside it (a UDFn does; a Scala function and a
// UserDefinedFunction carry their own).
func registration(u *udf.UDF, classes []*classInfo) (expr string, typed bool, err error) {
	scala := u.Language == udf.Scala
	var found []string
	several := func(what string) error {
		return &runner.NotCallableError{UDF: u.Name, Reason: fmt.Sprintf("several %s are named %s: %s", what, u.Name, strings.Join(found, ", "))}
	}
	switch u.Kind {
	case udf.KindFunctionClass, udf.KindUDFClass:
		for _, c := range classes {
			if simpleName(c.Name) == u.Name && !strings.HasSuffix(c.Name, "$") {
				found = append(found, c.Name)
			}
		}
		if len(found) > 1 {
			return "", false, several("classes")
		}
		if len(found) == 1 {
			return "new " + sourceRef(found[0], scala) + "()", u.Kind == udf.KindUDFClass || !scala, nil
		}
		for _, c := range classes {
			if c.isModule() && simpleName(strings.TrimSuffix(c.Name, "$")) == u.Name {
				found = append(found, c.Name)
			}
		}
		if len(found) > 1 {
			return "", false, several("objects")
		}
		if len(found) == 1 {
			return sourceRef(found[0], scala), u.Kind == udf.KindUDFClass || !scala, nil
		}
		return "", false, &runner.NotCallableError{UDF: u.Name, Reason: "no class or object " + u.Name + " in the compiled source"}
	case udf.KindLambda, udf.KindFunctionRef:
		for _, c := range classes {
			if scala && c.isModule() {
				for _, m := range c.Methods {
					if m.Name != u.Name || m.Static {
						continue
					}
					if u.Kind == udf.KindLambda && strings.HasPrefix(m.Desc, "()") {
						found = append(found, sourceRef(c.Name, true)+"."+u.Name)
					} else if u.Kind == udf.KindFunctionRef && paramCount(m.Desc) == len(u.Params) {
						found = append(found, sourceRef(c.Name, true)+"."+u.Name+" _")
					}
				}
			}
			if !scala && !strings.HasSuffix(c.Name, "$") {
				for _, f := range c.Fields {
					if f.Name == u.Name && f.Static {
						found = append(found, sourceRef(c.Name, false)+"."+u.Name)
						typed = f.Desc != "Lorg/apache/spark/sql/expressions/UserDefinedFunction;"
					}
				}
			}
		}
		if len(found) > 1 {
			return "", false, several("members")
		}
		if len(found) == 0 {
			return "", false, &runner.NotCallableError{UDF: u.Name, Reason: "no object or class member named " + u.Name + " holds it: a UDF defined inside a method (such as main) exists only while the job runs; move it to a val in an object"}
		}
		return found[0], typed, nil
	}
	return "", false, &runner.NotCallableError{UDF: u.Name, Reason: fmt.Sprintf("udfx's Spark engine does not register JVM UDFs of kind %s", u.Kind)}
}

// paramCount counts the parameters of a method descriptor "(DLjava/lang/String;)D".
func paramCount(desc string) int {
	end := strings.IndexByte(desc, ')')
	if !strings.HasPrefix(desc, "(") || end < 0 {
		return -1
	}
	n := 0
	for i := 1; i < end; i++ {
		for desc[i] == '[' {
			i++
		}
		if desc[i] == 'L' {
			i += strings.IndexByte(desc[i:], ';')
		}
		n++
	}
	return n
}

// shimSource writes the registration shim. A Scala UDF is registered by
// Scala code, so that scalac supplies the TypeTags Spark derives the
// ScalaUDF's input encoders and null handling from, as in the user's job;
// Java UDFn classes and fields by Java code with the declared return type.
func shimSource(name string, u *udf.UDF, expr string, typed, scala bool) (src, call string) {
	args := expr
	if typed {
		args += ", DataType.fromDDL(" + strconv.Quote(u.Return.String()) + ")"
	}
	if scala {
		call = "spark.udf.register(name, " + args + ")"
		return fmt.Sprintf(`// Generated by udfx: registers %s as its source does.
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.types.DataType

object %s {
  def register(spark: SparkSession, name: String): Unit = {
    %s
  }
}
`, u.Name, name, call), call
	}
	call = "spark.udf().register(name, " + args + ")"
	return fmt.Sprintf(`// Generated by udfx: registers %s as its source does.
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataType;

public final class %s {
  public static void register(SparkSession spark, String name) {
    %s;
  }
}
`, u.Name, name, call), call
}

// compile runs scalac or javac on one file into out, against Spark's jars
// and extra (a classes folder) when given.
func compile(ctx context.Context, t *jvm.Tools, in *Install, scala bool, file, out, extra string) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", out, err)
	}
	sep := string(os.PathListSeparator)
	cp := filepath.Join(in.Jars, "*")
	if extra != "" {
		cp = extra + sep + cp
	}
	var cmd *exec.Cmd
	if scala {
		cmd = runner.Command(ctx, t.Java, "-Xss16m", "-cp", strings.Join(t.ScalaJars, sep),
			"scala.tools.nsc.Main", "-nowarn", "-encoding", "UTF-8", "-classpath", t.ScalaJars[1]+sep+cp, "-d", out, file)
	} else {
		cmd = runner.Command(ctx, t.Javac, "-proc:none", "-nowarn", "-encoding", "UTF-8", "-implicit:none",
			"-cp", cp, "-d", out, file)
	}
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.As(err, &exit):
		return compileError(file, buf.String())
	}
	return fmt.Errorf("compiling %s: %w", file, err)
}

var diagRE = regexp.MustCompile(`(?m)^(.+?):(\d+): error: (.*)$`)

func compileError(file, output string) error {
	for _, m := range diagRE.FindAllStringSubmatch(output, -1) {
		if filepath.Base(m[1]) == filepath.Base(file) {
			n, _ := strconv.Atoi(m[2])
			return &runner.CompileError{File: file, Line: n, Msg: m[3]}
		}
	}
	out := strings.TrimSpace(output)
	if len(out) > 2000 {
		out = out[len(out)-2000:]
	}
	return &runner.CompileError{File: file, Msg: "does not compile: " + out}
}

// writeJar zips the class folders into a jar (a zip with a manifest).
func writeJar(path string, dirs ...string) (err error) {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("writing %s: %w", path, cerr)
		}
	}()
	zw := zip.NewWriter(f)
	mf, err := zw.Create("META-INF/MANIFEST.MF")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if _, err := io.WriteString(mf, "Manifest-Version: 1.0\r\nCreated-By: udfx\r\n\r\n"); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, err := filepath.Rel(dir, p)
			if err != nil {
				return err
			}
			w, err := zw.Create(filepath.ToSlash(rel))
			if err != nil {
				return err
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			_, err = w.Write(b)
			return err
		})
		if err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// CompileUDF compiles a Scala or Java UDF with its registration shim into
// a jar (cached in cfg.CacheDir) and returns the jar's path: put it in
// Config.Jars to start a session that runs the UDF without a restart.
func CompileUDF(ctx context.Context, u *udf.UDF, cfg Config) (string, error) {
	if u.Language != udf.Scala && u.Language != udf.Java {
		return "", fmt.Errorf("spark: %s is a %s UDF; only Scala and Java UDFs are compiled", u.Name, u.Language)
	}
	if cfg.Env == nil {
		cfg.Env = os.Getenv
	}
	if cfg.Dir == "" {
		cfg.Dir = "."
	}
	if cfg.CacheDir == "" {
		d, err := defaultCacheDir()
		if err != nil {
			return "", err
		}
		cfg.CacheDir = d
	}
	in, err := Find(ctx, cfg.Env, cfg.Dir, false)
	if err != nil {
		return "", err
	}
	j, err := prepareJVM(ctx, u, in, cfg.Env, cfg.CacheDir)
	if err != nil {
		return "", err
	}
	return j.Jar, nil
}

func defaultCacheDir() (string, error) {
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("spark: no cache folder for compiled UDFs: %w", err)
	}
	return filepath.Join(d, "udfx", "spark"), nil
}
