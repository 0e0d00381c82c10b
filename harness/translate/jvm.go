package translate

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/udfx/udfx/harness/jdkcase"
	"github.com/udfx/udfx/harness/translate/ir"
	"github.com/udfx/udfx/harness/udf"
)

// This file holds the rules Scala and Java share: the JVM's numeric
// promotion and operators, unboxing, and java.lang.Math.

// unbox gives the primitive value of b where the JVM unboxes it. Scala's
// implicit java.lang.Double => Double turns null into 0 (checked on the
// real JVM: docs/semantics.md, TestJavaUnboxingNullThrows); Java's
// unboxing throws NullPointerException, which is declined; CPython
// raises TypeError on None in arithmetic, also declined.
func (t *tr) unbox(n *sitter.Node, b binding) ir.Expr {
	if !b.nullable {
		return b.e
	}
	ty := b.e.Type()
	switch t.u.Language {
	case udf.Scala:
		var zero any
		switch {
		case ir.IsDouble(ty):
			zero = 0.0
		case ir.IsIntegral(ty):
			zero = int64(0)
		case isBool(ty):
			zero = false
		default:
			t.decline(n, "implicit unboxing of a possibly-null "+ty.String(), "only numbers and booleans unbox")
			return nil
		}
		return &ir.If{Cond: &ir.IsNull{X: b.e}, Then: &ir.Lit{T: ty, Value: zero}, Else: b.e}
	case udf.Java:
		t.decline(n, "unboxing a possibly-null "+ty.String(), "Java throws NullPointerException for a NULL input; check for null first")
	default:
		t.decline(n, "arithmetic on a value that may be None", "CPython raises TypeError for a NULL input; check `is None` first")
	}
	return nil
}

// unboxOrThrow is unbox where the original certainly throws on a null:
// Java's unboxing in an operator, a condition, a cast, a switch or a
// primitive local (NullPointerException), CPython's arithmetic, ordering
// and abs() (TypeError). The rewrite raises on exactly those rows. Where
// a null may instead reach a method that takes it boxed (String.valueOf,
// Objects.equals, `var`) or compare equal (None == x is False), callers
// use unbox, which declines.
func (t *tr) unboxOrThrow(n *sitter.Node, b binding) ir.Expr {
	if !b.nullable || t.u.Language == udf.Scala {
		return t.unbox(n, b)
	}
	ty := b.e.Type()
	if !(ir.IsDouble(ty) || ir.IsIntegral(ty) || isBool(ty) || t.u.Language == udf.Python && isString(b.e)) {
		return t.unbox(n, b)
	}
	what := "TypeError where " + t.text(n) + " is None"
	if t.u.Language == udf.Java {
		what = "NullPointerException where " + t.text(n) + " is null"
	}
	return raiseWhereNull(b.e, b.e, what)
}

// declineCharOperator declines op on a char operand unless it is a
// string concatenation: a char is held as a one-character string, but
// the JVM adds two chars, or a char and a number, as ints ('a' + 1 is
// 98), and compares chars by their UTF-16 code.
func (t *tr) declineCharOperator(n *sitter.Node, op string, l, r *binding) bool {
	if !l.char && !r.char || op == "+" && (isString(l.e) && !l.char || isString(r.e) && !r.char) {
		return false
	}
	char := "char"
	if t.u.Language == udf.Scala {
		char = "Char"
	}
	t.decline(n, "operator "+op+" on a "+char, char+" arithmetic and comparison are on its UTF-16 code; not translated")
	return true
}

// raiseWhereNull is res where x is not NULL and a failed row, saying
// what the original throws, where it is.
func raiseWhereNull(x, res ir.Expr, what string) ir.Expr {
	return &ir.If{Cond: &ir.IsNull{X: x}, Then: &ir.Raise{Msg: "udfx: the original throws " + asciiSnippet(what), T: res.Type()}, Else: res}
}

// asciiSnippet keeps a message short, on one line and printable ASCII,
// whatever the source text it quotes holds.
func asciiSnippet(s string) string {
	var out []byte
	for _, r := range s {
		if len(out) >= 100 {
			return string(out) + "..."
		}
		if r < 0x20 || r > 0x7e {
			r = ' '
		}
		out = append(out, byte(r))
	}
	return string(out)
}

