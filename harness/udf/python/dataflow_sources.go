package python

import (
	"fmt"
	"slices"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/udfx/udfx/harness/udf"
)

// Where a traced DataFrame's columns come from: the readers, the schemas
// and the rows written in the source, and the names that hold them.

// bindings are the values the identifier id can hold where it is read:
// the last assignment before it in its scope, the arguments of every call
// of the function whose parameter it is, or the module's one assignment
// of a global. false when the trace cannot say (a binding in a branch or
// a loop, a name bound by a for, with, import or del, a closure's name).
func (fl *flow) bindings(id *sitter.Node, e *env) ([]binding, bool) {
	name := fl.sc.text(id)
	def, block, deferred, ok := fl.scopeOf(id, name)
	if !ok {
		return nil, false
	}
	assigns, ok := fl.assignments(block, name)
	if !ok {
		return nil, false
	}
	stmt := statementIn(block, id)
	if stmt == nil {
		return nil, false
	}
	var last *sitter.Node
	for _, as := range assigns {
		if as.StartByte() < stmt.StartByte() {
			last = as
		} else if deferred {
			// A lambda reads the name when it is called, which may be
			// after this later assignment.
			return nil, false
		}
	}
	if last != nil {
		return []binding{{value: field(last, "right"), env: e}}, true
	}
	if def == nil || len(assigns) > 0 {
		// Read before the module binds it, or before the function's own
		// assignment makes it a local: no value.
		return nil, false
	}
	params, ok := fl.params(def)
	for i, p := range params {
		if p != name {
			continue
		}
		if e != nil && sameNode(e.def, def) {
			b, ok := e.args[name]
			return []binding{b}, ok
		}
		bs, ok := fl.callerBindings(def, name, i)
		if ok {
			fl.through = appendName(fl.through, fl.sc.text(field(def, "name")))
		}
		return bs, ok
	}
	if !ok || !isModuleLevel(def) {
		return nil, false
	}
	// A global the function reads: the module binds it once.
	global, ok := fl.assignments(fl.sc.src.Root(), name)
	if !ok || len(global) != 1 {
		return nil, false
	}
	return []binding{{value: field(global[0], "right")}}, true
}

func appendName(names []string, name string) []string {
	for _, n := range names {
		if n == name {
			return names
		}
	}
	return append(names, name)
}

// scopeOf is the function whose scope the identifier id is read in (nil
// for the module), the block of that scope, and whether a lambda or a
// generator around it defers the read; false when a lambda or a
// comprehension around it binds name, or it is read in a class body.
func (fl *flow) scopeOf(id *sitter.Node, name string) (def, block *sitter.Node, deferred, ok bool) {
	for n := id.Parent(); n != nil; n = n.Parent() {
		switch kindOf(n) {
		case "function_definition":
			return n, field(n, "body"), deferred, true
		case "class_definition":
			return nil, nil, false, false
		case "module":
			return nil, n, deferred, true
		case "lambda", "list_comprehension", "set_comprehension", "dictionary_comprehension", "generator_expression":
			if bindsIdent(n, name, fl.sc) {
				return nil, nil, false, false
			}
			deferred = deferred || kindOf(n) == "lambda" || kindOf(n) == "generator_expression"
		}
	}
	return nil, nil, false, false
}

// bindsIdent is true when a lambda's parameters or a comprehension's for
// clauses name name.
func bindsIdent(n *sitter.Node, name string, sc *scan) bool {
	var where []*sitter.Node
	if kindOf(n) == "lambda" {
		where = append(where, field(n, "parameters"))
	} else {
		for _, c := range namedChildren(n) {
			if kindOf(c) == "for_in_clause" {
				where = append(where, field(c, "left"))
			}
		}
	}
	for _, w := range where {
		if hasIdent(w, name, sc) {
			return true
		}
	}
	return false
}

func hasIdent(n *sitter.Node, name string, sc *scan) bool {
	if n == nil {
		return false
	}
	if kindOf(n) == "identifier" {
		return sc.text(n) == name
	}
	for _, c := range namedChildren(n) {
		if hasIdent(c, name, sc) {
			return true
		}
	}
	return false
}

