package engine

import (
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"time"

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
	if e != nil && c.try && e.Condition != condUnsupported {
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

// condUnsupported is the condition of a row the engine refuses.
const condUnsupported = "EMBEDDED_ENGINE_UNSUPPORTED"

// errUnsupportedValue marks a row whose input the embedded engine cannot
// reproduce exactly (a rare string form, a year outside 1..9999): the row
// fails loudly rather than differing silently.
func errUnsupportedValue(what string) *RowError {
	return rowErr("udfx.engine.Unsupported", condUnsupported, "%s is not supported by the embedded engine; use --engine spark", what)
}

// castFunc returns the conversion of one non-null value from one type to
// another, with Spark's ANSI (strict) or legacy semantics.
func castFunc(from, to *udf.Type, ansi bool, loc *time.Location) (func(any) (any, *RowError), error) {
	unsupported := func() (func(any) (any, *RowError), error) {
		return nil, &UnsupportedFunctionError{Name: "CAST(" + from.String() + " AS " + to.String() + ")"}
	}
	if isVoid(from) {
		return func(any) (any, *RowError) { return nil, nil }, nil
	}
	switch {
	case from.Equal(to):
		return func(x any) (any, *RowError) { return x, nil }, nil
	case to.Kind == udf.String:
		switch {
		case from.IsNumeric() || from.Kind == udf.Boolean || from.Kind == udf.Date || from.Kind == udf.Timestamp:
			return func(x any) (any, *RowError) { return toString(from, x, loc, ansi) }, nil
		case from.Kind == udf.Binary:
			return func(x any) (any, *RowError) { return string(x.([]byte)), nil }, nil
		}
		return unsupported()
	case from.Kind == udf.String:
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
		return unsupported()
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
	case from.IsNumeric() && to.Kind == udf.Date:
		// CAST(1 AS DATE) is an analysis error in Spark 4.1.1.
		return nil, typeErrf("DATATYPE_MISMATCH.CAST_WITHOUT_SUGGESTION", "cannot cast %s to date", from)
	}
	return unsupported()
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
				// Spark's check: floor(x) <= MAX && ceil(x) >= MIN, with NaN failing.
				if math.IsNaN(d) || !(math.Floor(d) <= hi && math.Ceil(d) >= lo) || to.Kind == udf.Long && t >= 9223372036854775808.0 {
					return nil, castOverflow(lit, from, to)
				}
				return int64(t), nil
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

var intLegacyRe = regexp.MustCompile(`^[+-]?[0-9]+(\.[0-9]*)?$|^[+-]?\.[0-9]+$`)
var intStrictRe = regexp.MustCompile(`^[+-]?[0-9]+$`)

func stringToIntegral(s string, to *udf.Type, ansi bool) (any, *RowError) {
	t := trimAll(s)
	re := intLegacyRe
	if ansi {
		re = intStrictRe
	}
	if re.MatchString(t) {
		intPart, _, _ := strings.Cut(t, ".")
		if intPart == "" || intPart == "+" || intPart == "-" {
			intPart += "0"
		}
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

var decStrRe = regexp.MustCompile(`^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$`)

func stringToDecimal(s string, to *udf.Type, ansi bool) (any, *RowError) {
	t := trimAll(s)
	if !decStrRe.MatchString(t) {
		if ansi {
			return nil, invalidInput(s, tString, to)
		}
		return nil, nil
	}
	u, scale, ok := parseBigDecimal(t)
	if !ok {
		return nil, errUnsupportedValue("a decimal string with a huge exponent")
	}
	return fitDecimal(roundHalfUp(u, scale, to.Scale), to, ansi, t, tString)
}

// parseBigDecimal reads a decimal string with optional exponent into an
// unscaled value and a non-negative scale.
func parseBigDecimal(t string) (*big.Int, int, bool) {
	mant, expS, hasExp := strings.Cut(strings.ToLower(t), "e")
	exp := 0
	if hasExp {
		e, err := strconv.Atoi(expS)
		if err != nil || e > 1000 || e < -1000 {
			return nil, 0, false
		}
		exp = e
	}
	neg := strings.HasPrefix(mant, "-")
	mant = strings.TrimLeft(mant, "+-")
	intPart, frac, _ := strings.Cut(mant, ".")
	u, _ := new(big.Int).SetString("0"+intPart+frac, 10)
	scale := len(frac) - exp
	if scale < 0 {
		u.Mul(u, pow10(-scale))
		scale = 0
	}
	if neg {
		u.Neg(u)
	}
	return u, scale, true
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
		if f := x.(float32); f != 0 && math.Abs(float64(f)) < 0x1p-126 {
			// JDK 17's Float.toString is not the shortest form for
			// subnormals (1.4E-45, not 1.0E-45).
			return nil, errUnsupportedValue("CAST of a subnormal float to string")
		}
		return formatFloat32(x.(float32)), nil
	case udf.Double:
		if d := x.(float64); d != 0 && math.Abs(d) < 0x1p-1022 {
			// JDK 17's Double.toString prints 4.9E-324, not 5.0E-324.
			return nil, errUnsupportedValue("CAST of a subnormal double to string")
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
