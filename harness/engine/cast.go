package engine

import (
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/udfx/udfx/harness/udf"
)

// castNode is CAST, TRY_CAST and the casts of type coercion.
type castNode struct {
	x   node
	to  *udf.Type
	fn  func(any) (any, *RowError)
	try bool
}

func (c *castNode) typ() *udf.Type { return c.to }

func (c *castNode) one(x any) (any, *RowError) {
	if x == nil {
		return nil, nil
	}
	v, e := c.fn(x)
	// try_cast nulls Spark's errors, never the engine's own refusals.
	if e != nil && c.try && e.Condition != CondUnsupported {
		return nil, nil
	}
	return v, e
}

func (c *castNode) eval(cx *ctx) (*vec, error) {
	x, err := c.x.eval(cx)
	if err != nil {
		return nil, err
	}
	// Hot path: integral or float to double, no errors possible.
	if c.to.Kind == udf.Double && x.errs == nil && !x.konst {
		switch {
		case x.i64 != nil:
			out := &vec{t: tDouble, n: cx.n, f64: make([]float64, cx.n), null: x.null}
			for i, v := range x.i64[:cx.n] {
				out.f64[i] = float64(v)
			}
			return out, nil
		case x.f32 != nil:
			out := &vec{t: tDouble, n: cx.n, f64: make([]float64, cx.n), null: x.null}
			for i, v := range x.f32[:cx.n] {
				out.f64[i] = float64(v)
			}
			return out, nil
		}
	}
	if x.konst {
		out := newVec(c.to, 1)
		out.n = cx.n
		out.konst = true
		if e := x.errAt(0); e != nil {
			out.null = []bool{true}
			out.errs = []*RowError{e}
			return out, nil
		}
		v, e := c.one(x.get(0))
		switch {
		case e != nil:
			out.null = []bool{true}
			out.errs = []*RowError{e}
		case v == nil:
			out.null = []bool{true}
		default:
			out.set(0, v)
		}
		return out, nil
	}
	out := newVec(c.to, cx.n)
	for i := 0; i < cx.n; i++ {
		if e := x.errAt(i); e != nil {
			out.setErr(i, e)
			continue
		}
		v, e := c.one(x.get(i))
		switch {
		case e != nil:
			out.setErr(i, e)
		case v == nil:
			out.setNull(i)
		default:
			out.set(i, v)
		}
	}
	return out, nil
}

// sqlTypeName is how Spark's error messages name a type.
func sqlTypeName(t *udf.Type) string {
	if t.Kind == udf.Decimal {
		return "DECIMAL(" + strconv.Itoa(t.Precision) + "," + strconv.Itoa(t.Scale) + ")"
	}
	return strings.ToUpper(t.String())
}

func invalidInput(s string, from, to *udf.Type) *RowError {
	return rowErr(classNumberFormat, "CAST_INVALID_INPUT", "The value '%s' of the type \"%s\" cannot be cast to \"%s\" because it is malformed. Correct the value as per the syntax, or change its target type. Use `try_cast` to tolerate malformed input and return NULL instead.", s, sqlTypeName(from), sqlTypeName(to))
}

func castOverflow(v string, from, to *udf.Type) *RowError {
	return rowErr(classArithmetic, "CAST_OVERFLOW", "The value %s of the type \"%s\" cannot be cast to \"%s\" due to an overflow. Use `try_cast` to tolerate overflow and return NULL instead.", v, sqlTypeName(from), sqlTypeName(to))
}

// CondUnsupported is the condition of a row error the engine gives where
// it refuses to compute a value (RowError.Condition).
const CondUnsupported = "EMBEDDED_ENGINE_UNSUPPORTED"

// errUnsupportedValue marks a row whose input the embedded engine cannot
// reproduce exactly (a rare string form, a year outside 1..9999): the row
// fails loudly rather than differing silently.
func errUnsupportedValue(what string) *RowError {
	return rowErr("udfx.engine.Unsupported", CondUnsupported, "%s is not supported by the embedded engine; use --engine spark", what)
}

