// Package sparksql renders the translator's IR as a Spark SQL expression
// that, with spark.sql.ansi.enabled=true, evaluates to what the IR means
// (the original language's result) on every input, or refuses the node
// with *ir.RenderError. It is the renderer of the sql target, beside
// harness/render/columnar and harness/render/cuda.
package sparksql

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/udfx/udfx/harness/casemap"
	"github.com/udfx/udfx/harness/jdkcase"
	"github.com/udfx/udfx/harness/pycase"
	"github.com/udfx/udfx/harness/render/sqllit"
	"github.com/udfx/udfx/harness/translate/ir"
	"github.com/udfx/udfx/harness/udf"
)

var sqlOps = map[ir.Op]string{
	ir.DoubleAdd: "+", ir.DoubleSub: "-", ir.DoubleMul: "*", ir.DoubleDivNonZero: "/", ir.PyFloatDiv: "/",
	ir.DoubleRemNonZero: "%", ir.JavaIntRem: "%", ir.DoubleDivGuarded: "/", ir.DoubleRemGuarded: "%", ir.And: "AND", ir.Or: "OR",
	// Only ir.ForANSIOff makes these, for a Spark with ANSI off, whose
	// integral operators wrap as the JVM's do.
	ir.ANSIOffIntAdd: "+", ir.ANSIOffIntSub: "-", ir.ANSIOffIntMul: "*",
	ir.ANSIOffLongAdd: "+", ir.ANSIOffLongSub: "-", ir.ANSIOffLongMul: "*",
}

const minLong = "CAST(-9223372036854775808 AS BIGINT)"

// Render renders e as a Spark SQL expression that, with
// spark.sql.ansi.enabled=true, evaluates to what e means on every input.
func Render(e ir.Expr) (string, error) {
	var b strings.Builder
	if err := sqlOf(&b, e); err != nil {
		return "", err
	}
	return b.String(), nil
}

// quoteIdent is a column name as Spark SQL reads it, backquoted.
func quoteIdent(name string) string { return "`" + strings.ReplaceAll(name, "`", "``") + "`" }

func stringLit(s string) *ir.Lit { return &ir.Lit{T: udf.Prim(udf.String), Value: s} }

func sqlErr(what string) error { return &ir.RenderError{Target: "Spark SQL", What: what} }

func sqlOf(b *strings.Builder, e ir.Expr) error {
	sub := func(x ir.Expr) error { return sqlOf(b, x) }
	switch e := e.(type) {
	case *ir.Lit:
		s, err := litSQL(e)
		if err != nil {
			return err
		}
		b.WriteString(s)
		return nil
	case *ir.Col:
		b.WriteString(quoteIdent(e.Name))
		return nil
	case *ir.IsNull:
		b.WriteString("(")
		if err := sub(e.X); err != nil {
			return err
		}
		b.WriteString(" IS NULL)")
		return nil
	case *ir.If:
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
	case *ir.Raise:
		// Spark's raise_error is NULL-typed; CASE takes the other
		// branch's type, so the If keeps the original's type.
		msg, err := litSQL(&ir.Lit{T: udf.Prim(udf.String), Value: e.Msg})
		if err != nil {
			return err
		}
		b.WriteString("raise_error(" + msg + ")")
		return nil
	case *ir.Unary:
		return unarySQL(b, e)
	case *ir.Binary:
		return binarySQL(b, e)
	case *ir.Cast:
		return castSQL(b, e)
	case *ir.Call:
		return callSQL(b, e)
	}
	return sqlErr(fmt.Sprintf("the node %T", e))
}

func litSQL(e *ir.Lit) (string, error) {
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
		if e.T != nil && e.T.Kind == udf.Date {
			// A date literal holds YYYY-MM-DD (datetime.date(y, m, d)).
			if _, err := time.Parse("2006-01-02", v); err != nil {
				return "", sqlErr(fmt.Sprintf("the date literal %q", v))
			}
			return "DATE " + sqllit.String(v), nil
		}
		return sqllit.String(v), nil
	}
	return "", sqlErr(fmt.Sprintf("the %s literal %v", e.T, e.Value))
}

// isNaNFree reports whether x can never be NaN: a literal that is not
// NaN, or a value that is not floating point.
func isNaNFree(x ir.Expr) bool {
	if !ir.IsDouble(x.Type()) {
		return true
	}
	if l, ok := x.(*ir.Lit); ok {
		f, ok := l.Value.(float64)
		return ok && !math.IsNaN(f)
	}
	return false
}

func unarySQL(b *strings.Builder, e *ir.Unary) error {
	switch e.Op {
	case ir.Not:
		b.WriteString("(NOT ")
		if err := sqlOf(b, e.X); err != nil {
			return err
		}
		b.WriteString(")")
		return nil
	case ir.DoubleNeg:
		b.WriteString("(- ")
		if err := sqlOf(b, e.X); err != nil {
			return err
		}
		b.WriteString(")")
		return nil
	case ir.IntNegWrap:
		return sqlOf(b, &ir.Binary{Op: ir.JavaIntSub, L: &ir.Lit{T: e.T, Value: int64(0)}, R: e.X, T: e.T})
	case ir.LongNegWrap:
		x, err := Render(e.X)
		if err != nil {
			return err
		}
		fmt.Fprintf(b, "CASE WHEN %[1]s = %[2]s THEN %[2]s ELSE (- %[1]s) END", x, minLong)
		return nil
	}
	return sqlErr("the unary operator " + string(e.Op))
}

func binarySQL(b *strings.Builder, e *ir.Binary) error {
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
	case ir.CodePointAdd:
		sql, err := cpIndexSQL(e, 0)
		b.WriteString(sql)
		return err
	case ir.DoubleAdd, ir.DoubleSub, ir.DoubleMul, ir.PyFloatDiv, ir.JavaIntRem, ir.And, ir.Or:
		return pair(sqlOps[e.Op])
	case ir.StrEqNullSafe:
		return pair("<=>")
	case ir.JavaLongAdd, ir.JavaLongSub, ir.JavaLongMul:
		return longWrapSQL(b, e)
	case ir.JavaLongDiv:
		return longDivSQL(b, e)
	case ir.PyFloatModConst, ir.PyIntModConst, ir.PyIntFloorDivConst:
		return pyModSQL(b, e)
	case ir.PyIntMod, ir.PyIntFloorDiv:
		l, r, err := operandsSQL(e)
		if err != nil {
			return err
		}
		// Java's % truncates: where it leaves a remainder whose sign is
		// not the divisor's, the floored one is a divisor further (no
		// overflow: the two have opposite signs), and the quotient one
		// less.
		if e.Op == ir.PyIntMod {
			fmt.Fprintf(b, "CASE WHEN (%[1]s %% %[2]s) <> 0 AND (((%[1]s %% %[2]s) < 0) <> (%[2]s < 0)) THEN ((%[1]s %% %[2]s) + %[2]s) ELSE (%[1]s %% %[2]s) END", l, r)
		} else {
			fmt.Fprintf(b, "CAST((%[1]s div %[2]s) - CASE WHEN (%[1]s %% %[2]s) <> 0 AND ((%[1]s < 0) <> (%[2]s < 0)) THEN 1 ELSE 0 END AS %[3]s)", l, r, strings.ToUpper(e.T.String()))
		}
		return nil
	case ir.PyIntAdd, ir.PyIntSub, ir.PyIntMul:
		l, r, err := operandsSQL(e)
		if err != nil {
			return err
		}
		op := map[ir.Op]string{ir.PyIntAdd: "+", ir.PyIntSub: "-", ir.PyIntMul: "*"}[e.Op]
		fmt.Fprintf(b, "CAST((CAST(%s AS BIGINT) %s CAST(%s AS BIGINT)) AS %s)", l, op, r, strings.ToUpper(e.T.String()))
		return nil
	case ir.DoubleDivNonZero, ir.DoubleRemNonZero:
		if !ir.NonZeroConst(e.R) {
			return sqlErr("a double division by a divisor that may be zero")
		}
		return pair(sqlOps[e.Op])
	case ir.DoubleDivGuarded, ir.DoubleRemGuarded:
		// CASE evaluates only the branch it takes, where the divisor is
		// not zero.
		return pair(sqlOps[e.Op])
	case ir.JavaIntAdd, ir.JavaIntSub, ir.JavaIntMul, ir.JavaIntDiv:
		return wrapSQL(b, e)
	case ir.ANSIOffIntAdd, ir.ANSIOffIntSub, ir.ANSIOffIntMul, ir.ANSIOffLongAdd, ir.ANSIOffLongSub, ir.ANSIOffLongMul:
		return pair(sqlOps[e.Op])
	case ir.Eq, ir.Ne, ir.Lt, ir.Le, ir.Gt, ir.Ge:
		return cmpSQL(b, e)
	}
	return sqlErr("the operator " + string(e.Op))
}

