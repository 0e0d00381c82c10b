// Package scala finds Spark UDFs in Scala source: classes and objects
// extending Function1..22 or UDF1..22, lambdas and methods wrapped by
// udf(...), and functions registered with spark.udf.register(...).
package scala

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tsscala "github.com/tree-sitter/tree-sitter-scala/bindings/go"

	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/udf/internal/tsutil"
)

var language = sitter.NewLanguage(tsscala.Language())

// Frontend is the Scala front-end. It holds one parser and is not safe for
// concurrent use.
type Frontend struct {
	parser *tsutil.Parser
}

// New returns a Scala front-end; Close frees its parser.
func New() *Frontend {
	return &Frontend{parser: tsutil.NewParser(language)}
}

// Language is udf.Scala.
func (f *Frontend) Language() udf.Language { return udf.Scala }

// Close frees the parser's native memory.
func (f *Frontend) Close() {
	f.parser.Close()
}

// Parse returns the UDFs defined in src.
func (f *Frontend) Parse(path string, src []byte) ([]udf.UDF, error) {
	if err := checkLineLengths(path, src); err != nil {
		return nil, err
	}
	s, err := f.parser.Parse(path, src)
	if err != nil {
		// $"col" is a syntax error to the grammar; the same file with
		// s"col" in its place, which the grammar reads, has the same
		// offsets (ColumnSyntax).
		fixed := ColumnSyntax(src)
		if fixed == nil {
			return nil, err
		}
		var ferr error
		if s, ferr = f.parser.Parse(path, fixed); ferr != nil {
			return nil, err
		}
		// Text is read from the file as written: a use site's text is
		// what a patch finds there.
		s.Src = src
	}
	defer s.Close()
	if !mayHoldUDF(src) {
		return nil, nil
	}
	fl := newFile(s, buildTree(s.Root(), src))
	fl.index()
	fl.findTemplates()
	fl.findWrappers()
	fl.findRegistrations()
	fl.findUses()
	return fl.result(), nil
}

// maxLineWork bounds the sum over a file's lines of the square of their
// length. tree-sitter's lexer finds a token's column by walking back to
// the start of its line, and the Scala grammar asks for the column at
// most tokens, so a line costs time quadratic in its length: one line of
// 100 KiB (minified or generated code, a deeply nested expression) took
// half a minute, 800 KiB hours. The bound is one line of 32 KiB, or a
// 4 MiB file of 256-byte lines: a few seconds.
const maxLineWork = 1 << 30

// checkLineLengths refuses, as a *udf.ParseError at its longest line, a
// file whose lines would take the parser too long (maxLineWork).
func checkLineLengths(path string, src []byte) error {
	var work, longest, at int
	for line, rest := 1, src; len(rest) > 0; line++ {
		n := bytes.IndexByte(rest, '\n')
		if n < 0 {
			n = len(rest)
		}
		work += n * n
		if n > longest {
			longest, at = n, line
		}
		rest = rest[min(n+1, len(rest)):]
	}
	if work <= maxLineWork {
		return nil
	}
	return &udf.ParseError{File: path, Pos: udf.Position{Line: at, Column: 1}, Message: fmt.Sprintf(
		"line %d is %d bytes long: the Scala parser takes time that grows with the square of a line's length, so udfx does not parse files with lines this long (minified or generated code?)", at, longest)}
}

// mayHoldUDF is false for source that cannot define a UDF: no udf(...) or
// .udf.register, no FunctionN/UDFN and no extends (A => B). Most files of
// a project are like that, and skipping the tree copy for them is most of
// what a scan saves.
func mayHoldUDF(src []byte) bool {
	return bytes.Contains(src, []byte("udf")) || bytes.Contains(src, []byte("UDF")) ||
		bytes.Contains(src, []byte("Function")) || keywordBeforeParen(src, "extends") || keywordBeforeParen(src, "with")
}

// keywordBeforeParen reports whether src has kw followed, after optional
// white space, by "(": the start of a function type in extends (A => B).
func keywordBeforeParen(src []byte, kw string) bool {
	for rest := src; ; {
		i := bytes.Index(rest, []byte(kw))
		if i < 0 {
			return false
		}
		rest = rest[i+len(kw):]
		j := 0
		for j < len(rest) && (rest[j] == ' ' || rest[j] == '\t' || rest[j] == '\n' || rest[j] == '\r') {
			j++
		}
		if j < len(rest) && rest[j] == '(' {
			return true
		}
	}
}

