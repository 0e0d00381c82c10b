package translate

import (
	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/udfx/udfx/harness/translate/ir"
)

// This file translates lookups in a Python dict of literals, the usual
// way real UDFs map codes to names: d.get(k, default), d.get(k), d[k]
// (KeyError where k is missing) and `k in d`, for a dict literal, a local
// bound to one, or a module-level name assigned one once and never
// changed. The lookup becomes a CASE over the keys.

// pyDict is a dict literal: str or int keys (each once, with the value
// written last for it, as a dict display keeps) and literal values.
type pyDict struct {
	keys []*ir.Lit
	vals []*binding
	str  bool
}

// pyDictOf resolves n as a dict: a literal, a local bound to one, or a
// module-level constant. isDict is false when n is none of these (the
// caller goes on as before); d is nil after a decline.
func (t *tr) pyDictOf(n *sitter.Node, e env) (d *pyDict, isDict bool) {
	switch n.Kind() {
	case "dictionary":
		return t.pyDictLiteral(n), true
	case "identifier":
	default:
		return nil, false
	}
	name := t.text(n)
	if b, ok := e[name]; ok {
		return b.dict, b.dict != nil
	}
	defs, others := t.nameDefs(name)
	if len(defs) != 1 || len(others) > 0 {
		return nil, false
	}
	def := defs[0]
	right := def.ChildByFieldName("right")
	if def.Kind() != "assignment" || right == nil || right.Kind() != "dictionary" || def.Parent() == nil || def.Parent().Parent() == nil || def.Parent().Parent().Kind() != "module" {
		return nil, false
	}
	if use := t.dictChange(name, def); use != nil {
		t.decline(use, "dict "+name+" used by "+t.text(use.Parent()), "the dict may be changed or escape; only d.get(k), d[k] and `k in d` are read as a lookup")
		return nil, true
	}
	return t.pyDictLiteral(right), true
}

// dictChange is a use of the module-level name (defined by def) other
// than d.get(...), a read d[k] and `k in d`, or nil: any other use may
// change the dict (d[k] = v, d.update, del d[k]) or hand it to code
// that does.
func (t *tr) dictChange(name string, def *sitter.Node) *sitter.Node {
	left := def.ChildByFieldName("left")
	var bad *sitter.Node
	var walk func(x *sitter.Node)
	walk = func(x *sitter.Node) {
		if bad != nil {
			return
		}
		if x.Kind() == "identifier" && t.text(x) == name && !sameNode(x, left) {
			p := x.Parent()
			ok := false
			switch p.Kind() {
			case "attribute":
				call := p.Parent()
				ok = sameNode(p.ChildByFieldName("object"), x) && t.text(p.ChildByFieldName("attribute")) == "get" &&
					call != nil && call.Kind() == "call" && sameNode(call.ChildByFieldName("function"), p)
			case "subscript":
				g := p.Parent()
				target := g != nil && (g.Kind() == "assignment" || g.Kind() == "augmented_assignment") && sameNode(g.ChildByFieldName("left"), p)
				ok = sameNode(p.ChildByFieldName("value"), x) && g != nil && !target &&
					g.Kind() != "delete_statement" && g.Kind() != "expression_list" && g.Kind() != "pattern_list"
			case "comparison_operator":
				ok = p.NamedChildCount() == 2 && sameNode(p.NamedChild(1), x)
			}
			if !ok {
				bad = x
				return
			}
		}
		for i := uint(0); i < x.NamedChildCount(); i++ {
			walk(x.NamedChild(i))
		}
	}
	walk(t.root)
	return bad
}

