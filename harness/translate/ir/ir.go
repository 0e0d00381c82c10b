// Package ir is the translator's typed expression language. A node means
// what the original language computes (a JVM int addition wraps, a Java
// double division by zero is ±Infinity), not what a target computes: each
// renderer (SQL here; cuDF Java and C++ later) must either reproduce that
// meaning exactly or refuse the node. Types are Spark SQL types from
// package udf; every node knows its result type.
//
// The translator builds only nodes whose meaning it has established, so a
// renderer never has to guess; a node a renderer cannot reproduce is a
// *RenderError, never an approximation.
package ir

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode"

	"github.com/udfx/udfx/harness/udf"
)

// Expr is a typed expression over the UDF's parameters.
type Expr interface {
	// Type is the Spark type of the value.
	Type() *udf.Type
	node()
}

// Lit is a constant. Value is nil (NULL), bool, int64 (any integral
// type), float64 or string. The Spark type decides how it is written:
// a DOUBLE is 9.0D, never the DECIMAL 9.0.
type Lit struct {
	T     *udf.Type
	Value any
}

// Col is a parameter of the UDF, by name.
type Col struct {
	Name string
	T    *udf.Type
}

// Op names an operation together with its semantics.
type Op string

const (
	// IEEE 754 double arithmetic as the JVM and CPython do it: no
	// exception, overflow to ±Infinity. Spark's + - * on DOUBLE is the
	// same with ANSI on or off.
	DoubleAdd Op = "double+"
	DoubleSub Op = "double-"
	DoubleMul Op = "double*"
	// DoubleDivNonZero is IEEE division whose divisor the translator has
	// proved is a non-zero constant: Spark's `/` then agrees with the JVM
	// and CPython (a zero divisor is ±Infinity/NaN on the JVM, an error
	// in CPython and in Spark with ANSI on, NULL with ANSI off).
	DoubleDivNonZero Op = "double/nonzero"
	// PyFloatDiv is CPython's float `/`: ZeroDivisionError on a zero
	// divisor. Spark's `/` with ANSI on fails with DIVIDE_BY_ZERO there.
	PyFloatDiv Op = "pyfloat/"
	// DoubleRemNonZero is Java's double `%` (C fmod: the dividend's sign)
	// by a non-zero constant; Spark's `%` on DOUBLE is Java's.
	DoubleRemNonZero Op = "double%nonzero"
	// JavaIntAdd, JavaIntSub and JavaIntMul are 32-bit two's complement
	// arithmetic that wraps on overflow (Spark with ANSI on raises).
	JavaIntAdd Op = "int+wrap"
	JavaIntSub Op = "int-wrap"
	JavaIntMul Op = "int*wrap"
	// JavaIntDiv truncates toward zero, throws ArithmeticException on a
	// zero divisor and wraps Int.MinValue / -1 to Int.MinValue.
	JavaIntDiv Op = "int/trunc"
	// JavaIntRem has the dividend's sign and throws on a zero divisor
	// (int or long; MIN_VALUE % -1 is 0 on the JVM and in Spark).
	JavaIntRem Op = "int%"
	// JavaLongAdd, JavaLongSub and JavaLongMul are 64-bit two's
	// complement arithmetic that wraps on overflow. Rendered in
	// DECIMAL(38,0), where no product of two longs overflows, then folded
	// back into the BIGINT range.
	JavaLongAdd Op = "long+wrap"
	JavaLongSub Op = "long-wrap"
	JavaLongMul Op = "long*wrap"
	// JavaLongDiv truncates toward zero, throws on a zero divisor and
	// wraps Long.MinValue / -1 to Long.MinValue.
	JavaLongDiv Op = "long/trunc"
	// LongNegWrap is unary minus on a long (MIN_VALUE stays MIN_VALUE).
	LongNegWrap Op = "long-neg-wrap"
	// StrEqNullSafe is Scala's == on strings, Java's equals and
	// Objects.equals: value equality where null equals only null.
	StrEqNullSafe Op = "str=="
	// PyFloatModConst is CPython's float % by a non-zero constant: the
	// result takes the divisor's sign, and a zero result is +0.0 or
	// -0.0 as the divisor.
	PyFloatModConst Op = "pyfloat%const"
	// PyIntModConst and PyIntFloorDivConst are CPython's int % and // by
	// a non-zero constant (floored); the operands are Spark integers.
	PyIntModConst      Op = "pyint%const"
	PyIntFloorDivConst Op = "pyint//const"
	// PyIntAdd, PyIntSub and PyIntMul are CPython's int + - * where the
	// translator has proved (IntRange) that the exact result fits in
	// BIGINT: computed in BIGINT, where Spark's operator is then exact.
	PyIntAdd Op = "pyint+bounded"
	PyIntSub Op = "pyint-bounded"
	PyIntMul Op = "pyint*bounded"
	// DoubleNeg and IntNegWrap are unary minus (IEEE; wrapping).
	DoubleNeg  Op = "double-neg"
	IntNegWrap Op = "int-neg-wrap"
	// Comparisons with the JVM's and CPython's meaning: any NaN operand
	// makes == < <= > >= false and != true (Spark orders NaN above every
	// double and makes NaN = NaN true). -0.0 equals 0.0 everywhere.
	Eq Op = "=="
	Ne Op = "!="
	Lt Op = "<"
	Le Op = "<="
	Gt Op = ">"
	Ge Op = ">="
	// And, Or and Not are two-valued, short-circuit boolean logic; the
	// translator guarantees their operands are never NULL.
	And Op = "&&"
	Or  Op = "||"
	Not Op = "!"
)

// Unary applies Op to X.
type Unary struct {
	Op Op
	X  Expr
	T  *udf.Type
}

// Binary applies Op to L and R. Operands have the same type, except for
// comparisons, whose result is BOOLEAN.
type Binary struct {
	Op   Op
	L, R Expr
	T    *udf.Type
}

// IsNull is true when X is NULL (a JVM null, a Python None).
type IsNull struct{ X Expr }

// If is a conditional: Cond is never NULL.
type If struct {
	Cond, Then, Else Expr
}

