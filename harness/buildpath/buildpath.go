// Package buildpath finds what a JVM original needs beyond Spark's jars
// to compile and run as its job does: the libraries its build declares
// and the sources of the repository's other modules it depends on.
//
// Real JVM UDFs import their build's libraries (annotations, Guava,
// commons-*, cuDF) and the repository's utility modules; compiled
// against Spark's jars alone they stop at "package ... does not exist".
// Maven, sbt and Gradle builds are read. The module's pom.xml and those
// of its parents and sibling modules in the repository, the build.sbt
// that defines the module's project and the projects it depends on, or
// the Gradle settings and scripts of the project and those it depends
// on, are read as data: udfx never runs the repository's build (its plugins, its
// extensions and the Scala of build.sbt are code a pull request
// controls). Libraries are resolved by Maven over a
// pom udfx writes, which names their coordinates and nothing else, so
// resolving them downloads jars and runs no code of the repository's.
package buildpath

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Classpath is what a JVM original needs beyond Spark's jars.
type Classpath struct {
	// Build names the build file that declared it, relative to the
	// repository root ("udfs/pom.xml"), for reports.
	Build string
	// SourceRoots are the source folders of the original's module and of
	// the repository's modules it depends on, absolute: the compiler
	// finds the classes the original uses there.
	SourceRoots []string
	// Jars are the declared libraries and what they depend on, absolute,
	// in Maven's order. At run time they come after Spark's jars, as a
	// job's dependencies do on a cluster.
	Jars []string
}

// Empty reports whether c adds nothing to Spark's jars.
func (c *Classpath) Empty() bool { return c == nil || len(c.SourceRoots) == 0 && len(c.Jars) == 0 }

// Error is a build udfx found and could not read or resolve; it names the
// build file and what in it failed.
type Error struct {
	Build string
	Msg   string
}

func (e *Error) Error() string { return e.Build + ": " + e.Msg }

// moduleOf is the folder of the build file nearest above file, up to
// root, and that file's name; "" when there is none.
func moduleOf(file, root string) (string, string) {
	dir := filepath.Dir(file)
	for {
		for _, name := range append([]string{"pom.xml", "build.sbt"}, gradleBuildFiles...) {
			if st, err := os.Stat(filepath.Join(dir, name)); err == nil && st.Mode().IsRegular() {
				return dir, name
			}
		}
		if dir == root || !strings.HasPrefix(dir, root+string(filepath.Separator)) {
			return "", ""
		}
		dir = filepath.Dir(dir)
	}
}

// rel is p relative to root, slash-separated, for messages.
func rel(root, p string) string {
	if r, err := filepath.Rel(root, p); err == nil {
		return filepath.ToSlash(r)
	}
	return p
}

// Options configure Resolve.
type Options struct {
	// CacheDir keeps resolved classpaths, keyed by what was resolved.
	CacheDir string
	// SparkJars is the folder of Spark's jars: a library Spark ships is
	// taken from there, as a job on a cluster takes it.
	SparkJars string
	// Env reads PATH (for mvn) and ClasspathEnv; os.Getenv when nil.
	Env func(string) string
}

// ClasspathEnv names the variable that gives a JVM original's classpath
// beyond Spark's jars instead of its build: jars, class folders and
// folder/* (every jar in it), separated as in Java's CLASSPATH, for a
// build udfx does not read (Bazel, Mill, a form of one it refuses). It is
// the environment of the command (the user's, CI's), never a file of the
// repository.
const ClasspathEnv = "UDFX_CLASSPATH"

// fromEnv is the classpath ClasspathEnv gives: each entry must exist.
func fromEnv(list string) (*Classpath, error) {
	cp := &Classpath{Build: ClasspathEnv}
	for _, entry := range filepath.SplitList(list) {
		if entry == "" {
			continue
		}
		if !filepath.IsAbs(entry) {
			abs, err := filepath.Abs(entry)
			if err != nil {
				return nil, &Error{Build: ClasspathEnv, Msg: err.Error()}
			}
			entry = abs
		}
		if strings.HasSuffix(entry, string(filepath.Separator)+"*") {
			jars, err := filepath.Glob(filepath.Join(filepath.Dir(entry), "*.jar"))
			if err != nil || len(jars) == 0 {
				return nil, &Error{Build: ClasspathEnv, Msg: fmt.Sprintf("%s holds no jar", entry)}
			}
			cp.Jars = append(cp.Jars, jars...)
			continue
		}
		if _, err := os.Stat(entry); err != nil {
			return nil, &Error{Build: ClasspathEnv, Msg: fmt.Sprintf("entry %s: %v", entry, err)}
		}
		cp.Jars = append(cp.Jars, entry)
	}
	return cp, nil
}

// Resolve is the classpath the build of the module holding file declares,
// file and root absolute (root: the repository's root; the build is
// looked for up to it). It is nil, with no error, when the file is in no
// build udfx reads.
func Resolve(ctx context.Context, file, root string, opts Options) (*Classpath, error) {
	if opts.Env == nil {
		opts.Env = os.Getenv
	}
	if list := opts.Env(ClasspathEnv); list != "" {
		return fromEnv(list)
	}
	dir, name := moduleOf(file, root)
	switch name {
	case "pom.xml":
		return resolveMaven(ctx, filepath.Join(dir, name), root, opts)
	case "build.sbt":
		return resolveSbt(ctx, filepath.Join(dir, name), file, root, opts)
	case "build.gradle", "build.gradle.kts":
		return resolveGradle(ctx, filepath.Join(dir, name), file, root, opts)
	}
	return nil, nil
}

// RepoRoot is the folder Resolve looks for builds up to: root when it is
// set (udfx rewrite and verify set it), otherwise the nearest folder
// above dir holding .git, otherwise dir itself.
func RepoRoot(root, dir string) string {
	if root != "" {
		if abs, err := filepath.Abs(root); err == nil {
			return abs
		}
		return root
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return dir
		}
	}
}