// promote applies the JVM's binary numeric promotion: int < long <
// double. It returns nil for a non-numeric operand.
func promote(l, r ir.Expr) (ir.Expr, ir.Expr, *udf.Type) {
	rank := func(t *udf.Type) int {
		switch {
		case t == nil:
			return -1
		case t.Kind == udf.Int:
			return 1
		case t.Kind == udf.Long:
			return 2
		case t.Kind == udf.Double:
			return 3
		}
		return -1
	}
	a, b := rank(l.Type()), rank(r.Type())
	if a < 0 || b < 0 {
		return nil, nil, nil
	}
	top := l.Type()
	if b > a {
		top = r.Type()
	}
	return widen(l, top), widen(r, top), top
}

// widen converts e to ty as the JVM's widening does: int to long is
// exact; int and long to double round to nearest even, as Spark's CAST.
func widen(e ir.Expr, ty *udf.Type) ir.Expr {
	if e.Type().Equal(ty) {
		return e
	}
	if l, ok := e.(*ir.Lit); ok {
		if v, ok := l.Value.(int64); ok && ty.Kind == udf.Double {
			return &ir.Lit{T: ty, Value: float64(v)}
		}
		return &ir.Lit{T: ty, Value: l.Value}
	}
	return &ir.Cast{Kind: ir.Widen, X: e, To: ty}
}

// jvmBinary builds a JVM arithmetic or comparison operator on two
// unboxed operands.
func (t *tr) jvmBinary(n *sitter.Node, op string, l, r ir.Expr) ir.Expr {
	return t.jvmArith(n, op, l, r, false)
}

// jvmArith is jvmBinary where the caller may know the right operand is
// not zero (binding.nonZero), so a double division by it is Spark's.
func (t *tr) jvmArith(n *sitter.Node, op string, l, r ir.Expr, rNonZero bool) ir.Expr {
	if op == "&&" || op == "||" {
		if !isBool(l.Type()) || !isBool(r.Type()) {
			t.decline(n, "operator "+op+" on non-booleans", "only boolean logic is translated")
			return nil
		}
		o := ir.And
		if op == "||" {
			o = ir.Or
		}
		return &ir.Binary{Op: o, L: l, R: r, T: tBool}
	}
	if cmp, ok := cmpOps[op]; ok && isBool(l.Type()) && isBool(r.Type()) && (op == "==" || op == "!=") {
		return &ir.Binary{Op: cmp, L: l, R: r, T: tBool}
	}
	pl, pr, ty := promote(l, r)
	if ty == nil {
		t.decline(n, "operator "+op+" on "+typeName(l)+" and "+typeName(r), "only numeric operands are translated")
		return nil
	}
	if cmp, ok := cmpOps[op]; ok {
		return &ir.Binary{Op: cmp, L: pl, R: pr, T: tBool}
	}
	if ty.Kind == udf.Long {
		o := map[string]ir.Op{"+": ir.JavaLongAdd, "-": ir.JavaLongSub, "*": ir.JavaLongMul, "/": ir.JavaLongDiv, "%": ir.JavaIntRem}[op]
		if o == "" {
			t.decline(n, "long operator "+op, "not translated")
			return nil
		}
		return &ir.Binary{Op: o, L: pl, R: pr, T: ty}
	}
	dbl := ty.Kind == udf.Double
	var o ir.Op
	switch op {
	case "+":
		o = pick(dbl, ir.DoubleAdd, ir.JavaIntAdd)
	case "-":
		o = pick(dbl, ir.DoubleSub, ir.JavaIntSub)
	case "*":
		o = pick(dbl, ir.DoubleMul, ir.JavaIntMul)
	case "/":
		if dbl && !rNonZero && !ir.NonZeroConst(pr) {
			t.decline(n, "double division by a value that may be zero", "the JVM gives ±Infinity or NaN, Spark with ANSI on raises DIVIDE_BY_ZERO")
			return nil
		}
		o = pick(dbl, ir.DoubleDivNonZero, ir.JavaIntDiv)
		if dbl && !ir.NonZeroConst(pr) {
			o = ir.DoubleDivGuarded
		}
	case "%":
		if dbl && !rNonZero && !ir.NonZeroConst(pr) {
			t.decline(n, "double remainder by a value that may be zero", "the JVM gives NaN, Spark with ANSI on raises REMAINDER_BY_ZERO")
			return nil
		}
		o = pick(dbl, ir.DoubleRemNonZero, ir.JavaIntRem)
		if dbl && !ir.NonZeroConst(pr) {
			o = ir.DoubleRemGuarded
		}
	default:
		t.decline(n, "operator "+op, "not translated")
		return nil
	}
	return &ir.Binary{Op: o, L: pl, R: pr, T: ty}
}

