package java

import (
	"sort"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/udfx/udfx/harness/udf"
)

// A lambda registered inside a method (spark.udf().register("f",
// (UDF1<String, Integer>) s -> ..., IntegerType) in main) exists only
// while the job runs. When it reads none of the method's locals, it means
// the same held by a static field of its own class: the same package,
// imports and members (private ones included), and a static context,
// which the method's own is when the method is static. The JVM runner
// compiles the file with that field inserted (udf.Lift).

// liftOf is the Lift of a lambda UDF defined inside a method, or nil when
// it is not inside one, has no UDFn type a field could be declared with,
// or its name cannot be a field's.
func (fl *file) liftOf(e *entry) *udf.Lift {
	n := e.body
	if n == nil || e.udfType == nil || !javaIdentifier(e.u.Name) {
		return nil
	}
	chain := fl.ancestors(n)
	var method, body *sitter.Node
	class := ""
	for i := len(chain) - 1; i >= 0 && body == nil; i-- {
		switch c := chain[i]; c.Kind() {
		case "method_declaration", "constructor_declaration":
			if method == nil {
				method = c
			}
		case "class_body":
			if i == 0 || chain[i-1].Kind() != "class_declaration" {
				// An anonymous class's or an enum's body: its members
				// are not the method's class's.
				return nil
			}
			body = c
			class = fl.src.Text(chain[i-1].ChildByFieldId(fieldName))
		}
	}
	if method == nil || body == nil {
		return nil
	}
	if _, taken := fl.classFields(body)[e.u.Name]; taken {
		return nil
	}
	last := body.Child(body.ChildCount() - 1)
	if last == nil || last.Kind() != "}" {
		return nil
	}
	lift := &udf.Lift{
		Method: class + "." + fl.src.Text(method.ChildByFieldId(fieldName)),
		Object: class,
		Expr:   fl.src.Text(n),
		Field:  "static final " + fl.src.Text(e.udfType) + " " + e.u.Name + " = " + fl.src.Text(n) + ";",
		At:     int(last.StartByte()),
	}
	if method.Kind() == "constructor_declaration" {
		lift.Method = class + ".<init>"
	}
	lift.Captures = fl.captures(n, method)
	return lift
}

// liftTogether gives each liftable lambda of a file the fields of all of
// them (udf.Lift.Fields). Two lambdas of one name cannot both be fields:
// neither is lifted.
func liftTogether(us []udf.UDF) {
	liftable := func(u *udf.UDF) bool {
		return u.Lift != nil && u.Lift.Field != "" && len(u.Lift.Captures) == 0
	}
	names := map[string]int{}
	for i := range us {
		if liftable(&us[i]) {
			names[us[i].Name]++
		}
	}
	var fields []udf.JavaField
	for i := range us {
		if !liftable(&us[i]) {
			continue
		}
		if names[us[i].Name] > 1 {
			us[i].Lift = nil
			continue
		}
		fields = append(fields, udf.JavaField{Decl: us[i].Lift.Field, At: us[i].Lift.At})
	}
	sort.Slice(fields, func(a, b int) bool {
		if fields[a].At != fields[b].At {
			return fields[a].At < fields[b].At
		}
		return fields[a].Decl < fields[b].Decl
	})
	for i := range us {
		if liftable(&us[i]) {
			us[i].Lift.Fields = fields
		}
	}
}

// captures are the locals of the methods and lambdas around n (up to
// method) that n reads, and "this" when n reads its instance in a method
// that is not static.
func (fl *file) captures(n, method *sitter.Node) []string {
	outer := declaredNames(method, fl)
	inner := declaredNames(n, fl)
	found := map[string]bool{}
	walk(n, func(c *sitter.Node, field uint16, parent string) bool {
		switch c.Kind() {
		case "this", "super":
			found["this"] = true
		case "identifier":
			if field == fieldName && parent == "method_invocation" || field == fieldField {
				return true
			}
			if name := fl.src.Text(c); outer[name] && !inner[name] {
				found[name] = true
			}
		}
		return true
	})
	if !isStatic(method) && method.Kind() == "method_declaration" && fl.readsInstance(n) {
		found["this"] = true
	}
	out := make([]string, 0, len(found))
	for name := range found {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// readsInstance is a conservative test for a lambda in an instance
// method: whether it calls a method without a receiver or reads a name
// that a class around it declares as a field. In a static field either
// would not compile, or would mean another object.
func (fl *file) readsInstance(n *sitter.Node) bool {
	fields := fl.fieldsAround(n)
	reads := false
	walk(n, func(c *sitter.Node, field uint16, parent string) bool {
		switch {
		case c.Kind() == "method_invocation" && c.ChildByFieldId(fieldObject) == nil:
			reads = true
		case c.Kind() == "identifier" && field != fieldName && field != fieldField:
			if _, ok := fields[fl.src.Text(c)]; ok {
				reads = true
			}
		}
		return !reads
	})
	return reads
}

// isStatic reports whether a declaration has the static modifier.
func isStatic(decl *sitter.Node) bool {
	mods := childOfKind(decl, "modifiers")
	if mods == nil {
		return false
	}
	for _, m := range allChildren(mods) {
		if m.Kind() == "static" {
			return true
		}
	}
	return false
}

// javaIdentifier reports whether s can name a Java field.
func javaIdentifier(s string) bool {
	if s == "" || javaKeywords[s] {
		return false
	}
	for i, r := range s {
		ok := r == '_' || r == '$' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || i > 0 && '0' <= r && r <= '9'
		if !ok {
			return false
		}
	}
	return !strings.HasPrefix(s, "<")
}

var javaKeywords = map[string]bool{}

func init() {
	for _, k := range strings.Fields(`abstract assert boolean break byte case catch char class const continue
		default do double else enum extends final finally float for goto if implements import instanceof int
		interface long native new package private protected public return short static strictfp super switch
		synchronized this throw throws transient try void volatile while true false null _ var record yield`) {
		javaKeywords[k] = true
	}
}
