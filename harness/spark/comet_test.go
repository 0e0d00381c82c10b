package spark

import (
	"archive/zip"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/udfx/udfx/harness/mavenjar"
	"github.com/udfx/udfx/harness/testsetup"
)

func TestCheckCometJar(t *testing.T) {
	dir := t.TempDir()
	notZip := filepath.Join(dir, "not-a.jar")
	if err := os.WriteFile(notZip, []byte("text"), 0o644); err != nil {
		t.Fatal(err)
	}
	otherJar := filepath.Join(dir, "other.jar")
	f, err := os.Create(otherJar)
	if err != nil {
		t.Fatal(err)
	}
	z := zip.NewWriter(f)
	if _, err := z.Create("org/apache/spark/CometPlugin.class"); err != nil {
		t.Fatal(err)
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for path, want := range map[string]string{
		filepath.Join(dir, "missing.jar"): "no such file",
		dir:                               "is not a file",
		notZip:                            "not a valid zip file",
		otherJar:                          "is not a DataFusion Comet jar: it has no org/apache/comet/ExtendedExplainInfo.class",
	} {
		err := checkCometJar(path)
		var ee *EnvError
		if !errors.As(err, &ee) || !strings.Contains(err.Error(), want) {
			t.Errorf("checkCometJar(%s) = %v, want an EnvError with %q", path, err, want)
		}
	}
	// The real jar, fetched into the local Maven repository when missing.
	jar := testsetup.Jar(t, mavenjar.Comet)
	if err := checkCometJar(jar); err != nil {
		t.Errorf("the Comet %s jar: %v", CometVersion, err)
	}
	if err := (Config{Comet: jar, Remote: "sc://localhost:15002"}).checkComet(); err == nil {
		t.Error("Comet over Spark Connect is refused")
	}
}

// The generator of the real Comet plan fixtures runs with udfx's Comet
// settings; it is Python, so it carries a copy, which must not drift.
func TestCometPlanGeneratorUsesCometSettings(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "plan", "testdata", "comet", "gen_comet_plans.py"))
	if err != nil {
		t.Fatal(err)
	}
	body := string(src)
	start := strings.Index(body, "COMET = {")
	end := strings.Index(body[start:], "\n}")
	if start < 0 || end < 0 {
		t.Fatal("gen_comet_plans.py has no COMET = {...} dict")
	}
	got := map[string]string{}
	for _, l := range strings.Split(body[start+len("COMET = {"):start+end], "\n") {
		l = strings.TrimSuffix(strings.TrimSpace(l), ",")
		if l == "" {
			continue
		}
		k, v, ok := strings.Cut(l, ": ")
		if !ok {
			t.Fatalf("COMET entry %q is not \"key\": \"value\"", l)
		}
		got[strings.Trim(k, `"`)] = strings.Trim(v, `"`)
	}
	if len(got) != len(CometSettings) {
		t.Errorf("the generator sets %d Comet settings, udfx %d: %v", len(got), len(CometSettings), got)
	}
	for k, v := range CometSettings {
		if got[k] != v {
			t.Errorf("%s: the generator sets %q, udfx %q", k, got[k], v)
		}
	}
}
