// Package inputs generates the rows a differential test feeds both the
// original UDF and its rewrite: seeded, reproducible Arrow record batches
// built from the UDF's parameter types, holding every special value of
// every type, rows where every column is null, and seeded random values
// with a share of nulls. It also stores batches as Arrow IPC files and
// reads user-supplied sample rows (--samples) from Parquet, CSV and JSON
// Lines.
//
// Layout of a generated batch, in this order (Stats counts each part,
// and the schema's metadata records it, see StatsFromSchema):
//
//  1. special rows: for each parameter, each of its Specials with every
//     other parameter at its Representative; for two or more parameters,
//     each parameter null alone, then the cross product of the Core sets
//     when it has at most MaxCrossRows rows;
//  2. all-null rows;
//  3. random rows, each cell null with probability NullRate.
package inputs

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/value"
)

// Param is one UDF parameter: its name becomes the column name.
type Param struct {
	Name string
	Type *udf.Type
}

// DefaultNullRate is the share of random cells that are null when
// Options.NullRate is zero.
const DefaultNullRate = 0.05

// MaxCrossRows bounds the cross product of the parameters' Core sets;
// a larger product is left out (the per-parameter specials stay).
const MaxCrossRows = 2000

// AllNullRows is how many rows with every column null a batch holds.
const AllNullRows = 1

// Options control Generate.
type Options struct {
	Seed int64
	// Rows is the total number of rows, specials included; a batch always
	// holds every special and all-null row, so fewer rows than that
	// means just those.
	Rows int
	// NullRate is the probability that a random cell (or a random array
	// element, map value or struct field) is null: 0 means
	// DefaultNullRate, a negative value means no random nulls.
	NullRate float64
}

// Stats counts the rows of a generated batch by part.
type Stats struct {
	Rows        int // all rows
	SpecialRows int // the special part, first
	NullRows    int // rows with every column null, next
	RandomRows  int // the random part, last
}

// Schema metadata keys under which Generate records the layout.
const (
	MetaSeed        = "udfx.inputs.seed"
	MetaSpecialRows = "udfx.inputs.special_rows"
	MetaNullRows    = "udfx.inputs.null_rows"
	MetaRandomRows  = "udfx.inputs.random_rows"
	MetaNullRate    = "udfx.inputs.null_rate"
)

// ParamError is a parameter list Generate cannot build columns for.
type ParamError struct {
	Param  string // the parameter's name; "" when the name itself is wrong
	Index  int    // its position, from 0
	Reason string
}

func (e *ParamError) Error() string {
	return fmt.Sprintf("parameter %d (%q): %s", e.Index, e.Param, e.Reason)
}

// ErrBadOptions is wrapped by errors about Options values.
var ErrBadOptions = errors.New("bad input generation options")

