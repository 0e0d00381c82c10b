package sparkversion

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// want is one expected declaration; File is implied by the case.
type want struct {
	v, full string
	line    int
	text    string
}

func (w want) String() string { return fmt.Sprintf("%s|%s|%d|%s", w.v, w.full, w.line, w.text) }

type fileCase struct {
	name string
	file string // path relative to the root
	body string
	want []want
}

// detectFile writes one file into a fresh root and runs Detect on it, so
// each case goes through the same dispatch by file name as a real
// repository.
func detectFile(t *testing.T, file, body string) []Declared {
	t.Helper()
	root := t.TempDir()
	p := filepath.Join(root, filepath.FromSlash(file))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := Detect(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range got {
		if d.File != file {
			t.Errorf("File = %q, want %q", d.File, file)
		}
	}
	return got
}

func runFileCases(t *testing.T, cases []fileCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := detectFile(t, c.file, c.body)
			var g, w []string
			for _, d := range got {
				g = append(g, want{d.Version, d.Full, d.Line, d.Text}.String())
			}
			for _, x := range c.want {
				w = append(w, x.String())
			}
			if strings.Join(g, "\n") != strings.Join(w, "\n") {
				t.Errorf("got\n  %s\nwant\n  %s", strings.Join(g, "\n  "), strings.Join(w, "\n  "))
			}
		})
	}
}

// fileWriter writes files under root by slash-separated paths, making
// their folders.
func fileWriter(t *testing.T, root string) func(rel, text string) {
	return func(rel, text string) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(rel))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
}
