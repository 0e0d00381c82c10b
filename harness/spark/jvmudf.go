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
	"slices"
	"strconv"
	"strings"

	"github.com/udfx/udfx/harness/buildpath"
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
	Jar string
	// Shim is the shim's binary name. It lives in the package of the class
	// that holds the UDF, as the user's own registration code must when
	// that class is package-private (Java's default access).
	Shim string
	// Call is the registration the shim makes, for reports.
	Call string
	// UDFn is true when the shim itself implements the UDF's Java UDFn
	// interface by calling it (a Java UDFn class or field): Spark
	// Connect's registerJavaFunction can then instantiate the shim by its
	// name, from the jar added as an artifact, with no py4j.
	UDFn bool
	// Hive is the binary name of a Hive UDF's class. Such a UDF has no
	// shim: Spark registers it as the user's job does, with CREATE
	// TEMPORARY FUNCTION in a Hive-enabled session, and wraps it in
	// HiveSimpleUDF, whose conversions of Writables and NULLs are what
	// udfx must match. Shim is then only the name the function is
	// registered under.
	Hive string
	// Libs are the libraries the repository's build declares for the
	// UDF's module (buildpath), which go on the session's class path
	// with Jar, after Spark's own.
	Libs []string
}

// jars are the jars the UDF needs on the session's class path.
func (j *jvmOriginal) jars() []string { return append([]string{j.Jar}, j.Libs...) }

// sqlName is the name the shim registers the UDF under.
func (j *jvmOriginal) sqlName() string {
	return RegisteredPrefix + strings.ToLower(strings.TrimPrefix(simpleName(j.Shim), shimPrefix))
}

// shimVersion changes when the shims' templates do, so that cached jars
// are rebuilt.
const shimVersion = "5"

const shimPrefix = "UdfxShim_"

// prepareJVM compiles u's file and the shim into a jar in cacheDir (or
// finds it there).
func prepareJVM(ctx context.Context, u *udf.UDF, in *Install, env func(string) string, cacheDir string) (*jvmOriginal, error) {
	js, errs := prepareJVMs(ctx, []*udf.UDF{u}, in, env, cacheDir)
	return js[0], errs[0]
}

// jvmBuild is one UDF of prepareJVMs that is not in the cache yet.
type jvmBuild struct {
	i    int // its index in the UDFs asked for
	key  string
	shim string // the shim's simple name
	pkg  string
	call string
	file string // the shim's source
	udfn bool   // the shim implements UDFn (jvmOriginal.UDFn)
	hive string // a Hive UDF's class, registered with no shim (jvmOriginal.Hive)
}

