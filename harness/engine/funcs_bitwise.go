package engine

import "github.com/udfx/udfx/harness/udf"

// bitwiseFuncs is Spark's bitwise_funcs group.
var bitwiseFuncs = []funcDef{
	{"& | ^", 2, 2, buildBitwise, nil},
	// ~ is built with negative and positive (buildUnaryArith, funcs_math.go).
	{"~", 1, 1, buildUnaryArith, nil},
}

func buildBitwise(a *analyzer, op string, args []node) (node, error) {
	l, r := args[0], args[1]
	if !isIntegral(l.typ()) && !isVoid(l.typ()) || !isIntegral(r.typ()) && !isVoid(r.typ()) {
		return nil, typeErrf("DATATYPE_MISMATCH.BINARY_OP_WRONG_TYPE", "the binary operator %s requires integral input, got %s and %s", op, l.typ(), r.typ())
	}
	t, _ := commonType([]*udf.Type{l.typ(), r.typ()}, a.ansi)
	l, _ = a.cast(l, t, false, false)
	r, _ = a.cast(r, t, false, false)
	return a.fn(op, t, []node{l, r}, strictRow(t, func(v []any) (any, *RowError) {
		x, y := v[0].(int64), v[1].(int64)
		switch op {
		case "&":
			return x & y, nil
		case "|":
			return x | y, nil
		}
		return x ^ y, nil
	})), nil
}
