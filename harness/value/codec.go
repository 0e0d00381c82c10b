package value

import (
	"encoding/hex"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"
)

// The token codec. One value is one token, or a bracketed sequence of
// tokens for nested values; tokens are separated by single spaces:
//
//	N                    null
//	T F                  boolean
//	i<decimal>           integer (any integral type), e.g. i-128
//	f<8 hex>             float, its IEEE-754 bits
//	d<16 hex>            double, its IEEE-754 bits
//	m<unscaled>@<scale>  decimal, e.g. m-12345@2 is -123.45
//	s<hex UTF-16 units>  string, 4 hex digits per code unit; "s" is ""
//	b<hex>               binary
//	D<days>              date, days since 1970-01-01
//	P<micros>            timestamp, microseconds since the epoch (UTC)
//	[ v ... ]            array
//	{ k v ... }          map
//	( v ... )            struct
//	E<hex UTF-16 class>:<hex UTF-16 message>   an exception, results only
//
// Hex is lowercase when written and read in either case. The Java and
// Python drivers udfx generates speak the same codec (docs/row-codec.md).

// AppendToken appends v's token(s) to dst.
func AppendToken(dst []byte, v Value) []byte {
	switch v.Kind {
	case Null:
		return append(dst, 'N')
	case Bool:
		if v.Bool {
			return append(dst, 'T')
		}
		return append(dst, 'F')
	case Int:
		return strconv.AppendInt(append(dst, 'i'), v.Int, 10)
	case Float:
		return appendHexFixed(append(dst, 'f'), v.Bits, 8)
	case Double:
		return appendHexFixed(append(dst, 'd'), v.Bits, 16)
	case Decimal:
		dst = append(dst, 'm')
		if v.Unscaled == nil {
			dst = append(dst, '0')
		} else {
			dst = v.Unscaled.Append(dst, 10)
		}
		return strconv.AppendInt(append(dst, '@'), int64(v.Scale), 10)
	case String:
		return appendUnits(append(dst, 's'), v.Units)
	case Binary:
		return hex.AppendEncode(append(dst, 'b'), v.Bytes)
	case Date:
		return strconv.AppendInt(append(dst, 'D'), v.Int, 10)
	case Timestamp:
		return strconv.AppendInt(append(dst, 'P'), v.Int, 10)
	case Array, Map, Struct:
		open, close := byte('['), byte(']')
		switch v.Kind {
		case Map:
			open, close = '{', '}'
		case Struct:
			open, close = '(', ')'
		}
		dst = append(dst, open)
		for _, e := range v.Elems {
			dst = AppendToken(append(dst, ' '), e)
		}
		return append(dst, ' ', close)
	case Error:
		dst = appendUnits(append(dst, 'E'), encodeUTF16(v.Class))
		return appendUnits(append(dst, ':'), encodeUTF16(v.Message))
	}
	panic(fmt.Sprintf("value: no token for kind %v", v.Kind))
}

// Token returns v's token text.
func Token(v Value) string { return string(AppendToken(nil, v)) }

const hexDigits = "0123456789abcdef"

func appendHexFixed(dst []byte, x uint64, digits int) []byte {
	for i := digits - 1; i >= 0; i-- {
		dst = append(dst, hexDigits[(x>>(4*uint(i)))&0xf])
	}
	return dst
}

func appendUnits(dst []byte, units []uint16) []byte {
	for _, u := range units {
		dst = appendHexFixed(dst, uint64(u), 4)
	}
	return dst
}

func encodeUTF16(s string) []uint16 { return StringOf(s).Units }

// SyntaxError is a token line that does not follow the codec.
type SyntaxError struct {
	Token string
	Msg   string
}

func (e *SyntaxError) Error() string {
	t := e.Token
	if len(t) > 40 {
		t = t[:40] + "..."
	}
	return fmt.Sprintf("bad value token %q: %s", t, e.Msg)
}

// ParseLine reads every value on a line of tokens.
func ParseLine(line string) ([]Value, error) {
	toks := strings.Fields(line)
	var out []Value
	for len(toks) > 0 {
		v, rest, err := parseValue(toks)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		toks = rest
	}
	return out, nil
}

// ParseToken reads exactly one value (which may span several tokens, as
// nested values do).
func ParseToken(s string) (Value, error) {
	vs, err := ParseLine(s)
	if err != nil {
		return Value{}, err
	}
	if len(vs) != 1 {
		return Value{}, &SyntaxError{Token: s, Msg: fmt.Sprintf("want one value, got %d", len(vs))}
	}
	return vs[0], nil
}