// isModuleLevel is true for a def at the top of the module (decorated or
// not): its free names are the module's globals.
func isModuleLevel(def *sitter.Node) bool {
	p := def.Parent()
	if p != nil && kindOf(p) == "decorated_definition" {
		p = p.Parent()
	}
	return p != nil && kindOf(p) == "module"
}

// assignments are the `name = value` statements at the top of block that
// bind name, in order; false when anything else in the scope binds it (a
// nested or conditional assignment, a for or with target, an import, a
// def, global or del).
func (fl *flow) assignments(block *sitter.Node, name string) ([]*sitter.Node, bool) {
	var out []*sitter.Node
	ok := true
	walkScope(block, func(n *sitter.Node) {
		if !ok {
			return
		}
		switch kindOf(n) {
		case "assignment":
			left := field(n, "left")
			if left != nil && kindOf(left) == "identifier" && fl.sc.text(left) == name {
				p := n.Parent()
				if p == nil || kindOf(p) != "expression_statement" || !sameNode(p.Parent(), block) || field(n, "right") == nil {
					ok = false
					return
				}
				out = append(out, n)
			} else if hasIdent(left, name, fl.sc) && (left == nil || kindOf(left) != "attribute" && kindOf(left) != "subscript") {
				ok = false
			}
		case "augmented_assignment", "for_statement", "named_expression", "global_statement", "nonlocal_statement",
			"import_statement", "import_from_statement", "delete_statement", "as_pattern":
			target := n
			if f := field(n, "left"); f != nil && kindOf(n) != "import_from_statement" {
				target = f
			}
			if kindOf(n) == "as_pattern" {
				target = field(n, "alias")
			}
			if hasIdent(target, name, fl.sc) {
				ok = false
			}
		case "function_definition", "class_definition":
			if fl.sc.text(field(n, "name")) == name {
				ok = false
			}
		}
	})
	return out, ok
}

// statementIn is the statement at the top of block that holds n.
func statementIn(block, n *sitter.Node) *sitter.Node {
	for ; n != nil; n = n.Parent() {
		if p := n.Parent(); p != nil && sameNode(p, block) {
			return n
		}
	}
	return nil
}

// callerBindings are the arguments every use of the module's function def
// passes to its parameter name (at position i): its calls, and
// df.transform(f); false when the function is used any other way, or a
// call does not pass the parameter.
func (fl *flow) callerBindings(def *sitter.Node, name string, i int) ([]binding, bool) {
	fname := fl.sc.text(field(def, "name"))
	if !isModuleLevel(def) || fl.moduleDef(fname) == nil {
		return nil, false
	}
	var out []binding
	for _, r := range fl.identsNamed(fname) {
		if sameNode(r, field(def, "name")) {
			continue
		}
		p := r.Parent()
		if p != nil && kindOf(p) == "call" && sameNode(field(p, "function"), r) {
			a := fl.sc.argsOf(p)
			switch {
			case a.kw[name] != nil:
				out = append(out, binding{value: a.kw[name]})
			case i < len(a.pos):
				out = append(out, binding{value: a.pos[i]})
			default:
				return nil, false
			}
			continue
		}
		if p != nil && kindOf(p) == "argument_list" {
			if c := p.Parent(); c != nil && kindOf(c) == "call" {
				fn := field(c, "function")
				a := fl.sc.argsOf(c)
				if fn != nil && kindOf(fn) == "attribute" && fl.sc.text(field(fn, "attribute")) == "transform" &&
					len(a.pos) > 0 && sameNode(a.pos[0], r) && len(a.kw) == 0 {
					switch {
					case i == 0:
						out = append(out, binding{value: field(fn, "object")})
					case i < len(a.pos):
						out = append(out, binding{value: a.pos[i]})
					default:
						return nil, false
					}
					continue
				}
			}
		}
		return nil, false
	}
	return out, len(out) > 0
}

