package inputs

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/value"
)

func mustType(t testing.TB, s string) *udf.Type {
	t.Helper()
	ty, err := udf.ParseType(s)
	require.NoError(t, err, s)
	return ty
}

func checkedMem(t testing.TB) *memory.CheckedAllocator {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	return mem
}

// tokens returns the codec token of every cell of column c.
func tokens(rec arrow.RecordBatch, c int) []string {
	col := rec.Column(c)
	out := make([]string, col.Len())
	for i := range out {
		out[i] = value.Token(value.FromArrow(col, i))
	}
	return out
}

var allTypes = []string{
	"boolean", "tinyint", "smallint", "int", "bigint", "float", "double",
	"decimal(10,2)", "decimal(38,18)", "decimal(38,0)", "decimal(1,0)", "decimal(5,5)", "decimal(20,3)",
	"string", "binary", "date", "timestamp",
	"array<float>", "array<string>", "array<array<int>>", "map<string,double>", "map<double,int>",
	"map<int,array<string>>", "struct<a:int,b:string>", "struct<x:double,y:struct<z:date>>",
	"array<struct<a:decimal(4,2),b:binary>>",
}

// Every special of every type reaches the batch with its exact bits:
// the codec token (double/float bits, decimal unscaled@scale, strings as
// UTF-16 units) of row i is the token of special i, and strings are
// byte-exact as Go UTF-8.
func TestSpecialsReachTheBatchExactly(t *testing.T) {
	for _, ts := range allTypes {
		t.Run(ts, func(t *testing.T) {
			mem := checkedMem(t)
			ty := mustType(t, ts)
			specials := Specials(ty)
			require.NotEmpty(t, specials)
			rec, st, err := Generate([]Param{{"x", ty}}, Options{Seed: 1}, mem)
			require.NoError(t, err)
			defer rec.Release()
			assert.Equal(t, len(specials), st.SpecialRows)
			got := tokens(rec, 0)
			for i, s := range specials {
				require.Equal(t, value.Token(s), got[i], "special %d (%s)", i, s)
			}
			if sc, ok := rec.Column(0).(*array.String); ok {
				for i, s := range specials {
					require.Equal(t, []byte(s.GoString()), []byte(sc.Value(i)))
				}
			}
		})
	}
}