// prepareJVMs is prepareJVM for several UDFs: each source file is compiled
// once, and the shims of its UDFs in one compiler run, since a compiler's
// start costs more than a small compilation (scalac: tens of seconds on a
// busy machine). Each UDF still gets its own jar, cached under its own
// key, so that a later prepareJVM of one of them finds it. The results
// and errors are per UDF.
func prepareJVMs(ctx context.Context, us []*udf.UDF, in *Install, env func(string) string, cacheDir string) ([]*jvmOriginal, []error) {
	outs := make([]*jvmOriginal, len(us))
	errs := make([]error, len(us))
	failAll := func(err error) ([]*jvmOriginal, []error) {
		for i := range errs {
			if errs[i] == nil && outs[i] == nil {
				errs[i] = err
			}
		}
		return outs, errs
	}
	if in.Jars == "" {
		return failAll(&EnvError{What: "Spark", Msg: "a Scala or Java UDF compiles against Spark's jars, and this pyspark has none"})
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
		return failAll(err)
	}
	// The UDFs to build, by source file, in the order they came.
	type source struct {
		scala  bool
		builds []*jvmBuild
		queued bool
		// classes are the source's compiled classes, as the JVM runner
		// compiles them (jvm.CompileOriginal: against the libraries and
		// module sources the repository's build declares, a UDF defined
		// inside a method with the object that lifts it), err is the
		// compilation's failure, and libs are the build's libraries
		// that go on the class path.
		classes string
		err     error
		libs    []string
	}
	shipped := artifactsIn(in.Jars)
	var sources []*source
	byFile := map[string]*source{}
	byKey := map[string]int{}
	var aliases [][2]int // a UDF asked for twice: [later, first]
	for i, u := range us {
		if err := registrable(u); err != nil {
			errs[i] = err
			continue
		}
		scala := u.Language == udf.Scala
		if scala && len(tools.ScalaJars) == 0 {
			errs[i] = &EnvError{What: "Scala compiler", Msg: "no Scala " + in.ScalaBinary + " compiler: " + strings.Join(tools.Notes, "; ")}
			continue
		}
		group := u.Path() + "\x00" + string(u.Language)
		if jvm.Lifted(u) {
			// A UDF lifted out of a method is compiled on its own, with
			// its lifting object.
			group += "\x00" + u.Name
		}
		s := byFile[group]
		if s == nil {
			s = &source{scala: scala}
			var build *buildpath.Classpath
			s.classes, build, s.err = jvm.CompileOriginal(ctx, &tools, runner.DefaultLimits, u, filepath.Join(cacheDir, "originals"), tenv)
			if build != nil {
				s.libs = notShipped(build.Jars, shipped)
			}
			byFile[group] = s
		}
		if s.err != nil {
			errs[i] = s.err
			continue
		}
		libs := s.libs
		compiler := "javac " + tools.JDKVersion
		if scala {
			compiler = "scalac " + tools.ScalaVersion
		}
		// The classes' folder is named by a hash of everything they were
		// compiled from (the source, the build's sources and libraries,
		// the compilers and Spark's jars).
		key := hashOf("spark-udf", shimVersion, s.classes, strings.Join(libs, "\x00"), string(u.Language), string(u.Kind), u.Name,
			strconv.Itoa(len(u.Params)), u.Return.String(), resolved(in.Jars), in.SparkVersion, compiler)
		if first, ok := byKey[key]; ok {
			aliases = append(aliases, [2]int{i, first})
			continue
		}
		byKey[key] = i
		if j, ok := cachedJVM(filepath.Join(cacheDir, key)); ok {
			j.Libs = libs
			outs[i] = j
			continue
		}
		if !s.queued {
			s.queued = true
			sources = append(sources, s)
		}
		s.builds = append(s.builds, &jvmBuild{i: i, key: key, shim: shimPrefix + key[:16]})
	}
	if len(sources) > 0 {
		if err := os.MkdirAll(cacheDir, 0o755); err != nil {
			return failAll(fmt.Errorf("creating the jar cache %s: %w", cacheDir, err))
		}
	}
	for _, s := range sources {
		buildSource(ctx, &tools, in, s.classes, s.libs, s.scala, s.builds, us, outs, errs, cacheDir)
	}
	for _, a := range aliases {
		outs[a[0]], errs[a[0]] = outs[a[1]], errs[a[1]]
	}
	return outs, errs
}

// jarVersionRE splits a jar's file name into the artifact and its version
// ("commons-lang3" and "3.17.0" of commons-lang3-3.17.0.jar).
var jarVersionRE = regexp.MustCompile(`^(.+?)-(\d[^-]*(?:-.*)?)\.jar$`)

// artifactsIn names the artifacts of the jars in dir (Spark's jars).
func artifactsIn(dir string) map[string]bool {
	out := map[string]bool{}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if m := jarVersionRE.FindStringSubmatch(e.Name()); m != nil {
			out[m[1]] = true
		}
	}
	return out
}

// notShipped leaves out of a build's libraries those whose artifact
// Spark ships in another version. Jars go on the driver's class path
// before Spark's (spark.driver.extraClassPath prepends), where a job's
// jars on a cluster come after them, as in the JVM runner: there Spark's
// copy is the one loaded, so it must be here too.
func notShipped(jars []string, shipped map[string]bool) []string {
	var out []string
	for _, j := range jars {
		if m := jarVersionRE.FindStringSubmatch(filepath.Base(j)); m != nil && shipped[m[1]] {
			continue
		}
		out = append(out, j)
	}
	return out
}

