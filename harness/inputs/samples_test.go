package inputs

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/value"
)

func sampleParams(t testing.TB) []Param {
	return []Param{
		{"d", udf.Prim(udf.Double)}, {"n", udf.Prim(udf.Int)}, {"s", udf.Prim(udf.String)},
		{"m", udf.DecimalOf(10, 2)}, {"a", mustType(t, "array<float>")}, {"day", udf.Prim(udf.Date)},
	}
}

func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	return path
}

// rowTokens renders each row of rec as its cells' tokens.
func rowTokens(rec arrow.RecordBatch) []string {
	cols := make([][]string, rec.NumCols())
	for c := range cols {
		cols[c] = tokens(rec, c)
	}
	out := make([]string, rec.NumRows())
	for r := range out {
		parts := make([]string, len(cols))
		for c := range cols {
			parts[c] = cols[c][r]
		}
		out[r] = strings.Join(parts, " | ")
	}
	return out
}

var wantSampleRows = []string{
	"d3ff8000000000000 | i12 | s0061002c0062 | m-12345@2 | [ f3fc00000 N ] | D19782",
	"d8000000000000000 | N | s | N | [ ] | D0",
	"d7ff8000000000001 | i-2147483648 | N | m0@2 | N | N",
	"d7ff8000000000000 | i2147483647 | s0020d83dde00 | m999999999@2 | [ f7f800000 ] | D-719162",
}

func TestLoadSamplesCSV(t *testing.T) {
	mem := checkedMem(t)
	// Columns in another order, an extra one, a quoted "" (empty string)
	// vs an empty cell (null), JSON for the array, CRLF line ends.
	path := writeFile(t, "samples.csv", "extra,D,n,s,m,a,day\r\n"+
		"x,1.5,12,\"a,b\",-123.45,\"[1.5, null]\",2024-02-29\r\n"+
		"y,-0.0,,\"\",,[],1970-01-01\r\n"+
		"\r\n"+
		"z,NaN(0x7ff8000000000001),-2147483648,,0,,\r\n"+
		"w,NaN,2147483647,\" 😀\",9999999.99,\"[\"\"Infinity\"\"]\",0001-01-01\r\n")
	rec, err := LoadSamples(path, sampleParams(t), mem)
	require.NoError(t, err)
	defer rec.Release()
	assert.Equal(t, wantSampleRows, rowTokens(rec))
}

func TestLoadSamplesJSONL(t *testing.T) {
	mem := checkedMem(t)
	path := writeFile(t, "samples.jsonl", `{"d": 1.5, "n": 12, "s": "a,b", "m": -123.45, "a": [1.5, null], "day": "2024-02-29", "other": {"x": 1}}
{"d": "-0.0", "s": "", "a": [], "day": "1970-01-01"}

{"d": "NaN(0x7ff8000000000001)", "n": -2147483648, "s": null, "m": "0"}
{"d": "NaN", "n": 2147483647, "s": " \ud83d\ude00", "m": 9999999.99, "a": ["Infinity"], "day": "0001-01-01"}
`)
	rec, err := LoadSamples(path, sampleParams(t), mem)
	require.NoError(t, err)
	defer rec.Release()
	assert.Equal(t, wantSampleRows, rowTokens(rec))
}