// file is the state of one Parse.
type file struct {
	src *tsutil.Source
	t   *tree

	defs         map[string]int  // def name → its first function_definition
	templates    map[string]int  // class/object/trait name → its definition
	vars         map[string]bool // names of every var in the file
	fieldVals    map[string]int  // val defined in a class or object body → its value
	lambdaVals   map[string]int  // val f = (x: T) => ... → the lambda
	calls        []int           // call_expressions in document order
	literals     []int           // string literals, plain and interpolated
	argIdents    []int           // identifiers passed as arguments
	instances    []int           // new X {...} with a body (anonymous classes)
	udfs         []*entry        // in the order found
	byTemplate   map[string]*entry
	byDef        map[string]*entry
	byVal        map[string]*entry // val or def holding a udf(...) value
	byFactory    map[string]*entry // def whose calls make a UDF → its UDF
	factoryOwner map[string]string // such a def → the path of its object
	bindings     map[string]int    // name → how many times the file binds it (boundOnce)
	byCall       map[int]*entry    // udf(...) call node → its UDF
	byLambda     map[int]*entry    // lambda held by a val → its UDF
	byNode       map[int]*entry    // anonymous class instance → its UDF
	registerArgs map[int]bool      // argument nodes consumed by register(...)
}

// entry is a UDF being built, with what the use-site pass needs.
type entry struct {
	u udf.UDF
	// named is false while the name is a <lambda@...> placeholder that a
	// register(...) call may replace with its SQL name.
	named bool
}

func newFile(s *tsutil.Source, t *tree) *file {
	return &file{
		src: s, t: t,
		defs: map[string]int{}, templates: map[string]int{}, vars: map[string]bool{},
		fieldVals: map[string]int{}, lambdaVals: map[string]int{}, byLambda: map[int]*entry{},
		byTemplate: map[string]*entry{}, byDef: map[string]*entry{}, byVal: map[string]*entry{},
		byFactory: map[string]*entry{}, factoryOwner: map[string]string{}, bindings: map[string]int{},
		byCall: map[int]*entry{}, byNode: map[int]*entry{}, registerArgs: map[int]bool{},
	}
}

// index records, in one pass, the definitions and the nodes the later
// passes look at.
func (f *file) index() {
	t := f.t
	t.walk(0, func(i int) bool {
		switch t.kind(i) {
		case "function_definition":
			if name := t.text(t.child(i, "name")); name != "" {
				if _, ok := f.defs[name]; !ok {
					f.defs[name] = i
				}
			}
		case "class_definition", "object_definition", "trait_definition":
			if name := t.text(t.child(i, "name")); name != "" {
				if _, ok := f.templates[name]; !ok {
					f.templates[name] = i
				}
			}
		case "var_definition", "var_declaration":
			for _, name := range f.patternNames(t.child(i, "pattern")) {
				f.vars[name] = true
			}
		case "class_parameter":
			if t.hasToken(i, "var") {
				f.vars[t.text(t.child(i, "name"))] = true
			}
		case "val_definition":
			if v := t.child(i, "value"); t.kind(v) == "lambda_expression" && t.kind(t.child(i, "pattern")) == "identifier" {
				f.lambdaVals[t.text(t.child(i, "pattern"))] = v
			}
			if k := t.kind(t.parent(i)); k == "template_body" || k == "with_template_body" {
				for _, name := range f.patternNames(t.child(i, "pattern")) {
					if _, ok := f.fieldVals[name]; !ok {
						f.fieldVals[name] = t.child(i, "value")
					}
				}
			}
		case "call_expression":
			f.calls = append(f.calls, i)
		case "string", "interpolated_string_expression":
			f.literals = append(f.literals, i)
			return false
		case "identifier":
			if t.kind(t.parent(i)) == "arguments" {
				f.argIdents = append(f.argIdents, i)
			}
		case "instance_expression":
			if f.instanceBody(i) != none {
				f.instances = append(f.instances, i)
			}
		}
		return true
	})
}

// patternNames lists the names a val/var pattern binds: x, (a, b), Some(x).
func (f *file) patternNames(p int) []string {
	var names []string
	f.t.walk(p, func(i int) bool {
		switch f.t.kind(i) {
		case "identifier":
			names = append(names, f.t.text(i))
		case "type_identifier", "generic_type", "stable_type_identifier":
			return false
		}
		return true
	})
	return names
}

// Function0..22 and UDF0..22, the last path segment of an extended type.
var (
	// scalaIdent is a plain Scala identifier: a registered name a lifted
	// val can take.
	scalaIdent = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	// scala.Function[A, B] is Function1's alias.
	functionN = regexp.MustCompile(`^(?:(?:_root_\.)?scala\.)?Function([0-9]|1[0-9]|2[0-2])?$`)
	udfN      = regexp.MustCompile(`^(?:[A-Za-z_][A-Za-z0-9_]*\.)*UDF([0-9]|1[0-9]|2[0-2])$`)
)

