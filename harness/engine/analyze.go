package engine

import (
	"fmt"
	"strings"
	"time"

	"github.com/udfx/udfx/harness/udf"
)

// node is a typed, analyzed expression.
type node interface {
	typ() *udf.Type
	eval(c *ctx) (*vec, error)
}

// ctx is one evaluation: the input columns of a batch (or, inside a
// lambda, of the flattened elements) and the lambda variables in scope.
type ctx struct {
	n    int
	cols []*vec
	vars []*vec
	ansi bool
	loc  *time.Location
}

type litNode struct {
	t *udf.Type
	v any
}

func (l *litNode) typ() *udf.Type            { return l.t }
func (l *litNode) eval(c *ctx) (*vec, error) { return constVec(l.t, c.n, l.v), nil }

type colNode struct {
	i int
	t *udf.Type
}

func (n *colNode) typ() *udf.Type            { return n.t }
func (n *colNode) eval(c *ctx) (*vec, error) { return c.cols[n.i], nil }

type varNode struct {
	slot int
	t    *udf.Type
}

func (n *varNode) typ() *udf.Type            { return n.t }
func (n *varNode) eval(c *ctx) (*vec, error) { return c.vars[n.slot], nil }

// fnNode is any operator or function: fn evaluates it from its arguments.
type fnNode struct {
	name string
	t    *udf.Type
	args []node
	fn   func(c *ctx, f *fnNode) (*vec, error)
}

func (f *fnNode) typ() *udf.Type            { return f.t }
func (f *fnNode) eval(c *ctx) (*vec, error) { return f.fn(c, f) }

