package translate

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/udfx/udfx/harness/translate/ir"
)

// This file translates lookups in a constant JVM map of string literals,
// the JVM side of pydict.go: real UDFs map codes to names with
//
//	private static final Map<String, String> CODES = new HashMap<>();
//	static { CODES.put("germany", "DE"); ... }   // or Map.of("germany", "DE", ...)
//	CODES.getOrDefault(k, "??"), CODES.get(k), CODES.containsKey(k)
//
//	val Codes = Map("DE" -> "Germany", ...)       // in an object
//	Codes.getOrElse(k, "?"), Codes(k), Codes.contains(k)
//
// A HashMap must be private, filled only by put(literal, literal) in the
// class's static initializers and read only by those lookups, so that
// nothing else can change it; a key put twice keeps its last value, as
// in a Scala Map(...). Map.of throws at class initialization on a
// duplicate key, and its lookups throw NullPointerException on a null
// key, where HashMap's and Scala's find nothing. The lookup is the CASE
// over the keys that pydict.go builds.

// jvmMap is a constant map: the dict of its entries, and whether a null
// key throws (Map.of).
type jvmMap struct {
	*pyDict
	nullKeyThrows bool
}

// javaMapOf resolves obj as a constant Java map of string literals.
// isMap is false where obj is not a map field (the caller goes on); m
// is nil after a decline.
func (t *tr) javaMapOf(obj *sitter.Node) (m *jvmMap, isMap bool) {
	if obj == nil || obj.Kind() != "identifier" {
		return nil, false
	}
	name := t.text(obj)
	defs, others := t.nameDefs(name)
	if len(defs) != 1 || len(others) > 0 {
		return nil, false
	}
	decl := defs[0].Parent()
	ty := t.textOr(decl.ChildByFieldName("type"))
	if decl.Kind() != "field_declaration" || !(strings.HasPrefix(ty, "Map<") || strings.HasPrefix(ty, "HashMap<") || strings.HasPrefix(ty, "java.util.Map<")) {
		return nil, false
	}
	mods := t.javaModifiers(decl)
	val := defs[0].ChildByFieldName("value")
	if !containsWord(mods, "static") || !containsWord(mods, "final") || val == nil {
		t.decline(obj, "map "+name, "only a static final map is read as a lookup")
		return nil, true
	}
	var entries [][2]*sitter.Node
	puts := map[uint]bool{}
	if o, fn, args, ok := t.methodCall(val); ok && (t.text(o) == "Map" || t.text(o) == "java.util.Map") && fn == "of" && len(args)%2 == 0 {
		for i := 0; i < len(args); i += 2 {
			entries = append(entries, [2]*sitter.Node{args[i], args[i+1]})
		}
		m = &jvmMap{nullKeyThrows: true}
	} else if val.Kind() == "object_creation_expression" && strings.HasPrefix(t.text(val.ChildByFieldName("type")), "HashMap") && len(namedNonComment(val.ChildByFieldName("arguments"))) == 0 {
		if !containsWord(mods, "private") {
			t.decline(obj, "map "+name, "a HashMap other classes can reach may be changed by them; only a private one is read as a lookup")
			return nil, true
		}
		m = &jvmMap{}
		var walk func(x *sitter.Node)
		walk = func(x *sitter.Node) {
			if x.Kind() == "static_initializer" {
				for _, st := range namedNonComment(namedNonComment(x)[0]) {
					if st.Kind() != "expression_statement" || st.NamedChildCount() != 1 {
						continue
					}
					if o, fn, args, ok := t.methodCall(st.NamedChild(0)); ok && t.text(o) == name && fn == "put" && len(args) == 2 {
						entries = append(entries, [2]*sitter.Node{args[0], args[1]})
						puts[o.StartByte()] = true
					}
				}
			}
			for _, c := range namedNonComment(x) {
				walk(c)
			}
		}
		walk(t.root)
	} else {
		t.decline(val, "map "+name+" = "+t.text(val), "only new HashMap<>() filled by put in a static initializer, or Map.of(...), is read as a lookup")
		return nil, true
	}
	if use := t.mapChange(name, defs[0].ChildByFieldName("name"), puts, "get", "getOrDefault", "containsKey"); use != nil {
		t.decline(use, "map "+name+" used by "+t.text(use.Parent()), "the map may be changed or escape; only get, getOrDefault and containsKey are read as a lookup")
		return nil, true
	}
	m.pyDict = t.jvmMapEntries(obj, entries, func(x *sitter.Node) *binding { return t.javaExpr(x, env{}) }, m.nullKeyThrows)
	if m.pyDict == nil {
		return nil, true
	}
	return m, true
}