func TestSpecialsCoverTheIssueList(t *testing.T) {
	has := func(ty string, want value.Value) {
		t.Helper()
		tok := value.Token(want)
		for _, s := range Specials(mustType(t, ty)) {
			if value.Token(s) == tok {
				return
			}
		}
		t.Errorf("%s specials lack %s (%s)", ty, want, tok)
	}
	for _, c := range []struct {
		ty     string
		lo, hi int64
	}{{"tinyint", math.MinInt8, math.MaxInt8}, {"smallint", math.MinInt16, math.MaxInt16},
		{"int", math.MinInt32, math.MaxInt32}, {"bigint", math.MinInt64, math.MaxInt64}} {
		for _, v := range []int64{c.lo, c.lo + 1, -1, 0, 1, c.hi - 1, c.hi} {
			has(c.ty, value.IntOf(v))
		}
	}
	for _, b := range []uint64{0, 1 << 63, 0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000,
		0xfff8000000000000, 0x7ff0000000000001, 0xfff8000000000001, 0x7fefffffffffffff, 0xffefffffffffffff,
		0x0010000000000000, 1, 0x8000000000000001} {
		has("double", value.DoubleBits(b))
	}
	for _, f := range []float64{1, -1, 0.1, 2.5, -2.5, 0.5, 1e10, 1e-5, 2.675} {
		has("double", value.DoubleOf(f))
		has("float", value.FloatOf(float32(f)))
	}
	for _, b := range []uint32{0, 1 << 31, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001,
		0x7f7fffff, 0xff7fffff, 0x00800000, 1, 0x80000001} {
		has("float", value.FloatBits(b))
	}
	dec := func(u string, s int32) value.Value {
		t.Helper()
		v, err := parseDecimal(u, 38, 0)
		require.NoError(t, err)
		return value.DecimalOf(v.Unscaled, s)
	}
	for _, u := range []string{"0", "9999999999", "-9999999999", "1", "-1", "100", "5", "50", "-250", "1234567891"} {
		has("decimal(10,2)", dec(u, 2))
	}
	has("decimal(38,18)", dec("99999999999999999999999999999999999999", 18))
	has("decimal(38,18)", dec("-99999999999999999999999999999999999999", 18))
	has("decimal(38,18)", dec("123456789123456789", 18)) // exactly s digits
	for _, s := range []string{"", " ", " a", "a ", "\t", "\n", "\x00", "\x01", "\x1f", "\x7f", "12", " 12 ", "+1",
		"-0", "1e3", "1.5", "0x1F", "1_000", "١٢", "NaN", "Infinity", "true", "yes", "😀", "🇺🇸", "e\u0301",
		"ß", "İ", "ı", "i", "שלום", "مرحبا", "%zz", "%", "\\", "\"", "'", "Hello World"} {
		has("string", value.StringOf(s))
	}
	longs := 0
	for _, s := range Specials(mustType(t, "string")) {
		if len(s.Units) >= longStringLen {
			longs++
		}
	}
	assert.Equal(t, 2, longs, "two 10k-character strings")
	for _, b := range [][]byte{{}, {0}, {0xff}} {
		has("binary", value.BinaryOf(b))
	}
	has("boolean", value.BoolOf(true))
	has("boolean", value.BoolOf(false))
	// Arrays: empty, one element, null elements, long, each element special.
	arr := Specials(mustType(t, "array<double>"))
	has("array<double>", value.ArrayOf())
	has("array<double>", value.ArrayOf(value.DoubleOf(1)))
	has("array<double>", value.ArrayOf(value.NullValue()))
	has("array<double>", value.ArrayOf(value.DoubleBits(0xfff8000000000001)))
	assert.Len(t, arr[len(arr)-1].Elems, longArrayLen)
	// Maps with null values; structs with null fields.
	has("map<string,int>", value.MapOf())
	has("map<string,int>", value.MapOf(value.StringOf("a"), value.NullValue()))
	has("struct<a:int,b:string>", value.StructOf(value.NullValue(), value.StringOf("a")))
	has("struct<a:int,b:string>", value.StructOf(value.NullValue(), value.NullValue()))
	has("struct<a:int,b:string>", value.StructOf(value.IntOf(math.MinInt32), value.StringOf("a")))
}

// Decimal specials fit their precision, and map keys are what Spark can
// store: distinct, without -0.0 or non-canonical NaNs.
func TestSpecialsAreValidForSpark(t *testing.T) {
	for p := 1; p <= 38; p++ {
		for _, s := range []int{0, p / 2, p} {
			limit := pow10(p)
			for _, v := range Specials(udf.DecimalOf(p, s)) {
				require.Equal(t, int32(s), v.Scale)
				require.Negative(t, v.Unscaled.CmpAbs(limit), "decimal(%d,%d) %s", p, s, v)
			}
		}
	}
	for _, k := range []string{"double", "float", "array<double>", "struct<a:float>", "string", "boolean"} {
		m := Specials(mustType(t, "map<"+k+",int>"))
		seen := map[string]bool{}
		for _, mv := range m {
			for i := 0; i < len(mv.Elems); i += 2 {
				key := mv.Elems[i]
				require.False(t, key.IsNull())
				require.False(t, containsFloatKeyTrap(key), "%s", key)
				seen[value.Token(key)] = true
			}
		}
		require.NotEmpty(t, seen)
	}
}

