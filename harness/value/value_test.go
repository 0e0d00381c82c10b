package value

import (
	"math"
	"math/big"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/udf"
)

func dec(s string, scale int32) Value {
	u, _ := new(big.Int).SetString(s, 10)
	return DecimalOf(u, scale)
}

func TestTokens(t *testing.T) {
	cases := []struct {
		v   Value
		tok string
	}{
		{NullValue(), "N"},
		{BoolOf(true), "T"},
		{BoolOf(false), "F"},
		{IntOf(math.MinInt64), "i-9223372036854775808"},
		{DoubleOf(32), "d4040000000000000"},
		{DoubleBits(0x8000000000000000), "d8000000000000000"},
		{DoubleBits(0xfff8000000000001), "dfff8000000000001"},
		{FloatOf(1.5), "f3fc00000"},
		{dec("-12345", 2), "m-12345@2"},
		{StringOf(""), "s"},
		{StringOf("a😀"), "s0061d83dde00"},
		{UnitsOf([]uint16{0xd800}), "sd800"},
		{BinaryOf([]byte{0, 0xff}), "b00ff"},
		{DateOf(-719162), "D-719162"},
		{TimestampOf(-1), "P-1"},
		{ArrayOf(), "[ ]"},
		{ArrayOf(IntOf(1), NullValue(), ArrayOf(IntOf(2))), "[ i1 N [ i2 ] ]"},
		{MapOf(StringOf("k"), DoubleOf(1)), "{ s006b d3ff0000000000000 }"},
		{StructOf(IntOf(1), StringOf("x")), "( i1 s0078 )"},
		{ErrorOf("java.lang.ArithmeticException", "/ by zero"), "E006a006100760061002e006c0061006e0067002e00410072006900740068006d00650074006900630045007800630065007000740069006f006e:002f0020006200790020007a00650072006f"},
	}
	for _, c := range cases {
		assert.Equal(t, c.tok, Token(c.v), "token of %v", c.v)
		back, err := ParseToken(c.tok)
		require.NoError(t, err, c.tok)
		assert.True(t, Policy{}.Equal(c.v, back), "%s parses back to %v, got %v", c.tok, c.v, back)
		assert.Equal(t, c.tok, Token(back), "round trip keeps the exact token")
	}
}

func TestParseLineErrors(t *testing.T) {
	for _, bad := range []string{"x", "i1.5", "d3ff", "dzzzzzzzzzzzzzzzz", "m1", "m1@x", "s123", "sxyzw", "[ i1", "{ i1 }", "[i1 ]", "E0061", "N1", "bq"} {
		_, err := ParseLine(bad)
		var se *SyntaxError
		assert.ErrorAs(t, err, &se, bad)
	}
	vs, err := ParseLine("i1 N  s0061\n")
	require.NoError(t, err)
	assert.Len(t, vs, 3)
}

