package regular

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLimit(t *testing.T) {
	for _, c := range []struct {
		max  int64
		fail bool
	}{{10, false}, {11, false}, {9, true}, {0, true}} {
		b, err := io.ReadAll(Limit("f", strings.NewReader("0123456789"), c.max))
		var tl *TooLargeError
		if got := errors.As(err, &tl); got != c.fail {
			t.Errorf("max %d: err %v", c.max, err)
		}
		if int64(len(b)) > c.max {
			t.Errorf("max %d: read %d bytes", c.max, len(b))
		}
	}
}

func TestReadFileRefusesFolders(t *testing.T) {
	dir := t.TempDir()
	if _, err := ReadFile(dir, 1<<20); err == nil || !strings.Contains(err.Error(), "a folder, not a regular file") {
		t.Errorf("ReadFile(dir): %v", err)
	}
	p := filepath.Join(dir, "a")
	if err := os.WriteFile(p, []byte("abc"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadFile(p, 3); err != nil || string(b) != "abc" {
		t.Errorf("ReadFile = %q, %v", b, err)
	}
	if _, err := ReadFile(p, 2); err == nil || !strings.Contains(err.Error(), "larger than 2 bytes") {
		t.Errorf("ReadFile over the bound: %v", err)
	}
}
