// Package tmpltest checks a renderer's generated template file against
// templates/ in the renderer's tests.
package tmpltest

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/udfx/udfx/internal/tmplsrc"
)

// Check fails t when genFile (the renderer's generated file of package
// pkg, declaring varName as embedded) differs from the templates in dir;
// with update it writes genFile instead.
func Check(t testing.TB, update bool, dir, genFile, pkg, varName string, embedded map[string]string) {
	t.Helper()
	files, err := tmplsrc.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	// The header names the folder from the repository root.
	from := strings.TrimLeft(filepath.ToSlash(dir), "./")
	want, err := tmplsrc.GoFile(pkg, varName, from, files)
	if err != nil {
		t.Fatal(err)
	}
	if update {
		if err := os.WriteFile(genFile, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(genFile)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) || !reflect.DeepEqual(embedded, files) {
		t.Fatalf("%s does not match the templates in %s: run go test -run TestTemplatesMatchTheFolder -update in its folder", genFile, dir)
	}
}