var cmpOps = map[string]ir.Op{"==": ir.Eq, "!=": ir.Ne, "<": ir.Lt, "<=": ir.Le, ">": ir.Gt, ">=": ir.Ge}

func pick(c bool, a, b ir.Op) ir.Op {
	if c {
		return a
	}
	return b
}

func typeName(e ir.Expr) string {
	if e.Type() == nil {
		return "null"
	}
	return e.Type().String()
}

// jvmNeg is unary minus.
func (t *tr) jvmNeg(n *sitter.Node, x ir.Expr) ir.Expr {
	if l, ok := x.(*ir.Lit); ok {
		switch v := l.Value.(type) {
		case float64:
			return &ir.Lit{T: l.T, Value: -v}
		case int64:
			if l.T.Kind == udf.Int && v != math.MinInt32 || l.T.Kind == udf.Long && v != math.MinInt64 {
				return &ir.Lit{T: l.T, Value: -v}
			}
		}
	}
	switch {
	case ir.IsDouble(x.Type()):
		return &ir.Unary{Op: ir.DoubleNeg, X: x, T: x.Type()}
	case x.Type().Kind == udf.Int:
		return &ir.Unary{Op: ir.IntNegWrap, X: x, T: x.Type()}
	case x.Type().Kind == udf.Long:
		return &ir.Unary{Op: ir.LongNegWrap, X: x, T: x.Type()}
	}
	t.decline(n, "unary minus on "+typeName(x), "not translated")
	return nil
}

// jvmMath translates java.lang.Math / scala.math functions.
func (t *tr) jvmMath(n *sitter.Node, name string, args []ir.Expr) ir.Expr {
	one := len(args) == 1
	switch {
	case name == "sqrt" && one:
		return &ir.Call{Fn: ir.Sqrt, Args: []ir.Expr{widen(args[0], tDouble)}, T: tDouble}
	case name == "abs" && one && ir.IsDouble(args[0].Type()):
		return &ir.Call{Fn: ir.AbsDouble, Args: args, T: tDouble}
	case name == "abs" && one && ir.IsIntegral(args[0].Type()):
		return &ir.Call{Fn: ir.AbsIntegral, Args: args, T: args[0].Type()}
	case (name == "floor" || name == "ceil") && one:
		fn := ir.FloorDouble
		if name == "ceil" {
			fn = ir.CeilDouble
		}
		return &ir.Call{Fn: fn, Args: []ir.Expr{widen(args[0], tDouble)}, T: tDouble}
	case (name == "max" || name == "min") && len(args) == 2:
		l, r, ty := promote(args[0], args[1])
		if ty == nil {
			t.decline(n, "Math."+name+" on "+typeName(args[0])+" and "+typeName(args[1]), "only numbers are translated")
			return nil
		}
		fn := ir.MaxInt
		switch {
		case ir.IsDouble(ty) && name == "max":
			fn = ir.MaxDouble
		case ir.IsDouble(ty):
			fn = ir.MinDouble
		case name == "min":
			fn = ir.MinInt
		}
		return &ir.Call{Fn: fn, Args: []ir.Expr{l, r}, T: ty}
	case name == "round" && one && ir.IsDouble(args[0].Type()):
		return &ir.Call{Fn: ir.RoundDoubleToLong, Args: args, T: tLong}
	case name == "round" && one:
		t.decline(n, "Math.round on "+typeName(args[0]), "only Math.round(double) is translated")
		return nil
	}
	t.decline(n, "math function "+name, "no exact Spark SQL translation is known")
	return nil
}

