package engine

import (
	"math"
	"math/big"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/udfx/udfx/harness/udf"
)

// Functions checked against real Spark 4.1.1 (pyspark 4.1.1, JDK 17):
// chr, url_encode, url_decode, format_number. Both ANSI settings give the
// same results for all of them.

func registerText() {
	// chr(n): "" for n < 0, else the character (n & 0xFF); the argument is
	// implicitly cast to bigint (chr(1.9D) is chr(1), chr('65') is 'A').
	reg("chr char", 1, 1, func(a *analyzer, name string, args []node) (node, error) {
		x, err := a.numericArg(name, args[0], tLong)
		if err != nil {
			return nil, err
		}
		return a.fn(name, tString, []node{x}, strictRow(tString, func(v []any) (any, *RowError) {
			n := v[0].(int64)
			if n < 0 {
				return "", nil
			}
			return string(rune(n & 0xFF)), nil
		})), nil
	})
	// url_encode is java.net.URLEncoder.encode(s, UTF-8): letters, digits
	// and . - * _ stay, space is +, every other UTF-8 byte is %XX.
	strFn("url_encode", 1, 1, "s", tString, func(v []any) (any, *RowError) {
		s := v[0].(string)
		if !utf8.ValidString(s) {
			return nil, errUnsupportedValue("url_encode() of a string that is not valid UTF-8")
		}
		var b strings.Builder
		const hex = "0123456789ABCDEF"
		for i := 0; i < len(s); i++ {
			c := s[i]
			switch {
			case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '.', c == '-', c == '*', c == '_':
				b.WriteByte(c)
			case c == ' ':
				b.WriteByte('+')
			default:
				b.WriteByte('%')
				b.WriteByte(hex[c>>4])
				b.WriteByte(hex[c&15])
			}
		}
		return b.String(), nil
	})
	strFn("url_decode", 1, 1, "s", tString, func(v []any) (any, *RowError) { return urlDecode(v[0].(string)) })
	reg("format_number", 2, 2, func(a *analyzer, name string, args []node) (node, error) {
		x, d := args[0], args[1]
		if !x.typ().IsNumeric() && !isVoid(x.typ()) {
			return nil, mismatch(name, x, "numeric")
		}
		if isVoid(x.typ()) {
			x = &litNode{t: tInt}
		}
		xt := x.typ()
		switch d.typ().Kind {
		case udf.Byte, udf.Short, udf.Int, "void":
			d, _ = a.cast(d, tInt, false, false)
			return a.fn(name, tString, []node{x, d}, strictRow(tString, func(v []any) (any, *RowError) {
				n := v[1].(int64)
				if n < 0 {
					return nil, nil
				}
				if n > 340 {
					return nil, errUnsupportedValue("format_number() with more than 340 decimal places")
				}
				nf := numberFormat{group: 3, minInt: 1, minFrac: int(n), maxFrac: int(n)}
				if e := formatNumberRefusal(v[0], nf); e != nil {
					return nil, e
				}
				return formatNumber(v[0], xt, nf), nil
			})), nil
		case udf.String:
			l, ok := d.(*litNode)
			if !ok {
				return nil, &UnsupportedFunctionError{Name: "format_number with a non-constant pattern"}
			}
			if l.v == nil {
				return &litNode{t: tString}, nil
			}
			nf, ok := parseNumberPattern(l.v.(string))
			if !ok {
				return nil, &UnsupportedFunctionError{Name: "format_number pattern " + quoteSQL(l.v.(string)) + " (only #, 0, ',' and '.' are supported)"}
			}
			return a.fn(name, tString, []node{x}, strictRow(tString, func(v []any) (any, *RowError) {
				if e := formatNumberRefusal(v[0], nf); e != nil {
					return nil, e
				}
				return formatNumber(v[0], xt, nf), nil
			})), nil
		}
		// Checked: a BIGINT second argument is DATATYPE_MISMATCH in Spark 4.1.1.
		return nil, mismatch(name, d, "INT or STRING")
	})
}

func quoteSQL(s string) string { return "'" + strings.ReplaceAll(s, "'", "\\'") + "'" }

func errDecodeURL(s string) *RowError {
	return rowErr(classIllegalArg, "CANNOT_DECODE_URL", "The provided URL cannot be decoded: %s. Please ensure that the URL is properly formatted and try again.", s)
}

// urlDecode is java.net.URLDecoder.decode(s, UTF-8) as Spark calls it:
// + is a space; each run of %XX escapes is collected into bytes and decoded
// as Java's String(bytes, UTF_8) does (see javaDecodeUTF8). A '%' with
// fewer than two characters after it, or whose two characters are not a
// number in Integer.parseInt(.., 16) (which accepts a leading '+'; '-' only
// for "-0"), is CANNOT_DECODE_URL. Checked in Spark 4.1.1: '%zz' and
// 'abc%2' raise, '%+1' is "\x01", '%-1' raises.
func urlDecode(s string) (any, *RowError) {
	if !utf8.ValidString(s) {
		return nil, errUnsupportedValue("url_decode() of a string that is not valid UTF-8")
	}
	if !strings.ContainsAny(s, "+%") {
		return s, nil
	}
	u := utf16.Encode([]rune(s))
	out := make([]uint16, 0, len(u))
	for i := 0; i < len(u); {
		switch u[i] {
		case '+':
			out = append(out, ' ')
			i++
		case '%':
			var bs []byte
			for i+2 < len(u) && u[i] == '%' {
				b, ok := parseHexByte(u[i+1], u[i+2])
				if !ok {
					return nil, errDecodeURL(s)
				}
				bs = append(bs, b)
				i += 3
			}
			if i < len(u) && u[i] == '%' {
				return nil, errDecodeURL(s) // incomplete trailing escape
			}
			out = append(out, utf16.Encode([]rune(javaDecodeUTF8(bs)))...)
		default:
			out = append(out, u[i])
			i++
		}
	}
	return string(utf16.Decode(out)), nil
}

