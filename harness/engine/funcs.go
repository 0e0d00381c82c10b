package engine

import (
	"math"
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
	build  func(a *analyzer, name string, args []node) (node, error)
	raw    func(a *analyzer, e *callAST) (node, error) // for lambdas and special forms
}

var builtins map[string]builtin

func reg(names string, lo, hi int, build func(a *analyzer, name string, args []node) (node, error)) {
	for _, n := range strings.Fields(names) {
		builtins[n] = builtin{lo: lo, hi: hi, build: build}
	}
}

func regRaw(names string, lo, hi int, raw func(a *analyzer, e *callAST) (node, error)) {
	for _, n := range strings.Fields(names) {
		builtins[n] = builtin{lo: lo, hi: hi, raw: raw}
	}
}

func init() {
	builtins = map[string]builtin{}
	registerOps()
	registerMath()
	registerStrings()
	registerDates()
	registerArrays()
	registerText()
	registerArrays2()
	registerDateFormats()
}

// isIntLit reports an integral literal, for Spark's literal-precision rule.
func intLitDecimal(n node) *udf.Type {
	if l, ok := n.(*litNode); ok && isIntegral(l.t) && l.v != nil {
		s := big.NewInt(l.v.(int64)).String()
		p := len(strings.TrimPrefix(s, "-"))
		return udf.DecimalOf(p, 0)
	}
	return decimalFor(n.typ())
}

// arithOperands applies Spark's coercion for + - * / % pmod and returns
// the operand type (decimal operands keep their own types).
func (a *analyzer) arithOperands(op string, l, r node) (node, node, *udf.Type, error) {
	lt, rt := l.typ(), r.typ()
	if isVoid(lt) && isVoid(rt) {
		return nil, nil, nil, &UnsupportedFunctionError{Name: "arithmetic on two NULL literals"}
	}
	if isVoid(lt) {
		lt = rt
		if lt.Kind == udf.String {
			lt = tDouble
		}
	}
	if isVoid(rt) {
		rt = lt
		if rt.Kind == udf.String {
			rt = tDouble
		}
	}
	// Strings: non-ANSI casts them to double; ANSI to bigint next to an
	// integral and to double otherwise (typeof('1' + 1Y) is bigint, typeof('1' + 1.5) double).
	if lt.Kind == udf.String || rt.Kind == udf.String {
		o := rt
		if rt.Kind == udf.String {
			o = lt
		}
		switch {
		case !a.ansi && (o.Kind == udf.String || o.IsNumeric()):
			lt, rt = tDouble, tDouble
			if o.IsNumeric() && o.Kind != udf.String {
				w := widerNumeric(tDouble, o, false)
				lt, rt = w, w
			}
		case a.ansi && isIntegral(o):
			lt, rt = tLong, tLong
		case a.ansi && o.IsNumeric():
			lt, rt = tDouble, tDouble
		default:
			return nil, nil, nil, typeErrf("DATATYPE_MISMATCH.BINARY_OP_WRONG_TYPE", "the binary operator %s requires numeric input, got %s and %s", op, l.typ(), r.typ())
		}
	}
	if !lt.IsNumeric() || !rt.IsNumeric() {
		return nil, nil, nil, typeErrf("DATATYPE_MISMATCH.BINARY_OP_WRONG_TYPE", "the binary operator %s requires numeric input, got %s and %s", op, l.typ(), r.typ())
	}
	var t *udf.Type
	switch {
	case lt.Kind == udf.Decimal && isFractional(rt) || rt.Kind == udf.Decimal && isFractional(lt):
		t = tDouble
		lt, rt = t, t
	case lt.Kind == udf.Decimal || rt.Kind == udf.Decimal:
		if isIntegral(lt) {
			lt = intLitDecimal(l)
		}
		if isIntegral(rt) {
			rt = intLitDecimal(r)
		}
		t = udf.Prim(udf.Decimal)
	default:
		t = widerNumeric(lt, rt, a.ansi)
		lt, rt = t, t
	}
	var err error
	if l, err = a.cast(l, lt, false, false); err != nil {
		return nil, nil, nil, err
	}
	if r, err = a.cast(r, rt, false, false); err != nil {
		return nil, nil, nil, err
	}
	return l, r, t, nil
}

