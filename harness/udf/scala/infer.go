package scala

import (
	"strconv"
	"strings"

	"github.com/udfx/udfx/harness/udf"
)

// The result type of an unannotated lambda or def is inferred only where
// Scala's rules are simple enough to follow without a type checker:
// literals, parameters and local vals, arithmetic, comparisons, if/else
// with equal branches, math functions and numeric conversions. Anything
// else stays nil (unknown) rather than guessed.

// env maps names in scope to their types; a nil type is a known name of
// unknown type.
type env map[string]*udf.Type

func paramEnv(ps []udf.Param) env {
	e := env{}
	for _, p := range ps {
		e[p.Name] = p.Type
	}
	return e
}

// wildcardKey is the scope's name for the underscore at node n.
func wildcardKey(n int) string { return "_@" + strconv.Itoa(n) }

// numericRank orders the types Scala's numeric widening promotes along.
var numericRank = map[udf.TypeKind]int{
	udf.Byte: 0, udf.Short: 1, udf.Int: 2, udf.Long: 3, udf.Float: 4, udf.Double: 5,
}

// promote is the type of an arithmetic operation on a and b: Byte and Short
// compute in Int, otherwise the wider of the two.
func promote(a, b *udf.Type) *udf.Type {
	if a == nil || b == nil {
		return nil
	}
	ra, ok1 := numericRank[a.Kind]
	rb, ok2 := numericRank[b.Kind]
	if !ok1 || !ok2 {
		return nil
	}
	return udf.Prim(byRank[max(ra, rb, numericRank[udf.Int])])
}

var byRank = []udf.TypeKind{udf.Byte, udf.Short, udf.Int, udf.Long, udf.Float, udf.Double}

func isString(t *udf.Type) bool { return t != nil && t.Kind == udf.String }

var mathObjects = map[string]bool{
	"math": true, "scala.math": true, "Math": true, "java.lang.Math": true, "StrictMath": true, "java.lang.StrictMath": true,
}

// conversions are the numeric and string conversions, by result type.
var conversions = map[string]udf.TypeKind{
	"toInt": udf.Int, "toLong": udf.Long, "toDouble": udf.Double, "toFloat": udf.Float,
	"toShort": udf.Short, "toByte": udf.Byte, "toString": udf.String,
}

// stringToString are String methods that return a String.
var stringToString = map[string]bool{
	"trim": true, "strip": true, "toUpperCase": true, "toLowerCase": true, "substring": true,
	"replace": true, "concat": true, "stripLeading": true, "stripTrailing": true,
}

func (f *file) infer(n int, scope env) *udf.Type {
	t := f.t
	switch t.kind(n) {
	case "integer_literal":
		if strings.HasSuffix(strings.ToLower(t.text(n)), "l") {
			return udf.Prim(udf.Long)
		}
		return udf.Prim(udf.Int)
	case "floating_point_literal":
		if strings.HasSuffix(strings.ToLower(t.text(n)), "f") {
			return udf.Prim(udf.Float)
		}
		return udf.Prim(udf.Double)
	case "string", "interpolated_string_expression":
		return udf.Prim(udf.String)
	case "boolean_literal":
		return udf.Prim(udf.Boolean)
	case "identifier":
		if ty := scope[t.text(n)]; ty != dateFormatLocal {
			return ty
		}
		return nil
	case "wildcard":
		// An underscore of a placeholder lambda (placeholderUDF).
		return scope[wildcardKey(n)]
	case "ascription_expression":
		if ks := t.kids(n); len(ks) == 2 {
			return f.typeOf(ks[1])
		}
	case "parenthesized_expression":
		if ks := t.kids(n); len(ks) == 1 {
			return f.infer(ks[0], scope)
		}
	case "block", "indented_block":
		return f.inferBlock(n, scope)
	case "if_expression":
		alt := t.child(n, "alternative")
		if alt == none {
			return nil
		}
		return f.lub([]int{t.child(n, "consequence"), alt}, scope)
	case "match_expression":
		// The type of a match is the least upper bound of its cases'
		// bodies; followed here only where all agree (or are null beside
		// a String, as scalac types if (s == null) null else s.trim).
		var bodies []int
		for _, c := range t.kids(t.child(n, "body")) {
			if t.kind(c) != "case_clause" {
				continue
			}
			last := none
			for _, k := range t.kids(c) {
				if t.fieldOf(k) == "body" {
					last = k
				}
			}
			if last == none {
				return nil
			}
			bodies = append(bodies, last)
		}
		if len(bodies) == 0 {
			return nil
		}
		return f.lub(bodies, scope)
	case "prefix_expression":
		ks := t.kids(n)
		if len(ks) != 1 {
			return nil
		}
		switch {
		case t.hasToken(n, "!"):
			return udf.Prim(udf.Boolean)
		case t.hasToken(n, "-"), t.hasToken(n, "+"):
			operand := f.infer(ks[0], scope)
			return promote(operand, operand)
		}
	case "infix_expression":
		return f.inferInfix(n, scope)
	case "field_expression":
		return f.inferMember(t.child(n, "value"), t.text(t.child(n, "field")), scope)
	case "call_expression":
		return f.inferCall(n, scope)
	}
	return nil
}

