package translate

import (
	"fmt"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/udfx/udfx/harness/pycase"
	"github.com/udfx/udfx/harness/translate/ir"
	"github.com/udfx/udfx/harness/udf"
)

// pyDecimalRanges are the runs of Unicode decimal digits (category Nd)
// beyond ASCII, each run counting 0..9 (some several times): CPython's
// float() reads any of them as the ASCII digit of its value.
// TestPythonDecimalDigitsMatchCPython checks them against unicodedata.
var pyDecimalRanges = [][2]rune{{0x660, 0x669}, {0x6F0, 0x6F9}, {0x7C0, 0x7C9}, {0x966, 0x96F}, {0x9E6, 0x9EF}, {0xA66, 0xA6F}, {0xAE6, 0xAEF}, {0xB66, 0xB6F}, {0xBE6, 0xBEF}, {0xC66, 0xC6F}, {0xCE6, 0xCEF}, {0xD66, 0xD6F}, {0xDE6, 0xDEF}, {0xE50, 0xE59}, {0xED0, 0xED9}, {0xF20, 0xF29}, {0x1040, 0x1049}, {0x1090, 0x1099}, {0x17E0, 0x17E9}, {0x1810, 0x1819}, {0x1946, 0x194F}, {0x19D0, 0x19D9}, {0x1A80, 0x1A89}, {0x1A90, 0x1A99}, {0x1B50, 0x1B59}, {0x1BB0, 0x1BB9}, {0x1C40, 0x1C49}, {0x1C50, 0x1C59}, {0xA620, 0xA629}, {0xA8D0, 0xA8D9}, {0xA900, 0xA909}, {0xA9D0, 0xA9D9}, {0xA9F0, 0xA9F9}, {0xAA50, 0xAA59}, {0xABF0, 0xABF9}, {0xFF10, 0xFF19}, {0x104A0, 0x104A9}, {0x10D30, 0x10D39}, {0x11066, 0x1106F}, {0x110F0, 0x110F9}, {0x11136, 0x1113F}, {0x111D0, 0x111D9}, {0x112F0, 0x112F9}, {0x11450, 0x11459}, {0x114D0, 0x114D9}, {0x11650, 0x11659}, {0x116C0, 0x116C9}, {0x11730, 0x11739}, {0x118E0, 0x118E9}, {0x11950, 0x11959}, {0x11C50, 0x11C59}, {0x11D50, 0x11D59}, {0x11DA0, 0x11DA9}, {0x16A60, 0x16A69}, {0x16AC0, 0x16AC9}, {0x16B50, 0x16B59}, {0x1D7CE, 0x1D7FF}, {0x1E140, 0x1E149}, {0x1E2F0, 0x1E2F9}, {0x1E950, 0x1E959}, {0x1FBF0, 0x1FBF9}}

// pyDigitOnlyRanges are the characters whose Numeric_Type is Digit but
// not Decimal (superscripts, circled digits): str.isdigit() counts them
// with the decimal digits, int() and float() do not read them.
// TestPythonDigitClassesMatchCPython checks both sets against CPython.
var pyDigitOnlyRanges = [][2]rune{{0xB2, 0xB3}, {0xB9, 0xB9}, {0x1369, 0x1371}, {0x19DA, 0x19DA}, {0x2070, 0x2070}, {0x2074, 0x2079}, {0x2080, 0x2089}, {0x2460, 0x2468}, {0x2474, 0x247C}, {0x2488, 0x2490}, {0x24EA, 0x24EA}, {0x24F5, 0x24FD}, {0x24FF, 0x24FF}, {0x2776, 0x277E}, {0x2780, 0x2788}, {0x278A, 0x2792}, {0x10A40, 0x10A43}, {0x10E60, 0x10E68}, {0x11052, 0x1105A}, {0x1F100, 0x1F10A}}

// pyDecimalDigitRanges are the characters of str.isdecimal(): ASCII's
// digits and pyDecimalRanges.
func pyDecimalDigitRanges() [][2]rune {
	return append([][2]rune{{'0', '9'}}, pyDecimalRanges...)
}

// pyDigitRanges are the characters of str.isdigit().
func pyDigitRanges() [][2]rune {
	return append(pyDecimalDigitRanges(), pyDigitOnlyRanges...)
}

// runsOf is the set of s's characters as ranges of one.
func runsOf(s string) [][2]rune {
	var out [][2]rune
	for _, r := range s {
		out = append(out, [2]rune{r, r})
	}
	return out
}

// pyClass is a Java regular-expression class matching one character of
// the ranges, spelled with \x{…} escapes.
func pyClass(ranges [][2]rune) string {
	var b strings.Builder
	b.WriteByte('[')
	for _, r := range ranges {
		fmt.Fprintf(&b, `\x{%X}`, r[0])
		if r[1] > r[0] {
			fmt.Fprintf(&b, `-\x{%X}`, r[1])
		}
	}
	b.WriteByte(']')
	return b.String()
}