// identsNamed are the file's identifiers spelled name (indexed once per
// file).
func (fl *flow) identsNamed(name string) []*sitter.Node {
	sc := fl.sc
	if sc.idents == nil {
		sc.idents = map[string][]*sitter.Node{}
		var walk func(n *sitter.Node)
		walk = func(n *sitter.Node) {
			if kindOf(n) == "identifier" {
				t := sc.text(n)
				sc.idents[t] = append(sc.idents[t], n)
				return
			}
			for _, c := range namedChildren(n) {
				walk(c)
			}
		}
		walk(sc.src.Root())
	}
	return sc.idents[name]
}

// columnOf reads a column expression against base, the DataFrame it is
// applied to: a column by name (col("a"), df["a"], df.a, and with
// allowName the plain string a UDF accepts), a .cast, an .alias. false
// when expr is not one of them; a column of unknown type has a nil typ.
func (fl *flow) columnOf(expr *sitter.Node, base *frame, e *env, allowName bool) (column, bool) {
	if expr == nil || !fl.spend() {
		return column{}, false
	}
	lookup := func(f *frame, name string) (column, bool) {
		if f == nil || name == "" || strings.ContainsAny(name, ".`*") {
			return column{}, false
		}
		return f.lookup(name)
	}
	switch kindOf(expr) {
	case "string", "concatenated_string":
		if s, ok := fl.sc.stringValue(expr, false); ok && allowName {
			return lookup(base, s)
		}
	case "parenthesized_expression":
		if expr.NamedChildCount() == 1 {
			return fl.columnOf(expr.NamedChild(0), base, e, allowName)
		}
	case "identifier":
		if bs, ok := fl.bindings(expr, e); ok && len(bs) == 1 {
			return fl.columnOf(bs[0].value, base, bs[0].env, allowName)
		}
	case "subscript":
		if s, ok := fl.stringOf(field(expr, "subscript"), e, 0); ok {
			return lookup(fl.frameOf(field(expr, "value"), e), s)
		}
	case "attribute":
		return lookup(fl.frameOf(field(expr, "object"), e), fl.sc.text(field(expr, "attribute")))
	case "call":
		return fl.columnCall(expr, base, e)
	}
	return column{}, false
}

func (fl *flow) columnCall(call *sitter.Node, base *frame, e *env) (column, bool) {
	fn := field(call, "function")
	a := fl.sc.argsOf(call)
	if fn != nil && kindOf(fn) == "attribute" {
		obj, method := field(fn, "object"), fl.sc.text(field(fn, "attribute"))
		switch method {
		case "cast", "astype":
			t := fl.typeArg(a.arg("dataType", 0), e)
			if t == nil {
				return column{}, false
			}
			// Spark's analyzer names the cast of a named column after it
			// (select(col("a").cast("int")) has a column a); the cast of
			// anything else is named by Spark, which the trace does not
			// look up.
			name, _ := fl.columnName(obj, e)
			return column{name: name, typ: t, from: fmt.Sprintf(".%s at line %d", method, fl.line(call))}, true
		case "alias", "name":
			name, ok := fl.stringOf(a.arg("alias", 0), e, 0)
			if !ok || len(a.pos) != 1 {
				return column{}, false
			}
			c, ok := fl.columnOf(obj, base, e, false)
			if !ok {
				c = column{}
			}
			c.name = name
			return c, true
		}
	}
	if t, from := fl.sc.udfResult(fn); t != nil {
		// A UDF's result: the type its registration declares.
		return column{typ: t, from: from}, true
	}
	if fl.isColFunc(fn) && len(a.pos) == 1 && len(a.kw) == 0 && base != nil {
		if s, ok := fl.stringOf(a.pos[0], e, 0); ok && !strings.ContainsAny(s, ".`*") {
			return base.lookup(s)
		}
	}
	return column{}, false
}

