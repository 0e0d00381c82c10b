package engine

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// urlFuncs is Spark's url_funcs group.
var urlFuncs = []funcDef{
	{"url_encode", 1, 1, strFn("s", tString, urlEncodeRow), nil},
	{"url_decode", 1, 1, strFn("s", tString, urlDecodeRow), nil},
	{"try_url_decode", 1, 1, strFn("s", tString, tryURLDecodeRow), nil},
}

// url_encode and url_decode were checked against real Spark 4.1.1 (pyspark
// 4.1.1, JDK 17); both ANSI settings give the same results for them.

// urlEncodeRow is java.net.URLEncoder.encode(s, UTF-8): letters, digits
// and . - * _ stay, space is +, every other UTF-8 byte is %XX.
func urlEncodeRow(v []any) (any, *RowError) {
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
}

func urlDecodeRow(v []any) (any, *RowError) { return urlDecode(v[0].(string)) }

// tryURLDecodeRow is try_url_decode: NULL where url_decode fails with
// CANNOT_DECODE_URL (Spark 4.1.1: UrlDecode with failOnError off).
func tryURLDecodeRow(v []any) (any, *RowError) {
	r, err := urlDecode(v[0].(string))
	if err != nil && err.Condition == "CANNOT_DECODE_URL" {
		return nil, nil
	}
	return r, err
}

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
