package python

import (
	"fmt"
	"slices"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/udf/internal/tsutil"
)

// The job's dataflow: the Spark type of a column a UDF call is applied to,
// traced from the call back through the DataFrame it is applied to, the
// variables and function parameters that hold it and the methods that
// made it (withColumn, select, join ...), to where its schema is written
// (spark.read.schema, createDataFrame, spark.range ...). Every step is
// exact or gives up: a variable bound more than once in a branch or a
// loop, a function called from somewhere udfx cannot see, a method it
// does not model, a value it cannot read all end the trace with no type,
// and typeinfer falls back to its other sources.

// column is one column of a traced DataFrame.
type column struct {
	name string
	// typ is nil when the column exists but its type is not known.
	typ *udf.Type
	// from says where the type comes from, for reports.
	from string
}

// frame is what the trace knows of a DataFrame's columns.
type frame struct {
	cols []column
	// complete is true when cols are all its columns, in order.
	complete bool
	// rest, when not nil, is the type of every column not in cols (a CSV
	// read without a schema or inference: all strings), and from its
	// source.
	rest     *udf.Type
	restFrom string
}

// lookup finds a column by name as Spark resolves it (case-insensitive);
// two columns of that name are ambiguous and give none.
func (f *frame) lookup(name string) (column, bool) {
	var out column
	n := 0
	for _, c := range f.cols {
		if strings.EqualFold(c.name, name) {
			out = c
			n++
		}
	}
	if n == 1 {
		return out, true
	}
	if n == 0 && f.rest != nil {
		return column{name: name, typ: f.rest, from: f.restFrom}, true
	}
	return column{}, false
}

// with is f with column c added, or replacing the one of its name.
func (f *frame) with(c column) *frame {
	out := &frame{complete: f.complete, rest: f.rest, restFrom: f.restFrom}
	replaced := false
	for _, o := range f.cols {
		if strings.EqualFold(o.name, c.name) {
			if !replaced {
				out.cols = append(out.cols, c)
			}
			replaced = true
			continue
		}
		out.cols = append(out.cols, o)
	}
	if !replaced {
		out.cols = append(out.cols, c)
	}
	return out
}

// mergeFrames is what every one of fs says: a column keeps its type only
// when all agree on it. nil when any is nil.
func mergeFrames(fs []*frame) *frame {
	if len(fs) == 0 {
		return nil
	}
	for _, f := range fs {
		if f == nil {
			return nil
		}
	}
	out := &frame{complete: true, rest: fs[0].rest, restFrom: fs[0].restFrom}
	for _, f := range fs[1:] {
		if !f.complete || len(f.cols) != len(fs[0].cols) {
			out.complete = false
		}
		if f.rest == nil || out.rest == nil || !f.rest.Equal(out.rest) {
			out.rest = nil
		}
	}
	out.complete = out.complete && fs[0].complete
	for _, c := range fs[0].cols {
		for _, f := range fs[1:] {
			o, ok := f.lookup(c.name)
			if !ok || o.typ == nil || c.typ == nil || !o.typ.Equal(c.typ) {
				c.typ = nil
			}
		}
		out.cols = append(out.cols, c)
	}
	return out
}

// flowBudget bounds the steps of one trace: a chain of assignments and
// calls in real code is tens of steps; a file built to loop the trace
// ends it here.
const flowBudget = 4000

// flow is one trace.
type flow struct {
	sc    *scan
	steps int
	// through are the functions whose calls in the file the trace took
	// as all their calls (udf.FlowType.Through).
	through []string
}

// env binds the parameters of a function to the arguments of one call
// of it, for tracing that call's return value.
type env struct {
	def  *sitter.Node
	args map[string]binding
}

// binding is a value and the env to read it in.
type binding struct {
	value *sitter.Node
	env   *env
}

func (fl *flow) spend() bool {
	fl.steps++
	return fl.steps <= flowBudget
}