// javaHexDigit is Character.digit(c, 16) for a UTF-16 unit: ASCII and
// fullwidth Latin a-f/A-F, and every Unicode decimal digit of the BMP
// (javaDecimalDigit), so url_decode('%٠١') is "\x01" as in Spark 4.1.1.
// A surrogate is never a digit.
func javaHexDigit(c uint16) int {
	switch {
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	case 0xFF41 <= c && c <= 0xFF46:
		return int(c-0xFF41) + 10
	case 0xFF21 <= c && c <= 0xFF26:
		return int(c-0xFF21) + 10
	case c >= 0xD800 && c <= 0xDFFF:
		return -1
	}
	return javaDecimalDigit(rune(c))
}

// parseHexByte is Integer.parseInt of two UTF-16 units in base 16,
// rejecting negative values as URLDecoder does: a leading '+' is a sign,
// '-' passes only for "-0".
func parseHexByte(h, l uint16) (byte, bool) {
	lo := javaHexDigit(l)
	if lo < 0 {
		return 0, false
	}
	switch h {
	case '+':
		return byte(lo), true
	case '-':
		return 0, lo == 0
	}
	hi := javaHexDigit(h)
	if hi < 0 {
		return 0, false
	}
	return byte(hi<<4 | lo), true
}

// javaDecodeUTF8 is JDK 17's String(bytes, UTF_8) (String.decodeUTF8_UTF16
// with replacement): how many U+FFFD a malformed sequence becomes follows
// Java, not Go (checked: %C0%80 is two, %ED%A0%80 one, %F4%90%80%80 four,
// a truncated %E2%82 one).
func javaDecodeUTF8(src []byte) string {
	const repl = '\uFFFD'
	var out []rune
	cont := func(b byte) bool { return b&0xc0 == 0x80 }
	sp, sl := 0, len(src)
	for sp < sl {
		b1 := src[sp]
		sp++
		switch {
		case b1 < 0x80:
			out = append(out, rune(b1))
		case b1>>5 == 0x6 && b1&0x1e != 0: // C2..DF
			if sp < sl {
				b2 := src[sp]
				sp++
				if !cont(b2) {
					out = append(out, repl)
					sp--
				} else {
					out = append(out, rune(b1&0x1f)<<6|rune(b2&0x3f))
				}
				continue
			}
			out = append(out, repl)
			return string(out)
		case b1>>4 == 0xe: // E0..EF
			if sp+1 < sl {
				b2, b3 := src[sp], src[sp+1]
				sp += 2
				if b1 == 0xe0 && b2&0xe0 == 0x80 || !cont(b2) || !cont(b3) {
					out = append(out, repl)
					sp -= 3
					// malformed3: skip 1 or 2 bytes
					if b1 == 0xe0 && b2&0xe0 == 0x80 || !cont(b2) {
						sp++
					} else {
						sp += 2
					}
				} else {
					c := rune(b1&0x0f)<<12 | rune(b2&0x3f)<<6 | rune(b3&0x3f)
					if c >= 0xd800 && c <= 0xdfff {
						out = append(out, repl)
					} else {
						out = append(out, c)
					}
				}
				continue
			}
			if sp < sl && (b1 == 0xe0 && src[sp]&0xe0 == 0x80 || !cont(src[sp])) {
				out = append(out, repl)
				continue
			}
			out = append(out, repl)
			return string(out)
		case b1>>3 == 0x1e: // F0..F7
			if sp+2 < sl {
				b2, b3, b4 := src[sp], src[sp+1], src[sp+2]
				sp += 3
				uc := rune(b1&0x07)<<18 | rune(b2&0x3f)<<12 | rune(b3&0x3f)<<6 | rune(b4&0x3f)
				if !cont(b2) || !cont(b3) || !cont(b4) || uc < 0x10000 || uc > 0x10ffff {
					out = append(out, repl)
					sp -= 4
					sp++ // malformed4
					if !(b1 > 0xf4 || b1 == 0xf0 && (b2 < 0x90 || b2 > 0xbf) || b1 == 0xf4 && b2&0xf0 != 0x80 || !cont(b2)) {
						sp++
						if cont(src[sp]) {
							sp++
						}
					}
				} else {
					out = append(out, uc)
				}
				continue
			}
			if b1 > 0xf4 || sp < sl && (b1 == 0xf0 && (src[sp] < 0x90 || src[sp] > 0xbf) || b1 == 0xf4 && src[sp]&0xf0 != 0x80 || !cont(src[sp])) {
				out = append(out, repl)
				continue
			}
			sp++
			out = append(out, repl)
			if sp < sl && !cont(src[sp]) {
				continue
			}
			return string(out)
		default:
			out = append(out, repl)
		}
	}
	return string(out)
}

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