// pyDigitsFrom and pyDigitsTo translate each non-ASCII decimal digit to
// its ASCII digit (Spark's translate works on code points).
var pyDigitsFrom, pyDigitsTo = func() (string, string) {
	var from, to strings.Builder
	for _, r := range pyDecimalRanges {
		for c := r[0]; c <= r[1]; c++ {
			from.WriteRune(c)
			to.WriteByte(byte('0' + (c-r[0])%10))
		}
	}
	return from.String(), to.String()
}()

// pyTry translates the one try statement form of a parse with a
// fallback (float, or int as a bigint UDF's result):
//
//	try:                          try:
//	    return float(s)               v = float(s)
//	except ValueError:            except (ValueError, TypeError):
//	    return F                      v = F
//	                              ...rest, reading v
//
// The except clause must catch ValueError (ValueError, Exception,
// BaseException or a bare except); whether it catches TypeError decides
// what float(None) gives: F, or a raise. Nothing else in the try body may
// raise, so that the handler runs exactly where float() fails.
func (t *tr) pyTry(s *sitter.Node, rest []*sitter.Node, e env) *binding {
	var handlers []*sitter.Node
	for _, c := range namedNonComment(s) {
		switch c.Kind() {
		case "block":
		case "except_clause":
			handlers = append(handlers, c)
		default:
			t.decline(c, "try with "+c.Kind(), "only a try with one except clause is translated")
			return nil
		}
	}
	body := namedNonComment(s.ChildByFieldName("body"))
	if len(handlers) != 1 || len(body) != 1 {
		t.decline(s, "Python try_statement", "only a try whose body is one return or assignment of float(...) and one except clause is translated")
		return nil
	}
	h := handlers[0]
	var caught []string
	var hbody []*sitter.Node
	for _, c := range namedNonComment(h) {
		switch c.Kind() {
		case "block":
			hbody = namedNonComment(c)
		case "identifier", "attribute":
			caught = append(caught, t.text(c))
		case "tuple", "parenthesized_expression":
			for _, x := range namedNonComment(c) {
				caught = append(caught, t.text(x))
			}
		default:
			t.decline(c, "except "+t.text(c), "only except clauses naming exception classes are translated (no )")
			return nil
		}
	}
	catches := func(name string) bool { return pyCatches(caught, name) }
	if len(hbody) != 1 {
		t.decline(h, "an except block of several statements", "not translated")
		return nil
	}
	// The two forms: return / return, or the same name assigned in both.
	parse, fallback, name := tryForm(t, body[0], hbody[0])
	if parse == nil {
		t.decline(s, "Python try_statement", "only a try whose body is one return or assignment of float(...) and one except clause is translated")
		return nil
	}
	fn := ""
	if parse.Kind() == "call" {
		fn = t.text(parse.ChildByFieldName("function"))
	}
	if fn != "float" && fn != "int" || len(namedNonComment(parse.ChildByFieldName("arguments"))) != 1 {
		res := t.pyTryExpr(h, caught, parse, fallback, e)
		if res == nil || name == "" {
			return res
		}
		return t.pyStmts(rest, e.with(name, *res))
	}
	if !catches("ValueError") {
		t.decline(h, "except "+strings.Join(caught, ", "), "a handler that does not catch "+fn+"()'s ValueError is not translated")
		return nil
	}
	ty, parseFn := tDouble, ir.PyFloatOrElse
	if fn == "int" {
		ty, parseFn = tLong, ir.PyIntOrElse
	}
	arg := t.pyExpr(namedNonComment(parse.ChildByFieldName("arguments"))[0], e)
	if arg == nil {
		return nil
	}
	if !isString(arg.e) {
		t.decline(parse, fn+" of "+typeName(arg.e), "only "+fn+"() of a str is translated")
		return nil
	}
	// What the argument raises is caught too: the fallback where it does.
	argRaises := t.caughtRaises(parse, h, caught, arg.e)
	if argRaises == nil {
		return nil
	}
	fb := t.pyExpr(fallback, e)
	if fb == nil {
		return nil
	}
	if ft := fb.e.Type(); ft != nil && !ft.Equal(ty) {
		if l, ok := fb.e.(*ir.Lit); ok && fn == "int" && l.T != nil && l.T.Kind == udf.Int {
			fb = &binding{e: &ir.Lit{T: tLong, Value: l.Value}}
		} else {
			// A fallback of another Python type: the variable's type
			// would depend on the input.
			t.decline(fallback, "a fallback of type "+typeName(fb.e)+" for "+fn+"()", "the result's type would depend on the input; only a "+ty.String()+" or None fallback is translated")
			return nil
		}
	}
	fbe := fb.e
	if fbe.Type() == nil {
		fbe = &ir.Lit{T: ty}
	}
	str := func(v string) ir.Expr { return &ir.Lit{T: tString, Value: v} }
	// The Unicode digits are the pinned CPython's (Unicode adds some in
	// most versions).
	t.pythonUnicode = pycase.Unicode()
	var v ir.Expr = &ir.Call{Fn: parseFn, Args: []ir.Expr{arg.e, fbe, str(pyNumberWhitespace), str(pyDigitsFrom), str(pyDigitsTo)}, T: ty}
	if arg.nullable {
		var none ir.Expr = fbe
		if !catches("TypeError") {
			none = &ir.Raise{Msg: "udfx: the original throws " + asciiSnippet("TypeError where "+t.text(parse)+" gets None"), T: ty}
		}
		v = &ir.If{Cond: &ir.IsNull{X: arg.e}, Then: none, Else: v}
	}
	if c := *argRaises; c != nil {
		v = &ir.If{Cond: c, Then: fbe, Else: v}
	}
	res := &binding{e: v, nullable: fb.nullable || fb.e.Type() == nil}
	if name == "" {
		return res
	}
	return t.pyStmts(rest, e.with(name, *res))
}

