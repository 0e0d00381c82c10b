// Package ir is the translator's typed expression language. A node means
// what the original language computes (a JVM int addition wraps, a Java
// double division by zero is ±Infinity), not what a target computes: each
// renderer (harness/render: Spark SQL, cuDF Java, CUDA C++) must either
// reproduce that meaning exactly or refuse the node. Types are Spark SQL types from
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
	// DoubleDivGuarded and DoubleRemGuarded are DoubleDivNonZero and
	// DoubleRemNonZero by a divisor that is not a constant, where the
	// translator proved it non-zero from the branch it is evaluated in
	// (the else of b == 0.0). A renderer that evaluates both branches of
	// a conditional for every row must not emit them.
	DoubleDivGuarded Op = "double/guarded"
	DoubleRemGuarded Op = "double%guarded"
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
	// PyIntMod and PyIntFloorDiv are CPython's int % and // by a value:
	// floored, where the translator has put the raise of a zero divisor
	// before them and shown that // cannot overflow (the smallest BIGINT
	// by -1).
	PyIntMod      Op = "pyint%"
	PyIntFloorDiv Op = "pyint//"
	// PyIntAdd, PyIntSub and PyIntMul are CPython's int + - * where the
	// translator has proved (IntRange) that the exact result fits in
	// BIGINT: computed in BIGINT, where Spark's operator is then exact.
	PyIntAdd Op = "pyint+bounded"
	PyIntSub Op = "pyint-bounded"
	PyIntMul Op = "pyint*bounded"
	// DoubleNeg and IntNegWrap are unary minus (IEEE; wrapping).
	DoubleNeg  Op = "double-neg"
	IntNegWrap Op = "int-neg-wrap"
	// CodePointAdd adds a small constant to a code-point index into a
	// string (CPIndexOf, char_length): both are within a string's
	// length, far from INT's limits, so it never overflows.
	CodePointAdd Op = "cp+"
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
	// LongToInt keeps a bigint's low 32 bits: Java's (int) of a long,
	// and PySpark's storing of a Python int (within 64 bits) for an int
	// UDF (checked with PySpark 4.1.1: 2**31 is -2**31).
	LongToInt CastKind = "long-to-int"
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
	// DecimalRoundHalfUp and DecimalRoundHalfEven are the JVM's
	// BigDecimal.valueOf(Args[0]).setScale(Args[1], HALF_UP or
	// HALF_EVEN).doubleValue() (Scala's BigDecimal(x).setScale(…)
	// .toDouble): the shortest decimal Double.toString gives, rounded at
	// the literal scale Args[1], read back as a double. NaN and the
	// infinities throw NumberFormatException. Spark's round and bround of
	// a DOUBLE compute exactly that in the JVM that runs them (RoundBase),
	// so the two agree on every JDK, whatever digits its toString gives.
	DecimalRoundHalfUp   Func = "decimal-round-half-up"
	DecimalRoundHalfEven Func = "decimal-round-half-even"
	// IsEmpty is String.isEmpty on a non-null string.
	IsEmpty Func = "isempty"
	// PyIntPadded is CPython's format(x, "Wd") (Args[2] false) or
	// format(x, "0Wd") (true) of an int x, with the width W the literal
	// Args[1]: the decimal digits padded on the left to W with spaces,
	// or with zeros after the sign; never cut.
	PyIntPadded Func = "py-int-padded"
	// UTF8Length is the number of bytes of a string in UTF-8: the JVM's
	// s.getBytes(UTF_8).length, Spark's octet_length (its strings are
	// valid UTF-8, so no lone surrogate reaches the original).
	UTF8Length Func = "utf8-length"
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
	PyDateYear   Func = "py-date-year"
	PyDateMonth  Func = "py-date-month"
	PyDateDay    Func = "py-date-day"
	PyWeekday    Func = "py-weekday"
	PyIsoWeekday Func = "py-isoweekday"
	PyIsoFormat  Func = "py-isoformat"
	// PyUTCStrftime is CPython's datetime.utcfromtimestamp(s).strftime(
	// Args[1]) of Args[0], whole seconds since the epoch (BIGINT): the
	// literal format holds only the directives StrftimeDirectives lists,
	// %Y unpadded below 1000 as glibc prints it. A time outside years 1
	// to 9999 raises ValueError.
	PyUTCStrftime Func = "py-utc-strftime"
	PyDaysBetween Func = "py-days-between"
	// PyDateStrftime is CPython's d.strftime(Args[1]) of a datetime.date
	// Args[0]: the date at midnight, formatted as PyUTCStrftime formats a
	// time. A date outside 0001-01-01..9999-12-31 raises ValueError.
	PyDateStrftime Func = "py-date-strftime"
	// PyDateAddDays is CPython's d + timedelta(days=k) of a datetime.date
	// Args[0] and an int k (Args[1], BIGINT) times Args[2] (1, or -1 for
	// d - timedelta(days=k)): OverflowError where |k| passes timedelta's
	// 999999999 days or the date leaves years 1 to 9999, and ValueError,
	// as for the other date functions, where Args[0] is outside them.
	PyDateAddDays Func = "py-date-add-days"
	// JVMDateFormatUTC is the JDK's new SimpleDateFormat(Args[1]) with
	// its time zone set to UTC, formatting new Date(Args[0]) (milliseconds
	// since the epoch, BIGINT) in the en_US locale the runner and the
	// Spark session give their JVMs: GregorianCalendar's Julian calendar
	// before 1582-10-15, the Gregorian after, the year of the era (1 BC
	// prints 1), over every long. Args[1] is a literal pattern that
	// ParseSimpleDateFormat accepts.
	JVMDateFormatUTC Func = "jvm-date-format-utc"
	// JVMDateTimeFormatUTC is java.time's DateTimeFormatter.ofPattern(
	// Args[1]) formatting Instant.ofEpochMilli(Args[0]) in UTC, in en_US:
	// ISO's proleptic Gregorian calendar over every long, the year of the
	// era printed with a + where it passes a width of four or more, S a
	// fraction of the second. Args[1] is a literal pattern that
	// ParseDateTimeFormatter accepts.
	JVMDateTimeFormatUTC Func = "jvm-date-time-format-utc"
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
	// RegexpFind is true where the literal Java pattern Args[1] is found
	// in Args[0] (Matcher.find): Spark's RLIKE.
	RegexpFind Func = "regexp-find"
	// EmptyArray is an empty array of the call's type (Python's []).
	EmptyArray Func = "empty-array"
	// UTF16Length is String.length on the JVM: UTF-16 code units, i.e.
	// code points plus one for each supplementary code point.
	UTF16Length Func = "utf16-length"
	// JVMTake is Scala's s.take(n) for a literal n >= 0: the first n
	// UTF-16 code units (all of s where it is shorter). Where unit n
	// falls inside a surrogate pair the result ends with its high half,
	// which Spark stores as '?', as it stores every lone surrogate.
	JVMTake Func = "jvm-take"
	// CPIndexOf is the code-point index of the first occurrence of the
	// non-empty string Args[1] in Args[0], at or after the code-point
	// index Args[2] when given (a negative one counts as 0), or -1.
	// CPLastIndexOf is the index of the last occurrence. They are the
	// JVM's String.indexOf and lastIndexOf counted in code points: a
	// well-formed string is found in UTF-16 only where it starts and ends
	// on code points, so both find the same occurrence.
	CPIndexOf     Func = "cp-index-of"
	CPLastIndexOf Func = "cp-last-index-of"
	// UTF16OfCP is the number of UTF-16 code units in the first Args[1]
	// code points of Args[0] (-1 for -1): the JVM's value of an offset
	// the translator tracked in code points.
	UTF16OfCP Func = "utf16-of-cp"
	// CPSubstring is the code points of Args[0] from index Args[1] to
	// Args[2] (the end when absent). The translator proves, or guards,
	// that 0 <= Args[1] <= Args[2] <= the length, where
	// String.substring throws.
	CPSubstring Func = "cp-substring"
	// Concat joins strings that are never NULL.
	Concat Func = "concat"
	// JVMStringOf is String.valueOf as string concatenation uses it: a
	// null is "null", an int, long or boolean prints as Java does.
	JVMStringOf Func = "jvm-string-of"
	// PySplit is Python's str.split(sep) with a non-empty literal
	// separator: every field, empty ones included (Spark's split with its
	// default limit -1, the separator quoted for its regex).
	PySplit Func = "py-split"
	// PySplitWords is Python's str.split() without a separator: the runs
	// of characters that are not in the literal Args[1] (str.isspace's),
	// none where the string is empty or all whitespace. Spark's split on
	// the set's runs gives the same fields and an empty one at either end
	// that begins or ends with whitespace; those are dropped.
	PySplitWords Func = "py-split-words"
	// JVMSplit is Java's String.split(regex) (limit 0) with Args[1] a
	// literal regex that matches only non-empty strings: the fields
	// Spark's split gives (the same java.util.regex split, limit -1)
	// without the trailing empty ones, unless nothing matched (then the
	// whole string, even when empty).
	JVMSplit Func = "jvm-split"
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
	// PyRoundDigits is CPython's round(x, k) of a float x for a literal
	// k from 0 to 10 (Args[1]), a float: the exact binary value of x
	// rounded half to even at k decimals, then the double nearest that
	// decimal (CPython's _Py_dg_dtoa and _Py_dg_strtod); NaN, the
	// infinities, zeros and |x| >= 2^52 are x itself. Spark's round and
	// bround round the shortest decimal instead (round(2.675, 2) is 2.68
	// there, 2.67 in CPython).
	PyRoundDigits Func = "py-round-digits"
	// PyFormatFixed is CPython's format(x, ".kf") of a float x for a
	// literal k from 0 to 10 (Args[1]), a str: the exact binary value of
	// x rounded half to even at k decimals and printed with all its
	// integer digits (1e23 is 99999999999999991611392), a '-' where x's
	// sign bit is set (-0.001 gives -0.00), "nan", "inf" and "-inf".
	// Spark's format_number and format_string print the shortest
	// decimal's digits instead.
	PyFormatFixed Func = "py-format-fixed"
	// PyIntExact is CPython's int Args[0] op Args[1] (Args[2] a string
	// literal: +, - or *) of two ints within BIGINT, computed exactly in
	// DECIMAL, returned by a bigint or int UDF: beyond BIGINT PySpark
	// stores NULL for both (checked with PySpark 4.1.1), within it the
	// value (an int UDF then keeps its low 32 bits). Only valid as the
	// UDF's result, like PyIntOfFloat.
	PyIntExact Func = "py-int-exact"
	// PyStrptimeValid and PyStrptimeStrftime are CPython's
	// datetime.strptime(s, F) on a str s not None, for a format F of
	// numeric directives only: Args are s, the Java regular expression
	// _strptime compiles F to (anchored at the start), the field each
	// of its groups holds ("dmY"), and the digit translation (Unicode
	// decimal digits, which \d matches and int() reads, to ASCII), then
	// the pattern as it is over ASCII text alone (the same matches and
	// groups there, with ASCII classes: the renderer's short path).
	// Valid is whether strptime returns (the text matches and the date
	// exists); Strftime, where it does, the datetime's strftime(Args[6]).
	PyStrptimeValid    Func = "py-strptime-valid"
	PyStrptimeStrftime Func = "py-strptime-strftime"
	// PyLower and PyUpper are CPython's str.lower() and str.upper() on a
	// str that is not None: full case mappings (ß is SS, İ is i̇) and
	// final sigma, with the Unicode database of the CPython that
	// package pycase's tables were read from (Result.Assumes names it).
	PyLower Func = "py-lower"
	PyUpper Func = "py-upper"
	// PyTitle and PyCapitalize are CPython's str.title() and
	// str.capitalize() on a str that is not None: a code point after a
	// cased one (title), or any but the first (capitalize), lower-cased
	// as PyLower does, and the others mapped to their full titlecase (ß
	// is Ss, ǆ is ǅ), with the same Unicode database.
	PyTitle      Func = "py-title"
	PyCapitalize Func = "py-capitalize"
	// JVMUpper is the JDK's String.toUpperCase() in a locale other than
	// tr, az and lt, on a String not null, with the mappings of the JDK
	// package jdkcase's tables were read from (Result.JDKCase names it).
	JVMUpper Func = "jvm-upper"
	// JVMLower is the JDK's String.toLowerCase() likewise, final sigma
	// decided by the JDK's word boundaries (package jdkcase);
	// JVMLowerUpToSigma is it where the translator showed that σ and ς
	// give the same outcome (the value is only compared with a text
	// without them, or measured), which a renderer may write shorter.
	JVMLower          Func = "jvm-lower"
	JVMLowerUpToSigma Func = "jvm-lower-up-to-sigma"
	// JVMParseOrElse is Integer.parseInt(Args[0]) (Long.parseLong where
	// T is BIGINT, Double.parseDouble where it is DOUBLE) where it
	// returns, and Args[1] where it throws: a try whose catch gives a
	// fallback. The digits parseInt reads beyond ASCII are package
	// jdkcase's. Args[1] is also the value of a NULL Args[0], where
	// parseInt throws NumberFormatException and parseDouble
	// NullPointerException (a translation that does not catch that
	// raises first).
	JVMParseOrElse Func = "jvm-parse-or-else"
	// JVMURLDecodeOrElse is URLDecoder.decode(Args[0], UTF-8) where it
	// returns and Args[1] where it throws IllegalArgumentException (a
	// malformed %-escape) or, on null, NullPointerException: a try whose
	// catch catches those. Spark's url_decode is that call on the same
	// JVM classes.
	JVMURLDecodeOrElse Func = "jvm-url-decode-or-else"
	// StartsWith, EndsWith and Contains are String.startsWith/endsWith/
	// contains and Python's str.startswith/endswith and `in`.
	StartsWith Func = "startswith"
	EndsWith   Func = "endswith"
	Contains   Func = "contains"
	// TypeIs is true when Args[0], a parameter, has the Spark type Args[1]
	// names (a string literal as typeof spells it: 'int', 'bigint'). It
	// depends on the column's type alone, and Spark folds it to a
	// constant, so a conditional on it costs nothing per row.
	TypeIs Func = "typeof-is"
	// IsNaN is true where the double Args[0] is NaN and false elsewhere,
	// NULL included (Spark's isnan): a pandas_udf's Series holds NaN
	// where Spark stores NULL.
	IsNaN Func = "isnan"
	// NaNToNull is the double Args[0], NULL where it is NaN: how Spark
	// stores the NaN of the Series a pandas_udf returns.
	NaNToNull Func = "nan-to-null"
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

