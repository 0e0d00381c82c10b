// Package java finds Spark UDFs in Java source: classes implementing
// org.apache.spark.sql.api.java.UDF0..UDF22 (named or anonymous), Hive
// simple UDFs and GenericUDFs, and lambdas or method references given to
// udf(...) or spark.udf().register(...).
package java

import (
	"fmt"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tsjava "github.com/tree-sitter/tree-sitter-java/bindings/go"

	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/udf/internal/tsutil"
)

// language is built once: building it per parser would repeat the grammar
// lookup for every file.
var language = sitter.NewLanguage(tsjava.Language())

// Field ids of the grammar, looked up once so walks compare integers
// instead of passing field names through cgo.
var (
	fieldName       = language.FieldIdForName("name")
	fieldField      = language.FieldIdForName("field")
	fieldLeft       = language.FieldIdForName("left")
	fieldRight      = language.FieldIdForName("right")
	fieldOperator   = language.FieldIdForName("operator")
	fieldParameters = language.FieldIdForName("parameters")
	fieldObject     = language.FieldIdForName("object")
	fieldValue      = language.FieldIdForName("value")
	fieldType       = language.FieldIdForName("type")
	fieldBody       = language.FieldIdForName("body")
	fieldArguments  = language.FieldIdForName("arguments")
	fieldSuper      = language.FieldIdForName("superclass")
	fieldInterfaces = language.FieldIdForName("interfaces")
)

// collectQuery finds every node the front-end looks at; the pattern
// index says which kind matched. Running it in C is much cheaper than
// visiting each node from Go through cgo.
var collectQuery = mustQuery(`
(package_declaration) @n
(import_declaration) @n
(class_declaration) @n
(record_declaration) @n
(interface_declaration) @n
(enum_declaration) @n
(object_creation_expression (class_body)) @n
(method_declaration) @n
(lambda_expression) @n
(method_reference) @n
(method_invocation) @n
(string_literal) @n
(local_variable_declaration) @n
(field_declaration) @n
(constant_declaration) @n
(assignment_expression left: [(identifier) (field_access)]) @n
`)

// Pattern indexes of collectQuery.
const (
	patPackage = iota
	patImport
	patClass
	patRecord
	patInterface
	patEnum
	patAnonymous
	patMethod
	patLambda
	patMethodRef
	patInvocation
	patString
	patLocalVar
	patField
	patConstant
	patAssign
)

func mustQuery(src string) *sitter.Query {
	q, err := sitter.NewQuery(language, src)
	if err != nil {
		panic(fmt.Sprintf("java query: %v", err))
	}
	return q
}

// match is one single-node query match.
type match struct {
	pattern uint
	node    *sitter.Node
}

// runQuery returns the matches of q under root, in document order.
func runQuery(qc *sitter.QueryCursor, q *sitter.Query, root *sitter.Node, src []byte) []match {
	var out []match
	ms := qc.Matches(q, root, src)
	for m := ms.Next(); m != nil; m = ms.Next() {
		if len(m.Captures) == 0 {
			continue
		}
		n := m.Captures[0].Node
		out = append(out, match{pattern: m.PatternIndex, node: &n})
	}
	return out
}

// Frontend parses Java files. It holds one tree-sitter parser and query
// cursor and so must be used by one goroutine at a time.
type Frontend struct {
	parser *tsutil.Parser
	cursor *sitter.QueryCursor
}

var _ udf.Frontend = (*Frontend)(nil)

// New returns a Java front-end; Close frees its parser.
func New() *Frontend {
	return &Frontend{parser: tsutil.NewParser(language), cursor: sitter.NewQueryCursor()}
}

// Language is udf.Java.
func (f *Frontend) Language() udf.Language { return udf.Java }

// Close frees the parser's native memory.
func (f *Frontend) Close() {
	f.parser.Close()
	if f.cursor != nil {
		f.cursor.Close()
		f.cursor = nil
	}
}

// Parse returns the UDFs defined in src.
func (f *Frontend) Parse(path string, src []byte) ([]udf.UDF, error) {
	s, err := f.parser.Parse(path, src)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	fl := collect(s, f.cursor)
	return fl.udfs(), nil
}

