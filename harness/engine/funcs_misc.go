package engine

import "github.com/udfx/udfx/harness/udf"

// miscFuncs is Spark's misc_funcs group.
var miscFuncs = []funcDef{
	{"raise_error", 1, 1, buildRaiseError, nil},
	{"typeof", 1, 1, buildTypeOf, nil},
}

// buildTypeOf is Spark's TypeOf: the argument's type as its catalog
// string, a constant that depends on the type alone (Spark folds it), so
// the argument is never evaluated and its errors never surface.
func buildTypeOf(a *analyzer, op string, args []node) (node, error) {
	return &litNode{t: tString, v: args[0].typ().String()}, nil
}

func buildRaiseError(a *analyzer, op string, args []node) (node, error) {
	// Spark's RaiseError: NULL type, and every row it is evaluated on
	// fails with USER_RAISED_EXCEPTION. A CASE branch evaluates it
	// only on the rows that choose the branch (caseNode), as Spark.
	if k := args[0].typ(); k.Kind != udf.String && !isVoid(k) {
		return nil, mismatch(op, args[0], "string")
	}
	return a.fn(op, voidType, args, func(c *ctx, f *fnNode) (*vec, error) {
		msg, err := f.args[0].eval(c)
		if err != nil {
			return nil, err
		}
		out := newVec(voidType, c.n)
		for i := 0; i < c.n; i++ {
			if e := msg.errAt(i); e != nil {
				out.setErr(i, e)
				continue
			}
			text := "null"
			if s, ok := msg.get(i).(string); ok {
				text = s
			}
			out.setErr(i, rowErr(classRuntime, "USER_RAISED_EXCEPTION", "[USER_RAISED_EXCEPTION] %s SQLSTATE: P0001", text))
		}
		return out, nil
	}), nil
}