// castFunc returns the conversion of one non-null value from one type to
// another, with Spark's ANSI (strict) or legacy semantics.
func castFunc(from, to *udf.Type, ansi bool, loc *time.Location) (func(any) (any, *RowError), error) {
	if isVoid(from) {
		return func(any) (any, *RowError) { return nil, nil }, nil
	}
	switch {
	case from.Equal(to):
		return func(x any) (any, *RowError) { return x, nil }, nil
	case to.Kind == udf.String:
		return castToString(from, to, ansi, loc)
	case from.Kind == udf.String:
		return castFromString(from, to, ansi, loc)
	case from.Kind == udf.Boolean && to.IsNumeric():
		return func(x any) (any, *RowError) {
			one := int64(0)
			if x.(bool) {
				one = 1
			}
			return numFromInt(one, to), nil
		}, nil
	case from.IsNumeric() && to.Kind == udf.Boolean:
		return func(x any) (any, *RowError) { return !isZero(x), nil }, nil
	case from.IsNumeric() && to.IsNumeric():
		return numericCast(from, to, ansi), nil
	case from.Kind == udf.Date && to.Kind == udf.Timestamp:
		return func(x any) (any, *RowError) {
			y, m, d := civil(x.(int64))
			return time.Date(y, time.Month(m), d, 0, 0, 0, 0, loc).UnixMicro(), nil
		}, nil
	case from.Kind == udf.Timestamp && to.Kind == udf.Date:
		return func(x any) (any, *RowError) {
			t := time.UnixMicro(x.(int64)).In(loc)
			return daysFromCivil(t.Year(), int(t.Month()), t.Day()), nil
		}, nil
	case from.Kind == udf.Array && to.Kind == udf.Array:
		ef, err := castFunc(from.Elem, to.Elem, ansi, loc)
		if err != nil {
			return nil, err
		}
		return func(x any) (any, *RowError) {
			in := x.([]any)
			out := make([]any, len(in))
			for i, e := range in {
				if e == nil {
					continue
				}
				v, re := ef(e)
				if re != nil {
					return nil, re
				}
				out[i] = v
			}
			return out, nil
		}, nil
	case from.Kind == udf.Timestamp && to.Kind == udf.Long:
		// Seconds, floored (conformance cast/timestamp-to-bigint:
		// 1969-12-31 23:59:59.5 is -1).
		return func(x any) (any, *RowError) {
			us := x.(int64)
			s := us / 1_000_000
			if us%1_000_000 < 0 {
				s--
			}
			return s, nil
		}, nil
	case to.Kind == udf.Binary && isIntegral(from):
		// Spark 4.1.1 allows integral to binary only with ANSI off (the
		// big-endian bytes of the value in its own width: CAST(1S AS BINARY)
		// is 0x0001); with ANSI on it is an analysis error.
		if ansi {
			return nil, typeErrf("DATATYPE_MISMATCH.CAST_WITH_CONF_SUGGESTION", "cannot cast %s to binary with ANSI mode on", from)
		}
		width := map[udf.TypeKind]int{udf.Byte: 1, udf.Short: 2, udf.Int: 4, udf.Long: 8}[from.Kind]
		return func(x any) (any, *RowError) {
			v := uint64(x.(int64))
			out := make([]byte, width)
			for i := width - 1; i >= 0; i-- {
				out[i] = byte(v)
				v >>= 8
			}
			return out, nil
		}, nil
	case to.Kind == udf.Binary && (from.IsNumeric() || from.Kind == udf.Boolean):
		return nil, typeErrf("DATATYPE_MISMATCH.CAST_WITHOUT_SUGGESTION", "cannot cast %s to binary", from)
	case from.IsNumeric() && to.Kind == udf.Date:
		// CAST(1 AS DATE) is an analysis error in Spark 4.1.1.
		return nil, typeErrf("DATATYPE_MISMATCH.CAST_WITHOUT_SUGGESTION", "cannot cast %s to date", from)
	}
	return unsupportedCast(from, to)
}

// unsupportedCast refuses a conversion the engine does not implement.
func unsupportedCast(from, to *udf.Type) (func(any) (any, *RowError), error) {
	return nil, &UnsupportedFunctionError{Name: "CAST(" + from.String() + " AS " + to.String() + ")"}
}