func TestPolicy(t *testing.T) {
	nan1, nan2 := DoubleBits(0x7ff8000000000000), DoubleBits(0xfff8000000000001)
	pz, nz := DoubleOf(0), DoubleBits(0x8000000000000000)
	one := DoubleOf(1)
	next := DoubleBits(math.Float64bits(1) + 2)
	exact := Policy{}
	assert.True(t, exact.Equal(nan1, nan2), "NaN equals NaN whatever its payload")
	assert.False(t, exact.Equal(nan1, one))
	assert.False(t, exact.Equal(pz, nz), "-0.0 differs from 0.0 by default")
	assert.True(t, Policy{LenientSignedZero: true}.Equal(pz, nz))
	assert.False(t, exact.Equal(one, next))
	assert.True(t, Policy{ULP: 2}.Equal(one, next))
	assert.False(t, Policy{ULP: 1}.Equal(one, next))
	assert.True(t, Policy{ULP: 2}.Equal(DoubleBits(1), DoubleBits(0x8000000000000001)), "ulps count across zero")
	assert.True(t, Policy{Rel: 1e-15}.Equal(one, next))
	assert.True(t, Policy{Abs: 1e-9}.Equal(DoubleOf(100), DoubleOf(100+1e-10)))
	assert.False(t, Policy{Abs: 1}.Equal(DoubleOf(math.Inf(1)), DoubleOf(math.MaxFloat64)))
	assert.True(t, exact.Equal(FloatBits(0x7fc00000), FloatBits(0xffc00001)))
	assert.True(t, exact.Equal(dec("150", 2), dec("15", 1)), "decimals compare by value")
	assert.False(t, exact.Equal(dec("150", 2), dec("151", 2)))
	assert.False(t, exact.Equal(IntOf(1), DoubleOf(1)), "kinds must agree")
	assert.True(t, exact.Equal(MapOf(IntOf(1), StringOf("a"), IntOf(2), NullValue()), MapOf(IntOf(2), NullValue(), IntOf(1), StringOf("a"))), "maps are unordered")
	assert.False(t, exact.Equal(MapOf(IntOf(1), StringOf("a")), MapOf(IntOf(1), StringOf("b"))))
	assert.True(t, exact.Equal(ArrayOf(nan1, NullValue()), ArrayOf(nan2, NullValue())))
	assert.False(t, exact.Equal(ArrayOf(pz), ArrayOf(nz)), "deep comparison keeps the signed-zero rule")
	assert.True(t, exact.Equal(ErrorOf("java.lang.NullPointerException", "a"), ErrorOf("java.lang.NullPointerException", "b")))
	assert.False(t, exact.Equal(ErrorOf("A", ""), ErrorOf("B", "")))
	assert.Equal(t, "bit-exact", exact.String())
	assert.Equal(t, "within 4 ulp, -0.0 = 0.0", Policy{LenientSignedZero: true, ULP: 4}.String())
	assert.Equal(t, "within relative 1e-05 or absolute 1e-09", Policy{Rel: 1e-5, Abs: 1e-9}.String())
	assert.Equal(t, "bit-exact but -0.0 = 0.0", Policy{LenientSignedZero: true}.String())
}

func TestString(t *testing.T) {
	assert.Equal(t, "NaN", DoubleBits(0x7ff8000000000000).String())
	assert.Equal(t, "NaN(0xfff8000000000001)", DoubleBits(0xfff8000000000001).String())
	assert.Equal(t, "-0.0", DoubleBits(0x8000000000000000).String())
	assert.Equal(t, "32.0", DoubleOf(32).String())
	assert.Equal(t, "89.6", DoubleOf(89.6).String())
	assert.Equal(t, "1e+300", DoubleOf(1e300).String())
	assert.Equal(t, "-Infinity", DoubleOf(math.Inf(-1)).String())
	assert.Equal(t, `"a\"😀\uD800"`, UnitsOf([]uint16{'a', '"', 0xd83d, 0xde00, 0xd800}).String())
	assert.Equal(t, "-0.05", dec("-5", 2).String())
	assert.Equal(t, "1200", dec("12", -2).String())
	assert.Equal(t, "0001-01-01", DateOf(-719162).String())
	assert.Equal(t, "1969-12-31 23:59:59.999999Z", TimestampOf(-1).String())
	assert.Equal(t, "map{1 -> NULL}", MapOf(IntOf(1), NullValue()).String())
	assert.Equal(t, "throws java.lang.ArithmeticException: / by zero", ErrorOf("java.lang.ArithmeticException", "/ by zero").String())
	assert.True(t, UnitsOf([]uint16{0xdc00, 'a'}).HasLoneSurrogate())
	assert.False(t, StringOf("😀").HasLoneSurrogate())
}