// Raise fails the row, as the original does where it throws (CPython's
// TypeError for arithmetic on None, Java's NullPointerException when a
// null unboxes). T is the type of the value it stands in for. The
// differential test compares errors as results, so a rewrite must raise
// on exactly the rows the original raises on; Raise appears only in a
// branch of an If whose condition picks those rows.
type Raise struct {
	Msg string
	T   *udf.Type
}

// CastKind names a conversion's semantics.
type CastKind string

const (
	// Widen is exact: int to bigint or double, float to double.
	Widen CastKind = "widen"
	// JVMDoubleToInt and JVMDoubleToLong are Java's (int)/(long) of a
	// double and Scala's toInt/toLong: truncation toward zero, NaN to 0,
	// out-of-range values clamp to the type's MIN/MAX.
	JVMDoubleToInt  CastKind = "jvm-d2i"
	JVMDoubleToLong CastKind = "jvm-d2l"
	// IntToString prints an int or bigint in decimal with a leading '-'
	// for negatives, as CPython's str() and Java's String.valueOf do.
	IntToString CastKind = "int-to-string"
)

// Cast converts X to To with the semantics Kind names.
type Cast struct {
	Kind CastKind
	X    Expr
	To   *udf.Type
}

// Func names a function together with its semantics.
type Func string

const (
	// Sqrt is java.lang.Math.sqrt (correctly rounded; NaN for negatives).
	Sqrt Func = "sqrt"
	// AbsDouble is Math.abs on a double (clears the sign bit).
	AbsDouble Func = "abs-double"
	// FloorDouble and CeilDouble are Math.floor/ceil: a DOUBLE result,
	// NaN, infinities and ±0.0 kept, ceil of (-1, 0) is -0.0.
	FloorDouble Func = "floor-double"
	CeilDouble  Func = "ceil-double"
	// MaxInt and MinInt are Math.max/min on ints or longs.
	MaxInt Func = "max-int"
	MinInt Func = "min-int"
	// AbsIntegral is Math.abs on an int or long: MIN_VALUE stays
	// MIN_VALUE (Spark's abs raises with ANSI on).
	AbsIntegral Func = "abs-integral"
	// MaxDouble and MinDouble are Math.max/min on doubles: NaN if either
	// is NaN, and -0.0 is below 0.0.
	MaxDouble Func = "max-double"
	MinDouble Func = "min-double"
	// RoundDoubleToLong is Math.round(double): the closest long, ties
	// toward positive infinity, on the exact binary value; NaN is 0 and
	// out-of-range values clamp.
	RoundDoubleToLong Func = "round-d2l"
	// IsEmpty is String.isEmpty on a non-null string.
	IsEmpty Func = "isempty"
	// CodePointLength is Python's len of a str (code points).
	CodePointLength Func = "len-codepoints"
	// PySlice is CPython's s[a:b] on a str (code points) with constant
	// bounds, Args[1] and Args[2] int literals or NULL literals for an
	// absent bound: out-of-range bounds clamp, never raise. PyCharAt is
	// s[k] for a constant k: IndexError out of range.
	PySlice  Func = "py-slice"
	PyCharAt Func = "py-char-at"
	// PyDateYear, PyDateMonth, PyDateDay, PyWeekday, PyIsoWeekday and
	// PyIsoFormat are a datetime.date's year, month, day, weekday()
	// (Monday 0), isoweekday() (Monday 1) and isoformat(); PyDaysBetween
	// is (a - b).days. PySpark makes a date outside 0001-01-01..9999-12-31
	// a ValueError before the UDF is called: so does the rewrite.
	PyDateYear    Func = "py-date-year"
	PyDateMonth   Func = "py-date-month"
	PyDateDay     Func = "py-date-day"
	PyWeekday     Func = "py-weekday"
	PyIsoWeekday  Func = "py-isoweekday"
	PyIsoFormat   Func = "py-isoformat"
	PyDaysBetween Func = "py-days-between"
	// PyFloatOrElse is CPython's float(s) on a str that is not None,
	// and Args[1] where float() raises ValueError: the str.isspace
	// characters (Args[2]) stripped, the Unicode decimal digits Args[3]
	// read as the ASCII digits Args[4], then Python's grammar (digits with single
	// underscores, optional point and exponent; inf, infinity, nan in any
	// case, signed). Parsing is Java's Double.parseDouble, correctly
	// rounded as CPython's.
	PyFloatOrElse Func = "py-float-or-else"
	// PyIntOrElse is CPython's int(s) the same way (digits with single
	// underscores, signed, no point), as a bigint UDF's result: beyond
	// BIGINT PySpark stores NULL.
	PyIntOrElse Func = "py-int-or-else"
	// RegexpReplace is Java's replaceAll with Args[1] a literal Java
	// pattern and Args[2] a literal replacement: Spark's regexp_replace.
	RegexpReplace Func = "regexp_replace"
	// UTF16Length is String.length on the JVM: UTF-16 code units, i.e.
	// code points plus one for each supplementary code point.
	UTF16Length Func = "utf16-length"
	// Concat joins strings that are never NULL.
	Concat Func = "concat"
	// JVMStringOf is String.valueOf as string concatenation uses it: a
	// null is "null", an int, long or boolean prints as Java does.
	JVMStringOf Func = "jvm-string-of"
	// PySplit is Python's str.split(sep) with a non-empty literal
	// separator that has no regex metacharacters: every field, empty
	// ones included (Spark's split with its default limit -1).
	PySplit Func = "py-split"
	// ElementAt is element_at (1-based, negative from the end; an index
	// out of range raises with ANSI on, as Python's IndexError).
	ElementAt Func = "element_at"
	// Size is the length of an array (never NULL here).
	Size Func = "size"
	// Replace is String.replace(CharSequence, CharSequence) with a
	// non-empty literal search string.
	Replace Func = "replace"
	// TrimBoth, TrimLeading and TrimTrailing remove, from one or both
	// ends of Args[0], every code point that is in the literal Args[1]:
	// Java's trim (chars <= U+0020) and strip (Character.isWhitespace),
	// CPython's strip/lstrip/rstrip (str.isspace, or the given chars).
	// Spark's TRIM(BOTH|LEADING|TRAILING chars FROM s) does exactly that.
	TrimBoth     Func = "trim-both"
	TrimLeading  Func = "trim-leading"
	TrimTrailing Func = "trim-trailing"
	// PyIntOfFloat, PyRoundOfFloat, PyFloorOfFloat and PyCeilOfFloat
	// are CPython's int(x), round(x), math.floor(x) and math.ceil(x) on
	// a float, returned by a bigint UDF: NaN raises ValueError, ±inf
	// OverflowError; an int beyond the BIGINT range becomes NULL when
	// PySpark stores it (checked with real PySpark 4.1.1); round is half
	// to even. Only valid as the UDF's result: Python would go on
	// computing with the unbounded int.
	PyIntOfFloat   Func = "py-int-of-float"
	PyRoundOfFloat Func = "py-round-of-float"
	PyFloorOfFloat Func = "py-floor-of-float"
	PyCeilOfFloat  Func = "py-ceil-of-float"
	// StartsWith, EndsWith and Contains are String.startsWith/endsWith/
	// contains and Python's str.startswith/endswith and `in`.
	StartsWith Func = "startswith"
	EndsWith   Func = "endswith"
	Contains   Func = "contains"
)