// columnName is the name of a column reference as Spark's analyzer names
// it: col("a"), df["a"], df.a, x.alias("a"); false for any other
// expression (Spark names those itself).
func (fl *flow) columnName(expr *sitter.Node, e *env) (string, bool) {
	if expr == nil || !fl.spend() {
		return "", false
	}
	switch kindOf(expr) {
	case "parenthesized_expression":
		if expr.NamedChildCount() == 1 {
			return fl.columnName(expr.NamedChild(0), e)
		}
	case "identifier":
		if bs, ok := fl.bindings(expr, e); ok && len(bs) == 1 {
			return fl.columnName(bs[0].value, bs[0].env)
		}
	case "subscript":
		return fl.stringOf(field(expr, "subscript"), e, 0)
	case "attribute":
		return fl.sc.text(field(expr, "attribute")), true
	case "call":
		fn := field(expr, "function")
		a := fl.sc.argsOf(expr)
		if fn != nil && kindOf(fn) == "attribute" {
			switch fl.sc.text(field(fn, "attribute")) {
			case "alias", "name":
				if len(a.pos) == 1 {
					return fl.stringOf(a.pos[0], e, 0)
				}
			}
			return "", false
		}
		if fl.isColFunc(fn) && len(a.pos) == 1 && len(a.kw) == 0 {
			return fl.stringOf(a.pos[0], e, 0)
		}
	}
	return "", false
}

// isColFunc is true for PySpark's col and column.
func (fl *flow) isColFunc(fn *sitter.Node) bool {
	d, ok := fl.sc.dotted(fn)
	if !ok {
		return false
	}
	switch fl.sc.resolve(d) {
	case "pyspark.sql.functions.col", "pyspark.sql.functions.column":
		return true
	}
	if d != "col" && d != "column" {
		return false
	}
	// Bound by a wildcard import of pyspark.sql.functions, not by the file.
	_, assigned := fl.sc.moduleValues[d]
	_, imported := fl.sc.imports[d]
	return fl.sc.defs[d] == nil && !assigned && !imported
}

// typeArg reads a type given to .cast or a schema: a DDL string or a
// PySpark type object.
func (fl *flow) typeArg(n *sitter.Node, e *env) *udf.Type {
	if n == nil {
		return nil
	}
	if s, ok := fl.stringOf(n, e, 0); ok {
		t, err := udf.ParseType(s)
		if err != nil {
			return nil
		}
		return t
	}
	switch kindOf(n) {
	case "call", "attribute":
		if t := fl.structType(n, e); t != nil {
			return t
		}

		t, err := udf.ParseType(fl.sc.text(n))
		if err != nil {
			return nil
		}
		return t
	case "identifier":
		if bs, ok := fl.bindings(n, e); ok && len(bs) == 1 {
			return fl.typeArg(bs[0].value, bs[0].env)
		}
	}
	return nil
}

// structType reads StructType([StructField(name, type, ...), ...]) field
// by field, the list written in place or held by a name; nil for any
// other expression.
func (fl *flow) structType(n *sitter.Node, e *env) *udf.Type {
	d, ok := fl.sc.dotted(field(n, "function"))
	if kindOf(n) != "call" || !ok || !strings.HasSuffix("."+d, ".StructType") {
		return nil
	}
	a := fl.sc.argsOf(n)
	list, le := a.arg("fields", 0), e
	if list != nil && kindOf(list) == "identifier" {
		bs, ok := fl.bindings(list, e)
		if !ok || len(bs) != 1 {
			return nil
		}
		list, le = bs[0].value, bs[0].env
	}
	if list == nil || kindOf(list) != "list" || len(a.pos) != 1 {
		return nil
	}
	out := &udf.Type{Kind: udf.Struct, Fields: []udf.StructField{}}
	for _, f := range namedChildren(list) {
		fd, ok := fl.sc.dotted(field(f, "function"))
		if kindOf(f) != "call" || !ok || !strings.HasSuffix("."+fd, ".StructField") || hasSplat(f) {
			return nil
		}
		fa := fl.sc.argsOf(f)
		name, ok := fl.stringOf(fa.arg("name", 0), le, 0)
		t := fl.typeArg(fa.arg("dataType", 1), le)
		if !ok || t == nil {
			return nil
		}
		out.Fields = append(out.Fields, udf.StructField{Name: name, Type: t})
	}
	return out
}