// maxTake bounds the count of a translated take: its SQL tries each
// prefix length from n/2 to n.
const maxTake = 64

// lenArg is the one int literal argument of a call.
func lenArg(args []ir.Expr) (int64, bool) {
	if len(args) != 1 {
		return 0, false
	}
	l, ok := args[0].(*ir.Lit)
	if !ok || l.T == nil || !ir.IsIntegral(l.T) {
		return 0, false
	}
	v, ok := l.Value.(int64)
	return v, ok
}

// jvmStringMethod translates the String methods that are exact.
func (t *tr) jvmStringMethod(n *sitter.Node, name string, recv ir.Expr, args []ir.Expr) ir.Expr {
	switch name {
	case "isEmpty":
		if len(args) == 0 {
			return &ir.Call{Fn: ir.IsEmpty, Args: []ir.Expr{recv}, T: tBool}
		}
	case "equals":
		if len(args) == 1 && args[0].Type() != nil && args[0].Type().Kind == udf.String {
			return &ir.Binary{Op: ir.StrEqNullSafe, L: t.sigmaBlind(recv, args[0], false), R: t.sigmaBlind(args[0], recv, false), T: tBool}
		}
	case "replace":
		// String.replace(CharSequence, CharSequence) replaces every
		// occurrence, left to right, literally, as Spark's replace does
		// for a non-empty search string (an empty one differs: Java
		// inserts the replacement between every char).
		if len(args) == 2 && isString(args[0]) && isString(args[1]) {
			if l, ok := args[0].(*ir.Lit); ok && l.Value != "" {
				if _, ok := args[1].(*ir.Lit); ok {
					return &ir.Call{Fn: ir.Replace, Args: []ir.Expr{recv, args[0], args[1]}, T: tString}
				}
			}
			t.decline(n, "String.replace", "only literal, non-empty search and literal replacement strings are translated (an empty search inserts between every char in Java, not in Spark)")
			return nil
		}
	case "startsWith", "endsWith", "contains":
		if len(args) == 1 && args[0].Type().Kind == udf.String {
			fn := map[string]ir.Func{"startsWith": ir.StartsWith, "endsWith": ir.EndsWith, "contains": ir.Contains}[name]
			return &ir.Call{Fn: fn, Args: []ir.Expr{t.sigmaBlind(recv, args[0], false), args[0]}, T: tBool}
		}
	case "length":
		if l, ok := recv.(*ir.Lit); ok && len(args) == 0 {
			if v, ok := l.Value.(string); ok {
				return &ir.Lit{T: tInt, Value: int64(len(utf16.Encode([]rune(v))))}
			}
		}
		if len(args) == 0 {
			return &ir.Call{Fn: ir.UTF16Length, Args: []ir.Expr{t.sigmaBlind(recv, nil, true)}, T: tInt}
		}
	case "charAt":
		t.decline(n, "String."+name, "the JVM counts UTF-16 code units, Spark counts code points, and a char may be half of a surrogate pair")
		return nil
	case "take":
		// Scala's StringOps.take: UTF-16 code units, a lone high
		// surrogate where n cuts a pair (ir.JVMTake).
		if l, ok := lenArg(args); ok && t.u.Language == udf.Scala && l <= maxTake {
			if l < 0 {
				l = 0
			}
			return &ir.Call{Fn: ir.JVMTake, Args: []ir.Expr{recv, &ir.Lit{T: tInt, Value: l}}, T: tString}
		}
		t.decline(n, "String.take", fmt.Sprintf("only a literal count up to %d is translated", maxTake))
		return nil
	case "trim", "strip", "stripLeading", "stripTrailing":
		if len(args) == 0 {
			chars := javaWhitespace
			if name == "trim" {
				chars = javaTrimChars
			}
			fn := map[string]ir.Func{"trim": ir.TrimBoth, "strip": ir.TrimBoth, "stripLeading": ir.TrimLeading, "stripTrailing": ir.TrimTrailing}[name]
			return &ir.Call{Fn: fn, Args: []ir.Expr{recv, &ir.Lit{T: tString, Value: chars}}, T: tString}
		}
	case "split":
		// Both split with java.util.regex; Java then drops the trailing
		// empty strings, which the rendered form does too.
		if len(args) == 1 {
			if l, ok := args[0].(*ir.Lit); ok && splitRegexOK(l.Value) {
				return &ir.Call{Fn: ir.JVMSplit, Args: []ir.Expr{recv, l}, T: udf.ArrayOf(tString)}
			}
		}
		t.decline(n, "String.split", "only a literal separator without regex metacharacters, or one escaped metacharacter (\\|), is translated")
		return nil
	case "replaceAll":
		if len(args) == 2 {
			pat, _ := args[0].(*ir.Lit)
			rep, _ := args[1].(*ir.Lit)
			if pat == nil || rep == nil {
				t.decline(n, "String.replaceAll", "only a literal pattern and a literal replacement are translated")
				return nil
			}
			if why := jvmRegexOK(pat.Value.(string)); why != "" {
				t.decline(n, "String.replaceAll", why+": only patterns that mean the same on every JDK without Unicode data are translated (jvmregex.go)")
				return nil
			}
			if strings.ContainsAny(rep.Value.(string), `$\`) {
				t.decline(n, "String.replaceAll", "a replacement with $ or \\, which name groups and escapes: only literal replacements are translated")
				return nil
			}
			if sigmaBlindPattern(pat.Value.(string)) {
				recv = t.sigmaBlind(recv, nil, true)
			}
			// The same java.util.regex find and appendReplacement loop.
			return &ir.Call{Fn: ir.RegexpReplace, Args: []ir.Expr{recv, pat, rep}, T: tString}
		}
	case "matches":
		// Pattern.matches(regex, s): the whole string, which find()
		// (Spark's RLIKE) anchored at both ends gives.
		if len(args) == 1 {
			pat, _ := args[0].(*ir.Lit)
			if pat == nil {
				t.decline(n, "String.matches", "only a literal pattern is translated")
				return nil
			}
			if why := jvmRegexOK(pat.Value.(string)); why != "" {
				t.decline(n, "String.matches", why+": only patterns that mean the same on every JDK without Unicode data are translated (jvmregex.go)")
				return nil
			}
			// A final $ on the whole pattern adds nothing to a whole
			// match, and the embedded engine cannot follow Java's $
			// before a line terminator: it goes.
			body, _ := trailingDollar(pat.Value.(string))
			return &ir.Call{Fn: ir.RegexpFind, Args: []ir.Expr{recv, &ir.Lit{T: tString, Value: `^(?:` + body + `)\z`}}, T: tBool}
		}
	case "toUpperCase":
		// Exact for the JDK package jdkcase's tables compare with Spark,
		// in the locale udfx's JVM runner gives the original (en_US) or
		// one the call names (caseLocale); the SQL keeps the code points
		// that JDK does not map.
		if len(args) == 0 {
			t.jdkCase = jdkcase.JDK()
			return &ir.Call{Fn: ir.JVMUpper, Args: []ir.Expr{recv}, T: tString}
		}
	case "toLowerCase":
		if len(args) == 0 {
			return t.lowerCall(recv)
		}
	}
	t.decline(n, "String."+name, "no rule proves a Spark SQL form equal to this String method")
	return nil
}

// caseLocale drops the argument of toUpperCase(Locale.ROOT) and the like:
// a locale other than tr, az and lt maps case as the runner's en_US does.
func (t *tr) caseLocale(name string, args []*sitter.Node) []*sitter.Node {
	if (name != "toUpperCase" && name != "toLowerCase") || len(args) != 1 {
		return args
	}
	switch strings.TrimPrefix(t.text(args[0]), "java.util.") {
	case "Locale.ROOT", "Locale.ENGLISH", "Locale.US", "Locale.UK":
		return nil
	}
	return args
}

// jvmConvert translates toInt/toLong/toDouble and Java casts.
func (t *tr) jvmConvert(n *sitter.Node, to string, x ir.Expr) ir.Expr {
	from := x.Type()
	switch to {
	case "double":
		// long to double rounds to nearest even, as Spark's CAST does.
		if ir.IsDouble(from) || from.Kind == udf.Int || from.Kind == udf.Long {
			return widen(x, tDouble)
		}
	case "int":
		switch {
		case from.Kind == udf.Int:
			return x
		case from.Kind == udf.Long:
			return &ir.Cast{Kind: ir.LongToInt, X: x, To: tInt}
		case ir.IsDouble(from):
			return &ir.Cast{Kind: ir.JVMDoubleToInt, X: x, To: tInt}
		}
	case "long":
		switch {
		case from.Kind == udf.Long:
			return x
		case from.Kind == udf.Int:
			return widen(x, tLong)
		case ir.IsDouble(from):
			return &ir.Cast{Kind: ir.JVMDoubleToLong, X: x, To: tLong}
		}
	}
	t.decline(n, "conversion of "+typeName(x)+" to "+to, "not translated")
	return nil
}

// jvmNumber parses a Scala or Java numeric literal.
func (t *tr) jvmNumber(n *sitter.Node, s string, floating bool) ir.Expr {
	s = strings.ReplaceAll(s, "_", "")
	last := strings.ToLower(s[len(s)-1:])
	if floating {
		switch last {
		case "f":
			t.decline(n, "float literal "+s, "float arithmetic is not translated")
			return nil
		case "d":
			s = s[:len(s)-1]
		}
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.decline(n, "literal "+s, "not a double the translator can read")
			return nil
		}
		return &ir.Lit{T: tDouble, Value: v}
	}
	ty := tInt
	if last == "l" {
		ty = tLong
		s = s[:len(s)-1]
	}
	v, err := strconv.ParseInt(s, 0, 64)
	if err != nil || (ty.Kind == udf.Int && (v > math.MaxInt32 || v < math.MinInt32)) {
		t.decline(n, "literal "+s, "hexadecimal, octal and out-of-range literals are not translated")
		return nil
	}
	return &ir.Lit{T: ty, Value: v}
}

// jvmConcat is string concatenation with +, Java's and Scala's: each
// operand prints as String.valueOf does, a null as "null".
func (t *tr) jvmConcat(n *sitter.Node, l, r *binding) *binding {
	var args []ir.Expr
	for _, x := range []*binding{l, r} {
		if c, ok := x.e.(*ir.Call); ok && c.Fn == ir.Concat {
			args = append(args, c.Args...)
			continue
		}
		ty := x.e.Type()
		switch {
		case ty == nil:
			args = append(args, &ir.Lit{T: tString, Value: "null"})
		case ty.Kind == udf.String && !x.nullable:
			args = append(args, x.e)
		case ty.Kind == udf.String || ty.Kind == udf.Int || ty.Kind == udf.Long || ty.Kind == udf.Boolean:
			if lt, ok := x.e.(*ir.Lit); ok && lt.Value != nil && ty.Kind != udf.String {
				args = append(args, &ir.Lit{T: tString, Value: fmt.Sprint(lt.Value)})
				continue
			}
			args = append(args, &ir.Call{Fn: ir.JVMStringOf, Args: []ir.Expr{x.e}, T: tString})
		default:
			t.decline(n, "string concatenation with a "+ty.String(), "the JVM prints a "+ty.String()+" with Double.toString, whose digits differ between JDKs and from Spark's CAST to STRING")
			return nil
		}
	}
	return lit(&ir.Call{Fn: ir.Concat, Args: args, T: tString})
}

func isString(e ir.Expr) bool { return e != nil && e.Type() != nil && e.Type().Kind == udf.String }

// javaTrimChars are what String.trim removes: every char <= U+0020.
var javaTrimChars = func() string {
	var b strings.Builder
	for r := rune(0); r <= 0x20; r++ {
		b.WriteRune(r)
	}
	return b.String()
}()

// javaWhitespace are the chars of Character.isWhitespace, which
// String.strip removes (no-break spaces are not among them).
// TestWhitespaceSetsMatchTheRuntimes checks the set against the JVM.
const javaWhitespace = "\t\n\v\f\r\x1c\x1d\x1e\x1f \u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2008\u2009\u200a\u2028\u2029\u205f\u3000"

// throwOnNull is res where recv is not null and a failed row where it
// is: a method called on a null String throws NullPointerException on
// the JVM, on None CPython raises AttributeError.
func (t *tr) throwOnNull(n *sitter.Node, recv, res ir.Expr) ir.Expr {
	if res == nil {
		return nil
	}
	what := "NullPointerException where " + t.text(n) + " is called on null"
	if t.u.Language == udf.Python {
		what = "AttributeError where " + t.text(n) + " is called on None"
	}
	return raiseWhereNull(recv, res, what)
}

// splitRegexOK: a split regex that is a literal string, one that matches
// only itself: no metacharacter, or one escaped metacharacter ("\\|").
func splitRegexOK(v any) bool {
	s, _ := v.(string)
	const meta = `\.[]{}()*+?^$|`
	if len(s) == 2 && s[0] == '\\' && strings.ContainsRune(meta, rune(s[1])) {
		return true
	}
	return s != "" && !strings.ContainsAny(s, meta)
}

// jvmIndex is arr[k] (Java) or arr(k) (Scala) on a split result, for a
// literal k >= 0: out of range both throw (element_at raises with ANSI
// on).
func (t *tr) jvmIndex(n *sitter.Node, arr, k ir.Expr) ir.Expr {
	i, ok := intLit(k)
	if !ok || i < 0 {
		t.decline(n, "an array index that is not a literal >= 0", "not translated")
		return nil
	}
	return &ir.Call{Fn: ir.ElementAt, Args: []ir.Expr{arr, &ir.Lit{T: tInt, Value: i + 1}}, T: tString}
}

// boxOf translates Double.valueOf(x), Integer.valueOf(x) and
// Long.valueOf(x) of a number (java.lang's, from Java or Scala): the box
// of the number, widened as the JVM widens an argument; ok is false for
// anything else (valueOf of a String is a parse, jvmparse.go).
func boxOf(class, name string, args []ir.Expr) (b *binding, ok bool) {
	if name != "valueOf" || len(args) != 1 || args[0].Type() == nil {
		return nil, false
	}
	x := args[0]
	switch strings.TrimPrefix(class, "java.lang.") {
	case "Double":
		if ir.IsDouble(x.Type()) || ir.IsIntegral(x.Type()) {
			return &binding{e: widen(x, tDouble), boxed: true}, true
		}
	case "Long":
		if ir.IsIntegral(x.Type()) {
			return &binding{e: widen(x, tLong), boxed: true}, true
		}
	case "Integer":
		if x.Type().Kind == udf.Int {
			return &binding{e: x, boxed: true}, true
		}
	}
	return nil, false
}

// utf8Bytes reports whether n is s.getBytes(charset) with charset UTF-8
// (StandardCharsets.UTF_8, or a name Charset.forName reads as UTF-8),
// returning s; its length is the string's UTF-8 length.
func (t *tr) utf8Bytes(n *sitter.Node) (*sitter.Node, bool) {
	obj, name, args, ok := t.methodCall(n)
	if !ok || name != "getBytes" || len(args) != 1 {
		return nil, false
	}
	switch a := t.text(args[0]); {
	case a == "StandardCharsets.UTF_8", a == "java.nio.charset.StandardCharsets.UTF_8":
	case strings.EqualFold(a, `"UTF-8"`), strings.EqualFold(a, `"UTF8"`):
	default:
		return nil, false
	}
	return obj, true
}

// utf8Length translates s.getBytes(UTF_8).length (utf8Bytes gave s);
// expr translates s. A null s throws NullPointerException.
func (t *tr) utf8Length(n, s *sitter.Node, expr func(*sitter.Node) *binding) *binding {
	b := expr(s)
	if b == nil {
		return nil
	}
	if !isString(b.e) {
		t.decline(n, "getBytes of "+typeName(b.e), "only a String's bytes are measured")
		return nil
	}
	var res ir.Expr = &ir.Call{Fn: ir.UTF8Length, Args: []ir.Expr{b.e}, T: tInt}
	if b.nullable {
		res = t.throwOnNull(n, b.e, res)
	}
	return lit(res)
}
