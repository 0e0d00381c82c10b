package inputs

import (
	"math"
	"math/big"
	"strings"
	"unicode/utf8"

	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/value"
)

// Canonical NaNs: Java's Double.NaN / Float.NaN (doubleToRawLongBits
// prints 7ff8000000000000 and floatToRawIntBits 7fc00000 on OpenJDK 17)
// and CPython's float('nan'). Go's math.NaN() is 0x7ff8000000000001, a
// different pattern, so NaNs here are always built from bits.
const (
	canonicalNaN64 uint64 = 0x7ff8000000000000
	canonicalNaN32 uint32 = 0x7fc00000
)

// Spark's DateType and TimestampType range (proleptic Gregorian):
// 0001-01-01 .. 9999-12-31, checked with unix_date / unix_micros in
// testdata/spark_facts.txt.
const (
	minDate       int64 = -719162             // 0001-01-01
	maxDate       int64 = 2932896             // 9999-12-31
	minTimestamp  int64 = -62135596800000000  // 0001-01-01T00:00:00Z
	maxTimestamp  int64 = 253402300799999999  // 9999-12-31T23:59:59.999999Z
	microsPerDay  int64 = 24 * 3600 * 1000000 // one day in microseconds
	longArrayLen        = 1000                // elements of the "long" array special
	longStringLen       = 10000               // code points of the "very long" string specials
)

// Specials returns the special values of t, non-null, in a fixed order:
// the values every run feeds a UDF of that parameter type whatever the
// seed. Null is not among them; Generate adds nulls of its own. Map keys
// follow Spark's rules (no null keys, no duplicates, -0.0 and NaNs
// normalised), so a map holds each key special that Spark could store.
// An unknown type has no specials.
func Specials(t *udf.Type) []value.Value {
	if t == nil {
		return nil
	}
	switch t.Kind {
	case udf.Boolean:
		return []value.Value{value.BoolOf(true), value.BoolOf(false)}
	case udf.Byte:
		return intSpecials(8)
	case udf.Short:
		return intSpecials(16)
	case udf.Int:
		return intSpecials(32)
	case udf.Long:
		return intSpecials(64)
	case udf.Float:
		return floatSpecials()
	case udf.Double:
		return doubleSpecials()
	case udf.Decimal:
		return decimalSpecials(t.Precision, t.Scale)
	case udf.String:
		return stringSpecials()
	case udf.Binary:
		return binarySpecials()
	case udf.Date:
		return dateSpecials()
	case udf.Timestamp:
		return timestampSpecials()
	case udf.Array:
		return arraySpecials(t)
	case udf.Map:
		return mapSpecials(t)
	case udf.Struct:
		return structSpecials(t)
	}
	return nil
}

// Representative returns an ordinary value of t (1, 1.0, "a", ...): what
// the other parameters hold while one parameter runs through its
// specials, so that a failure points at the special value.
func Representative(t *udf.Type) value.Value {
	if t == nil {
		return value.NullValue()
	}
	switch t.Kind {
	case udf.Boolean:
		return value.BoolOf(true)
	case udf.Byte, udf.Short, udf.Int, udf.Long:
		return value.IntOf(1)
	case udf.Float:
		return value.FloatOf(1)
	case udf.Double:
		return value.DoubleOf(1)
	case udf.Decimal:
		if t.Precision > t.Scale { // 1 fits: 1 × 10^s unscaled
			return value.DecimalOf(pow10(t.Scale), int32(t.Scale))
		}
		return value.DecimalOf(big.NewInt(1), int32(t.Scale)) // decimal(s,s): one ulp
	case udf.String:
		return value.StringOf("a")
	case udf.Binary:
		return value.BinaryOf([]byte("a"))
	case udf.Date:
		return value.DateOf(10957) // 2000-01-01
	case udf.Timestamp:
		return value.TimestampOf(946684800_000000) // 2000-01-01T00:00:00Z
	case udf.Array:
		return value.ArrayOf(Representative(t.Elem))
	case udf.Map:
		return value.MapOf(Representative(t.Key), Representative(t.Value))
	case udf.Struct:
		f := make([]value.Value, len(t.Fields))
		for i, sf := range t.Fields {
			f[i] = Representative(sf.Type)
		}
		return value.StructOf(f...)
	}
	return value.NullValue()
}