// stringOf is the value of a string expression: literals, implicit and +
// concatenation, and names bound to them.
func (fl *flow) stringOf(n *sitter.Node, e *env, depth int) (string, bool) {
	if n == nil || depth > 16 {
		return "", false
	}
	switch kindOf(n) {
	case "string", "concatenated_string":
		return fl.sc.stringValue(n, false)
	case "parenthesized_expression":
		if n.NamedChildCount() == 1 {
			return fl.stringOf(n.NamedChild(0), e, depth+1)
		}
	case "binary_operator":
		if op := field(n, "operator"); op != nil && fl.sc.text(op) == "+" {
			l, ok1 := fl.stringOf(field(n, "left"), e, depth+1)
			r, ok2 := fl.stringOf(field(n, "right"), e, depth+1)
			return l + r, ok1 && ok2
		}
	case "identifier":
		if bs, ok := fl.bindings(n, e); ok && len(bs) == 1 {
			return fl.stringOf(bs[0].value, bs[0].env, depth+1)
		}
	}
	return "", false
}

// schemaFrame is the DataFrame a schema argument declares: a DDL string
// (with or without struct<...>) or a StructType.
func (fl *flow) schemaFrame(n *sitter.Node, e *env, how string, line int) *frame {
	if n == nil || !fl.spend() {
		return nil
	}
	if fn := field(n, "function"); kindOf(n) == "call" && kindOf(fn) == "identifier" && !hasSplat(n) {
		// A schema a function builds (def event_schema(): return
		// StructType([...]) or a DDL string): what every return gives.
		if rs, ok := fl.returns(n, fl.sc.text(fn), nil, e); ok {
			fs := make([]*frame, len(rs))
			for i, r := range rs {
				fs[i] = fl.schemaFrame(r.value, r.env, how, line)
			}
			return mergeFrames(fs)
		}
	}
	var t *udf.Type
	if s, ok := fl.stringOf(n, e, 0); ok {
		t, _ = udf.ParseType(s)
		if t == nil || t.Kind != udf.Struct {
			t, _ = udf.ParseType("struct<" + s + ">")
		}
	} else {
		t = fl.typeArg(n, e)
	}
	if t == nil || t.Kind != udf.Struct {
		return nil
	}
	out := &frame{complete: true}
	for _, f := range t.Fields {
		out.cols = append(out.cols, column{name: f.Name, typ: f.Type, from: fmt.Sprintf("%s at line %d", how, line)})
	}
	return out
}

// loaders are the DataFrameReader methods that make a DataFrame.
var loaders = map[string]bool{"csv": true, "json": true, "parquet": true, "orc": true, "load": true, "text": true, "table": true, "avro": true}

