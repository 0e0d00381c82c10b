package jvm

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/value"
)

func TestCompileErrorParsing(t *testing.T) {
	const file = "/src/A.scala"
	cases := []struct {
		out  string
		line int
		msg  string
	}{
		// scalac 2.13.17, verbatim (testdata/Broken.scala).
		{file + ":5: error: type mismatch;\n found   : Double\n required: String\n    val y: String = x\n                    ^\n2 errors\n", 5, "type mismatch; found   : Double required: String"},
		// javac 17, verbatim (testdata/BrokenJava.java).
		{file + ":8: error: incompatible types: Double cannot be converted to String\n    String y = x;\n               ^\n1 error\n", 8, "incompatible types: Double cannot be converted to String"},
		// An error in another file is not the user's line.
		{"/other/B.scala:3: error: x\n", 0, "does not compile"},
		{"error: bad option: '-foo'\n", 0, "bad option"},
		// javac 17 on an expression 100,000 parentheses deep.
		{"The system is out of resources.\nConsult the following stack trace for details.\njava.lang.StackOverflowError\n\tat jdk.compiler/com.sun.tools.javac.parser.JavacParser.term3(JavacParser.java:1203)\n", 0, "the compiler ran out of stack"},
	}
	for _, c := range cases {
		err := compileError(file, file, c.out)
		var ce *runner.CompileError
		if !errors.As(err, &ce) || ce.File != file || ce.Line != c.line || !strings.Contains(ce.Msg, c.msg) {
			t.Errorf("compileError(%q) = %v, want line %d with %q", c.out, err, c.line, c.msg)
		}
	}
}

func FuzzCompileError(f *testing.F) {
	f.Add("/a.scala:5: error: type mismatch;\n found   : Double\n")
	f.Add("garbage")
	f.Fuzz(func(t *testing.T, out string) {
		var ce *runner.CompileError
		if err := compileError("/a.scala", "/a.scala", out); !errors.As(err, &ce) || ce.Line < 0 {
			t.Fatalf("compileError gave %v", err)
		}
		if n := 7; !strings.Contains(out, "\n") {
			line := fmt.Sprintf("/a.scala:%d: error: %s", n, out)
			if err := compileError("/a.scala", "/a.scala", line); !errors.As(err, &ce) || ce.Line != n {
				t.Fatalf("compileError(%q) = %v, want line %d", line, err, n)
			}
		}
	})
}

// FuzzReadResult checks the fast paths of readResult agree with the
// codec's own parser on every line.
func FuzzReadResult(f *testing.F) {
	for _, s := range []string{"d4059000000000000", "N", "dffffffffffffffff", "dABCDEF0123456789", "i12", "[ d0000000000000000 N ]", "d123", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if strings.Contains(line, "\n") {
			return
		}
		var got value.Value
		err := readResult(bufio.NewReader(strings.NewReader(line+"\n")), &got)
		want, wantErr := value.ParseToken(line)
		if (err == nil) != (wantErr == nil) {
			t.Fatalf("%q: readResult error %v, ParseToken error %v", line, err, wantErr)
		}
		if err == nil && value.Token(got) != value.Token(want) {
			t.Fatalf("%q: readResult %v, ParseToken %v", line, got, want)
		}
	})
}

// TestFingerprintFollowsLinks: the same jars reached through a link (each
// checkout's .venv) are the same classpath for the compile cache; other
// jars are not.
func TestFingerprintFollowsLinks(t *testing.T) {
	dir := t.TempDir()
	jars := filepath.Join(dir, "jars")
	if err := os.MkdirAll(jars, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(jars, "spark-core.jar"), []byte("PK"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(jars, filepath.Join(dir, "venv-link")); err != nil {
		t.Fatal(err)
	}
	real, err1 := fingerprint([]string{filepath.Join(jars, "spark-core.jar")})
	linked, err2 := fingerprint([]string{filepath.Join(dir, "venv-link", "spark-core.jar")})
	if err1 != nil || err2 != nil || real != linked {
		t.Errorf("through the link %s (%v), directly %s (%v): want one fingerprint", linked, err2, real, err1)
	}
	if err := os.WriteFile(filepath.Join(jars, "spark-core.jar"), []byte("PK\x03"), 0o644); err != nil {
		t.Fatal(err)
	}
	if changed, _ := fingerprint([]string{filepath.Join(jars, "spark-core.jar")}); changed == real {
		t.Error("a replaced jar kept its fingerprint")
	}
}