// Children are e's operands, in order; none for a leaf.
func Children(e Expr) []Expr {
	switch x := e.(type) {
	case *Unary:
		return []Expr{x.X}
	case *Binary:
		return []Expr{x.L, x.R}
	case *IsNull:
		return []Expr{x.X}
	case *If:
		return []Expr{x.Cond, x.Then, x.Else}
	case *Cast:
		return []Expr{x.X}
	case *Call:
		return x.Args
	}
	return nil
}

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
		case CodePointLength, UTF16Length, Size, UTF16OfCP, UTF8Length:
			return n(0), n(math.MaxInt32), true
		case CPIndexOf, CPLastIndexOf:
			return n(-1), n(math.MaxInt32), true
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
		case PyIntFloorDivConst:
			// Floored, so monotone in the dividend: increasing for a
			// positive divisor, decreasing for a negative one.
			if l2.Cmp(h2) != 0 || l2.Sign() == 0 {
				return nil, nil, false
			}
			a, b := floorDiv(l1, l2), floorDiv(h1, l2)
			return minBig(a, b), maxBig(a, b), true
		case PyIntModConst:
			// The sign of the divisor: 0 <= x % c < c, or c < x % c <= 0.
			if l2.Cmp(h2) != 0 || l2.Sign() == 0 {
				return nil, nil, false
			}
			if l2.Sign() > 0 {
				return n(0), new(big.Int).Sub(l2, n(1)), true
			}
			return new(big.Int).Add(l2, n(1)), n(0), true
		case PyIntMod:
			// |x % y| < |y|.
			a := maxBig(new(big.Int).Abs(l2), new(big.Int).Abs(h2))
			a.Sub(a, n(1))
			if a.Sign() < 0 {
				return nil, nil, false
			}
			return new(big.Int).Neg(a), a, true
		case PyIntFloorDiv:
			// |floor(x / y)| <= |x| for an integer y other than 0.
			a := maxBig(new(big.Int).Abs(l1), new(big.Int).Abs(h1))
			return new(big.Int).Neg(a), a, true
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

// floorDiv is a / b rounded toward negative infinity.
func floorDiv(a, b *big.Int) *big.Int {
	q, m := new(big.Int).QuoRem(a, b, new(big.Int))
	if m.Sign() != 0 && (m.Sign() < 0) != (b.Sign() < 0) {
		q.Sub(q, big.NewInt(1))
	}
	return q
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

// StrftimeDirectives are the letters after % that a strftime format of
// fn may hold (and %%): the translator declines a format with any other,
// and the renderer refuses it. Besides the numbers of the date and the
// time they are %j (the day of the year), %w and %u (the weekday, from
// Sunday 0 and from Monday 1), and the English names of the C locale
// (%A %a %B %b %p), which CPython prints until a program calls
// locale.setlocale (the translator checks that none can).
func StrftimeDirectives(fn Func) string {
	switch fn {
	case PyUTCStrftime, PyDateStrftime:
		return "YymdHMSIjwuAaBbp"
	case PyStrptimeStrftime:
		return "YymdHMS"
	}
	return ""
}

// StrftimeNames are the directives of StrftimeDirectives that print the
// names of the C locale.
const StrftimeNames = "AaBbp"