// Call applies a function to Args.
type Call struct {
	Fn   Func
	Args []Expr
	T    *udf.Type
}

func (e *Lit) Type() *udf.Type    { return e.T }
func (e *Col) Type() *udf.Type    { return e.T }
func (e *Unary) Type() *udf.Type  { return e.T }
func (e *Binary) Type() *udf.Type { return e.T }
func (e *IsNull) Type() *udf.Type { return udf.Prim(udf.Boolean) }
func (e *If) Type() *udf.Type {
	if t := e.Then.Type(); t != nil {
		return t
	}
	return e.Else.Type()
}
func (e *Cast) Type() *udf.Type  { return e.To }
func (e *Call) Type() *udf.Type  { return e.T }
func (e *Raise) Type() *udf.Type { return e.T }

func (*Lit) node()    {}
func (*Col) node()    {}
func (*Unary) node()  {}
func (*Binary) node() {}
func (*IsNull) node() {}
func (*If) node()     {}
func (*Cast) node()   {}
func (*Call) node()   {}
func (*Raise) node()  {}

// RenderError is a node a renderer cannot reproduce exactly.
type RenderError struct {
	Target string
	What   string
}

func (e *RenderError) Error() string {
	return fmt.Sprintf("%s cannot express %s exactly", e.Target, e.What)
}

// IsDouble reports whether t is DOUBLE.
func IsDouble(t *udf.Type) bool { return t != nil && t.Kind == udf.Double }

// IsIntegral reports whether t is INT or BIGINT.
func IsIntegral(t *udf.Type) bool { return t != nil && (t.Kind == udf.Int || t.Kind == udf.Long) }

// NonZeroConst reports whether e is a constant that is not zero (and not
// NaN): the divisors for which Spark's `/` and `%` agree with the JVM's.
func NonZeroConst(e Expr) bool {
	l, ok := e.(*Lit)
	if !ok {
		return false
	}
	switch v := l.Value.(type) {
	case float64:
		return v != 0 && !math.IsNaN(v)
	case int64:
		return v != 0
	}
	return false
}

// SQL renders e as a Spark SQL expression that, with
// spark.sql.ansi.enabled=true, evaluates to what e means on every input.
func SQL(e Expr) (string, error) {
	var b strings.Builder
	if err := sqlOf(&b, e); err != nil {
		return "", err
	}
	return b.String(), nil
}

func sqlErr(what string) error { return &RenderError{Target: "Spark SQL", What: what} }

func sqlOf(b *strings.Builder, e Expr) error {
	sub := func(x Expr) error { return sqlOf(b, x) }
	switch e := e.(type) {
	case *Lit:
		s, err := litSQL(e)
		if err != nil {
			return err
		}
		b.WriteString(s)
		return nil
	case *Col:
		b.WriteString("`" + strings.ReplaceAll(e.Name, "`", "``") + "`")
		return nil
	case *IsNull:
		b.WriteString("(")
		if err := sub(e.X); err != nil {
			return err
		}
		b.WriteString(" IS NULL)")
		return nil
	case *If:
		b.WriteString("CASE WHEN ")
		if err := sub(e.Cond); err != nil {
			return err
		}
		b.WriteString(" THEN ")
		if err := sub(e.Then); err != nil {
			return err
		}
		b.WriteString(" ELSE ")
		if err := sub(e.Else); err != nil {
			return err
		}
		b.WriteString(" END")
		return nil
	case *Raise:
		// Spark's raise_error is NULL-typed; CASE takes the other
		// branch's type, so the If keeps the original's type.
		msg, err := litSQL(&Lit{T: udf.Prim(udf.String), Value: e.Msg})
		if err != nil {
			return err
		}
		b.WriteString("raise_error(" + msg + ")")
		return nil
	case *Unary:
		return unarySQL(b, e)
	case *Binary:
		return binarySQL(b, e)
	case *Cast:
		return castSQL(b, e)
	case *Call:
		return callSQL(b, e)
	}
	return sqlErr(fmt.Sprintf("the node %T", e))
}