// registrable refuses, before any compilation, what the shim cannot
// register.
func registrable(u *udf.UDF) error {
	if u.Language != udf.Scala && u.Language != udf.Java {
		return &runner.NotCallableError{UDF: u.Name, Reason: fmt.Sprintf("%s is a %s UDF; only Scala and Java UDFs are compiled", u.Name, u.Language)}
	}
	switch u.Kind {
	case udf.KindFunctionClass, udf.KindUDFClass, udf.KindLambda, udf.KindFunctionRef, udf.KindHiveUDF, udf.KindHiveGenericUDF:
	default:
		return &runner.NotCallableError{UDF: u.Name, Reason: fmt.Sprintf("udfx's Spark engine does not register JVM UDFs of kind %s", u.Kind)}
	}
	if u.Language == udf.Java && u.Kind == udf.KindFunctionRef {
		return &runner.NotCallableError{UDF: u.Name, Reason: "a Java method reference is registered as a UDFn lambda whose parameter types udfx cannot write back from the model; wrap it in a class implementing UDFn"}
	}
	if strings.HasPrefix(u.Name, "<") {
		return &runner.NotCallableError{UDF: u.Name, Reason: "an anonymous function has no name by which udfx could reach it; give it a name with a val in an object"}
	}
	if err := typeinfer.Missing(u); err != nil {
		return &runner.NotCallableError{UDF: u.Name, Reason: err.Error()}
	}
	return nil
}

// cachedJVM reads a complete cache entry.
func cachedJVM(dir string) (*jvmOriginal, bool) {
	if _, err := os.Stat(filepath.Join(dir, ".complete")); err != nil {
		return nil, false
	}
	call, err1 := os.ReadFile(filepath.Join(dir, "call.txt"))
	shim, err2 := os.ReadFile(filepath.Join(dir, "shim.txt"))
	if err1 != nil || err2 != nil {
		return nil, false
	}
	udfn, err1 := os.ReadFile(filepath.Join(dir, "udfn.txt"))
	hive, err2 := os.ReadFile(filepath.Join(dir, "hive.txt"))
	if err1 != nil || err2 != nil {
		return nil, false
	}
	return &jvmOriginal{Jar: filepath.Join(dir, "udf.jar"), Shim: string(shim), Call: string(call), UDFn: string(udfn) == "udfn", Hive: string(hive)}, true
}

