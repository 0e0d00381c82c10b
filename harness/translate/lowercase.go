package translate

import (
	"strings"

	"github.com/udfx/udfx/harness/jdkcase"
	"github.com/udfx/udfx/harness/translate/ir"
)

// The JDK's toLowerCase() is exact in SQL (package jdkcase), final
// sigma included: a Σ becomes ς or σ by the JDK's word boundaries, which
// the SQL finds with regular expressions, at some cost. Where the value
// is only compared with a text holding neither σ nor ς (equals, ==, a
// match on literals, startsWith, endsWith, contains) or measured
// (length), either answer gives the same outcome, and the translator
// marks the call ir.JVMLowerUpToSigma, for the shorter form.

// lowerCall translates s.toLowerCase().
func (t *tr) lowerCall(recv ir.Expr) ir.Expr {
	t.jdkCase = jdkcase.JDK()
	return &ir.Call{Fn: ir.JVMLower, Args: []ir.Expr{recv}, T: tString}
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
