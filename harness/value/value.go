// Package value is udfx's exact model of one Spark SQL value, the token
// codec values travel in between udfx and the processes that run original
// UDFs (JVM, CPython) or produce reference data (Spark), and the
// comparison that decides whether an original and a rewrite agree.
//
// Exactness is the point: doubles keep their bit patterns (NaN payloads,
// -0.0), decimals their unscaled digits and scale, strings their UTF-16
// code units (a JVM or Python string may hold a lone surrogate, which
// UTF-8 cannot).
package value

import (
	"fmt"
	"math"
	"math/big"
	"strings"
	"unicode/utf16"
)

// Kind says which field of a Value holds it.
type Kind uint8

const (
	Null Kind = iota
	Bool
	Int // tinyint, smallint, int, bigint
	Float
	Double
	Decimal
	String
	Binary
	Date      // days since 1970-01-01
	Timestamp // microseconds since the epoch, UTC
	Array
	Map
	Struct
	// Error is an exception a UDF threw (or an ANSI error a query raised)
	// for this row; it stands in place of a value.
	Error
)

var kindNames = [...]string{"null", "boolean", "integer", "float", "double", "decimal", "string", "binary", "date", "timestamp", "array", "map", "struct", "error"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", k)
}

// Value is one value. The zero Value is null.
type Value struct {
	Kind Kind
	Bool bool
	// Int holds integers, dates (days) and timestamps (microseconds).
	Int int64
	// Bits holds a double's bits, or a float's in the low 32 bits.
	Bits uint64
	// Unscaled and Scale hold a decimal: Unscaled × 10^-Scale.
	Unscaled *big.Int
	Scale    int32
	// Units holds a string as UTF-16 code units, exactly as the JVM or
	// Python held it.
	Units []uint16
	Bytes []byte
	// Elems holds array elements, struct fields, or map keys and values
	// interleaved (k0, v0, k1, v1, ...).
	Elems []Value
	// Class and Message describe an Error: the exception class (Java
	// class name, Python type name, or Spark's exception class) and its
	// message. Condition is Spark's error condition where there is one
	// (DIVIDE_BY_ZERO, CAST_INVALID_INPUT, ...).
	Class, Message, Condition string
}

// Constructors.

func NullValue() Value                { return Value{} }
func BoolOf(b bool) Value             { return Value{Kind: Bool, Bool: b} }
func IntOf(i int64) Value             { return Value{Kind: Int, Int: i} }
func DoubleOf(f float64) Value        { return Value{Kind: Double, Bits: math.Float64bits(f)} }
func DoubleBits(b uint64) Value       { return Value{Kind: Double, Bits: b} }
func FloatOf(f float32) Value         { return Value{Kind: Float, Bits: uint64(math.Float32bits(f))} }
func FloatBits(b uint32) Value        { return Value{Kind: Float, Bits: uint64(b)} }
func DateOf(days int64) Value         { return Value{Kind: Date, Int: days} }
func TimestampOf(micros int64) Value  { return Value{Kind: Timestamp, Int: micros} }
func BinaryOf(b []byte) Value         { return Value{Kind: Binary, Bytes: b} }
func ArrayOf(elems ...Value) Value    { return Value{Kind: Array, Elems: elems} }
func StructOf(fields ...Value) Value  { return Value{Kind: Struct, Elems: fields} }
func UnitsOf(units []uint16) Value    { return Value{Kind: String, Units: units} }
func ErrorOf(class, msg string) Value { return Value{Kind: Error, Class: class, Message: msg} }
func DecimalOf(unscaled *big.Int, scale int32) Value {
	return Value{Kind: Decimal, Unscaled: unscaled, Scale: scale}
}

// StringOf makes a string value from Go text (valid UTF-8).
func StringOf(s string) Value { return Value{Kind: String, Units: utf16.Encode([]rune(s))} }

// MapOf makes a map from interleaved keys and values.
func MapOf(kv ...Value) Value { return Value{Kind: Map, Elems: kv} }

// IsNull reports whether v is null.
func (v Value) IsNull() bool { return v.Kind == Null }

// Float64 returns a double's value.
func (v Value) Float64() float64 { return math.Float64frombits(v.Bits) }

// Float32 returns a float's value.
func (v Value) Float32() float32 { return math.Float32frombits(uint32(v.Bits)) }

// GoString returns a string's text as Go UTF-8; a lone surrogate becomes
// U+FFFD. Use Units for the exact value.
func (v Value) GoString() string { return string(utf16.Decode(v.Units)) }