// Generate builds the batch for params. The same params, Seed, Rows and
// NullRate give the same batch, byte for byte once written with WriteIPC.
// Each column draws its random values from its own PCG stream (seeded by
// Seed and the column's position), so adding a parameter does not change
// the values of the others. The caller releases the batch.
func Generate(params []Param, opts Options, mem memory.Allocator) (arrow.RecordBatch, Stats, error) {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	nullRate := opts.NullRate
	switch {
	case math.IsNaN(nullRate) || nullRate > 1:
		return nil, Stats{}, fmt.Errorf("%w: NullRate %v is not a probability", ErrBadOptions, nullRate)
	case nullRate == 0:
		nullRate = DefaultNullRate
	case nullRate < 0:
		nullRate = 0
	}
	if opts.Rows < 0 {
		return nil, Stats{}, fmt.Errorf("%w: Rows %d is negative", ErrBadOptions, opts.Rows)
	}
	schema, err := schemaOf(params)
	if err != nil {
		return nil, Stats{}, err
	}

	special := specialRows(params)
	st := Stats{SpecialRows: len(special)}
	if len(params) > 0 {
		st.NullRows = AllNullRows
	}
	st.Rows = max(opts.Rows, st.SpecialRows+st.NullRows)
	st.RandomRows = st.Rows - st.SpecialRows - st.NullRows

	meta := arrow.NewMetadata(
		[]string{MetaSeed, MetaSpecialRows, MetaNullRows, MetaRandomRows, MetaNullRate},
		[]string{strconv.FormatInt(opts.Seed, 10), strconv.Itoa(st.SpecialRows), strconv.Itoa(st.NullRows),
			strconv.Itoa(st.RandomRows), strconv.FormatFloat(nullRate, 'g', -1, 64)})
	schema = arrow.NewSchema(schema.Fields(), &meta)

	cols := make([]arrow.Array, len(params))
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for i, p := range params {
		b := array.NewBuilder(mem, schema.Field(i).Type)
		col, err := buildColumn(b, i, p, special, st, opts.Seed, nullRate)
		b.Release()
		if err != nil {
			return nil, Stats{}, fmt.Errorf("parameter %q: %w", p.Name, err)
		}
		cols[i] = col
	}
	return array.NewRecordBatch(schema, cols, int64(st.Rows)), st, nil
}

func buildColumn(b array.Builder, i int, p Param, special [][]value.Value, st Stats, seed int64, nullRate float64) (arrow.Array, error) {
	b.Reserve(st.Rows)
	for r, row := range special {
		if err := value.Append(b, row[i]); err != nil {
			return nil, fmt.Errorf("special row %d: %w", r, err)
		}
	}
	for range st.NullRows {
		b.AppendNull()
	}
	g := newRandom(seed, i, nullRate)
	for r := range st.RandomRows {
		if err := g.appendCell(b, p.Type); err != nil {
			return nil, fmt.Errorf("random row %d: %w", st.SpecialRows+st.NullRows+r, err)
		}
	}
	return b.NewArray(), nil
}

// schemaOf checks params and returns their Arrow schema.
func schemaOf(params []Param) (*arrow.Schema, error) {
	fields := make([]arrow.Field, len(params))
	seen := map[string]bool{}
	for i, p := range params {
		if p.Name == "" {
			return nil, &ParamError{Index: i, Reason: "has no name"}
		}
		if seen[p.Name] {
			return nil, &ParamError{Param: p.Name, Index: i, Reason: "name used twice"}
		}
		seen[p.Name] = true
		if err := checkType(p.Type); err != nil {
			return nil, &ParamError{Param: p.Name, Index: i, Reason: err.Error()}
		}
		dt, err := value.ArrowType(p.Type)
		if err != nil {
			return nil, &ParamError{Param: p.Name, Index: i, Reason: err.Error()}
		}
		fields[i] = arrow.Field{Name: p.Name, Type: dt, Nullable: true}
	}
	return arrow.NewSchema(fields, nil), nil
}

