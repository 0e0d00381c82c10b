package python

import (
	"fmt"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/udfx/udfx/harness/udf"
)

// findDecorated makes a UDF of every def decorated with udf or pandas_udf.
func (sc *scan) findDecorated() {
	for _, d := range sc.decorated {
		def := field(d, "definition")
		if def == nil || kindOf(def) != "function_definition" {
			continue
		}
		for i, count := uint(0), d.NamedChildCount(); i < count; i++ {
			dec := d.NamedChild(i)
			if kindOf(dec) != "decorator" || dec.NamedChildCount() == 0 {
				continue
			}
			expr := dec.NamedChild(0)
			var w wrapper
			var a callArgs
			if kindOf(expr) == "call" {
				w = sc.wrapperOf(field(expr, "function"))
				a = sc.argsOf(expr)
				sc.handled[expr.Id()] = true
			} else {
				w = sc.wrapperOf(expr)
			}
			if w == notWrapper {
				continue
			}
			name := sc.text(field(def, "name"))
			f := &found{
				u: udf.UDF{
					Name:     name,
					Language: udf.Python,
					File:     sc.src.Path,
					Span:     sc.src.Span(d),
					BodySpan: sc.src.Span(def),
				},
				callables: []string{name},
				body:      def,
			}
			// In decorator form the arguments are the factory's:
			// (returnType[, functionType]).
			sc.fillWrapped(f, w, def, a.arg("returnType", 0), a.arg("functionType", 1))
			sc.found = append(sc.found, f)
			break
		}
	}
}

// fillWrapped sets kind, params, return type and pandas flavor of a UDF
// whose function fn (a def, a lambda or nil) is wrapped by w.
func (sc *scan) fillWrapped(f *found, w wrapper, fn, returnType, functionType *sitter.Node) {
	pandas := w == wrapPandasUDF
	if fn != nil {
		f.u.Params = sc.params(fn, !pandas)
	}
	if pandas {
		f.u.Kind = udf.KindPandasUDF
		f.u.Return = sc.sparkType(returnType)
		f.u.PandasFlavor = sc.pandasFlavor(fn, functionType)
		return
	}
	if fn != nil && kindOf(fn) == "lambda" {
		f.u.Kind = udf.KindLambda
	} else {
		f.u.Kind = udf.KindPythonUDF
	}
	f.u.Return = sc.returnTypeOrString(returnType)
	f.u.ReturnDefault = returnType == nil
}

// holder climbs from the call that makes a UDF to the node that holds it:
// through a trailing .asNondeterministic() and up to an assignment. It
// returns that node, the assigned variable ("" when none) and the
// asNondeterministic call if there is one.
func (sc *scan) holder(call *sitter.Node) (hold *sitter.Node, variable string, nondet *sitter.Node) {
	hold = call
	if p := call.Parent(); p != nil && kindOf(p) == "attribute" && sc.text(field(p, "attribute")) == "asNondeterministic" {
		if g := p.Parent(); g != nil && kindOf(g) == "call" {
			hold, nondet = g, g
		}
	}
	if p := hold.Parent(); p != nil && kindOf(p) == "assignment" {
		if right := field(p, "right"); right != nil && right.Id() == hold.Id() {
			if left := field(p, "left"); left != nil && kindOf(left) == "identifier" {
				variable = sc.text(left)
			}
			hold = p
		}
	}
	return hold, variable, nondet
}

