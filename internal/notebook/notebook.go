// Package notebook reads a Jupyter notebook (.ipynb, nbformat 4) as the
// Python its code cells hold, and writes changes of that Python back into
// the notebook without disturbing anything else: other cells, outputs,
// execution counts, metadata and the file's own formatting stay byte for
// byte as they were.
//
// The Python udfx sees (Code) is every code cell in order, each after a
// header line "# %% [udfx] cell N" (N counts all cells from 1, as the
// notebook shows them). IPython's line magics and shell escapes (%pip,
// !ls) and whole cells under a cell magic (%%sql) become comment lines
// "#udfx-magic:" followed by the original line, so the Python parses and
// every line keeps its place. Line numbers udfx reports in a notebook are
// lines of this text.
package notebook

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// Ext is a notebook's file extension.
const Ext = ".ipynb"

// magicPrefix starts the comment line that stands for a magic line.
const magicPrefix = "#udfx-magic:"

// headerPrefix starts the line before each code cell's Python.
const headerPrefix = "# %% [udfx] cell "

// IsNotebook reports whether path names a Jupyter notebook.
func IsNotebook(path string) bool { return strings.EqualFold(filepath.Ext(path), Ext) }

// ErrNotPython is a notebook whose kernel is not Python's.
var ErrNotPython = errors.New("not a Python notebook")

// Notebook is a parsed notebook.
type Notebook struct {
	raw   []byte
	cells []cell
}

// cell is one code cell: its index among all cells, its source lines as
// the notebook holds them, and whether the source is a single string.
type cell struct {
	index  int
	lines  []string
	string bool
}

// magic reports, per line, whether it is IPython syntax rather than
// Python (under a cell magic, every line), which Code writes as a comment.
func (c cell) magic() []bool {
	out := make([]bool, len(c.lines))
	cellMagic := c.cellMagic()
	for i, l := range c.lines {
		out[i] = cellMagic || isMagic(strings.TrimSuffix(l, "\n"))
	}
	return out
}

// cellMagic reports whether the cell runs under a cell magic (%%sql),
// which makes every line of it the magic's input rather than Python.
func (c cell) cellMagic() bool {
	return len(c.lines) > 0 && strings.HasPrefix(strings.TrimLeft(c.lines[0], " \t"), "%%")
}

// Parse reads raw as a notebook. It fails on text that is not a notebook
// of nbformat 4, and with ErrNotPython on a notebook whose kernel names
// another language.
func Parse(raw []byte) (*Notebook, error) {
	if !gjson.ValidBytes(raw) {
		return nil, errors.New("not valid JSON")
	}
	doc := gjson.ParseBytes(raw)
	if v := doc.Get("nbformat"); v.Type != gjson.Number || v.Int() != 4 {
		return nil, fmt.Errorf("nbformat %s: udfx reads nbformat 4 notebooks", strings.TrimSpace(v.Raw))
	}
	for _, p := range []string{"metadata.kernelspec.language", "metadata.language_info.name"} {
		if lang := doc.Get(p); lang.Exists() && !strings.EqualFold(lang.String(), "python") {
			return nil, fmt.Errorf("%w: its kernel's language is %q", ErrNotPython, lang.String())
		}
	}
	cells := doc.Get("cells")
	if !cells.IsArray() {
		return nil, errors.New("no cells array")
	}
	n := &Notebook{raw: raw}
	var err error
	cells.ForEach(func(k, c gjson.Result) bool {
		i := int(k.Int())
		if c.Get("cell_type").String() != "code" {
			return true
		}
		src := c.Get("source")
		cl := cell{index: i}
		switch {
		case src.Type == gjson.String:
			cl.string = true
			cl.lines = splitLines(src.String())
		case src.IsArray():
			// A list element may hold several lines or none; udfx's
			// lines are the text's, and an edited cell is written back
			// one line per element, as Jupyter writes it.
			var text strings.Builder
			for _, l := range src.Array() {
				if l.Type != gjson.String {
					err = fmt.Errorf("cell %d: a source line is not a string", i+1)
					return false
				}
				text.WriteString(l.String())
			}
			cl.lines = splitLines(text.String())
		case !src.Exists():
		default:
			err = fmt.Errorf("cell %d: its source is neither a string nor a list of strings", i+1)
			return false
		}
		for _, l := range cl.lines {
			if !utf8.ValidString(l) {
				err = fmt.Errorf("cell %d: its source is not valid UTF-8", i+1)
				return false
			}
			if strings.HasPrefix(l, headerPrefix) {
				err = fmt.Errorf("cell %d: a line starts as udfx's cell headers do (%q)", i+1, strings.TrimSpace(headerPrefix))
				return false
			}
		}
		n.cells = append(n.cells, cl)
		return true
	})
	if err != nil {
		return nil, err
	}
	return n, nil
}