// castToString is castFunc to string: Spark's formatting of a value.
func castToString(from, to *udf.Type, ansi bool, loc *time.Location) (func(any) (any, *RowError), error) {
	switch {
	case from.IsNumeric() || from.Kind == udf.Boolean || from.Kind == udf.Date || from.Kind == udf.Timestamp:
		return func(x any) (any, *RowError) { return toString(from, x, loc, ansi) }, nil
	case from.Kind == udf.Binary:
		return func(x any) (any, *RowError) { return string(x.([]byte)), nil }, nil
	}
	return unsupportedCast(from, to)
}

// castFromString is castFunc from string: Spark's parsing of a string as
// a value of type to.
func castFromString(from, to *udf.Type, ansi bool, loc *time.Location) (func(any) (any, *RowError), error) {
	switch {
	case isIntegral(to):
		return func(x any) (any, *RowError) { return stringToIntegral(x.(string), to, ansi) }, nil
	case isFractional(to):
		return func(x any) (any, *RowError) { return stringToFloat(x.(string), to, ansi) }, nil
	case to.Kind == udf.Decimal:
		return func(x any) (any, *RowError) { return stringToDecimal(x.(string), to, ansi) }, nil
	case to.Kind == udf.Boolean:
		return func(x any) (any, *RowError) { return stringToBool(x.(string), ansi) }, nil
	case to.Kind == udf.Date:
		return func(x any) (any, *RowError) {
			s := x.(string)
			d, ok := parseDate(trimAll(s))
			if t := trimAll(s); !ok && t != "" && (t[0] == '+' || t[0] == '-') {
				// Spark reads signed and 5+ digit years ('+10000-01-01',
				// '-0001-01-01'); the engine does not.
				return nil, errUnsupportedValue("a date string with a signed year")
			}
			if !ok {
				if ansi {
					return nil, rowErr(classDateTime, "CAST_INVALID_INPUT", "The value '%s' of the type \"STRING\" cannot be cast to \"DATE\" because it is malformed. Correct the value as per the syntax, or change its target type. Use `try_cast` to tolerate malformed input and return NULL instead.", s)
				}
				return nil, nil
			}
			return d, nil
		}, nil
	case to.Kind == udf.Timestamp:
		return func(x any) (any, *RowError) {
			s := x.(string)
			v, ok, e := parseTimestamp(trimAll(s), loc)
			if e != nil {
				return nil, e
			}
			if !ok {
				if ansi {
					return nil, rowErr(classDateTime, "CAST_INVALID_INPUT", "The value '%s' of the type \"STRING\" cannot be cast to \"TIMESTAMP\" because it is malformed. Correct the value as per the syntax, or change its target type. Use `try_cast` to tolerate malformed input and return NULL instead.", s)
				}
				return nil, nil
			}
			return v, nil
		}, nil
	case to.Kind == udf.Binary:
		return func(x any) (any, *RowError) { return []byte(x.(string)), nil }, nil
	}
	return unsupportedCast(from, to)
}

func numFromInt(v int64, to *udf.Type) any {
	switch to.Kind {
	case udf.Float:
		return float32(v)
	case udf.Double:
		return float64(v)
	case udf.Decimal:
		return new(big.Int).Mul(big.NewInt(v), pow10(to.Scale))
	}
	return v
}