// wrapSQL computes the operation in BIGINT, where it cannot overflow
// (or, for div, where only MinValue / -1 leaves the INT range), and
// folds the result back into the INT range the way two's complement
// wraps. Spark's ANSI mode would raise ARITHMETIC_OVERFLOW on the plain
// INT operator where the JVM wraps.
func wrapSQL(b *strings.Builder, e *ir.Binary) error {
	if e.T.Kind != udf.Int {
		return sqlErr("wrapping " + string(e.Op) + " on " + e.T.String())
	}
	op := map[ir.Op]string{ir.JavaIntAdd: "+", ir.JavaIntSub: "-", ir.JavaIntMul: "*", ir.JavaIntDiv: "div"}[e.Op]
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

// longWrapSQL computes a long + - * in DECIMAL(38,0), which holds any
// sum or product of two longs (|a*b| <= 2^126 < 10^38), and folds it
// into the BIGINT range as two's complement wraps.
func longWrapSQL(b *strings.Builder, e *ir.Binary) error {
	if e.T.Kind != udf.Long {
		return sqlErr("wrapping " + string(e.Op) + " on " + e.T.String())
	}
	l, r, err := operandsSQL(e)
	if err != nil {
		return err
	}
	op := map[ir.Op]string{ir.JavaLongAdd: "+", ir.JavaLongSub: "-", ir.JavaLongMul: "*"}[e.Op]
	fmt.Fprintf(b, "CAST(pmod((CAST(%s AS DECIMAL(20,0)) %s CAST(%s AS DECIMAL(20,0))) + 9223372036854775808BD, 18446744073709551616BD) - 9223372036854775808BD AS BIGINT)", l, op, r)
	return nil
}

// longDivSQL is Java's long division: Spark's div truncates as Java does
// and raises DIVIDE_BY_ZERO for zero; only MIN_VALUE / -1, which Spark
// rejects as an overflow, needs the wrap.
func longDivSQL(b *strings.Builder, e *ir.Binary) error {
	l, err := Render(e.L)
	if err != nil {
		return err
	}
	r, err := Render(e.R)
	if err != nil {
		return err
	}
	if lt, ok := e.R.(*ir.Lit); ok {
		if v, ok := lt.Value.(int64); ok && v != -1 && v != 0 {
			fmt.Fprintf(b, "(%s div %s)", l, r)
			return nil
		}
	}
	fmt.Fprintf(b, "CASE WHEN %[2]s = -1L THEN (CASE WHEN %[1]s = %[3]s THEN %[3]s ELSE (- %[1]s) END) ELSE (%[1]s div %[2]s) END", l, r, minLong)
	return nil
}

// pyModSQL renders CPython's floored % and // by a non-zero constant c.
func pyModSQL(b *strings.Builder, e *ir.Binary) error {
	l, err := Render(e.L)
	if err != nil {
		return err
	}
	lt, ok := e.R.(*ir.Lit)
	if !ok || !ir.NonZeroConst(lt) {
		return sqlErr("Python " + string(e.Op) + " by a divisor that is not a non-zero constant")
	}
	c, err := Render(lt)
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
	case ir.PyFloatModConst:
		// fmod(x, c), then moved into the divisor's sign; a zero result
		// takes the divisor's sign.
		zero, away := "0.0D", "<"
		if neg {
			zero, away = "(-0.0D)", ">"
		}
		fmt.Fprintf(b, "CASE WHEN (%[1]s %% %[2]s) = 0.0D THEN %[3]s WHEN (%[1]s %% %[2]s) %[4]s 0.0D THEN ((%[1]s %% %[2]s) + %[2]s) ELSE (%[1]s %% %[2]s) END", l, c, zero, away)
	case ir.PyIntModConst:
		if neg {
			// x % c for c < 0 is -((-x) % -c) floored: (x % c) moved to
			// (c, 0].
			fmt.Fprintf(b, "CASE WHEN (%[1]s %% %[2]s) > 0 THEN ((%[1]s %% %[2]s) + %[2]s) ELSE (%[1]s %% %[2]s) END", l, c)
		} else {
			fmt.Fprintf(b, "pmod(%s, %s)", l, c)
		}
	case ir.PyIntFloorDivConst:
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
func cmpSQL(b *strings.Builder, e *ir.Binary) error {
	var guards []ir.Expr
	for _, x := range []ir.Expr{e.L, e.R} {
		if !isNaNFree(x) {
			guards = append(guards, x)
		}
	}
	op := map[ir.Op]string{ir.Eq: "=", ir.Ne: "<>", ir.Lt: "<", ir.Le: "<=", ir.Gt: ">", ir.Ge: ">="}[e.Op]
	b.WriteString("(")
	if err := sqlOf(b, e.L); err != nil {
		return err
	}
	b.WriteString(" " + op + " ")
	if err := sqlOf(b, e.R); err != nil {
		return err
	}
	for _, g := range guards {
		if e.Op == ir.Ne {
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

func castSQL(b *strings.Builder, e *ir.Cast) error {
	switch e.Kind {
	case ir.Widen, ir.IntToString, ir.ANSIOffLongToInt:
		b.WriteString("CAST(")
		if err := sqlOf(b, e.X); err != nil {
			return err
		}
		b.WriteString(" AS " + strings.ToUpper(e.To.String()) + ")")
		return nil
	case ir.LongToInt:
		x, err := Render(e.X)
		if err != nil {
			return err
		}
		// pmod keeps the low 32 bits as 0..2^32-1 without overflowing
		// BIGINT (x + 2^31 could); shifted by 2^31 and taken mod 2^32
		// again, the top half comes out negative. x is written once and
		// nothing is bound by a lambda, which Spark would interpret.
		fmt.Fprintf(b, "CAST(pmod(pmod(%s, 4294967296L) + 2147483648L, 4294967296L) - 2147483648L AS INT)", x)
		return nil
	case ir.JVMDoubleToInt, ir.JVMDoubleToLong:
		// Spark's CAST fails on NaN and out-of-range values with ANSI
		// on; the JVM maps NaN to 0 and clamps. In range, both truncate.
		lo, hi, ty := "-2147483648.0D", "2147483647.0D", "INT"
		min, max := "CAST(-2147483648 AS INT)", "2147483647"
		if e.Kind == ir.JVMDoubleToLong {
			lo, hi, ty = "-9.223372036854775808E18D", "9.223372036854775807E18D", "BIGINT"
			min, max = "CAST(-9223372036854775808 AS BIGINT)", "9223372036854775807L"
		}
		x, err := Render(e.X)
		if err != nil {
			return err
		}
		fmt.Fprintf(b, "CASE WHEN isnan(%[1]s) THEN CAST(0 AS %[2]s) WHEN %[1]s >= %[3]s THEN %[5]s WHEN %[1]s <= %[4]s THEN %[6]s ELSE CAST(%[1]s AS %[2]s) END",
			x, ty, hi, lo, max, min)
		return nil
	}
	return sqlErr("the conversion " + string(e.Kind))
}

// callSQL renders a function call: its arguments, then the function, by
// group.
func callSQL(b *strings.Builder, e *ir.Call) error {
	args := make([]string, len(e.Args))
	for i, a := range e.Args {
		s, err := Render(a)
		if err != nil {
			return err
		}
		args[i] = s
	}
	for _, group := range []func(*strings.Builder, *ir.Call, []string) (bool, error){stringCallSQL, numberCallSQL, dateCallSQL} {
		if ok, err := group(b, e, args); ok || err != nil {
			return err
		}
	}
	return sqlErr("the function " + string(e.Fn))
}

// stringCallSQL renders the string functions (and Math.sqrt and the
// other functions Spark has under the same name); ok is false for a
// function of another group.
func stringCallSQL(b *strings.Builder, e *ir.Call, args []string) (ok bool, err error) {
	switch e.Fn {
	case ir.PySplit:
		// Spark's split takes a Java regex: the literal separator's
		// metacharacters are escaped.
		l, ok := e.Args[1].(*ir.Lit)
		sep, _ := l.Value.(string)
		if !ok || sep == "" {
			return true, sqlErr("a split separator that is not a non-empty literal")
		}
		quoted, err := Render(&ir.Lit{T: l.T, Value: javaRegexQuote(sep)})
		if err != nil {
			return true, err
		}
		b.WriteString("split(" + args[0] + ", " + quoted + ")")
		return true, nil
	case ir.PySplitWords:
		l, ok := e.Args[1].(*ir.Lit)
		set, _ := l.Value.(string)
		if !ok || set == "" {
			return true, sqlErr("a whitespace split whose set is not a non-empty literal")
		}
		fmt.Fprintf(b, "filter(split(%s, '%s+'), udfx_t -> udfx_t <> '')", args[0], casemap.ClassOf([]rune(set)))
		return true, nil
	case ir.JVMSplit:
		// Spark keeps the trailing empty fields; Java drops them, but
		// returns the string itself where the regex never matched.
		fmt.Fprintf(b, "element_at(transform(array(split(%s, %s)), udfx_f -> slice(udfx_f, 1, CASE WHEN size(udfx_f) = 1 THEN 1 "+
			"ELSE size(udfx_f) - aggregate(udfx_f, 0, (udfx_n, udfx_x) -> CASE WHEN udfx_x = '' THEN udfx_n + 1 ELSE 0 END) END)), 1)", args[0], args[1])
		return true, nil
	case ir.TypeIs:
		b.WriteString("(typeof(" + args[0] + ") = " + args[1] + ")")
		return true, nil
	case ir.Sqrt, ir.StartsWith, ir.EndsWith, ir.Contains, ir.Replace, ir.ElementAt, ir.Size, ir.RegexpReplace, ir.IsNaN:
		b.WriteString(string(e.Fn) + "(" + strings.Join(args, ", ") + ")")
		return true, nil
	case ir.EmptyArray:
		b.WriteString("CAST(array() AS " + strings.ToUpper(e.T.String()) + ")")
		return true, nil
	case ir.RegexpFind:
		b.WriteString("(" + args[0] + " RLIKE " + args[1] + ")")
		return true, nil
	case ir.NaNToNull:
		b.WriteString("nanvl(" + args[0] + ", CAST(NULL AS DOUBLE))")
		return true, nil
	case ir.TrimBoth, ir.TrimLeading, ir.TrimTrailing:
		l, ok := e.Args[1].(*ir.Lit)
		set, _ := l.Value.(string)
		if !ok || set == "" {
			return true, sqlErr("a trim whose set of characters is not a non-empty literal")
		}
		b.WriteString(trimSQL(args[0], set, e.Fn != ir.TrimTrailing, e.Fn != ir.TrimLeading))
		return true, nil
	case ir.PyLower, ir.PyUpper, ir.PyTitle, ir.PyCapitalize:
		sql, err := map[ir.Func]func(string) (string, error){
			ir.PyLower: pycase.LowerSQL, ir.PyUpper: pycase.UpperSQL, ir.PyTitle: pycase.TitleSQL, ir.PyCapitalize: pycase.CapitalizeSQL,
		}[e.Fn](args[0])
		if err != nil {
			return true, sqlErr("CPython's str." + strings.TrimPrefix(string(e.Fn), "py-") + "(): " + err.Error())
		}
		b.WriteString(sql)
		return true, nil
	case ir.JVMUpper, ir.JVMLower, ir.JVMLowerUpToSigma:
		sql, err := map[ir.Func]func(string) (string, error){
			ir.JVMUpper: jdkcase.UpperSQL, ir.JVMLower: jdkcase.LowerSQL, ir.JVMLowerUpToSigma: jdkcase.LowerUpToSigmaSQL,
		}[e.Fn](args[0])
		if err != nil {
			return true, sqlErr("the JDK's case mapping: " + err.Error())
		}
		b.WriteString(sql)
		return true, nil
	case ir.JVMURLDecodeOrElse:
		// try_url_decode is NULL exactly where url_decode throws (and on
		// NULL); the fallback is evaluated only there.
		b.WriteString("coalesce(try_url_decode(" + args[0] + "), " + args[1] + ")")
		return true, nil
	case ir.JVMParseOrElse:
		if ir.IsDouble(e.T) {
			b.WriteString(jdkcase.ParseDoubleSQL(args[0], args[1]))
			return true, nil
		}
		b.WriteString(jdkcase.ParseSQL(args[0], args[1], e.T != nil && e.T.Kind == udf.Long))
		return true, nil
	case ir.IsEmpty:
		b.WriteString("(" + args[0] + " = '')")
		return true, nil
	case ir.CodePointLength:
		b.WriteString("char_length(" + args[0] + ")")
		return true, nil
	case ir.PyIntPadded:
		w, zeros := e.Args[1].(*ir.Lit).Value.(int64), e.Args[2].(*ir.Lit).Value.(bool)
		// lpad cuts a longer string; CPython never does.
		b.WriteString(casemap.Bind("CAST("+args[0]+" AS STRING)", func(s string) string {
			if !zeros {
				return fmt.Sprintf("CASE WHEN char_length(%[1]s) >= %[2]d THEN %[1]s ELSE lpad(%[1]s, %[2]d, ' ') END", s, w)
			}
			return fmt.Sprintf("CASE WHEN char_length(%[1]s) >= %[2]d THEN %[1]s WHEN %[1]s LIKE '-%%' THEN concat('-', lpad(substring(%[1]s, 2), %[3]d, '0')) ELSE lpad(%[1]s, %[2]d, '0') END", s, w, w-1)
		}))
		return true, nil
	case ir.UTF8Length:
		b.WriteString("octet_length(" + args[0] + ")")
		return true, nil
	case ir.PySlice:
		return true, pySliceSQL(b, args[0], e.Args[1].(*ir.Lit).Value, e.Args[2].(*ir.Lit).Value)
	case ir.PyCharAt:
		// s[k] for k >= 0 is the (k+1)th code point; s[-k] the kth from
		// the end. Spark's substring clamps where CPython raises.
		k := e.Args[1].(*ir.Lit).Value.(int64)
		pos, need := k+1, k+1
		if k < 0 {
			pos, need = k, -k
		}
		fmt.Fprintf(b, "CASE WHEN char_length(%[1]s) >= %[2]d THEN substring(%[1]s, %[3]d, 1) ELSE raise_error('udfx: the original throws IndexError (string index out of range)') END", args[0], need, pos)
		return true, nil
	case ir.JVMTake:
		n, ok := e.Args[1].(*ir.Lit)
		if !ok {
			return true, sqlErr("take of a count that is not a literal")
		}
		b.WriteString(jvmTakeSQL(args[0], n.Value.(int64)))
		return true, nil
	case ir.UTF16Length:
		// The class matches whole code points, in Java's regex as in
		// the engine's.
		b.WriteString("(char_length(" + args[0] + ") + char_length(regexp_replace(" + args[0] + ", '[^\\\\x{10000}-\\\\x{10FFFF}]', '')))")
		return true, nil
	case ir.CPIndexOf:
		// locate is 1-based and 0 where not found; from a position past
		// the end it finds nothing, as indexOf.
		if len(args) == 3 {
			from, err := cpIndexSQL(e.Args[2], 1)
			if err != nil {
				return true, err
			}
			fmt.Fprintf(b, "(locate(%s, %s, greatest(%s, 1)) - 1)", args[1], args[0], from)
		} else {
			fmt.Fprintf(b, "(locate(%s, %s) - 1)", args[1], args[0])
		}
		return true, nil
	case ir.CPLastIndexOf:
		// The first occurrence of the reversed needle in the reversed
		// string (reverse reverses code points) is the last one.
		fmt.Fprintf(b, "CASE WHEN locate(reverse(%[2]s), reverse(%[1]s)) = 0 THEN -1 ELSE char_length(%[1]s) - locate(reverse(%[2]s), reverse(%[1]s)) - char_length(%[2]s) + 1 END", args[0], args[1])
		return true, nil
	case ir.UTF16OfCP:
		// substring with a negative length is '', so -1 stays -1.
		fmt.Fprintf(b, "(%[2]s + char_length(regexp_replace(substring(%[1]s, 1, %[2]s), '[^\\\\x{10000}-\\\\x{10FFFF}]', '')))", args[0], args[1])
		return true, nil
	case ir.CPSubstring:
		// From a code-point index to substring's 1-based position.
		pos, err := cpIndexSQL(e.Args[1], 1)
		if err != nil {
			return true, err
		}
		switch {
		case len(args) == 3 && pos == "1":
			fmt.Fprintf(b, "substring(%s, 1, %s)", args[0], args[2])
		case len(args) == 3:
			fmt.Fprintf(b, "substring(%s, %s, %s - %s)", args[0], pos, args[2], args[1])
		default:
			fmt.Fprintf(b, "substring(%s, %s)", args[0], pos)
		}
		return true, nil
	case ir.Concat:
		b.WriteString("concat(" + strings.Join(args, ", ") + ")")
		return true, nil
	case ir.JVMStringOf:
		x := args[0]
		if t := e.Args[0].Type(); t == nil {
			b.WriteString("'null'")
			return true, nil
		} else if t.Kind != udf.String {
			if t.Kind != udf.Int && t.Kind != udf.Long && t.Kind != udf.Boolean {
				return true, sqlErr("String.valueOf of " + t.String())
			}
			x = "CAST(" + x + " AS STRING)"
		}
		b.WriteString("coalesce(" + x + ", 'null')")
		return true, nil
	}
	return false, nil
}

// javaRegexQuote is a Java regular expression matching s literally:
// each metacharacter behind a backslash.
func javaRegexQuote(s string) string {
	var q strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`\.[]{}()*+?^$|`, r) {
			q.WriteByte('\\')
		}
		q.WriteRune(r)
	}
	return q.String()
}

// cpIndexSQL renders the code-point index x plus add, folding the
// constants of x's own additions and of CPIndexOf's - 1 into one.
func cpIndexSQL(x ir.Expr, add int64) (string, error) {
	switch x := x.(type) {
	case *ir.Lit:
		if k, ok := x.Value.(int64); ok {
			return strconv.FormatInt(k+add, 10), nil
		}
	case *ir.Binary:
		if k, ok := x.R.(*ir.Lit); ok && x.Op == ir.CodePointAdd {
			if v, ok := k.Value.(int64); ok {
				return cpIndexSQL(x.L, add+v)
			}
		}
	case *ir.Call:
		if x.Fn == ir.CPIndexOf {
			s, err := Render(x)
			if err != nil {
				return "", err
			}
			// Render gives (locate(...) - 1).
			s = strings.TrimSuffix(strings.TrimPrefix(s, "("), " - 1)")
			return withConst(s, add-1), nil
		}
	}
	s, err := Render(x)
	if err != nil {
		return "", err
	}
	return withConst(s, add), nil
}

// withConst is s + k, without a + 0.
func withConst(s string, k int64) string {
	switch {
	case k == 0:
		return s
	case k < 0:
		return "(" + s + " - " + strconv.FormatInt(-k, 10) + ")"
	}
	return "(" + s + " + " + strconv.FormatInt(k, 10) + ")"
}

// numberCallSQL renders the numeric functions and the conversions
// between numbers and strings; ok is false for a function of another
// group.
func numberCallSQL(b *strings.Builder, e *ir.Call, args []string) (ok bool, err error) {
	switch e.Fn {
	case ir.PyIntOfFloat, ir.PyRoundOfFloat, ir.PyFloorOfFloat, ir.PyCeilOfFloat:
		// floor and ceil of a double are BIGINT in Spark; bround is half
		// to even (on the shortest decimal, which for 0 digits decides a
		// tie as the exact binary value does: x.5 is representable).
		whole := map[ir.Func]string{ir.PyIntOfFloat: "%[1]s", ir.PyRoundOfFloat: "bround(%[1]s, 0)", ir.PyFloorOfFloat: "floor(%[1]s)", ir.PyCeilOfFloat: "ceil(%[1]s)"}[e.Fn]
		fmt.Fprintf(b, "CASE WHEN isnan(%[1]s) THEN raise_error('udfx: the original throws ValueError (NaN to int)') "+
			"WHEN %[1]s = CAST('Infinity' AS DOUBLE) OR %[1]s = CAST('-Infinity' AS DOUBLE) THEN raise_error('udfx: the original throws OverflowError (infinity to int)') "+
			"WHEN %[1]s >= 9.223372036854775807E18D OR %[1]s < -9.223372036854775808E18D THEN CAST(NULL AS BIGINT) "+
			"ELSE CAST("+whole+" AS BIGINT) END", args[0])
		return true, nil
	case ir.PyIntExact:
		op, _ := e.Args[2].(*ir.Lit)
		if op == nil || op.Value != "+" && op.Value != "-" && op.Value != "*" {
			return true, sqlErr("int arithmetic of an operator that is not + - *")
		}
		// Two BIGINTs: |a * b| < 2^126 < 10^38, so DECIMAL holds it.
		n := fmt.Sprintf("(CAST(%s AS DECIMAL(20,0)) %s CAST(%s AS DECIMAL(20,0)))", args[0], op.Value, args[1])
		b.WriteString(casemap.Guard(n, writeOutUpTo, func(n string) string {
			return n + " < -9223372036854775808BD OR " + n + " > 9223372036854775807BD"
		}, func(string) string { return "CAST(NULL AS BIGINT)" }, func(n string) string { return "CAST(" + n + " AS BIGINT)" }))
		return true, nil
	case ir.PyRoundDigits, ir.PyFormatFixed:
		k, ok := e.Args[1].(*ir.Lit)
		if !ok {
			return true, sqlErr(string(e.Fn) + " to a digit count that is not a literal")
		}
		digits := map[ir.Func]func(string, int64) string{ir.PyRoundDigits: pyRoundDigitsSQL, ir.PyFormatFixed: pyFormatFixedSQL}[e.Fn]
		b.WriteString(digits(args[0], k.Value.(int64)))
		return true, nil
	case ir.AbsDouble:
		b.WriteString("abs(" + args[0] + ")")
		return true, nil
	case ir.AbsIntegral:
		min := "CAST(-2147483648 AS INT)"
		if e.T.Kind == udf.Long {
			min = minLong
		}
		fmt.Fprintf(b, "CASE WHEN %[1]s = %[2]s THEN %[2]s ELSE abs(%[1]s) END", args[0], min)
		return true, nil
	case ir.MaxDouble, ir.MinDouble:
		// Math.max: NaN wins; of two zeros, max is 0.0 unless both are
		// -0.0 (min is -0.0 unless both are 0.0). Spark's greatest
		// orders NaN largest and -0.0 equal to 0.0. The sum of two zeros
		// is exactly that max (IEEE 754: -0.0 only when both are -0.0),
		// and -((-a) + (-b)) that min. A CASE choosing between the
		// literals -0.0D and 0.0D would not do: Spark's optimizer takes
		// the two literals for equal (Literal.equals compares boxed
		// doubles numerically) and folds the CASE to one of them.
		fn, zero := "greatest", "CASE WHEN %[1]s = 0.0D AND %[2]s = 0.0D THEN (%[1]s + %[2]s)"
		if e.Fn == ir.MinDouble {
			fn, zero = "least", "CASE WHEN %[1]s = 0.0D AND %[2]s = 0.0D THEN (- ((- %[1]s) + (- %[2]s)))"
		}
		fmt.Fprintf(b, zero+" WHEN isnan(%[1]s) OR isnan(%[2]s) THEN CAST('NaN' AS DOUBLE) ELSE %[3]s(%[1]s, %[2]s) END", args[0], args[1], fn)
		return true, nil
	case ir.DecimalRoundHalfUp, ir.DecimalRoundHalfEven:
		fn := "round"
		if e.Fn == ir.DecimalRoundHalfEven {
			fn = "bround"
		}
		b.WriteString(casemap.Bind(args[0], func(x string) string {
			return fmt.Sprintf("CASE WHEN isnan(%[1]s) OR %[1]s = CAST('Infinity' AS DOUBLE) OR %[1]s = CAST('-Infinity' AS DOUBLE) "+
				"THEN raise_error('udfx: the original throws NumberFormatException (a BigDecimal of NaN or Infinity)') ELSE %[3]s(%[1]s, %[2]s) END", x, args[1], fn)
		}))
		return true, nil
	case ir.RoundDoubleToLong:
		// floor(x) is exact and x - floor(x) is the exact fraction, so
		// the tie rule is decided on the binary value (x + 0.5 would
		// round first). NaN is 0; beyond the long range it clamps.
		fmt.Fprintf(b, "CASE WHEN isnan(%[1]s) THEN 0L WHEN %[1]s >= 9.223372036854775807E18D THEN 9223372036854775807L WHEN %[1]s <= -9.223372036854775808E18D THEN %[2]s "+
			"ELSE CAST(floor(%[1]s) AS BIGINT) + CASE WHEN %[1]s - CAST(CAST(floor(%[1]s) AS BIGINT) AS DOUBLE) >= 0.5D THEN 1L ELSE 0L END END", args[0], minLong)
		return true, nil
	case ir.PyFloatOrElse, ir.PyIntOrElse:
		ws, ok := e.Args[2].(*ir.Lit)
		if len(args) != 5 || !ok {
			return true, sqlErr("float() or int() without its character tables")
		}
		text := trimSQL("translate("+args[0]+", "+args[3]+", "+args[4]+")", ws.Value.(string), true, true)
		var exact strings.Builder
		// The rows real data holds, ASCII digits without spaces or
		// underscores (for int too few to leave BIGINT), take Spark's
		// CAST, which reads them as CPython does (a double correctly
		// rounded, as parseDouble does), and no lambda: Spark interprets
		// the exact form's row by row.
		short, ty := `^[+-]?[0-9]{1,18}\\z`, "BIGINT"
		if e.Fn == ir.PyIntOrElse {
			if err := pyIntSQL(&exact, text, args[1]); err != nil {
				return true, err
			}
		} else {
			short, ty = `^[+-]?[0-9]+(\\.[0-9]+)?\\z`, "DOUBLE"
			if err := pyFloatSQL(&exact, text, args[1]); err != nil {
				return true, err
			}
		}
		b.WriteString(casemap.Guard(args[0], writeOutUpTo, func(s string) string {
			return s + " RLIKE '" + short + "'"
		}, func(s string) string {
			return "CAST(" + s + " AS " + ty + ")"
		}, func(string) string { return exact.String() }))
		return true, nil
	case ir.MaxInt:
		b.WriteString("greatest(" + strings.Join(args, ", ") + ")")
		return true, nil
	case ir.MinInt:
		b.WriteString("least(" + strings.Join(args, ", ") + ")")
		return true, nil
	case ir.FloorDouble:
		// Spark's floor returns BIGINT: keep what it cannot hold (NaN,
		// infinities, |x| >= 2^52, which are already integral) and the
		// zeros (whose sign the BIGINT would lose) as they are.
		fmt.Fprintf(b, "CASE WHEN isnan(%[1]s) OR abs(%[1]s) >= 4.503599627370496E15D OR %[1]s = 0.0D THEN %[1]s ELSE CAST(floor(%[1]s) AS DOUBLE) END", args[0])
		return true, nil
	case ir.CeilDouble:
		// As floor; and Math.ceil of a value in (-1, 0) is -0.0.
		fmt.Fprintf(b, "CASE WHEN isnan(%[1]s) OR abs(%[1]s) >= 4.503599627370496E15D OR %[1]s = 0.0D THEN %[1]s WHEN %[1]s > -1.0D AND %[1]s < 0.0D THEN (-0.0D) ELSE CAST(ceil(%[1]s) AS DOUBLE) END", args[0])
		return true, nil
	}
	return false, nil
}

// dateCallSQL renders Python's date methods; ok is false for a function
// of another group.
func dateCallSQL(b *strings.Builder, e *ir.Call, args []string) (ok bool, err error) {
	switch e.Fn {
	case ir.PyDateYear, ir.PyDateMonth, ir.PyDateDay, ir.PyWeekday, ir.PyIsoWeekday, ir.PyIsoFormat, ir.PyDaysBetween:
		f := map[ir.Func]string{ir.PyDateYear: "year(%[1]s)", ir.PyDateMonth: "month(%[1]s)", ir.PyDateDay: "day(%[1]s)",
			ir.PyWeekday: "((dayofweek(%[1]s) + 5) %% 7)", ir.PyIsoWeekday: "(((dayofweek(%[1]s) + 5) %% 7) + 1)", ir.PyIsoFormat: "CAST(%[1]s AS STRING)",
			ir.PyDaysBetween: "datediff(%[1]s, %[2]s)"}[e.Fn]
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
		return true, nil
	case ir.PyStrptimeValid, ir.PyStrptimeStrftime:
		out, err := pyStrptimeSQL(e, args[0])
		if err != nil {
			return true, err
		}
		b.WriteString(out)
		return true, nil
	case ir.PyUTCStrftime:
		l, ok := e.Args[1].(*ir.Lit)
		format, _ := l.Value.(string)
		if !ok {
			return true, sqlErr("strftime of a format that is not a literal")
		}
		fields := func(ts string) map[byte]string {
			day := "date_add(DATE '1970-01-01', CAST((" + ts + " - pmod(" + ts + ", 86400L)) div 86400L AS INT))"
			sod := "pmod(" + ts + ", 86400L)"
			return map[byte]string{
				'Y': "year(" + day + ")", 'm': "month(" + day + ")", 'd': "day(" + day + ")",
				'H': sod + " div 3600", 'M': "(" + sod + " div 60) % 60", 'S': sod + " % 60", dayField: day,
			}
		}
		out, err := strftimeInRangeSQL(args[0], format, ir.StrftimeDirectives(e.Fn), fields, func(ts string) string {
			return ts + " < -62135596800L OR " + ts + " > 253402300799L"
		}, "a time outside years 1 to 9999")
		b.WriteString(out)
		return true, err
	case ir.PyDateAddDays:
		sign, ok := e.Args[2].(*ir.Lit)
		if !ok || sign.Value != int64(1) && sign.Value != int64(-1) {
			return true, sqlErr("a date shift whose sign is not a literal 1 or -1")
		}
		// The day numbers of 0001-01-01 and 9999-12-31 since the epoch.
		const first, last = -719162, 2932896
		k := args[1]
		shift := k
		if sign.Value == int64(-1) {
			shift = "(-" + k + ")"
		}
		fmt.Fprintf(b, "CASE WHEN %[1]s < DATE '0001-01-01' OR %[1]s > DATE '9999-12-31' THEN raise_error('udfx: the original throws ValueError (a date outside the range of datetime.date)') "+
			"WHEN %[2]s > 999999999L OR %[2]s < -999999999L THEN raise_error('udfx: the original throws OverflowError (a timedelta of more than 999999999 days)') "+
			"WHEN CAST(datediff(%[1]s, DATE '1970-01-01') AS BIGINT) + %[3]s < %[4]dL OR CAST(datediff(%[1]s, DATE '1970-01-01') AS BIGINT) + %[3]s > %[5]dL "+
			"THEN raise_error('udfx: the original throws OverflowError (a date outside years 1 to 9999)') ELSE date_add(%[1]s, CAST(%[3]s AS INT)) END",
			args[0], k, shift, first, last)
		return true, nil
	case ir.JVMDateFormatUTC, ir.JVMDateTimeFormatUTC:
		var pattern string
		l, ok := e.Args[1].(*ir.Lit)
		if ok {
			pattern, ok = l.Value.(string)
		}
		if !ok {
			return true, sqlErr("SimpleDateFormat of a pattern that is not a literal")
		}
		_, isCol := e.Args[0].(*ir.Col)
		_, isLit := e.Args[0].(*ir.Lit)
		out, err := jvmDateFormatSQL(args[0], isCol || isLit, e.Fn == ir.JVMDateTimeFormatUTC, pattern)
		if err != nil {
			return true, err
		}
		b.WriteString(out)
		return true, nil
	case ir.PyDateStrftime:
		l, ok := e.Args[1].(*ir.Lit)
		format, _ := l.Value.(string)
		if !ok {
			return true, sqlErr("strftime of a format that is not a literal")
		}
		fields := func(d string) map[byte]string {
			return map[byte]string{'Y': "year(" + d + ")", 'm': "month(" + d + ")", 'd': "day(" + d + ")", 'H': "0", 'M': "0", 'S': "0", dayField: d}
		}
		out, err := strftimeInRangeSQL(args[0], format, ir.StrftimeDirectives(e.Fn), fields, func(d string) string {
			return d + " < DATE '0001-01-01' OR " + d + " > DATE '9999-12-31'"
		}, "a date outside the range of datetime.date")
		b.WriteString(out)
		return true, err
	}
	return false, nil
}

// strftimeInRangeSQL is CPython's strftime(format) of the value x, whose
// fields(v) are the SQL of v's fields, raising ValueError (why) where
// outside(x) holds. x is written out where it is short (casemap.Guard).
func strftimeInRangeSQL(x, format, directives string, fields func(v string) map[byte]string, outside func(v string) string, why string) (string, error) {
	if _, err := strftimeSQL(format, directives, fields("udfx_v")); err != nil {
		return "", err
	}
	return casemap.Guard(x, writeOutUpTo, outside, func(string) string {
		return "raise_error('udfx: the original throws ValueError (" + why + ")')"
	}, func(v string) string {
		parts, _ := strftimeSQL(format, directives, fields(v))
		return "concat(" + strings.Join(parts, ", ") + ")"
	}), nil
}

// writeOutUpTo is the longest value the forms that test a range and then
// compute (a timestamp's fields, an int's overflow) write out again
// rather than bind by a lambda (casemap.Guard): they write it up to a
// dozen times.
const writeOutUpTo = 300

// dayField is the key of strftimeSQL's field map for the SQL of the
// datetime's DATE, which the day-of-year, weekday and name directives
// read.
const dayField = 'D'

// The names of the C locale, which CPython's strftime prints until a
// program calls locale.setlocale: weekdays from Sunday (dayofweek's 1),
// months from January.
var (
	cWeekdays = []string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
	cMonths   = []string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
)

// abbreviation is %a's and %b's name: the C locale's first three letters.
func abbreviation(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = n[:3]
	}
	return out
}

// strftimeSQL renders the directives of a strftime format, given the
// SQL of the datetime's fields (an INT each: Y year, m month, d day, H,
// M, S) and of its DATE (dayField); allowed lists the directives the
// caller's function takes (ir.StrftimeDirectives). %Y is the year
// unpadded, as glibc prints a year below 1000.
func strftimeSQL(format, allowed string, field map[byte]string) ([]string, error) {
	two := func(x string) string { return "lpad(CAST(" + x + " AS STRING), 2, '0')" }
	names := func(list []string, index string) string {
		return "element_at(array('" + strings.Join(list, "', '") + "'), " + index + ")"
	}
	var parts []string
	var text strings.Builder
	flush := func() error {
		if text.Len() == 0 {
			return nil
		}
		s, err := Render(&ir.Lit{T: udf.Prim(udf.String), Value: text.String()})
		parts = append(parts, s)
		text.Reset()
		return err
	}
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			text.WriteByte(format[i])
			continue
		}
		if i+1 == len(format) {
			return nil, sqlErr("a strftime format ending in %")
		}
		i++
		c := format[i]
		if c == '%' {
			text.WriteByte('%')
			continue
		}
		if strings.IndexByte(allowed, c) < 0 {
			return nil, sqlErr("the strftime directive %" + string(c))
		}
		day := field[dayField]
		if strings.IndexByte("jwuAaBb", c) >= 0 && day == "" {
			return nil, sqlErr("the strftime directive %" + string(c) + " without the date")
		}
		var part string
		switch c {
		case 'Y':
			part = "CAST(" + field['Y'] + " AS STRING)"
		case 'y':
			part = two("pmod(" + field['Y'] + ", 100)")
		case 'm', 'd', 'H', 'M', 'S':
			part = two(field[c])
		case 'I':
			part = two("CASE WHEN " + field['H'] + " % 12 = 0 THEN 12 ELSE " + field['H'] + " % 12 END")
		case 'j':
			part = "lpad(CAST(dayofyear(" + day + ") AS STRING), 3, '0')"
		case 'w':
			part = "CAST(dayofweek(" + day + ") - 1 AS STRING)"
		case 'u':
			part = "CAST((dayofweek(" + day + ") + 5) % 7 + 1 AS STRING)"
		case 'A':
			part = names(cWeekdays, "dayofweek("+day+")")
		case 'a':
			part = names(abbreviation(cWeekdays), "dayofweek("+day+")")
		case 'B':
			part = names(cMonths, "month("+day+")")
		case 'b':
			part = names(abbreviation(cMonths), "month("+day+")")
		case 'p':
			part = "CASE WHEN " + field['H'] + " < 12 THEN 'AM' ELSE 'PM' END"
		default:
			return nil, sqlErr("the strftime directive %" + string(c))
		}
		if err := flush(); err != nil {
			return nil, err
		}
		parts = append(parts, part)
	}
	if err := flush(); err != nil {
		return nil, err
	}
	if len(parts) == 0 {
		parts = []string{"''"}
	}
	return parts, nil
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
func operandsSQL(e *ir.Binary) (string, string, error) {
	l, err := Render(e.L)
	if err != nil {
		return "", "", err
	}
	r, err := Render(e.R)
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
	esc := func(b *strings.Builder, r rune) {
		if r < 0x80 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			b.WriteRune(r)
		} else {
			fmt.Fprintf(b, `\\x{%X}`, r)
		}
	}
	rs := []rune(set)
	slices.Sort(rs)
	rs = slices.Compact(rs)
	var class strings.Builder
	class.WriteByte('[')
	// Runs of three or more as ranges: Java's trim() removes the 33 code
	// points up to U+0020.
	for i := 0; i < len(rs); {
		j := i
		for j+1 < len(rs) && rs[j+1] == rs[j]+1 {
			j++
		}
		if j-i >= 2 {
			esc(&class, rs[i])
			class.WriteByte('-')
			esc(&class, rs[j])
		} else {
			for _, r := range rs[i : j+1] {
				esc(&class, r)
			}
		}
		i = j + 1
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

// jvmTakeSQL is the first n UTF-16 code units of s (ir.JVMTake): the
// first k code points for the largest k whose UTF-16 length is at most
// n, which lies between n/2 and n (k+1 code points are at most 2k+2
// units, more than n), and '?' for the high surrogate where
// that length is n - 1 and a code point follows (it must be
// supplementary, or k were larger). Without a supplementary code point
// units are code points.
func jvmTakeSQL(s string, n int64) string {
	if n <= 0 {
		return "''"
	}
	if n == 1 {
		return "CASE WHEN " + s + " RLIKE '^[\\\\x{10000}-\\\\x{10FFFF}]' THEN '?' ELSE substring(" + s + ", 1, 1) END"
	}
	u16 := func(x string) string {
		return "(char_length(" + x + ") + char_length(regexp_replace(" + x + ", '[^\\\\x{10000}-\\\\x{10FFFF}]', '')))"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "CASE WHEN NOT (%s RLIKE '[\\\\x{10000}-\\\\x{10FFFF}]') THEN substring(%s, 1, %d)", s, s, n)
	for k := n; k >= n/2; k-- {
		prefix := fmt.Sprintf("substring(%s, 1, %d)", s, k)
		fmt.Fprintf(&b, " WHEN %s <= %d THEN ", u16(prefix), n)
		if k == n {
			b.WriteString(prefix)
			continue
		}
		fmt.Fprintf(&b, "concat(%s, IF(%s = %d AND char_length(%s) > %d, '?', ''))", prefix, u16(prefix), n-1, s, k)
	}
	b.WriteString(" END")
	return b.String()
}

// pyRoundDigitsSQL is CPython's round(x, k) of a double (ir.PyRoundDigits),
// k from 0 to 10. Most rows take a short path (nearestMultipleSQL); the
// rest the exact one below, x bound once (casemap.Bind): on a = |x|
// below 2^52 the integer part i = floor(a)
// and the fraction f = a - i are exact; p = f * 10^k is rounded, and
// Dekker's product (f split by Veltkamp's 2^27 + 1 into h and f - h;
// 10^k needs at most 26 bits) gives its exact error err, so
// f * 10^k = p + err exactly. rint(p) is the integer n0 nearest p,
// half to even, and d = p - n0 is exact. Since p < 10^10 <
// 2^52, every double near p is a multiple of ulp(p) <= 1/2, so |d| <
// 1/2 leaves n0 the rounding of p + err; at d = ±1/2 the sign of err
// decides, and only err = 0 is a true tie, which n0 already broke to
// even (i * 10^k is even for k >= 1; for k = 0 rint of a is the whole
// answer). The decimal i + n / 10^k is exact as a DECIMAL and Spark's
// cast of a decimal to double gives the nearest double, which is what
// _Py_dg_strtod returns. The sign comes back by signum(x), so a
// negative x that rounds to zero gives -0.0 as in CPython, and so does
// -0.0. NaN and |x| >= 2^52 are x itself.
// TestPyRoundDigitsMatchesCPython proves it
// on real Spark and the engine against CPython on ties of both kinds.
func pyRoundDigitsSQL(x string, k int64) string {
	if k == 0 {
		return casemap.Guard(x, casemap.RepeatUpTo, func(s string) string {
			return "abs(" + s + ") < 4503599627370496.0D"
		}, func(s string) string {
			return "rint(abs(" + s + ")) * signum(" + s + ")"
		}, func(s string) string { return s })
	}
	return nearestMultipleSQL(x, k, func(s, n, scale string) string {
		return n + " / " + scale
	}, func(s string) string {
		i, n := roundedFractionSQL("abs("+s+")", k)
		return fmt.Sprintf("CASE WHEN abs(%s) < 4503599627370496.0D THEN CAST(CAST(%s AS DECIMAL(16,0)) + CAST(%s AS DECIMAL(11,0)) * CAST('1E-%d' AS DECIMAL(%d,%d)) AS DOUBLE) * signum(%s) ELSE %s END", s, i, n, k, k, k, s, s)
	})
}

// nearestMultipleSQL is the short path of round(x, k) and format(x,
// ".kf"), k >= 1, for the rows real data holds. Spark computes y = x *
// 10^k rounded to a double. Below 2^52 every half (an integer plus 1/2)
// is a double, and rounding is monotonic, so the rounded product never
// lands on the far side of a half from the exact one: it lands on the
// half or stays on its side. Where |y| < 2^52 and y is not a half, the
// integer nearest the exact x * 10^k is rint(y), and no tie is left to
// break. There short(s, n, scale) is the answer from n = rint(s *
// scale); the quotient n / 10^k of two exact doubles is the double
// nearest the decimal, which is what CPython's round returns. Every other
// row (halves, which may be true ties or products rounded onto one,
// large values, NaN, the infinities) takes exact(s), x bound once. x is
// written out a few times rather than bound, so that Spark runs the short
// path as generated code: its lambdas are interpreted row by row.
func nearestMultipleSQL(x string, k int64, short func(s, n, scale string) string, exact func(s string) string) string {
	scale := "1" + strings.Repeat("0", int(k)) + ".0D"
	return casemap.Guard(x, casemap.RepeatUpTo, func(s string) string {
		y := "(" + s + " * " + scale + ")"
		return "abs(" + y + ") < 4503599627370496.0D AND abs(" + y + " - rint(" + y + ")) <> 0.5D"
	}, func(s string) string {
		return short(s, "rint("+s+" * "+scale+")", scale)
	}, func(s string) string {
		return casemap.Bind(s, exact)
	})
}

// roundedFractionSQL is, for the double a, 0 <= a < 2^52, and k from 1
// to 10, the integer part i of a and the BIGINT n nearest its fraction
// times 10^k, half to even on the exact binary value (10^k where the
// fraction rounds up to the next integer), each written out without
// lambdas so that Spark runs them as generated code: pyRoundDigitsSQL
// explains why they are exact.
func roundedFractionSQL(a string, k int64) (i, n string) {
	scale := "1" + strings.Repeat("0", int(k)) + ".0D"
	i = "CAST(floor(" + a + ") AS BIGINT)"
	f := "(" + a + " - CAST(floor(" + a + ") AS DOUBLE))"
	h := "((134217729.0D * " + f + ") - ((134217729.0D * " + f + ") - " + f + "))"
	p := "(" + f + " * " + scale + ")"
	err := "((" + h + " * " + scale + " - " + p + ") + (" + f + " - " + h + ") * " + scale + ")"
	n = "(CAST(rint(" + p + ") AS BIGINT) + CASE WHEN " + p + " - rint(" + p + ") = 0.5D AND " + err + " > 0.0D THEN 1L " +
		"WHEN " + p + " - rint(" + p + ") = -0.5D AND " + err + " < 0.0D THEN -1L ELSE 0L END)"
	return i, n
}

// pyFormatFixedSQL is CPython's format(x, ".kf") of a double
// (ir.PyFormatFixed), k from 0 to 10. Most rows take the short path of
// nearestMultipleSQL (for k = 0, rint below 2^52); the rest the exact
// one below, x bound once. Below 2^52 the digits are those of round(x,
// k): the integer part i and the
// fraction f = |x| - i are exact, p = f * 10^k is rounded, and Dekker's
// product (f split by Veltkamp's 2^27 + 1 into h and f - h) gives its
// exact error, so the nearest integer n of f * 10^k, half to even, is
// rint(p) moved by one where p is a tie that the error breaks
// (pyRoundDigitsSQL explains why that is exact). The text is i + n div
// 10^k, a point and n mod 10^k padded to k digits. From 2^52 every double is an integer; below 2^63 a BIGINT holds it. Above,
// x is m * 2^e with m < 2^53 a BIGINT and e from 11 to 971 (scaled down
// by powers of two, as frexp does), and its digits come from limbs of
// nine decimal digits, least significant first, multiplied by 2^29 e div
// 29 times and then by 2^(e mod 29), each multiplication carrying from
// limb to limb in an aggregate: a limb times 2^29 plus a carry stays
// below 2^63. CPython prints every digit of the exact value (1e23 is
// 99999999999999991611392), where Spark's casts and format functions
// print the shortest decimal's. The sign is x's sign bit: -0.0 and a
// negative that rounds to zero print "-0.00"; NaN prints "nan" whatever
// its sign. TestPyFormatFixedMatchesCPython proves it on real Spark and
// the engine against CPython.
func pyFormatFixedSQL(x string, k int64) string {
	dot := ""
	if k > 0 {
		dot = "." + strings.Repeat("0", int(k))
	}
	sign := func(s string) string {
		return "IF(" + s + " < 0.0D OR " + s + " = 0.0D AND CAST(" + s + " AS STRING) = '-0.0', '-', '')"
	}
	exact := func(s string) string {
		return fmt.Sprintf("CASE WHEN abs(%[1]s) < 4503599627370496.0D THEN concat(%[2]s, %[3]s) "+
			"ELSE element_at(transform(array(%[1]s), udfx_x -> CASE WHEN isnan(udfx_x) THEN 'nan' "+
			"WHEN udfx_x = CAST('Infinity' AS DOUBLE) THEN 'inf' WHEN udfx_x = CAST('-Infinity' AS DOUBLE) THEN '-inf' "+
			"ELSE concat(IF(udfx_x < 0.0D, '-', ''), "+
			"CASE WHEN abs(udfx_x) < 9223372036854775808.0D THEN concat(CAST(CAST(abs(udfx_x) AS BIGINT) AS STRING), '%[4]s') "+
			"ELSE concat(%[5]s, '%[4]s') END) END), 1) END", s, sign(s), fixedDigitsSQL("abs("+s+")", k), dot, bigDigitsSQL())
	}
	if k == 0 {
		return casemap.Guard(x, casemap.RepeatUpTo, func(s string) string {
			return "abs(" + s + ") < 4503599627370496.0D"
		}, func(s string) string {
			return "concat(" + sign(s) + ", " + fixedDigitsSQL("abs("+s+")", 0) + ")"
		}, func(s string) string { return casemap.Bind(s, exact) })
	}
	ten := "1" + strings.Repeat("0", int(k)) + "L"
	return nearestMultipleSQL(x, k, func(s, n, scale string) string {
		n = "CAST(abs(" + n + ") AS BIGINT)"
		return fmt.Sprintf("concat(%s, CAST(%s div %s AS STRING), '.', lpad(CAST(%s %% %s AS STRING), %d, '0'))", sign(s), n, ten, n, ten, k)
	}, exact)
}

// fixedDigitsSQL is the text of the double a, 0 <= a < 2^52, rounded
// half to even at k decimals, each part written out (pyFormatFixedSQL).
func fixedDigitsSQL(a string, k int64) string {
	if k == 0 {
		return "CAST(CAST(rint(" + a + ") AS BIGINT) AS STRING)"
	}
	ten := "1" + strings.Repeat("0", int(k)) + "L"
	i, n := roundedFractionSQL(a, k)
	return fmt.Sprintf("concat(CAST(%s + %s div %s AS STRING), '.', lpad(CAST(%s %% %s AS STRING), %d, '0'))", i, n, ten, n, ten, k)
}

// bigDigitsSQL is the decimal digits of |udfx_x|, a double of at least
// 2^63, from m * 2^e in limbs (pyFormatFixedSQL).
func bigDigitsSQL() string {
	mul := func(limbs, by string) string {
		// The zeros are cast to ARRAY<BIGINT>, whose elements may be NULL
		// as the merged arrays' may: aggregate wants the two types equal.
		return "aggregate(" + limbs + ", CAST(array(0L) AS ARRAY<BIGINT>), (udfx_acc, udfx_l) -> concat(slice(udfx_acc, 1, size(udfx_acc) - 1), " +
			"array((udfx_l * " + by + " + element_at(udfx_acc, -1)) % 1000000000L, (udfx_l * " + by + " + element_at(udfx_acc, -1)) div 1000000000L)))"
	}
	// frexp: |x| = m * 2^e with m in [2^52, 2^53), found by scaling by
	// 2^-s for s = 512, 256, ..., 1 wherever m is still at least
	// 2^(52+s); a product with a power of two is exact.
	var thresholds, scales, shifts, steps, rounds, pows []string
	for s := 512; s >= 1; s /= 2 {
		thresholds = append(thresholds, doubleLit(math.Ldexp(1, 52+s)))
		scales = append(scales, doubleLit(math.Ldexp(1, -s)))
		shifts = append(shifts, strconv.Itoa(s)+".0D")
	}
	for i := 1; i <= len(thresholds); i++ {
		steps = append(steps, strconv.Itoa(i))
	}
	frexp := "aggregate(array(" + strings.Join(steps, ", ") + "), CAST(array(abs(udfx_x), 0.0D) AS ARRAY<DOUBLE>), (udfx_v, udfx_j) -> " +
		"IF(udfx_v[0] >= element_at(array(" + strings.Join(thresholds, ", ") + "), udfx_j), " +
		"array(udfx_v[0] * element_at(array(" + strings.Join(scales, ", ") + "), udfx_j), udfx_v[1] + element_at(array(" + strings.Join(shifts, ", ") + "), udfx_j)), udfx_v))"
	for i := 1; i <= 34; i++ {
		rounds = append(rounds, strconv.Itoa(i))
	}
	for i := 0; i < 29; i++ {
		pows = append(pows, strconv.FormatInt(1<<i, 10)+"L")
	}
	return "element_at(transform(array(" + frexp + "), udfx_me -> " +
		"element_at(transform(array(CAST(udfx_me[1] AS INT)), udfx_e -> " +
		"element_at(transform(array(CAST(udfx_me[0] AS BIGINT)), udfx_m -> " +
		"regexp_replace(array_join(reverse(transform(" +
		"aggregate(slice(array(" + strings.Join(rounds, ", ") + "), 1, CAST(udfx_e div 29 AS INT)), CAST(array(udfx_m % 1000000000L, udfx_m div 1000000000L) AS ARRAY<BIGINT>), " +
		"(udfx_big, udfx_j) -> " + mul("udfx_big", "536870912L") + ", udfx_big -> " + mul("udfx_big", "element_at(array("+strings.Join(pows, ", ")+"), udfx_e % 29 + 1)") + "), " +
		"udfx_l -> lpad(CAST(udfx_l AS STRING), 9, '0'))), ''), '^0+', '')), 1)), 1)), 1)"
}

// pyStrptimeSQL renders ir.PyStrptimeValid and ir.PyStrptimeStrftime of
// the text s. The text is valid where the pattern's first match (Java's
// is CPython's) is the whole text. Each field is its group's digits,
// translated to ASCII (int() reads every Unicode decimal digit, and %d's
// " 5" has a space), read only where the text matched; %y is 1969 to 2068
// as in CPython. Valid also checks what datetime() checks: a year from 1,
// the day in its month (leap years Gregorian), a second below 60 (%S
// reads 60 and 61). Hours and minutes are in range by their patterns.
//
// A text of ASCII alone, the common row, takes the pattern with ASCII
// classes and no translation (casemap.Guard): the same groups there, and
// a fraction of the work per field.
func pyStrptimeSQL(e *ir.Call, s string) (string, error) {
	var lits []string
	for _, a := range e.Args[1:] {
		l, _ := a.(*ir.Lit)
		if l == nil || !isStringLit(l) {
			return "", sqlErr("strptime of a format that is not a literal")
		}
		lits = append(lits, l.Value.(string))
	}
	if len(lits) < 5 {
		return "", sqlErr("strptime without its pattern")
	}
	pattern, fields, from, to, asciiPattern := lits[0], lits[1], lits[2], lits[3], lits[4]
	q := func(v string) (string, error) { return Render(&ir.Lit{T: udf.Prim(udf.String), Value: v}) }
	var sqls [4]string
	for i, v := range []string{pattern, from, to, asciiPattern} {
		var err error
		if sqls[i], err = q(v); err != nil {
			return "", err
		}
	}
	pat, fromSQL, toSQL, asciiPat := sqls[0], sqls[1], sqls[2], sqls[3]
	// fieldsOf is the SQL of each field of the text v matched by the
	// pattern p; digits says whether they are translated to ASCII.
	fieldsOf := func(v, p string, digits bool) map[byte]string {
		field := map[byte]string{'H': "0", 'M': "0", 'S': "0"}
		for i := 0; i < len(fields); i++ {
			g := fmt.Sprintf("regexp_extract(%s, %s, %d)", v, p, i+1)
			if digits {
				g = fmt.Sprintf("translate(%s, %s, %s)", g, fromSQL, toSQL)
			}
			f := "CAST(trim(" + g + ") AS INT)"
			switch fields[i] {
			case 'Y':
				field['Y'] = f
			case 'y':
				field['Y'] = "(" + f + " + CASE WHEN " + f + " <= 68 THEN 2000 ELSE 1900 END)"
			default:
				field[fields[i]] = f
			}
		}
		return field
	}
	if field := fieldsOf("udfx_s", pat, true); field['Y'] == "" || field['m'] == "" || field['d'] == "" {
		return "", sqlErr("strptime without a year, a month and a day")
	}
	// body is the function's SQL over the text v and its pattern p.
	var body func(v, p string, digits bool) string
	if e.Fn == ir.PyStrptimeStrftime {
		if len(lits) < 6 {
			return "", sqlErr("strftime without a format")
		}
		if _, err := strftimeSQL(lits[5], ir.StrftimeDirectives(e.Fn), fieldsOf("udfx_s", pat, true)); err != nil {
			return "", err
		}
		body = func(v, p string, digits bool) string {
			parts, _ := strftimeSQL(lits[5], ir.StrftimeDirectives(e.Fn), fieldsOf(v, p, digits))
			return "concat(" + strings.Join(parts, ", ") + ")"
		}
	} else {
		body = func(v, p string, digits bool) string {
			field := fieldsOf(v, p, digits)
			y, m, d := field['Y'], field['m'], field['d']
			leap := fmt.Sprintf("((%[1]s) %% 4 = 0 AND (%[1]s) %% 100 <> 0 OR (%[1]s) %% 400 = 0)", y)
			days := fmt.Sprintf("CASE WHEN %[1]s IN (4, 6, 9, 11) THEN 30 WHEN %[1]s = 2 THEN CASE WHEN %[2]s THEN 29 ELSE 28 END ELSE 31 END", m, leap)
			valid := fmt.Sprintf("%s >= 1 AND %s <= %s AND %s <= 59", y, d, days, field['S'])
			return fmt.Sprintf("CASE WHEN %[1]s RLIKE %[2]s AND regexp_extract(%[1]s, %[2]s, 0) = %[1]s THEN %[3]s ELSE FALSE END", v, p, valid)
		}
	}
	return casemap.Guard(s, writeOutUpTo, casemap.ASCII, func(v string) string {
		return body(v, asciiPat, false)
	}, func(v string) string {
		// The rare text is written as many times as the fields are
		// read: a value that is not a column is bound here.
		return casemap.Bind(v, func(v string) string { return body(v, pat, true) })
	}), nil
}

func isStringLit(l *ir.Lit) bool {
	_, ok := l.Value.(string)
	return ok
}

// doubleLit is the DOUBLE literal of a finite v.
func doubleLit(v float64) string {
	s, _ := Render(&ir.Lit{T: udf.Prim(udf.Double), Value: v})
	return s
}