// file is what one walk over a parsed file collects for the later passes.
type file struct {
	src *tsutil.Source
	qc  *sitter.QueryCursor
	pkg string
	// imports maps a simple type name to its imported qualified name.
	imports map[string]string
	// staticImports maps a statically imported member to its class;
	// staticWildcards lists classes imported with "import static C.*".
	staticImports   map[string]string
	staticWildcards []string

	classes     []*classInfo
	classByName map[string]*classInfo
	// anonymous holds object creations with a class body.
	anonymous []*sitter.Node
	// methods lists method declarations by name across the whole file.
	methods map[string][]*sitter.Node
	// functions are lambdas and method references.
	functions   []*sitter.Node
	invocations []*sitter.Node
	literals    []*sitter.Node
	vars        map[string][]varDecl
}

// classInfo is one named class declaration.
type classInfo struct {
	node *sitter.Node
	name string
	// names are the strings a CREATE FUNCTION ... AS '...' may use for
	// the class: simple, nested and qualified, with '.' or '$'.
	names []string
}

// varDecl is one declared variable or field with its declaring statement.
type varDecl struct {
	name  string
	start uint
	typ   *sitter.Node
	value *sitter.Node
	stmt  *sitter.Node
}

func collect(s *tsutil.Source, qc *sitter.QueryCursor) *file {
	fl := &file{
		src:           s,
		qc:            qc,
		imports:       map[string]string{},
		staticImports: map[string]string{},
		classByName:   map[string]*classInfo{},
		methods:       map[string][]*sitter.Node{},
		vars:          map[string][]varDecl{},
	}
	// outer holds the names of the classes enclosing the match, to give
	// nested classes their qualified names; outerEnd the byte where each
	// ends. Matches come in document order.
	var outer []string
	var outerEnd []uint
	for _, m := range runQuery(qc, collectQuery, s.Root(), s.Src) {
		n := m.node
		for len(outerEnd) > 0 && n.StartByte() >= outerEnd[len(outerEnd)-1] {
			outer, outerEnd = outer[:len(outer)-1], outerEnd[:len(outerEnd)-1]
		}
		switch m.pattern {
		case patPackage:
			if q := firstNamed(n, "scoped_identifier", "identifier"); q != nil {
				fl.pkg = s.Text(q)
			}
		case patImport:
			fl.addImport(n)
		case patClass, patRecord, patInterface, patEnum:
			name := s.Text(n.ChildByFieldId(fieldName))
			if m.pattern == patClass || m.pattern == patRecord {
				ci := &classInfo{node: n, name: name, names: fl.qualifiedNames(outer, name)}
				fl.classes = append(fl.classes, ci)
				if _, dup := fl.classByName[name]; !dup {
					fl.classByName[name] = ci
				}
			}
			outer = append(outer, name)
			outerEnd = append(outerEnd, n.EndByte())
		case patAnonymous:
			fl.anonymous = append(fl.anonymous, n)
		case patMethod:
			name := s.Text(n.ChildByFieldId(fieldName))
			fl.methods[name] = append(fl.methods[name], n)
		case patLambda, patMethodRef:
			fl.functions = append(fl.functions, n)
		case patInvocation:
			fl.invocations = append(fl.invocations, n)
		case patString:
			fl.literals = append(fl.literals, n)
		case patLocalVar, patField, patConstant:
			typ := n.ChildByFieldId(fieldType)
			for _, d := range namedNonComment(n) {
				if d.Kind() != "variable_declarator" {
					continue
				}
				name := s.Text(d.ChildByFieldId(fieldName))
				fl.vars[name] = append(fl.vars[name], varDecl{name: name, start: d.StartByte(), typ: typ, value: d.ChildByFieldId(fieldValue), stmt: n})
			}
		case patAssign:
			// A plain assignment defines the variable's value from here
			// on, as a declaration does.
			if s.Text(n.ChildByFieldId(fieldOperator)) != "=" {
				continue
			}
			left := n.ChildByFieldId(fieldLeft)
			if left.Kind() == "field_access" {
				left = left.ChildByFieldId(fieldField)
			}
			name := s.Text(left)
			fl.vars[name] = append(fl.vars[name], varDecl{name: name, start: n.StartByte(), value: n.ChildByFieldId(fieldRight), stmt: n})
		}
	}
	return fl
}