// Core returns the few values of t that enter the cross product of a
// multi-parameter UDF: null first, then the values most likely to
// interact across parameters (zero, signed zero, NaN, extremes, empty).
func Core(t *udf.Type) []value.Value {
	out := []value.Value{value.NullValue()}
	if t == nil {
		return out
	}
	switch t.Kind {
	case udf.Boolean:
		out = append(out, value.BoolOf(true), value.BoolOf(false))
	case udf.Byte, udf.Short, udf.Int, udf.Long:
		bits := map[udf.TypeKind]uint{udf.Byte: 8, udf.Short: 16, udf.Int: 32, udf.Long: 64}[t.Kind]
		lo, hi := intRange(bits)
		out = append(out, value.IntOf(0), value.IntOf(-1), value.IntOf(lo), value.IntOf(hi))
	case udf.Float:
		out = append(out, value.FloatOf(0), value.FloatBits(0x80000000), value.FloatBits(canonicalNaN32),
			value.FloatOf(float32(math.Inf(1))), value.FloatOf(float32(math.Inf(-1))), value.FloatOf(-1))
	case udf.Double:
		out = append(out, value.DoubleOf(0), value.DoubleBits(1<<63), value.DoubleBits(canonicalNaN64),
			value.DoubleOf(math.Inf(1)), value.DoubleOf(math.Inf(-1)), value.DoubleOf(-1))
	case udf.Decimal:
		m := new(big.Int).Sub(pow10(t.Precision), big.NewInt(1))
		out = append(out, value.DecimalOf(big.NewInt(0), int32(t.Scale)),
			value.DecimalOf(m, int32(t.Scale)), value.DecimalOf(new(big.Int).Neg(m), int32(t.Scale)))
	case udf.String:
		out = append(out, value.StringOf(""), value.StringOf(" "))
	case udf.Binary:
		out = append(out, value.BinaryOf([]byte{}))
	case udf.Date:
		out = append(out, value.DateOf(0), value.DateOf(minDate), value.DateOf(maxDate))
	case udf.Timestamp:
		out = append(out, value.TimestampOf(0), value.TimestampOf(minTimestamp), value.TimestampOf(maxTimestamp))
	case udf.Array:
		out = append(out, value.ArrayOf(), value.ArrayOf(value.NullValue()))
	case udf.Map:
		out = append(out, value.MapOf())
	case udf.Struct:
		f := make([]value.Value, len(t.Fields))
		out = append(out, value.StructOf(f...)) // every field null
	}
	return out
}

func intRange(bits uint) (lo, hi int64) {
	hi = int64(uint64(1)<<(bits-1) - 1)
	return -hi - 1, hi
}

// intSpecials: MIN, MIN+1, -1, 0, 1, MAX-1, MAX, then the bounds of the
// narrower integral types just inside and outside them (casts and
// overflow in rewrites), and for bigint the edge of exact doubles (2^53).
func intSpecials(bits uint) []value.Value {
	lo, hi := intRange(bits)
	vals := []int64{lo, lo + 1, -1, 0, 1, hi - 1, hi, 2, -2, 10, 100, -100}
	for _, nb := range []uint{8, 16, 32} {
		if nb >= bits {
			break
		}
		nlo, nhi := intRange(nb)
		vals = append(vals, nlo-1, nlo, nhi, nhi+1)
	}
	if bits == 64 {
		vals = append(vals, 1<<53, 1<<53+1, -(1<<53 + 1), 1<<31*1000) // 2^53+1 is no double
	}
	out := make([]value.Value, 0, len(vals))
	seen := map[int64]bool{}
	for _, v := range vals {
		if v < lo || v > hi || seen[v] {
			continue
		}
		seen[v] = true
		out = append(out, value.IntOf(v))
	}
	return out
}