// readerFrame reads spark.read[.format(...)][.option(...)][.schema(S)].LOADER(...):
// the schema's columns; a text file's value string; a CSV read without a
// schema or inferSchema has only string columns. The second result is
// false when call is not a reader chain.
func (fl *flow) readerFrame(call *sitter.Node, e *env) (*frame, bool) {
	fn := field(call, "function")
	method := fl.sc.text(field(fn, "attribute"))
	if !loaders[method] {
		return nil, false
	}
	a := fl.sc.argsOf(call)
	// The loaders' own schema parameter: csv(path, schema, ...),
	// json(path, schema, ...), load(path, format, schema, ...).
	schema, schemaAt := a.kw["schema"], call
	switch method {
	case "csv", "json":
		schema = a.arg("schema", 1)
	case "load":
		schema = a.arg("schema", 2)
	}
	infer, unknownOpts := false, strings.Contains(fl.sc.text(field(call, "arguments")), "**")
	readOption := func(k string, v *sitter.Node) {
		if !strings.EqualFold(k, "inferSchema") {
			return
		}
		if v != nil && (kindOf(v) == "false" || fl.sc.text(v) == `"false"` || fl.sc.text(v) == `'false'`) {
			return
		}
		infer = true
	}
	for k, v := range a.kw {
		readOption(k, v)
	}
	// The last format set wins: load's own, then the outermost .format.
	format, formatSet := method, false
	if method == "load" {
		if f := a.arg("format", 1); f != nil {
			formatSet = true
			s, ok := fl.stringOf(f, e, 0)
			format = strings.ToLower(s)
			if !ok {
				format = ""
			}
		}
	}
	cur := field(fn, "object")
	for steps := 0; ; steps++ {
		if cur == nil || steps > 32 {
			return nil, false
		}
		if kindOf(cur) == "attribute" {
			if at := fl.sc.text(field(cur, "attribute")); at == "read" || at == "readStream" {
				break
			}
			return nil, false
		}
		if kindOf(cur) != "call" {
			return nil, false
		}
		cfn := field(cur, "function")
		if cfn == nil || kindOf(cfn) != "attribute" {
			return nil, false
		}
		ca := fl.sc.argsOf(cur)
		switch fl.sc.text(field(cfn, "attribute")) {
		case "schema":
			if schema == nil {
				schema, schemaAt = ca.arg("schema", 0), cur
			}
		case "option":
			if k, ok := fl.stringOf(ca.arg("key", 0), e, 0); ok {
				readOption(k, ca.arg("value", 1))
			} else {
				unknownOpts = true
			}
		case "options":
			if strings.Contains(fl.sc.text(field(cur, "arguments")), "**") || len(ca.pos) > 0 {
				unknownOpts = true
			}
			for k, v := range ca.kw {
				readOption(k, v)
			}
		case "format":
			if method == "load" && !formatSet {
				formatSet = true
				if f, ok := fl.stringOf(ca.arg("source", 0), e, 0); ok {
					format = strings.ToLower(f)
				} else {
					format = ""
				}
			}
		default:
			return nil, false
		}
		cur = field(cfn, "object")
	}
	if format == "com.databricks.spark.csv" || format == "org.apache.spark.sql.csv" {
		// The spark-csv package's names, which Spark maps to its own
		// CSV source.
		format = "csv"
	}
	line := fl.line(call)
	if schema != nil {
		return fl.schemaFrame(schema, e, "spark.read.schema", fl.line(schemaAt)), true
	}
	switch {
	case format == "text" && method != "table":
		return &frame{complete: true, cols: []column{{name: "value", typ: udf.Prim(udf.String), from: fmt.Sprintf("spark.read.text at line %d", line)}}}, true
	case format == "csv" && !infer && !unknownOpts:
		return &frame{rest: udf.Prim(udf.String), restFrom: fmt.Sprintf("spark.read.csv at line %d, without a schema or inferSchema", line)}, true
	}
	// A DataFrame whose columns the file does not show (Parquet, a
	// table): none is known, but a select or withColumn that casts one
	// gives it its type.
	return &frame{}, true
}

// createdFrame reads createDataFrame(data, schema): the schema's columns,
// or the names it lists with the types Spark infers from literal rows.
func (fl *flow) createdFrame(call *sitter.Node, a callArgs, e *env) *frame {
	line := fl.line(call)
	var names []string
	if schema := a.arg("schema", 1); schema != nil {
		if kindOf(schema) != "list" && kindOf(schema) != "tuple" {
			return fl.schemaFrame(schema, e, "createDataFrame", line)
		}
		for _, n := range namedChildren(schema) {
			s, ok := fl.stringOf(n, e, 0)
			if !ok {
				return nil
			}
			names = append(names, s)
		}
	}
	rows, rowNames := fl.literalRows(a.arg("data", 0), e)
	if len(rows) == 0 {
		return nil
	}
	switch {
	case names == nil && rowNames != nil:
		names = rowNames
	case names == nil:
		for i := range rows[0] {
			names = append(names, fmt.Sprintf("_%d", i+1))
		}
	}
	for _, r := range rows {
		if len(r) != len(names) {
			return nil
		}
	}
	out := &frame{complete: true}
	for i, name := range names {
		c := column{name: name, from: fmt.Sprintf("createDataFrame at line %d, the type Spark infers from its rows", line)}
		var t *udf.Type
		known := true
		for _, r := range rows {
			lt, null, ok := literalType(r[i], fl.sc)
			if !ok || (!null && t != nil && !t.Equal(lt)) {
				known = false
				break
			}
			if !null {
				t = lt
			}
		}
		if known {
			c.typ = t
		}
		out.cols = append(out.cols, c)
	}
	return out
}