func litSQL(e *Lit) (string, error) {
	if e.Value == nil {
		if e.T == nil {
			return "NULL", nil
		}
		return "CAST(NULL AS " + strings.ToUpper(e.T.String()) + ")", nil
	}
	switch v := e.Value.(type) {
	case bool:
		if v {
			return "TRUE", nil
		}
		return "FALSE", nil
	case int64:
		switch e.T.Kind {
		case udf.Int:
			if v == math.MinInt32 {
				// -2147483648 is the negation of an out-of-range INT
				// literal in some parsers; the cast is unambiguous.
				return "CAST(-2147483648 AS INT)", nil
			}
			return strconv.FormatInt(v, 10), nil
		case udf.Long:
			if v == math.MinInt64 {
				return "CAST(-9223372036854775808 AS BIGINT)", nil
			}
			return strconv.FormatInt(v, 10) + "L", nil
		case udf.Double:
			return strconv.FormatInt(v, 10) + ".0D", nil
		}
	case float64:
		if e.T.Kind != udf.Double {
			break
		}
		switch {
		case math.IsNaN(v):
			return "CAST('NaN' AS DOUBLE)", nil
		case math.IsInf(v, 1):
			return "CAST('Infinity' AS DOUBLE)", nil
		case math.IsInf(v, -1):
			return "CAST('-Infinity' AS DOUBLE)", nil
		case v == 0 && math.Signbit(v):
			return "(-0.0D)", nil
		}
		// The shortest decimal that reads back as v, with the D suffix
		// that makes Spark read it as DOUBLE rather than DECIMAL.
		s := strconv.FormatFloat(v, 'e', -1, 64)
		if a := math.Abs(v); a == 0 || a >= 1e-4 && a < 1e15 {
			s = strconv.FormatFloat(v, 'f', -1, 64)
			if !strings.Contains(s, ".") {
				s += ".0"
			}
		}
		if v < 0 {
			return "(" + s + "D)", nil
		}
		return s + "D", nil
	case string:
		var sb strings.Builder
		sb.WriteByte('\'')
		for _, r := range v {
			switch {
			case r == '\'' || r == '\\':
				sb.WriteByte('\\')
				sb.WriteRune(r)
			case r <= 0xFFFF && r != ' ' && !unicode.IsPrint(r):
				// Control and space characters as Spark's \uXXXX escape,
				// so that the SQL stays one readable line in any file.
				fmt.Fprintf(&sb, "\\u%04X", r)
			default:
				sb.WriteRune(r)
			}
		}
		sb.WriteByte('\'')
		return sb.String(), nil
	}
	return "", sqlErr(fmt.Sprintf("the %s literal %v", e.T, e.Value))
}

// isNaNFree reports whether x can never be NaN: a literal that is not
// NaN, or a value that is not floating point.
func isNaNFree(x Expr) bool {
	if !IsDouble(x.Type()) {
		return true
	}
	if l, ok := x.(*Lit); ok {
		f, ok := l.Value.(float64)
		return ok && !math.IsNaN(f)
	}
	return false
}

func unarySQL(b *strings.Builder, e *Unary) error {
	switch e.Op {
	case Not:
		b.WriteString("(NOT ")
		if err := sqlOf(b, e.X); err != nil {
			return err
		}
		b.WriteString(")")
		return nil
	case DoubleNeg:
		b.WriteString("(- ")
		if err := sqlOf(b, e.X); err != nil {
			return err
		}
		b.WriteString(")")
		return nil
	case IntNegWrap:
		return sqlOf(b, &Binary{Op: JavaIntSub, L: &Lit{T: e.T, Value: int64(0)}, R: e.X, T: e.T})
	case LongNegWrap:
		x, err := SQL(e.X)
		if err != nil {
			return err
		}
		fmt.Fprintf(b, "CASE WHEN %[1]s = %[2]s THEN %[2]s ELSE (- %[1]s) END", x, minLong)
		return nil
	}
	return sqlErr("the unary operator " + string(e.Op))
}

var sqlOps = map[Op]string{
	DoubleAdd: "+", DoubleSub: "-", DoubleMul: "*", DoubleDivNonZero: "/", PyFloatDiv: "/",
	DoubleRemNonZero: "%", JavaIntRem: "%", And: "AND", Or: "OR",
}

func binarySQL(b *strings.Builder, e *Binary) error {
	pair := func(op string) error {
		b.WriteString("(")
		if err := sqlOf(b, e.L); err != nil {
			return err
		}
		b.WriteString(" " + op + " ")
		if err := sqlOf(b, e.R); err != nil {
			return err
		}
		b.WriteString(")")
		return nil
	}
	switch e.Op {
	case DoubleAdd, DoubleSub, DoubleMul, PyFloatDiv, JavaIntRem, And, Or:
		return pair(sqlOps[e.Op])
	case StrEqNullSafe:
		return pair("<=>")
	case JavaLongAdd, JavaLongSub, JavaLongMul:
		return longWrapSQL(b, e)
	case JavaLongDiv:
		return longDivSQL(b, e)
	case PyFloatModConst, PyIntModConst, PyIntFloorDivConst:
		return pyModSQL(b, e)
	case PyIntAdd, PyIntSub, PyIntMul:
		l, r, err := operandsSQL(e)
		if err != nil {
			return err
		}
		op := map[Op]string{PyIntAdd: "+", PyIntSub: "-", PyIntMul: "*"}[e.Op]
		fmt.Fprintf(b, "CAST((CAST(%s AS BIGINT) %s CAST(%s AS BIGINT)) AS %s)", l, op, r, strings.ToUpper(e.T.String()))
		return nil
	case DoubleDivNonZero, DoubleRemNonZero:
		if !NonZeroConst(e.R) {
			return sqlErr("a double division by a divisor that may be zero")
		}
		return pair(sqlOps[e.Op])
	case JavaIntAdd, JavaIntSub, JavaIntMul, JavaIntDiv:
		return wrapSQL(b, e)
	case Eq, Ne, Lt, Le, Gt, Ge:
		return cmpSQL(b, e)
	}
	return sqlErr("the operator " + string(e.Op))
}

// wrapSQL computes the operation in BIGINT, where it cannot overflow
// (or, for div, where only MinValue / -1 leaves the INT range), and
// folds the result back into the INT range the way two's complement
// wraps. Spark's ANSI mode would raise ARITHMETIC_OVERFLOW on the plain
// INT operator where the JVM wraps.
func wrapSQL(b *strings.Builder, e *Binary) error {
	if e.T.Kind != udf.Int {
		return sqlErr("wrapping " + string(e.Op) + " on " + e.T.String())
	}
	op := map[Op]string{JavaIntAdd: "+", JavaIntSub: "-", JavaIntMul: "*", JavaIntDiv: "div"}[e.Op]
	b.WriteString("CAST(pmod((CAST(")
	if err := sqlOf(b, e.L); err != nil {
		return err
	}
	b.WriteString(" AS BIGINT) " + op + " CAST(")
	if err := sqlOf(b, e.R); err != nil {
		return err
	}
	b.WriteString(" AS BIGINT)) + 2147483648L, 4294967296L) - 2147483648L AS INT)")
	return nil
}