// checkType rejects types that have no values to generate: a missing
// (unknown) type, a bad decimal, a map keyed by a map (Spark forbids it).
func checkType(t *udf.Type) error {
	if t == nil {
		return errors.New("type unknown")
	}
	switch t.Kind {
	case udf.Boolean, udf.Byte, udf.Short, udf.Int, udf.Long, udf.Float, udf.Double,
		udf.String, udf.Binary, udf.Date, udf.Timestamp:
		return nil
	case udf.Decimal:
		if t.Precision < 1 || t.Precision > udf.MaxDecimalPrecision || t.Scale < 0 || t.Scale > t.Precision {
			return fmt.Errorf("type %s is not a valid Spark decimal", t)
		}
		return nil
	case udf.Array:
		return checkType(t.Elem)
	case udf.Map:
		if t.Key != nil && t.Key.Kind == udf.Map {
			return fmt.Errorf("type %s: Spark does not allow map keys of map type", t)
		}
		if err := checkType(t.Key); err != nil {
			return err
		}
		return checkType(t.Value)
	case udf.Struct:
		for _, f := range t.Fields {
			if err := checkType(f.Type); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("type %q is not supported", t.Kind)
}

// specialRows lays out the special part, row by row (see the package
// comment).
func specialRows(params []Param) [][]value.Value {
	n := len(params)
	if n == 0 {
		return nil
	}
	reps := make([]value.Value, n)
	for i, p := range params {
		reps[i] = Representative(p.Type)
	}
	with := func(i int, v value.Value) []value.Value {
		row := append([]value.Value{}, reps...)
		row[i] = v
		return row
	}
	var rows [][]value.Value
	for i, p := range params {
		for _, s := range Specials(p.Type) {
			rows = append(rows, with(i, s))
		}
	}
	if n < 2 {
		return rows
	}
	for i := range params {
		rows = append(rows, with(i, value.NullValue()))
	}
	cores := make([][]value.Value, n)
	product := 1
	for i, p := range params {
		cores[i] = Core(p.Type)
		product *= len(cores[i])
		if product > MaxCrossRows {
			return rows
		}
	}
	idx := make([]int, n)
	for range product {
		row := make([]value.Value, n)
		for i := range n {
			row[i] = cores[i][idx[i]]
		}
		rows = append(rows, row)
		for i := n - 1; i >= 0; i-- { // odometer: the last parameter turns fastest
			idx[i]++
			if idx[i] < len(cores[i]) {
				break
			}
			idx[i] = 0
		}
	}
	return rows
}

// StatsFromSchema reads the layout Generate recorded in a batch's schema
// (also after an IPC round trip); ok is false for other batches.
func StatsFromSchema(s *arrow.Schema) (st Stats, ok bool) {
	md := s.Metadata()
	get := func(k string) (int, bool) {
		i := md.FindKey(k)
		if i < 0 {
			return 0, false
		}
		n, err := strconv.Atoi(md.Values()[i])
		return n, err == nil && n >= 0
	}
	var ok1, ok2, ok3 bool
	st.SpecialRows, ok1 = get(MetaSpecialRows)
	st.NullRows, ok2 = get(MetaNullRows)
	st.RandomRows, ok3 = get(MetaRandomRows)
	st.Rows = st.SpecialRows + st.NullRows + st.RandomRows
	return st, ok1 && ok2 && ok3
}

// random draws the random part of one column.
type random struct {
	r        *rand.Rand
	nullRate float64
}

func newRandom(seed int64, column int, nullRate float64) *random {
	// One PCG stream per column: the column's position picks the stream.
	return &random{
		r:        rand.New(rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15^uint64(column)*0xbf58476d1ce4e5b9)),
		nullRate: nullRate,
	}
}

func (g *random) isNull() bool { return g.nullRate > 0 && g.r.Float64() < g.nullRate }

// appendCell appends one random cell, null with probability nullRate.
// Fixed-width types go straight into their builders, the hot path of
// large batches; the rest go through value.Value.
func (g *random) appendCell(b array.Builder, t *udf.Type) error {
	if g.isNull() {
		b.AppendNull()
		return nil
	}
	switch bb := b.(type) {
	case *array.Float64Builder:
		bb.Append(math.Float64frombits(g.doubleBits()))
		return nil
	case *array.Float32Builder:
		bb.Append(math.Float32frombits(g.floatBits()))
		return nil
	case *array.Int64Builder:
		bb.Append(g.integer(64))
		return nil
	case *array.Int32Builder:
		bb.Append(int32(g.integer(32)))
		return nil
	}
	return value.Append(b, g.value(t))
}

// cell returns a random value or, with probability nullRate, null.
func (g *random) cell(t *udf.Type) value.Value {
	if g.isNull() {
		return value.NullValue()
	}
	return g.value(t)
}

// value returns a random non-null value of t.
func (g *random) value(t *udf.Type) value.Value {
	r := g.r
	switch t.Kind {
	case udf.Boolean:
		return value.BoolOf(r.IntN(2) == 1)
	case udf.Byte:
		return value.IntOf(g.integer(8))
	case udf.Short:
		return value.IntOf(g.integer(16))
	case udf.Int:
		return value.IntOf(g.integer(32))
	case udf.Long:
		return value.IntOf(g.integer(64))
	case udf.Float:
		return value.FloatBits(g.floatBits())
	case udf.Double:
		return value.DoubleBits(g.doubleBits())
	case udf.Decimal:
		return g.decimal(t.Precision, t.Scale)
	case udf.String:
		return value.StringOf(g.text())
	case udf.Binary:
		n := r.IntN(33)
		if r.IntN(10) == 0 {
			n = r.IntN(257)
		}
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		return value.BinaryOf(b)
	case udf.Date:
		if r.IntN(4) == 0 { // 1900-01-01 .. 2100-12-31, where most data lives
			return value.DateOf(-25567 + r.Int64N(47482+25567+1))
		}
		return value.DateOf(minDate + r.Int64N(maxDate-minDate+1))
	case udf.Timestamp:
		if r.IntN(2) == 0 { // 1970 .. 2040
			return value.TimestampOf(r.Int64N(2208988800_000000))
		}
		return value.TimestampOf(minTimestamp + r.Int64N(maxTimestamp-minTimestamp+1))
	case udf.Array:
		elems := make([]value.Value, g.length())
		for i := range elems {
			elems[i] = g.cell(t.Elem)
		}
		return value.ArrayOf(elems...)
	case udf.Map:
		n := g.length()
		kv := make([]value.Value, 0, 2*n)
		seen := map[string]bool{}
		for try := 0; len(kv) < 2*n && try < 4*n; try++ {
			k := g.value(t.Key) // Spark map keys are never null
			if containsFloatKeyTrap(k) {
				continue // Spark would normalise it (spark_facts.txt)
			}
			tok := value.Token(k)
			if seen[tok] {
				continue // duplicate keys are an error in Spark
			}
			seen[tok] = true
			kv = append(kv, k, g.cell(t.Value))
		}
		return value.MapOf(kv...)
	case udf.Struct:
		f := make([]value.Value, len(t.Fields))
		for i, sf := range t.Fields {
			f[i] = g.cell(sf.Type)
		}
		return value.StructOf(f...)
	}
	return value.NullValue()
}

// length of a random array or map: mostly short, sometimes longer.
func (g *random) length() int {
	if g.r.IntN(10) == 0 {
		return g.r.IntN(50)
	}
	return g.r.IntN(6)
}

// integer covers the whole range of a bits-wide integer: uniform draws,
// small values, and values of every magnitude (a random bit length).
func (g *random) integer(bits uint) int64 {
	r := g.r
	switch r.IntN(4) {
	case 0, 1:
		return int64(r.Uint64()) >> (64 - bits) // uniform over the type
	case 2:
		return int64(r.IntN(201) - 100)
	default:
		n := 1 + r.IntN(int(bits)-1) // magnitude below 2^n, n < bits
		v := int64(r.Uint64() >> (64 - uint(n)))
		if r.IntN(2) == 0 {
			v = -v
		}
		return v
	}
}

// doubleBits draws a double: any bit pattern (NaNs with payloads,
// subnormals, infinities), values of every binary magnitude, ordinary
// magnitudes, cents-like values (23.45) and small integers. Only exact
// IEEE operations are used, so every platform draws the same bits.
func (g *random) doubleBits() uint64 {
	r := g.r
	switch r.IntN(8) {
	case 0:
		return r.Uint64()
	case 1, 2: // 2^-40 .. 2^40, random sign and mantissa
		exp := uint64(1023 - 40 + r.IntN(81))
		return r.Uint64()&(1<<63|1<<52-1) | exp<<52
	case 3, 4:
		x := float64(r.Float64() * 2000)
		return math.Float64bits(x - 1000)
	case 5, 6:
		return math.Float64bits(float64(r.IntN(100001)-50000) / 100)
	default:
		return math.Float64bits(float64(r.IntN(201) - 100))
	}
}

// floatBits is doubleBits for 32-bit floats.
func (g *random) floatBits() uint32 {
	r := g.r
	switch r.IntN(8) {
	case 0:
		return r.Uint32()
	case 1, 2: // 2^-20 .. 2^20
		exp := uint32(127 - 20 + r.IntN(41))
		return r.Uint32()&(1<<31|1<<23-1) | exp<<23
	case 3, 4:
		x := float32(r.Float32() * 2000)
		return math.Float32bits(x - 1000)
	case 5, 6:
		return math.Float32bits(float32(r.IntN(100001)-50000) / 100)
	default:
		return math.Float32bits(float32(r.IntN(201) - 100))
	}
}

// decimal draws a decimal(p,s) with a random number of digits (1..p)
// and a random sign, so every magnitude the type holds turns up.
func (g *random) decimal(p, s int) value.Value {
	r := g.r
	n := 1 + r.IntN(p)
	digits := make([]byte, n)
	for i := range digits {
		digits[i] = byte('0' + r.IntN(10))
	}
	u, _ := new(big.Int).SetString(string(digits), 10)
	if r.IntN(2) == 0 {
		u.Neg(u)
	}
	return value.DecimalOf(u, int32(s))
}

// Character classes of random strings.
var (
	randWhitespace = []rune{' ', '\t', '\n', '\r', 0x00, 0x01, 0x1f, 0x7f, 0x85, 0xa0, 0x2003, 0x3000, 0x200b, 0xfeff}
	randScripts    = [][2]rune{
		{0x391, 0x3c9}, {0x410, 0x44f}, {0x5d0, 0x5ea}, {0x627, 0x64a}, // Greek, Cyrillic, Hebrew, Arabic
		{0x4e00, 0x9fff}, {0xac00, 0xd7a3}, {0x900, 0x97f}, // CJK, Hangul, Devanagari
	}
	randAstral = [][2]rune{
		{0x1f600, 0x1f64f}, {0x1f300, 0x1f5ff}, {0x1f1e6, 0x1f1ff}, // emoji, symbols, regional indicators
		{0x1d400, 0x1d7ff}, {0x10400, 0x1044f}, {0x20000, 0x2a6df}, // math letters, Deseret, CJK ext. B
	}
)

// text draws a string of random length mixing ASCII, Latin, other
// scripts, astral characters (two UTF-16 units each), whitespace and
// control characters, number-like characters and combining marks. It is
// valid UTF-8 (no surrogates), as Arrow strings must be.
func (g *random) text() string {
	r := g.r
	n := r.IntN(17)
	if r.IntN(10) == 0 {
		n = r.IntN(201)
	}
	runes := make([]rune, n)
	pick := func(rg [2]rune) rune { return rg[0] + rune(r.IntN(int(rg[1]-rg[0]+1))) }
	for i := range runes {
		c := r.IntN(100)
		switch {
		case c < 55:
			runes[i] = rune(0x20 + r.IntN(0x7f-0x20))
		case c < 65:
			runes[i] = rune(0xa1 + r.IntN(0x250-0xa1))
		case c < 77:
			runes[i] = pick(randScripts[r.IntN(len(randScripts))])
		case c < 85:
			runes[i] = pick(randAstral[r.IntN(len(randAstral))])
		case c < 91:
			runes[i] = randWhitespace[r.IntN(len(randWhitespace))]
		case c < 97:
			runes[i] = rune("0123456789+-.eE,_"[r.IntN(17)])
		default:
			runes[i] = rune(0x300 + r.IntN(0x70)) // combining marks
		}
	}
	return string(runes)
}