func TestArrowRoundTrip(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	types := []string{"boolean", "tinyint", "smallint", "int", "bigint", "float", "double", "decimal(38,18)", "string", "binary", "date", "timestamp", "array<double>", "map<string,int>", "struct<a:int,b:string>"}
	vals := []Value{BoolOf(true), IntOf(-128), IntOf(32767), IntOf(math.MinInt32), IntOf(math.MaxInt64), FloatBits(0xffc00001), DoubleBits(0xfff8000000000001),
		dec("-99999999999999999999999999999999999999", 18), StringOf("ß😀"), BinaryOf([]byte{0}), DateOf(2932896), TimestampOf(-62135596800000000),
		ArrayOf(DoubleBits(0x8000000000000000), NullValue()), MapOf(StringOf("k"), IntOf(1)), StructOf(NullValue(), StringOf(""))}
	for i, ts := range types {
		typ, err := udf.ParseType(ts)
		require.NoError(t, err)
		at, err := ArrowType(typ)
		require.NoError(t, err)
		b := array.NewBuilder(mem, at)
		require.NoError(t, Append(b, vals[i]), ts)
		require.NoError(t, Append(b, NullValue()))
		arr := b.NewArray()
		assert.Equal(t, Token(vals[i]), Token(FromArrow(arr, 0)), ts)
		assert.True(t, FromArrow(arr, 1).IsNull())
		arr.Release()
		b.Release()
	}
	b := array.NewBuilder(mem, arrow.BinaryTypes.String)
	defer b.Release()
	assert.ErrorContains(t, Append(b, UnitsOf([]uint16{0xd800})), "lone UTF-16 surrogate")
	assert.ErrorContains(t, Append(b, IntOf(1)), "cannot store a integer value")
	db := array.NewBuilder(mem, &arrow.Decimal128Type{Precision: 5, Scale: 2})
	defer db.Release()
	assert.ErrorContains(t, Append(db, dec("1", 3)), "more than 2 fractional digits")
	assert.ErrorContains(t, Append(db, dec("100000", 2)), "does not fit")
}

func FuzzParseLine(f *testing.F) {
	for _, s := range []string{"N", "[ i1 N [ i2 ] ]", "{ s006b d3ff0000000000000 }", "( i1 s0078 )", "m-12345@2", "E0061:0062", "sd800", "[ ( {"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		vs, err := ParseLine(line)
		if err != nil {
			return
		}
		// Whatever parses re-encodes to tokens that parse to equal values.
		for _, v := range vs {
			back, err := ParseToken(Token(v))
			if assert.NoError(t, err) {
				assert.True(t, Policy{}.Equal(v, back) || v.Kind == Error && back.Class == v.Class, "%v vs %v", v, back)
			}
		}
	})
}

func TestDecimalsWithWildScales(t *testing.T) {
	// A JVM BigDecimal may carry any int scale: comparing or printing one
	// must not build a number with billions of digits.
	huge := dec("1", math.MaxInt32)
	assert.False(t, Policy{}.Equal(huge, dec("1", 0)))
	assert.True(t, Policy{}.Equal(dec("0", math.MaxInt32), dec("0", -5)))
	assert.True(t, Policy{}.Equal(dec("1000", math.MinInt32+3), dec("1", math.MinInt32)))
	assert.Equal(t, "1E-2147483647", huge.String())
}

func TestComparingAndStoringLeaveDecimalsAlone(t *testing.T) {
	v := dec("100", 2)
	assert.True(t, Policy{}.Equal(v, dec("1", 0)))
	mem := memory.NewGoAllocator()
	b := array.NewBuilder(mem, &arrow.Decimal128Type{Precision: 10, Scale: 4})
	defer b.Release()
	require.NoError(t, Append(b, v))
	require.NoError(t, Append(b, v))
	arr := b.NewArray()
	defer arr.Release()
	assert.Equal(t, "m100@2", Token(v), "the caller's decimal is unchanged")
	assert.Equal(t, "m10000@4", Token(FromArrow(arr, 1)))
}
