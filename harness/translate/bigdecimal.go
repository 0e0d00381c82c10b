package translate

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/udfx/udfx/harness/translate/ir"
	"github.com/udfx/udfx/harness/udf"
)

// Rounding a double to cents goes through BigDecimal in real JVM code:
//
//	BigDecimal.valueOf(x).setScale(2, RoundingMode.HALF_UP).doubleValue()
//	BigDecimal(x).setScale(2, BigDecimal.RoundingMode.HALF_UP).toDouble
//
// Both build the decimal from Double.toString(x), as Spark's round and
// bround of a DOUBLE do (RoundBase, read from its bytecode in Spark
// 4.1.1), so they are exact where the decimal is built that way and the
// mode is HALF_UP (round) or HALF_EVEN (bround). new BigDecimal(x) takes
// the exact binary value instead (2.675 is 2.67499999…), and is declined.

// methodCall splits a Java method_invocation or a Scala call of a
// member, obj.name(args); ok is false for anything else.
func (t *tr) methodCall(n *sitter.Node) (obj *sitter.Node, name string, args []*sitter.Node, ok bool) {
	switch n.Kind() {
	case "method_invocation":
		if n.ChildByFieldName("object") == nil {
			return nil, "", nil, false
		}
		return n.ChildByFieldName("object"), t.text(n.ChildByFieldName("name")), namedNonComment(n.ChildByFieldName("arguments")), true
	case "call_expression":
		if fn := n.ChildByFieldName("function"); fn != nil && fn.Kind() == "field_expression" {
			return fn.ChildByFieldName("value"), t.text(fn.ChildByFieldName("field")), namedNonComment(n.ChildByFieldName("arguments")), true
		}
	}
	return nil, "", nil, false
}

// isDecimalRound reports whether n is <decimal>.setScale(…), the
// receiver of a toDouble or doubleValue the translator reads as a
// rounding.
func (t *tr) isDecimalRound(n *sitter.Node) bool {
	_, name, args, ok := t.methodCall(n)
	return ok && name == "setScale" && len(args) == 2
}

// decimalRound translates setScale (isDecimalRound) read back as a
// double; expr translates a subexpression.
func (t *tr) decimalRound(setScale *sitter.Node, expr func(*sitter.Node) *binding) *binding {
	dec, _, args, _ := t.methodCall(setScale)
	x := t.decimalOfDouble(dec)
	if x == nil {
		return nil
	}
	mode := t.text(args[1])
	if i := strings.LastIndexByte(mode, '.'); i >= 0 {
		mode = mode[i+1:]
	}
	fn := map[string]ir.Func{"HALF_UP": ir.DecimalRoundHalfUp, "ROUND_HALF_UP": ir.DecimalRoundHalfUp,
		"HALF_EVEN": ir.DecimalRoundHalfEven, "ROUND_HALF_EVEN": ir.DecimalRoundHalfEven}[mode]
	if fn == "" {
		t.decline(args[1], "rounding mode "+t.text(args[1]), "only HALF_UP and HALF_EVEN have Spark's round and bround")
		return nil
	}
	k := expr(args[0])
	if k == nil {
		return nil
	}
	if l, ok := k.e.(*ir.Lit); !ok || l.T == nil || l.T.Kind != udf.Int {
		t.decline(args[0], "setScale to a scale that is not an int constant", "Spark's round takes a constant scale")
		return nil
	}
	xb := expr(x)
	if xb == nil {
		return nil
	}
	v := t.unboxOrThrow(x, *xb)
	if v == nil {
		return nil
	}
	if !ir.IsDouble(v.Type()) {
		t.decline(x, "a BigDecimal of "+typeName(v), "only a BigDecimal of a double is translated")
		return nil
	}
	return lit(&ir.Call{Fn: fn, Args: []ir.Expr{v, k.e}, T: tDouble})
}

// decimalOfDouble is x where n builds a BigDecimal from Double.toString
// of x: BigDecimal.valueOf(x), Scala's BigDecimal(x) and
// BigDecimal.decimal(x), new BigDecimal(String.valueOf(x)) or of
// Double.toString(x); nil, declined, otherwise.
func (t *tr) decimalOfDouble(n *sitter.Node) *sitter.Node {
	isBigDecimal := func(s string) bool {
		return s == "BigDecimal" || s == "java.math.BigDecimal" || s == "scala.math.BigDecimal" || s == "math.BigDecimal"
	}
	if obj, name, args, ok := t.methodCall(n); ok && len(args) == 1 && isBigDecimal(t.text(obj)) && (name == "valueOf" || name == "decimal" && t.u.Language == udf.Scala) {
		return args[0]
	}
	switch n.Kind() {
	case "call_expression":
		// Scala's BigDecimal(x), BigDecimal.apply(x).
		if args := namedNonComment(n.ChildByFieldName("arguments")); len(args) == 1 && isBigDecimal(t.text(n.ChildByFieldName("function"))) {
			return args[0]
		}
	case "object_creation_expression", "instance_expression":
		args := namedNonComment(n.ChildByFieldName("arguments"))
		if len(args) == 1 {
			if obj, name, inner, ok := t.methodCall(args[0]); ok && len(inner) == 1 &&
				(t.text(obj) == "String" && name == "valueOf" || strings.TrimPrefix(t.text(obj), "java.lang.") == "Double" && name == "toString") {
				return inner[0]
			}
		}
		t.decline(n, "new BigDecimal of "+t.textOr(firstOf(args)), "new BigDecimal(double) is the exact binary value, which Spark's round does not round; BigDecimal.valueOf(x) is translated")
		return nil
	}
	t.decline(n, "setScale on "+t.text(n), "only BigDecimal.valueOf(x) or BigDecimal(x) of a double, rounded HALF_UP or HALF_EVEN, is translated")
	return nil
}

// firstOf is ns[0], or nil.
func firstOf(ns []*sitter.Node) *sitter.Node {
	if len(ns) == 0 {
		return nil
	}
	return ns[0]
}