// findWrapCalls makes a UDF of every udf(f, T) / pandas_udf(f, T) call,
// and of udf(T)(f).
func (sc *scan) findWrapCalls() {
	for _, call := range sc.calls {
		if p := call.Parent(); p != nil && kindOf(p) == "decorator" {
			continue
		}
		w := sc.wrapperOf(field(call, "function"))
		if w == notWrapper {
			continue
		}
		sc.handled[call.Id()] = true
		a := sc.argsOf(call)
		fnArg := a.arg("f", 0)
		if d, _ := sc.dotted(field(call, "function")); strings.HasSuffix(sc.resolve(d), ".UserDefinedFunction") {
			// UserDefinedFunction(func, returnType, name, evalType): an
			// evalType other than the default is not a plain UDF.
			if a.kw["evalType"] != nil || len(a.pos) > 3 {
				continue
			}
			fnArg = a.arg("func", 0)
		}
		if fnArg == nil {
			continue
		}
		maker := call
		returnType, functionType := a.arg("returnType", 1), a.arg("functionType", 2)
		if sc.isTypeExpr(fnArg) {
			// udf("double") is a decorator factory; applied at once as
			// udf("double")(f) its call's argument is the function.
			outer := call.Parent()
			if outer == nil || kindOf(outer) != "call" || field(outer, "function").Id() != call.Id() {
				continue
			}
			returnType, functionType = a.arg("returnType", 0), a.arg("functionType", 1)
			maker = outer
			sc.handled[outer.Id()] = true
			fnArg = sc.argsOf(outer).arg("f", 0)
			if fnArg == nil {
				continue
			}
		}
		hold, variable, nondet := sc.holder(maker)
		f := &found{
			u: udf.UDF{
				Language: udf.Python,
				File:     sc.src.Path,
				Span:     sc.src.Span(hold),
			},
			creator: maker,
		}
		if variable != "" {
			f.callables = []string{variable}
		}
		if !sc.setFunction(f, fnArg, variable, "") {
			continue
		}
		sc.fillWrapped(f, w, f.body, returnType, functionType)
		if nondet != nil {
			f.extra = append(f.extra, udf.Blocker{Kind: udf.BlockerNondeterminism, Detail: "asNondeterministic()", Span: sc.src.Span(nondet)})
		}
		sc.byCreator[maker.Id()] = f
		sc.found = append(sc.found, f)
	}
}

// setFunction points f at the function argument fn of a udf(...) or
// register(...) call: a lambda, a def of this file, or a function from
// elsewhere. It names f and reports false for arguments that are none of
// these. A lambda takes the registered name when there is one, else the
// assigned variable.
func (sc *scan) setFunction(f *found, fn *sitter.Node, variable, registered string) bool {
	switch kindOf(fn) {
	case "lambda":
		f.body = fn
		f.u.BodySpan = sc.src.Span(fn)
		f.u.Wraps = sc.forwardsTo(fn)
		switch {
		case registered != "":
			f.u.Name = registered
		case variable != "":
			f.u.Name = variable
		default:
			f.u.Name = lambdaName(sc.src.Span(fn))
			f.autoName = true
		}
		return true
	case "identifier", "attribute":
		d, ok := sc.dotted(fn)
		if !ok {
			return false
		}
		if def := sc.defs[d]; def != nil && kindOf(fn) == "identifier" {
			f.body = def
			f.u.Name = d
			f.u.BodySpan = sc.src.Span(def)
			return true
		}
		f.u.Name = d
		f.external = d
		f.externalNode = fn
		f.u.BodySpan = sc.src.Span(fn)
		return true
	}
	return false
}

// forwardsTo is the function of the file a lambda only calls with its own
// parameters in order (lambda z: to_int(z)); "" for any other lambda.
func (sc *scan) forwardsTo(lambda *sitter.Node) string {
	body := unparen(field(lambda, "body"))
	if body == nil || kindOf(body) != "call" {
		return ""
	}
	fn := field(body, "function")
	if fn == nil || kindOf(fn) != "identifier" || sc.defs[sc.text(fn)] == nil {
		return ""
	}
	var params []string
	for _, p := range namedChildren(field(lambda, "parameters")) {
		if kindOf(p) != "identifier" {
			return ""
		}
		params = append(params, sc.text(p))
	}
	args := namedChildren(field(body, "arguments"))
	if len(args) != len(params) {
		return ""
	}
	for i, a := range args {
		if kindOf(a) != "identifier" || sc.text(a) != params[i] {
			return ""
		}
	}
	return sc.text(fn)
}

func lambdaName(s udf.Span) string {
	return fmt.Sprintf("<lambda@%d:%d>", s.Start.Line, s.Start.Column)
}

// isRegisterCall is true for X.udf.register(...), whatever X is.
func (sc *scan) isRegisterCall(call *sitter.Node) bool {
	fn := field(call, "function")
	if fn == nil || kindOf(fn) != "attribute" || sc.text(field(fn, "attribute")) != "register" {
		return false
	}
	obj := field(fn, "object")
	return obj != nil && kindOf(obj) == "attribute" && sc.text(field(obj, "attribute")) == "udf"
}

