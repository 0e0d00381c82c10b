package scala

import (
	"fmt"
	"slices"
	"strings"

	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/udf/internal/tsutil"
)

// A def of an object whose body is udf(...) over a lambda that reads the
// def's parameters makes a UDF per call:
//
//	def scaleBy(factor: Double) = udf((x: Double) => x * factor)
//	df.withColumn("s", Udfs.scaleBy(2.5)(col("amount")))
//
// The UDF is named by the def. Where every call in the file gives the
// same literals, it means the lambda held by a val beside vals of those
// literals, each with its parameter's declared type, which is what the
// JVM runner compiles (udf.Factory, udf.Lift).

// factoryDef is the def whose whole body is call, written as a factory:
// one parameter list, no type parameters, inside objects only (a class's
// def needs an instance udfx cannot make). none otherwise.
func (f *file) factoryDef(call int) int {
	t := f.t
	def := t.parent(call)
	if t.kind(def) == "block" && len(t.kids(def)) == 1 {
		def = t.parent(def)
	}
	if t.kind(def) != "function_definition" || !t.ancestorOf(t.child(def, "body"), call) {
		return none
	}
	lists := 0
	for _, k := range t.kids(def) {
		switch t.kind(k) {
		case "type_parameters":
			return none
		case "parameters":
			lists++
		}
	}
	if lists != 1 {
		return none
	}
	for a := t.parent(def); a != none; a = t.parent(a) {
		switch t.kind(a) {
		case "class_definition", "trait_definition", "function_definition":
			return none
		}
	}
	return def
}

// factoryOf reads def's parameters and the calls of it in the file.
func (f *file) factoryOf(def int) *udf.Factory {
	t := f.t
	name := t.text(t.child(def, "name"))
	fac := &udf.Factory{Name: name}
	var defaults []int
	for _, p := range t.kids(t.child(def, "parameters")) {
		if t.kind(p) != "parameter" {
			continue
		}
		ty := t.child(p, "type")
		switch t.kind(ty) {
		case "lazy_parameter_type", "repeated_parameter_type", "function_type":
			fac.Problem = fmt.Sprintf("%s takes %s, a by-name, repeated or function parameter", name, t.text(p))
			return fac
		}
		fac.Params = append(fac.Params, t.text(t.child(p, "name")))
		fac.Types = append(fac.Types, strings.Join(strings.Fields(t.text(ty)), " "))
		defaults = append(defaults, t.child(p, "default_value"))
	}
	if len(fac.Params) == 0 {
		return nil
	}
	var calls []udf.FactoryCall
	for _, call := range f.calls {
		if f.callsFactory(call, name) {
			calls = append(calls, f.factoryCall(call, fac.Params, defaults))
		}
	}
	fac.BindCalls(calls)
	return fac
}

// factoryCall binds one call's arguments to params: each a literal,
// given or defaulted.
func (f *file) factoryCall(call int, params []string, defaults []int) udf.FactoryCall {
	t := f.t
	c := udf.FactoryCall{Line: f.src.Pos(uint(t.nodes[call].start)).Line}
	args := f.callArgs(call)
	if len(args) > len(params) {
		c.Why = "passes more arguments than it takes"
		return c
	}
	for i, p := range params {
		a := defaults[i]
		if i < len(args) {
			a = args[i]
		}
		switch {
		case a == none:
			c.Why = "does not give " + p
		case !isLiteral(t, a) || strings.Contains(t.text(a), "\n"):
			c.Why = fmt.Sprintf("gives %s %s, which is not a literal", p, strings.TrimSpace(t.text(a)))
		}
		if c.Why != "" {
			return c
		}
		c.Args = append(c.Args, udf.FactoryArg{Param: p, Literal: t.text(a), Span: f.span(a)})
	}
	return c
}

// callsFactory reports whether call is name(...) or Owner.name(...), the
// call that makes the UDF, not the definition's own udf(...) call. The
// owner must be the def's object (Udfs, or Outer.Udfs written in full
// or from Udfs): another object's def of that name is another factory.
// An unqualified name(...) counts only where the file binds name once.
func (f *file) callsFactory(call int, name string) bool {
	t := f.t
	fn := t.child(call, "function")
	switch t.kind(fn) {
	case "identifier":
		return t.text(fn) == name && f.boundOnce(name)
	case "field_expression":
		owner, recv := f.factoryOwner[name], strings.Join(strings.Fields(t.text(t.child(fn, "value"))), "")
		return t.text(t.child(fn, "field")) == name && owner != "" && (recv == owner || strings.HasSuffix(owner, "."+recv))
	}
	return false
}

// boundOnce reports whether the file binds name once: one def, and no
// val, var, parameter or other def of that name, which a bare call of
// the name could mean instead.
func (f *file) boundOnce(name string) bool {
	if n, ok := f.bindings[name]; ok {
		return n == 1
	}
	t := f.t
	n := 0
	t.walk(0, func(i int) bool {
		switch t.kind(i) {
		case "function_definition", "parameter", "class_parameter", "binding":
			if t.text(t.child(i, "name")) == name {
				n++
			}
		case "val_definition", "var_definition":
			if slices.Contains(f.patternNames(t.child(i, "pattern")), name) {
				n++
			}
		}
		return true
	})
	f.bindings[name] = n
	return n == 1
}