const minLong = "CAST(-9223372036854775808 AS BIGINT)"

// longWrapSQL computes a long + - * in DECIMAL(38,0), which holds any
// sum or product of two longs (|a*b| <= 2^126 < 10^38), and folds it
// into the BIGINT range as two's complement wraps.
func longWrapSQL(b *strings.Builder, e *Binary) error {
	if e.T.Kind != udf.Long {
		return sqlErr("wrapping " + string(e.Op) + " on " + e.T.String())
	}
	l, r, err := operandsSQL(e)
	if err != nil {
		return err
	}
	op := map[Op]string{JavaLongAdd: "+", JavaLongSub: "-", JavaLongMul: "*"}[e.Op]
	fmt.Fprintf(b, "CAST(pmod((CAST(%s AS DECIMAL(20,0)) %s CAST(%s AS DECIMAL(20,0))) + 9223372036854775808BD, 18446744073709551616BD) - 9223372036854775808BD AS BIGINT)", l, op, r)
	return nil
}

// longDivSQL is Java's long division: Spark's div truncates as Java does
// and raises DIVIDE_BY_ZERO for zero; only MIN_VALUE / -1, which Spark
// rejects as an overflow, needs the wrap.
func longDivSQL(b *strings.Builder, e *Binary) error {
	l, err := SQL(e.L)
	if err != nil {
		return err
	}
	r, err := SQL(e.R)
	if err != nil {
		return err
	}
	if lt, ok := e.R.(*Lit); ok {
		if v, ok := lt.Value.(int64); ok && v != -1 && v != 0 {
			fmt.Fprintf(b, "(%s div %s)", l, r)
			return nil
		}
	}
	fmt.Fprintf(b, "CASE WHEN %[2]s = -1L THEN (CASE WHEN %[1]s = %[3]s THEN %[3]s ELSE (- %[1]s) END) ELSE (%[1]s div %[2]s) END", l, r, minLong)
	return nil
}

// pyModSQL renders CPython's floored % and // by a non-zero constant c.
func pyModSQL(b *strings.Builder, e *Binary) error {
	l, err := SQL(e.L)
	if err != nil {
		return err
	}
	lt, ok := e.R.(*Lit)
	if !ok || !NonZeroConst(lt) {
		return sqlErr("Python " + string(e.Op) + " by a divisor that is not a non-zero constant")
	}
	c, err := SQL(lt)
	if err != nil {
		return err
	}
	neg := false
	switch v := lt.Value.(type) {
	case float64:
		neg = v < 0
	case int64:
		neg = v < 0
	}
	switch e.Op {
	case PyFloatModConst:
		// fmod(x, c), then moved into the divisor's sign; a zero result
		// takes the divisor's sign.
		zero, away := "0.0D", "<"
		if neg {
			zero, away = "(-0.0D)", ">"
		}
		fmt.Fprintf(b, "CASE WHEN (%[1]s %% %[2]s) = 0.0D THEN %[3]s WHEN (%[1]s %% %[2]s) %[4]s 0.0D THEN ((%[1]s %% %[2]s) + %[2]s) ELSE (%[1]s %% %[2]s) END", l, c, zero, away)
	case PyIntModConst:
		if neg {
			// x % c for c < 0 is -((-x) % -c) floored: (x % c) moved to
			// (c, 0].
			fmt.Fprintf(b, "CASE WHEN (%[1]s %% %[2]s) > 0 THEN ((%[1]s %% %[2]s) + %[2]s) ELSE (%[1]s %% %[2]s) END", l, c)
		} else {
			fmt.Fprintf(b, "pmod(%s, %s)", l, c)
		}
	case PyIntFloorDivConst:
		// Truncating div, one less where the signs differ and the
		// division is not exact. No overflow: |x div c| <= |x|, and
		// c = -1 is declined by the translator.
		ty := "BIGINT"
		if e.T.Kind == udf.Int {
			ty = "INT"
		}
		fmt.Fprintf(b, "CAST((%[1]s div %[2]s) - CASE WHEN (%[1]s %% %[2]s) <> 0 AND ((%[1]s < 0) <> (%[2]s < 0)) THEN 1 ELSE 0 END AS %[3]s)", l, c, ty)
	}
	return nil
}

// cmpSQL adds the NaN guards that give Spark's comparison the JVM's and
// CPython's answer: Spark makes NaN = NaN true and NaN greater than
// everything, the originals make every ordered comparison with a NaN
// false and != true.
func cmpSQL(b *strings.Builder, e *Binary) error {
	var guards []Expr
	for _, x := range []Expr{e.L, e.R} {
		if !isNaNFree(x) {
			guards = append(guards, x)
		}
	}
	op := map[Op]string{Eq: "=", Ne: "<>", Lt: "<", Le: "<=", Gt: ">", Ge: ">="}[e.Op]
	b.WriteString("(")
	if err := sqlOf(b, e.L); err != nil {
		return err
	}
	b.WriteString(" " + op + " ")
	if err := sqlOf(b, e.R); err != nil {
		return err
	}
	for _, g := range guards {
		if e.Op == Ne {
			b.WriteString(" OR isnan(")
		} else {
			b.WriteString(" AND NOT isnan(")
		}
		if err := sqlOf(b, g); err != nil {
			return err
		}
		b.WriteString(")")
	}
	b.WriteString(")")
	return nil
}