// doubleBitsSpecials are the double specials as bit patterns: signed
// zeros, infinities, NaNs with every kind of payload, the extremes of
// the normal and subnormal ranges, and ordinary values whose rounding,
// printing or conversion differs between Java, Python and Spark.
var doubleBitsSpecials = []uint64{
	0x0000000000000000, // +0.0
	0x8000000000000000, // -0.0
	0x7ff0000000000000, // +Inf
	0xfff0000000000000, // -Inf
	canonicalNaN64,     // NaN, Java's and Python's
	0xfff8000000000000, // NaN with the sign bit set (x86's default NaN)
	0x7ff8000000000001, // quiet NaN with a payload (Go's math.NaN())
	0xfff8000000000001, // quiet NaN, sign and payload
	0x7ff0000000000001, // signalling-looking NaN
	0xfff0000000000001, // signalling-looking NaN with the sign bit
	0x7ff4000000000000, // signalling-looking NaN, high payload bit
	0x7fffffffffffffff, // NaN, all payload bits
	0xffffffffffffffff, // NaN, every bit set
	0x7fefffffffffffff, // MAX finite
	0xffefffffffffffff, // -MAX
	0x0010000000000000, // MIN normal
	0x8010000000000000, // -MIN normal
	0x000fffffffffffff, // largest subnormal
	0x0000000000000001, // smallest subnormal
	0x8000000000000001, // -smallest subnormal
}

var doubleValueSpecials = []float64{
	1, -1, 0.1, -0.1, 0.5, -0.5, 1.5, 2.5, -2.5, 3.5, -3.5, 0.25, 0.125,
	2.675, 1.005, 4.35, 1.15, 0.1 + 0.2, 1.0 / 3, 2.0 / 3, // binary-vs-decimal rounding
	0.49999999999999994,                    // largest double below 0.5
	1.0000000000000002, 0.9999999999999999, // neighbours of 1
	3, 100, -100, 1e7, 1e-3, 1e-4, // Java's Double.toString switches notation at 1e7 and 1e-3
	1e10, 1e-5, 1e15, 1e16, 1e21, 1e22, 1e-7, 123456789.123456789, -123.456,
	math.Pi, math.E, 9007199254740992, // 2^53
	2147483647, 2147483648, -2147483648, -2147483649, 2147483647.5, // int edges
	9223372036854775807, -9223372036854775808, 1.8446744073709552e19, // long edges
	-40, 37.77777777777778, 98.6, 451, // temperature-like
}

func doubleSpecials() []value.Value {
	out := make([]value.Value, 0, len(doubleBitsSpecials)+len(doubleValueSpecials))
	seen := map[uint64]bool{}
	add := func(b uint64) {
		if !seen[b] {
			seen[b] = true
			out = append(out, value.DoubleBits(b))
		}
	}
	for _, b := range doubleBitsSpecials {
		add(b)
	}
	for _, f := range doubleValueSpecials {
		add(math.Float64bits(f))
	}
	return out
}

var floatBitsSpecials = []uint32{
	0x00000000, // +0.0
	0x80000000, // -0.0
	0x7f800000, // +Inf
	0xff800000, // -Inf
	canonicalNaN32,
	0xffc00000, // NaN with the sign bit
	0x7fc00001, // quiet NaN with a payload
	0xffc00001, // quiet NaN, sign and payload
	0x7f800001, // signalling-looking NaN
	0xff800001, // signalling-looking NaN with the sign bit
	0x7fa00000, // signalling-looking NaN, high payload bit
	0x7fffffff, // NaN, all payload bits
	0xffffffff, // NaN, every bit set
	0x7f7fffff, // MAX finite
	0xff7fffff, // -MAX
	0x00800000, // MIN normal
	0x80800000, // -MIN normal
	0x007fffff, // largest subnormal
	0x00000001, // smallest subnormal
	0x80000001, // -smallest subnormal
}

var floatValueSpecials = []float32{
	1, -1, 0.1, -0.1, 0.5, -0.5, 1.5, 2.5, -2.5, 3.5, -3.5, 0.25,
	2.675, 1.005, 4.35, 1.15, 1.0 / 3,
	1.0000001, 0.99999994, // neighbours of 1
	3, 100, -100, 1e7, 1e-3, 1e-4, 1e10, 1e-5, 1e-7, 16777216, 16777217, // 2^24 (+1 rounds)
	2147483647, -2147483648, 9223372036854775807, math.Pi, -40, 98.6,
}

func floatSpecials() []value.Value {
	out := make([]value.Value, 0, len(floatBitsSpecials)+len(floatValueSpecials))
	seen := map[uint32]bool{}
	add := func(b uint32) {
		if !seen[b] {
			seen[b] = true
			out = append(out, value.FloatBits(b))
		}
	}
	for _, b := range floatBitsSpecials {
		add(b)
	}
	for _, f := range floatValueSpecials {
		add(math.Float32bits(f))
	}
	return out
}