// numericCast converts between numeric types.
func numericCast(from, to *udf.Type, ansi bool) func(any) (any, *RowError) {
	switch {
	case isIntegral(from) && isIntegral(to):
		return func(x any) (any, *RowError) {
			v := x.(int64)
			if !fitsInt(v, to) {
				if ansi {
					return nil, castOverflow(strconv.FormatInt(v, 10)+intSuffix(from), from, to)
				}
				return wrapInt(v, to), nil
			}
			return v, nil
		}
	case isIntegral(from):
		return func(x any) (any, *RowError) {
			v := x.(int64)
			if to.Kind == udf.Decimal {
				u := new(big.Int).Mul(big.NewInt(v), pow10(to.Scale))
				return fitDecimal(u, to, ansi, strconv.FormatInt(v, 10)+intSuffix(from), from)
			}
			return numFromInt(v, to), nil
		}
	case isFractional(from) && isIntegral(to):
		return func(x any) (any, *RowError) {
			d, lit := fracVal(x)
			t := math.Trunc(d)
			var lo, hi float64
			switch to.Kind {
			case udf.Long:
				lo, hi = -9223372036854775808, 9223372036854775807
			case udf.Int:
				lo, hi = math.MinInt32, math.MaxInt32
			case udf.Short:
				lo, hi = math.MinInt16, math.MaxInt16
			default:
				lo, hi = math.MinInt8, math.MaxInt8
			}
			if ansi {
				// Spark's check: floor(x) <= MAX && ceil(x) >= MIN, compared
				// in double, with NaN failing. Long.MaxValue is 2^63 as a
				// double, so 2^63 itself passes and converts with Java's
				// saturating (long) (checked: CAST(9.223372036854775807E18D
				// AS BIGINT) is 9223372036854775807 in Spark 4.1.1).
				if math.IsNaN(d) || !(math.Floor(d) <= hi && math.Ceil(d) >= lo) {
					return nil, castOverflow(lit, from, to)
				}
				return javaD2L(t), nil
			}
			// Legacy: Java's (int)/(long) conversion (saturating, NaN -> 0),
			// narrowed further by wrapping for tinyint and smallint.
			if to.Kind == udf.Long {
				return javaD2L(d), nil
			}
			return wrapInt(javaD2I(d), to), nil
		}
	case isFractional(from) && isFractional(to):
		return func(x any) (any, *RowError) {
			if to.Kind == udf.Float {
				return float32(x.(float64)), nil
			}
			return float64(x.(float32)), nil
		}
	case isFractional(from) && to.Kind == udf.Decimal:
		return func(x any) (any, *RowError) {
			d, lit := fracVal(x)
			if math.IsNaN(d) || math.IsInf(d, 0) {
				// NULL even with ANSI on: Decimal(NaN) throws
				// NumberFormatException, which the cast turns into NULL
				// (conformance cast/double-to-decimal/ansi, Spark 4.1.1).
				return nil, nil
			}
			// Spark builds the decimal from the double's shortest decimal
			// string (Scala's BigDecimal(d)), then rounds HALF_UP.
			u, s := decimalFromFloat(d)
			return fitDecimal(roundHalfUp(u, s, to.Scale), to, ansi, lit, from)
		}
	case from.Kind == udf.Decimal && to.Kind == udf.Decimal:
		return func(x any) (any, *RowError) {
			u := roundHalfUp(x.(*big.Int), from.Scale, to.Scale)
			return fitDecimal(u, to, ansi, decString(x.(*big.Int), from.Scale)+"BD", from)
		}
	case from.Kind == udf.Decimal && isIntegral(to):
		return func(x any) (any, *RowError) {
			q := new(big.Int).Quo(x.(*big.Int), pow10(from.Scale))
			if !q.IsInt64() || !fitsInt(q.Int64(), to) {
				if ansi {
					return nil, castOverflow(decString(x.(*big.Int), from.Scale)+"BD", from, to)
				}
				// BigDecimal.longValue keeps the low 64 bits.
				lo := new(big.Int).And(q, new(big.Int).SetUint64(math.MaxUint64))
				return wrapInt(int64(lo.Uint64()), to), nil
			}
			return q.Int64(), nil
		}
	case from.Kind == udf.Decimal && isFractional(to):
		return func(x any) (any, *RowError) {
			f, _ := strconv.ParseFloat(decString(x.(*big.Int), from.Scale), 64)
			if to.Kind == udf.Float {
				f32, _ := strconv.ParseFloat(decString(x.(*big.Int), from.Scale), 32)
				return float32(f32), nil
			}
			return f, nil
		}
	}
	return func(any) (any, *RowError) { return nil, errUnsupportedValue("this cast") }
}

