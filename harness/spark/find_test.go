package spark

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/udfx/udfx/harness/runner/jvm"
)

// envWith overrides some variables of this process's environment.
func envWith(over map[string]string) func(string) string {
	return func(k string) string {
		if v, ok := over[k]; ok {
			return v
		}
		return os.Getenv(k)
	}
}

// fakeJava writes a java launcher that prints the given version banner,
// as java -version does (on stderr).
func fakeJava(t *testing.T, banner string) string {
	t.Helper()
	home := t.TempDir()
	bin := filepath.Join(home, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\necho '" + banner + "' >&2\n"
	if err := os.WriteFile(filepath.Join(bin, "java"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return home
}

func TestFindErrors(t *testing.T) {
	root := repoRoot(t)
	old := fakeJava(t, `openjdk version "11.0.22" 2024-01-16`)
	java8 := fakeJava(t, `openjdk version "1.8.0_392"`)
	emptyPath := t.TempDir()
	noPyspark := t.TempDir()
	// A Python that has no pyspark: the interpreter run with -I (isolated)
	// from a wrapper cannot see the .venv's site-packages.
	py := filepath.Join(noPyspark, "python")
	if err := os.WriteFile(py, []byte("#!/bin/sh\nexec /usr/bin/env -i /usr/bin/python3 -I -S \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		env    map[string]string
		remote bool
		what   string
		says   []string
	}{
		{"JAVA_HOME without java", map[string]string{"JAVA_HOME": "/nonexistent/jdk"}, false, "Java",
			[]string{"JAVA_HOME is /nonexistent/jdk", "Java 17 or 21"}},
		{"no java at all", map[string]string{"JAVA_HOME": "", "PATH": emptyPath}, false, "Java",
			[]string{"no Java", "JAVA_HOME is not set", "apt-get install openjdk-17"}},
		{"Java 11 for Spark 4", map[string]string{"JAVA_HOME": old}, false, "Java",
			[]string{"Java 11.0.22", "runs on Java 17 or 21", "set JAVA_HOME"}},
		{"Java 8 for Spark 4", map[string]string{"JAVA_HOME": java8}, false, "Java",
			[]string{"Java 1.8.0_392"}},
		{"bad SPARK_HOME", map[string]string{"SPARK_HOME": emptyPath}, false, "Spark",
			[]string{"SPARK_HOME is " + emptyPath, "not a Spark distribution"}},
		{"no pyspark", map[string]string{"UDFX_PYTHON": py}, false, "Spark",
			[]string{"has no pyspark", "pip install pyspark==" + PinnedVersion, "SPARK_HOME"}},
		{"UDFX_PYTHON missing", map[string]string{"UDFX_PYTHON": "/nonexistent/python"}, false, "Python",
			[]string{"UDFX_PYTHON is /nonexistent/python"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Find(context.Background(), envWith(tc.env), root, tc.remote)
			var ee *EnvError
			if !errors.As(err, &ee) || ee.What != tc.what {
				t.Fatalf("err %v, want an EnvError about %s", err, tc.what)
			}
			for _, s := range tc.says {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("%q does not say %q", err, s)
				}
			}
		})
	}
}

// A Connect session needs no local Java.
func TestFindRemoteNeedsNoJava(t *testing.T) {
	in, err := Find(context.Background(), envWith(map[string]string{"JAVA_HOME": "/nonexistent/jdk"}), repoRoot(t), true)
	if err != nil {
		t.Fatal(err)
	}
	if in.Java != "" || in.SparkVersion == "" {
		t.Errorf("%+v", in)
	}
}

func TestFindLocal(t *testing.T) {
	in, err := Find(context.Background(), nil, repoRoot(t), false)
	if err != nil {
		t.Fatal(err)
	}
	if in.SparkMajor() < 3 || in.JavaMajor < 8 || in.Jars == "" || in.ScalaBinary == "" || !strings.Contains(in.From, "pyspark") && in.SparkHome == "" {
		t.Errorf("%+v", in)
	}
}

func TestJavaSupported(t *testing.T) {
	tests := []struct {
		spark, java int
		ok          bool
	}{
		{4, 17, true}, {4, 21, true}, {4, 11, false}, {4, 8, false},
		{3, 8, true}, {3, 11, true}, {3, 17, true}, {3, 21, false}, {3, 7, false},
	}
	for _, tc := range tests {
		if ok, _ := javaSupported(tc.spark, tc.java); ok != tc.ok {
			t.Errorf("Spark %d on Java %d: %v", tc.spark, tc.java, ok)
		}
	}
	for v, want := range map[string]int{"1.8.0_392": 8, "17.0.15": 17, "21": 21, "11.0.22+7": 11} {
		if got := jvm.JavaMajor(v); got != want {
			t.Errorf("jvm.JavaMajor(%q) = %d", v, got)
		}
	}
}