// findRegisterCalls handles spark.udf.register(name, f[, returnType]).
func (sc *scan) findRegisterCalls() {
	for _, call := range sc.calls {
		if !sc.isRegisterCall(call) {
			continue
		}
		sc.handled[call.Id()] = true
		a := sc.argsOf(call)
		fnArg := a.arg("f", 1)
		if fnArg == nil {
			continue
		}
		regName, _ := sc.stringValue(a.arg("name", 0), true)
		hold, variable, _ := sc.holder(call)
		use := udf.UseSite{Kind: udf.UseRegister, Span: sc.src.Span(call), Text: sc.text(call)}

		if existing := sc.existingUDF(fnArg); existing != nil {
			sc.addRegistration(existing, regName, use, variable)
			continue
		}
		if merged := sc.registeredDef(fnArg, a.arg("returnType", 2)); merged != nil {
			sc.addRegistration(merged, regName, use, variable)
			continue
		}
		f := &found{
			u: udf.UDF{
				Language: udf.Python,
				File:     sc.src.Path,
				Span:     sc.src.Span(hold),
			},
			creator: call,
		}
		if !sc.setFunction(f, fnArg, variable, regName) {
			continue
		}
		sc.fillWrapped(f, wrapUDF, f.body, a.arg("returnType", 2), nil)
		sc.addRegistration(f, regName, use, variable)
		sc.byCreator[call.Id()] = f
		sc.found = append(sc.found, f)
	}
}

// existingUDF returns the UDF a register call's function argument already
// is: a udf(...) call written inline, or the name of a UDF.
func (sc *scan) existingUDF(fn *sitter.Node) *found {
	switch kindOf(fn) {
	case "call":
		return sc.byCreator[fn.Id()]
	case "identifier":
		// An index, not a loop over found: a file of n registered UDFs
		// would cost n².
		if sc.byCallable == nil {
			sc.byCallable, sc.posOf = map[string]*found{}, map[*found]int{}
		}
		for ; sc.indexed < len(sc.found); sc.indexed++ {
			f := sc.found[sc.indexed]
			sc.posOf[f] = sc.indexed
			for _, c := range f.callables {
				sc.indexCallable(f, c)
			}
		}
		return sc.byCallable[sc.text(fn)]
	}
	return nil
}

// indexCallable records that name calls f, unless an earlier UDF in found
// already has that name.
func (sc *scan) indexCallable(f *found, name string) {
	pos, ok := sc.posOf[f]
	if !ok {
		return // indexed with its callables when existingUDF reaches it
	}
	if g := sc.byCallable[name]; g == nil || sc.posOf[g] > pos {
		sc.byCallable[name] = f
	}
}

// registeredDef returns a UDF an earlier register call made from the same
// def with the same return type, so registering it twice gives one UDF.
func (sc *scan) registeredDef(fn, returnType *sitter.Node) *found {
	if kindOf(fn) != "identifier" {
		return nil
	}
	def := sc.defs[sc.text(fn)]
	if def == nil {
		return nil
	}
	ret := sc.returnTypeOrString(returnType)
	for _, f := range sc.found {
		if f.body != nil && f.body.Id() == def.Id() && f.u.Kind == udf.KindPythonUDF &&
			f.creator != nil && sc.isRegisterCall(f.creator) && f.u.Return.Equal(ret) {
			return f
		}
	}
	return nil
}

func (sc *scan) addRegistration(f *found, regName string, use udf.UseSite, variable string) {
	if regName != "" {
		f.u.RegisteredNames = append(f.u.RegisteredNames, regName)
	}
	f.u.UseSites = append(f.u.UseSites, use)
	if variable != "" {
		f.callables = append(f.callables, variable)
		sc.indexCallable(f, variable)
	}
	if f.autoName {
		switch {
		case regName != "":
			f.u.Name = regName
			f.autoName = false
		case variable != "":
			f.u.Name = variable
			f.autoName = false
		}
	}
}