// shape is a UDF class's interface: which kind, the method Spark calls and
// the interface's type arguments (parameters, then the result).
type shape struct {
	kind     udf.Kind
	method   string
	typeArgs []int
	// fnParams and fnResult are the type nodes of a (A, B) => R parent,
	// which has no type_arguments.
	fnParams []int
	fnResult int
}

// shapeOf reads a type node of an extends clause or a new expression.
func (f *file) shapeOf(ty int) (shape, bool) {
	t := f.t
	switch t.kind(ty) {
	case "generic_type":
		base := strings.Join(strings.Fields(t.text(t.child(ty, "type"))), "")
		args := t.kids(t.child(ty, "type_arguments"))
		if functionN.MatchString(base) {
			return shape{kind: udf.KindFunctionClass, method: "apply", typeArgs: args, fnResult: none}, true
		}
		if udfN.MatchString(base) {
			return shape{kind: udf.KindUDFClass, method: "call", typeArgs: args, fnResult: none}, true
		}
	case "tuple_type":
		if ks := t.kids(ty); len(ks) == 1 {
			return f.shapeOf(ks[0])
		}
	case "function_type":
		var params []int
		if pt := t.child(ty, "parameter_types"); pt != none {
			params = t.kids(pt)
		}
		return shape{kind: udf.KindFunctionClass, method: "apply", fnParams: params, fnResult: t.child(ty, "return_type")}, true
	}
	return shape{}, false
}

// paramTypes and resultType read the interface's type arguments.
func (sh shape) paramTypes() []int {
	if sh.fnResult != none || sh.fnParams != nil {
		return sh.fnParams
	}
	if len(sh.typeArgs) == 0 {
		return nil
	}
	return sh.typeArgs[:len(sh.typeArgs)-1]
}

func (sh shape) resultType() int {
	if sh.fnResult != none {
		return sh.fnResult
	}
	if len(sh.typeArgs) == 0 {
		return none
	}
	return sh.typeArgs[len(sh.typeArgs)-1]
}

// findTemplates finds classes and objects extending FunctionN or UDFN.
func (f *file) findTemplates() {
	t := f.t
	for _, def := range sortedValues(f.templates) {
		if t.kind(def) == "trait_definition" {
			continue
		}
		ext := t.child(def, "extend")
		if ext == none {
			continue
		}
		for c := t.nodes[ext].first; c != none; c = t.nodes[c].next {
			if t.fieldOf(int(c)) != "type" {
				continue
			}
			sh, ok := f.shapeOf(int(c))
			if !ok {
				continue
			}
			name := t.text(t.child(def, "name"))
			e := f.classUDF(name, def, t.child(def, "body"), sh)
			f.byTemplate[name] = e
			break
		}
	}
}

// findAnonymous turns new FunctionN[...] {...} / new UDFN[...] {...} into
// UDFs named after the val that holds them, or placeholders a register
// call may rename.
func (f *file) findAnonymous() {
	for _, inst := range f.instances {
		ty := f.instanceType(inst)
		sh, ok := f.shapeOf(ty)
		if !ok {
			continue
		}
		name, named := f.holderName(inst)
		if !named {
			name = f.placeholder("anonymous", inst)
		}
		e := f.classUDF(name, inst, f.instanceBody(inst), sh)
		e.named = named
		f.byNode[inst] = e
		if named {
			f.byVal[name] = e
			e.u.Span = f.span(f.holderNode(inst))
		}
	}
}

func (f *file) instanceType(inst int) int {
	for _, k := range f.t.kids(inst) {
		switch f.t.kind(k) {
		case "generic_type", "type_identifier", "stable_type_identifier", "tuple_type", "function_type", "compound_type":
			return k
		}
	}
	return none
}

func (f *file) instanceBody(inst int) int {
	for _, k := range f.t.kids(inst) {
		if f.t.kind(k) == "template_body" {
			return k
		}
	}
	return none
}

// classUDF builds the UDF of a class, object or anonymous class whose
// body holds the apply/call method.
func (f *file) classUDF(name string, def, body int, sh shape) *entry {
	t := f.t
	e := f.add(udf.UDF{Name: name, Kind: sh.kind, Span: f.span(def), BodySpan: f.span(def)})
	e.named = true
	method := f.method(body, sh.method, len(sh.paramTypes()))
	if method == none {
		// The method comes from a parent; Spark calls it with the
		// interface's types.
		for i, ty := range sh.paramTypes() {
			e.u.Params = append(e.u.Params, f.param(fmt.Sprintf("v%d", i+1), ty))
		}
		e.u.Return, e.u.ReturnPrimitive = f.typeAndPrim(sh.resultType())
		return e
	}
	e.u.BodySpan = f.span(method)
	e.u.Params = f.params(t.child(method, "parameters"), sh.paramTypes())
	if rt := t.child(method, "return_type"); rt != none {
		e.u.Return, e.u.ReturnPrimitive = f.typeAndPrim(rt)
	} else {
		e.u.Return, e.u.ReturnPrimitive = f.typeAndPrim(sh.resultType())
	}
	f.scanBlockers(&e.u, method)
	return e
}