func castSQL(b *strings.Builder, e *Cast) error {
	switch e.Kind {
	case Widen, IntToString:
		b.WriteString("CAST(")
		if err := sqlOf(b, e.X); err != nil {
			return err
		}
		b.WriteString(" AS " + strings.ToUpper(e.To.String()) + ")")
		return nil
	case JVMDoubleToInt, JVMDoubleToLong:
		// Spark's CAST fails on NaN and out-of-range values with ANSI
		// on; the JVM maps NaN to 0 and clamps. In range, both truncate.
		lo, hi, ty := "-2147483648.0D", "2147483647.0D", "INT"
		min, max := "CAST(-2147483648 AS INT)", "2147483647"
		if e.Kind == JVMDoubleToLong {
			lo, hi, ty = "-9.223372036854775808E18D", "9.223372036854775807E18D", "BIGINT"
			min, max = "CAST(-9223372036854775808 AS BIGINT)", "9223372036854775807L"
		}
		x, err := SQL(e.X)
		if err != nil {
			return err
		}
		fmt.Fprintf(b, "CASE WHEN isnan(%[1]s) THEN CAST(0 AS %[2]s) WHEN %[1]s >= %[3]s THEN %[5]s WHEN %[1]s <= %[4]s THEN %[6]s ELSE CAST(%[1]s AS %[2]s) END",
			x, ty, hi, lo, max, min)
		return nil
	}
	return sqlErr("the conversion " + string(e.Kind))
}

func callSQL(b *strings.Builder, e *Call) error {
	args := make([]string, len(e.Args))
	for i, a := range e.Args {
		s, err := SQL(a)
		if err != nil {
			return err
		}
		args[i] = s
	}
	switch e.Fn {
	case PySplit:
		b.WriteString("split(" + args[0] + ", " + args[1] + ")")
		return nil
	case Sqrt, StartsWith, EndsWith, Contains, Replace, ElementAt, Size, RegexpReplace:
		b.WriteString(string(e.Fn) + "(" + strings.Join(args, ", ") + ")")
		return nil
	case TrimBoth, TrimLeading, TrimTrailing:
		l, ok := e.Args[1].(*Lit)
		set, _ := l.Value.(string)
		if !ok || set == "" {
			return sqlErr("a trim whose set of characters is not a non-empty literal")
		}
		b.WriteString(trimSQL(args[0], set, e.Fn != TrimTrailing, e.Fn != TrimLeading))
		return nil
	case PyIntOfFloat, PyRoundOfFloat, PyFloorOfFloat, PyCeilOfFloat:
		// floor and ceil of a double are BIGINT in Spark; bround is half
		// to even (on the shortest decimal, which for 0 digits decides a
		// tie as the exact binary value does: x.5 is representable).
		whole := map[Func]string{PyIntOfFloat: "%[1]s", PyRoundOfFloat: "bround(%[1]s, 0)", PyFloorOfFloat: "floor(%[1]s)", PyCeilOfFloat: "ceil(%[1]s)"}[e.Fn]
		fmt.Fprintf(b, "CASE WHEN isnan(%[1]s) THEN raise_error('udfx: the original throws ValueError (NaN to int)') "+
			"WHEN %[1]s = CAST('Infinity' AS DOUBLE) OR %[1]s = CAST('-Infinity' AS DOUBLE) THEN raise_error('udfx: the original throws OverflowError (infinity to int)') "+
			"WHEN %[1]s >= 9.223372036854775807E18D OR %[1]s < -9.223372036854775808E18D THEN CAST(NULL AS BIGINT) "+
			"ELSE CAST("+whole+" AS BIGINT) END", args[0])
		return nil
	case AbsDouble:
		b.WriteString("abs(" + args[0] + ")")
		return nil
	case AbsIntegral:
		min := "CAST(-2147483648 AS INT)"
		if e.T.Kind == udf.Long {
			min = minLong
		}
		fmt.Fprintf(b, "CASE WHEN %[1]s = %[2]s THEN %[2]s ELSE abs(%[1]s) END", args[0], min)
		return nil
	case MaxDouble, MinDouble:
		// Math.max: NaN wins; of two zeros, max is 0.0 unless both are
		// -0.0 (min is -0.0 unless both are 0.0). Spark's greatest
		// orders NaN largest and -0.0 equal to 0.0. The sum of two zeros
		// is exactly that max (IEEE 754: -0.0 only when both are -0.0),
		// and -((-a) + (-b)) that min. A CASE choosing between the
		// literals -0.0D and 0.0D would not do: Spark's optimizer takes
		// the two literals for equal (Literal.equals compares boxed
		// doubles numerically) and folds the CASE to one of them.
		fn, zero := "greatest", "CASE WHEN %[1]s = 0.0D AND %[2]s = 0.0D THEN (%[1]s + %[2]s)"
		if e.Fn == MinDouble {
			fn, zero = "least", "CASE WHEN %[1]s = 0.0D AND %[2]s = 0.0D THEN (- ((- %[1]s) + (- %[2]s)))"
		}
		fmt.Fprintf(b, zero+" WHEN isnan(%[1]s) OR isnan(%[2]s) THEN CAST('NaN' AS DOUBLE) ELSE %[3]s(%[1]s, %[2]s) END", args[0], args[1], fn)
		return nil
	case RoundDoubleToLong:
		// floor(x) is exact and x - floor(x) is the exact fraction, so
		// the tie rule is decided on the binary value (x + 0.5 would
		// round first). NaN is 0; beyond the long range it clamps.
		fmt.Fprintf(b, "CASE WHEN isnan(%[1]s) THEN 0L WHEN %[1]s >= 9.223372036854775807E18D THEN 9223372036854775807L WHEN %[1]s <= -9.223372036854775808E18D THEN %[2]s "+
			"ELSE CAST(floor(%[1]s) AS BIGINT) + CASE WHEN %[1]s - CAST(CAST(floor(%[1]s) AS BIGINT) AS DOUBLE) >= 0.5D THEN 1L ELSE 0L END END", args[0], minLong)
		return nil
	case IsEmpty:
		b.WriteString("(" + args[0] + " = '')")
		return nil
	case CodePointLength:
		b.WriteString("char_length(" + args[0] + ")")
		return nil
	case PySlice:
		return pySliceSQL(b, args[0], e.Args[1].(*Lit).Value, e.Args[2].(*Lit).Value)
	case PyCharAt:
		// s[k] for k >= 0 is the (k+1)th code point; s[-k] the kth from
		// the end. Spark's substring clamps where CPython raises.
		k := e.Args[1].(*Lit).Value.(int64)
		pos, need := k+1, k+1
		if k < 0 {
			pos, need = k, -k
		}
		fmt.Fprintf(b, "CASE WHEN char_length(%[1]s) >= %[2]d THEN substring(%[1]s, %[3]d, 1) ELSE raise_error('udfx: the original throws IndexError (string index out of range)') END", args[0], need, pos)
		return nil
	case PyDateYear, PyDateMonth, PyDateDay, PyWeekday, PyIsoWeekday, PyIsoFormat, PyDaysBetween:
		f := map[Func]string{PyDateYear: "year(%[1]s)", PyDateMonth: "month(%[1]s)", PyDateDay: "day(%[1]s)",
			PyWeekday: "((dayofweek(%[1]s) + 5) %% 7)", PyIsoWeekday: "(((dayofweek(%[1]s) + 5) %% 7) + 1)", PyIsoFormat: "CAST(%[1]s AS STRING)",
			PyDaysBetween: "datediff(%[1]s, %[2]s)"}[e.Fn]
		var out []string
		for _, a := range args {
			out = append(out, fmt.Sprintf("%[1]s < DATE '0001-01-01' OR %[1]s > DATE '9999-12-31'", a))
		}
		vals := make([]any, len(args))
		for i, a := range args {
			vals[i] = a
		}
		fmt.Fprintf(b, "CASE WHEN %s THEN raise_error('udfx: the original throws ValueError (a date outside the range of datetime.date)') ELSE %s END",
			strings.Join(out, " OR "), fmt.Sprintf(f, vals...))
		return nil
	case PyFloatOrElse, PyIntOrElse:
		ws, ok := e.Args[2].(*Lit)
		if len(args) != 5 || !ok {
			return sqlErr("float() or int() without its character tables")
		}
		text := trimSQL("translate("+args[0]+", "+args[3]+", "+args[4]+")", ws.Value.(string), true, true)
		if e.Fn == PyIntOrElse {
			return pyIntSQL(b, text, args[1])
		}
		return pyFloatSQL(b, text, args[1])
	case UTF16Length:
		// The class matches whole code points, in Java's regex as in
		// the engine's.
		b.WriteString("(char_length(" + args[0] + ") + char_length(regexp_replace(" + args[0] + ", '[^\\\\x{10000}-\\\\x{10FFFF}]', '')))")
		return nil
	case Concat:
		b.WriteString("concat(" + strings.Join(args, ", ") + ")")
		return nil
	case JVMStringOf:
		x := args[0]
		if t := e.Args[0].Type(); t == nil {
			b.WriteString("'null'")
			return nil
		} else if t.Kind != udf.String {
			if t.Kind != udf.Int && t.Kind != udf.Long && t.Kind != udf.Boolean {
				return sqlErr("String.valueOf of " + t.String())
			}
			x = "CAST(" + x + " AS STRING)"
		}
		b.WriteString("coalesce(" + x + ", 'null')")
		return nil
	case MaxInt:
		b.WriteString("greatest(" + strings.Join(args, ", ") + ")")
		return nil
	case MinInt:
		b.WriteString("least(" + strings.Join(args, ", ") + ")")
		return nil
	case FloorDouble:
		// Spark's floor returns BIGINT: keep what it cannot hold (NaN,
		// infinities, |x| >= 2^52, which are already integral) and the
		// zeros (whose sign the BIGINT would lose) as they are.
		fmt.Fprintf(b, "CASE WHEN isnan(%[1]s) OR abs(%[1]s) >= 4.503599627370496E15D OR %[1]s = 0.0D THEN %[1]s ELSE CAST(floor(%[1]s) AS DOUBLE) END", args[0])
		return nil
	case CeilDouble:
		// As floor; and Math.ceil of a value in (-1, 0) is -0.0.
		fmt.Fprintf(b, "CASE WHEN isnan(%[1]s) OR abs(%[1]s) >= 4.503599627370496E15D OR %[1]s = 0.0D THEN %[1]s WHEN %[1]s > -1.0D AND %[1]s < 0.0D THEN (-0.0D) ELSE CAST(ceil(%[1]s) AS DOUBLE) END", args[0])
		return nil
	}
	return sqlErr("the function " + string(e.Fn))
}