func TestLoadSamplesParquet(t *testing.T) {
	mem := checkedMem(t)
	// Written with pqarrow in types a little off the parameters' (float64
	// for the float array is narrowed only where exact, int64 for int,
	// decimal(5,1) for decimal(10,2), timestamps in milliseconds).
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "d", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "n", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "m", Type: &arrow.Decimal128Type{Precision: 5, Scale: 1}, Nullable: true},
		{Name: "a", Type: arrow.ListOf(arrow.PrimitiveTypes.Float64), Nullable: true},
		{Name: "day", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	b.Field(0).(*array.Float64Builder).AppendValues([]float64{1.5, -2.5}, nil)
	b.Field(1).(*array.Int64Builder).AppendValues([]int64{7, -7}, nil)
	b.Field(2).(*array.StringBuilder).AppendValues([]string{"ß", ""}, []bool{true, false})
	b.Field(3).(*array.Decimal128Builder).AppendValues([]decimal128.Num{decimal128.FromI64(-1234), decimal128.FromI64(5)}, nil)
	lb := b.Field(4).(*array.ListBuilder)
	lb.Append(true)
	lb.ValueBuilder().(*array.Float64Builder).AppendValues([]float64{0.5, 1e10}, nil)
	lb.AppendNull()
	b.Field(5).(*array.Date32Builder).AppendValues([]arrow.Date32{0, 2932896}, nil)
	b.Field(6).(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{1, -1}, nil)
	rec := b.NewRecordBatch()
	defer rec.Release()
	write := func(rec arrow.RecordBatch) string {
		var buf bytes.Buffer
		tbl := array.NewTableFromRecords(rec.Schema(), []arrow.RecordBatch{rec})
		defer tbl.Release()
		require.NoError(t, pqarrow.WriteTable(tbl, &buf, 1024, nil, pqarrow.DefaultWriterProps()))
		return writeFile(t, "samples.parquet", buf.String())
	}
	path := write(rec)
	params := append(sampleParams(t), Param{"ts", udf.Prim(udf.Timestamp)})
	got, err := LoadSamples(path, params, mem)
	require.NoError(t, err)
	defer got.Release()
	assert.Equal(t, []string{
		"d3ff8000000000000 | i7 | s00df | m-12340@2 | [ f3f000000 f501502f9 ] | D0 | P1000",
		"dc004000000000000 | i-7 | N | m50@2 | N | D2932896 | P-1000",
	}, rowTokens(got))

	// A bad value names the file, the row and the value.
	_, err = LoadSamples(path, []Param{{"n", udf.Prim(udf.Byte)}, {"a", mustType(t, "array<int>")}}, mem)
	var se *SampleError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, path, se.File)
	assert.Equal(t, "a", se.Column)
	assert.Equal(t, 1, se.Row)
	assert.ErrorIs(t, err, ErrBadValue)
	assert.Contains(t, err.Error(), "samples.parquet: row 1")

	// A double that a float cannot hold exactly is an error, not rounded.
	narrow, err := LoadSamples(path, []Param{{"d", udf.Prim(udf.Float)}, {"a", mustType(t, "array<float>")}}, mem)
	require.NoError(t, err) // 1.5, -2.5, 0.5, 1e10 are floats exactly
	narrow.Release()
	_, err = LoadSamples(path, []Param{{"ts", udf.Prim(udf.Date)}}, mem)
	require.ErrorContains(t, err, "cannot be a date")
	_, err = LoadSamples(path, []Param{{"missing", udf.Prim(udf.Int)}}, mem)
	require.ErrorIs(t, err, ErrMissingColumn)

	notParquet := writeFile(t, "bad.parquet", "PAR1 but not really")
	_, err = LoadSamples(notParquet, []Param{{"x", udf.Prim(udf.Int)}}, mem)
	require.ErrorAs(t, err, &se)
	assert.Contains(t, err.Error(), "bad.parquet: not a Parquet file")
}

