package python

import (
	"fmt"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/udfx/udfx/harness/udf"
)

// findFactories sets Factory on each UDF that a module-level function
// makes and returns, the way jobs parameterize a UDF:
//
//	def make_prefixer(prefix):
//	    def add_prefix(s): ...
//	    return udf(add_prefix, StringType())      # or @udf on add_prefix, return add_prefix
//	df.withColumn("t", make_prefixer("ACC-")(col("account")))
//
// The UDF's body reads the function's parameters; the calls in the file
// say what they hold. Only literal arguments count, and only when every
// call gives the same ones: otherwise Factory.Problem says why, and the
// translator declines with it.
func (sc *scan) findFactories() {
	for _, f := range sc.found {
		if f.body == nil || f.u.Language != udf.Python {
			continue
		}
		fn := enclosingFunction(f.body)
		if fn == nil || !sc.returnsUDF(fn, f) {
			continue
		}
		if p := fn.Parent(); p == nil || kindOf(p) != "module" {
			continue // a method, a nested or a decorated function
		}
		f.u.Factory = sc.factoryArgs(fn)
		f.callables = append(f.callables, sc.factoryVariables(f.u.Factory.Name)...)
		if f.autoName {
			// return udf(lambda s: prefix + s, T): the lambda has no name
			// but the factory's, which is the one users know it by.
			f.u.Name = f.u.Factory.Name
			f.autoName = false
		}
	}
}

// returnsUDF reports whether fn's last statement returns the UDF f: the
// udf(...) call that makes it, or the name of its decorated def.
func (sc *scan) returnsUDF(fn *sitter.Node, f *found) bool {
	stmts := namedChildren(field(fn, "body"))
	if len(stmts) == 0 {
		return false
	}
	ret := stmts[len(stmts)-1]
	if kindOf(ret) != "return_statement" || ret.NamedChildCount() != 1 {
		return false
	}
	v := unparen(ret.NamedChild(0))
	if f.creator != nil {
		return sameNode(v, f.creator)
	}
	return kindOf(v) == "identifier" && kindOf(f.body) == "function_definition" &&
		sc.text(v) == sc.text(field(f.body, "name")) && kindOf(f.body.Parent()) == "decorated_definition"
}

// factoryParam is a parameter of a factory and its default, if any.
type factoryParam struct {
	name string
	def  *sitter.Node
}

// factoryArgs reads the calls of the module-level function fn.
func (sc *scan) factoryArgs(fn *sitter.Node) *udf.Factory {
	name := sc.text(field(fn, "name"))
	fac := &udf.Factory{Name: name}
	var params []factoryParam
	for _, p := range namedChildren(field(fn, "parameters")) {
		switch kindOf(p) {
		case "identifier":
			params = append(params, factoryParam{name: sc.text(p)})
		case "typed_parameter":
			if c := p.NamedChild(0); c != nil && kindOf(c) == "identifier" {
				params = append(params, factoryParam{name: sc.text(c)})
				continue
			}
			fac.Problem = name + " takes *args or **kwargs"
			return fac
		case "default_parameter", "typed_default_parameter":
			params = append(params, factoryParam{name: sc.text(field(p, "name")), def: field(p, "value")})
		default:
			fac.Problem = name + " takes *args, **kwargs or a keyword-only marker"
			return fac
		}
	}
	for _, p := range params {
		fac.Params = append(fac.Params, p.name)
	}
	var calls []udf.FactoryCall
	for _, call := range sc.calls {
		callee := field(call, "function")
		if callee == nil || kindOf(callee) != "identifier" || sc.text(callee) != name {
			continue
		}
		c := udf.FactoryCall{Line: int(call.StartPosition().Row) + 1}
		args, why := sc.bindFactoryCall(call, params)
		c.Why = why
		for i, a := range args {
			c.Args = append(c.Args, udf.FactoryArg{Param: params[i].name, Literal: sc.text(a), Span: sc.src.Span(a)})
		}
		calls = append(calls, c)
	}
	fac.BindCalls(calls)
	return fac
}