// decResult is Spark's DecimalPrecision result type.
func decResult(op string, x, y *udf.Type) *udf.Type {
	p1, s1, p2, s2 := x.Precision, x.Scale, y.Precision, y.Scale
	switch op {
	case "+", "-":
		s := max(s1, s2)
		return adjustedDecimal(max(p1-s1, p2-s2)+s+1, s)
	case "*":
		return adjustedDecimal(p1+p2+1, s1+s2)
	case "/":
		s := max(6, s1+p2+1)
		return adjustedDecimal(p1-s1+s2+s, s)
	}
	// % and pmod
	s := max(s1, s2)
	return adjustedDecimal(min(p1-s1, p2-s2)+s, s)
}

func registerOps() {
	reg("+ - *", 2, 2, func(a *analyzer, op string, args []node) (node, error) {
		if op != "*" && (args[0].typ().Kind == udf.Date || args[1].typ().Kind == udf.Date) {
			return a.dateArith(op, args)
		}
		l, r, t, err := a.arithOperands(op, args[0], args[1])
		if err != nil {
			return nil, err
		}
		if t.Kind == udf.Decimal {
			t = decResult(op, l.typ(), r.typ())
		}
		return a.fn(op, t, []node{l, r}, binaryArith(op, t, a.ansi)), nil
	})
	reg("/", 2, 2, func(a *analyzer, op string, args []node) (node, error) {
		l, r, t, err := a.arithOperands(op, args[0], args[1])
		if err != nil {
			return nil, err
		}
		if t.Kind != udf.Decimal {
			t = tDouble
			if l, err = a.cast(l, t, false, false); err != nil {
				return nil, err
			}
			if r, err = a.cast(r, t, false, false); err != nil {
				return nil, err
			}
		} else {
			t = decResult(op, l.typ(), r.typ())
		}
		return a.fn(op, t, []node{l, r}, divMod(t, a.ansi, "/")), nil
	})
	reg("div", 2, 2, func(a *analyzer, op string, args []node) (node, error) {
		l, r, t, err := a.arithOperands(op, args[0], args[1])
		if err != nil {
			return nil, err
		}
		if isFractional(t) {
			return nil, typeErrf("DATATYPE_MISMATCH.BINARY_OP_WRONG_TYPE", "div requires integral or decimal input, got %s", t)
		}
		if isIntegral(t) {
			if l, err = a.cast(l, tLong, false, false); err != nil {
				return nil, err
			}
			if r, err = a.cast(r, tLong, false, false); err != nil {
				return nil, err
			}
		}
		return a.fn(op, tLong, []node{l, r}, divMod(tLong, a.ansi, "div")), nil
	})
	reg("% mod pmod", 2, 2, func(a *analyzer, op string, args []node) (node, error) {
		if op == "mod" {
			op = "%"
		}
		l, r, t, err := a.arithOperands(op, args[0], args[1])
		if err != nil {
			return nil, err
		}
		if t.Kind == udf.Decimal {
			t = decResult(op, l.typ(), r.typ())
		}
		return a.fn(op, t, []node{l, r}, divMod(t, a.ansi, op)), nil
	})
	reg("negative positive ~", 1, 1, func(a *analyzer, op string, args []node) (node, error) {
		x := args[0]
		t := x.typ()
		if t.Kind == udf.String && op != "~" {
			t = tDouble
			// positive('1') is double even with ANSI on (conformance positive/string).
			if a.ansi && op != "positive" {
				t = tLong
			}
			var err error
			if x, err = a.cast(x, t, false, false); err != nil {
				return nil, err
			}
		}
		if op == "~" && !isIntegral(t) || !t.IsNumeric() {
			return nil, mismatch(op, x, "numeric")
		}
		if op == "positive" {
			return x, nil
		}
		ansi := a.ansi
		return a.fn(op, t, []node{x}, strictRow(t, func(v []any) (any, *RowError) {
			switch x := v[0].(type) {
			case int64:
				if op == "~" {
					return wrapInt(^x, t), nil
				}
				if x == minOf(t) {
					if ansi {
						return nil, rowErr(classArithmetic, "ARITHMETIC_OVERFLOW", "%s overflow. If necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass this error.", overflowName(t))
					}
					return x, nil
				}
				return -x, nil
			case float64:
				return -x, nil
			case float32:
				return -x, nil
			case *big.Int:
				return new(big.Int).Neg(x), nil
			}
			return nil, nil
		})), nil
	})
	reg("& | ^", 2, 2, func(a *analyzer, op string, args []node) (node, error) {
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
	})
	reg("= != < <= > >= <=>", 2, 2, func(a *analyzer, op string, args []node) (node, error) {
		l, r, err := a.compareOperands(op, args[0], args[1])
		if err != nil {
			return nil, err
		}
		return a.fn(op, tBool, []node{l, r}, comparison(op)), nil
	})
	reg("and or", 2, 2, func(a *analyzer, op string, args []node) (node, error) {
		for i, x := range args {
			if isVoid(x.typ()) {
				args[i] = &litNode{t: tBool}
			} else if x.typ().Kind != udf.Boolean {
				return nil, mismatch(strings.ToUpper(op), x, "boolean")
			}
		}
		return a.fn(op, tBool, args, logic(op == "and")), nil
	})
	reg("not", 1, 1, func(a *analyzer, op string, args []node) (node, error) {
		if isVoid(args[0].typ()) {
			args[0] = &litNode{t: tBool}
		} else if args[0].typ().Kind != udf.Boolean {
			return nil, mismatch("NOT", args[0], "boolean")
		}
		return a.fn(op, tBool, args, strictRow(tBool, func(v []any) (any, *RowError) { return !v[0].(bool), nil })), nil
	})
	reg("isnull isnotnull", 1, 1, func(a *analyzer, op string, args []node) (node, error) {
		want := op == "isnull"
		return a.fn(op, tBool, args, func(c *ctx, f *fnNode) (*vec, error) {
			x, err := f.args[0].eval(c)
			if err != nil {
				return nil, err
			}
			out := newVec(tBool, c.n)
			for i := 0; i < c.n; i++ {
				if e := x.errAt(i); e != nil {
					out.setErr(i, e)
					continue
				}
				out.b[i] = x.isNull(i) == want
			}
			return out, nil
		}), nil
	})
	reg("is-unknown is-not-unknown", 1, 1, func(a *analyzer, op string, args []node) (node, error) {
		// Spark's IsUnknown/IsNotUnknown expect a boolean (NULL is fine):
		// 1 IS UNKNOWN is DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE.
		if k := args[0].typ().Kind; k != udf.Boolean && !isVoid(args[0].typ()) {
			return nil, mismatch(strings.ToUpper(strings.ReplaceAll(op, "-", " ")), args[0], "boolean")
		}
		name := "isnull"
		if op == "is-not-unknown" {
			name = "isnotnull"
		}
		return builtins[name].build(a, name, args)
	})
	reg("in", 2, -1, func(a *analyzer, op string, args []node) (node, error) {
		args, _, err := a.common("IN", args)
		if err != nil {
			return nil, err
		}
		if isVoid(args[0].typ()) {
			return &litNode{t: tBool}, nil
		}
		return a.fn(op, tBool, args, inList), nil
	})
	regRaw("between", 3, 3, func(a *analyzer, e *callAST) (node, error) {
		x := e.args[0]
		return a.call(call(e.pos, "and", call(e.pos, ">=", x, e.args[1]), call(e.pos, "<=", x, e.args[2])))
	})
	reg("coalesce nvl ifnull", 1, -1, func(a *analyzer, op string, args []node) (node, error) {
		if op != "coalesce" && len(args) != 2 {
			return nil, typeErrf("WRONG_NUM_ARGS.WITHOUT_SUGGESTION", "the function %s requires 2 parameters but the actual number is %d", op, len(args))
		}
		args, t, err := a.common(op, args)
		if err != nil {
			return nil, err
		}
		return a.fn(op, t, args, coalesce(t)), nil
	})
	reg("if", 3, 3, func(a *analyzer, op string, args []node) (node, error) {
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
	})
	reg("nvl2", 3, 3, func(a *analyzer, op string, args []node) (node, error) {
		vs, t, err := a.common("nvl2", args[1:])
		if err != nil {
			return nil, err
		}
		cond := a.fn("isnotnull", tBool, args[:1], builtinsFn(a, "isnotnull", args[:1]))
		return newCase(t, []node{cond}, vs[:1], vs[1]), nil
	})
	reg("nullif", 2, 2, func(a *analyzer, op string, args []node) (node, error) {
		l, r, err := a.compareOperands("=", args[0], args[1])
		if err != nil {
			return nil, err
		}
		eq := a.fn("=", tBool, []node{l, r}, comparison("="))
		return newCase(args[0].typ(), []node{eq}, []node{&litNode{t: args[0].typ()}}, args[0]), nil
	})
	reg("raise_error", 1, 1, func(a *analyzer, op string, args []node) (node, error) {
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
	})
	reg("$timestamp_literal", 1, 1, func(a *analyzer, op string, args []node) (node, error) {
		s := args[0].(*litNode).v.(string)
		v, ok, e := parseTimestamp(trimAll(s), a.loc)
		if e != nil || !ok {
			return nil, &SyntaxError{Msg: "cannot parse the TIMESTAMP value: " + s}
		}
		return &litNode{t: tTS, v: v}, nil
	})
}