// evalArgs evaluates every argument.
func (f *fnNode) evalArgs(c *ctx) ([]*vec, error) {
	out := make([]*vec, len(f.args))
	for i, a := range f.args {
		v, err := a.eval(c)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

type lambdaVar struct {
	slot int
	t    *udf.Type
}

type analyzer struct {
	cols []Column
	ansi bool
	loc  *time.Location
	// approxMath: Options.ApproxMath
	approxMath bool
	scopes     []map[string]lambdaVar
	nslots     int
}

func (a *analyzer) analyze(e ast) (node, error) {
	switch e := e.(type) {
	case *litAST:
		return &litNode{t: e.typ, v: e.val}, nil
	case *colAST:
		for i := len(a.scopes) - 1; i >= 0; i-- {
			if v, ok := a.scopes[i][strings.ToLower(e.name)]; ok {
				return &varNode{slot: v.slot, t: v.t}, nil
			}
		}
		for i, c := range a.cols {
			// Spark resolves column names case-insensitively by default.
			if strings.EqualFold(c.Name, e.name) {
				return &colNode{i: i, t: c.Type}, nil
			}
		}
		return nil, typeErrf("UNRESOLVED_COLUMN", "column %q at offset %d does not exist", e.name, e.pos)
	case *castAST:
		x, err := a.analyze(e.x)
		if err != nil {
			return nil, err
		}
		return a.cast(x, e.to, e.try, true)
	case *caseAST:
		return a.caseWhen(e)
	case *lambdaAST:
		return nil, typeErrf("INVALID_LAMBDA_FUNCTION_CALL", "a lambda at offset %d is only allowed as an argument of a higher-order function", e.pos)
	case *callAST:
		return a.call(e)
	}
	return nil, fmt.Errorf("engine: unknown expression %T", e)
}

func (a *analyzer) analyzeAll(es []ast) ([]node, error) {
	out := make([]node, len(es))
	for i, e := range es {
		if _, ok := e.(*lambdaAST); ok {
			return nil, typeErrf("INVALID_LAMBDA_FUNCTION_CALL", "a lambda at offset %d is not allowed here", e.position())
		}
		n, err := a.analyze(e)
		if err != nil {
			return nil, err
		}
		out[i] = n
	}
	return out, nil
}

// cast wraps n in a cast to t. explicit distinguishes CAST from the
// implicit casts of type coercion (both use the session's ANSI mode).
// Casts of literals are folded when they succeed.
func (a *analyzer) cast(n node, t *udf.Type, try, explicit bool) (node, error) {
	if n.typ().Equal(t) {
		return n, nil
	}
	// try_cast evaluates with ANSI rules and turns failures into NULL: with
	// ANSI off it does not wrap (conformance try_cast/int-to-tinyint).
	fn, err := castFunc(n.typ(), t, a.ansi || try, a.loc)
	if err != nil {
		return nil, err
	}
	c := &castNode{x: n, to: t, fn: fn, try: try}
	if l, ok := n.(*litNode); ok {
		v, rerr := c.one(l.v)
		if rerr == nil {
			return &litNode{t: t, v: v}, nil
		}
	}
	return c, nil
}

func (a *analyzer) castAll(ns []node, t *udf.Type) ([]node, error) {
	out := make([]node, len(ns))
	for i, n := range ns {
		c, err := a.cast(n, t, false, false)
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}

func typesOf(ns []node) []*udf.Type {
	out := make([]*udf.Type, len(ns))
	for i, n := range ns {
		out[i] = n.typ()
	}
	return out
}

func (a *analyzer) common(name string, ns []node) ([]node, *udf.Type, error) {
	t, ok := commonType(typesOf(ns), a.ansi)
	if !ok {
		parts := make([]string, len(ns))
		for i, n := range ns {
			parts[i] = n.typ().String()
		}
		return nil, nil, typeErrf("DATATYPE_MISMATCH.DATA_DIFF_TYPES", "input to %s should all be the same type, but it's (%s)", name, strings.Join(parts, ", "))
	}
	if isVoid(t) {
		return ns, t, nil
	}
	out, err := a.castAll(ns, t)
	return out, t, err
}

func (a *analyzer) caseWhen(e *caseAST) (node, error) {
	var conds []node
	if e.operand != nil {
		// CASE x WHEN v THEN ... is CASE WHEN x = v THEN ...
		for _, w := range e.whens {
			c, err := a.call(call(w.position(), "=", e.operand, w))
			if err != nil {
				return nil, err
			}
			conds = append(conds, c)
		}
	} else {
		var err error
		if conds, err = a.analyzeAll(e.whens); err != nil {
			return nil, err
		}
		for _, c := range conds {
			// A bare NULL condition is DATATYPE_MISMATCH too (conformance
			// casewhen/null-literal-condition); CAST(NULL AS BOOLEAN) is fine.
			if c.typ().Kind != udf.Boolean {
				return nil, typeErrf("DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", "WHEN expressions in CASE must be boolean, got %s", c.typ())
			}
		}
	}
	vals := append([]ast{}, e.thens...)
	if e.els != nil {
		vals = append(vals, e.els)
	}
	vs, err := a.analyzeAll(vals)
	if err != nil {
		return nil, err
	}
	vs, t, err := a.common("CASE", vs)
	if err != nil {
		return nil, err
	}
	for i, c := range conds {
		if isVoid(c.typ()) {
			conds[i] = &litNode{t: tBool}
		}
	}
	var els node = &litNode{t: t}
	if e.els != nil {
		els = vs[len(vs)-1]
	}
	return newCase(t, conds, vs[:len(conds)], els), nil
}

// lambda analyzes a lambda argument with its parameters bound to types.
func (a *analyzer) lambda(e ast, types ...*udf.Type) (node, []int, error) {
	l, ok := e.(*lambdaAST)
	if !ok {
		return nil, nil, typeErrf("DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", "expected a lambda function at offset %d", e.position())
	}
	if len(l.params) != len(types) {
		return nil, nil, typeErrf("INVALID_LAMBDA_FUNCTION_CALL.NUM_ARGS_MISMATCH", "the lambda at offset %d takes %d arguments, but %d are expected", l.pos, len(l.params), len(types))
	}
	scope := map[string]lambdaVar{}
	slots := make([]int, len(types))
	for i, p := range l.params {
		slots[i] = a.nslots
		scope[strings.ToLower(p)] = lambdaVar{slot: a.nslots, t: types[i]}
		a.nslots++
	}
	a.scopes = append(a.scopes, scope)
	body, err := a.analyze(l.body)
	a.scopes = a.scopes[:len(a.scopes)-1]
	return body, slots, err
}