func pow10(n int) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil) }

// decimalSpecials for decimal(p,s), as unscaled integers at scale s:
// zero; ±max (p nines); ±1 ulp; ±1; values with exactly s fractional
// digits and with all p digits; ties for rounding (a final digit 5, and
// x.5 for rounding to an integer); the largest integer part; the edges
// of Spark's 64-bit decimal representation (p ≤ 18) where they fit.
func decimalSpecials(p, s int) []value.Value {
	limit := pow10(p) // |unscaled| < 10^p
	maxU := new(big.Int).Sub(limit, big.NewInt(1))
	one := pow10(s)
	var cands []*big.Int
	addPM := func(u *big.Int) { cands = append(cands, u, new(big.Int).Neg(u)) }
	cands = append(cands, big.NewInt(0))
	addPM(maxU)
	addPM(new(big.Int).Sub(maxU, big.NewInt(1)))
	addPM(big.NewInt(1))
	addPM(one)
	addPM(pow10(p - 1)) // smallest value with p digits
	// Exactly s fractional digits (0.123…), and p digits (123….…).
	digits := func(n int) *big.Int {
		if n <= 0 {
			return nil
		}
		var b strings.Builder
		for i := range n {
			b.WriteByte(byte('1' + i%9))
		}
		u, _ := new(big.Int).SetString(b.String(), 10)
		return u
	}
	if u := digits(min(s, p)); u != nil {
		addPM(u)
	}
	addPM(digits(p))
	// Ties: a last digit of 5 (rounding to s-1 digits), and 0.5, 1.5,
	// 2.5 at the scale (rounding to an integer: HALF_UP vs HALF_EVEN).
	addPM(big.NewInt(5))
	addPM(big.NewInt(15))
	addPM(big.NewInt(25))
	if s >= 1 {
		half := new(big.Int).Mul(big.NewInt(5), pow10(s-1))
		addPM(half)
		addPM(new(big.Int).Add(half, one))
		addPM(new(big.Int).Add(half, new(big.Int).Mul(one, big.NewInt(2))))
	}
	// The largest integer part with a zero fraction.
	addPM(new(big.Int).Mul(new(big.Int).Sub(pow10(p-s), big.NewInt(1)), one))
	// Spark stores decimals of precision ≤ 18 in a long.
	addPM(new(big.Int).Sub(pow10(18), big.NewInt(1)))
	addPM(pow10(18))
	addPM(big.NewInt(math.MaxInt64))
	addPM(new(big.Int).Add(big.NewInt(math.MaxInt64), big.NewInt(1)))

	out := make([]value.Value, 0, len(cands))
	seen := map[string]bool{}
	for _, u := range cands {
		if u == nil || new(big.Int).Abs(u).Cmp(limit) >= 0 {
			continue
		}
		k := u.String()
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, value.DecimalOf(u, int32(s)))
	}
	return out
}