// pySliceSQL renders s[a:b] (a, b int64 or nil) with Spark's substring,
// whose clamping of a start before the string and of a length past its
// end is CPython's; a bound that counts from the end of a string whose
// length is not known is computed from char_length.
func pySliceSQL(b *strings.Builder, s string, a, z any) error {
	start, hasStart := a.(int64)
	stop, hasStop := z.(int64)
	switch {
	case !hasStart && !hasStop:
		b.WriteString(s)
	case hasStart && start < 0 && !hasStop:
		fmt.Fprintf(b, "substring(%s, %d)", s, start)
	case hasStart && start < 0 && stop < 0:
		if stop <= start {
			b.WriteString("''")
			return nil
		}
		fmt.Fprintf(b, "substring(%s, %d, %d)", s, start, stop-start)
	case hasStart && start < 0:
		return sqlErr("a slice from the end to a position from the start")
	case !hasStop:
		fmt.Fprintf(b, "substring(%s, %d)", s, start+1)
	case stop >= 0:
		if stop <= start {
			b.WriteString("''")
			return nil
		}
		fmt.Fprintf(b, "substring(%s, %d, %d)", s, start+1, stop-start)
	default:
		// s[a:-n]: up to n code points before the end; a length <= 0
		// is the empty string in Spark as in CPython.
		fmt.Fprintf(b, "substring(%s, %d, char_length(%s) - %d)", s, start+1, s, start-stop)
	}
	return nil
}