// lub is the type of an expression whose value is one of the branches:
// their common type when they all have the same one, where a null branch
// fits a String (scalac's least upper bound of String and Null is
// String; of a primitive and Null it is Any, which Spark cannot type).
func (f *file) lub(branches []int, scope env) *udf.Type {
	var typ *udf.Type
	nulls := 0
	for _, b := range branches {
		if f.t.kind(b) == "null_literal" {
			nulls++
			continue
		}
		bt := f.infer(b, scope)
		if bt == nil || (typ != nil && !typ.Equal(bt)) {
			return nil
		}
		typ = bt
	}
	if typ == nil || (nulls > 0 && !isString(typ)) {
		return nil
	}
	return typ
}

// dateFormatLocal marks, in a block's scope, a val holding a
// java.text.SimpleDateFormat: not a Spark type, but its format(…) is a
// String. infer never returns it.
var dateFormatLocal = &udf.Type{}

// isNewDateFormat: n is new SimpleDateFormat(…) (the translator checks
// that the name is the JDK's).
func (f *file) isNewDateFormat(n int) bool {
	t := f.t
	if n == none || t.kind(n) != "instance_expression" {
		return false
	}
	ks := t.kids(n)
	if len(ks) == 0 {
		return false
	}
	ty := strings.Join(strings.Fields(t.text(ks[0])), "")
	return ty == "SimpleDateFormat" || ty == "java.text.SimpleDateFormat"
}

func (f *file) inferBlock(n int, scope env) *udf.Type {
	t := f.t
	local := env{}
	for k, v := range scope {
		local[k] = v
	}
	var last *udf.Type
	for _, k := range t.kids(n) {
		switch t.kind(k) {
		case "comment", "block_comment":
			continue
		case "val_definition", "var_definition":
			p := t.child(k, "pattern")
			if t.kind(p) == "identifier" {
				if ty := t.child(k, "type"); ty != none {
					local[t.text(p)] = f.typeOf(ty)
				} else if f.isNewDateFormat(t.child(k, "value")) {
					local[t.text(p)] = dateFormatLocal
				} else {
					local[t.text(p)] = f.infer(t.child(k, "value"), local)
				}
			} else {
				for _, name := range f.patternNames(p) {
					local[name] = nil
				}
			}
			last = nil
		case "function_definition", "import_declaration":
			last = nil
		default:
			last = f.infer(k, local)
		}
	}
	return last
}

func (f *file) inferInfix(n int, scope env) *udf.Type {
	t := f.t
	op := t.text(t.child(n, "operator"))
	left, right := t.child(n, "left"), t.child(n, "right")
	switch op {
	case "==", "!=", "<", ">", "<=", ">=", "&&", "||", "eq", "ne":
		return udf.Prim(udf.Boolean)
	}
	a, b := f.infer(left, scope), f.infer(right, scope)
	if d := decimalArith(op, a, b); d != nil {
		return d
	}
	switch op {
	case "+":
		if isString(a) || isString(b) {
			return udf.Prim(udf.String)
		}
		return promote(a, b)
	case "-", "*", "/", "%", "max", "min":
		return promote(a, b)
	}
	return nil
}

// systemDecimal is the type Spark gives a Scala or Java BigDecimal:
// DECIMAL(38,18) for scala.math.BigDecimal and java.math.BigDecimal
// alike.
var systemDecimal = udf.DecimalOf(udf.MaxDecimalPrecision, 18)