func (fl *flow) line(n *sitter.Node) int { return fl.sc.src.Pos(n.StartByte()).Line }

// flowTypes are the types the dataflow gives the arguments of a UDF call;
// nil when it gives none.
func (sc *scan) flowTypes(call *sitter.Node) []udf.FlowType {
	fl := &flow{sc: sc}
	var base *frame
	if recv := fl.receiverOf(call); recv != nil {
		base = fl.frameOf(recv, nil)
	}
	a := sc.argsOf(call)
	if len(a.kw) > 0 {
		return nil
	}
	out := make([]udf.FlowType, len(a.pos))
	any := false
	for i, arg := range a.pos {
		c, ok := fl.columnOf(arg, base, nil, true)
		if !ok || c.typ == nil {
			continue
		}
		out[i] = udf.FlowType{Type: c.typ, From: fmt.Sprintf("%s: %s %s", c.from, c.name, c.typ), Through: fl.through}
		any = true
	}
	if !any {
		return nil
	}
	return out
}

// frameMethods are the DataFrame methods whose arguments are columns of
// the DataFrame they are called on.
var frameMethods = map[string]bool{
	"select": true, "withColumn": true, "withColumns": true, "filter": true, "where": true, "agg": true,
	"groupBy": true, "groupby": true, "orderBy": true, "sort": true, "sortWithinPartitions": true,
	"repartition": true, "repartitionByRange": true,
}

// receiverOf is the DataFrame expression a UDF call is applied to: the
// object of the first DataFrame method whose arguments hold the call,
// through the column expressions around it; nil when there is none.
func (fl *flow) receiverOf(call *sitter.Node) *sitter.Node {
	n := call
	for {
		p := n.Parent()
		if p == nil {
			return nil
		}
		switch kindOf(p) {
		case "argument_list":
			c := p.Parent()
			if c == nil {
				return nil
			}
			if fn := field(c, "function"); fn != nil && kindOf(fn) == "attribute" && frameMethods[fl.sc.text(field(fn, "attribute"))] {
				return field(fn, "object")
			}
			n = c
		case "keyword_argument", "binary_operator", "unary_operator", "boolean_operator", "comparison_operator",
			"not_operator", "parenthesized_expression", "list", "tuple", "pair", "dictionary", "conditional_expression":
			n = p
		case "attribute":
			if !sameNode(field(p, "object"), n) {
				return nil
			}
			n = p
		case "call":
			if !sameNode(field(p, "function"), n) {
				return nil
			}
			n = p
		default:
			return nil
		}
	}
}

// frameOf traces the DataFrame an expression evaluates to; nil when the
// trace cannot say.
func (fl *flow) frameOf(n *sitter.Node, e *env) *frame {
	if n == nil || !fl.spend() {
		return nil
	}
	switch kindOf(n) {
	case "parenthesized_expression":
		if n.NamedChildCount() == 1 {
			return fl.frameOf(n.NamedChild(0), e)
		}
	case "identifier":
		bs, ok := fl.bindings(n, e)
		if !ok {
			return nil
		}
		fs := make([]*frame, len(bs))
		for i, b := range bs {
			fs[i] = fl.frameOf(b.value, b.env)
		}
		return mergeFrames(fs)
	case "call":
		return fl.callFrame(n, e)
	}
	return nil
}

// passThrough are the DataFrame methods that keep its columns and types
// (groupBy's columns are those agg's arguments see).
var passThrough = map[string]bool{
	"filter": true, "where": true, "limit": true, "distinct": true, "dropDuplicates": true, "drop_duplicates": true,
	"orderBy": true, "sort": true, "sortWithinPartitions": true, "repartition": true, "repartitionByRange": true,
	"coalesce": true, "cache": true, "persist": true, "unpersist": true, "alias": true, "hint": true,
	"sample": true, "checkpoint": true, "localCheckpoint": true, "dropna": true, "fillna": true,
	"withWatermark": true, "groupBy": true, "groupby": true,
}