func intSuffix(t *udf.Type) string {
	switch t.Kind {
	case udf.Byte:
		return "Y"
	case udf.Short:
		return "S"
	case udf.Long:
		return "L"
	}
	return ""
}

// fracVal returns a float or double as float64 and as Spark prints it in
// error messages (1.0E20D, NaN).
func fracVal(x any) (float64, string) {
	switch v := x.(type) {
	case float32:
		s := formatFloat32(v)
		if !math.IsNaN(float64(v)) && !math.IsInf(float64(v), 0) {
			s += "F"
		}
		return float64(v), s
	case float64:
		s := formatFloat64(v)
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			s += "D"
		}
		return v, s
	}
	return 0, ""
}

func javaD2L(d float64) int64 {
	switch {
	case math.IsNaN(d):
		return 0
	case d >= 9223372036854775807:
		return math.MaxInt64
	case d <= -9223372036854775808:
		return math.MinInt64
	}
	return int64(d)
}

func javaD2I(d float64) int64 {
	switch {
	case math.IsNaN(d):
		return 0
	case d >= math.MaxInt32:
		return math.MaxInt32
	case d <= math.MinInt32:
		return math.MinInt32
	}
	return int64(int32(d))
}

// fitDecimal checks an unscaled value against t's precision.
func fitDecimal(u *big.Int, t *udf.Type, ansi bool, lit string, from *udf.Type) (any, *RowError) {
	if !fitsPrecision(u, t.Precision) {
		if ansi {
			return nil, rowErr(classArithmetic, "NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION", "%s cannot be represented as Decimal(%d, %d). If necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass this error, and return NULL instead.", strings.TrimSuffix(strings.TrimSuffix(lit, "BD"), "D"), t.Precision, t.Scale)
		}
		return nil, nil
	}
	return u, nil
}

// decimalFromFloat returns the shortest decimal form of d as an unscaled
// value and a scale (never negative).
func decimalFromFloat(d float64) (*big.Int, int) {
	s := strconv.FormatFloat(d, 'e', -1, 64)
	mant, expS, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(expS)
	neg := strings.HasPrefix(mant, "-")
	mant = strings.TrimPrefix(mant, "-")
	intPart, frac, _ := strings.Cut(mant, ".")
	digits := intPart + frac
	scale := len(frac) - exp
	u, _ := new(big.Int).SetString(digits, 10)
	if scale < 0 {
		u.Mul(u, pow10(-scale))
		scale = 0
	}
	if neg {
		u.Neg(u)
	}
	return u, scale
}

// decString prints an unscaled decimal as java.math.BigDecimal.toPlainString.
func decString(u *big.Int, scale int) string {
	s := new(big.Int).Abs(u).String()
	neg := u.Sign() < 0
	if scale > 0 {
		if len(s) <= scale {
			s = strings.Repeat("0", scale-len(s)+1) + s
		}
		s = s[:len(s)-scale] + "." + s[len(s)-scale:]
	}
	if neg {
		s = "-" + s
	}
	return s
}

// trimAll is UTF8String.trimAll: strips bytes <= 0x20 (spaces and ASCII
// control characters) at both ends, as Spark does before parsing numbers,
// booleans and datetimes from strings.
func trimAll(s string) string {
	i, j := 0, len(s)
	for i < j && s[i] <= ' ' {
		i++
	}
	for j > i && s[j-1] <= ' ' {
		j--
	}
	return s[i:j]
}

var intStrictRe = regexp.MustCompile(`^[+-]?[0-9]+$`)

// legacyIntPart is UTF8String.toLong/toInt with decimals allowed (the
// ANSI-off cast): an optional sign that must not stand alone, ASCII digits,
// then optionally '.' and more digits, which are dropped. Either digit run
// may be empty, so '.', '-.', '+.' and '.5' are 0 and '5.' is 5 (checked
// in Spark 4.1.1; the empty string, '-', '+' and '..' are NULL).
func legacyIntPart(t string) (string, bool) {
	if t == "" {
		return "", false
	}
	body := t
	if t[0] == '+' || t[0] == '-' {
		if len(t) == 1 {
			return "", false
		}
		body = t[1:]
	}
	intPart, frac, _ := strings.Cut(body, ".")
	for _, p := range [2]string{intPart, frac} {
		for i := 0; i < len(p); i++ {
			if p[i] < '0' || p[i] > '9' {
				return "", false
			}
		}
	}
	if intPart == "" {
		return "0", true
	}
	if t[0] == '-' {
		return "-" + intPart, true
	}
	return intPart, true
}