func TestLayoutAndStats(t *testing.T) {
	mem := checkedMem(t)
	params := []Param{{"d", udf.Prim(udf.Double)}, {"s", udf.Prim(udf.String)}}
	rec, st, err := Generate(params, Options{Seed: 7, Rows: 5000}, mem)
	require.NoError(t, err)
	defer rec.Release()
	nd, ns := len(Specials(params[0].Type)), len(Specials(params[1].Type))
	cross := len(Core(params[0].Type)) * len(Core(params[1].Type))
	assert.Equal(t, nd+ns+2+cross, st.SpecialRows)
	assert.Equal(t, AllNullRows, st.NullRows)
	assert.Equal(t, 5000, st.Rows)
	assert.Equal(t, 5000-st.SpecialRows-st.NullRows, st.RandomRows)
	assert.EqualValues(t, 5000, rec.NumRows())

	got, ok := StatsFromSchema(rec.Schema())
	require.True(t, ok)
	assert.Equal(t, st, got)

	d, s := tokens(rec, 0), tokens(rec, 1)
	rep := func(ty *udf.Type) string { return value.Token(Representative(ty)) }
	for i := range nd { // d runs through its specials, s holds "a"
		assert.Equal(t, rep(params[1].Type), s[i])
	}
	for i := nd; i < nd+ns; i++ {
		assert.Equal(t, rep(params[0].Type), d[i])
	}
	assert.Equal(t, "N", d[nd+ns]) // d null alone
	assert.Equal(t, rep(params[1].Type), s[nd+ns])
	assert.Equal(t, "N", s[nd+ns+1]) // s null alone
	assert.Equal(t, "N", d[nd+ns+2]) // the cross product starts with (null, null)
	assert.Equal(t, "N", s[nd+ns+2])
	all := st.SpecialRows
	assert.Equal(t, []string{"N", "N"}, []string{d[all], s[all]}, "the all-null row")

	// Rows below the specials: just the specials and the all-null rows.
	small, st2, err := Generate(params, Options{Seed: 7, Rows: 3}, mem)
	require.NoError(t, err)
	defer small.Release()
	assert.Equal(t, 0, st2.RandomRows)
	assert.Equal(t, st.SpecialRows+st.NullRows, st2.Rows)
}

func TestCrossProductIsBounded(t *testing.T) {
	mem := checkedMem(t)
	var params []Param
	for _, n := range []string{"a", "b", "c", "d", "e"} {
		params = append(params, Param{n, udf.Prim(udf.Double)})
	}
	rec, st, err := Generate(params, Options{Seed: 1}, mem)
	require.NoError(t, err)
	defer rec.Release()
	// 7^5 > MaxCrossRows: per-parameter specials and nulls only.
	assert.Equal(t, 5*len(Specials(udf.Prim(udf.Double)))+5, st.SpecialRows)

	rec3, st3, err := Generate(params[:3], Options{Seed: 1}, mem)
	require.NoError(t, err)
	defer rec3.Release()
	assert.Equal(t, 3*len(Specials(udf.Prim(udf.Double)))+3+7*7*7, st3.SpecialRows)
}

func ipcBytes(t *testing.T, rec arrow.RecordBatch) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "x.arrow")
	require.NoError(t, WriteIPC(path, rec))
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return b
}

