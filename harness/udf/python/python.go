// Package python finds the UDFs of PySpark source: @udf and @pandas_udf
// defs, udf(...)/pandas_udf(...) calls, spark.udf.register(...) and the
// functions passed to RDD transformations.
package python

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"

	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/udf/internal/tsutil"
)

// language is built once: every Frontend's parser shares it.
var language = sitter.NewLanguage(tspython.Language())

// Frontend is the PySpark front-end. It holds one parser, so it must not
// be shared between goroutines.
type Frontend struct {
	parser *tsutil.Parser
}

// New returns a front-end; Close frees its parser.
func New() *Frontend {
	return &Frontend{parser: tsutil.NewParser(language)}
}

// Language reports udf.Python.
func (f *Frontend) Language() udf.Language { return udf.Python }

// Close frees the parser's native memory. The Frontend is unusable after.
func (f *Frontend) Close() {
	f.parser.Close()
}

// Parse returns the UDFs defined in src.
func (f *Frontend) Parse(path string, src []byte) ([]udf.UDF, error) {
	s, err := f.parser.Parse(path, src)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	sc := newScan(s)
	sc.index(s.Root(), 0)
	sc.findDecorated()
	sc.findWrapCalls()
	sc.findRegisterCalls()
	sc.findFactories()
	sc.findRDD()
	sc.findPipelines()
	sc.findUseSites()
	sc.dropUnpassedDefaults()

	out := make([]udf.UDF, 0, len(sc.found))
	for _, c := range sc.found {
		c.u.Blockers = sc.blockers(c)
		c.u.Finish()
		out = append(out, c.u)
	}
	udf.SortUDFs(out)
	return out, nil
}

// wrapper is what a callee resolves to among PySpark's UDF factories.
type wrapper int

const (
	notWrapper wrapper = iota
	wrapUDF
	wrapPandasUDF
)

// found is a UDF being assembled, with what the later phases need to
// finish it.
type found struct {
	// arities are the numbers of arguments its calls pass (-1: a call
	// whose count cannot be read, with *args or keywords).
	arities []int
	u       udf.UDF
	// callables are the variable names DataFrame code calls the UDF by.
	callables []string
	// body is the function_definition or lambda analysed for blockers;
	// nil when the function is defined outside the file.
	body *sitter.Node
	// external is the name as written of a function from elsewhere, and
	// externalNode where it is written.
	external     string
	externalNode *sitter.Node
	// autoName is true while Name is the <lambda@L:C> placeholder, so a
	// registered name found later can replace it.
	autoName bool
	// creator is the call that made the UDF (udf(...) or register(...)),
	// used to find it again from an enclosing register call.
	creator *sitter.Node
	// extra are blockers found outside the body (asNondeterministic()).
	extra []udf.Blocker
}

// scan holds one file's index and the UDFs found so far.
type scan struct {
	src *tsutil.Source
	// imports maps a local name to the dotted name it is bound to.
	imports map[string]string
	// defs maps a def name to its function_definition; module-level defs
	// win over nested ones of the same name.
	defs map[string]*sitter.Node
	// defDepth is the nesting depth of the def recorded in defs.
	defDepth map[string]int
	classes  map[string]bool
	// moduleValues maps a name assigned at module level to its value, or
	// nil when it is assigned more than once.
	moduleValues map[string]*sitter.Node

	decorated []*sitter.Node
	calls     []*sitter.Node
	// assigns are the assignments inside functions and lambdas.
	assigns []*sitter.Node
	strings []*sitter.Node

	found []*found
	// byCallable finds the first UDF in found that a variable name calls,
	// for the first indexed entries of found (see existingUDF).
	byCallable map[string]*found
	posOf      map[*found]int
	indexed    int
	// byCreator finds a UDF from the id of the call that made it.
	byCreator map[uintptr]*found
	// handled are calls already consumed as definitions or registrations;
	// their identifier arguments are not references.
	handled map[uintptr]bool
	// idents are the file's identifiers by name, for the dataflow trace;
	// built on its first need.
	idents map[string][]*sitter.Node
}

func newScan(s *tsutil.Source) *scan {
	return &scan{
		src:          s,
		imports:      map[string]string{},
		defs:         map[string]*sitter.Node{},
		defDepth:     map[string]int{},
		classes:      map[string]bool{},
		moduleValues: map[string]*sitter.Node{},
		byCreator:    map[uintptr]*found{},
		handled:      map[uintptr]bool{},
	}
}

