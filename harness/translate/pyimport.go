package translate

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"

	"github.com/udfx/udfx/harness/udf"
)

// Python UDFs in a package read constants and call helpers of the
// package's other modules:
//
//	from .consts import *            # DEFAULT_COUNTRY, VAT_RATE
//	from .helpers import normalize
//
// A name the file does not define is looked up through its module-level
// from-imports: the one explicit import that binds it, or else the one
// star import whose module exports it (its __all__, or its names not
// starting with _). The module is read from the file's directory (a
// relative import), or from the file's directory, its package root's
// parent and the repository root (an absolute one), as CPython finds it
// when the job runs from there. There it must be a module-level constant
// assigned once or a def defined once (or imported again, followed the
// same way), and it is translated by the same rules in that module: the
// IR it gives is the module's value. The differential test then runs the
// original imported as part of its package, which reads the same module.

// pyModule is a parsed module another file imports.
type pyModule struct {
	t    *tr
	tree *sitter.Tree
}

// pyImported resolves name, which t's file does not define, to the tr
// of the module that defines it and that module's name for it; nil
// (without a decline) where no import binds it.
func (t *tr) pyImported(name string) (*tr, string, error) {
	if t.u.Language != udf.Python {
		return nil, "", nil
	}
	var explicit []struct{ module, orig string }
	var stars []string
	for _, st := range namedNonComment(t.root) {
		if st.Kind() != "import_from_statement" {
			continue
		}
		module := t.text(st.ChildByFieldName("module_name"))
		for _, c := range namedNonComment(st) {
			switch {
			case c.Kind() == "wildcard_import":
				stars = append(stars, module)
			case c.Kind() == "dotted_name" && c.StartByte() != st.ChildByFieldName("module_name").StartByte():
				if t.text(c) == name {
					explicit = append(explicit, struct{ module, orig string }{module, name})
				}
			case c.Kind() == "aliased_import":
				if t.text(c.ChildByFieldName("alias")) == name {
					explicit = append(explicit, struct{ module, orig string }{module, t.text(c.ChildByFieldName("name"))})
				}
			}
		}
	}
	var found []*tr
	var origs []string
	for _, x := range explicit {
		m, err := t.pyModuleOf(x.module)
		if err != nil {
			return nil, "", err
		}
		found, origs = append(found, m), append(origs, x.orig)
	}
	for _, s := range stars {
		m, err := t.pyModuleOf(s)
		if err != nil {
			return nil, "", err
		}
		if m.pyExports(name) {
			found, origs = append(found, m), append(origs, name)
		}
	}
	switch len(found) {
	case 0:
		return nil, "", nil
	case 1:
		return found[0], origs[0], nil
	}
	return nil, "", fmt.Errorf("%s is imported by more than one import in the file; which one the UDF sees depends on their order", name)
}

// pyExports reports whether `from m import *` binds name: listed in a
// module-level __all__ of string literals, or, without one, defined at
// module level and not starting with _.
func (t *tr) pyExports(name string) bool {
	for _, st := range namedNonComment(t.root) {
		if st.Kind() != "expression_statement" || st.NamedChildCount() != 1 || st.NamedChild(0).Kind() != "assignment" {
			continue
		}
		a := st.NamedChild(0)
		if t.text(a.ChildByFieldName("left")) != "__all__" {
			continue
		}
		r := a.ChildByFieldName("right")
		if r == nil || r.Kind() != "list" && r.Kind() != "tuple" {
			return false
		}
		for _, el := range namedNonComment(r) {
			if s, ok := pyString(t.text(el)); ok && s == name {
				return true
			}
		}
		return false
	}
	if strings.HasPrefix(name, "_") {
		return false
	}
	defs, others := t.nameDefs(name)
	return len(defs) > 0 || len(others) > 0
}

// pyModuleOf parses the module a from-import names, relative to t's
// file; it is parsed once per translation.
func (t *tr) pyModuleOf(module string) (*tr, error) {
	path, err := t.pyModulePath(module)
	if err != nil {
		return nil, err
	}
	top := t.top()
	if m, ok := top.modules[path]; ok {
		return m.t, nil
	}
	if len(top.modules) >= 32 {
		return nil, fmt.Errorf("more than 32 modules imported while translating %s", t.u.Name)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	p := sitter.NewParser()
	defer p.Close()
	if err := p.SetLanguage(sitter.NewLanguage(tspython.Language())); err != nil {
		return nil, err
	}
	tree := p.Parse(src, nil)
	if tree == nil || tree.RootNode().HasError() {
		if tree != nil {
			tree.Close()
		}
		return nil, fmt.Errorf("%s does not parse as Python", path)
	}
	u := &udf.UDF{Name: t.u.Name, Language: udf.Python, File: path, Return: t.u.Return}
	m := &tr{u: u, src: src, lines: udf.NewLines(src), root: tree.RootNode(), parent: top, file: path}
	if top.modules == nil {
		top.modules = map[string]*pyModule{}
	}
	top.modules[path] = &pyModule{t: m, tree: tree}
	return m, nil
}

// pyModulePath finds the file of a module as CPython would import it
// from t's file.
func (t *tr) pyModulePath(module string) (string, error) {
	dir := filepath.Dir(t.path())
	rel := strings.TrimLeft(module, ".")
	var bases []string
	if dots := len(module) - len(rel); dots > 0 {
		base := dir
		for i := 1; i < dots; i++ {
			base = filepath.Dir(base)
		}
		bases = []string{base}
	} else {
		root := dir
		for fileExists(filepath.Join(root, "__init__.py")) {
			root = filepath.Dir(root)
		}
		bases = []string{dir, root}
		if t.u.Root != "" {
			bases = append(bases, t.u.Root)
		}
	}
	root := t.top().u.Root
	for _, b := range bases {
		p := filepath.Join(append([]string{b}, strings.Split(rel, ".")...)...)
		for _, cand := range []string{p + ".py", filepath.Join(p, "__init__.py")} {
			if rel == "" || !fileExists(cand) {
				continue
			}
			// The source is the pull request's: it is only parsed, and
			// never read from outside the repository.
			if r, err := filepath.Rel(root, cand); root != "" && (err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator))) {
				return "", fmt.Errorf("module %s resolves to %s, outside the repository", module, cand)
			}
			return cand, nil
		}
	}
	if top, _, _ := strings.Cut(rel, "."); module == rel && pyStdlib[top] {
		return "", fmt.Errorf("%s is CPython's standard library: of it only the calls docs/translator.md lists are translated", module)
	}
	return "", fmt.Errorf("module %s is not found beside %s", module, t.path())
}