func stringToIntegral(s string, to *udf.Type, ansi bool) (any, *RowError) {
	t := trimAll(s)
	intPart, ok := t, intStrictRe.MatchString(t)
	if !ansi {
		intPart, ok = legacyIntPart(t)
	}
	if ok {
		v, err := strconv.ParseInt(intPart, 10, 64)
		if err == nil && fitsInt(v, to) {
			return v, nil
		}
	}
	if ansi {
		return nil, invalidInput(s, tString, to)
	}
	return nil, nil
}

var floatRe = regexp.MustCompile(`^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?[fFdD]?$`)
var hexFloatRe = regexp.MustCompile(`^[+-]?0[xX]([0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)[pP][+-]?[0-9]+[fFdD]?$`)

func stringToFloat(s string, to *udf.Type, ansi bool) (any, *RowError) {
	t := trimAll(s)
	var f float64
	ok := true
	// Java's Double.parseDouble reads a signed "NaN" or "Infinity" (exact
	// case); Spark's fallback then takes only these lower-cased spellings,
	// so '-NaN' is NaN while '-nan' and '+nan' are malformed (checked in
	// Spark 4.1.1).
	switch t {
	case "NaN", "+NaN", "-NaN":
		t = "nan"
	case "Infinity", "+Infinity":
		t = "infinity"
	case "-Infinity":
		t = "-infinity"
	}
	switch strings.ToLower(t) {
	case "inf", "+inf", "infinity", "+infinity":
		f = math.Inf(1)
	case "-inf", "-infinity":
		f = math.Inf(-1)
	case "nan":
		f = math.NaN()
	default:
		if floatRe.MatchString(t) || hexFloatRe.MatchString(t) {
			body := strings.TrimRight(t, "fFdD")
			if hexFloatRe.MatchString(t) && !strings.ContainsAny(t[len(t)-1:], "fFdD") {
				body = t
			}
			bits := 64
			if to.Kind == udf.Float {
				bits = 32
			}
			v, err := strconv.ParseFloat(body, bits)
			if err != nil && !strings.Contains(err.Error(), "range") {
				ok = false
			}
			f = v
		} else {
			ok = false
		}
	}
	if !ok {
		if ansi {
			return nil, invalidInput(s, tString, to)
		}
		return nil, nil
	}
	if to.Kind == udf.Float {
		return float32(f), nil
	}
	return f, nil
}

// javaDecimalDigit is Character.digit(c, 10) for a BMP character, which
// java.math.BigDecimal(String) accepts as a digit: Unicode decimal digits
// (category Nd) come in runs of ten from 0, so the value is the offset in
// the run. Checked over the whole BMP against JDK 17 and JDK 25 (370
// characters, the same in both and in Go's tables); supplementary
// characters are surrogate pairs to BigDecimal, never digits.
func javaDecimalDigit(r rune) int {
	if r >= '0' && r <= '9' {
		return int(r - '0')
	}
	if r > 0xFFFF || !unicode.IsDigit(r) {
		return -1
	}
	start := r
	for unicode.IsDigit(start - 1) {
		start--
	}
	return int(r-start) % 10
}