// method finds def name in a template body, preferring the overload with
// arity parameters.
func (f *file) method(body int, name string, arity int) int {
	found := none
	for _, k := range f.t.kids(body) {
		if f.t.kind(k) != "function_definition" || f.t.text(f.t.child(k, "name")) != name {
			continue
		}
		if len(f.t.kids(f.t.child(k, "parameters"))) == arity {
			return k
		}
		if found == none {
			found = k
		}
	}
	return found
}

// params reads a def's first parameter list; fallback holds type nodes
// for parameters written without a type.
func (f *file) params(list int, fallback []int) []udf.Param {
	var out []udf.Param
	for i, p := range f.t.kids(list) {
		if k := f.t.kind(p); k != "parameter" && k != "binding" {
			continue
		}
		ty := f.t.child(p, "type")
		if ty == none && i < len(fallback) {
			ty = fallback[i]
		}
		out = append(out, f.param(f.t.text(f.t.child(p, "name")), ty))
	}
	return out
}

func (f *file) param(name string, ty int) udf.Param {
	p := udf.Param{Name: name}
	if ty == none {
		return p
	}
	p.SourceType = f.typeText(ty)
	if st, prim, ok := udf.JVMType(udf.Scala, p.SourceType); ok {
		p.Type, p.Primitive = st, prim
	}
	return p
}

// typeText is a type as written, on one line.
func (f *file) typeText(ty int) string {
	return strings.Join(strings.Fields(f.t.text(ty)), " ")
}

func (f *file) typeOf(ty int) *udf.Type {
	st, _ := f.typeAndPrim(ty)
	return st
}

// typeAndPrim is typeOf and whether the type is a JVM primitive (Scala
// Double, Boolean, ...).
func (f *file) typeAndPrim(ty int) (*udf.Type, bool) {
	if ty == none {
		return nil, false
	}
	if st, prim, ok := udf.JVMType(udf.Scala, f.typeText(ty)); ok {
		return st, prim
	}
	return nil, false
}

// udfCall tells whether call is udf(...), functions.udf(...) or
// F.udf[...](...) with at least one argument, and returns its type
// arguments and arguments.
func (f *file) udfCall(call int) (typeArgs, args []int, ok bool) {
	t := f.t
	fn := t.child(call, "function")
	if t.kind(fn) == "generic_function" {
		typeArgs = t.kids(t.child(fn, "type_arguments"))
		fn = t.child(fn, "function")
	}
	switch t.kind(fn) {
	case "identifier":
		ok = t.text(fn) == "udf"
	case "field_expression":
		ok = t.text(t.child(fn, "field")) == "udf"
	}
	if !ok {
		return nil, nil, false
	}
	args = f.callArgs(call)
	return typeArgs, args, len(args) > 0
}

// callArgs returns the arguments of a call: f(a, b) or f { a }.
func (f *file) callArgs(call int) []int {
	a := f.t.child(call, "arguments")
	var out []int
	for _, k := range f.t.kids(a) {
		if kk := f.t.kind(k); kk != "comment" && kk != "block_comment" {
			out = append(out, k)
		}
	}
	return out
}

