package jvm

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/value"
)

// classFiles are the files under dir by their path relative to it.
func classFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[rel] = b
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// A warm compiler must be indistinguishable from the command it
// replaces: the same class files, byte for byte, and the same compile
// errors at the same lines.
func TestTheCompilePoolCompilesAsTheCommandDoes(t *testing.T) {
	cases := []struct{ file, name string }{
		{"examples/scala-to-fahrenheit/ToFahrenheit.scala", "ToFahrenheit"},
		{"examples/java-to-fahrenheit/ToFahrenheit.java", "ToFahrenheit"},
		{"harness/runner/jvm/testdata/LocalUdfs.scala", "toF"},
		{"harness/runner/jvm/testdata/Broken.scala", "Broken"},
		{"harness/runner/jvm/testdata/BrokenJava.java", "BrokenJava"},
	}
	pool := &CompilePool{Readable: []string{repoRoot(t)}}
	defer pool.Close()
	warm := WithCompilePool(context.Background(), pool)
	cold, served := t.TempDir(), t.TempDir()
	for i, c := range cases {
		t.Run(filepath.Base(c.file), func(t *testing.T) {
			u := parseUDF(t, c.file, c.name)
			want, wantErr := New(context.Background(), u, Options{CacheDir: cold})
			got, gotErr := New(warm, u, Options{CacheDir: served})
			if n := pool.Served(); n != i+1 {
				t.Fatalf("the pool ran %d compiles after %d UDFs", n, i+1)
			}
			var wce, gce *runner.CompileError
			if errors.As(wantErr, &wce) {
				if !errors.As(gotErr, &gce) || *gce != *wce {
					t.Fatalf("warm compiler: %v; the command: %v", gotErr, wantErr)
				}
				return
			}
			if wantErr != nil || gotErr != nil {
				t.Fatalf("the command: %v; the warm compiler: %v", wantErr, gotErr)
			}
			defer want.Close()
			defer got.Close()
			wf, gf := classFiles(t, want.classes), classFiles(t, got.classes)
			if len(wf) == 0 || len(wf) != len(gf) {
				t.Fatalf("the command wrote %d class files, the warm compiler %d", len(wf), len(gf))
			}
			for name, b := range wf {
				if !bytes.Equal(gf[name], b) {
					t.Errorf("%s differs between the command and the warm compiler", name)
				}
			}
		})
	}
	u := parseUDF(t, cases[0].file, cases[0].name)
	r, err := New(warm, u, Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if got, err := r.Run(context.Background(), column(value.DoubleOf(100))); err != nil || len(got) != 1 || got[0].Float64() != 212 {
		t.Errorf("the warm compiler's classes: got %v, %v; want [212.0]", got, err)
	}
}

// A compile the pool must not take (a source outside the folders its
// sandbox reads), or one its server fails, runs as a command instead.
func TestTheCompilePoolFallsBackToTheCommand(t *testing.T) {
	u := parseUDF(t, "examples/scala-to-fahrenheit/ToFahrenheit.scala", "ToFahrenheit")
	outside := &CompilePool{Readable: []string{t.TempDir()}}
	defer outside.Close()
	r, err := New(WithCompilePool(context.Background(), outside), u, Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	if n := outside.Served(); n != 0 {
		t.Errorf("the pool compiled a source outside its folders (%d compiles)", n)
	}

	var warnings []error
	pool := &CompilePool{Readable: []string{repoRoot(t)}, Warn: func(err error) { warnings = append(warnings, err) }}
	defer pool.Close()
	ctx := WithCompilePool(context.Background(), pool)
	// One cache folder, as in a run: the pool keeps a server per cache.
	cache := t.TempDir()
	if r, err = New(ctx, u, Options{CacheDir: cache}); err != nil {
		t.Fatal(err)
	}
	r.Close()
	if pool.Served() != 1 {
		t.Fatalf("the pool ran %d compiles, want 1", pool.Served())
	}
	// The server dies between two compiles: the next ones run as
	// commands, and the server is not used again.
	pool.mu.Lock()
	for _, s := range pool.servers {
		runner.KillProcessGroup(s.cmd)
		<-s.done
	}
	pool.mu.Unlock()
	for _, c := range []struct{ file, name string }{
		{"examples/java-to-fahrenheit/ToFahrenheit.java", "ToFahrenheit"},
		{"harness/runner/jvm/testdata/LocalUdfs.scala", "toF"},
	} {
		r, err = New(ctx, parseUDF(t, c.file, c.name), Options{CacheDir: cache})
		if err != nil {
			t.Fatalf("%s after the server died: %v", c.file, err)
		}
		if hit := r.cacheHit; hit {
			t.Fatalf("%s came from the cache: nothing was compiled", c.file)
		}
		r.Close()
	}
	if pool.Served() != 1 {
		t.Errorf("the pool ran %d compiles, want 1: a dead server is not used again", pool.Served())
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0].Error(), "compiles run as commands") {
		t.Errorf("warnings: %v; want one saying the compiles run as commands", warnings)
	}
}

// A compile that reaches the pool after Close runs as a command: no
// server starts that nobody would stop.
func TestTheCompilePoolAfterCloseCompilesAsACommand(t *testing.T) {
	pool := &CompilePool{Readable: []string{repoRoot(t)}}
	pool.Close()
	u := parseUDF(t, "examples/java-to-fahrenheit/ToFahrenheit.java", "ToFahrenheit")
	r, err := New(WithCompilePool(context.Background(), pool), u, Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	if n := pool.Served(); n != 0 || len(pool.servers) != 0 {
		t.Errorf("after Close the pool ran %d compiles on %d servers", n, len(pool.servers))
	}
}

// A machine without a Scala compiler still gets a warm javac: the server
// leaves out its scalac part, and its class files are the command's.
func TestTheCompilePoolServesJavacWithoutScala(t *testing.T) {
	tools, err := Toolchain(os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	tools.ScalaJars = nil
	file := filepath.Join(repoRoot(t), "examples/java-to-fahrenheit/ToFahrenheit.java")
	want, err := CompileSource(context.Background(), &tools, runner.DefaultLimits, file, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	pool := &CompilePool{Readable: []string{repoRoot(t)}}
	defer pool.Close()
	got, err := CompileSource(WithCompilePool(context.Background(), pool), &tools, runner.DefaultLimits, file, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if n := pool.Served(); n != 1 {
		t.Fatalf("the pool ran %d compiles without Scala, want 1", n)
	}
	wf, gf := classFiles(t, want), classFiles(t, got)
	if len(wf) == 0 || len(wf) != len(gf) {
		t.Fatalf("the command wrote %d class files, the warm javac %d", len(wf), len(gf))
	}
	for name, b := range wf {
		if !bytes.Equal(gf[name], b) {
			t.Errorf("%s differs between the command and the warm javac", name)
		}
	}
}

// The pool runs only compiles that cannot run repository code: a UDF
// whose build puts the repository's own jars and sources on the classpath
// (where a macro or an annotation processor could hide) compiles as a
// command, in its own sandbox, even with the pool in the context.
func TestACompileWithABuildClasspathNeverReachesThePool(t *testing.T) {
	pool := &CompilePool{Readable: []string{repoRoot(t)}}
	defer pool.Close()
	ctx := WithCompilePool(context.Background(), pool)
	for _, c := range []struct{ file, name string }{
		{"harness/buildpath/testdata/shop/udfs/src/main/java/com/acme/udfs/NormalizeSku.java", "NormalizeSku"},
		{"harness/buildpath/testdata/shop/udfs/src/main/scala/com/acme/udfs/Distances.scala", "toKm"},
	} {
		r, err := New(ctx, parseUDF(t, c.file, c.name), Options{CacheDir: t.TempDir()})
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		if r.build.Empty() {
			t.Fatalf("%s: no build classpath was found; the test needs one", c.file)
		}
		r.Close()
	}
	if n := pool.Served(); n != 0 {
		t.Errorf("the pool ran %d compiles with a build classpath, want 0", n)
	}
}
