package engine

import (
	"math"

	"github.com/udfx/udfx/harness/udf"
)

// conditionalFuncs is Spark's conditional_funcs group. CASE WHEN is
// syntax (analyzer.caseWhen); if, nvl2 and nullif build a caseNode too.
var conditionalFuncs = []funcDef{
	{"coalesce nvl ifnull", 1, -1, buildCoalesce, nil},
	{"if", 3, 3, buildIf, nil},
	{"nvl2", 3, 3, buildNvl2, nil},
	{"nullif", 2, 2, buildNullIf, nil},
	{"nanvl", 2, 2, buildNaNvl, nil},
	{"between", 3, 3, nil, rawBetween},
}

func buildCoalesce(a *analyzer, op string, args []node) (node, error) {
	if op != "coalesce" && len(args) != 2 {
		return nil, typeErrf("WRONG_NUM_ARGS.WITHOUT_SUGGESTION", "the function %s requires 2 parameters but the actual number is %d", op, len(args))
	}
	args, t, err := a.common(op, args)
	if err != nil {
		return nil, err
	}
	return a.fn(op, t, args, coalesce(t)), nil
}

func buildIf(a *analyzer, op string, args []node) (node, error) {
	cond := args[0]
	if isVoid(cond.typ()) {
		cond = &litNode{t: tBool}
	} else if cond.typ().Kind != udf.Boolean {
		return nil, mismatch("if", cond, "boolean")
	}
	vs, t, err := a.common("if", args[1:])
	if err != nil {
		return nil, err
	}
	return newCase(t, []node{cond}, vs[:1], vs[1]), nil
}

func buildNvl2(a *analyzer, op string, args []node) (node, error) {
	vs, t, err := a.common("nvl2", args[1:])
	if err != nil {
		return nil, err
	}
	cond := a.fn("isnotnull", tBool, args[:1], builtinsFn(a, "isnotnull", args[:1]))
	return newCase(t, []node{cond}, vs[:1], vs[1]), nil
}

func buildNullIf(a *analyzer, op string, args []node) (node, error) {
	l, r, err := a.compareOperands("=", args[0], args[1])
	if err != nil {
		return nil, err
	}
	eq := a.fn("=", tBool, []node{l, r}, comparison("="))
	return newCase(args[0].typ(), []node{eq}, []node{&litNode{t: args[0].typ()}}, args[0]), nil
}

func buildNaNvl(a *analyzer, name string, args []node) (node, error) {
	x, err := a.numericArg(name, args[0], tDouble)
	if err != nil {
		return nil, err
	}
	y, err := a.numericArg(name, args[1], tDouble)
	if err != nil {
		return nil, err
	}
	return a.fn(name, tDouble, []node{x, y}, anyRow(tDouble, func(v []any) (any, *RowError) {
		if v[0] != nil && math.IsNaN(v[0].(float64)) {
			return v[1], nil
		}
		return v[0], nil
	})), nil
}

func rawBetween(a *analyzer, e *callAST) (node, error) {
	x := e.args[0]
	return a.call(call(e.pos, "and", call(e.pos, ">=", x, e.args[1]), call(e.pos, "<=", x, e.args[2])))
}