// findWrappers finds udf(...) calls around lambdas, method references and
// class instances.
func (f *file) findWrappers() {
	f.findAnonymous()
	t := f.t
	for _, call := range f.calls {
		typeArgs, args, ok := f.udfCall(call)
		if !ok {
			continue
		}
		var dataType *udf.Type
		if len(args) > 1 {
			if dt, err := udf.ParseType(strings.Join(strings.Fields(t.text(args[1])), "")); err == nil {
				dataType = dt
			}
		}
		name, named := f.holderName(call)
		span := f.span(f.holderNode(call))
		arg := args[0]
		switch {
		case t.kind(arg) == "identifier" && f.lambdaVals[t.text(arg)] != 0:
			// val add = (a: Int, b: Int) => a + b; val addUdf = udf(add)
			e := f.heldLambda(t.text(arg), typeArgs, dataType)
			f.byCall[call] = e
			if named {
				f.byVal[name] = e
			}
		case f.refDef(arg) != "":
			def := f.refDef(arg)
			e := f.byDef[def]
			if e == nil {
				e = f.defUDF(def, span, typeArgs, dataType)
			}
			f.byCall[call] = e
			if named {
				f.byVal[name] = e
			}
		case t.kind(arg) == "lambda_expression" || len(f.placeholders(arg)) > 0:
			// udf((x: String) => ...), and the placeholder forms
			// udf[String, String](_.replaceAll("-", "")), udf(_ + _)
			if !named {
				name = f.placeholder("lambda", arg)
			}
			var e *entry
			if t.kind(arg) == "lambda_expression" {
				e = f.lambdaUDF(name, arg, typeArgs, dataType)
			} else {
				e = f.placeholderUDF(name, arg, typeArgs, dataType)
			}
			e.named = named
			e.u.Span = span
			if named {
				e.u.Lift = f.liftOf(call, f.holderNode(call))
				f.byVal[name] = e
			} else if def := f.factoryDef(call); def != none {
				f.factoryUDF(e, call, def, arg)
			}
			f.byCall[call] = e
		default:
			// udf(new ToFahrenheit(), DoubleType) or udf(SomeObject, ...):
			// a use of a class UDF found elsewhere in the file.
			if e := f.instanceUDF(arg); e != nil {
				e.u.UseSites = append(e.u.UseSites, f.use(udf.UseReference, call))
				f.byCall[call] = e
				if named {
					f.byVal[name] = e
				}
			}
		}
	}
}

// holderName is the val or def whose value is node directly.
func (f *file) holderName(n int) (string, bool) {
	h := f.holderNode(n)
	if h == n {
		return "", false
	}
	t := f.t
	if t.kind(h) == "function_definition" {
		return t.text(t.child(h, "name")), true
	}
	p := t.child(h, "pattern")
	if t.kind(p) != "identifier" {
		return "", false
	}
	return t.text(p), true
}

// holderNode is the val/var/def definition whose value is n, or n itself.
func (f *file) holderNode(n int) int {
	t := f.t
	p := t.parent(n)
	switch t.kind(p) {
	case "val_definition", "var_definition":
		if t.fieldOf(n) == "value" && t.kind(t.child(p, "pattern")) == "identifier" {
			return p
		}
	case "function_definition":
		if t.fieldOf(n) == "body" && t.child(p, "parameters") == none {
			return p
		}
	}
	return n
}

func (f *file) placeholder(what string, n int) string {
	pos := f.src.Pos(uint(f.t.nodes[n].start))
	return fmt.Sprintf("<%s@%d:%d>", what, pos.Line, pos.Column)
}

// refDef returns the name of the def a method reference points to: f _,
// f, f(_), f(_, _), f(_: Int): String; "" when arg is none of these or f
// is not defined in this file.
func (f *file) refDef(arg int) string {
	t := f.t
	name := ""
	if t.kind(arg) == "ascription_expression" {
		// f(_: Int): String, the result type ascribed.
		arg = t.kids(arg)[0]
	}
	switch t.kind(arg) {
	case "identifier":
		name = t.text(arg)
	case "postfix_expression":
		ks := t.kids(arg)
		if len(ks) == 2 && t.kind(ks[0]) == "identifier" && t.text(ks[1]) == "_" {
			name = t.text(ks[0])
		}
	case "call_expression":
		fn := t.child(arg, "function")
		if t.kind(fn) != "identifier" {
			return ""
		}
		args := f.callArgs(arg)
		if len(args) == 0 {
			return ""
		}
		for _, a := range args {
			if w, _ := f.bareWildcard(a); w == none {
				return ""
			}
		}
		name = t.text(fn)
	}
	if _, ok := f.defs[name]; !ok {
		return ""
	}
	return name
}

// placeholderParam is one underscore of a placeholder lambda and the type
// ascribed to it (none when bare).
type placeholderParam struct{ wildcard, ty int }

// placeholders are the underscores a placeholder lambda (_.trim, _ + _,
// (_: String).length) binds, in order; each is the next parameter. An
// underscore inside a nested argument or parenthesis belongs to that
// expression (foo(_.trim) hands foo a lambda of its own) unless it is the
// argument itself (foo(_), foo(_: Int)); blocks and lambdas have their own.
func (f *file) placeholders(arg int) []placeholderParam {
	t := f.t
	if w, _ := f.bareWildcard(arg); w != none {
		return nil
	}
	var out []placeholderParam
	var visit func(n int)
	visit = func(n int) {
		switch t.kind(n) {
		case "wildcard":
			out = append(out, placeholderParam{n, none})
			return
		case "lambda_expression", "block", "indented_block", "case_block", "template_body":
			return
		case "arguments", "parenthesized_expression":
			for _, k := range t.kids(n) {
				if w, ty := f.bareWildcard(k); w != none {
					out = append(out, placeholderParam{w, ty})
				}
			}
			return
		}
		for _, k := range t.kids(n) {
			visit(k)
		}
	}
	visit(arg)
	return out
}

