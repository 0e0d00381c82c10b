package translate

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/udfx/udfx/harness/jdkcase"
	"github.com/udfx/udfx/harness/translate/ir"
)

// The JDK's toLowerCase() has no exact SQL: it decides whether a Σ ends a
// word (ς) or not (σ) by java.text.BreakIterator's word boundaries, which
// no Spark function reproduces (package jdkcase). Everywhere else it is
// Spark's lower with jdkcase's kept code points, and each Σ becomes one
// of σ and ς in both. So a lower-cased string whose only use is to be
// compared with a text holding neither (equals, ==, a match on literals,
// startsWith, endsWith, contains) or measured (length) gives the same
// answer either way. The translator reads toLowerCase() as ir.JVMLower,
// which only such a use turns into ir.JVMLowerUpToSigma; one left over
// when the body is translated is declined.

// lowerCall translates s.toLowerCase() and remembers where it was.
func (t *tr) lowerCall(n *sitter.Node, recv ir.Expr) ir.Expr {
	c := &ir.Call{Fn: ir.JVMLower, Args: []ir.Expr{recv}, T: tString}
	if t.lowerAt == nil {
		t.lowerAt = map[*ir.Call]*sitter.Node{}
	}
	t.lowerAt[c] = n
	return c
}

// sigmaBlind is e where e's value is only compared with other, a text
// without σ and ς, or only measured (other nil): each toLowerCase() that
// gives e's value is exact up to final sigma. Only the branches that are
// e's value are followed; e itself is not changed.
func (t *tr) sigmaBlind(e, other ir.Expr, measured bool) ir.Expr {
	if !measured {
		l, ok := other.(*ir.Lit)
		if !ok {
			return e
		}
		if s, ok := l.Value.(string); !ok || strings.ContainsAny(s, "\u03c3\u03c2") {
			return e
		}
	}
	switch x := e.(type) {
	case *ir.Call:
		if x.Fn == ir.JVMLower {
			t.jdkCase = jdkcase.JDK()
			return &ir.Call{Fn: ir.JVMLowerUpToSigma, Args: x.Args, T: x.T}
		}
	case *ir.If:
		th, el := t.sigmaBlind(x.Then, other, measured), t.sigmaBlind(x.Else, other, measured)
		if th != x.Then || el != x.Else {
			return &ir.If{Cond: x.Cond, Then: th, Else: el}
		}
	}
	return e
}

// declineLowerCase declines each toLowerCase() whose value is used as a
// string, where σ and ς differ.
func (t *tr) declineLowerCase(body *sitter.Node, e ir.Expr) bool {
	c := findCall(e, ir.JVMLower)
	if c == nil {
		return false
	}
	n := t.lowerAt[c]
	if n == nil {
		n = body
	}
	t.decline(n, "String.toLowerCase", "the JDK decides whether a Σ ends a word with java.text.BreakIterator's word boundaries (\"A1Σ\" lowers to \"a1ς\"), Spark with Unicode's case-ignorable context (\"a1σ\"); no SQL gives the JDK's final sigma, and the lower-cased text is used where σ and ς differ (only comparing it with a literal without them, or its length, is translated)")
	return true
}

// findCall is a call of fn in e, or nil.
func findCall(e ir.Expr, fn ir.Func) *ir.Call {
	if c, ok := e.(*ir.Call); ok && c.Fn == fn {
		return c
	}
	for _, s := range ir.Children(e) {
		if c := findCall(s, fn); c != nil {
			return c
		}
	}
	return nil
}
