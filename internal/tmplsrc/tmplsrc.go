// Package tmplsrc carries the template files of templates/ into the
// renderers as generated Go source.
//
// The templates live in the top-level templates/ folder, where a reader
// finds what udfx generates. The renderers that execute them live under
// harness/render, and udfx verify re-renders with them, so they must not
// import anything under templates/ (the gate's dependencies stay small;
// docs/architecture.md). go:embed cannot reach a parent folder, so each
// renderer holds its templates in a generated file, and a test in the
// renderer fails when that file no longer matches templates/ (regenerate
// with `go test ./harness/render/... -run TestTemplatesMatchTheFolder
// -update`).
package tmplsrc

import (
	"bytes"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"text/template"
)

// Ext is the file extension of a template.
const Ext = ".tmpl"

// Parse parses each file as a template named by its file name into root,
// in name order, as template.ParseFS does for a folder.
func Parse(root *template.Template, files map[string]string) *template.Template {
	for _, name := range names(files) {
		template.Must(root.New(name).Parse(files[name]))
	}
	return root
}

// Read returns the templates in dir by file name.
func Read(dir string) (map[string]string, error) {
	matches, err := filepath.Glob(filepath.Join(dir, "*"+Ext))
	if err != nil {
		return nil, err
	}
	if len(matches) == 0 {
		return nil, fmt.Errorf("no %s files in %s", Ext, dir)
	}
	files := make(map[string]string, len(matches))
	for _, m := range matches {
		b, err := os.ReadFile(m)
		if err != nil {
			return nil, err
		}
		files[filepath.Base(m)] = string(b)
	}
	return files, nil
}

// GoFile is the generated Go file of package pkg that declares varName as
// the map of files, with a header naming the folder it came from.
func GoFile(pkg, varName, from string, files map[string]string) ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated from %s by TestTemplatesMatchTheFolder -update; DO NOT EDIT.\n\n", from)
	fmt.Fprintf(&b, "package %s\n\n", pkg)
	fmt.Fprintf(&b, "// %s are the files of %s by name.\n", varName, from)
	fmt.Fprintf(&b, "var %s = map[string]string{\n", varName)
	for _, name := range names(files) {
		fmt.Fprintf(&b, "%s: %s,\n", strconv.Quote(name), quoteLines(files[name]))
	}
	b.WriteString("}\n")
	return format.Source(b.Bytes())
}

// quoteLines quotes s one line per string literal, so that a change to a
// template reads as a change to its lines in the generated file's diff.
func quoteLines(s string) string {
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) == 0 {
		return `""`
	}
	q := make([]string, len(lines))
	for i, l := range lines {
		q[i] = strconv.Quote(l)
	}
	return strings.Join(q, " +\n")
}

func names(files map[string]string) []string {
	out := make([]string, 0, len(files))
	for n := range files {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