// index walks the whole tree once, recording imports, defs, module-level
// assignments and the calls, decorated definitions and string literals the
// later phases look at. depth counts enclosing functions, classes and
// lambdas.
func (sc *scan) index(n *sitter.Node, depth int) {
	if n == nil {
		return
	}
	childDepth := depth
	switch kindOf(n) {
	case "import_statement":
		sc.addImport(n)
	case "import_from_statement":
		sc.addFromImport(n)
	case "function_definition":
		if name := sc.text(field(n, "name")); name != "" {
			if d, ok := sc.defDepth[name]; !ok || depth < d {
				sc.defs[name] = n
				sc.defDepth[name] = depth
			}
		}
		childDepth++
	case "class_definition":
		if name := sc.text(field(n, "name")); name != "" {
			sc.classes[name] = true
		}
		childDepth++
	case "lambda":
		childDepth++
	case "assignment":
		if depth == 0 {
			sc.addModuleAssignment(n)
		} else {
			sc.assigns = append(sc.assigns, n)
		}
	case "decorated_definition":
		sc.decorated = append(sc.decorated, n)
	case "call":
		sc.calls = append(sc.calls, n)
	case "string":
		sc.strings = append(sc.strings, n)
		// Calls inside f-string interpolations are rare in Spark code and
		// a nested string would double-count an SQL use.
		return
	}
	for i, count := uint(0), n.NamedChildCount(); i < count; i++ {
		sc.index(n.NamedChild(i), childDepth)
	}
}

func (sc *scan) addModuleAssignment(n *sitter.Node) {
	left := field(n, "left")
	if left == nil || kindOf(left) != "identifier" {
		return
	}
	name := sc.text(left)
	if _, seen := sc.moduleValues[name]; seen {
		sc.moduleValues[name] = nil
		return
	}
	sc.moduleValues[name] = field(n, "right")
}

// addImport records `import a.b.c` (binds a) and `import a.b as c`.
func (sc *scan) addImport(n *sitter.Node) {
	for i, count := uint(0), n.ChildCount(); i < count; i++ {
		if n.FieldNameForChild(uint32(i)) != "name" {
			continue
		}
		c := n.Child(i)
		switch kindOf(c) {
		case "dotted_name":
			full := sc.text(c)
			root, _, _ := strings.Cut(full, ".")
			sc.imports[root] = root
		case "aliased_import":
			if alias := sc.text(field(c, "alias")); alias != "" {
				sc.imports[alias] = sc.text(field(c, "name"))
			}
		}
	}
}

// pysparkStarNames are the names a wildcard import of PySpark's functions
// module binds that this front-end cares about.
var pysparkStarNames = map[string][]string{
	"pyspark.sql.functions":        {"udf", "pandas_udf", "PandasUDFType"},
	"pyspark.sql.pandas.functions": {"pandas_udf", "PandasUDFType"},
}

func (sc *scan) addFromImport(n *sitter.Node) {
	module := sc.text(field(n, "module_name"))
	for i, count := uint(0), n.ChildCount(); i < count; i++ {
		c := n.Child(i)
		if kindOf(c) == "wildcard_import" {
			for _, name := range pysparkStarNames[module] {
				if _, bound := sc.imports[name]; !bound {
					sc.imports[name] = module + "." + name
				}
			}
			continue
		}
		if n.FieldNameForChild(uint32(i)) != "name" {
			continue
		}
		switch kindOf(c) {
		case "dotted_name":
			name := sc.text(c)
			sc.imports[name] = module + "." + name
		case "aliased_import":
			if alias := sc.text(field(c, "alias")); alias != "" {
				sc.imports[alias] = module + "." + sc.text(field(c, "name"))
			}
		}
	}
}

func (sc *scan) text(n *sitter.Node) string { return sc.src.Text(n) }

// dotted returns the dotted name an identifier or attribute chain spells,
// and false for any other expression.
func (sc *scan) dotted(n *sitter.Node) (string, bool) {
	if n == nil {
		return "", false
	}
	switch kindOf(n) {
	case "identifier":
		return sc.text(n), true
	case "attribute":
		obj, ok := sc.dotted(field(n, "object"))
		attr := field(n, "attribute")
		if !ok || attr == nil {
			return "", false
		}
		return obj + "." + sc.text(attr), true
	}
	return "", false
}

// resolve rewrites the first segment of a dotted name through the imports:
// with `import numpy as np`, "np.random.rand" → "numpy.random.rand".
func (sc *scan) resolve(dotted string) string {
	root, rest, hasRest := strings.Cut(dotted, ".")
	full, ok := sc.imports[root]
	if !ok {
		return dotted
	}
	if hasRest {
		return full + "." + rest
	}
	return full
}

// isImported is true when the first segment of a dotted name is bound by
// an import.
func (sc *scan) isImported(dotted string) bool {
	root, _, _ := strings.Cut(dotted, ".")
	_, ok := sc.imports[root]
	return ok
}

func (sc *scan) wrapperOf(fn *sitter.Node) wrapper {
	d, ok := sc.dotted(fn)
	if !ok {
		return notWrapper
	}
	switch sc.resolve(d) {
	case "pyspark.sql.functions.udf", "pyspark.sql.udf.udf",
		// The class udf() makes, called directly as older code does.
		"pyspark.sql.udf.UserDefinedFunction", "pyspark.sql.functions.UserDefinedFunction":
		return wrapUDF
	case "pyspark.sql.functions.pandas_udf", "pyspark.sql.pandas.functions.pandas_udf":
		return wrapPandasUDF
	}
	return notWrapper
}

// callArgs splits a call's arguments into positional ones and keywords.
type callArgs struct {
	pos []*sitter.Node
	kw  map[string]*sitter.Node
}

