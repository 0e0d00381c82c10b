package tsutil

/*
#include <stdint.h>
#include <stdlib.h>

typedef struct TSParser TSParser;
typedef struct TSTree TSTree;

// From tree-sitter's api.h; go-tree-sitter compiles and links the library.
TSTree *ts_parser_parse_string(TSParser *self, const TSTree *old_tree, const char *string, uint32_t length);
void ts_set_allocator(void *(*new_malloc)(size_t), void *(*new_calloc)(size_t, size_t), void *(*new_realloc)(void *, size_t), void (*new_free)(void *));

static void udfx_use_default_allocator(void) { ts_set_allocator(NULL, NULL, NULL, NULL); }
*/
import "C"

import (
	"math"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// go-tree-sitter routes every allocation of tree-sitter through a Go
// callback (C to Go and back to C's malloc): on a 1 MB Java file that
// callback was a sixth of the parse's time, and without it the parse took
// 7-20% less. Its callbacks call the C library's functions anyway;
// tree-sitter's own defaults (NULL here) call them directly and abort
// with a message when memory runs out. This runs after go-tree-sitter's
// own init, before any parser exists.
func init() { C.udfx_use_default_allocator() }

// parseString parses src with tree-sitter's ts_parser_parse_string, from
// one copy of src in C memory.
//
// go-tree-sitter's Parse hands tree-sitter src[i:] through a read
// callback and copies it into C memory kept until the parse ends, on
// every read; tree-sitter reads again at every lexer reset and every
// column lookup (the Scala grammar asks for the column at most tokens),
// so that cost time and memory quadratic in the file's size: 2.6 s and
// 1.1 GB for 100 KB of Scala, 47 s and 12.8 GB for 400 KB.
//
// sitter.Parser and sitter.Tree are each a single pointer to the C
// object (go-tree-sitter v0.25); TestHandleLayout checks that.
func parseString(p *sitter.Parser, src []byte) *sitter.Tree {
	if len(src) > math.MaxUint32 {
		return nil
	}
	cp := *(**C.TSParser)(unsafe.Pointer(p))
	var buf *C.char
	if len(src) > 0 {
		buf = (*C.char)(C.CBytes(src))
		defer C.free(unsafe.Pointer(buf))
	}
	ct := C.ts_parser_parse_string(cp, nil, buf, C.uint32_t(len(src)))
	if ct == nil {
		return nil
	}
	t := new(sitter.Tree)
	*(**C.TSTree)(unsafe.Pointer(t)) = ct
	return t
}
