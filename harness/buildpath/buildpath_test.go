package buildpath

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func fixture(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("testdata/shop")
	require.NoError(t, err)
	return root
}

// The UDF's module declares a library beyond Spark's jars, with its
// version managed by the parent, and depends on a sibling module: the
// classpath holds the library's jar, as Maven resolves it, and the
// sources of both modules. Spark itself (provided) and test
// dependencies are left out.
func TestAMavenModuleGetsItsLibrariesAndItsSiblingModules(t *testing.T) {
	root := fixture(t)
	file := filepath.Join(root, "udfs/src/main/java/com/acme/udfs/NormalizeSku.java")
	cp, err := Resolve(context.Background(), file, root, Options{CacheDir: t.TempDir()})
	require.NoError(t, err)
	require.NotNil(t, cp)
	assert.Equal(t, "udfs/pom.xml", cp.Build)
	assert.Equal(t, []string{filepath.Join(root, "udfs/src/main/java"), filepath.Join(root, "udfs/src/main/scala"), filepath.Join(root, "common/src/main/java"), filepath.Join(root, "common/src/main/scala")}, cp.SourceRoots)
	require.Len(t, cp.Jars, 1, "%v", cp.Jars)
	assert.Equal(t, "jspecify-1.0.0.jar", filepath.Base(cp.Jars[0]))
	_, err = os.Stat(cp.Jars[0])
	assert.NoError(t, err)
}

// A file outside any build has no classpath beyond Spark's jars.
func TestAFileInNoBuildHasNoClasspath(t *testing.T) {
	root := fixture(t)
	cp, err := Resolve(context.Background(), filepath.Join(root, "python/shop_etl/jobs/prices.py"), root, Options{CacheDir: t.TempDir()})
	require.NoError(t, err)
	assert.True(t, cp.Empty())
}

// A version udfx cannot read is an error naming the build file and the
// dependency, never a guess; so is markup where a coordinate goes.
func TestAnUnreadableDependencyIsAnErrorNamingIt(t *testing.T) {
	for name, dep := range map[string]string{
		"unmanaged":  `<dependency><groupId>org.jspecify</groupId><artifactId>jspecify</artifactId></dependency>`,
		"unresolved": `<dependency><groupId>org.jspecify</groupId><artifactId>jspecify</artifactId><version>${nowhere}</version></dependency>`,
		"system":     `<dependency><groupId>x.y</groupId><artifactId>z</artifactId><version>1</version><scope>system</scope></dependency>`,
	} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			mod := filepath.Join(root, "m")
			require.NoError(t, os.MkdirAll(filepath.Join(mod, "src/main/java"), 0o755))
			pom := `<project><modelVersion>4.0.0</modelVersion><groupId>g</groupId><artifactId>m</artifactId><version>1</version><dependencies>` + dep + `</dependencies></project>`
			require.NoError(t, os.WriteFile(filepath.Join(mod, "pom.xml"), []byte(pom), 0o644))
			file := filepath.Join(mod, "src/main/java/U.java")
			_, err := Resolve(context.Background(), file, root, Options{CacheDir: t.TempDir()})
			var be *Error
			require.ErrorAs(t, err, &be)
			assert.Equal(t, "m/pom.xml", be.Build)
			assert.True(t, strings.Contains(be.Msg, "jspecify") || strings.Contains(be.Msg, "x.y:z"), be.Msg)
		})
	}
}

// The pom udfx hands Maven declares the coordinates and nothing else.
func TestTheSyntheticPomDeclaresOnlyDependencies(t *testing.T) {
	got := string(syntheticPom([]dependency{{GroupID: "org.jspecify", ArtifactID: "jspecify", Version: "1.0.0",
		Exclusions: []exclusion{{GroupID: "a", ArtifactID: "*"}, {GroupID: "<bad>", ArtifactID: "x"}}}}, nil))
	assert.Contains(t, got, "<dependency><groupId>org.jspecify</groupId><artifactId>jspecify</artifactId><version>1.0.0</version><scope>compile</scope><exclusions><exclusion><groupId>a</groupId><artifactId>*</artifactId></exclusion></exclusions></dependency>")
	assert.NotContains(t, got, "<bad>")
	assert.NotContains(t, got, "<build>")
	assert.NotContains(t, got, "<repositories>")
}