func TestLoadSamplesErrors(t *testing.T) {
	mem := checkedMem(t)
	params := []Param{{"x", udf.Prim(udf.Int)}, {"y", udf.DecimalOf(4, 2)}, {"z", mustType(t, "map<double,string>")}}
	for _, tc := range []struct {
		name, file, text string
		line, row        int
		column, value    string
		is               error
		msg              string
	}{
		{"csv int", "s.csv", "x,y,z\n1,1.5,\n2, 3,\n", 3, 2, "y", " 3", ErrBadValue, "not a decimal number"},
		{"csv int syntax", "s.csv", "x,y,z\n\n1x,1,\n", 3, 1, "x", "1x", ErrBadValue, "not a int"},
		{"csv range", "s.csv", "x,y,z\n2147483648,1,\n", 2, 1, "x", "2147483648", ErrBadValue, "out of range for int"},
		{"csv rounding", "s.csv", "x,y,z\n1,1.234,\n", 2, 1, "y", "1.234", ErrBadValue, "more than 2 fractional digits"},
		{"csv precision", "s.csv", "x,y,z\n1,100,\n", 2, 1, "y", "100", ErrBadValue, "does not fit decimal(4,2)"},
		{"csv quoted empty int", "s.csv", "x,y,z\n\"\",1,\n", 2, 1, "x", "", ErrBadValue, "not a int"},
		{"csv fields", "s.csv", "x,y,z\n1,2\n", 2, 1, "", "", ErrBadRecord, "2 fields, the header has 3"},
		{"csv quote", "s.csv", "x,y,z\n1,2,\"{}\n", 2, 1, "", "", ErrBadRecord, "never closed"},
		{"csv bare quote", "s.csv", "x,y,z\n1,a\"b,\n", 2, 1, "", "", ErrBadRecord, "quote inside an unquoted field"},
		{"csv missing column", "s.csv", "x,y\n1,2\n", 1, 0, "z", "", ErrMissingColumn, "columns: x, y"},
		{"csv dup key", "s.csv", "x,y,z\n1,1,\"{\"\"1\"\":\"\"a\"\",\"\"1.0\"\":\"\"b\"\"}\"\n", 2, 1, "z", `{"1":"a","1.0":"b"}`, ErrBadValue, "appears twice"},
		{"csv -0.0 key", "s.csv", "x,y,z\n1,1,\"{\"\"-0.0\"\":\"\"a\"\"}\"\n", 2, 1, "z", `{"-0.0":"a"}`, ErrBadValue, "normalises -0.0"},
		{"jsonl syntax", "s.jsonl", "{\"x\":1,\"y\":1,\"z\":null}\n{\"x\":1,\n", 2, 2, "", "{\"x\":1,", ErrBadRecord, "not valid JSON"},
		{"jsonl not object", "s.jsonl", "[1]\n", 1, 1, "", "[1]", ErrBadRecord, "must be a JSON object"},
		{"jsonl type", "s.jsonl", "{\"x\":1,\"y\":1,\"z\":{}}\n{\"x\":\"2\",\"y\":1}\n", 2, 2, "x", "2", ErrBadValue, "a JSON string cannot be a int"},
		{"jsonl float int", "s.jsonl", "{\"x\":1.0,\"y\":1,\"z\":{}}\n", 1, 1, "x", "1.0", ErrBadValue, "not a int"},
		{"jsonl surrogate", "s.jsonl", "{\"x\":1,\"y\":1,\"z\":{\"1\":\"\\ud800\"}}\n", 1, 1, "", "", ErrBadRecord, "lone surrogate"},
		{"jsonl missing", "s.jsonl", "{\"x\":1,\"y\":1}\n", 0, 0, "z", "", ErrMissingColumn, "no line has a member"},
		{"jsonl nested", "s.jsonl", "{\"x\":1,\"y\":1,\"z\":{\"1\":5}}\n", 1, 1, "z", "{1:5}", ErrBadValue, "map value of \"1\": a JSON number cannot be a string"},
		{"unknown format", "s.txt", "x,y,z\n", 0, 0, "", "", ErrUnknownFormat, "use .parquet, .csv or .jsonl"},
		{"jsonl empty", "s.jsonl", "", 0, 0, "", "", ErrNoRows, "holds no rows"},
		{"jsonl blank lines", "s.jsonl", "\n  \n", 0, 0, "", "", ErrNoRows, "holds no rows"},
		{"csv header only", "s.csv", "x,y,z\n", 0, 0, "", "", ErrNoRows, "holds no rows"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, tc.file, tc.text)
			_, err := LoadSamples(path, params, mem)
			var se *SampleError
			require.ErrorAs(t, err, &se)
			assert.Equal(t, path, se.File)
			assert.Equal(t, tc.line, se.Line, "line")
			assert.Equal(t, tc.row, se.Row, "row")
			assert.Equal(t, tc.column, se.Column, "column")
			if tc.value != "" {
				assert.Equal(t, tc.value, se.Value)
			}
			assert.True(t, errors.Is(err, tc.is), "%v", err)
			assert.Contains(t, err.Error(), tc.msg)
			assert.True(t, strings.HasPrefix(err.Error(), path), "the message starts with the file: %v", err)
		})
	}
}

func TestParseTextForms(t *testing.T) {
	for _, tc := range []struct {
		ty, text, want string
	}{
		{"double", "NaN", "d7ff8000000000000"}, // not Go's 0x7ff8000000000001
		{"double", "-Infinity", "dfff0000000000000"},
		{"double", "0x1p-1074", "d0000000000000001"},
		{"double", "NaN(0xfff8000000000001)", "dfff8000000000001"},
		{"float", "NaN", "f7fc00000"},
		{"float", "0.1", "f3dcccccd"},
		{"float", "NaN(0x7f800001)", "f7f800001"},
		{"decimal(5,2)", "1e2", "m10000@2"},
		{"decimal(5,2)", "-.5", "m-50@2"},
		{"decimal(5,2)", "1.500", "m150@2"},
		{"boolean", "TRUE", "T"},
		{"binary", "X'00FF'", "b00ff"},
		{"binary", "0xdead", "bdead"},
		{"timestamp", "1970-01-01 00:00:00.000001", "P1"},
		{"timestamp", "1970-01-01T01:00:00+01:00", "P0"},
		{"timestamp", "9999-12-31T23:59:59.999999Z", "P253402300799999999"},
		{"struct<a:int,b:array<string>>", `{"b":["x",null]}`, "( N [ s0078 N ] )"},
		{"map<int,boolean>", `{"2":true,"1":null}`, "{ i2 T i1 N }"},
	} {
		v, err := parseText(tc.text, mustType(t, tc.ty))
		require.NoError(t, err, "%s %q", tc.ty, tc.text)
		assert.Equal(t, tc.want, value.Token(v), "%s %q", tc.ty, tc.text)
	}
	for _, tc := range []struct{ ty, text string }{
		{"double", " 1"}, {"double", "1e400"}, {"double", "NaN(0x3ff0000000000000)"}, {"int", "1_000"},
		{"date", "0000-12-31"}, {"date", "2024-02-30"}, {"timestamp", "2024-01-01T00:00:00.0000001Z"},
		{"decimal(3,0)", "1000"}, {"boolean", "yes"}, {"binary", "0xz"}, {"string", "\xff"},
		{"struct<a:int>", `{"b":1}`}, {"map<int,int>", `{"x":1}`}, {"array<int>", `[1,`},
	} {
		_, err := parseText(tc.text, mustType(t, tc.ty))
		assert.Error(t, err, "%s %q", tc.ty, tc.text)
	}
}