// pyDictLiteral reads a dict display of str or int keys (no mix) and
// literal values; nil after a decline.
func (t *tr) pyDictLiteral(n *sitter.Node) *pyDict {
	d := &pyDict{}
	index := map[any]int{}
	for _, p := range namedNonComment(n) {
		if p.Kind() != "pair" {
			t.decline(p, "dict entry "+t.text(p), "only key: value pairs of literals are translated")
			return nil
		}
		kb, vb := t.pyExpr(p.ChildByFieldName("key"), env{}), t.pyExpr(p.ChildByFieldName("value"), env{})
		if kb == nil || vb == nil {
			return nil
		}
		k, ok := kb.e.(*ir.Lit)
		str := isString(k)
		if !ok || k.Value == nil || !str && !ir.IsIntegral(k.T) {
			t.decline(p, "dict key "+t.text(p.ChildByFieldName("key")), "only str and int literal keys are translated (True equals 1 and 1.0 as a key)")
			return nil
		}
		if len(d.keys) > 0 && str != d.str {
			t.decline(p, "dict key "+t.text(p.ChildByFieldName("key")), "keys of both str and int are not translated")
			return nil
		}
		d.str = str
		if _, ok := vb.e.(*ir.Lit); !ok {
			t.decline(p, "dict value "+t.text(p.ChildByFieldName("value")), "only literal values are translated")
			return nil
		}
		if i, seen := index[k.Value]; seen {
			d.vals[i] = vb
			continue
		}
		index[k.Value] = len(d.keys)
		d.keys = append(d.keys, k)
		d.vals = append(d.vals, vb)
	}
	return d
}

// pyDictKeyMatch gives the condition that k is the dict's i-th key; k
// of another type than the keys is declined.
func (t *tr) pyDictKeyMatch(n *sitter.Node, d *pyDict, k *binding) (func(i int) ir.Expr, bool) {
	if d.str && isString(k.e) || !d.str && k.e.Type() != nil && ir.IsIntegral(k.e.Type()) {
		return func(i int) ir.Expr { return pyEquals(k.e, d.str, d.keys[i]) }, true
	}
	kind := "int"
	if d.str {
		kind = "str"
	}
	t.decline(n, "lookup of a "+typeName(k.e)+" in a dict of "+kind+" keys", "only a key of the keys' own type is translated")
	return nil, false
}

// pyDictLookup is d's value for k, missing where k is not a key (nil:
// CPython's KeyError).
func (t *tr) pyDictLookup(n *sitter.Node, d *pyDict, k, missing *binding) *binding {
	match, ok := t.pyDictKeyMatch(n, d, k)
	if !ok {
		return nil
	}
	if missing == nil {
		// The values' type, for the failed row.
		var ty = tString
		for _, v := range d.vals {
			if v.e.Type() != nil {
				ty = v.e.Type()
				break
			}
		}
		missing = &binding{e: &ir.Raise{Msg: "udfx: the original throws " + asciiSnippet("KeyError in "+t.text(n)), T: ty}}
	}
	res := missing
	for i := len(d.keys) - 1; i >= 0; i-- {
		if res = t.ifOf(n, match(i), d.vals[i], res); res == nil {
			return nil
		}
	}
	if !d.str && k.nullable {
		// None == 1 is False in CPython: None is no int key.
		res = t.ifOf(n, &ir.IsNull{X: k.e}, missing, res)
	}
	return res
}

// pyDictGet translates d.get(k) and d.get(k, default); the default must
// be a parameter or a literal, since CPython evaluates it even where k
// is found.
func (t *tr) pyDictGet(n *sitter.Node, method string, d *pyDict, argNodes []*sitter.Node, e env) *binding {
	if method != "get" || len(argNodes) < 1 || len(argNodes) > 2 {
		t.decline(n, "dict method "+method, "only get(key) and get(key, default) are translated")
		return nil
	}
	args := t.helperArgs(n, "dict.get", argNodes[1:], func(a *sitter.Node) *binding { return t.pyExpr(a, e) })
	if args == nil && len(argNodes) == 2 {
		return nil
	}
	missing := &binding{e: &ir.Lit{}, nullable: true}
	if len(args) == 1 {
		missing = args[0]
	}
	k := t.pyExpr(argNodes[0], e)
	if k == nil {
		return nil
	}
	return t.pyDictLookup(n, d, k, missing)
}

// pyInDict is `k in d`: k equals one of the keys (None none of them).
func (t *tr) pyInDict(n *sitter.Node, op string, d *pyDict, e env) ir.Expr {
	k := t.pyExpr(n.NamedChild(0), e)
	if k == nil {
		return nil
	}
	if _, ok := t.pyDictKeyMatch(n, d, k); !ok {
		return nil
	}
	return pyIn(op, k, d.str, d.keys)
}

// sameNode reports whether a and b are the same node of the tree (go-
// tree-sitter hands out a new value per lookup, so by span).
func sameNode(a, b *sitter.Node) bool {
	return a != nil && b != nil && a.StartByte() == b.StartByte() && a.EndByte() == b.EndByte()
}