// decimalArith types scala.math.BigDecimal arithmetic: a BigDecimal
// combined with a BigDecimal, or with an integral value its companion
// converts implicitly, is a BigDecimal.
func decimalArith(op string, a, b *udf.Type) *udf.Type {
	switch op {
	case "+", "-", "*", "/", "%", "max", "min":
	default:
		return nil
	}
	if a == nil || b == nil || !a.Equal(systemDecimal) {
		return nil
	}
	switch b.Kind {
	case udf.Decimal:
		if b.Equal(systemDecimal) {
			return systemDecimal
		}
	case udf.Int, udf.Long, udf.Short, udf.Byte:
		return systemDecimal
	}
	return nil
}

// javaDecimalMethods are java.math.BigDecimal's methods that return a
// BigDecimal.
var javaDecimalMethods = map[string]bool{
	"add": true, "subtract": true, "multiply": true, "divide": true, "remainder": true,
	"negate": true, "abs": true, "setScale": true, "max": true, "min": true, "stripTrailingZeros": true,
}

// inferMember types recv.name written without an argument list.
func (f *file) inferMember(recv int, name string, scope env) *udf.Type {
	// mkString is defined on Scala's collections, arrays (ArrayOps) and
	// strings (StringOps), always returning a String.
	if name == "toString" || name == "mkString" {
		return udf.Prim(udf.String)
	}
	r := f.infer(recv, scope)
	if r == nil {
		return nil
	}
	if k, ok := conversions[name]; ok && (r.IsNumeric() || isString(r)) {
		return udf.Prim(k)
	}
	if isString(r) {
		switch {
		case name == "length":
			return udf.Prim(udf.Int)
		case name == "isEmpty" || name == "nonEmpty":
			return udf.Prim(udf.Boolean)
		case stringToString[name]:
			return r
		}
	}
	if name == "abs" && r.IsNumeric() {
		return promote(r, r)
	}
	return nil
}

func (f *file) inferCall(n int, scope env) *udf.Type {
	t := f.t
	fn := t.child(n, "function")
	if t.kind(fn) == "identifier" {
		if _, local := scope[t.text(fn)]; local {
			return nil
		}
		// A def of this file with a declared result type.
		if def, ok := f.defs[t.text(fn)]; ok {
			return f.typeOf(t.child(def, "return_type"))
		}
		return nil
	}
	if t.kind(fn) != "field_expression" {
		return nil
	}
	recv, name := t.child(fn, "value"), t.text(t.child(fn, "field"))
	args := f.callArgs(n)
	if name == "format" && len(args) == 1 && (t.kind(recv) == "identifier" && scope[t.text(recv)] == dateFormatLocal || f.isNewDateFormat(recv) ||
		strings.Contains(t.text(n), "ofEpochMilli(")) {
		// SimpleDateFormat's format, and java.time's of an Instant (a
		// DateTimeFormatter's and a ZonedDateTime's), return a String.
		return udf.Prim(udf.String)
	}
	if mathObjects[strings.Join(strings.Fields(t.text(recv)), "")] {
		return f.inferMath(name, args, scope)
	}
	if len(args) == 0 || name == "mkString" {
		return f.inferMember(recv, name, scope)
	}
	if r := f.infer(recv, scope); r != nil && r.Equal(systemDecimal) && javaDecimalMethods[name] {
		return systemDecimal
	}
	if r := f.infer(recv, scope); isString(r) {
		switch {
		case stringToString[name]:
			return r
		case name == "contains" || name == "startsWith" || name == "endsWith" || name == "equals":
			return udf.Prim(udf.Boolean)
		case name == "indexOf" || name == "lastIndexOf":
			return udf.Prim(udf.Int)
		}
	}
	return nil
}

// inferMath types math.f(args) / Math.f(args): abs, max and min keep the
// (promoted) operand type, round maps Double to Long and Float to Int, the
// rest compute in Double.
func (f *file) inferMath(name string, args []int, scope env) *udf.Type {
	types := make([]*udf.Type, len(args))
	for i, a := range args {
		types[i] = f.infer(a, scope)
		if types[i] == nil || !types[i].IsNumeric() || types[i].Kind == udf.Decimal {
			return nil
		}
	}
	if len(types) == 0 {
		return nil
	}
	switch name {
	case "abs":
		return promote(types[0], types[0])
	case "max", "min":
		if len(types) != 2 {
			return nil
		}
		return promote(types[0], types[1])
	case "round":
		switch types[0].Kind {
		case udf.Double:
			return udf.Prim(udf.Long)
		case udf.Float:
			return udf.Prim(udf.Int)
		}
		return nil
	case "random", "signum", "floorDiv", "floorMod", "addExact", "multiplyExact", "subtractExact", "negateExact", "toIntExact":
		return nil
	}
	return udf.Prim(udf.Double)
}