// literalRows are the cells of a list of tuple, list or Row(k=v) literals,
// and the names of the Rows' fields.
func (fl *flow) literalRows(n *sitter.Node, e *env) ([][]*sitter.Node, []string) {
	if n != nil && kindOf(n) == "identifier" {
		if bs, ok := fl.bindings(n, e); ok && len(bs) == 1 {
			return fl.literalRows(bs[0].value, bs[0].env)
		}
		return nil, nil
	}
	if n == nil || kindOf(n) != "list" {
		return nil, nil
	}
	var rows [][]*sitter.Node
	var names []string
	for i, r := range namedChildren(n) {
		switch kindOf(r) {
		case "tuple", "list", "parenthesized_expression":
			if kindOf(r) == "parenthesized_expression" {
				// (1) is one value, not a one-field row.
				return nil, nil
			}
			rows = append(rows, namedChildren(r))
		case "call":
			d, ok := fl.sc.dotted(field(r, "function"))
			if !ok || (fl.sc.resolve(d) != "pyspark.sql.Row" && fl.sc.resolve(d) != "pyspark.sql.types.Row") {
				return nil, nil
			}
			var cells []*sitter.Node
			var keys []string
			for _, kv := range namedChildren(field(r, "arguments")) {
				if kindOf(kv) != "keyword_argument" {
					return nil, nil
				}
				keys = append(keys, fl.sc.text(field(kv, "name")))
				cells = append(cells, field(kv, "value"))
			}
			if i > 0 && strings.Join(keys, ",") != strings.Join(names, ",") {
				return nil, nil
			}
			names = keys
			rows = append(rows, cells)
		default:
			return nil, nil
		}
	}
	if names != nil && len(rows) > 0 && len(rows[0]) != len(names) {
		return nil, nil
	}
	return rows, names
}

// literalType is the Spark type createDataFrame infers for a literal:
// bool boolean, int bigint, float double, str string; null for None.
// false for any other value.
func literalType(n *sitter.Node, sc *scan) (t *udf.Type, null, ok bool) {
	if n == nil {
		return nil, false, false
	}
	switch kindOf(n) {
	case "none":
		return nil, true, true
	case "true", "false":
		return udf.Prim(udf.Boolean), false, true
	case "unary_operator":
		if a := field(n, "argument"); a != nil && (kindOf(a) == "integer" || kindOf(a) == "float") {
			return literalType(a, sc)
		}
	case "integer":
		s := strings.ReplaceAll(sc.text(n), "_", "")
		if len(s) > 18 || strings.ContainsAny(s, "jJlL") {
			return nil, false, false
		}
		return udf.Prim(udf.Long), false, true
	case "float":
		if strings.ContainsAny(sc.text(n), "jJ") {
			return nil, false, false
		}
		return udf.Prim(udf.Double), false, true
	case "string", "concatenated_string":
		if strings.ContainsAny(strings.ToLower(prefixOf(sc.text(n))), "bf") {
			return nil, false, false
		}
		if _, ok := sc.stringValue(n, false); ok {
			return udf.Prim(udf.String), false, true
		}
	}
	return nil, false, false
}

// prefixOf is a string literal's prefix (b, r, f, u ...).
func prefixOf(s string) string {
	i := strings.IndexAny(s, `"'`)
	if i < 0 {
		return ""
	}
	return s[:i]
}

// udfResult is the Spark type of what calling fn gives when fn is a UDF of
// the file (its name, or udf(f, T) written in place) whose registration
// declares its return type, and where; nil otherwise.
func (sc *scan) udfResult(fn *sitter.Node) (*udf.Type, string) {
	var hits []*found
	switch kindOf(fn) {
	case "identifier":
		name := sc.text(fn)
		for _, f := range sc.found {
			if slices.Contains(f.callables, name) {
				hits = append(hits, f)
			}
		}
	case "call":
		if f := sc.byCreator[fn.Id()]; f != nil {
			hits = append(hits, f)
		}
	}
	if len(hits) != 1 {
		return nil, ""
	}
	u := hits[0].u
	columnwise := u.Kind == udf.KindPythonUDF || u.Kind == udf.KindLambda || u.Kind == udf.KindPandasUDF && u.PandasFlavor == udf.PandasSeriesToSeries
	if u.Return == nil || !columnwise {
		return nil, ""
	}
	return u.Return, fmt.Sprintf("the result of the UDF %s (line %d)", u.Name, u.Span.Start.Line)
}