func TestReproducible(t *testing.T) {
	mem := checkedMem(t)
	params := []Param{{"s", udf.Prim(udf.String)}, {"i", udf.Prim(udf.Int)},
		{"a", mustType(t, "array<float>")}, {"m", mustType(t, "map<string,decimal(10,2)>")},
		{"st", mustType(t, "struct<t:timestamp,d:date,b:binary>")}}
	gen := func(seed int64) (arrow.RecordBatch, Stats) {
		rec, st, err := Generate(params, Options{Seed: seed, Rows: 3000}, mem)
		require.NoError(t, err)
		return rec, st
	}
	a, st := gen(42)
	defer a.Release()
	b, _ := gen(42)
	defer b.Release()
	c, _ := gen(43)
	defer c.Release()
	assert.True(t, bytes.Equal(ipcBytes(t, a), ipcBytes(t, b)), "same seed, same bytes")

	random := st.SpecialRows + st.NullRows
	for col := range params {
		ta, tc := tokens(a, col), tokens(c, col)
		assert.Equal(t, ta[:random], tc[:random], "specials do not depend on the seed")
		assert.NotEqual(t, ta[random:], tc[random:], "column %d: another seed, other random values", col)
	}
	// A column's random values do not depend on the columns after it.
	one, _, err := Generate(params[:1], Options{Seed: 42, Rows: 3000}, mem)
	require.NoError(t, err)
	defer one.Release()
	st1, ok := StatsFromSchema(one.Schema())
	require.True(t, ok)
	ta, t1 := tokens(a, 0), tokens(one, 0)
	from1 := st1.SpecialRows + st1.NullRows
	assert.Equal(t, ta[random:random+500], t1[from1:from1+500])
}

func TestNullRate(t *testing.T) {
	mem := checkedMem(t)
	for _, rate := range []float64{0, 0.2, -1} {
		rec, st, err := Generate([]Param{{"x", udf.Prim(udf.Long)}}, Options{Seed: 3, Rows: 20000, NullRate: rate}, mem)
		require.NoError(t, err)
		want := rate
		switch {
		case rate == 0:
			want = DefaultNullRate
		case rate < 0:
			want = 0
		}
		col := rec.Column(0)
		nulls := 0
		for i := st.SpecialRows + st.NullRows; i < st.Rows; i++ {
			if col.IsNull(i) {
				nulls++
			}
		}
		got := float64(nulls) / float64(st.RandomRows)
		// 20,000 Bernoulli draws: 4 standard deviations is well under 0.015.
		assert.InDelta(t, want, got, 0.015, "rate %v", rate)
		rec.Release()
	}
}

func TestAllNullRowsPresent(t *testing.T) {
	mem := checkedMem(t)
	params := []Param{{"a", udf.Prim(udf.Int)}, {"b", mustType(t, "array<string>")}, {"c", mustType(t, "struct<x:int>")}}
	rec, st, err := Generate(params, Options{Seed: 1, Rows: 100}, mem)
	require.NoError(t, err)
	defer rec.Release()
	for r := st.SpecialRows; r < st.SpecialRows+st.NullRows; r++ {
		for c := range params {
			assert.True(t, rec.Column(c).IsNull(r))
		}
	}
}

func TestGenerate10000Rows(t *testing.T) {
	for _, tc := range []struct {
		name   string
		params []Param
	}{
		{"double", []Param{{"celsius", udf.Prim(udf.Double)}}},
		{"string,int,array<float>", []Param{{"s", udf.Prim(udf.String)}, {"n", udf.Prim(udf.Int)}, {"v", udf.ArrayOf(udf.Prim(udf.Float))}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mem := checkedMem(t)
			rec, st, err := Generate(tc.params, Options{Seed: 99, Rows: 10000}, mem)
			require.NoError(t, err)
			defer rec.Release()
			assert.EqualValues(t, 10000, rec.NumRows())
			assert.Equal(t, 10000, st.SpecialRows+st.NullRows+st.RandomRows)
			for c := range tc.params {
				require.NoError(t, array.ValidateFull(rec.Column(c)))
				distinct := map[string]bool{}
				for _, tok := range tokens(rec, c)[st.SpecialRows:] {
					distinct[tok] = true
				}
				assert.Greater(t, len(distinct), 1000, "random values vary")
			}
		})
	}
}

