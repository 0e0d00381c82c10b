package scala

import (
	sitter "github.com/tree-sitter/go-tree-sitter"
)

// none marks a missing node index.
const none = -1

// node is one tree-sitter node copied into Go memory. The front-end looks
// at most nodes several times (finding definitions, use sites, blockers,
// types); reading them through cgo each time would cost more than the
// parse itself, so the tree is copied once with a cursor.
//
// Kinds and fields are kept as the grammar's ids (24 bytes a node, not
// 56): a 4 MB file has millions of nodes.
type node struct {
	kind   uint16 // index into kindNames
	field  uint16 // index into fieldNames: the field name under the parent; 0 when none
	named  bool   // false for keywords and punctuation
	start  uint32 // byte offsets
	end    uint32
	parent int32
	first  int32 // first child
	next   int32 // next sibling
}

// tree is a parsed file in Go memory; node 0 is the root.
type tree struct {
	src   []byte
	nodes []node
}

// Kind and field names by id, read from the grammar once: the per-node
// Kind() call allocates a fresh Go string every time.
var kindNames, kindNamed, fieldNames = grammarNames(language)

func grammarNames(l *sitter.Language) ([]string, []bool, []string) {
	kinds := make([]string, l.NodeKindCount())
	named := make([]bool, len(kinds))
	for i := range kinds {
		kinds[i] = l.NodeKindForId(uint16(i))
		named[i] = l.NodeKindIsNamed(uint16(i))
	}
	fields := make([]string, l.FieldCount()+1)
	for i := 1; i < len(fields); i++ {
		fields[i] = l.FieldNameForId(uint16(i))
	}
	return kinds, named, fields
}

func buildTree(root *sitter.Node, src []byte) *tree {
	t := &tree{src: src, nodes: make([]node, 0, root.DescendantCount())}
	c := root.Walk()
	defer c.Close()
	// parents and prev hold, per open level, the parent and the previous
	// sibling, to link first/next without a second pass.
	parents := []int32{none}
	prev := []int32{none}
	for {
		n := c.Node()
		idx := int32(len(t.nodes))
		kind, named := uint16(0), false
		if id := n.KindId(); int(id) < len(kindNames) {
			kind, named = id, kindNamed[id]
		}
		field := uint16(0)
		if fid := c.FieldId(); fid > 0 && int(fid) < len(fieldNames) {
			field = fid
		}
		depth := len(parents) - 1
		t.nodes = append(t.nodes, node{
			kind: kind, field: field,
			start: uint32(n.StartByte()), end: uint32(n.EndByte()),
			parent: parents[depth], first: none, next: none, named: named,
		})
		if p := prev[depth]; p != none {
			t.nodes[p].next = idx
		} else if par := parents[depth]; par != none {
			t.nodes[par].first = idx
		}
		prev[depth] = idx
		// Imports and the package clause are long paths no pass reads.
		if k := kindNames[kind]; k != "import_declaration" && k != "package_clause" && c.GotoFirstChild() {
			parents = append(parents, idx)
			prev = append(prev, none)
			continue
		}
		for !c.GotoNextSibling() {
			if !c.GotoParent() {
				return t
			}
			parents = parents[:len(parents)-1]
			prev = prev[:len(prev)-1]
		}
	}
}

func (t *tree) kind(i int) string {
	if i < 0 {
		return ""
	}
	return kindNames[t.nodes[i].kind]
}

// fieldOf is the field name of i under its parent; "" when none.
func (t *tree) fieldOf(i int) string {
	if i < 0 {
		return ""
	}
	return fieldNames[t.nodes[i].field]
}

func (t *tree) text(i int) string {
	if i < 0 {
		return ""
	}
	return string(t.src[t.nodes[i].start:t.nodes[i].end])
}

func (t *tree) parent(i int) int {
	if i < 0 {
		return none
	}
	return int(t.nodes[i].parent)
}

// child returns the first child of i under the field name.
func (t *tree) child(i int, field string) int {
	if i < 0 {
		return none
	}
	for c := t.nodes[i].first; c != none; c = t.nodes[c].next {
		if fieldNames[t.nodes[c].field] == field {
			return int(c)
		}
	}
	return none
}

// kids returns the children of i that are named nodes (identifiers,
// expressions, types), leaving out punctuation and keywords.
func (t *tree) kids(i int) []int {
	if i < 0 {
		return nil
	}
	var out []int
	for c := t.nodes[i].first; c != none; c = t.nodes[c].next {
		if t.nodes[c].named {
			out = append(out, int(c))
		}
	}
	return out
}

// hasToken is true when i has an anonymous child with exactly this text
// (a keyword such as "yield" or "else").
func (t *tree) hasToken(i int, tok string) bool {
	if i < 0 {
		return false
	}
	for c := t.nodes[i].first; c != none; c = t.nodes[c].next {
		if kindNames[t.nodes[c].kind] == tok && !t.nodes[c].named {
			return true
		}
	}
	return false
}

// walk calls fn on i and its descendants in document order; when fn
// returns false the children of that node are skipped.
func (t *tree) walk(i int, fn func(int) bool) {
	if i < 0 || !fn(i) {
		return
	}
	for c := t.nodes[i].first; c != none; c = t.nodes[c].next {
		t.walk(int(c), fn)
	}
}

// ancestorOf is true when a is i or one of its ancestors.
func (t *tree) ancestorOf(a, i int) bool {
	for ; i >= 0; i = t.parent(i) {
		if i == a {
			return true
		}
	}
	return false
}
