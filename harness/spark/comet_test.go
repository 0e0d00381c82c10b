package spark

import (
	"archive/zip"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/udfx/udfx/harness/mavenjar"
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
	jar, err := mavenjar.Resolve(context.Background(), mavenjar.Comet, func(s string) { t.Log(s) })
	if err != nil {
		t.Fatal(err)
	}
	if err := checkCometJar(jar); err != nil {
		t.Errorf("the Comet %s jar: %v", CometVersion, err)
	}
	if err := (Config{Comet: jar, Remote: "sc://localhost:15002"}).checkComet(); err == nil {
		t.Error("Comet over Spark Connect is refused")
	}
}