// ancestors lists the nodes enclosing n, from the root down to n's
// parent. Descending from the root costs one step per level, where
// asking each node for its parent would search from the root every time.
func (fl *file) ancestors(n *sitter.Node) []*sitter.Node {
	root := fl.src.Root()
	if n == nil || sameNode(root, n) {
		return nil
	}
	chain := []*sitter.Node{root}
	for cur := root; len(chain) < 10000; {
		c := cur.ChildWithDescendant(n)
		if c == nil || sameNode(c, n) {
			break
		}
		chain = append(chain, c)
		cur = c
	}
	return chain
}

func (fl *file) addImport(n *sitter.Node) {
	static, wildcard := false, false
	var path *sitter.Node
	for _, c := range allChildren(n) {
		switch c.Kind() {
		case "static":
			static = true
		case "asterisk":
			wildcard = true
		case "scoped_identifier", "identifier":
			path = c
		}
	}
	if path == nil {
		return
	}
	full := fl.src.Text(path)
	last, qual := lastSegment(full)
	switch {
	case static && wildcard:
		fl.staticWildcards = append(fl.staticWildcards, full)
	case static:
		fl.staticImports[last] = qual
	case !wildcard:
		fl.imports[last] = full
	}
}

// qualifiedNames lists the names a SQL CREATE FUNCTION may give the class.
func (fl *file) qualifiedNames(outer []string, name string) []string {
	dotted, dollar := name, name
	for i := len(outer) - 1; i >= 0; i-- {
		dotted = outer[i] + "." + dotted
		dollar = outer[i] + "$" + dollar
	}
	names := []string{name, dotted, dollar}
	if fl.pkg != "" {
		names = append(names, fl.pkg+"."+dotted, fl.pkg+"."+dollar)
	}
	return names
}

// walk visits every node under root in document order, with the id of
// the field it fills in its parent and the parent's kind ("" for root);
// when visit returns false the node's children are skipped. It uses a
// cursor, so deep trees cost no stack.
func walk(root *sitter.Node, visit func(n *sitter.Node, field uint16, parent string) bool) {
	if root == nil {
		return
	}
	c := root.Walk()
	defer c.Close()
	parents := []string{""}
	for {
		n := c.Node()
		if visit(n, c.FieldId(), parents[len(parents)-1]) && c.GotoFirstChild() {
			parents = append(parents, n.Kind())
			continue
		}
		for !c.GotoNextSibling() {
			if !c.GotoParent() {
				return
			}
			parents = parents[:len(parents)-1]
		}
	}
}

func allChildren(n *sitter.Node) []*sitter.Node {
	out := make([]*sitter.Node, 0, n.ChildCount())
	for i := uint(0); i < n.ChildCount(); i++ {
		out = append(out, n.Child(i))
	}
	return out
}

// childOfKind is n's first named child of the given kind.
func childOfKind(n *sitter.Node, kind string) *sitter.Node {
	for i := uint(0); i < n.NamedChildCount(); i++ {
		if c := n.NamedChild(i); c.Kind() == kind {
			return c
		}
	}
	return nil
}

// firstNamed is n's first named child of any of the kinds.
func firstNamed(n *sitter.Node, kinds ...string) *sitter.Node {
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		for _, k := range kinds {
			if c.Kind() == k {
				return c
			}
		}
	}
	return nil
}

// lastSegment splits "a.b.C" into "C" and "a.b".
func lastSegment(s string) (last, qual string) {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '.' || s[i] == '$' {
			return s[i+1:], s[:i]
		}
	}
	return s, ""
}

// arguments returns the argument expressions of a call or creation.
func arguments(n *sitter.Node) []*sitter.Node {
	if n == nil {
		return nil
	}
	args := n.ChildByFieldId(fieldArguments)
	if args == nil {
		return nil
	}
	var out []*sitter.Node
	for _, c := range tsutil.NamedChildren(args) {
		if c.Kind() != "line_comment" && c.Kind() != "block_comment" {
			out = append(out, c)
		}
	}
	return out
}

// siteKinds are the grammar's nodes an inlined use site is.
var siteKinds = tsutil.SiteKinds{udf.UseCall: {"method_invocation"}, udf.UseSQL: {"string_literal"}}

// Occurrences implements udf.SiteLocator.
func (f *Frontend) Occurrences(path string, src []byte, text string, kind udf.UseKind) (all, code []int, err error) {
	return f.parser.SiteOccurrences(path, src, text, kind, siteKinds)
}