// bareWildcard is n's underscore when n is _ or _: T (and T's node), or
// none.
func (f *file) bareWildcard(n int) (int, int) {
	t := f.t
	switch t.kind(n) {
	case "wildcard":
		return n, none
	case "ascription_expression":
		if ks := t.kids(n); len(ks) == 2 && t.kind(ks[0]) == "wildcard" {
			return ks[0], ks[1]
		}
	}
	return none, none
}

// placeholderUDF builds the UDF of a placeholder lambda: its body is arg
// itself, its parameters _1, _2, ... its underscores in order, typed by
// their ascriptions or udf[R, A1, ...]'s type arguments.
func (f *file) placeholderUDF(name string, arg int, typeArgs []int, dataType *udf.Type) *entry {
	e := f.add(udf.UDF{Name: name, Kind: udf.KindLambda, Span: f.span(arg), BodySpan: f.span(arg),
		Untyped: dataType != nil && len(typeArgs) == 0})
	scope := env{}
	for i, ph := range f.placeholders(arg) {
		ty := ph.ty
		if ty == none && len(typeArgs) > i+1 {
			ty = typeArgs[i+1]
		}
		p := f.param(fmt.Sprintf("_%d", i+1), ty)
		sp := f.span(ph.wildcard)
		p.Placeholder = &sp
		e.u.Params = append(e.u.Params, p)
		scope[wildcardKey(ph.wildcard)] = p.Type
	}
	switch {
	case len(typeArgs) > 0:
		e.u.Return = f.typeOf(typeArgs[0])
	case dataType != nil:
		e.u.Return = dataType
	default:
		e.u.Return = f.infer(arg, scope)
	}
	f.scanBlockers(&e.u, arg)
	return e
}

// instanceUDF is the class UDF that arg, new X(...) or an object X, is an
// instance of.
func (f *file) instanceUDF(arg int) *entry {
	t := f.t
	switch t.kind(arg) {
	case "instance_expression":
		if e := f.byNode[arg]; e != nil {
			return e
		}
		ty := f.instanceType(arg)
		name := t.text(ty)
		if t.kind(ty) == "stable_type_identifier" {
			name = t.text(t.kids(ty)[len(t.kids(ty))-1])
		}
		return f.byTemplate[name]
	case "identifier":
		return f.byTemplate[t.text(arg)]
	}
	return nil
}

// lambdaUDF builds the UDF of a lambda. typeArgs are udf[R, A1, ...]'s;
// dataType the DataType argument of udf(f, dataType).
func (f *file) lambdaUDF(name string, lambda int, typeArgs []int, dataType *udf.Type) *entry {
	t := f.t
	e := f.add(udf.UDF{Name: name, Kind: udf.KindLambda, Span: f.span(lambda), BodySpan: f.span(lambda),
		Untyped: dataType != nil && len(typeArgs) == 0})
	var argTypes []int
	if len(typeArgs) > 1 {
		argTypes = typeArgs[1:]
	}
	ps := t.child(lambda, "parameters")
	switch t.kind(ps) {
	case "bindings":
		e.u.Params = f.params(ps, argTypes)
	case "identifier":
		ty := none
		if len(argTypes) > 0 {
			ty = argTypes[0]
		}
		e.u.Params = []udf.Param{f.param(t.text(ps), ty)}
	}
	switch {
	case len(typeArgs) > 0:
		e.u.Return = f.typeOf(typeArgs[0])
	case dataType != nil:
		e.u.Return = dataType
	default:
		e.u.Return = f.infer(f.lambdaBody(lambda), paramEnv(e.u.Params))
	}
	f.scanBlockers(&e.u, lambda)
	return e
}

// heldLambda is the UDF of the lambda held by val name, made once however
// many udf(...) and register(...) calls wrap it; its span is the val.
func (f *file) heldLambda(name string, typeArgs []int, dataType *udf.Type) *entry {
	lambda := f.lambdaVals[name]
	if e := f.byLambda[lambda]; e != nil {
		return e
	}
	e := f.lambdaUDF(name, lambda, typeArgs, dataType)
	e.named = true
	e.u.Span = f.span(f.holderNode(lambda))
	f.byLambda[lambda] = e
	return e
}

// lambdaBody is the expression after =>.
func (f *file) lambdaBody(lambda int) int {
	body := none
	for _, k := range f.t.kids(lambda) {
		if f.t.fieldOf(k) != "parameters" {
			body = k
		}
	}
	return body
}

