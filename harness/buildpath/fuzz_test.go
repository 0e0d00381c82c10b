package buildpath

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// FuzzPom reads arbitrary bytes as a module's pom.xml: reading never
// panics, and the pom udfx would hand Maven from it is well-formed XML
// that declares dependencies and nothing else, whatever markup the
// repository's pom holds where coordinates go.
func FuzzPom(f *testing.F) {
	for _, p := range []string{"testdata/shop/pom.xml", "testdata/shop/udfs/pom.xml"} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`<project><properties><v>${v}</v></properties><dependencies><dependency><groupId>${v}</groupId><artifactId>a&lt;b</artifactId><version>1</version></dependency></dependencies></project>`))
	f.Fuzz(func(t *testing.T, b []byte) {
		dir := t.TempDir()
		path := filepath.Join(dir, "pom.xml")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		p, err := readPom(path)
		if err != nil {
			return
		}
		deps, boms := p.effective()
		var ok []dependency
		for _, d := range append(deps, boms...) {
			if coordRE.MatchString(d.GroupID) && coordRE.MatchString(d.ArtifactID) &&
				(d.Version == "" || coordRE.MatchString(d.Version)) && (d.Type == "" || coordRE.MatchString(d.Type)) &&
				(d.Classifier == "" || coordRE.MatchString(d.Classifier)) {
				ok = append(ok, d)
			}
		}
		out := syntheticPom(ok, nil)
		var check struct {
			XMLName xml.Name
			Build   *struct{} `xml:"build"`
			Repos   *struct{} `xml:"repositories"`
		}
		if err := xml.Unmarshal(out, &check); err != nil {
			t.Fatalf("the synthetic pom is not XML: %v\n%s", err, out)
		}
		if check.Build != nil || check.Repos != nil || strings.Count(string(out), "<dependency>") != len(ok) {
			t.Fatalf("the synthetic pom declares more than its %d dependencies:\n%s", len(ok), out)
		}
	})
}

// FuzzSbt reads arbitrary text as build.sbt: reading never panics, every
// project has its name and a folder, and every dependency read names a
// line of the file (coordinates are checked before any pom is written,
// as FuzzPom checks).
func FuzzSbt(f *testing.F) {
	b, err := os.ReadFile("testdata/trips/build.sbt")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add([]byte("libraryDependencies += \"a\" %% \"b\" % v % Test\nval v = \"1\"\nlazy val x = project.in(file(\"x\")).dependsOn(y % \"test\")\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		dir := t.TempDir()
		path := filepath.Join(dir, "build.sbt")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		build, err := readSbt(path)
		if err != nil {
			return
		}
		for name, p := range build.projects {
			if p.dir == "" || p.name != name {
				t.Fatalf("project %q: folder %q, name %q", name, p.dir, p.name)
			}
			for _, d := range p.deps {
				if d.line < 1 || d.line > strings.Count(string(b), "\n")+1 {
					t.Fatalf("project %q: dependency %s:%s at line %d of %q", name, d.GroupID, d.ArtifactID, d.line, b)
				}
			}
		}
		_ = build.projectOf(filepath.Join(dir, "src", "U.scala"))
	})
}

// FuzzGradle reads arbitrary text as a Gradle build script and its
// settings: reading never panics, every dependency read names a line of
// the file, and every problem names one too.
func FuzzGradle(f *testing.F) {
	for _, p := range []string{"testdata/rides/build.gradle", "testdata/rides/udfs/build.gradle", "testdata/rides/common/build.gradle.kts"} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("dependencies {\n implementation(\"a:b:$v\") {\n exclude(group = \"c\")\n }\n api group: 'a', name: \"${x.y}\"\n}\n'''unterminated"))
	f.Fuzz(func(t *testing.T, b []byte) {
		dir := t.TempDir()
		path := filepath.Join(dir, "build.gradle")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "settings.gradle"), b, 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := readGradleScript(path, map[string]string{"v": "1"}, true)
		if err != nil {
			return
		}
		lines := strings.Count(string(b), "\n") + 1
		for _, d := range append(append(slices.Clone(s.deps), s.sub...), s.all...) {
			if d.line < 1 || d.line > lines {
				t.Fatalf("dependency %s:%s at line %d of %q", d.GroupID, d.ArtifactID, d.line, b)
			}
		}
		for _, p := range append(slices.Clone(s.problems), s.shared...) {
			if !strings.HasPrefix(p, "line ") {
				t.Fatalf("problem without a line: %q", p)
			}
		}
		if _, err := readGradleSettings(dir); err != nil {
			t.Fatalf("settings: %v", err)
		}
	})
}
