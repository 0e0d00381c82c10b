package scala

import (
	"sort"
	"strings"

	"github.com/udfx/udfx/harness/udf"
)

// A UDF held by a val inside a method (val toF = udf((c: Double) => ...)
// in main) exists only while the job runs: nothing outside the method can
// reach it. When its expression reads none of the method's locals, it
// means the same held by a val of an object of its own, with the file's
// package and the imports in scope, and the enclosing objects' members
// imported; the JVM runner compiles that object beside the file.

// liftOf is the Lift of the udf(...) call held by the val holder, or nil
// when the val is not inside a method.
func (f *file) liftOf(call, holder int) *udf.Lift {
	t := f.t
	method := none
	var objects []string
	inClass := false
	for a := t.parent(holder); a != none; a = t.parent(a) {
		switch t.kind(a) {
		case "function_definition":
			if method == none {
				method = a
			}
		case "object_definition":
			objects = append([]string{t.text(t.child(a, "name"))}, objects...)
		case "class_definition", "trait_definition":
			inClass = true
		}
	}
	if method == none {
		return nil
	}
	lift := &udf.Lift{Expr: t.text(call)}
	path := strings.Join(objects, ".")
	lift.Method = strings.TrimPrefix(path+"."+t.text(t.child(method, "name")), ".")
	if !inClass {
		lift.Object = path
	}
	// The locals of every enclosing method and, inside a class, its
	// members: reading one of them is a capture.
	locals := map[string]bool{}
	for a := t.parent(holder); a != none; a = t.parent(a) {
		switch t.kind(a) {
		case "function_definition", "class_definition", "trait_definition":
			for n := range f.boundNames(a) {
				locals[n] = true
			}
		}
	}
	start := t.nodes[holder].start
	// Outermost scope first, each scope's in order.
	for a := t.parent(holder); a != none; a = t.parent(a) {
		var imports, packages []string
		for _, c := range t.kids(a) {
			if t.nodes[c].start >= start {
				break
			}
			switch t.kind(c) {
			case "import_declaration":
				// import spark.implicits._ names a local: there is no
				// spark outside the method. The expression of a UDF
				// does not take Spark's implicits; were it to need
				// them, the object would not compile.
				path := strings.TrimSpace(strings.TrimPrefix(t.text(c), "import"))
				if root, _, _ := strings.Cut(path, "."); locals[strings.TrimSpace(root)] {
					continue
				}
				imports = append(imports, t.text(c))
			case "package_clause":
				// package a.b, not package a.b { ... }, whose body holds
				// the UDF and is walked as a scope of its own.
				if text := t.text(c); !strings.Contains(text, "{") {
					packages = append(packages, text)
				}
			}
		}
		lift.Imports = append(imports, lift.Imports...)
		lift.Packages = append(packages, lift.Packages...)
	}
	inner := f.boundNames(call)
	captures := map[string]bool{}
	t.walk(call, func(i int) bool {
		if t.kind(i) != "identifier" {
			return true
		}
		switch t.fieldOf(i) {
		case "field", "operator", "name", "pattern", "parameters", "interpolator":
			return true
		}
		if k := t.kind(t.parent(i)); k == "stable_identifier" || k == "stable_type_identifier" {
			return true
		}
		if n := t.text(i); locals[n] && !inner[n] {
			captures[n] = true
		}
		return true
	})
	for n := range captures {
		if c := f.literalLocal(holder, n); c != "" {
			lift.Consts = append(lift.Consts, c)
			continue
		}
		lift.Captures = append(lift.Captures, n)
	}
	sort.Strings(lift.Consts)
	sort.Strings(lift.Captures)
	return lift
}

// literalLocal is the text of `val name = <literal>` when that is the one
// binding of name in the method around holder, before it; "" otherwise.
// Such a local is a constant: the lifted object holds a copy.
func (f *file) literalLocal(holder int, name string) string {
	t := f.t
	method := t.parent(holder)
	for method != none && t.kind(method) != "function_definition" {
		method = t.parent(method)
	}
	if method == none {
		return ""
	}
	found := ""
	n := 0
	t.walk(method, func(i int) bool {
		switch t.kind(i) {
		case "val_definition", "var_definition":
			if p := t.child(i, "pattern"); t.text(p) == name {
				n++
				v := t.child(i, "value")
				if t.kind(i) == "val_definition" && t.nodes[i].start < t.nodes[holder].start && isLiteral(t, v) {
					found = t.text(i)
				}
			}
		case "parameter", "binding":
			if t.text(t.child(i, "name")) == name {
				n++
			}
		}
		return true
	})
	if n != 1 || strings.Contains(found, "\n") {
		return ""
	}
	return found
}

// isLiteral is a number, string, boolean or character literal, or a
// negated number.
func isLiteral(t *tree, v int) bool {
	switch t.kind(v) {
	case "integer_literal", "floating_point_literal", "string", "boolean_literal", "character_literal":
		return true
	case "prefix_expression":
		ks := t.kids(v)
		return len(ks) == 1 && strings.HasPrefix(t.text(v), "-") && (t.kind(ks[0]) == "integer_literal" || t.kind(ks[0]) == "floating_point_literal")
	}
	return false
}
