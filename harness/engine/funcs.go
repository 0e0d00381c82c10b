package engine

import (
	"math/big"
	"strings"

	"github.com/udfx/udfx/harness/udf"
)

func (a *analyzer) fn(name string, t *udf.Type, args []node, f func(c *ctx, f *fnNode) (*vec, error)) *fnNode {
	return &fnNode{name: name, t: t, args: args, fn: f}
}

func argCount(name string, args []ast, lo, hi int) error {
	if len(args) < lo || hi >= 0 && len(args) > hi {
		want := ""
		switch {
		case lo == hi:
			want = itoa(lo)
		case hi < 0:
			want = "at least " + itoa(lo)
		default:
			want = "between " + itoa(lo) + " and " + itoa(hi)
		}
		return typeErrf("WRONG_NUM_ARGS.WITHOUT_SUGGESTION", "the function %s requires %s parameters but the actual number is %d", name, want, len(args))
	}
	return nil
}

func itoa(i int) string { return big.NewInt(int64(i)).String() }

func mismatch(name string, n node, want string) error {
	return typeErrf("DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", "%s requires %s input, got %s", name, want, n.typ())
}

// call analyzes an operator or a function call.
func (a *analyzer) call(e *callAST) (node, error) {
	if e.distinct {
		return nil, &UnsupportedFunctionError{Name: e.name + "(DISTINCT ...)"}
	}
	if b, ok := builtins[e.name]; ok {
		if err := argCount(e.name, e.args, b.lo, b.hi); err != nil {
			return nil, err
		}
		if b.raw != nil {
			return b.raw(a, e)
		}
		args, err := a.analyzeAll(e.args)
		if err != nil {
			return nil, err
		}
		return b.build(a, e.name, args)
	}
	return nil, &UnsupportedFunctionError{Name: e.name}
}

type builtin struct {
	lo, hi int // argument count bounds; hi < 0 is unbounded
	build  buildFunc
	raw    rawFunc // for lambdas and special forms
}

// buildFunc builds a function's node from its analyzed arguments.
type buildFunc = func(a *analyzer, name string, args []node) (node, error)

// rawFunc builds a function's node from the call's syntax, for lambdas
// and special forms whose arguments are not analyzed up front.
type rawFunc = func(a *analyzer, e *callAST) (node, error)

var builtins map[string]builtin

// funcDef is one entry of a function group's registration list: the
// space-separated names that share one definition, their argument count
// bounds (hi < 0 is unbounded), and build or, for lambdas and special
// forms, raw.
type funcDef struct {
	names  string
	lo, hi int
	build  buildFunc
	raw    rawFunc
}

// funcGroups are the registration lists, one per Spark function group
// (ExpressionInfo's group: math_funcs, string_funcs, ...), each in the
// file funcs_<group>.go.
var funcGroups = [][]funcDef{
	mathFuncs,
	bitwiseFuncs,
	predicateFuncs,
	conditionalFuncs,
	stringFuncs,
	regexpAllFuncs,
	collectionFuncs,
	arrayFuncs,
	lambdaFuncs,
	mapFuncs,
	datetimeFuncs,
	urlFuncs,
	miscFuncs,
}

// nondeterministic functions are never supported.
var nondeterministic = []string{"current_date", "current_timestamp", "now", "curdate", "localtimestamp", "rand", "random", "randn", "uuid", "current_timezone"}

func init() {
	builtins = map[string]builtin{}
	for _, group := range funcGroups {
		for _, d := range group {
			for _, n := range strings.Fields(d.names) {
				builtins[n] = builtin{lo: d.lo, hi: d.hi, build: d.build, raw: d.raw}
			}
		}
	}
	for _, n := range nondeterministic {
		delete(builtins, n)
	}
}

// builtinsFn returns the evaluation function of a simple builtin.
func builtinsFn(a *analyzer, name string, args []node) func(c *ctx, f *fnNode) (*vec, error) {
	n, _ := builtins[name].build(a, name, args)
	return n.(*fnNode).fn
}

func quoteSQL(s string) string { return "'" + strings.ReplaceAll(s, "'", "\\'") + "'" }
