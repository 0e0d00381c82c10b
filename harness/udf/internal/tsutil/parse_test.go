package tsutil

import (
	"testing"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// TestHandleLayout: parseString reads sitter.Parser and writes sitter.Tree
// as one C pointer each; a go-tree-sitter that changes them fails here.
func TestHandleLayout(t *testing.T) {
	var p sitter.Parser
	var tr sitter.Tree
	if unsafe.Sizeof(p) != unsafe.Sizeof(uintptr(0)) || unsafe.Sizeof(tr) != unsafe.Sizeof(uintptr(0)) {
		t.Fatalf("sitter.Parser is %d bytes, sitter.Tree %d: parseString must be rewritten", unsafe.Sizeof(p), unsafe.Sizeof(tr))
	}
}