func (fl *flow) callFrame(call *sitter.Node, e *env) *frame {
	fn := field(call, "function")
	if fn == nil || hasSplat(call) {
		return nil
	}
	if kindOf(fn) == "identifier" {
		return fl.returnFrame(call, fl.sc.text(fn), nil, e)
	}
	if kindOf(fn) != "attribute" {
		return nil
	}
	if f, ok := fl.readerFrame(call, e); ok {
		return f
	}
	obj := field(fn, "object")
	method := fl.sc.text(field(fn, "attribute"))
	a := fl.sc.argsOf(call)
	switch {
	case passThrough[method]:
		return fl.frameOf(obj, e)
	case method == "withColumn":
		base := fl.frameOf(obj, e)
		name, ok := fl.stringOf(a.arg("colName", 0), e, 0)
		if base == nil || !ok {
			return nil
		}
		c, ok := fl.columnOf(a.arg("col", 1), base, e, false)
		if !ok {
			c = column{}
		}
		c.name = name
		return base.with(c)
	case method == "withColumnRenamed":
		return fl.renamed(obj, a, e)
	case method == "drop":
		return fl.dropped(obj, a, e)
	case method == "select":
		return fl.selected(obj, a, e)
	case method == "toDF":
		return fl.renamedAll(obj, a, e)
	case method == "join":
		return fl.joined(obj, a, e)
	case method == "transform":
		// df.transform(f, *args) is f(df, *args).
		if len(a.pos) >= 1 && len(a.kw) == 0 && kindOf(a.pos[0]) == "identifier" {
			args := append([]*sitter.Node{obj}, a.pos[1:]...)
			return fl.returnFrame(nil, fl.sc.text(a.pos[0]), args, e)
		}
	case method == "range":
		// SparkSession.range; SparkContext.range makes an RDD.
		if d, ok := fl.sc.dotted(obj); !ok || d == "sc" || strings.HasSuffix(d, "sparkContext") {
			return nil
		}
		return &frame{complete: true, cols: []column{{name: "id", typ: udf.Prim(udf.Long), from: fmt.Sprintf("spark.range at line %d", fl.line(call))}}}
	case method == "createDataFrame":
		return fl.createdFrame(call, a, e)
	}
	return nil
}

// renamed is withColumnRenamed(existing, new).
func (fl *flow) renamed(obj *sitter.Node, a callArgs, e *env) *frame {
	base := fl.frameOf(obj, e)
	from, ok1 := fl.stringOf(a.arg("existing", 0), e, 0)
	to, ok2 := fl.stringOf(a.arg("new", 1), e, 0)
	if base == nil || !ok1 || !ok2 {
		return nil
	}
	out := &frame{complete: base.complete, rest: base.rest, restFrom: base.restFrom}
	found := false
	for _, c := range base.cols {
		if strings.EqualFold(c.name, from) {
			c.name, found = to, true
		}
		out.cols = append(out.cols, c)
	}
	if !found && (!base.complete || base.rest != nil) {
		// The column may exist unseen: its new name has no known type.
		return out.with(column{name: to})
	}
	return out
}

// dropped is drop(name, ...).
func (fl *flow) dropped(obj *sitter.Node, a callArgs, e *env) *frame {
	base := fl.frameOf(obj, e)
	if base == nil || len(a.kw) > 0 {
		return nil
	}
	out := base
	for _, arg := range a.pos {
		name, ok := fl.stringOf(arg, e, 0)
		if !ok {
			return nil
		}
		next := &frame{complete: out.complete, rest: out.rest, restFrom: out.restFrom}
		for _, c := range out.cols {
			if !strings.EqualFold(c.name, name) {
				next.cols = append(next.cols, c)
			}
		}
		out = next
	}
	return out
}

