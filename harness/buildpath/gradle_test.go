package buildpath

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func gradleFixture(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("testdata/rides")
	require.NoError(t, err)
	return root
}

// A Gradle project gets the libraries its script declares, with versions
// from gradle.properties (Groovy's "${v}", Kotlin's "$v"), and the
// sources of the projects it depends on (project(':common'), whose
// Kotlin script declares its own library). Spark (compileOnly, from the
// root script's subprojects block, its version in ext), test libraries
// and annotation processors are left out. No script is run.
func TestAGradleProjectGetsItsLibrariesAndTheProjectsItDependsOn(t *testing.T) {
	root := gradleFixture(t)
	file := filepath.Join(root, "udfs/src/main/java/com/acme/rides/udfs/FareBand.java")
	cp, err := Resolve(context.Background(), file, root, Options{CacheDir: t.TempDir()})
	require.NoError(t, err)
	require.NotNil(t, cp)
	assert.Equal(t, "udfs/build.gradle", cp.Build)
	assert.Equal(t, []string{filepath.Join(root, "udfs/src/main/java"), filepath.Join(root, "common/src/main/java")}, cp.SourceRoots)
	var names []string
	for _, j := range cp.Jars {
		names = append(names, filepath.Base(j))
	}
	assert.Equal(t, []string{"jspecify-1.0.0.jar"}, names)
}

// The declarations udfx reads, in both script languages.
func TestGradleDependenciesAreReadInTheirCommonForms(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "build.gradle.kts")
	require.NoError(t, os.WriteFile(path, []byte(`
val guavaVersion = "33.0.0-jre"
ext["commonsVersion"] = "1.11.0"
dependencies {
    implementation("com.google.guava:guava:$guavaVersion")
    api(group = "org.apache.commons", name = "commons-text", version = "${commonsVersion}")
    implementation(platform("com.fasterxml.jackson:jackson-bom:2.17.0"))
    runtimeOnly("org.postgresql:postgresql:42.7.3@jar")
    compileOnly(
        "org.projectlombok:lombok:1.18.30"
    )
    implementation(project(path = ":core"))
    testImplementation(kotlin("test"))
}
`), 0o644))
	s, err := readGradleScript(path, map[string]string{}, false)
	require.NoError(t, err)
	assert.Empty(t, s.problems)
	var got []string
	for _, d := range s.deps {
		switch {
		case d.project != "":
			got = append(got, "project "+d.project)
		case d.bom:
			got = append(got, "bom "+d.GroupID+":"+d.ArtifactID+":"+d.Version)
		default:
			got = append(got, d.GroupID+":"+d.ArtifactID+":"+d.Version+"@"+d.Type)
		}
	}
	assert.Equal(t, []string{
		"com.google.guava:guava:33.0.0-jre@",
		"org.apache.commons:commons-text:1.11.0@",
		"bom com.fasterxml.jackson:jackson-bom:2.17.0",
		"org.postgresql:postgresql:42.7.3@jar",
		"org.projectlombok:lombok:1.18.30@",
		"project :core",
	}, got)
}

// What a Gradle script says in a form udfx does not read is an error
// naming the script and the line, once a UDF's project needs it: never a
// guess, never a run of the script.
func TestAGradleScriptUdfxCannotReadIsAnErrorNamingTheLine(t *testing.T) {
	for name, tc := range map[string]struct{ deps, want string }{
		"local jars":           {"implementation files('libs/geo.jar')", "build.gradle: line 3: dependency files(\"libs/geo.jar\") is not a coordinate udfx reads"},
		"version catalog":      {"implementation libs.guava", "line 3: dependency libs.guava is not one udfx reads"},
		"excludes":             {"implementation('a.b:c:1') {\n  exclude group: 'x'\n}", "line 3: dependency (\"a.b:c:1\"){exclude group:\"x\"} has a configuration block"},
		"unknown variable":     {`implementation "a.b:c:${nowhere}"`, "line 3: dependency \"a.b:c:${nowhere}\" uses a variable udfx does not find"},
		"other configuration":  {"shadow 'a.b:c:1'", "line 3: `shadow` in dependencies is not a configuration udfx reads"},
		"project not included": {"implementation project(':core')", "line 3: project :core is not included by the build's settings"},
	} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(root, "build.gradle"), []byte("plugins { id 'java' }\ndependencies {\n"+tc.deps+"\n}\n"), 0o644))
			file := filepath.Join(root, "src/main/java/U.java")
			_, err := Resolve(context.Background(), file, root, Options{CacheDir: t.TempDir()})
			var be *Error
			require.ErrorAs(t, err, &be)
			assert.Contains(t, be.Error(), tc.want)
		})
	}
}

// A project the settings do not include is not guessed at.
func TestAGradleProjectTheSettingsDoNotIncludeIsAnError(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(root, "settings.gradle"), []byte("include 'app'\n"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(root, "tools"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "tools", "build.gradle"), []byte("dependencies {}\n"), 0o644))
	_, err := Resolve(context.Background(), filepath.Join(root, "tools/src/main/java/U.java"), root, Options{CacheDir: t.TempDir()})
	var be *Error
	require.ErrorAs(t, err, &be)
	assert.Contains(t, be.Error(), "the project in tools is not included by the settings in .")
}

// A variable assigned anywhere udfx does not follow (a block, an if) has
// no value udfx is sure of: the dependency that uses it is an error, not
// the first value's guess.
func TestAGradleVariableReassignedOutOfSightHasNoValue(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "build.gradle")
	require.NoError(t, os.WriteFile(path, []byte(`def v = '1.0'
if (System.getenv('NEW')) {
    v = '2.0'
}
dependencies {
    implementation "a.b:c:${v}"
}
`), 0o644))
	s, err := readGradleScript(path, map[string]string{}, false)
	require.NoError(t, err)
	assert.Empty(t, s.deps)
	assert.Equal(t, []string{`line 6: dependency "a.b:c:${v}" uses a variable udfx does not find`}, []string(s.problems))
}

// Dependencies declared where udfx cannot tell whose they are (a root
// script's project(':x') { } block) are an error, not left out.
func TestGradleDependenciesUdfxCannotAttributeAreAnError(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(root, "settings.gradle"), []byte("include 'app'\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(root, "build.gradle"), []byte("buildscript {\n  dependencies { classpath 'x:y:1' }\n}\nproject(':app') {\n  dependencies {\n    implementation 'a.b:c:1'\n  }\n}\n"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(root, "app"), 0o755))
	_, err := Resolve(context.Background(), filepath.Join(root, "app/src/main/java/U.java"), root, Options{CacheDir: t.TempDir()})
	var be *Error
	require.ErrorAs(t, err, &be)
	assert.Contains(t, be.Error(), "line 5: a dependencies block inside project(...) { } is not read")
}