// HasLoneSurrogate reports whether a string holds a UTF-16 surrogate
// without its partner: text that UTF-8 (and so Spark) cannot store as is.
func (v Value) HasLoneSurrogate() bool {
	u := v.Units
	for i := 0; i < len(u); i++ {
		switch {
		case u[i] >= 0xD800 && u[i] < 0xDC00:
			if i+1 >= len(u) || u[i+1] < 0xDC00 || u[i+1] >= 0xE000 {
				return true
			}
			i++
		case u[i] >= 0xDC00 && u[i] < 0xE000:
			return true
		}
	}
	return false
}

// String renders v for people: counterexamples and reports. It is exact
// enough to tell two unequal values apart (NaN payloads and -0.0 show).
func (v Value) String() string {
	var b strings.Builder
	v.format(&b)
	return b.String()
}

func (v Value) format(b *strings.Builder) {
	switch v.Kind {
	case Null:
		b.WriteString("NULL")
	case Bool:
		fmt.Fprint(b, v.Bool)
	case Int:
		fmt.Fprint(b, v.Int)
	case Double:
		b.WriteString(formatFloat(v.Float64(), v.Bits, 64))
	case Float:
		b.WriteString(formatFloat(float64(v.Float32()), v.Bits, 32) + "f")
	case Decimal:
		b.WriteString(DecimalString(v.Unscaled, v.Scale))
	case String:
		b.WriteString(quoteUnits(v.Units))
	case Binary:
		fmt.Fprintf(b, "X'%X'", v.Bytes)
	case Date:
		b.WriteString(FormatDate(v.Int))
	case Timestamp:
		b.WriteString(FormatTimestamp(v.Int))
	case Array, Struct:
		open, close := "[", "]"
		if v.Kind == Struct {
			open, close = "{", "}"
		}
		b.WriteString(open)
		for i, e := range v.Elems {
			if i > 0 {
				b.WriteString(", ")
			}
			e.format(b)
		}
		b.WriteString(close)
	case Map:
		b.WriteString("map{")
		for i := 0; i+1 < len(v.Elems); i += 2 {
			if i > 0 {
				b.WriteString(", ")
			}
			v.Elems[i].format(b)
			b.WriteString(" -> ")
			v.Elems[i+1].format(b)
		}
		b.WriteString("}")
	case Error:
		b.WriteString("throws " + v.Class)
		if v.Condition != "" {
			b.WriteString(" [" + v.Condition + "]")
		}
		if v.Message != "" {
			b.WriteString(": " + v.Message)
		}
	}
}

func formatFloat(f float64, bits uint64, size int) string {
	switch {
	case math.IsNaN(f):
		canonical := uint64(0x7ff8000000000000)
		if size == 32 {
			canonical = 0x7fc00000
		}
		if bits != canonical {
			if size == 32 {
				return fmt.Sprintf("NaN(0x%08x)", bits)
			}
			return fmt.Sprintf("NaN(0x%016x)", bits)
		}
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	s := fmt.Sprintf("%v", f)
	if size == 32 {
		s = fmt.Sprintf("%v", float32(f))
	}
	if !strings.ContainsAny(s, ".eEn") {
		s += ".0"
	}
	return s
}

func quoteUnits(u []uint16) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(u); i++ {
		c := u[i]
		if c >= 0xD800 && c < 0xDC00 && i+1 < len(u) && u[i+1] >= 0xDC00 && u[i+1] < 0xE000 {
			b.WriteRune(utf16.DecodeRune(rune(c), rune(u[i+1])))
			i++
			continue
		}
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(byte(c))
		case c >= 0xD800 && c < 0xE000:
			fmt.Fprintf(&b, "\\u%04X", c) // a lone surrogate
		case c < 0x20 || c == 0x7f:
			fmt.Fprintf(&b, "\\u%04X", c)
		default:
			b.WriteRune(rune(c))
		}
	}
	b.WriteByte('"')
	return b.String()
}

// DecimalString renders unscaled × 10^-scale in plain notation.
func DecimalString(unscaled *big.Int, scale int32) string {
	if unscaled == nil {
		return "0"
	}
	s := new(big.Int).Abs(unscaled).String()
	neg := unscaled.Sign() < 0
	if scale > 1000 || scale < -1000 {
		// A JVM BigDecimal may carry any int scale; plain notation would
		// be absurdly long.
		if neg {
			s = "-" + s
		}
		return fmt.Sprintf("%sE%+d", s, -int64(scale))
	}
	if scale > 0 {
		for int32(len(s)) <= scale {
			s = "0" + s
		}
		s = s[:int32(len(s))-scale] + "." + s[int32(len(s))-scale:]
	} else if scale < 0 {
		s += strings.Repeat("0", int(-scale))
	}
	if neg {
		s = "-" + s
	}
	return s
}