// scalaMapOf resolves obj as a val bound to Map(k -> v, ...) of string
// literals (immutable).
func (t *tr) scalaMapOf(obj *sitter.Node) (m *jvmMap, isMap bool) {
	if obj != nil && obj.Kind() == "field_expression" {
		// Obj.Names, a val of an object the file defines.
		if v := obj.ChildByFieldName("value"); v.Kind() == "identifier" && t.definesType(t.text(v)) {
			obj = obj.ChildByFieldName("field")
		}
	}
	if obj == nil || obj.Kind() != "identifier" {
		return nil, false
	}
	name := t.text(obj)
	defs, others := t.nameDefs(name)
	if len(defs) != 1 || len(others) > 0 {
		return nil, false
	}
	val := defs[0].ChildByFieldName("value")
	if val == nil || val.Kind() != "call_expression" {
		return nil, false
	}
	if f := t.text(val.ChildByFieldName("function")); f != "Map" && f != "scala.collection.immutable.Map" && f != "immutable.Map" {
		return nil, false
	}
	var entries [][2]*sitter.Node
	for _, a := range namedNonComment(val.ChildByFieldName("arguments")) {
		ops, names := t.flatInfix(a)
		if a.Kind() != "infix_expression" || len(ops) != 2 || len(names) != 1 || names[0] != "->" {
			t.decline(a, "map entry "+t.text(a), "only k -> v entries of literals are read as a lookup")
			return nil, true
		}
		entries = append(entries, [2]*sitter.Node{ops[0], ops[1]})
	}
	d := t.jvmMapEntries(obj, entries, func(x *sitter.Node) *binding { return t.scalaExpr(x, env{}, false) }, false)
	if d == nil {
		return nil, true
	}
	return &jvmMap{pyDict: d}, true
}

// jvmMapEntries reads the entries: string literal keys, literal values,
// the last value of a key kept (a duplicate is declined where the map
// throws on it).
func (t *tr) jvmMapEntries(at *sitter.Node, entries [][2]*sitter.Node, expr func(*sitter.Node) *binding, noDuplicates bool) *pyDict {
	d := &pyDict{str: true}
	index := map[any]int{}
	for _, kv := range entries {
		kb, vb := expr(kv[0]), expr(kv[1])
		if kb == nil || vb == nil {
			return nil
		}
		k, ok := kb.e.(*ir.Lit)
		if !ok || !isString(k) || k.Value == nil {
			t.decline(kv[0], "map key "+t.text(kv[0]), "only string literal keys are read as a lookup")
			return nil
		}
		if _, ok := vb.e.(*ir.Lit); !ok {
			t.decline(kv[1], "map value "+t.text(kv[1]), "only literal values are read as a lookup")
			return nil
		}
		if i, seen := index[k.Value]; seen {
			if noDuplicates {
				t.decline(kv[0], "map key "+t.text(kv[0])+" given twice", "Map.of throws IllegalArgumentException when the class is initialized")
				return nil
			}
			d.vals[i] = vb
			continue
		}
		index[k.Value] = len(d.keys)
		d.keys = append(d.keys, k)
		d.vals = append(d.vals, vb)
	}
	if len(d.keys) == 0 {
		t.decline(at, "an empty map", "not read as a lookup")
		return nil
	}
	return d
}

// mapChange is a use of the map field name other than its declaration
// (decl), the puts that fill it, and a call of one of the read methods
// on it; nil where there is none.
func (t *tr) mapChange(name string, decl *sitter.Node, puts map[uint]bool, reads ...string) *sitter.Node {
	var bad *sitter.Node
	var walk func(x *sitter.Node)
	walk = func(x *sitter.Node) {
		if bad != nil {
			return
		}
		if x.Kind() == "identifier" && t.text(x) == name && !sameNode(x, decl) && !puts[x.StartByte()] {
			p := x.Parent()
			if _, fn, _, ok := t.methodCall(p); !ok || !sameNode(p.ChildByFieldName("object"), x) || !containsWord(strings.Join(reads, " "), fn) {
				bad = x
				return
			}
		}
		for _, c := range namedNonComment(x) {
			walk(c)
		}
	}
	walk(t.root)
	return bad
}

// mapLookup translates a lookup method on m: get (null where missing),
// getOrDefault and getOrElse (the default there), containsKey and
// contains, and apply (NoSuchElementException where missing). The key
// is compared with literals, so a lower-cased key is exact up to final
// sigma where no key holds σ or ς.
func (t *tr) mapLookup(n *sitter.Node, m *jvmMap, method string, args []*binding) *binding {
	if len(args) == 0 || !isString(args[0].e) {
		t.decline(n, "map lookup "+t.text(n), "only a lookup by a string key is translated")
		return nil
	}
	k := *args[0]
	blind := true
	for _, l := range m.keys {
		if strings.ContainsAny(l.Value.(string), "\u03c3\u03c2") {
			blind = false
		}
	}
	if blind {
		k.e = t.sigmaBlind(k.e, nil, true)
	}
	var res *binding
	switch {
	case (method == "containsKey" || method == "contains") && len(args) == 1:
		res = lit(pyIn("in", &k, true, m.keys))
	case method == "get" && len(args) == 1:
		res = t.pyDictLookup(n, m.pyDict, &k, &binding{e: &ir.Lit{}, nullable: true})
	case (method == "getOrDefault" || method == "getOrElse") && len(args) == 2:
		if method == "getOrDefault" && containsRaise(args[1].e) {
			t.decline(n, "getOrDefault with a default that may throw", "Java evaluates it even where the key is found; not translated")
			return nil
		}
		res = t.pyDictLookup(n, m.pyDict, &k, args[1])
	case method == "apply" && len(args) == 1:
		ty := m.vals[0].e.Type()
		res = t.pyDictLookup(n, m.pyDict, &k, &binding{e: &ir.Raise{Msg: "udfx: the original throws " + asciiSnippet("NoSuchElementException in "+t.text(n)), T: ty}})
	default:
		t.decline(n, "map method "+method, "only get, getOrDefault, getOrElse, containsKey, contains and apply are translated")
		return nil
	}
	if res != nil && m.nullKeyThrows && k.nullable {
		res = &binding{e: raiseWhereNull(k.e, res.e, "NullPointerException where "+t.text(n)+" looks up null in Map.of"), nullable: res.nullable}
	}
	return res
}
