package translate

import (
	"slices"
	"strconv"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// pyBuiltins are the builtins the translator reads by name (pyCall).
var pyBuiltins = []string{"str", "bool", "abs", "len", "min", "max", "round", "int", "float", "format"}

// starExports are the builtins a star import of a module replaces, read
// from CPython with pyspark 4.1.1 (`from m import *` into an empty
// namespace): real PySpark scripts start with `from
// pyspark.sql.functions import *`, after which round, max, min and abs
// are Spark's column functions, and a UDF that calls them fails.
var starExports = map[string][]string{
	"pyspark.sql.functions": {"abs", "ascii", "bin", "filter", "hash", "hex", "max", "min", "pow", "round", "slice", "sum"},
	"math":                  {"pow"},
	"re":                    {"compile"},
	"os":                    {"open"},
}

// starSafe are modules whose star import replaces no builtin.
var starSafe = []string{"pyspark.sql.types", "datetime", "typing", "decimal", "pyspark.sql", "string", "json", "collections"}

// pyShadowed says why the builtin fn does not mean the builtin in this
// file ("" when it does): a module-level definition, an import of the
// name, or a star import that brings one (or may: a module udfx does not
// know). A def of the name is left to pyHelper.
func (t *tr) pyShadowed(fn string, e env) (why string, helper bool) {
	if _, local := e[fn]; local {
		return "a local named " + fn + " hides the builtin", false
	}
	defs, all := t.nameDefs(fn)
	var others []*sitter.Node
	for _, o := range all {
		switch {
		case o.Kind() == "function_definition":
			return "", true
		case (o.Kind() == "import_from_statement" || o.Kind() == "import_statement") && !t.pyImportBinds(o, fn):
			// from m import max as fmax binds fmax, not max.
		default:
			others = append(others, o)
		}
	}
	if len(defs)+len(others) > 0 {
		return "the file gives the name " + fn + " another meaning (line " + t.lineOf(append(defs, others...)[0]) + "), which hides the builtin", false
	}
	var why2 string
	t.walkStarImports(func(imp *sitter.Node, module string) {
		if why2 != "" {
			return
		}
		if names, known := starExports[module]; known {
			if slices.Contains(names, fn) {
				why2 = "`from " + module + " import *` (line " + t.lineOf(imp) + ") makes " + fn + " " + module + "'s, not the builtin; a UDF that calls it on values fails"
			}
			return
		}
		if !slices.Contains(starSafe, module) {
			why2 = "`from " + module + " import *` (line " + t.lineOf(imp) + ") may bring a " + fn + " of its own; import what the file uses by name"
		}
	})
	return why2, false
}

// walkStarImports calls f for each `from m import *` of the file.
func (t *tr) walkStarImports(f func(imp *sitter.Node, module string)) {
	var walk func(x *sitter.Node)
	walk = func(x *sitter.Node) {
		if x.Kind() == "import_from_statement" {
			for i := uint(0); i < x.NamedChildCount(); i++ {
				if x.NamedChild(i).Kind() == "wildcard_import" {
					f(x, t.text(x.ChildByFieldName("module_name")))
				}
			}
			return
		}
		for i := uint(0); i < x.NamedChildCount(); i++ {
			walk(x.NamedChild(i))
		}
	}
	walk(t.root)
}

// lineOf is the line n starts on, as text.
func (t *tr) lineOf(n *sitter.Node) string { return strconv.Itoa(t.span(n).Start.Line) }

// pyImportBinds says whether the import statement imp binds name: `from
// m import name`, `import name`, `import name.sub`, or an alias `as name`.
func (t *tr) pyImportBinds(imp *sitter.Node, name string) bool {
	module := imp.ChildByFieldName("module_name")
	for i := uint(0); i < imp.NamedChildCount(); i++ {
		c := imp.NamedChild(i)
		if module != nil && c.Id() == module.Id() {
			continue
		}
		switch c.Kind() {
		case "aliased_import":
			if a := c.ChildByFieldName("alias"); a != nil && t.text(a) == name {
				return true
			}
		case "dotted_name":
			first := c
			if c.NamedChildCount() > 0 {
				first = c.NamedChild(0)
			}
			if t.text(first) == name {
				return true
			}
		}
	}
	return false
}
