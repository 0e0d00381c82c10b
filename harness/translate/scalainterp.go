package translate

import (
	"strconv"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/udfx/udfx/harness/translate/ir"
)

// scalaInterpolated translates s"…$x…${e}…": the parts with their escapes
// processed, each argument appended as String.valueOf does ("null" for a
// null), which is string concatenation (jvmConcat, which declines a
// double: Double.toString's digits). Only the s interpolator, in single
// quotes, is translated.
func (t *tr) scalaInterpolated(n *sitter.Node, e env) *binding {
	str := n.ChildByFieldName("interpolator")
	var body *sitter.Node
	for _, c := range namedNonComment(n) {
		if c.Kind() == "interpolated_string" {
			body = c
		}
	}
	if str == nil || t.text(str) != "s" || body == nil || strings.HasPrefix(t.text(body), `"""`) {
		t.decline(n, "Scala interpolated_string_expression", "only s\"…\" in single quotes is translated")
		return nil
	}
	var out *binding
	failed := false
	add := func(b *binding) {
		switch {
		case failed:
		case out == nil:
			out = b
		default:
			out = t.jvmConcat(n, out, b)
			failed = out == nil
		}
	}
	text := func(s string) { add(lit(&ir.Lit{T: tString, Value: s})) }
	at := body.StartByte() + 1 // after the opening quote
	for i := uint(0); i < body.NamedChildCount(); i++ {
		c := body.NamedChild(i)
		text(string(t.src[at:c.StartByte()]))
		at = c.EndByte()
		switch c.Kind() {
		case "escape_sequence":
			esc := t.text(c)
			if esc == "$$" {
				text("$")
				continue
			}
			s, err := strconv.Unquote(`"` + esc + `"`)
			if err != nil || strings.HasPrefix(esc, `\u`) {
				t.decline(c, "the escape "+esc, "not translated")
				return nil
			}
			text(s)
		case "interpolation":
			x := c.NamedChild(0)
			if x != nil && x.Kind() == "block" {
				st := namedNonComment(x)
				if len(st) != 1 {
					t.decline(c, "interpolation "+t.text(c), "only one expression is translated")
					return nil
				}
				x = st[0]
			}
			if x == nil {
				t.decline(c, "interpolation "+t.text(c), "not translated")
				return nil
			}
			b := t.scalaExpr(x, e, false)
			if b == nil {
				return nil
			}
			add(b)
		default:
			t.decline(c, "Scala "+c.Kind()+" in an interpolated string", "not translated")
			return nil
		}
		if failed {
			return nil
		}
	}
	text(string(t.src[at : body.EndByte()-1]))
	if failed {
		return nil
	}
	return out
}