// Random doubles cover NaNs with payloads, infinities, subnormals and
// both signs; random ints the whole range; random strings astral text.
func TestRandomCoverage(t *testing.T) {
	mem := checkedMem(t)
	params := []Param{{"d", udf.Prim(udf.Double)}, {"l", udf.Prim(udf.Long)}, {"s", udf.Prim(udf.String)},
		{"dec", udf.DecimalOf(38, 10)}, {"ts", udf.Prim(udf.Timestamp)}, {"dt", udf.Prim(udf.Date)}}
	rec, st, err := Generate(params, Options{Seed: 5, Rows: 20000, NullRate: -1}, mem)
	require.NoError(t, err)
	defer rec.Release()
	from := st.SpecialRows + st.NullRows
	d := rec.Column(0).(*array.Float64)
	var nan, subnormal, neg, big bool
	for i := from; i < st.Rows; i++ {
		f := d.Value(i)
		nan = nan || math.IsNaN(f) && math.Float64bits(f) != canonicalNaN64
		subnormal = subnormal || f != 0 && math.Abs(f) < 0x1p-1022
		neg = neg || f < 0
		big = big || math.Abs(f) > 1e100
	}
	assert.True(t, nan && subnormal && neg && big, "nan %v subnormal %v neg %v big %v", nan, subnormal, neg, big)
	l := rec.Column(1).(*array.Int64)
	var huge, small bool
	for i := from; i < st.Rows; i++ {
		huge = huge || l.Value(i) > math.MaxInt64/2 || l.Value(i) < math.MinInt64/2
		small = small || l.Value(i) > -100 && l.Value(i) < 100
	}
	assert.True(t, huge && small)
	s := rec.Column(2).(*array.String)
	astral := false
	for i := from; i < st.Rows && !astral; i++ {
		for _, r := range s.Value(i) {
			astral = astral || r > 0xffff
		}
	}
	assert.True(t, astral)
	for c := 3; c < 6; c++ {
		for _, tok := range tokens(rec, c)[from:] {
			v, err := value.ParseToken(tok)
			require.NoError(t, err)
			switch v.Kind {
			case value.Decimal:
				require.Negative(t, v.Unscaled.CmpAbs(pow10(38)))
			case value.Timestamp:
				require.True(t, v.Int >= minTimestamp && v.Int <= maxTimestamp)
			case value.Date:
				require.True(t, v.Int >= minDate && v.Int <= maxDate)
			}
		}
	}
}

func TestGenerateErrors(t *testing.T) {
	mem := checkedMem(t)
	for _, tc := range []struct {
		name   string
		params []Param
		opts   Options
		want   string
	}{
		{"no name", []Param{{"", udf.Prim(udf.Int)}}, Options{}, "has no name"},
		{"twice", []Param{{"a", udf.Prim(udf.Int)}, {"a", udf.Prim(udf.Int)}}, Options{}, "name used twice"},
		{"unknown type", []Param{{"a", nil}}, Options{}, "type unknown"},
		{"nested unknown", []Param{{"a", udf.ArrayOf(nil)}}, Options{}, "type unknown"},
		{"bad decimal", []Param{{"a", udf.DecimalOf(40, 2)}}, Options{}, "not a valid Spark decimal"},
		{"map key map", []Param{{"a", udf.MapOf(udf.MapOf(udf.Prim(udf.Int), udf.Prim(udf.Int)), udf.Prim(udf.Int))}}, Options{}, "map keys of map type"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := Generate(tc.params, tc.opts, mem)
			var pe *ParamError
			require.ErrorAs(t, err, &pe)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	for _, o := range []Options{{Rows: -1}, {NullRate: 1.5}, {NullRate: math.NaN()}} {
		_, _, err := Generate([]Param{{"a", udf.Prim(udf.Int)}}, o, mem)
		require.True(t, errors.Is(err, ErrBadOptions), "%+v: %v", o, err)
	}
}

func TestNoParams(t *testing.T) {
	mem := checkedMem(t)
	rec, st, err := Generate(nil, Options{Rows: 10}, mem)
	require.NoError(t, err)
	defer rec.Release()
	assert.Equal(t, Stats{Rows: 10, RandomRows: 10}, st)
	assert.EqualValues(t, 10, rec.NumRows())
}
