package engine

import (
	"math"
	"strings"
	"unicode/utf8"

	"github.com/udfx/udfx/harness/udf"
)

// predicateFuncs is Spark's predicate_funcs group: comparisons, logic,
// null tests, IN, isnan and the pattern matches (LIKE, RLIKE).
var predicateFuncs = []funcDef{
	{"= != < <= > >= <=>", 2, 2, buildComparison, nil},
	{"and or", 2, 2, buildAndOr, nil},
	{"not", 1, 1, buildNot, nil},
	{"isnull isnotnull", 1, 1, buildIsNull, nil},
	{"is-unknown is-not-unknown", 1, 1, buildIsUnknown, nil},
	{"in", 2, -1, buildIn, nil},
	{"isnan", 1, 1, buildIsNaN, nil},
	{"rlike regexp regexp_like", 2, 2, buildRLike, nil},
	{"like ilike", 2, 3, buildLike, nil},
}

func buildComparison(a *analyzer, op string, args []node) (node, error) {
	l, r, err := a.compareOperands(op, args[0], args[1])
	if err != nil {
		return nil, err
	}
	return a.fn(op, tBool, []node{l, r}, comparison(op)), nil
}

func buildAndOr(a *analyzer, op string, args []node) (node, error) {
	for i, x := range args {
		if isVoid(x.typ()) {
			args[i] = &litNode{t: tBool}
		} else if x.typ().Kind != udf.Boolean {
			return nil, mismatch(strings.ToUpper(op), x, "boolean")
		}
	}
	return a.fn(op, tBool, args, logic(op == "and")), nil
}

func buildNot(a *analyzer, op string, args []node) (node, error) {
	if isVoid(args[0].typ()) {
		args[0] = &litNode{t: tBool}
	} else if args[0].typ().Kind != udf.Boolean {
		return nil, mismatch("NOT", args[0], "boolean")
	}
	return a.fn(op, tBool, args, strictRow(tBool, func(v []any) (any, *RowError) { return !v[0].(bool), nil })), nil
}

func buildIsNull(a *analyzer, op string, args []node) (node, error) {
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
}

func buildIsUnknown(a *analyzer, op string, args []node) (node, error) {
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
}

func buildIn(a *analyzer, op string, args []node) (node, error) {
	args, _, err := a.common("IN", args)
	if err != nil {
		return nil, err
	}
	if isVoid(args[0].typ()) {
		return &litNode{t: tBool}, nil
	}
	return a.fn(op, tBool, args, inList), nil
}

func buildIsNaN(a *analyzer, name string, args []node) (node, error) {
	x, err := a.numericArg(name, args[0], tDouble)
	if err != nil {
		return nil, err
	}
	return a.fn(name, tBool, []node{x}, anyRow(tBool, func(v []any) (any, *RowError) {
		return v[0] != nil && math.IsNaN(v[0].(float64)), nil
	})), nil
}

func buildRLike(a *analyzer, name string, args []node) (node, error) {
	args, err := a.typedArgs(name, args, "s")
	if err != nil {
		return nil, err
	}
	re, isNull, err := constPattern(name, args[1])
	if err != nil {
		return nil, err
	}
	if isNull {
		return &litNode{t: tBool}, nil
	}
	return a.fn(name, tBool, args[:1], strictRow(tBool, func(v []any) (any, *RowError) {
		s := v[0].(string)
		if e := re.check(s); e != nil {
			return nil, e
		}
		return re.re.MatchString(s), nil // Matcher.find: anywhere
	})), nil
}

func buildLike(a *analyzer, name string, args []node) (node, error) {
	args, err := a.typedArgs(name, args, "s")
	if err != nil {
		return nil, err
	}
	l, ok := args[1].(*litNode)
	if !ok {
		return nil, &UnsupportedFunctionError{Name: name + " with a non-constant pattern"}
	}
	if l.v == nil {
		return &litNode{t: tBool}, nil
	}
	esc := '\\'
	if len(args) == 3 {
		el, ok := args[2].(*litNode)
		if !ok || el.v == nil || utf8.RuneCountInString(el.v.(string)) != 1 {
			return nil, typeErrf("INVALID_ESCAPE_CHAR", "the escape character must be one character")
		}
		esc, _ = utf8.DecodeRuneInString(el.v.(string))
	}
	pat := l.v.(string)
	if name == "ilike" {
		// Spark runs a ILIKE p as lower(a) LIKE lower(p), and its
		// optimizer then drops a case conversion a holds on top.
		if args[0], err = underCaseConversion(name, args[0]); err != nil {
			return nil, err
		}
		// The pattern is lowercased as a string, wildcards and all: a Σ
		// before % is final ('ΑΣ%' is 'ας%'), as in Spark.
		pat = sparkLower(pat)
	}
	re, err := likeRegex(pat, esc)
	if err != nil {
		return nil, err
	}
	return a.fn(name, tBool, args[:1], strictRow(tBool, func(v []any) (any, *RowError) {
		s := v[0].(string)
		if name == "ilike" {
			s = sparkLower(s)
		}
		return re.MatchString(s), nil
	})), nil
}

// likeRegex translates a LIKE pattern: % any run, _ one character, the
// escape character makes the next one literal; (?s) since LIKE's
// wildcards match line terminators.
func likeRegex(p string, esc rune) (*regexpT, error) {
	var b strings.Builder
	b.WriteString(`(?s)\A`)
	r := runes(p)
	for i := 0; i < len(r); i++ {
		c := r[i]
		switch {
		case c == esc:
			if i+1 >= len(r) {
				return nil, typeErrf("INVALID_FORMAT.ESC_AT_THE_END", "the LIKE pattern %q ends with the escape character", p)
			}
			n := r[i+1]
			if n != '%' && n != '_' && n != esc {
				return nil, typeErrf("INVALID_FORMAT.ESC_IN_THE_MIDDLE", "the escape character in the LIKE pattern %q is not followed by %%, _ or itself", p)
			}
			b.WriteString(quoteRune(n))
			i++
		case c == '%':
			b.WriteString(`.*`)
		case c == '_':
			b.WriteString(`.`)
		default:
			b.WriteString(quoteRune(c))
		}
	}
	b.WriteString(`\z`)
	return compileRegexp(b.String())
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