// IntRange is the interval an integral expression's value lies in, when
// the translator can bound it: literals, columns (their Spark type), the
// Python date parts and lengths, conditionals and bounded arithmetic.
func IntRange(e Expr) (lo, hi *big.Int, ok bool) {
	n := func(v int64) *big.Int { return big.NewInt(v) }
	switch e := e.(type) {
	case *Lit:
		if v, isInt := e.Value.(int64); isInt {
			return n(v), n(v), true
		}
	case *Col:
		switch e.T.Kind {
		case udf.Int:
			return n(math.MinInt32), n(math.MaxInt32), true
		case udf.Long:
			return n(math.MinInt64), n(math.MaxInt64), true
		}
	case *Cast:
		if e.Kind == Widen && IsIntegral(e.To) {
			return IntRange(e.X)
		}
	case *If:
		if _, raise := e.Then.(*Raise); raise {
			return IntRange(e.Else)
		}
		if _, raise := e.Else.(*Raise); raise {
			return IntRange(e.Then)
		}
		l1, h1, ok1 := IntRange(e.Then)
		l2, h2, ok2 := IntRange(e.Else)
		if lit, isLit := e.Then.(*Lit); isLit && lit.Value == nil {
			return l2, h2, ok2
		}
		if lit, isLit := e.Else.(*Lit); isLit && lit.Value == nil {
			return l1, h1, ok1
		}
		if ok1 && ok2 {
			return minBig(l1, l2), maxBig(h1, h2), true
		}
	case *Call:
		switch e.Fn {
		case PyDateYear:
			return n(1), n(9999), true
		case PyDateMonth:
			return n(1), n(12), true
		case PyDateDay:
			return n(1), n(31), true
		case PyWeekday:
			return n(0), n(6), true
		case PyIsoWeekday:
			return n(1), n(7), true
		case PyDaysBetween:
			return n(-3652058), n(3652058), true
		case CodePointLength, UTF16Length, Size:
			return n(0), n(math.MaxInt32), true
		}
	case *Binary:
		l1, h1, ok1 := IntRange(e.L)
		l2, h2, ok2 := IntRange(e.R)
		if !ok1 || !ok2 {
			return nil, nil, false
		}
		switch e.Op {
		case PyIntAdd:
			return new(big.Int).Add(l1, l2), new(big.Int).Add(h1, h2), true
		case PyIntSub:
			return new(big.Int).Sub(l1, h2), new(big.Int).Sub(h1, l2), true
		case PyIntMul:
			c := []*big.Int{new(big.Int).Mul(l1, l2), new(big.Int).Mul(l1, h2), new(big.Int).Mul(h1, l2), new(big.Int).Mul(h1, h2)}
			lo, hi := c[0], c[0]
			for _, x := range c[1:] {
				lo, hi = minBig(lo, x), maxBig(hi, x)
			}
			return lo, hi, true
		}
	}
	return nil, nil, false
}

func minBig(a, b *big.Int) *big.Int {
	if a.Cmp(b) <= 0 {
		return a
	}
	return b
}

func maxBig(a, b *big.Int) *big.Int {
	if a.Cmp(b) >= 0 {
		return a
	}
	return b
}

// pyFloatSQL binds the normalized text once, as a lambda's parameter,
// so that the digit table appears once in the SQL.
func pyFloatSQL(b *strings.Builder, text, orElse string) error {
	const d = `[0-9](_?[0-9])*`
	num := `^[+-]?(` + d + `(\\.(` + d + `)?)?|\\.` + d + `)([eE][+-]?` + d + `)?$`
	inf := `[iI][nN][fF]([iI][nN][iI][tT][yY])?`
	fmt.Fprintf(b, "coalesce(element_at(transform(array(%s), udfx_s -> "+
		"CASE WHEN udfx_s RLIKE '%s' THEN CAST(replace(udfx_s, '_', '') AS DOUBLE) "+
		"WHEN udfx_s RLIKE '^[+]?%s$' THEN CAST('Infinity' AS DOUBLE) "+
		"WHEN udfx_s RLIKE '^-%s$' THEN CAST('-Infinity' AS DOUBLE) "+
		"WHEN udfx_s RLIKE '^[+-]?[nN][aA][nN]$' THEN CAST('NaN' AS DOUBLE) "+
		"ELSE CAST(NULL AS DOUBLE) END), 1), %s)",
		text, num, inf, inf, orElse)
	return nil
}

// operandsSQL renders both operands of a binary node.
func operandsSQL(e *Binary) (string, string, error) {
	l, err := SQL(e.L)
	if err != nil {
		return "", "", err
	}
	r, err := SQL(e.R)
	return l, r, err
}

// pyIntSQL is int(s) with a fallback: the fallback is evaluated inside the
// lambda, since NULL is a result here (an int beyond BIGINT).
func pyIntSQL(b *strings.Builder, text, orElse string) error {
	// Leading zeros off, then at most 19 digits and within the range.
	d := `regexp_replace(replace(udfx_s, '_', ''), '^([+-]?)0+([0-9])', '$1$2')`
	fmt.Fprintf(b, "element_at(transform(array(%s), udfx_s -> "+
		"CASE WHEN udfx_s RLIKE '^[+-]?[0-9](_?[0-9])*$' THEN "+
		"CASE WHEN char_length(regexp_replace(%[2]s, '^[+-]', '')) > 19 THEN CAST(NULL AS BIGINT) "+
		"WHEN CAST(%[2]s AS DECIMAL(20,0)) >= -9223372036854775808BD AND CAST(%[2]s AS DECIMAL(20,0)) <= 9223372036854775807BD THEN CAST(%[2]s AS BIGINT) "+
		"ELSE CAST(NULL AS BIGINT) END ELSE %[3]s END), 1)",
		text, d, orElse)
	return nil
}

// trimSQL removes the characters of set from the start and/or the end of
// s, as TRIM(BOTH set FROM s) does, but with the set written as \x{...}
// escapes of a regex class: Spark prints a literal's characters raw in
// its plans, and a raw line break would split the plan's lines. \z, not
// $, which in Java also matches before a final line terminator.
func trimSQL(s, set string, leading, trailing bool) string {
	var class strings.Builder
	class.WriteByte('[')
	for _, r := range set {
		switch {
		case r < 0x80 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'):
			class.WriteRune(r)
		default:
			fmt.Fprintf(&class, `\\x{%X}`, r)
		}
	}
	class.WriteString("]+")
	var alts []string
	if leading {
		alts = append(alts, "^"+class.String())
	}
	if trailing {
		alts = append(alts, class.String()+`\\z`)
	}
	return "regexp_replace(" + s + ", '" + strings.Join(alts, "|") + "', '')"
}