// buildSource compiles the shims of one source file's UDFs (one
// compiler run; one each when that fails, to tell which) against the
// source's classes and the build's libraries, and writes their jars into
// the cache.
func buildSource(ctx context.Context, tools *jvm.Tools, in *Install, userClasses string, libs []string, scala bool, builds []*jvmBuild, us []*udf.UDF, outs []*jvmOriginal, errs []error, cacheDir string) {
	fail := func(err error) {
		for _, b := range builds {
			if errs[b.i] == nil {
				errs[b.i] = err
			}
		}
	}
	tmp, err := os.MkdirTemp(cacheDir, ".build-")
	if err != nil {
		fail(fmt.Errorf("creating a build folder in %s: %w", cacheDir, err))
		return
	}
	defer os.RemoveAll(tmp)

	classes, err := readClasses(userClasses)
	if err != nil {
		fail(err)
		return
	}
	ext := ".java"
	if scala {
		ext = ".scala"
	}
	var ok []*jvmBuild
	for _, b := range builds {
		u := us[b.i]
		if u.Kind.IsHive() {
			if b.hive, err = hiveClass(u, classes); err != nil {
				errs[b.i] = err
				continue
			}
			b.call = fmt.Sprintf("CREATE TEMPORARY FUNCTION name AS '%s'", b.hive)
			outs[b.i], errs[b.i] = storeJVM(tmp, cacheDir, b, userClasses)
			continue
		}
		expr, typed, pkg, err := registration(u, classes)
		if err != nil {
			errs[b.i] = err
			continue
		}
		var src string
		b.pkg = pkg
		src, b.call = shimSource(b.shim, pkg, u, expr, typed, scala)
		b.udfn = !scala && typed
		b.file = filepath.Join(tmp, "shim", b.shim+ext)
		if err := os.MkdirAll(filepath.Dir(b.file), 0o755); err != nil {
			errs[b.i] = fmt.Errorf("writing the registration shim: %w", err)
			continue
		}
		if err := os.WriteFile(b.file, []byte(src), 0o644); err != nil {
			errs[b.i] = fmt.Errorf("writing the registration shim: %w", err)
			continue
		}
		ok = append(ok, b)
	}
	shimDir := func(b *jvmBuild) string { return filepath.Join(tmp, "shims", b.shim) }
	notCallable := func(b *jvmBuild, err error) error {
		var ce *runner.CompileError
		if errors.As(err, &ce) {
			return &runner.NotCallableError{UDF: us[b.i].Name, Reason: fmt.Sprintf("Spark's register does not accept it as the source registers it (%s): %s", b.call, ce.Msg)}
		}
		return err
	}
	all := filepath.Join(tmp, "shimclasses")
	files := make([]string, len(ok))
	for k, b := range ok {
		files[k] = b.file
	}
	shimCP := strings.Join(append([]string{userClasses}, libs...), string(os.PathListSeparator))
	if len(ok) > 1 && compile(ctx, tools, in, scala, files, all, shimCP) == nil {
		for _, b := range ok {
			if err := moveShimClasses(all, shimDir(b), b); err != nil {
				errs[b.i] = err
			}
		}
	} else {
		for _, b := range ok {
			if err := compile(ctx, tools, in, scala, []string{b.file}, shimDir(b), shimCP); err != nil {
				errs[b.i] = notCallable(b, err)
			}
		}
	}
	for _, b := range ok {
		if errs[b.i] != nil {
			continue
		}
		outs[b.i], errs[b.i] = storeJVM(tmp, cacheDir, b, userClasses, shimDir(b))
	}
	for _, b := range builds {
		if outs[b.i] != nil {
			outs[b.i].Libs = libs
		}
	}
}

// moveShimClasses moves b's shim's class files (the class, and a Scala
// object's Name$ companion) from a compilation of several shims to dst.
func moveShimClasses(from, dst string, b *jvmBuild) error {
	rel := filepath.FromSlash(strings.ReplaceAll(b.pkg, ".", "/"))
	ents, err := os.ReadDir(filepath.Join(from, rel))
	if err != nil {
		return fmt.Errorf("reading the compiled shims: %w", err)
	}
	if err := os.MkdirAll(filepath.Join(dst, rel), 0o755); err != nil {
		return fmt.Errorf("sorting the compiled shims: %w", err)
	}
	n := 0
	for _, e := range ents {
		name := e.Name()
		if name == b.shim+".class" || strings.HasPrefix(name, b.shim+"$") {
			if err := os.Rename(filepath.Join(from, rel, name), filepath.Join(dst, rel, name)); err != nil {
				return fmt.Errorf("sorting the compiled shims: %w", err)
			}
			n++
		}
	}
	if n == 0 {
		return fmt.Errorf("the compiler wrote no class for the shim %s", b.shim)
	}
	return nil
}

// storeJVM writes b's jar (the source's classes and the folder of b's
// shim, when it has one) and puts it in the cache under b's key.
func storeJVM(tmp, cacheDir string, b *jvmBuild, classDirs ...string) (*jvmOriginal, error) {
	shim := b.shim
	if b.pkg != "" {
		shim = b.pkg + "." + b.shim
	}
	out := filepath.Join(tmp, "out-"+b.shim)
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, fmt.Errorf("creating %s: %w", out, err)
	}
	if err := writeJar(filepath.Join(out, "udf.jar"), classDirs...); err != nil {
		return nil, err
	}
	// .complete last: a cache entry is whole or ignored.
	udfn := ""
	if b.udfn {
		udfn = "udfn"
	}
	for _, f := range [][2]string{{"call.txt", b.call}, {"shim.txt", shim}, {"udfn.txt", udfn}, {"hive.txt", b.hive}, {".complete", ""}} {
		if err := os.WriteFile(filepath.Join(out, f[0]), []byte(f[1]), 0o644); err != nil {
			return nil, fmt.Errorf("writing the jar cache: %w", err)
		}
	}
	dir := filepath.Join(cacheDir, b.key)
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
	return &jvmOriginal{Jar: filepath.Join(dir, "udf.jar"), Shim: shim, Call: b.call, UDFn: b.udfn, Hive: b.hive}, nil
}