// builtinsFn returns the evaluation function of a simple builtin.
func builtinsFn(a *analyzer, name string, args []node) func(c *ctx, f *fnNode) (*vec, error) {
	n, _ := builtins[name].build(a, name, args)
	return n.(*fnNode).fn
}

func minOf(t *udf.Type) int64 {
	switch t.Kind {
	case udf.Byte:
		return math.MinInt8
	case udf.Short:
		return math.MinInt16
	case udf.Int:
		return math.MinInt32
	}
	return math.MinInt64
}

func overflowName(t *udf.Type) string {
	switch t.Kind {
	case udf.Byte:
		return "byte"
	case udf.Short:
		return "short"
	case udf.Int:
		return "integer"
	}
	return "long"
}

// compareOperands coerces both sides of a comparison to one type.
// Verified in Spark 4.1.1: '1.5' = 1 is true with ANSI off (the string is
// cast to the other side's type) and fails casting to BIGINT with ANSI on;
// 1.5 = '1.5' is true in both (double).
func (a *analyzer) compareOperands(op string, l, r node) (node, node, error) {
	lt, rt := l.typ(), r.typ()
	var t *udf.Type
	switch {
	case lt.Equal(rt):
		return l, r, nil
	case isVoid(lt):
		t = rt
	case isVoid(rt):
		t = lt
	case lt.IsNumeric() && rt.IsNumeric():
		if lt.Kind == udf.Decimal || rt.Kind == udf.Decimal {
			if isIntegral(lt) {
				lt = intLitDecimal(l)
			}
			if isIntegral(rt) {
				rt = intLitDecimal(r)
			}
		}
		t = widerNumeric(lt, rt, a.ansi)
	case lt.Kind == udf.String || rt.Kind == udf.String:
		o := rt
		if rt.Kind == udf.String {
			o = lt
		}
		switch {
		case o.Kind == udf.Date || o.Kind == udf.Timestamp || o.Kind == udf.Boolean:
			t = o
		case !a.ansi && o.IsNumeric():
			t = o
		case a.ansi && isIntegral(o):
			t = tLong
		case a.ansi && o.IsNumeric():
			t = tDouble
		}
	case (lt.Kind == udf.Date || lt.Kind == udf.Timestamp) && (rt.Kind == udf.Date || rt.Kind == udf.Timestamp):
		t = tTS
	case lt.Kind == udf.Array && rt.Kind == udf.Array:
		if w, ok := wider2(lt, rt, a.ansi); ok {
			t = w
		}
	}
	if t == nil {
		return nil, nil, typeErrf("DATATYPE_MISMATCH.BINARY_OP_DIFF_TYPES", "the left and right operands of the binary operator %s have incompatible types (%s and %s)", op, l.typ(), r.typ())
	}
	var err error
	if l, err = a.cast(l, t, false, false); err != nil {
		return nil, nil, err
	}
	if r, err = a.cast(r, t, false, false); err != nil {
		return nil, nil, err
	}
	return l, r, nil
}
