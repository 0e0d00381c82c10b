package engine

import (
	"math"
	"math/big"
	"strings"

	"github.com/udfx/udfx/harness/udf"
)

// format_number's model of java.text.DecimalFormat (buildFormatNumber,
// funcs_string.go).

// numberFormat is the part of java.text.DecimalFormat the engine models:
// grouping size (0: none), minimum integer digits, fraction digit bounds;
// rounding is HALF_EVEN, as DecimalFormat's default.
type numberFormat struct {
	group, minInt, minFrac, maxFrac int
}

// parseNumberPattern reads a DecimalFormat pattern made only of # 0 , and
// '.', as applyLocalizedPattern does; anything else (prefixes, suffixes,
// %, exponents, negative subpatterns, malformed patterns) is refused.
// The empty pattern is Spark's default "#,###,###,###,###,###,##0".
func parseNumberPattern(p string) (numberFormat, bool) {
	if p == "" {
		return numberFormat{group: 3, minInt: 1}, true
	}
	intPart, frac, hasDot := strings.Cut(p, ".")
	var nf numberFormat
	sawZero, lastComma, digits := false, -1, 0
	for _, c := range intPart {
		switch c {
		case '#':
			if sawZero {
				return nf, false
			}
			digits++
		case '0':
			sawZero = true
			nf.minInt++
			digits++
		case ',':
			lastComma = digits
		default:
			return nf, false
		}
	}
	if lastComma >= 0 {
		nf.group = digits - lastComma
		if nf.group == 0 {
			return nf, false
		}
	}
	sawHash := false
	for _, c := range frac {
		switch c {
		case '0':
			if sawHash {
				return nf, false
			}
			nf.minFrac++
			nf.maxFrac++
		case '#':
			sawHash = true
			nf.maxFrac++
		default:
			return nf, false
		}
	}
	if digits == 0 {
		// ".##" and the like: java.text moves digits around; not modelled.
		return nf, false
	}
	if hasDot && nf.minInt == 0 && nf.minFrac == 0 {
		// DecimalFormat.applyPattern turns "#.#" into "0.#" (checked:
		// format_number(0.5D, '#.#') is "0.5").
		nf.minInt = 1
	}
	return nf, true
}

// formatNumberRefusal refuses a float or double whose formatted digits
// depend on the JDK's FloatingDecimal (formatNumberPortable); a float is
// formatted as the double it widens to, as Spark's DecimalFormat.format
// call does (format_number(9.076858E17F, 3) is
// "907,685,812,672,397,310.000" on JDK 17).
func formatNumberRefusal(x any, nf numberFormat) *RowError {
	var d float64
	switch v := x.(type) {
	case float32:
		d = float64(v)
	case float64:
		d = v
	default:
		return nil
	}
	if math.IsNaN(d) || math.IsInf(d, 0) || formatNumberPortable(d, nf.maxFrac) {
		return nil
	}
	return errUnsupportedValue("format_number of a double that JDK 17 and JDK 19+ may format differently")
}

// formatNumber formats a non-null numeric value as DecimalFormat does.
// Doubles (and floats, widened to double as Spark's format(Float) does)
// print their shortest decimal digits when those fit maxFrac, and are
// otherwise rounded HALF_EVEN on their exact binary value (JDK 8+):
// format_number(0.015D, 2) is 0.01, (0.025D, 2) 0.03, (0.125D, 2) 0.12.
// A negative value that rounds to zero keeps its sign ("-0.00"), as does
// -0.0; NaN is "NaN" and infinities "∞"/"-∞".
func formatNumber(x any, t *udf.Type, nf numberFormat) string {
	var u *big.Int // absolute unscaled value
	scale := 0
	neg := false
	switch v := x.(type) {
	case int64:
		neg = v < 0
		u = new(big.Int).Abs(big.NewInt(v))
	case *big.Int:
		neg = v.Sign() < 0
		u = new(big.Int).Abs(v)
		scale = t.Scale
		if scale > nf.maxFrac {
			u = divHalfEven(u, pow10(scale-nf.maxFrac))
			scale = nf.maxFrac
		}
	case float32, float64:
		var d float64
		if f, ok := v.(float32); ok {
			d = float64(f)
		} else {
			d = v.(float64)
		}
		switch {
		case math.IsNaN(d):
			return "NaN"
		case math.IsInf(d, 1):
			return "∞"
		case math.IsInf(d, -1):
			return "-∞"
		}
		neg = math.Signbit(d)
		d = math.Abs(d)
		u, scale = decimalFromFloat(d)
		if scale > nf.maxFrac {
			r := new(big.Rat).SetFloat64(d)
			r.Mul(r, new(big.Rat).SetInt(pow10(nf.maxFrac)))
			u = divHalfEven(r.Num(), r.Denom())
			scale = nf.maxFrac
		}
	}
	digits := u.String()
	intDigits, fracDigits := digits, ""
	if scale > 0 {
		if len(digits) <= scale {
			digits = strings.Repeat("0", scale-len(digits)+1) + digits
		}
		intDigits, fracDigits = digits[:len(digits)-scale], digits[len(digits)-scale:]
	}
	intDigits = strings.TrimLeft(intDigits, "0")
	for len(intDigits) < nf.minInt {
		intDigits = "0" + intDigits
	}
	for len(fracDigits) > nf.minFrac && strings.HasSuffix(fracDigits, "0") {
		fracDigits = fracDigits[:len(fracDigits)-1]
	}
	for len(fracDigits) < nf.minFrac {
		fracDigits += "0"
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	if nf.group > 0 && len(intDigits) > nf.group {
		first := len(intDigits) % nf.group
		if first > 0 {
			b.WriteString(intDigits[:first])
		}
		for i := first; i < len(intDigits); i += nf.group {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(intDigits[i : i+nf.group])
		}
	} else {
		b.WriteString(intDigits)
	}
	if fracDigits != "" {
		b.WriteByte('.')
		b.WriteString(fracDigits)
	} else if intDigits == "" {
		b.WriteByte('0')
	}
	return b.String()
}