// hiveClass finds a Hive UDF's class among the compiled ones: the one of
// its simple name that Hive can instantiate (it has a constructor).
func hiveClass(u *udf.UDF, classes []*classInfo) (string, error) {
	found := instantiable(u.Name, classes)
	switch len(found) {
	case 0:
		return "", &runner.NotCallableError{UDF: u.Name, Reason: "no class " + u.Name + " in the compiled source"}
	case 1:
		return found[0], nil
	}
	return "", &runner.NotCallableError{UDF: u.Name, Reason: fmt.Sprintf("several classes are named %s: %s", u.Name, strings.Join(found, ", "))}
}

// instantiable are the binary names of the classes of simple name name
// with a constructor. An object's mirror class (object X extends (A =>
// B) gives a class X of static forwarders) has none: the object is the
// UDF then.
func instantiable(name string, classes []*classInfo) []string {
	var found []string
	for _, c := range classes {
		if simpleName(c.Name) == name && !strings.HasSuffix(c.Name, "$") && c.hasConstructor() {
			found = append(found, c.Name)
		}
	}
	return found
}

func hashOf(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%d:%s", len(p), p)
	}
	return hex.EncodeToString(h.Sum(nil))[:40]
}

// registration finds the UDF in the compiled classes and returns the
// source expression the shim registers, whether register takes the return
// type beside it (a UDFn does; a Scala function and a
// UserDefinedFunction carry their own), and the package of the class
// that holds it, which the shim is put in.
func registration(u *udf.UDF, classes []*classInfo) (expr string, typed bool, pkg string, err error) {
	scala := u.Language == udf.Scala
	var found, holders []string
	several := func(what string) error {
		return &runner.NotCallableError{UDF: u.Name, Reason: fmt.Sprintf("several %s are named %s: %s", what, u.Name, strings.Join(found, ", "))}
	}
	switch u.Kind {
	case udf.KindFunctionClass, udf.KindUDFClass:
		found = instantiable(u.Name, classes)
		if len(found) > 1 {
			return "", false, "", several("classes")
		}
		if len(found) == 1 {
			return "new " + sourceRef(found[0], scala) + "()", u.Kind == udf.KindUDFClass || !scala, packageOf(found[0]), nil
		}
		for _, c := range classes {
			if c.isModule() && simpleName(strings.TrimSuffix(c.Name, "$")) == u.Name {
				found = append(found, c.Name)
			}
		}
		if len(found) > 1 {
			return "", false, "", several("objects")
		}
		if len(found) == 1 {
			return sourceRef(found[0], scala), u.Kind == udf.KindUDFClass || !scala, packageOf(found[0]), nil
		}
		return "", false, "", &runner.NotCallableError{UDF: u.Name, Reason: "no class or object " + u.Name + " in the compiled source"}
	case udf.KindLambda, udf.KindFunctionRef:
		for _, c := range classes {
			if scala && c.isModule() {
				for _, m := range c.Methods {
					if m.Name != u.Name || m.Static {
						continue
					}
					if u.Kind == udf.KindLambda && strings.HasPrefix(m.Desc, "()") {
						found = append(found, sourceRef(c.Name, true)+"."+u.Name)
						holders = append(holders, c.Name)
					} else if u.Kind == udf.KindFunctionRef && paramCount(m.Desc) == len(u.Params) {
						found = append(found, sourceRef(c.Name, true)+"."+u.Name+" _")
						holders = append(holders, c.Name)
					}
				}
			}
			if !scala && !strings.HasSuffix(c.Name, "$") {
				for _, f := range c.Fields {
					if f.Name == u.Name && f.Static {
						found = append(found, sourceRef(c.Name, false)+"."+u.Name)
						holders = append(holders, c.Name)
						typed = f.Desc != "Lorg/apache/spark/sql/expressions/UserDefinedFunction;"
					}
				}
			}
		}
		if len(found) > 1 {
			return "", false, "", several("members")
		}
		if len(found) == 0 {
			return "", false, "", &runner.NotCallableError{UDF: u.Name, Reason: "no object or class member named " + u.Name + " holds it: a UDF defined inside a method (such as main) exists only while the job runs; move it to a val in an object"}
		}
		return found[0], typed, packageOf(holders[0]), nil
	}
	return "", false, "", &runner.NotCallableError{UDF: u.Name, Reason: fmt.Sprintf("udfx's Spark engine does not register JVM UDFs of kind %s", u.Kind)}
}

