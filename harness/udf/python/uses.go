package python

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/udfx/udfx/harness/udf"
)

// findUseSites adds the calls, references and SQL strings that use each
// UDF by a variable or registered name.
func (sc *scan) findUseSites() {
	byCallable := map[string][]*found{}
	byFactory := map[string][]*found{}
	var registered []*found
	for _, f := range sc.found {
		if f.u.Kind == udf.KindRDDLambda {
			continue
		}
		if f.u.Factory != nil {
			byFactory[f.u.Factory.Name] = append(byFactory[f.u.Factory.Name], f)
		}
		for _, c := range f.callables {
			byCallable[c] = appendOnce(byCallable[c], f)
		}
		if len(f.u.RegisteredNames) > 0 {
			registered = append(registered, f)
		}
	}
	if len(byCallable) == 0 && len(registered) == 0 && len(sc.byCreator) == 0 && len(byFactory) == 0 {
		return
	}
	for _, call := range sc.calls {
		fn := field(call, "function")
		if fn == nil {
			continue
		}
		a := sc.argsOf(call)
		arity := len(a.pos)
		if len(a.kw) > 0 || hasSplat(call) {
			arity = -1
		}
		if kindOf(fn) == "identifier" {
			for _, f := range byCallable[sc.text(fn)] {
				f.u.UseSites = append(f.u.UseSites, udf.UseSite{Kind: udf.UseCall, Span: sc.src.Span(call), Text: sc.text(call), ArgTypes: sc.flowTypes(call)})
				f.arities = append(f.arities, arity)
			}
		}
		if f := sc.byCreator[fn.Id()]; kindOf(fn) == "call" && f != nil && f.u.Kind != udf.KindRDDLambda {
			// udf(f, T)(col("x")): made and called in one expression.
			f.u.UseSites = append(f.u.UseSites, udf.UseSite{Kind: udf.UseCall, Span: sc.src.Span(call), Text: sc.text(call), ArgTypes: sc.flowTypes(call)})
			f.arities = append(f.arities, arity)
		}
		if inner := field(fn, "function"); kindOf(fn) == "call" && inner != nil && kindOf(inner) == "identifier" {
			// make_prefixer("ACC-")(col("account")): the UDF a factory
			// makes, called at once.
			for _, f := range byFactory[sc.text(inner)] {
				f.u.UseSites = append(f.u.UseSites, udf.UseSite{Kind: udf.UseCall, Span: sc.src.Span(call), Text: sc.text(call), ArgTypes: sc.flowTypes(call)})
				f.arities = append(f.arities, arity)
			}
		}
		if d, ok := sc.dotted(fn); ok && (strings.HasSuffix(d, "call_udf") || strings.HasSuffix(d, "callUDF")) {
			last := d[strings.LastIndexByte(d, '.')+1:]
			if last == "call_udf" || last == "callUDF" {
				if name, ok := sc.stringValue(a.arg("udfName", 0), true); ok {
					for _, f := range registered {
						if hasName(f.u.RegisteredNames, name) {
							f.u.UseSites = append(f.u.UseSites, udf.UseSite{Kind: udf.UseCall, Span: sc.src.Span(call), Text: sc.text(call)})
						}
					}
				}
			}
		}
		if sc.handled[call.Id()] {
			continue
		}
		for _, arg := range a.all() {
			if kindOf(arg) != "identifier" {
				continue
			}
			for _, f := range byCallable[sc.text(arg)] {
				f.u.UseSites = append(f.u.UseSites, udf.UseSite{Kind: udf.UseReference, Span: sc.src.Span(arg), Text: sc.text(arg)})
			}
		}
	}
	var calls udf.SQLCallIndex[*found]
	for _, f := range registered {
		for _, name := range f.u.RegisteredNames {
			calls.Add(name, f)
		}
	}
	for _, s := range sc.strings {
		if p := s.Parent(); p != nil && kindOf(p) == "expression_statement" {
			continue // a docstring, not SQL handed to Spark
		}
		if calls.Len() == 0 {
			break
		}
		text := sc.text(s)
		for _, f := range calls.Calls(text) {
			f.u.UseSites = append(f.u.UseSites, udf.UseSite{Kind: udf.UseSQL, Span: sc.src.Span(s), Text: text})
		}
	}
}

// all returns the positional then the keyword arguments.
func (a callArgs) all() []*sitter.Node {
	out := append([]*sitter.Node(nil), a.pos...)
	for _, v := range a.kw {
		if v != nil {
			out = append(out, v)
		}
	}
	return out
}

// hasName compares as Spark resolves function names: case-insensitively.
func hasName(names []string, name string) bool {
	for _, n := range names {
		if strings.EqualFold(n, name) {
			return true
		}
	}
	return false
}

func appendOnce(fs []*found, f *found) []*found {
	for _, x := range fs {
		if x == f {
			return fs
		}
	}
	return append(fs, f)
}