// stringSpecialTexts are chosen for the traps in SEMANTICS.md: trimming
// (Java trim/strip, Python strip and Spark trim differ on control
// characters and Unicode spaces), number and boolean parsing, length and
// indexing in UTF-16 units vs code points, case mapping (ß, dotted and
// dotless i, Deseret), regular expressions, URL decoding, CSV quoting.
var stringSpecialTexts = []string{
	"", " ", "  ", "a", " a", "a ", " a ", "\t", "\ta", "a\t", "\n", "a\nb", "\r\n", "a\r\nb",
	"\x00", "\x01", "\x1f", "\x7f", "a\x00b", "\x1c\x1d\x1e", "\u0085", "\u00a0", "\u2003", "\u3000",
	"\u200b", "\ufeff", "\u2028",
	"0", "12", " 12", "12 ", " 12 ", "+1", "-1", "-0", "+0", "00012", "1e3", "1E3", "-1.5e-3",
	"1.5", ".5", "5.", "1.0", "1.0E10", "0x1F", "0X1f", "1_000", "1,000", "1d", "1f", "1L",
	"0x1p3", "٣", "١٢", "１２", "²", "9223372036854775807", "9223372036854775808",
	"-9223372036854775809", "2147483648", "-2147483649", "1e400", "4.9e-324",
	"NaN", "nan", "-NaN", "Infinity", "-Infinity", "+Infinity", "inf", "-inf", "Inf",
	"true", "false", "TRUE", "True", "t", "f", "yes", "no", "y", "n", "1 ", "on", "off",
	"null", "NULL", "None", "-", "+", ".", "e", "1e", "--1",
	"2024-02-29", "2024-02-30", "2024-02-29 12:34:56", "1970-01-01T00:00:00Z", "0001-01-01", "10000-01-01",
	"😀", "a😀b", "😀😀", "👍🏽", "🇺🇸", "🇩🇪🇫🇷", "👨‍👩‍👧", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "𐐀𐐨", "\U0010FFFF",
	"e\u0301", "é", "A\u030a", "Å", "a\u0308\u0301",
	"ß", "ẞ", "İ", "ı", "i", "I", "İstanbul", "ǅ", "ﬁ", "ǰ", "ŉ", "ΣΑΣ", "ὈΔΥΣΣΕΎΣ", "ΐ",
	"שלום", "مرحبا", "abc שלום 123", "\u202eabc", "日本語", "한국어", "नमस्ते", "Ελληνικά", "Кириллица",
	"%zz", "%", "%4", "%41", "%E2%82%AC", "a+b", "a b", "\\", "\\\\", "\\n", "\\u0041", "\\x41",
	"\"", "'", "\"quoted\"", "'single'", "a,b", "a;b", "a|b", "$1", "${x}", ".*", "a.b", "(", "[", "^$",
	"<b>&amp;</b>", "Hello World", "hello, world!", "The quick brown fox jumps over the lazy dog",
	"camelCase", "snake_case", "UPPER", "MiXeD 123 test",
}

// longStrings returns the very long specials: 10,000 ASCII characters,
// and 10,000 code points mixing BMP and astral characters (15,000
// UTF-16 units), built deterministically.
func longStrings() []string {
	var ascii strings.Builder
	for i := range longStringLen {
		ascii.WriteByte(byte('a' + i%26))
	}
	mixed := []rune("aé日😀 ")
	var m strings.Builder
	for i := range longStringLen {
		m.WriteRune(mixed[i%len(mixed)])
	}
	return []string{ascii.String(), m.String()}
}

func stringSpecials() []value.Value {
	texts := append(append([]string{}, stringSpecialTexts...), longStrings()...)
	out := make([]value.Value, 0, len(texts))
	seen := map[string]bool{}
	for _, s := range texts {
		if seen[s] || !utf8.ValidString(s) {
			continue
		}
		seen[s] = true
		out = append(out, value.StringOf(s))
	}
	return out
}

func binarySpecials() []value.Value {
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	long := make([]byte, longStringLen)
	x := uint32(2463534242) // xorshift32: fixed "random" bytes, the same in every run
	for i := range long {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		long[i] = byte(x)
	}
	bs := [][]byte{
		{}, {0x00}, {0xff}, {0x00, 0xff}, {0x80}, {0x7f}, []byte("a"), []byte("hello"),
		{0xc3, 0x28},       // invalid UTF-8
		{0xed, 0xa0, 0x80}, // UTF-8 of a lone surrogate
		{0xef, 0xbb, 0xbf}, // UTF-8 BOM
		[]byte("😀"), {0x00, 0x00, 0x00, 0x00}, {0xde, 0xad, 0xbe, 0xef}, all, long[:16], long,
	}
	out := make([]value.Value, len(bs))
	for i, b := range bs {
		out[i] = value.BinaryOf(b)
	}
	return out
}

// dateSpecialDays, days since 1970-01-01 in the proleptic Gregorian
// calendar Spark 3+ uses (values confirmed by unix_date in
// testdata/spark_facts.txt).
var dateSpecialDays = []int64{
	0,            // 1970-01-01
	-1,           // 1969-12-31
	1,            // 1970-01-02
	minDate,      // 0001-01-01
	maxDate,      // 9999-12-31
	11016,        // 2000-02-29
	19782,        // 2024-02-29
	-25508,       // 1900-03-01
	-25509,       // 1900-02-28
	-25567,       // 1900-01-01
	11017,        // 2000-03-01
	19792,        // 2024-03-10, US DST starts
	20030,        // 2024-11-03, US DST ends
	19813,        // 2024-03-31, EU DST starts
	20023,        // 2024-10-27, EU DST ends
	-141427,      // 1582-10-15, first Gregorian day
	-141438,      // 1582-10-04, last Julian day (hybrid calendars differ here)
	-141433,      // 1582-10-09, a day the hybrid Julian/Gregorian calendar skips
	24855,        // 2038-01-19, 32-bit time_t overflow
	10957,        // 2000-01-01
	19723,        // 2024-01-01
	minDate + 58, // 0001-02-28
	maxDate - 1,  // 9999-12-30
}