// packageOf is the package of a binary class name: "a.b" for
// "a.b.Outer$Inner", "" for a class in the default package.
func packageOf(binary string) string {
	if i := strings.LastIndexByte(binary, '.'); i >= 0 {
		return binary[:i]
	}
	return ""
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

// shimSource writes the registration shim, in package pkg. A Scala UDF
// is registered by Scala code, so that scalac supplies the TypeTags Spark
// derives the ScalaUDF's input encoders and null handling from, as in the
// user's job; Java UDFn classes and fields by Java code with the declared
// return type.
func shimSource(name, pkg string, u *udf.UDF, expr string, typed, scala bool) (src, call string) {
	args := expr
	if typed {
		args += ", DataType.fromDDL(" + strconv.Quote(u.Return.String()) + ")"
	}
	if scala {
		call = "spark.udf.register(name, " + args + ")"
		clause := ""
		if pkg != "" {
			clause = "package " + scalaPackage(pkg) + "\n\n"
		}
		return fmt.Sprintf(`// Generated by udfx: registers %s as its source does.
%simport _root_.org.apache.spark.sql.SparkSession
import _root_.org.apache.spark.sql.types.DataType

object %s {
  def register(spark: SparkSession, name: String): Unit = {
    %s
  }
}
`, u.Name, clause, name, call), call
	}
	call = "spark.udf().register(name, " + args + ")"
	clause := ""
	if pkg != "" {
		clause = "package " + pkg + ";\n\n"
	}
	if !typed {
		return fmt.Sprintf(`// Generated by udfx: registers %s as its source does.
%simport org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataType;

public final class %s {
  public static void register(SparkSession spark, String name) {
    %s;
  }
}
`, u.Name, clause, name, call), call
	}
	// A UDFn: the shim is one too, calling it, so that Spark Connect's
	// registerJavaFunction can instantiate it by name. Spark wraps a
	// UDFn registered either way in the same ScalaUDF, with no input
	// encoders: the call sees what the user's registration would.
	n := len(u.Params)
	var params, args2 []string
	objects := []string{"Object"} // the result's
	for i := 1; i <= n; i++ {
		params = append(params, fmt.Sprintf("Object a%d", i))
		args2 = append(args2, fmt.Sprintf("a%d", i))
		objects = append(objects, "Object")
	}
	return fmt.Sprintf(`// Generated by udfx: registers %[1]s as its source does (register),
// or, over Spark Connect, is registered itself by registerJavaFunction
// and calls it.
%[2]simport org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF%[5]d;
import org.apache.spark.sql.types.DataType;

// Spark finds the UDFn interface among the parameterized ones.
@SuppressWarnings({"rawtypes", "unchecked"})
public final class %[3]s implements UDF%[5]d<%[9]s> {
  private static final long serialVersionUID = 1L;
  private final UDF%[5]d udf = %[6]s;

  @Override
  public Object call(%[7]s) throws Exception {
    return udf.call(%[8]s);
  }

  public static void register(SparkSession spark, String name) {
    %[4]s;
  }
}
`, u.Name, clause, name, call, n, expr, strings.Join(params, ", "), strings.Join(args2, ", "), strings.Join(objects, ", ")), call
}

// scalaPackage writes a package name for a Scala package clause, each part
// in backquotes: a JVM package may be named like a Scala keyword (type).
func scalaPackage(pkg string) string {
	parts := strings.Split(pkg, ".")
	for i, p := range parts {
		parts[i] = "`" + p + "`"
	}
	return strings.Join(parts, ".")
}

// compile runs scalac or javac on files into out, against Spark's jars and
// extra (a classes folder) when given.
func compile(ctx context.Context, t *jvm.Tools, in *Install, scala bool, files []string, out, extra string) error {
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
		args := append(slices.Clone(jvm.CompilerJVMFlags), "-Xss16m", "-cp", strings.Join(t.ScalaJars, sep),
			"scala.tools.nsc.Main", "-nowarn", "-encoding", "UTF-8", "-classpath", t.ScalaJars[1]+sep+cp, "-d", out)
		cmd = runner.Command(ctx, t.Java, append(args, files...)...)
	} else {
		args := append(jvm.JavacFlags(), "-proc:none", "-nowarn", "-encoding", "UTF-8", "-implicit:none", "-cp", cp, "-d", out)
		cmd = runner.Command(ctx, t.Javac, append(args, files...)...)
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
		return compileError(files, buf.String())
	}
	return fmt.Errorf("compiling %s: %w", strings.Join(files, " "), err)
}