// objectPath is the objects around n, outermost first, joined by dots.
func (f *file) objectPath(n int) string {
	t := f.t
	var objects []string
	for a := t.parent(n); a != none; a = t.parent(a) {
		if t.kind(a) == "object_definition" {
			objects = append([]string{t.text(t.child(a, "name"))}, objects...)
		}
	}
	return strings.Join(objects, ".")
}

// factoryUDF names the UDF of the udf(...) call that def's body is, over
// fn (a lambda or a placeholder form), and binds what the runner and the
// translator need of its factory.
func (f *file) factoryUDF(e *entry, call, def, fn int) {
	t := f.t
	e.u.Name = t.text(t.child(def, "name"))
	e.named = true
	e.u.Span = f.span(def)
	// Its calls, Udfs.scaleBy(2.5)(col("x")) and with no parameters
	// Udfs.clean()(col("x")), are use sites.
	f.byFactory[e.u.Name] = e
	f.factoryOwner[e.u.Name] = f.objectPath(def)
	fac := f.factoryOf(def)
	if fac == nil {
		return
	}
	e.u.Factory = fac
	if e.u.Return == nil && t.kind(fn) == "lambda_expression" {
		// x * factor: the factory's parameters have declared types.
		vars := paramEnv(e.u.Params)
		for _, p := range t.kids(t.child(def, "parameters")) {
			if n := t.text(t.child(p, "name")); t.kind(p) == "parameter" && vars[n] == nil {
				vars[n] = f.typeOf(t.child(p, "type"))
			}
		}
		e.u.Return = f.infer(f.lambdaBody(fn), vars)
	}
	lift := f.liftOf(call, call)
	if lift == nil {
		return
	}
	// The runner holds the parameters as vals of the literals
	// (jvm.LiftedSource); they are not captures.
	lift.Captures = slices.DeleteFunc(lift.Captures, func(n string) bool { return slices.Contains(fac.Params, n) })
	e.u.Lift = lift
}

// factoryUse is the use site of a UDF a factory makes: Owner.name(lits)
// applied to columns, call's function being the factory's call.
func (f *file) factoryUse(call int) bool {
	t := f.t
	inner := t.child(call, "function")
	if t.kind(inner) != "call_expression" {
		return false
	}
	name := t.child(inner, "function")
	if t.kind(name) == "field_expression" {
		name = t.child(name, "field")
	}
	e := f.byFactory[t.text(name)]
	if e == nil || !f.callsFactory(inner, e.u.Name) {
		return false
	}
	e.u.UseSites = append(e.u.UseSites, f.use(udf.UseCall, call))
	return true
}

// PlainLiteral reports whether text is one Scala literal as a factory's
// argument may be (a number, possibly negated, a string, a boolean or a
// character) and nothing else: what a record says a factory was called
// with is compiled into the original's holder (jvm.LiftedSource), so it
// must not carry code of its own.
func PlainLiteral(text string) bool {
	if strings.ContainsAny(text, "\n\r") {
		return false
	}
	p := tsutil.NewParser(language)
	defer p.Close()
	src := []byte("object L { val v = " + text + " }")
	s, err := p.Parse("literal.scala", src)
	if err != nil {
		return false
	}
	defer s.Close()
	t := buildTree(s.Root(), src)
	found := false
	t.walk(0, func(i int) bool {
		if t.kind(i) == "val_definition" {
			v := t.child(i, "value")
			found = isLiteral(t, v) && t.text(v) == text
			return false
		}
		return true
	})
	return found
}

// factoryVals maps the vals that hold what a factory returns (val vat =
// Udfs.addTax(0.2)) to its UDF, so that vat(col("net")) is a use site. A
// val counts only where every other occurrence of its name in the file
// calls it or passes it as an argument; otherwise a call of that name
// may be of something else.
func (f *file) factoryVals() {
	t := f.t
	for name, e := range f.byFactory {
		for _, call := range f.calls {
			val := t.parent(call)
			if t.kind(val) != "val_definition" || t.fieldOf(call) != "value" || !f.callsFactory(call, name) {
				continue
			}
			p := t.child(val, "pattern")
			if t.kind(p) != "identifier" || f.byVal[t.text(p)] != nil || !f.onlyCalledOrPassed(t.text(p), p) {
				continue
			}
			f.byVal[t.text(p)] = e
		}
	}
}

// onlyCalledOrPassed reports whether every identifier v in the file but
// def is the function of a call or an argument.
func (f *file) onlyCalledOrPassed(v string, def int) bool {
	t := f.t
	ok := true
	t.walk(0, func(i int) bool {
		if !ok || t.kind(i) != "identifier" || i == def || t.text(i) != v {
			return ok
		}
		p := t.parent(i)
		switch {
		case t.kind(p) == "call_expression" && t.fieldOf(i) == "function":
		case t.kind(p) == "arguments":
		default:
			ok = false
		}
		return false
	})
	return ok
}
