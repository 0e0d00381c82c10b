package python

import (
	"fmt"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/udfx/udfx/harness/udf"
)

// findPipelines makes a KindRDDPipeline of every chain of RDD
// transformations over a text file that a function assigns to a name:
// counts = lines.flatMap(...).map(...).reduceByKey(add), where lines is
// X.textFile(...) in the same function, or the chain starts at the
// textFile call itself. The name is the variable's; a second chain
// assigned to the same name is NAME@LINE. Chains at module level are left
// out: importing the module would run them.
func (sc *scan) findPipelines() {
	seen := map[string]int{}
	for _, a := range sc.assigns {
		left, right := field(a, "left"), field(a, "right")
		if left == nil || right == nil || kindOf(left) != "identifier" {
			continue
		}
		ops, root := sc.chainOf(right)
		if len(ops) == 0 || !hasRDDOp(ops) {
			continue
		}
		fn := enclosingFunction(a)
		if ops[0] != "textFile" && !sc.boundToTextFile(root, fn) {
			continue
		}
		if ops[0] == "textFile" {
			ops = ops[1:]
		}
		span := sc.src.Span(right)
		name := sc.text(left)
		seen[name]++
		if seen[name] > 1 {
			name = fmt.Sprintf("%s@%d", name, span.Start.Line)
		}
		sc.found = append(sc.found, &found{u: udf.UDF{
			Name:         name,
			Language:     udf.Python,
			Kind:         udf.KindRDDPipeline,
			RDDOperation: strings.Join(ops, ", "),
			File:         sc.src.Path,
			Span:         span,
			BodySpan:     span,
		}})
	}
}

// chainOf splits a chain of method calls into the methods, innermost
// first, and what the first is called on.
func (sc *scan) chainOf(n *sitter.Node) (ops []string, root *sitter.Node) {
	n = unparen(n)
	for n != nil && kindOf(n) == "call" {
		fn := field(n, "function")
		if fn == nil || kindOf(fn) != "attribute" {
			break
		}
		ops = append([]string{sc.text(field(fn, "attribute"))}, ops...)
		n = unparen(field(fn, "object"))
	}
	return ops, n
}

func hasRDDOp(ops []string) bool {
	for _, op := range ops {
		if _, ok := rddFunctionArgs[op]; ok {
			return true
		}
	}
	return false
}

// boundToTextFile is true when root is a name that fn assigns a
// X.textFile(...) call to.
func (sc *scan) boundToTextFile(root, fn *sitter.Node) bool {
	if root == nil || kindOf(root) != "identifier" || fn == nil {
		return false
	}
	name := sc.text(root)
	for _, a := range sc.assigns {
		left := field(a, "left")
		if left == nil || kindOf(left) != "identifier" || sc.text(left) != name || !sameNode(enclosingFunction(a), fn) {
			continue
		}
		if ops, _ := sc.chainOf(field(a, "right")); len(ops) == 1 && ops[0] == "textFile" {
			return true
		}
	}
	return false
}

// enclosingFunction is the innermost function_definition around n, or
// nil at module level.
func enclosingFunction(n *sitter.Node) *sitter.Node {
	for p := n.Parent(); p != nil; p = p.Parent() {
		if kindOf(p) == "function_definition" {
			return p
		}
	}
	return nil
}

func unparen(n *sitter.Node) *sitter.Node {
	for n != nil && kindOf(n) == "parenthesized_expression" && n.NamedChildCount() == 1 {
		n = n.NamedChild(0)
	}
	return n
}

// sameNode compares nodes by identity: Parent returns a new *Node each time.
func sameNode(a, b *sitter.Node) bool {
	return a != nil && b != nil && a.Id() == b.Id()
}
