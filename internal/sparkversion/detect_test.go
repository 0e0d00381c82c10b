package sparkversion

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestDetectTree(t *testing.T) {
	root := writeTree(t, map[string]string{
		"requirements.txt":             "pandas\npyspark==3.5.1\n",
		"jobs/pyproject.toml":          "[project]\ndependencies = [\"pyspark>=3.5,<3.6\"]\n",
		"jvm/build.sbt":                "val sparkVersion = \"3.5.0\"\nlibraryDependencies += \"org.apache.spark\" %% \"spark-sql\" % sparkVersion\n",
		"README.md":                    "pip install pyspark==3.1.1\n",
		".venv/lib/requirements.txt":   "pyspark==3.1.1\n",
		"venv/requirements.txt":        "pyspark==3.1.1\n",
		"node_modules/x/pom.xml":       "<project/>",
		"vendor/requirements.txt":      "pyspark==3.1.1\n",
		"target/build.sbt":             "libraryDependencies += \"org.apache.spark\" %% \"spark-sql\" % \"3.1.1\"\n",
		"build/requirements.txt":       "pyspark==3.1.1\n",
		".git/requirements.txt":        "pyspark==3.1.1\n",
		".udfx/requirements.txt":       "pyspark==3.1.1\n",
		"lib/site-packages/setup.py":   "setup(install_requires=['pyspark==3.1.1'])\n",
		"__pycache__/requirements.txt": "pyspark==3.1.1\n",
	})
	got, err := Detect(root)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, d := range got {
		lines = append(lines, d.String())
	}
	want := []string{
		`jobs/pyproject.toml:2: pyspark>=3.5,<3.6 (Spark 3.5)`,
		`jvm/build.sbt:1: val sparkVersion = "3.5.0" (Spark 3.5)`,
		`requirements.txt:2: pyspark==3.5.1 (Spark 3.5)`,
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	d, ok, err := Resolve(got)
	if err != nil || !ok || d.Version != "3.5" || d.File != "jobs/pyproject.toml" {
		t.Fatalf("Resolve = %+v, %v, %v", d, ok, err)
	}
}

func TestDetectSortsByFileThenLine(t *testing.T) {
	root := writeTree(t, map[string]string{
		"b/requirements.txt": "pyspark==3.5.1\n",
		"a/requirements.txt": "x\npyspark==3.5.2 ; python_version>'3.8'\npyspark==3.5.1 ; python_version<='3.8'\n",
	})
	got, err := Detect(root)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, d := range got {
		keys = append(keys, d.File+":"+string(rune('0'+d.Line)))
	}
	if strings.Join(keys, " ") != "a/requirements.txt:2 a/requirements.txt:3 b/requirements.txt:1" {
		t.Fatalf("order: %v", keys)
	}
}

func TestDetectUnreadableFile(t *testing.T) {
	root := t.TempDir()
	// A dangling symlink cannot be read whoever runs the test (root
	// ignores file modes).
	if err := os.Symlink(filepath.Join(root, "missing"), filepath.Join(root, "requirements.txt")); err != nil {
		t.Fatalf("symlink: %v", err) // udfx runs on Linux and macOS, which have them
	}
	_, err := Detect(root)
	if err == nil || !strings.Contains(err.Error(), "requirements.txt") {
		t.Fatalf("err = %v, want one naming requirements.txt", err)
	}
}

func TestDetectEmpty(t *testing.T) {
	got, err := Detect(writeTree(t, map[string]string{"main.py": "import pyspark\n"}))
	if err != nil || len(got) != 0 {
		t.Fatalf("got %v, %v", got, err)
	}
	if _, ok, err := Resolve(got); ok || err != nil {
		t.Fatalf("Resolve of none: ok=%v err=%v", ok, err)
	}
}

func TestResolve(t *testing.T) {
	a := Declared{Version: "3.5", Full: "3.5.1", File: "requirements.txt", Line: 2, Text: "pyspark==3.5.1"}
	b := Declared{Version: "3.5", Full: "", File: "pyproject.toml", Line: 4, Text: "pyspark~=3.5.0"}
	c := Declared{Version: "4.0", Full: "4.0.0", File: "pom.xml", Line: 9, Text: "<spark.version>4.0.0</spark.version>"}

	d, ok, err := Resolve([]Declared{a, b})
	if err != nil || !ok || d != a {
		t.Fatalf("agreement: %+v %v %v", d, ok, err)
	}
	d, ok, err = Resolve([]Declared{c})
	if err != nil || !ok || d != c {
		t.Fatalf("single: %+v %v %v", d, ok, err)
	}

	_, ok, err = Resolve([]Declared{a, b, c})
	if ok || err == nil {
		t.Fatalf("conflict: ok=%v err=%v", ok, err)
	}
	var ce *ConflictError
	if !errors.As(err, &ce) || !IsConflict(err) {
		t.Fatalf("err %T is not a *ConflictError", err)
	}
	if ce.A != a || ce.B != c {
		t.Fatalf("conflict names %+v and %+v", ce.A, ce.B)
	}
	for _, part := range []string{"requirements.txt:2", "pyspark==3.5.1", "pom.xml:9", "<spark.version>4.0.0</spark.version>", "3.5", "4.0"} {
		if !strings.Contains(err.Error(), part) {
			t.Errorf("message %q lacks %q", err.Error(), part)
		}
	}
}