func sbtFixture(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("testdata/trips")
	require.NoError(t, err)
	return root
}

// An sbt project gets the libraries build.sbt declares for it and for the
// projects it depends on (a Scala library with the build's binary
// suffix), and their sources; Spark (provided) and test libraries are
// left out. build.sbt is read, never run.
func TestAnSbtProjectGetsItsLibrariesAndTheProjectsItDependsOn(t *testing.T) {
	root := sbtFixture(t)
	file := filepath.Join(root, "udfs/src/main/scala/com/acme/udfs/Trips.scala")
	cp, err := Resolve(context.Background(), file, root, Options{CacheDir: t.TempDir()})
	require.NoError(t, err)
	require.NotNil(t, cp)
	assert.Equal(t, "build.sbt", cp.Build)
	assert.Equal(t, []string{filepath.Join(root, "udfs/src/main/scala"), filepath.Join(root, "common/src/main/scala")}, cp.SourceRoots)
	var names []string
	for _, j := range cp.Jars {
		names = append(names, filepath.Base(j))
	}
	assert.ElementsMatch(t, []string{"sourcecode_2.13-0.4.2.jar", "jspecify-1.0.0.jar"}, names)
}

// What build.sbt says in a form udfx does not read, or for another Scala
// than Spark's, is an error naming the line, once a UDF's project needs
// it; never a guess.
func TestAnSbtBuildUdfxCannotReadIsAnErrorNamingTheLine(t *testing.T) {
	for name, tc := range map[string]struct{ build, want string }{
		"dependency from an object": {`libraryDependencies += Dependencies.cats`, "build.sbt: line 1: a dependency udfx does not read"},
		"version from a setting":    {"libraryDependencies += \"a\" % \"b\" % version.value", "line 1: dependency"},
		"scala 2.12":                {"scalaVersion := \"2.12.18\"\nlibraryDependencies += \"com.lihaoyi\" %% \"sourcecode\" % \"0.4.2\"", "line 2: com.lihaoyi %% sourcecode needs the build's Scala version, and the build sets scalaVersion 2.12.18"},
		"no scala version":          {`libraryDependencies += "com.lihaoyi" %% "sourcecode" % "0.4.2"`, "sets no scalaVersion (sbt's default is 2.12)"},
		"unknown project":           {`lazy val udfs = (project in file(".")).dependsOn(core)`, "project udfs depends on core, which udfx does not find in the build"},
	} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(root, "build.sbt"), []byte(tc.build+"\n"), 0o644))
			file := filepath.Join(root, "src/main/scala/U.scala")
			_, err := Resolve(context.Background(), file, root, Options{CacheDir: t.TempDir()})
			var be *Error
			require.ErrorAs(t, err, &be)
			assert.Contains(t, be.Error(), tc.want)
		})
	}
}

// UDFX_CLASSPATH replaces what the build would give, whatever build the
// file is in; an entry that is not there is an error naming it.
func TestTheClasspathVariableReplacesTheBuild(t *testing.T) {
	root := fixture(t)
	file := filepath.Join(root, "udfs/src/main/java/com/acme/udfs/NormalizeSku.java")
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.jar"), nil, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "b.jar"), nil, 0o644))
	env := func(list string) func(string) string {
		return func(k string) string {
			if k == ClasspathEnv {
				return list
			}
			return os.Getenv(k)
		}
	}
	sep := string(os.PathListSeparator)
	cp, err := Resolve(context.Background(), file, root, Options{CacheDir: t.TempDir(), Env: env(root + sep + filepath.Join(dir, "*"))})
	require.NoError(t, err)
	assert.Equal(t, &Classpath{Build: ClasspathEnv, Jars: []string{root, filepath.Join(dir, "a.jar"), filepath.Join(dir, "b.jar")}}, cp)

	for list, want := range map[string]string{
		filepath.Join(dir, "nowhere.jar"):  "UDFX_CLASSPATH: entry " + filepath.Join(dir, "nowhere.jar") + ": ",
		filepath.Join(root, "common", "*"): "UDFX_CLASSPATH: " + filepath.Join(root, "common", "*") + " holds no jar",
	} {
		_, err := Resolve(context.Background(), file, root, Options{CacheDir: t.TempDir(), Env: env(list)})
		var be *Error
		require.ErrorAs(t, err, &be, list)
		assert.Contains(t, be.Error(), want)
	}
}
