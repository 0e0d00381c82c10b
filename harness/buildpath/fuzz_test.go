package buildpath

import (
	"encoding/xml"
	"os"
	"path/filepath"
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