// pyStdlib are the standard library's modules UDFs import most, which no
// repository file defines: a name from them is not a module of the
// repository that udfx failed to find.
var pyStdlib = map[string]bool{
	"datetime": true, "math": true, "re": true, "json": true, "os": true, "sys": true, "time": true,
	"string": true, "decimal": true, "collections": true, "itertools": true, "functools": true,
	"hashlib": true, "uuid": true, "urllib": true, "typing": true, "calendar": true, "random": true,
	"unicodedata": true, "base64": true, "zoneinfo": true, "statistics": true, "operator": true,
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

// path is the file t translates from.
func (t *tr) path() string {
	if t.file != "" {
		return t.file
	}
	return t.u.Path()
}

// top is the translation's own tr, which owns the parsed modules.
func (t *tr) top() *tr {
	for t.parent != nil {
		t = t.parent
	}
	return t
}

// closeModules frees the parsed modules' trees.
func (t *tr) closeModules() {
	for _, m := range t.modules {
		m.tree.Close()
	}
}

// adopt takes what a translation in module m concluded: its declines
// become one decline at n, in t's file, naming where m declined.
func (t *tr) adopt(n *sitter.Node, m *tr, what string, b *binding) *binding {
	if len(m.declines) > 0 {
		d := m.declines[0]
		t.decline(n, what, fmt.Sprintf("in %s at line %d: %s: %s", filepath.Base(m.path()), d.Span.Start.Line, d.Construct, d.Reason))
		m.declines = nil
		return nil
	}
	if m.pythonUnicode != "" {
		t.pythonUnicode = m.pythonUnicode
	}
	return b
}

// importedConstant is the value of name where a from-import binds it
// (pyImported); imported is false where none does.
func (t *tr) importedConstant(n *sitter.Node, name string) (b *binding, imported bool) {
	m, orig, err := t.pyImported(name)
	if err != nil {
		t.decline(n, "name "+name, err.Error())
		return nil, true
	}
	if m == nil {
		return nil, false
	}
	m.constDepth = t.constDepth + 1
	return t.adopt(n, m, "name "+name, m.constantNamed(nil, orig)), true
}

// importedDef is the module-level def that name, imported, calls: its
// module's tr and node; nil (declined where an import binds the name
// to something else) otherwise.
func (t *tr) importedDef(n *sitter.Node, name string) (*tr, *sitter.Node, bool) {
	m, orig, err := t.pyImported(name)
	if err != nil {
		t.decline(n, "call of "+name, err.Error())
		return nil, nil, true
	}
	if m == nil {
		return nil, nil, false
	}
	if def := m.onlyDefinition(orig, "function_definition"); def != nil && def.Parent() != nil && def.Parent().Kind() == "module" {
		return m, def, true
	}
	if m2, def, ok := m.importedDef(nil, orig); ok {
		if def == nil {
			t.adopt(n, m, "call of "+name, nil)
		}
		return m2, def, true
	}
	t.decline(n, "call of "+name, "imported from "+filepath.Base(m.path())+", where it is not a function defined once at module level")
	return nil, nil, true
}

// pyModuleBound tells whether the file binds local to module and to
// nothing else: `import numpy as np` (or `import numpy` for numpy).
func (t *tr) pyModuleBound(local, module string) bool {
	defs, others := t.nameDefs(local)
	if len(defs) > 0 || len(others) == 0 {
		return false
	}
	for _, st := range others {
		if st.Kind() != "import_statement" {
			return false
		}
		bound := false
		for i := uint(0); i < st.NamedChildCount(); i++ {
			c := st.NamedChild(i)
			switch c.Kind() {
			case "aliased_import":
				a := c.ChildByFieldName("alias")
				if a != nil && t.text(a) == local {
					if t.text(c.ChildByFieldName("name")) != module {
						return false
					}
					bound = true
				}
			case "dotted_name":
				if t.text(c) == local && local == module {
					bound = true
				}
			}
		}
		if !bound {
			return false
		}
	}
	return true
}