// pyTryExpr is try: E except …: F for an E other than float() or int():
// F where E raises an exception the clause catches, else E. Every raise
// of E must be one the translator tracks (raiseCondition) and one the
// clause catches; F must be of E's type or None, since a value of
// another type would make the result's type depend on the row.
func (t *tr) pyTryExpr(h *sitter.Node, caught []string, body, fallback *sitter.Node, e env) *binding {
	b := t.pyExpr(body, e)
	if b == nil {
		return nil
	}
	raises := t.caughtRaises(body, h, caught, b.e)
	if raises == nil {
		return nil
	}
	if *raises == nil {
		// Nothing E raises is caught: the handler never runs.
		return b
	}
	fb := t.pyExpr(fallback, e)
	if fb == nil {
		return nil
	}
	ty := b.e.Type()
	fbe := fb.e
	switch ft := fbe.Type(); {
	case ft == nil:
		fbe = &ir.Lit{T: ty}
	case ty == nil || !ft.Equal(ty):
		t.decline(fallback, "a fallback of type "+typeName(fb.e)+" for "+typeName(b.e), "the result's type would depend on the input; only a fallback of the same type or None is translated")
		return nil
	}
	return &binding{e: &ir.If{Cond: *raises, Then: fbe, Else: b.e}, nullable: b.nullable || fb.nullable || fb.e.Type() == nil}
}

// caughtRaises is the condition where x, the translation of the try body
// n, raises an exception that the except clause h catches first (a nil
// condition: never), or nil after a decline where udfx cannot tell what x
// raises. An exception the clause does not catch goes through: x raises
// it where the condition is false.
func (t *tr) caughtRaises(n, h *sitter.Node, caught []string, x ir.Expr) *ir.Expr {
	r, ok := raiseCondition(x, func(class string) bool { return pyCatches(caught, class) })
	if !ok {
		t.decline(n, "a try body that may raise where udfx does not track it", "only raises the translator models (None, a missing key or list index, a zero divisor) are caught; "+asciiSnippet(t.text(n))+" holds another")
		return nil
	}
	return &r.caught
}

// tryForm matches the try and except statements: (return E, return F)
// or (N = E, N = F); it returns E, F and N ("" for the return form).
func tryForm(t *tr, try, handler *sitter.Node) (parse, fallback *sitter.Node, name string) {
	if try.Kind() == "return_statement" && handler.Kind() == "return_statement" && try.NamedChildCount() == 1 && handler.NamedChildCount() == 1 {
		return try.NamedChild(0), handler.NamedChild(0), ""
	}
	assign := func(n *sitter.Node) (string, *sitter.Node) {
		if n.Kind() != "expression_statement" || n.NamedChildCount() != 1 {
			return "", nil
		}
		a := n.NamedChild(0)
		if a.Kind() != "assignment" || a.ChildByFieldName("type") != nil || a.ChildByFieldName("left").Kind() != "identifier" {
			return "", nil
		}
		return t.text(a.ChildByFieldName("left")), a.ChildByFieldName("right")
	}
	n1, e1 := assign(try)
	n2, e2 := assign(handler)
	if e1 == nil || e2 == nil || n1 != n2 {
		return nil, nil, ""
	}
	return e1, e2, n1
}

// containsRaise reports whether e can raise on its own (a Raise node).
func containsRaise(e ir.Expr) bool {
	switch e := e.(type) {
	case *ir.Raise:
		return true
	case *ir.Call:
		// These raise through their own SQL.
		switch e.Fn {
		case ir.PyCharAt, ir.ElementAt, ir.PyIntOfFloat, ir.PyIntOrElse, ir.PyRoundOfFloat, ir.PyFloorOfFloat, ir.PyCeilOfFloat,
			ir.PyDateYear, ir.PyDateMonth, ir.PyDateDay, ir.PyWeekday, ir.PyIsoWeekday, ir.PyIsoFormat, ir.PyDaysBetween,
			ir.PyUTCStrftime, ir.PyDateStrftime, ir.PyDateAddDays:
			return true
		}
	}
	for _, c := range ir.Children(e) {
		if containsRaise(c) {
			return true
		}
	}
	return false
}