// javaBigDecimal parses t as new java.math.BigDecimal(t): a sign, digits
// with at most one '.', at least one digit, then optionally e/E, a sign and
// up to 10 significant exponent digits; the exponent and the scale must fit
// an int. It returns the digits (ASCII, leading zeros kept), the scale and
// the precision (BigDecimal.precision: digits without leading zeros, 1 for
// zero).
func javaBigDecimal(t string) (neg bool, digits string, scale int64, precision int64, ok bool) {
	rs := []rune(t)
	i := 0
	if i < len(rs) && (rs[i] == '+' || rs[i] == '-') {
		neg = rs[i] == '-'
		i++
	}
	var b strings.Builder
	nFrac, dot := int64(0), false
	for ; i < len(rs); i++ {
		c := rs[i]
		if c == '.' {
			if dot {
				return false, "", 0, 0, false
			}
			dot = true
			continue
		}
		d := javaDecimalDigit(c)
		if d < 0 {
			break
		}
		b.WriteByte(byte('0' + d))
		if dot {
			nFrac++
		}
	}
	digits = b.String()
	if digits == "" {
		return false, "", 0, 0, false
	}
	exp := int64(0)
	if i < len(rs) {
		if rs[i] != 'e' && rs[i] != 'E' {
			return false, "", 0, 0, false
		}
		i++
		negExp := false
		if i < len(rs) && (rs[i] == '+' || rs[i] == '-') {
			negExp = rs[i] == '-'
			i++
		}
		if i == len(rs) {
			return false, "", 0, 0, false
		}
		sig := 0
		for ; i < len(rs); i++ {
			d := javaDecimalDigit(rs[i])
			if d < 0 {
				return false, "", 0, 0, false
			}
			if sig > 0 || d != 0 {
				sig++
			}
			if sig > 10 {
				return false, "", 0, 0, false
			}
			exp = exp*10 + int64(d)
		}
		if negExp {
			exp = -exp
		}
		if exp != int64(int32(exp)) {
			return false, "", 0, 0, false // "Exponent overflow."
		}
	}
	scale = nFrac - exp
	if scale != int64(int32(scale)) {
		return false, "", 0, 0, false // "Scale out of range."
	}
	precision = int64(len(strings.TrimLeft(digits, "0")))
	if precision == 0 {
		precision = 1
	}
	return neg, digits, scale, precision, true
}

// maxTinyDecimalScale bounds the scale of a string the engine rounds to
// zero itself: Java computes 10^scale to round it, which for scales in the
// hundreds of millions overflows BigInteger (a raw ArithmeticException in
// Spark 4.1.1, even in try_cast) or takes very long. Such rows are refused.
const maxTinyDecimalScale = 100000

// stringToDecimal is Spark's Decimal.fromString / fromStringANSI: the
// trimmed string as a java.math.BigDecimal (Unicode decimal digits
// included: CAST('٣' AS DECIMAL(3,2)) is 3.00), more than 38 integral digits
// (precision - scale, in int arithmetic) is NULL or
// NUMERIC_OUT_OF_SUPPORTED_RANGE (even '1e38' and '0e400'), then HALF_UP
// rounding to the type's scale and its precision check.
func stringToDecimal(s string, to *udf.Type, ansi bool) (any, *RowError) {
	t := trimAll(s)
	neg, digits, scale, precision, ok := javaBigDecimal(t)
	if !ok {
		if ansi {
			return nil, invalidInput(s, tString, to)
		}
		return nil, nil
	}
	intDigits := precision - scale
	if intDigits != int64(int32(intDigits)) || scale > maxTinyDecimalScale {
		return nil, errUnsupportedValue("a decimal string with a huge exponent")
	}
	if intDigits > 38 {
		if ansi {
			return nil, rowErr(classArithmetic, "NUMERIC_OUT_OF_SUPPORTED_RANGE", "The value %s cannot be interpreted as a numeric since it has more than 38 digits.", t)
		}
		return nil, nil
	}
	u, _ := new(big.Int).SetString(digits, 10)
	if neg {
		u.Neg(u)
	}
	if scale < 0 {
		u.Mul(u, pow10(int(-scale)))
		scale = 0
	}
	return fitDecimal(roundHalfUp(u, int(scale), to.Scale), to, ansi, t, tString)
}

func stringToBool(s string, ansi bool) (any, *RowError) {
	switch strings.ToLower(trimAll(s)) {
	case "t", "true", "y", "yes", "1":
		return true, nil
	case "f", "false", "n", "no", "0":
		return false, nil
	}
	if ansi {
		return nil, invalidInput(s, tString, tBool)
	}
	return nil, nil
}

