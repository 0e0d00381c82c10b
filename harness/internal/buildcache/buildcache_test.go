package buildcache

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestDirBuildsOnceAndKeepsOnlyCompleteBuilds(t *testing.T) {
	dir := t.TempDir()
	builds := 0
	build := func(out string) error {
		builds++
		return os.WriteFile(filepath.Join(out, "A.class"), []byte("classes"), 0o644)
	}

	// A stale folder of a killed build (no completion mark) is replaced.
	if err := os.MkdirAll(filepath.Join(dir, "k1"), 0o755); err != nil {
		t.Fatal(err)
	}
	p, hit, err := Dir(dir, "k1", build)
	if err != nil || hit || builds != 1 {
		t.Fatalf("first build: %q hit %v, %v, %d builds", p, hit, err, builds)
	}
	if b, err := os.ReadFile(filepath.Join(p, "A.class")); err != nil || string(b) != "classes" {
		t.Fatalf("the build's output is not at %s: %q, %v", p, b, err)
	}
	p2, hit, err := Dir(dir, "k1", build)
	if err != nil || !hit || p2 != p || builds != 1 {
		t.Fatalf("second call: %q hit %v, %v, %d builds; want %q from the cache", p2, hit, err, builds, p)
	}

	// A failed build is not kept: the next call builds again.
	boom := errors.New("does not compile")
	if _, _, err := Dir(dir, "k2", func(string) error { return boom }); !errors.Is(err, boom) {
		t.Fatalf("got %v, want the build's error", err)
	}
	if _, hit, err := Dir(dir, "k2", build); err != nil || hit || builds != 2 {
		t.Fatalf("after a failed build: hit %v, %v, %d builds; want a new build", hit, err, builds)
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".build-*"))
	if len(left) != 0 {
		t.Errorf("build folders left behind: %v", left)
	}
}