func parseValue(toks []string) (Value, []string, error) {
	t := toks[0]
	rest := toks[1:]
	bad := func(msg string) (Value, []string, error) { return Value{}, nil, &SyntaxError{Token: t, Msg: msg} }
	body := t[1:]
	switch t[0] {
	case 'N', 'T', 'F':
		if body != "" {
			return bad("unexpected text after " + t[:1])
		}
		switch t[0] {
		case 'T':
			return BoolOf(true), rest, nil
		case 'F':
			return BoolOf(false), rest, nil
		}
		return NullValue(), rest, nil
	case 'i', 'D', 'P':
		n, err := strconv.ParseInt(body, 10, 64)
		if err != nil {
			return bad("not a 64-bit integer")
		}
		switch t[0] {
		case 'D':
			return DateOf(n), rest, nil
		case 'P':
			return TimestampOf(n), rest, nil
		}
		return IntOf(n), rest, nil
	case 'f', 'd':
		want := 8
		if t[0] == 'd' {
			want = 16
		}
		if len(body) != want {
			return bad(fmt.Sprintf("want %d hex digits", want))
		}
		bits, err := strconv.ParseUint(body, 16, 64)
		if err != nil {
			return bad("not hex")
		}
		if t[0] == 'f' {
			return FloatBits(uint32(bits)), rest, nil
		}
		return DoubleBits(bits), rest, nil
	case 'm':
		num, scale, ok := strings.Cut(body, "@")
		if !ok {
			return bad("want m<unscaled>@<scale>")
		}
		u, ok := new(big.Int).SetString(num, 10)
		if !ok {
			return bad("unscaled part is not an integer")
		}
		sc, err := strconv.ParseInt(scale, 10, 32)
		if err != nil {
			return bad("scale is not an integer")
		}
		return DecimalOf(u, int32(sc)), rest, nil
	case 's':
		units, err := parseUnits(body)
		if err != nil {
			return bad(err.Error())
		}
		return UnitsOf(units), rest, nil
	case 'b':
		b, err := hex.DecodeString(body)
		if err != nil {
			return bad("not hex")
		}
		return BinaryOf(b), rest, nil
	case 'E':
		cls, msg, ok := strings.Cut(body, ":")
		if !ok {
			return bad("want E<class>:<message>")
		}
		cu, err1 := parseUnits(cls)
		mu, err2 := parseUnits(msg)
		if err1 != nil || err2 != nil {
			return bad("class and message must be UTF-16 hex")
		}
		return ErrorOf(UnitsOf(cu).GoString(), UnitsOf(mu).GoString()), rest, nil
	case '[', '{', '(':
		if body != "" {
			return bad("a bracket is a token of its own")
		}
		close := map[byte]string{'[': "]", '{': "}", '(': ")"}[t[0]]
		var elems []Value
		for {
			if len(rest) == 0 {
				return bad("missing " + close)
			}
			if rest[0] == close {
				rest = rest[1:]
				break
			}
			e, r, err := parseValue(rest)
			if err != nil {
				return Value{}, nil, err
			}
			elems = append(elems, e)
			rest = r
		}
		if elems == nil {
			elems = []Value{}
		}
		switch t[0] {
		case '{':
			if len(elems)%2 != 0 {
				return bad("a map needs key value pairs")
			}
			return MapOf(elems...), rest, nil
		case '(':
			return StructOf(elems...), rest, nil
		}
		return ArrayOf(elems...), rest, nil
	}
	return bad("unknown token kind")
}

func parseUnits(h string) ([]uint16, error) {
	if len(h)%4 != 0 {
		return nil, fmt.Errorf("want 4 hex digits per UTF-16 unit")
	}
	units := make([]uint16, len(h)/4)
	for i := range units {
		u, err := strconv.ParseUint(h[4*i:4*i+4], 16, 16)
		if err != nil {
			return nil, fmt.Errorf("not hex")
		}
		units[i] = uint16(u)
	}
	return units, nil
}

// FormatDate renders days since the epoch as yyyy-MM-dd in the proleptic
// Gregorian calendar, as Spark 3+ does.
func FormatDate(days int64) string {
	return time.Unix(days*86400, 0).UTC().Format("2006-01-02")
}

// FormatTimestamp renders microseconds since the epoch in UTC.
func FormatTimestamp(micros int64) string {
	return time.UnixMicro(micros).UTC().Format("2006-01-02 15:04:05.999999") + "Z"
}
