// Package tsutil holds what the tree-sitter front-ends share: parsers
// that report syntax errors as *udf.ParseError, positions in the units
// udf.Position uses, and node text.
package tsutil

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/udfx/udfx/harness/udf"
)

// Source is one parsed file: its bytes, its tree and an index of line
// starts for position conversion.
type Source struct {
	Path  string
	Src   []byte
	Tree  *sitter.Tree
	lines *udf.Lines
}

// Parser is a tree-sitter parser for one grammar. It is not safe for
// concurrent use; Close frees its native memory, after which Parse fails.
type Parser struct {
	p *sitter.Parser
}

// NewParser returns a parser for lang (a grammar's Language, built once
// per package).
func NewParser(lang *sitter.Language) *Parser {
	p := sitter.NewParser()
	if err := p.SetLanguage(lang); err != nil {
		// The grammars are compiled in; a version mismatch is a build bug.
		panic(fmt.Sprintf("tree-sitter grammar: %v", err))
	}
	return &Parser{p: p}
}

// Close frees the parser.
func (p *Parser) Close() {
	if p.p != nil {
		p.p.Close()
		p.p = nil
	}
}

// Parse parses src. A file with a syntax error gives the *udf.ParseError
// of its first error and no Source; otherwise the caller must Close the
// Source.
func (p *Parser) Parse(path string, src []byte) (*Source, error) {
	if p.p == nil {
		return nil, fmt.Errorf("parse %s: parser used after Close", path)
	}
	tree := parseString(p.p, src)
	if tree == nil {
		return nil, &udf.ParseError{File: path, Pos: udf.Position{Line: 1, Column: 1}, Message: "parser gave no tree"}
	}
	s := &Source{Path: path, Src: src, Tree: tree, lines: udf.NewLines(src)}
	if err := s.syntaxError(); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// Close frees the tree.
func (s *Source) Close() { s.Tree.Close() }

// Root is the root node.
func (s *Source) Root() *sitter.Node { return s.Tree.RootNode() }

// Text is the source text of n.
func (s *Source) Text(n *sitter.Node) string {
	if n == nil {
		return ""
	}
	return string(s.Src[n.StartByte():n.EndByte()])
}

// Pos converts a byte offset to a 1-based line and code-point column.
func (s *Source) Pos(off uint) udf.Position { return s.lines.Position(int(off)) }

// Span is the span of n.
func (s *Source) Span(n *sitter.Node) udf.Span {
	return udf.Span{Start: s.Pos(n.StartByte()), End: s.Pos(n.EndByte())}
}

// syntaxError returns a *udf.ParseError for the first ERROR or MISSING
// node in the tree, or nil when the file parsed cleanly.
func (s *Source) syntaxError() error {
	root := s.Root()
	if !root.HasError() {
		return nil
	}
	var found *sitter.Node
	var walk func(n *sitter.Node) bool
	walk = func(n *sitter.Node) bool {
		if !n.HasError() {
			return false
		}
		if n.IsError() || n.IsMissing() {
			found = n
			return true
		}
		for i := uint(0); i < n.ChildCount(); i++ {
			if walk(n.Child(i)) {
				return true
			}
		}
		return false
	}
	walk(root)
	if found == nil {
		found = root
	}
	msg := "syntax error"
	switch {
	case found.IsMissing():
		msg = fmt.Sprintf("syntax error: missing %q", found.Kind())
	case found.IsError():
		if text := shorten(s.Text(found), 24); text != "" {
			msg = fmt.Sprintf("syntax error near %q", text)
		}
	}
	return &udf.ParseError{File: s.Path, Pos: s.Pos(found.StartByte()), Message: msg}
}

// NamedChildren returns n's named children.
func NamedChildren(n *sitter.Node) []*sitter.Node {
	out := make([]*sitter.Node, 0, n.NamedChildCount())
	for i := uint(0); i < n.NamedChildCount(); i++ {
		out = append(out, n.NamedChild(i))
	}
	return out
}

// shorten cuts s to at most n bytes at a character boundary, marking the cut.
func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}

// SiteKinds are the node kinds of a grammar that an inlined use site of
// each kind is: a call for udf.UseCall, a string literal for udf.UseSQL.
type SiteKinds map[udf.UseKind][]string

// SiteOccurrences implements udf.SiteLocator for a grammar with kinds.
func (p *Parser) SiteOccurrences(path string, src []byte, text string, kind udf.UseKind, kinds SiteKinds) (all, code []int, err error) {
	k, ok := kinds[kind]
	if !ok {
		return nil, nil, fmt.Errorf("no code locator for %s use sites", kind)
	}
	return p.Occurrences(path, src, text, k...)
}

// Occurrences finds text in src: all are the byte offsets of its
// non-overlapping occurrences, code those of them that a node of one of
// kinds spans exactly, with no comment around it. An occurrence in a
// comment, inside a longer string or spanning part of an expression is
// in all but not in code: a use-site check counts only what runs.
func (p *Parser) Occurrences(path string, src []byte, text string, kinds ...string) (all, code []int, err error) {
	if text == "" {
		return nil, nil, nil
	}
	for off := 0; ; {
		i := bytes.Index(src[off:], []byte(text))
		if i < 0 {
			break
		}
		all = append(all, off+i)
		off += i + len(text)
	}
	if len(all) == 0 {
		return nil, nil, nil
	}
	s, err := p.Parse(path, src)
	if err != nil {
		return all, nil, err
	}
	defer s.Close()
	for _, from := range all {
		to := uint(from + len(text))
		if spansAs(s.Root().DescendantForByteRange(uint(from), to), uint(from), to, kinds) {
			code = append(code, from)
		}
	}
	return all, code, nil
}

// spansAs reports whether n or an ancestor spanning exactly [from, to)
// has one of kinds, and nothing above it is a comment.
func spansAs(n *sitter.Node, from, to uint, kinds []string) bool {
	found := false
	for ; n != nil; n = n.Parent() {
		if strings.Contains(n.Kind(), "comment") {
			return false
		}
		if !found && n.StartByte() == from && n.EndByte() == to && slices.Contains(kinds, n.Kind()) {
			found = true
		}
	}
	return found
}