func (sc *scan) argsOf(call *sitter.Node) callArgs {
	var a callArgs
	list := field(call, "arguments")
	if list == nil {
		return a
	}
	if kindOf(list) != "argument_list" { // f(x for x in xs)
		a.pos = append(a.pos, list)
		return a
	}
	for i, count := uint(0), list.NamedChildCount(); i < count; i++ {
		c := list.NamedChild(i)
		switch kindOf(c) {
		case "keyword_argument":
			if name := sc.text(field(c, "name")); name != "" {
				if a.kw == nil {
					a.kw = map[string]*sitter.Node{}
				}
				a.kw[name] = field(c, "value")
			}
		case "comment":
		case "list_splat", "dictionary_splat":
			// Positions after a splat are unknown; stop counting.
			return a
		default:
			a.pos = append(a.pos, c)
		}
	}
	return a
}

// arg returns the keyword argument name, else the positional one at i.
func (a callArgs) arg(name string, i int) *sitter.Node {
	if v, ok := a.kw[name]; ok {
		return v
	}
	if i >= 0 && i < len(a.pos) {
		return a.pos[i]
	}
	return nil
}

// stringValue returns the content of a string literal (or of implicitly
// concatenated literals) without interpolations. With followNames an
// identifier assigned once at module level to a literal is followed.
func (sc *scan) stringValue(n *sitter.Node, followNames bool) (string, bool) {
	if n == nil {
		return "", false
	}
	switch kindOf(n) {
	case "identifier":
		if !followNames {
			return "", false
		}
		if v := sc.moduleValues[sc.text(n)]; v != nil {
			return sc.stringValue(v, false)
		}
	case "concatenated_string":
		var b strings.Builder
		for i, count := uint(0), n.NamedChildCount(); i < count; i++ {
			s, ok := sc.stringValue(n.NamedChild(i), false)
			if !ok {
				return "", false
			}
			b.WriteString(s)
		}
		return b.String(), true
	case "string":
		var b strings.Builder
		for i, count := uint(0), n.NamedChildCount(); i < count; i++ {
			c := n.NamedChild(i)
			switch kindOf(c) {
			case "string_content":
				b.WriteString(sc.text(c))
			case "interpolation":
				return "", false
			}
		}
		return b.String(), true
	}
	return "", false
}

// kindNames maps a node kind id to its name. Node.Kind copies the name
// out of C on every call, and the scan asks for the kind of every node.
var kindNames = func() []string {
	n := language.NodeKindCount()
	out := make([]string, n)
	for i := uint32(0); i < n; i++ {
		out[i] = language.NodeKindForId(uint16(i))
	}
	return out
}()

func kindOf(n *sitter.Node) string {
	if id := int(n.KindId()); id < len(kindNames) {
		return kindNames[id]
	}
	return n.Kind() // ERROR and other builtin symbols outside the table
}

// fieldIDs caches field ids by name: Node.ChildByFieldName copies its
// argument into C memory on every call.
var fieldIDs = map[string]uint16{}

func init() {
	for i := uint32(1); i <= language.FieldCount(); i++ {
		fieldIDs[language.FieldNameForId(uint16(i))] = uint16(i)
	}
}

// field returns n's child in the named field, or nil.
func field(n *sitter.Node, name string) *sitter.Node {
	if n == nil {
		return nil
	}
	id, ok := fieldIDs[name]
	if !ok {
		return nil
	}
	return n.ChildByFieldId(id)
}

// siteKinds are the grammar's nodes an inlined use site is.
var siteKinds = tsutil.SiteKinds{udf.UseCall: {"call"}, udf.UseSQL: {"string", "concatenated_string"}}

// Occurrences implements udf.SiteLocator.
func (f *Frontend) Occurrences(path string, src []byte, text string, kind udf.UseKind) (all, code []int, err error) {
	return f.parser.SiteOccurrences(path, src, text, kind, siteKinds)
}

// dropUnpassedDefaults leaves out of each UDF's parameters the trailing
// ones with a default that no call passes: Spark calls the function with
// the call's arguments only, and the rest take their defaults. With no
// call in the file, every defaulted parameter is left out (the common
// shape: a setting with a default, never a column); a call whose
// argument count cannot be read, a registration (SQL may pass any count)
// or a reference handed on leaves the parameters as they are.
func (sc *scan) dropUnpassedDefaults() {
	for _, f := range sc.found {
		ps := f.u.Params
		required := len(ps)
		for required > 0 && ps[required-1].Default != "" {
			required--
		}
		if required == len(ps) || f.u.Kind == udf.KindRDDLambda || f.u.Kind == udf.KindRDDPipeline {
			continue
		}
		// A registered UDF may be called from SQL anywhere, and a
		// reference handed on may be called with any count: only the
		// file's own DataFrame calls are counted.
		opaque := len(f.u.RegisteredNames) > 0
		for _, s := range f.u.UseSites {
			opaque = opaque || s.Kind != udf.UseCall
		}
		if opaque {
			continue
		}
		keep := required
		for _, n := range f.arities {
			if n < 0 {
				keep = len(ps)
				break
			}
			keep = max(keep, n)
		}
		if keep < len(ps) {
			f.u.Params = ps[:keep]
		}
	}
}