// bindFactoryCall matches a call's arguments to params: each a literal,
// given or defaulted. why says what is wrong otherwise.
func (sc *scan) bindFactoryCall(call *sitter.Node, params []factoryParam) ([]*sitter.Node, string) {
	if hasSplat(call) {
		return nil, "passes *args or **kwargs"
	}
	a := sc.argsOf(call)
	if len(a.pos) > len(params) {
		return nil, "passes more arguments than it takes"
	}
	out := make([]*sitter.Node, len(params))
	known := map[string]bool{}
	for i, p := range params {
		known[p.name] = true
		switch {
		case i < len(a.pos):
			out[i] = a.pos[i]
		case a.kw[p.name] != nil:
			out[i] = a.kw[p.name]
		case p.def != nil:
			out[i] = p.def
		default:
			return nil, "does not give " + p.name
		}
		if !sc.isPlainLiteral(out[i]) {
			return nil, fmt.Sprintf("gives %s %s, which is not a literal", p.name, strings.TrimSpace(sc.text(out[i])))
		}
	}
	for k := range a.kw {
		if !known[k] {
			return nil, "passes an unknown keyword " + k
		}
	}
	return out, ""
}

// isPlainLiteral is true for a str without interpolation or a prefix
// (b, r, f: its text is then not the value's escapes), an int, a float,
// True, False, None, or a negated number.
func (sc *scan) isPlainLiteral(n *sitter.Node) bool {
	switch kindOf(n) {
	case "integer", "float", "true", "false", "none":
		return true
	case "string":
		t := sc.text(n)
		if t == "" || (t[0] != '"' && t[0] != '\'') {
			return false
		}
		for _, c := range namedChildren(n) {
			if kindOf(c) == "interpolation" {
				return false
			}
		}
		return true
	case "unary_operator":
		op := field(n, "operator")
		arg := field(n, "argument")
		return op != nil && kindOf(op) == "-" && arg != nil && (kindOf(arg) == "integer" || kindOf(arg) == "float")
	}
	return false
}

// factoryVariables are the names the file binds to what the factory
// called name returns (prefixer = make_prefixer("ACC-"), at module level,
// under if __name__ == "__main__": or in main()), and then calls as the
// UDF: prefixer(col("account")) is a use site. A name counts only where
// that assignment is its one binding in the file and every other
// occurrence calls it or passes it on; otherwise its calls may be of
// something else.
func (sc *scan) factoryVariables(name string) []string {
	var out []string
	for _, call := range sc.calls {
		as := call.Parent()
		if as == nil || kindOf(as) != "assignment" || field(as, "right") == nil || field(as, "right").Id() != call.Id() {
			continue
		}
		left, callee := field(as, "left"), field(call, "function")
		if left == nil || kindOf(left) != "identifier" || callee == nil || kindOf(callee) != "identifier" || sc.text(callee) != name {
			continue
		}
		if v := sc.text(left); sc.onlyCalledOrPassed(v, left) {
			out = append(out, v)
		}
	}
	return out
}

// onlyCalledOrPassed reports whether every occurrence of the identifier
// v in the file but the binding at def is the function of a call or an
// argument of one.
func (sc *scan) onlyCalledOrPassed(v string, def *sitter.Node) bool {
	ok := true
	var walk func(n *sitter.Node)
	walk = func(n *sitter.Node) {
		if !ok {
			return
		}
		if kindOf(n) == "identifier" && sc.text(n) == v && n.Id() != def.Id() {
			p := n.Parent()
			switch {
			case p != nil && kindOf(p) == "call" && field(p, "function") != nil && field(p, "function").Id() == n.Id():
			case p != nil && kindOf(p) == "argument_list":
			default:
				ok = false
			}
			return
		}
		for i := uint(0); i < n.NamedChildCount(); i++ {
			walk(n.NamedChild(i))
		}
	}
	walk(sc.src.Root())
	return ok
}