func dateSpecials() []value.Value {
	out := make([]value.Value, len(dateSpecialDays))
	for i, d := range dateSpecialDays {
		out[i] = value.DateOf(d)
	}
	return out
}

// timestampSpecialMicros: microseconds since the epoch, UTC. The DST
// instants are the UTC moments at which America/Los_Angeles and
// Europe/Berlin wall clocks jump in 2024, with the microsecond before,
// and instants inside the repeated hour (checked against Go's tzdata in
// the tests and against Spark's to_utc_timestamp in spark_facts.txt).
var timestampSpecialMicros = []int64{
	0,                   // epoch
	-1,                  // 1969-12-31T23:59:59.999999
	1,                   // 1970-01-01T00:00:00.000001
	-500_000,            // 1969-12-31T23:59:59.5: floor vs truncation
	500_000,             // 1970-01-01T00:00:00.5
	999_999,             // 1970-01-01T00:00:00.999999
	minTimestamp,        // 0001-01-01T00:00:00
	maxTimestamp,        // 9999-12-31T23:59:59.999999
	1709208000_000000,   // 2024-02-29T12:00:00 leap day
	951782400_000000,    // 2000-02-29T00:00:00
	1710064800_000000,   // 2024-03-10T10:00:00Z, Los Angeles springs forward (02:00 PST → 03:00 PDT)
	1710064799_999999,   // the microsecond before
	1730620800_000000,   // 2024-11-03T08:00:00Z, 01:00 PDT: the repeated hour begins
	1730622600_000000,   // 2024-11-03T08:30:00Z, 01:30 PDT (01:30 happens twice)
	1730624399_999999,   // 2024-11-03T08:59:59.999999Z, last µs of PDT
	1730624400_000000,   // 2024-11-03T09:00:00Z, Los Angeles falls back (02:00 PDT → 01:00 PST)
	1730626200_000000,   // 2024-11-03T09:30:00Z, 01:30 PST (second time)
	1711846800_000000,   // 2024-03-31T01:00:00Z, Berlin springs forward (02:00 CET → 03:00 CEST)
	1711846799_999999,   // the microsecond before
	1729987200_000000,   // 2024-10-27T00:00:00Z, 02:00 CEST: the repeated hour begins
	1729989000_000000,   // 2024-10-27T00:30:00Z, 02:30 CEST
	1729990800_000000,   // 2024-10-27T01:00:00Z, Berlin falls back (03:00 CEST → 02:00 CET)
	1729992600_000000,   // 2024-10-27T01:30:00Z, 02:30 CET (second time)
	-12219292800_000000, // 1582-10-15T00:00:00Z
	-2208988800_000000,  // 1900-01-01T00:00:00Z (local mean time offsets)
	2147483647_000000,   // 2038-01-19T03:14:07Z
	2147483648_000000,   // 2038-01-19T03:14:08Z
	946684800_123456,    // 2000-01-01T00:00:00.123456
	1700000000_000001,   // 2023-11-14T22:13:20.000001
	1234567890_123000,   // milliseconds only
	-1 * microsPerDay,   // 1969-12-31T00:00:00
	86_399_999_999,      // 1970-01-01T23:59:59.999999
}

func timestampSpecials() []value.Value {
	out := make([]value.Value, len(timestampSpecialMicros))
	for i, m := range timestampSpecialMicros {
		out[i] = value.TimestampOf(m)
	}
	return out
}

// flatForLong returns the values a long array of elem cycles through:
// the element's specials when elem is not nested (a nested element would
// multiply sizes), otherwise its representative.
func flatForLong(elem *udf.Type) []value.Value {
	if elem.IsNested() {
		return []value.Value{Representative(elem)}
	}
	return Specials(elem)
}