// The refusals of float and double values whose string form depends on
// the JDK (jdkfloat.go).
const (
	refuseFloatString  = "CAST of a float to string that JDK 17 and JDK 19+ may print differently"
	refuseDoubleString = "CAST of a double to string that JDK 17 and JDK 19+ may print differently"
)

// toString is CAST(x AS STRING).
func toString(t *udf.Type, x any, loc *time.Location, ansi bool) (any, *RowError) {
	switch t.Kind {
	case udf.Boolean:
		if x.(bool) {
			return "true", nil
		}
		return "false", nil
	case udf.Byte, udf.Short, udf.Int, udf.Long:
		return strconv.FormatInt(x.(int64), 10), nil
	case udf.Float:
		if !jdkPortableString(float64(x.(float32)), 32) {
			return nil, errUnsupportedValue(refuseFloatString)
		}
		return formatFloat32(x.(float32)), nil
	case udf.Double:
		if !jdkPortableString(x.(float64), 64) {
			return nil, errUnsupportedValue(refuseDoubleString)
		}
		return formatFloat64(x.(float64)), nil
	case udf.Decimal:
		if !ansi {
			return javaBigDecimalString(x.(*big.Int), t.Scale), nil
		}
		return decString(x.(*big.Int), t.Scale), nil
	case udf.Date:
		return formatDate(x.(int64))
	case udf.Timestamp:
		return formatTimestamp(x.(int64), loc)
	}
	return nil, errUnsupportedValue("CAST(" + t.String() + " AS STRING)")
}

// formatFloat64 prints a double as Java's Double.toString, which Spark's
// CAST(double AS STRING) uses: plain notation for 1e-3 <= |d| < 1e7,
// else d.dddE±n, always with a fractional digit.
func formatFloat64(d float64) string { return javaFloatString(d, 64) }

func formatFloat32(f float32) string { return javaFloatString(float64(f), 32) }

func javaFloatString(d float64, bits int) string {
	switch {
	case math.IsNaN(d):
		return "NaN"
	case math.IsInf(d, 1):
		return "Infinity"
	case math.IsInf(d, -1):
		return "-Infinity"
	case d == 0:
		if math.Signbit(d) {
			return "-0.0"
		}
		return "0.0"
	}
	s := strconv.FormatFloat(d, 'e', -1, bits)
	mant, expS, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(expS)
	neg := strings.HasPrefix(mant, "-")
	mant = strings.TrimPrefix(mant, "-")
	digits := strings.Replace(mant, ".", "", 1)
	var out string
	a := math.Abs(d)
	if a >= 1e-3 && a < 1e7 {
		if exp >= 0 {
			ip := digits
			fp := ""
			if len(digits) > exp+1 {
				ip, fp = digits[:exp+1], digits[exp+1:]
			} else {
				ip = digits + strings.Repeat("0", exp+1-len(digits))
			}
			if fp == "" {
				fp = "0"
			}
			out = ip + "." + fp
		} else {
			out = "0." + strings.Repeat("0", -exp-1) + digits
		}
	} else {
		fp := digits[1:]
		if fp == "" {
			fp = "0"
		}
		out = digits[:1] + "." + fp + "E" + strconv.Itoa(exp)
	}
	if neg {
		out = "-" + out
	}
	return out
}

// javaBigDecimalString is java.math.BigDecimal.toString, which Spark 4.1.1
// uses for CAST(decimal AS STRING) with ANSI off (it prints 1E-10 and 0E-10
// where ANSI mode prints 0.0000000001 and 0.0000000000).
func javaBigDecimalString(u *big.Int, scale int) string {
	coeff := new(big.Int).Abs(u).String()
	adjusted := len(coeff) - 1 - scale
	if scale >= 0 && adjusted >= -6 {
		return decString(u, scale)
	}
	s := coeff[:1]
	if len(coeff) > 1 {
		s += "." + coeff[1:]
	}
	s += "E"
	if adjusted > 0 {
		s += "+"
	}
	s += strconv.Itoa(adjusted)
	if u.Sign() < 0 {
		s = "-" + s
	}
	return s
}