// Samples load through the same path as generated rows: every special
// written to JSON Lines as text comes back with the same bits.
func TestSamplesRoundTripSpecials(t *testing.T) {
	mem := checkedMem(t)
	var b strings.Builder
	specials := Specials(udf.Prim(udf.Double))
	for _, s := range specials {
		b.WriteString(`{"x":"` + s.String() + `"}` + "\n")
	}
	path := writeFile(t, "d.jsonl", b.String())
	rec, err := LoadSamples(path, []Param{{"x", udf.Prim(udf.Double)}}, mem)
	require.NoError(t, err)
	defer rec.Release()
	got := tokens(rec, 0)
	for i, s := range specials {
		assert.Equal(t, value.Token(s), got[i], "%s", s)
	}
}

func FuzzCSVSamples(f *testing.F) {
	f.Add("x,y,s\n1,2.5,a\n")
	f.Add("x,y,s\n\"\",,\"a\"\"b\"\n\r\n-1,NaN(0x7ff8000000000001),\"\n\"\n")
	f.Add("\ufeffs,x,y\n😀,2147483647,-0.0\n")
	f.Add("x,y,s\n1,\"[1,2]\",\"x\n")
	params := []Param{{"x", udf.Prim(udf.Int)}, {"y", udf.Prim(udf.Double)}, {"s", udf.Prim(udf.String)}}
	f.Fuzz(func(t *testing.T, text string) {
		cols, err := parseCSV("f.csv", strings.NewReader(text), params)
		checkFuzzResult(t, cols, err, params)
	})
}

func FuzzJSONLSamples(f *testing.F) {
	f.Add(`{"x":1,"y":2.5,"s":"a","a":[1,null],"m":{"1":"x"}}` + "\n")
	f.Add(`{"x":null,"y":"NaN","s":"\ud83d\ude00","a":[],"m":{}}` + "\n\n" + `{"x":-1}`)
	f.Add(`{"s":"\ud800"}`)
	f.Add(`{"a":[[[[[[1]]]]]]}`)
	params := []Param{{"x", udf.Prim(udf.Int)}, {"y", udf.Prim(udf.Double)}, {"s", udf.Prim(udf.String)},
		{"a", udf.ArrayOf(udf.Prim(udf.Long))}, {"m", udf.MapOf(udf.Prim(udf.Int), udf.Prim(udf.String))}}
	f.Fuzz(func(t *testing.T, text string) {
		cols, err := parseJSONL("f.jsonl", strings.NewReader(text), params)
		checkFuzzResult(t, cols, err, params)
	})
}

// checkFuzzResult: a reader either fails with a located *SampleError or
// returns equal-length columns that build into a valid batch.
func checkFuzzResult(t *testing.T, cols [][]value.Value, err error, params []Param) {
	if err != nil {
		var se *SampleError
		if !errors.As(err, &se) || se.File == "" {
			t.Fatalf("error is not a located SampleError: %v", err)
		}
		return
	}
	schema, serr := schemaOf(params)
	require.NoError(t, serr)
	for _, c := range cols[1:] {
		require.Len(t, c, len(cols[0]))
	}
	rec, berr := buildBatch("f", schema, cols, memory.NewGoAllocator())
	require.NoError(t, berr)
	defer rec.Release()
	require.NoError(t, array.ValidateRecordFull(rec))
}

func TestExactConversions(t *testing.T) {
	_, err := doubleToFloat(value.DoubleOf(0.1))
	require.ErrorContains(t, err, "not exactly a float")
	_, err = doubleToFloat(value.DoubleBits(0x7ff8000000000001))
	require.ErrorContains(t, err, "no exact float")
	v, err := doubleToFloat(value.DoubleBits(1 << 63))
	require.NoError(t, err)
	assert.Equal(t, "f80000000", value.Token(v))
	v, err = floatToDouble(value.FloatBits(canonicalNaN32))
	require.NoError(t, err)
	assert.Equal(t, "d7ff8000000000000", value.Token(v))
	_, err = floatToDouble(value.FloatBits(0x7fc00001))
	require.ErrorContains(t, err, "no exact double")
	v, err = floatToDouble(value.FloatBits(1))
	require.NoError(t, err)
	assert.Equal(t, "d36a0000000000000", value.Token(v)) // the smallest float subnormal
}