// arraySpecials: empty; one element; a null element alone and between
// others; every element special in one array (with a null); each element
// special alone (code that reads element 0); a long array.
func arraySpecials(t *udf.Type) []value.Value {
	rep := Representative(t.Elem)
	null := value.NullValue()
	es := Specials(t.Elem)
	out := []value.Value{
		value.ArrayOf(),
		value.ArrayOf(rep),
		value.ArrayOf(null),
		value.ArrayOf(rep, null, rep),
		value.ArrayOf(null, null),
		value.ArrayOf(append(append([]value.Value{}, es...), null)...),
	}
	for _, e := range es {
		out = append(out, value.ArrayOf(e))
	}
	cyc := flatForLong(t.Elem)
	long := make([]value.Value, longArrayLen)
	for i := range long {
		long[i] = cyc[i%len(cyc)]
	}
	return append(out, value.ArrayOf(long...))
}

// mapKeys returns the key specials Spark can hold in one map: non-null,
// distinct after Spark's normalisation of floating keys (-0.0 is 0.0 and
// every NaN is one key; see spark_facts.txt), so only +0.0 and the
// canonical NaN remain of those.
func mapKeys(t *udf.Type) []value.Value {
	var out []value.Value
	seen := map[string]bool{}
	for _, k := range Specials(t) {
		switch k.Kind {
		case value.Double:
			f := k.Float64()
			if (f == 0 && k.Bits != 0) || (math.IsNaN(f) && k.Bits != canonicalNaN64) {
				continue
			}
		case value.Float:
			f := k.Float32()
			if (f == 0 && k.Bits != 0) || (f != f && uint32(k.Bits) != canonicalNaN32) {
				continue
			}
		}
		if containsFloatKeyTrap(k) {
			continue
		}
		tok := value.Token(k)
		if !seen[tok] {
			seen[tok] = true
			out = append(out, k)
		}
	}
	return out
}

// containsFloatKeyTrap reports whether a nested key holds a -0.0 or a
// non-canonical NaN, which Spark would normalise inside the key.
func containsFloatKeyTrap(v value.Value) bool {
	switch v.Kind {
	case value.Double:
		f := v.Float64()
		return (f == 0 && v.Bits != 0) || (math.IsNaN(f) && v.Bits != canonicalNaN64)
	case value.Float:
		f := v.Float32()
		return (f == 0 && v.Bits != 0) || (f != f && uint32(v.Bits) != canonicalNaN32)
	case value.Array, value.Struct, value.Map:
		for _, e := range v.Elems {
			if containsFloatKeyTrap(e) {
				return true
			}
		}
	}
	return false
}

// mapSpecials: empty; one entry; a null value; every key special in one
// map (values cycling through the value specials, one of them null);
// each value special under the representative key.
func mapSpecials(t *udf.Type) []value.Value {
	rk, rv := Representative(t.Key), Representative(t.Value)
	null := value.NullValue()
	keys := mapKeys(t.Key)
	vals := flatForLong(t.Value)
	out := []value.Value{
		value.MapOf(),
		value.MapOf(rk, rv),
		value.MapOf(rk, null),
	}
	if len(keys) > 0 {
		kv := make([]value.Value, 0, 2*len(keys))
		for i, k := range keys {
			v := vals[i%len(vals)]
			if i == len(keys)-1 && len(keys) > 1 {
				v = null
			}
			kv = append(kv, k, v)
		}
		out = append(out, value.MapOf(kv...))
	}
	for _, v := range Specials(t.Value) {
		out = append(out, value.MapOf(rk, v))
	}
	return out
}

// structSpecials: each field's specials with the other fields at their
// representatives; each field null alone; every field null.
func structSpecials(t *udf.Type) []value.Value {
	reps := make([]value.Value, len(t.Fields))
	for i, f := range t.Fields {
		reps[i] = Representative(f.Type)
	}
	with := func(i int, v value.Value) value.Value {
		f := append([]value.Value{}, reps...)
		f[i] = v
		return value.StructOf(f...)
	}
	out := []value.Value{value.StructOf(reps...)}
	for i, f := range t.Fields {
		for _, s := range Specials(f.Type) {
			out = append(out, with(i, s))
		}
		out = append(out, with(i, value.NullValue()))
	}
	if len(t.Fields) > 1 {
		out = append(out, value.StructOf(make([]value.Value, len(t.Fields))...))
	}
	return out
}