// selected is select(col, ...): the columns it names, with their types.
func (fl *flow) selected(obj *sitter.Node, a callArgs, e *env) *frame {
	base := fl.frameOf(obj, e)
	if base == nil || len(a.kw) > 0 {
		return nil
	}
	args := a.pos
	if len(args) == 1 && (kindOf(args[0]) == "list" || kindOf(args[0]) == "tuple") {
		args = namedChildren(args[0])
	}
	out := &frame{complete: true}
	for _, arg := range args {
		if s, ok := fl.sc.stringValue(arg, false); ok && s == "*" {
			out.cols = append(out.cols, base.cols...)
			out.complete = out.complete && base.complete
			out.rest, out.restFrom = base.rest, base.restFrom
			continue
		}
		c, ok := fl.columnOf(arg, base, e, true)
		if !ok || c.name == "" {
			// An expression Spark names itself ("upper(a)"): no name
			// the trace looks up, but the frame is no longer whole.
			out.complete = false
			continue
		}
		out.cols = append(out.cols, c)
	}
	return out
}

// renamedAll is toDF(name, ...) over a DataFrame whose columns are all
// known.
func (fl *flow) renamedAll(obj *sitter.Node, a callArgs, e *env) *frame {
	base := fl.frameOf(obj, e)
	if base == nil || !base.complete || base.rest != nil || len(a.kw) > 0 || len(a.pos) != len(base.cols) {
		return nil
	}
	out := &frame{complete: true}
	for i, arg := range a.pos {
		name, ok := fl.stringOf(arg, e, 0)
		if !ok {
			return nil
		}
		c := base.cols[i]
		c.name = name
		out.cols = append(out.cols, c)
	}
	return out
}

// joined is join(other, on, how) of two DataFrames whose columns are all
// known: a column of one side only keeps its type, a using-join key both
// sides type alike keeps it, any other name on both sides is ambiguous.
func (fl *flow) joined(obj *sitter.Node, a callArgs, e *env) *frame {
	left, right := fl.frameOf(obj, e), fl.frameOf(a.arg("other", 0), e)
	how := "inner"
	if h := a.arg("how", 2); h != nil {
		s, ok := fl.stringOf(h, e, 0)
		if !ok {
			return nil
		}
		how = strings.ToLower(strings.ReplaceAll(s, "_", ""))
	}
	if left == nil {
		return nil
	}
	switch how {
	case "semi", "leftsemi", "anti", "leftanti":
		return left
	}
	if right == nil || !left.complete || !right.complete || left.rest != nil || right.rest != nil {
		return nil
	}
	keys := map[string]bool{}
	if on := a.arg("on", 1); on != nil {
		items := []*sitter.Node{on}
		if kindOf(on) == "list" || kindOf(on) == "tuple" {
			items = namedChildren(on)
		}
		for _, it := range items {
			if s, ok := fl.stringOf(it, e, 0); ok {
				keys[strings.ToLower(s)] = true
			}
		}
	}
	out := &frame{complete: true}
	for _, c := range left.cols {
		if keys[strings.ToLower(c.name)] {
			if r, ok := right.lookup(c.name); !ok || r.typ == nil || c.typ == nil || !r.typ.Equal(c.typ) {
				c.typ = nil
			}
		}
		out.cols = append(out.cols, c)
	}
	for _, c := range right.cols {
		if !keys[strings.ToLower(c.name)] {
			out.cols = append(out.cols, c)
		}
	}
	return out
}

// returnFrame traces what a function of the module returns when called
// with args (call's arguments when call is not nil).
func (fl *flow) returnFrame(call *sitter.Node, name string, args []*sitter.Node, e *env) *frame {
	rs, ok := fl.returns(call, name, args, e)
	if !ok {
		return nil
	}
	fs := make([]*frame, len(rs))
	for i, r := range rs {
		fs[i] = fl.frameOf(r.value, r.env)
	}
	return mergeFrames(fs)
}