// defUDF builds the UDF of a def wrapped by udf(f _) or registered with
// register("name", f _).
func (f *file) defUDF(name string, span udf.Span, typeArgs []int, dataType *udf.Type) *entry {
	t := f.t
	def := f.defs[name]
	e := f.add(udf.UDF{Name: name, Kind: udf.KindFunctionRef, Span: span, BodySpan: f.span(def),
		Untyped: dataType != nil && len(typeArgs) == 0})
	e.named = true
	var argTypes []int
	if len(typeArgs) > 1 {
		argTypes = typeArgs[1:]
	}
	e.u.Params = f.params(t.child(def, "parameters"), argTypes)
	switch {
	case t.child(def, "return_type") != none:
		e.u.Return = f.typeOf(t.child(def, "return_type"))
	case len(typeArgs) > 0:
		e.u.Return = f.typeOf(typeArgs[0])
	case dataType != nil:
		e.u.Return = dataType
	default:
		e.u.Return = f.infer(t.child(def, "body"), paramEnv(e.u.Params))
	}
	f.scanBlockers(&e.u, def)
	f.byDef[name] = e
	return e
}

func (f *file) add(u udf.UDF) *entry {
	u.Language = udf.Scala
	u.File = f.src.Path
	e := &entry{u: u}
	f.udfs = append(f.udfs, e)
	return e
}

// registerCall tells whether call is <expr>.udf.register(...),
// <expr>.udf().register(...) or udf.register(...) with a string name, and
// returns the name and the arguments.
func (f *file) registerCall(call int) (string, []int, bool) {
	t := f.t
	fn := t.child(call, "function")
	if t.kind(fn) == "generic_function" {
		fn = t.child(fn, "function")
	}
	if t.kind(fn) != "field_expression" || t.text(t.child(fn, "field")) != "register" {
		return "", nil, false
	}
	recv := t.child(fn, "value")
	if t.kind(recv) == "call_expression" && len(f.callArgs(recv)) == 0 {
		recv = t.child(recv, "function")
	}
	switch t.kind(recv) {
	case "identifier":
		if t.text(recv) != "udf" {
			return "", nil, false
		}
	case "field_expression":
		if t.text(t.child(recv, "field")) != "udf" {
			return "", nil, false
		}
	default:
		return "", nil, false
	}
	args := f.callArgs(call)
	if len(args) < 2 || t.kind(args[0]) != "string" {
		return "", nil, false
	}
	name, ok := stringValue(t.text(args[0]))
	return name, args, ok && name != ""
}

// stringValue is the value of a plain Scala string literal without
// escapes; SQL function names never need them.
func stringValue(lit string) (string, bool) {
	if strings.HasPrefix(lit, `"""`) {
		return strings.TrimSuffix(strings.TrimPrefix(lit, `"""`), `"""`), true
	}
	if len(lit) < 2 || strings.ContainsRune(lit, '\\') {
		return "", false
	}
	return lit[1 : len(lit)-1], true
}

// findRegistrations handles spark.udf.register("name", fn[, dataType]).
func (f *file) findRegistrations() {
	t := f.t
	for _, call := range f.calls {
		name, args, ok := f.registerCall(call)
		if !ok {
			continue
		}
		arg := args[1]
		var typeArgs []int
		if fn := t.child(call, "function"); t.kind(fn) == "generic_function" {
			// register[RT, A1, ...] carries the same types as udf[...].
			typeArgs = t.kids(t.child(fn, "type_arguments"))
		}
		var dataType *udf.Type
		if len(args) > 2 {
			if dt, err := udf.ParseType(strings.Join(strings.Fields(t.text(args[2])), "")); err == nil {
				dataType = dt
			}
		}
		var e *entry
		switch {
		case t.kind(arg) == "lambda_expression":
			e = f.lambdaUDF(name, arg, typeArgs, dataType)
			e.named = true
			e.u.Span = f.span(call)
			if scalaIdent.MatchString(name) {
				// Registered inside main: the lambda alone, held by a val
				// of the registered name in an object of its own.
				e.u.Lift = f.liftOf(arg, call)
			}
		case f.byCall[arg] != nil:
			e = f.byCall[arg]
		case f.byNode[arg] != nil:
			e = f.byNode[arg]
		case t.kind(arg) == "identifier" && f.byVal[t.text(arg)] != nil:
			e = f.byVal[t.text(arg)]
		case t.kind(arg) == "identifier" && f.lambdaVals[t.text(arg)] != 0:
			e = f.heldLambda(t.text(arg), typeArgs, dataType)
		case f.instanceUDF(arg) != nil:
			e = f.instanceUDF(arg)
		case f.refDef(arg) != "":
			def := f.refDef(arg)
			if e = f.byDef[def]; e == nil {
				e = f.defUDF(def, f.span(call), typeArgs, dataType)
			}
		default:
			continue
		}
		f.registerArgs[arg] = true
		if !e.named {
			// An anonymous function registered straight away is known by
			// its SQL name.
			e.u.Name, e.named = name, true
		}
		e.u.RegisteredNames = append(e.u.RegisteredNames, name)
		e.u.UseSites = append(e.u.UseSites, f.use(udf.UseRegister, call))
	}
}