// splitLines splits s after each newline, as nbformat stores a source.
func splitLines(s string) []string {
	var out []string
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// Code is the notebook's Python: each code cell after its header line.
func (n *Notebook) Code() []byte {
	var b bytes.Buffer
	for i := range n.cells {
		c := n.cells[i]
		b.WriteString(headerPrefix + strconv.Itoa(c.index+1) + "\n")
		magic := c.magic()
		for j, l := range c.lines {
			text := strings.TrimSuffix(l, "\n")
			if magic[j] {
				text = magicPrefix + text
			}
			b.WriteString(text + "\n")
		}
	}
	return b.Bytes()
}

// isMagic reports whether a line is IPython syntax rather than Python: a
// line magic (%pip, %run) or a shell escape (!ls), at any indentation.
func isMagic(line string) bool {
	t := strings.TrimLeft(line, " \t")
	return strings.HasPrefix(t, "%") || strings.HasPrefix(t, "!")
}

// Code reads raw as path's source: the Python of a notebook, or raw
// itself for any other file.
func Code(path string, raw []byte) ([]byte, error) {
	if !IsNotebook(path) {
		return raw, nil
	}
	n, err := Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return n.Code(), nil
}

// Update returns the notebook with its Python changed to code, which must
// be Code() with lines edited inside cells: the headers stay as they are.
// Only the source of each cell whose Python changed is rewritten, in the
// layout it had (a list of lines or one string, the same indentation);
// everything else in the file stays byte for byte.
func (n *Notebook) Update(code []byte) ([]byte, error) {
	old := n.Code()
	if bytes.Equal(old, code) {
		return n.raw, nil
	}
	if !utf8.Valid(code) {
		return nil, errors.New("the changed Python is not valid UTF-8")
	}
	oldCells, err := splitCells(old, len(n.cells))
	if err != nil {
		return nil, err
	}
	newCells, err := splitCells(code, len(n.cells))
	if err != nil {
		return nil, fmt.Errorf("the changed Python: %w", err)
	}
	out := n.raw
	for i := range n.cells {
		if oldCells[i] == newCells[i] {
			continue
		}
		c := n.cells[i]
		hadMagic := slices.Contains(c.magic(), true)
		lines := splitLines(newCells[i])
		for j, l := range lines {
			if hadMagic && strings.HasPrefix(l, magicPrefix) {
				lines[j] = strings.TrimPrefix(l, magicPrefix)
				continue
			}
			// Under a cell magic a Python line would be the magic's
			// input (SQL, shell), not Python: refuse rather than write a
			// cell that does something else.
			if c.cellMagic() {
				return nil, fmt.Errorf("cell %d runs under the cell magic %q: udfx cannot put the Python line %q in it", c.index+1, strings.TrimSpace(c.lines[0]), strings.TrimSuffix(l, "\n"))
			}
		}
		// The virtual text ends every line with a newline; the notebook's
		// last line may have none.
		if k := len(lines) - 1; k >= 0 && len(c.lines) > 0 && !strings.HasSuffix(c.lines[len(c.lines)-1], "\n") {
			lines[k] = strings.TrimSuffix(lines[k], "\n")
		}
		path := "cells." + strconv.Itoa(c.index) + ".source"
		value, err := n.encodeSource(out, path, c, lines)
		if err != nil {
			return nil, err
		}
		if out, err = sjson.SetRawBytes(out, path, value); err != nil {
			return nil, fmt.Errorf("cell %d: %w", c.index+1, err)
		}
	}
	if _, err := Parse(out); err != nil {
		return nil, fmt.Errorf("the updated notebook does not read back: %w", err)
	}
	return out, nil
}

// splitCells cuts a notebook's Python at its header lines into the
// Python of each of its want cells.
func splitCells(code []byte, want int) ([]string, error) {
	var cells []string
	var cur *strings.Builder
	for _, l := range splitLines(string(code)) {
		if strings.HasPrefix(l, headerPrefix) {
			cells = append(cells, "")
			cur = &strings.Builder{}
			continue
		}
		if cur == nil {
			return nil, errors.New("it does not start with a cell header")
		}
		cur.WriteString(l)
		cells[len(cells)-1] = cur.String()
	}
	if len(cells) != want {
		return nil, fmt.Errorf("it has %d cell headers, the notebook %d code cells", len(cells), want)
	}
	return cells, nil
}

// encodeSource encodes lines as the source value at path in raw: one JSON
// string where the notebook had one, else a list laid out as the old one.
func (n *Notebook) encodeSource(raw []byte, path string, c cell, lines []string) ([]byte, error) {
	if c.string {
		return jsonString(strings.Join(lines, ""))
	}
	prev := gjson.GetBytes(raw, path).Raw
	// The whitespace before the first element and before "]".
	sep, closing := "", ""
	if i := strings.IndexByte(prev, '"'); i > 0 {
		sep = prev[1:i]
		closing = prev[strings.LastIndexByte(prev, '"')+1 : len(prev)-1]
	} else if len(prev) >= 2 {
		closing = prev[1 : len(prev)-1]
		sep = closing + " "
	}
	var b bytes.Buffer
	b.WriteByte('[')
	for i, l := range lines {
		if i > 0 {
			b.WriteByte(',')
		}
		s, err := jsonString(l)
		if err != nil {
			return nil, err
		}
		b.WriteString(sep)
		b.Write(s)
	}
	if len(lines) > 0 {
		b.WriteString(closing)
	}
	b.WriteByte(']')
	return b.Bytes(), nil
}

// jsonString encodes s as Jupyter does: no HTML escaping.
func jsonString(s string) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// Materialize writes the Python of the notebook at path into dir, as a
// file the Python drivers load in its place (the notebook's own path stays
// the module's __file__ and the name in its tracebacks), and returns the
// file's path. The name carries the code's hash, so a changed notebook is
// a new file.
func Materialize(dir, path string) (string, error) {
	code, err := ReadCode(path)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(code)
	stem := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	out := filepath.Join(dir, "notebook-"+hex.EncodeToString(sum[:6])+"-"+stem+".py")
	if err := os.WriteFile(out, code, 0o644); err != nil {
		return "", err
	}
	return out, nil
}

// ReadCode reads the file at path as udfx reads a UDF's source: a
// notebook as its code cells' Python, any other file as it is.
func ReadCode(path string) ([]byte, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Code(path, raw)
}