var diagRE = regexp.MustCompile(`(?m)^(.+?):(\d+): error: (.*)$`)

func compileError(files []string, output string) error {
	for _, m := range diagRE.FindAllStringSubmatch(output, -1) {
		for _, file := range files {
			if filepath.Base(m[1]) == filepath.Base(file) {
				n, _ := strconv.Atoi(m[2])
				return &runner.CompileError{File: file, Line: n, Msg: m[3]}
			}
		}
	}
	out := strings.TrimSpace(output)
	if len(out) > 2000 {
		out = out[len(out)-2000:]
	}
	return &runner.CompileError{File: files[0], Msg: "does not compile: " + out}
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
// a jar (cached in cfg.CacheDir) and returns its path followed by the
// libraries its module's build declares: put them in Config.Jars (and set
// Config.Hive for a Hive UDF) to start a session that runs the UDF
// without a restart.
func CompileUDF(ctx context.Context, u *udf.UDF, cfg Config) ([]string, error) {
	in, cfg, err := compileConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	j, err := prepareJVM(ctx, u, in, cfg.Env, cfg.CacheDir)
	if err != nil {
		return nil, err
	}
	return j.jars(), nil
}

// CompileUDFs is CompileUDF for several UDFs, less their libraries (a
// session adds them when it runs the UDF): each source file is
// compiled once, and the registration shims of its UDFs in one compiler
// run, where one CompileUDF per UDF would start the compiler twice for
// each. jars[i] is us[i]'s jar, empty where it failed; err joins the
// failures (errors.As finds each typed one). Jars of UDFs from different
// sources that define a class of the same name clash on one class path:
// start a session for each (see Config.Jars).
func CompileUDFs(ctx context.Context, us []*udf.UDF, cfg Config) ([]string, error) {
	in, cfg, err := compileConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	js, errs := prepareJVMs(ctx, us, in, cfg.Env, cfg.CacheDir)
	jars := make([]string, len(us))
	for i, j := range js {
		if j != nil {
			jars[i] = j.Jar
		}
	}
	return jars, errors.Join(errs...)
}

// compileConfig fills in cfg's defaults and finds Spark for a compilation.
func compileConfig(ctx context.Context, cfg Config) (*Install, Config, error) {
	if cfg.Env == nil {
		cfg.Env = os.Getenv
	}
	if cfg.Dir == "" {
		cfg.Dir = "."
	}
	if cfg.CacheDir == "" {
		d, err := defaultCacheDir()
		if err != nil {
			return nil, cfg, err
		}
		cfg.CacheDir = d
	}
	in, err := Find(ctx, cfg.Env, cfg.Dir, false)
	return in, cfg, err
}

func defaultCacheDir() (string, error) {
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("spark: no cache folder for compiled UDFs: %w", err)
	}
	return filepath.Join(d, "udfx", "spark"), nil
}