// findUses adds the calls, references and SQL strings that use the UDFs.
func (f *file) findUses() {
	t := f.t
	f.factoryVals()
	byRegistered := map[string]*entry{}
	for _, e := range f.udfs {
		for _, n := range e.u.RegisteredNames {
			if _, ok := byRegistered[strings.ToLower(n)]; !ok {
				byRegistered[strings.ToLower(n)] = e
			}
		}
	}
	for _, call := range f.calls {
		fn := t.child(call, "function")
		switch t.kind(fn) {
		case "identifier":
			name := t.text(fn)
			if e := f.byVal[name]; e != nil {
				e.u.UseSites = append(e.u.UseSites, f.use(udf.UseCall, call))
				continue
			}
			if name == "callUDF" || name == "call_udf" {
				f.callByName(call, byRegistered)
			}
		case "field_expression":
			if field := t.text(t.child(fn, "field")); field == "callUDF" || field == "call_udf" {
				f.callByName(call, byRegistered)
			}
		case "call_expression":
			// Udfs.scaleBy(2.5)(col("x")): a factory's UDF.
			if f.factoryUse(call) {
				continue
			}
			// udf((x: Int) => ...)(col("x")): the wrapper called in place.
			if e := f.byCall[fn]; e != nil {
				e.u.UseSites = append(e.u.UseSites, f.use(udf.UseCall, call))
			}
		}
	}
	for _, id := range f.argIdents {
		if f.registerArgs[id] {
			continue
		}
		if e := f.byVal[t.text(id)]; e != nil {
			e.u.UseSites = append(e.u.UseSites, f.use(udf.UseReference, id))
		}
	}
	if len(byRegistered) == 0 {
		return
	}
	var calls udf.SQLCallIndex[*entry]
	for _, e := range f.udfs {
		for _, n := range e.u.RegisteredNames {
			calls.Add(n, e)
		}
	}
	for _, lit := range f.literals {
		for _, e := range calls.Calls(t.text(lit)) {
			e.u.UseSites = append(e.u.UseSites, f.use(udf.UseSQL, lit))
		}
	}
}

// callByName handles callUDF("name", ...) and call_udf("name", ...).
func (f *file) callByName(call int, byRegistered map[string]*entry) {
	args := f.callArgs(call)
	if len(args) == 0 || f.t.kind(args[0]) != "string" {
		return
	}
	name, ok := stringValue(f.t.text(args[0]))
	if !ok {
		return
	}
	if e := byRegistered[strings.ToLower(name)]; e != nil {
		e.u.UseSites = append(e.u.UseSites, f.use(udf.UseCall, call))
	}
}

func (f *file) use(kind udf.UseKind, n int) udf.UseSite {
	return udf.UseSite{Kind: kind, Span: f.span(n), Text: f.t.text(n)}
}

func (f *file) span(n int) udf.Span {
	return udf.Span{Start: f.src.Pos(uint(f.t.nodes[n].start)), End: f.src.Pos(uint(f.t.nodes[n].end))}
}

func (f *file) result() []udf.UDF {
	out := make([]udf.UDF, 0, len(f.udfs))
	for _, e := range f.udfs {
		e.u.Finish()
		out = append(out, e.u)
	}
	udf.SortUDFs(out)
	return out
}

func sortedValues(m map[string]int) []int {
	out := make([]int, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	sort.Ints(out)
	return out
}

// siteKinds are the grammar's nodes an inlined use site is.
var siteKinds = tsutil.SiteKinds{udf.UseCall: {"call_expression"}, udf.UseSQL: {"string", "interpolated_string_expression"}}

// Occurrences implements udf.SiteLocator.
func (f *Frontend) Occurrences(path string, src []byte, text string, kind udf.UseKind) (all, code []int, err error) {
	all, code, err = f.parser.SiteOccurrences(path, src, text, kind, siteKinds)
	if err == nil {
		return all, code, nil
	}
	// As Parse: $"col" read as s"col", at the same offsets, in the text
	// looked for too.
	fixed := ColumnSyntax(src)
	if fixed == nil {
		return all, code, err
	}
	if t := ColumnSyntax([]byte(text)); t != nil {
		text = string(t)
	}
	if fall, fcode, ferr := f.parser.SiteOccurrences(path, fixed, text, kind, siteKinds); ferr == nil {
		return fall, fcode, nil
	}
	return all, code, err
}