// returns are what the module function name returns when called with
// call's arguments (or args, when call is nil): each return statement's
// value, read with the parameters bound to the arguments. false when the
// function is not one the trace reads (not a module-level def, a bare
// return, a generator).
func (fl *flow) returns(call *sitter.Node, name string, args []*sitter.Node, e *env) ([]binding, bool) {
	def := fl.moduleDef(name)
	if def == nil {
		return nil, false
	}
	ce := &env{def: def, args: map[string]binding{}}
	var kw map[string]*sitter.Node
	if call != nil {
		a := fl.sc.argsOf(call)
		args, kw = a.pos, a.kw
	}
	params, ok := fl.params(def)
	if !ok {
		return nil, false
	}
	for i, p := range params {
		switch {
		case kw[p] != nil:
			ce.args[p] = binding{value: kw[p], env: e}
		case i < len(args):
			ce.args[p] = binding{value: args[i], env: e}
		}
	}
	var rs []binding
	ok = true
	walkScope(field(def, "body"), func(n *sitter.Node) {
		switch kindOf(n) {
		case "return_statement":
			if n.NamedChildCount() != 1 {
				ok = false
				return
			}
			rs = append(rs, binding{value: n.NamedChild(0), env: ce})
		case "yield":
			ok = false
		}
	})
	return rs, ok && len(rs) > 0
}

// moduleDef is the module-level function name names, when the module
// binds the name to nothing else.
func (fl *flow) moduleDef(name string) *sitter.Node {
	def := fl.sc.defs[name]
	if def == nil || fl.sc.defDepth[name] != 0 || fl.sc.classes[name] {
		return nil
	}
	if _, assigned := fl.sc.moduleValues[name]; assigned {
		return nil
	}
	if _, imported := fl.sc.imports[name]; imported {
		return nil
	}
	if p := def.Parent(); p == nil || (kindOf(p) != "module" && kindOf(p) != "decorated_definition") {
		return nil
	}
	return def
}

// params are a function's parameter names in order; false when it has
// *args, **kwargs or a form the trace does not bind.
func (fl *flow) params(def *sitter.Node) ([]string, bool) {
	var out []string
	for _, p := range namedChildren(field(def, "parameters")) {
		switch kindOf(p) {
		case "identifier":
			out = append(out, fl.sc.text(p))
		case "typed_parameter":
			if p.NamedChildCount() == 0 || kindOf(p.NamedChild(0)) != "identifier" {
				return nil, false
			}
			out = append(out, fl.sc.text(p.NamedChild(0)))
		case "default_parameter", "typed_default_parameter":
			out = append(out, fl.sc.text(field(p, "name")))
		case "comment":
		default:
			return nil, false
		}
	}
	return out, true
}

// hasSplat is true for a call with *args or **kwargs: which argument is
// which is then unknown.
func hasSplat(call *sitter.Node) bool {
	for _, a := range namedChildren(field(call, "arguments")) {
		if k := kindOf(a); k == "list_splat" || k == "dictionary_splat" {
			return true
		}
	}
	return false
}

// namedChildren are n's named children less its comments, which the
// grammar puts among a list's elements and a call's arguments.
func namedChildren(n *sitter.Node) []*sitter.Node {
	if n == nil {
		return nil
	}
	return slices.DeleteFunc(tsutil.NamedChildren(n), func(c *sitter.Node) bool { return kindOf(c) == "comment" })
}

// scopeBoundary are the nodes that open a scope of their own.
var scopeBoundary = map[string]bool{
	"function_definition": true, "class_definition": true, "lambda": true, "list_comprehension": true,
	"set_comprehension": true, "dictionary_comprehension": true, "generator_expression": true,
}

// walkScope calls fn on every node under n that belongs to n's scope.
func walkScope(n *sitter.Node, fn func(*sitter.Node)) {
	if n == nil {
		return
	}
	for _, c := range namedChildren(n) {
		fn(c)
		if !scopeBoundary[kindOf(c)] {
			walkScope(c, fn)
		}
	}
}
