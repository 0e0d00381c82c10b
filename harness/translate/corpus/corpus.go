// Package corpus reads the reviewed corpus of UDFs the translator is
// measured on (harness/translate/testdata/corpus): its manifest of
// expected outcomes and its source files, parsed by the real front-ends.
// The translator's own test, and the template tests that compile every
// verified case's generated code, read it through this package so that
// they agree on what the corpus is.
package corpus

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/udf/frontends"
	"github.com/udfx/udfx/internal/notebook"
)

// Case is one row of manifest.tsv: a UDF, its category and the outcome
// it must have: "verified", or "declined" with the construct the first
// decline names. The real-shaped section (testdata/corpus/real), run
// without types given, also has "untyped" (the file does not give the
// types), "notfound" (the front-end finds no UDF by that name) and
// "error" (udfx cannot run the original), each with the first words of
// the reason in Construct.
type Case struct {
	File, Name, Category, Expect, Construct string
}

// Read reads dir/manifest.tsv. A malformed row is an error naming its
// line.
func Read(dir string) ([]Case, error) {
	path := filepath.Join(dir, "manifest.tsv")
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []Case
	sc := bufio.NewScanner(bytes.NewReader(b))
	for line := 1; sc.Scan(); line++ {
		s := sc.Text()
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		cols := strings.Split(s, "\t")
		if len(cols) != 4 && len(cols) != 5 {
			return nil, fmt.Errorf("%s:%d: want file, name, category, expect[, construct], got %d columns", path, line, len(cols))
		}
		c := Case{File: cols[0], Name: cols[1], Category: cols[2], Expect: cols[3]}
		if len(cols) == 5 {
			c.Construct = cols[4]
		}
		switch c.Expect {
		case "verified", "declined", "untyped", "notfound", "error":
		default:
			return nil, fmt.Errorf("%s:%d: expect is %q, want verified, declined, untyped, notfound or error", path, line, c.Expect)
		}
		out = append(out, c)
	}
	return out, sc.Err()
}

// Source is one of the corpus's files, read and parsed.
type Source struct {
	Path string
	Src  []byte
	UDFs []udf.UDF
}

// Parse reads and parses dir/file with the front-end of its extension.
func Parse(dir, file string) (*Source, error) {
	path := filepath.Join(dir, file)
	src, err := notebook.ReadCode(path)
	if err != nil {
		return nil, err
	}
	lang, ok := map[string]udf.Language{".scala": udf.Scala, ".java": udf.Java, ".py": udf.Python, notebook.Ext: udf.Python}[filepath.Ext(path)]
	if !ok {
		return nil, fmt.Errorf("%s: not a Scala, Java or Python file", path)
	}
	fe := frontends.New(lang)
	defer fe.Close()
	us, err := fe.Parse(path, src)
	if err != nil {
		return nil, err
	}
	return &Source{Path: path, Src: src, UDFs: us}, nil
}

// Find returns the UDF called name, or nil.
func (s *Source) Find(name string) *udf.UDF {
	for i := range s.UDFs {
		if s.UDFs[i].Name == name {
			return &s.UDFs[i]
		}
	}
	return nil
}

// Entry is a case with its UDF, parsed, and the source it came from.
type Entry struct {
	Case
	UDF    *udf.UDF
	Source *Source
}

// Load reads the manifest and parses the files of the cases keep
// accepts (all when keep is nil), in manifest order. A case whose UDF the
// front-end does not find is an error.
func Load(dir string, keep func(Case) bool) ([]Entry, error) {
	cases, err := Read(dir)
	if err != nil {
		return nil, err
	}
	parsed := map[string]*Source{}
	var out []Entry
	for _, c := range cases {
		if keep != nil && !keep(c) {
			continue
		}
		src := parsed[c.File]
		if src == nil {
			if src, err = Parse(dir, c.File); err != nil {
				return nil, err
			}
			parsed[c.File] = src
		}
		u := src.Find(c.Name)
		if u == nil {
			return nil, fmt.Errorf("%s: no UDF %s", src.Path, c.Name)
		}
		out = append(out, Entry{Case: c, UDF: u, Source: src})
	}
	return out, nil
}

// VerifiedJVM keeps the Java and Scala cases the manifest expects
// verified: those with the RapidsUDF and CUDA targets.
func VerifiedJVM(c Case) bool {
	ext := filepath.Ext(c.File)
	return c.Expect == "verified" && (ext == ".java" || ext == ".scala")
}

// Rendered is one case's outcome for a rewrite target: rendered, or
// declined with the renderer's reason.
type Rendered struct {
	Case
	Decline string
}

// TargetList is the reviewed list of which cases have a target: a line
// per case ("none: reason" for a decline) and the count of those that do.
func TargetList(target, noun string, rs []Rendered) string {
	var b strings.Builder
	n := 0
	for _, r := range rs {
		what := target
		if r.Decline != "" {
			what = "none: " + r.Decline
		} else {
			n++
		}
		fmt.Fprintf(&b, "%-20s %-22s %s\n", r.File, r.Name, what)
	}
	fmt.Fprintf(&b, "\n%d cases with %s\n", n, noun)
	return b.String()
}

// CheckGolden compares got with the golden file at path, or rewrites it
// when update is set (go test -update).
func CheckGolden(t testing.TB, path, got string, update bool) {
	t.Helper()
	if update {
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test -run %s -update to create %s", t.Name(), path)
	assert.Equal(t, string(want), got, "%s changed: review, then regenerate with -update", path)
}
