package inputs

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/value"
	"github.com/udfx/udfx/internal/regular"
)

// Errors a SampleError wraps where callers may tell the cases apart.
var (
	ErrUnknownFormat = errors.New("unknown samples format: use .parquet, .csv or .jsonl")
	ErrMissingColumn = errors.New("no such column")
	ErrBadValue      = errors.New("cannot read value")
	ErrBadRecord     = errors.New("malformed record")
	// ErrNoRows is a file without a data row: the user asked for rows to
	// be tested and there are none (an empty export, the wrong file).
	ErrNoRows = errors.New("the file holds no rows")
)

// SampleError is a sample file that could not be read, located as
// precisely as the format allows.
type SampleError struct {
	File   string
	Line   int    // 1-based line in the file (CSV, JSON Lines); 0 when unknown
	Row    int    // 1-based data row (the CSV header is not a row); 0 for the whole file
	Column string // the column (parameter), when one is at fault
	Value  string // the text or value that could not be read, when one is at fault
	Err    error
}

func (e *SampleError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	if e.Row > 0 {
		fmt.Fprintf(&b, ": row %d", e.Row)
	}
	if e.Column != "" {
		fmt.Fprintf(&b, ": column %q", e.Column)
	}
	if e.Value != "" || errors.Is(e.Err, ErrBadValue) {
		v := e.Value
		if utf8.RuneCountInString(v) > 80 {
			v = string([]rune(v)[:80]) + "…"
		}
		fmt.Fprintf(&b, ": value %q", v)
	}
	fmt.Fprintf(&b, ": %v", e.Err)
	return b.String()
}

func (e *SampleError) Unwrap() error { return e.Err }

// badValue wraps a conversion failure so that errors.Is finds ErrBadValue.
func badValue(err error) error { return fmt.Errorf("%w: %w", ErrBadValue, err) }

// LoadSamples reads user-supplied rows (udfx test --samples FILE) and
// converts them to params' types. The format comes from the extension
// (.parquet/.pq, .csv, .jsonl/.ndjson/.json), or from the content when the
// extension says nothing (Parquet's PAR1 magic, a leading '{').
// Columns are found by parameter name (exactly, else by a unique
// case-insensitive match); other columns are ignored. Conversions are
// exact: a value the parameter type cannot hold as it is (out of range,
// needing rounding, a NaN payload a float cannot keep) is an error,
// never rounded. Errors are *SampleError.
//
//   - CSV: RFC 4180 with a header row. An empty unquoted cell is null; a
//     quoted empty cell ("") is the empty string (or empty binary).
//     Cells are read with parseText's forms; arrays, maps and structs as
//     JSON text. Blank lines are skipped.
//   - JSON Lines: one object per line, members by parameter name; a
//     missing member is null, but a parameter no line mentions is an
//     error (a misspelt name). See fromJSON for the value forms.
//   - Parquet: read through pqarrow; Arrow values convert exactly.
func LoadSamples(path string, params []Param, mem memory.Allocator) (arrow.RecordBatch, error) {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	schema, err := schemaOf(params)
	if err != nil {
		return nil, &SampleError{File: path, Err: err}
	}
	format, err := sampleFormat(path)
	if err != nil {
		return nil, err
	}
	var cols [][]value.Value
	switch format {
	case "parquet":
		cols, err = readParquet(path, params, mem)
	case "csv":
		cols, err = readCSV(path, params)
	default:
		cols, err = readJSONL(path, params)
	}
	if err != nil {
		return nil, err
	}
	if len(cols) > 0 && len(cols[0]) == 0 {
		return nil, &SampleError{File: path, Err: ErrNoRows}
	}
	return buildBatch(path, schema, cols, mem)
}

// MaxSampleFileBytes and MaxSampleLineBytes bound what a sample file may
// make udfx read: a device such as /dev/zero, or a file without newlines,
// would otherwise grow memory without end.
const (
	MaxSampleFileBytes = 1 << 30
	MaxSampleLineBytes = 16 << 20
)

// openSample opens a sample file if it is a regular file: a named pipe
// would block in open, a device never ends.
func openSample(path string) (*os.File, error) {
	f, err := regular.Open(path)
	if err != nil {
		var nr *regular.NotRegularError
		if errors.As(err, &nr) {
			return nil, &SampleError{File: path, Err: errors.New(nr.Reason())}
		}
		return nil, &SampleError{File: path, Err: err}
	}
	return f, nil
}

// boundedText reads a text sample within MaxSampleFileBytes and
// MaxSampleLineBytes.
func boundedText(f *os.File) io.Reader {
	return regular.LimitLines(regular.Limit("", f, MaxSampleFileBytes), MaxSampleLineBytes)
}

func sampleFormat(path string) (string, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".parquet", ".pq":
		return "parquet", nil
	case ".csv":
		return "csv", nil
	case ".jsonl", ".ndjson", ".json":
		return "jsonl", nil
	}
	f, err := openSample(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	head := make([]byte, 512)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	switch {
	case bytes.HasPrefix(head, []byte("PAR1")):
		return "parquet", nil
	case bytes.HasPrefix(bytes.TrimLeft(head, " \t\r\n\ufeff"), []byte("{")):
		return "jsonl", nil
	}
	return "", &SampleError{File: path, Err: ErrUnknownFormat}
}

// buildBatch stores converted columns in a batch of schema.
func buildBatch(path string, schema *arrow.Schema, cols [][]value.Value, mem memory.Allocator) (arrow.RecordBatch, error) {
	arrs := make([]arrow.Array, len(cols))
	defer func() {
		for _, a := range arrs {
			if a != nil {
				a.Release()
			}
		}
	}()
	rows := 0
	for i, col := range cols {
		rows = len(col)
		b := array.NewBuilder(mem, schema.Field(i).Type)
		for r, v := range col {
			if err := value.Append(b, v); err != nil {
				b.Release()
				return nil, &SampleError{File: path, Row: r + 1, Column: schema.Field(i).Name, Value: v.String(), Err: badValue(err)}
			}
		}
		arrs[i] = b.NewArray()
		b.Release()
	}
	return array.NewRecordBatch(schema, arrs, int64(rows)), nil
}

// nameIndex finds name among names: exactly, else a unique
// case-insensitive match; -1 when none or several match.
func nameIndex(names []string, name string) int {
	for i, n := range names {
		if n == name {
			return i
		}
	}
	found := -1
	for i, n := range names {
		if strings.EqualFold(n, name) {
			if found >= 0 {
				return -1
			}
			found = i
		}
	}
	return found
}

// ---- CSV ----

// csvRecord is one CSV record: its fields, which of them were quoted,
// and the line it starts on.
type csvRecord struct {
	fields []string
	quoted []bool
	line   int
}

// csvReader reads RFC 4180 records, keeping what encoding/csv drops:
// whether a field was quoted (a quoted empty field is "", an unquoted one
// null).
type csvReader struct {
	r    *bufio.Reader
	line int // the line the next byte is on
}

func (c *csvReader) read() (csvRecord, error) {
	rec := csvRecord{line: c.line}
	var field []byte
	quoted, inQuotes, afterQuote, started := false, false, false, false
	flush := func() {
		rec.fields = append(rec.fields, string(field))
		rec.quoted = append(rec.quoted, quoted)
		field, quoted, afterQuote = field[:0:0], false, false
	}
	for {
		ch, err := c.r.ReadByte()
		if err == io.EOF {
			if inQuotes {
				return rec, fmt.Errorf("%w: quoted field opened on line %d is never closed", ErrBadRecord, rec.line)
			}
			if !started {
				return rec, io.EOF
			}
			flush()
			return rec, nil
		}
		if err != nil {
			return rec, err
		}
		started = true
		switch {
		case inQuotes:
			if ch == '\n' {
				c.line++
			}
			if ch == '"' {
				if next, err := c.r.Peek(1); err == nil && next[0] == '"' {
					c.r.ReadByte()
					field = append(field, '"')
					continue
				}
				inQuotes, afterQuote = false, true
				continue
			}
			field = append(field, ch)
		case ch == ',':
			flush()
		case ch == '\r':
			if next, err := c.r.Peek(1); err == nil && next[0] == '\n' {
				continue // \r\n ends the record at \n
			}
			if afterQuote {
				return rec, fmt.Errorf("%w: text after a closing quote", ErrBadRecord)
			}
			field = append(field, ch)
		case ch == '\n':
			c.line++
			flush()
			return rec, nil
		case afterQuote:
			return rec, fmt.Errorf("%w: text after a closing quote", ErrBadRecord)
		case ch == '"':
			if len(field) > 0 {
				return rec, fmt.Errorf("%w: a quote inside an unquoted field (quote the field and double the quote)", ErrBadRecord)
			}
			inQuotes, quoted = true, true
		default:
			field = append(field, ch)
		}
	}
}

func readCSV(path string, params []Param) ([][]value.Value, error) {
	f, err := openSample(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parseCSV(path, boundedText(f), params)
}

// parseCSV is readCSV on a reader (the fuzz test drives it directly).
func parseCSV(path string, r io.Reader, params []Param) ([][]value.Value, error) {
	br := bufio.NewReader(r)
	if bom, err := br.Peek(3); err == nil && string(bom) == "\ufeff" {
		br.Discard(3)
	}
	cr := &csvReader{r: br, line: 1}
	var header csvRecord
	for {
		h, err := cr.read()
		if err == io.EOF {
			return nil, &SampleError{File: path, Err: fmt.Errorf("%w: no header row", ErrBadRecord)}
		}
		if err != nil {
			return nil, &SampleError{File: path, Line: h.line, Err: err}
		}
		if !isBlank(h) {
			header = h
			break
		}
	}
	cols, err := columnIndexes(path, header.line, header.fields, params)
	if err != nil {
		return nil, err
	}
	out := make([][]value.Value, len(params))
	row := 0
	for {
		rec, err := cr.read()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, &SampleError{File: path, Line: rec.line, Row: row + 1, Err: err}
		}
		if isBlank(rec) {
			continue
		}
		row++
		if len(rec.fields) != len(header.fields) {
			return nil, &SampleError{File: path, Line: rec.line, Row: row,
				Err: fmt.Errorf("%w: %d fields, the header has %d", ErrBadRecord, len(rec.fields), len(header.fields))}
		}
		for i, p := range params {
			cell, q := rec.fields[cols[i]], rec.quoted[cols[i]]
			v, err := csvCell(cell, q, p.Type)
			if err != nil {
				return nil, &SampleError{File: path, Line: rec.line, Row: row, Column: p.Name, Value: cell, Err: badValue(err)}
			}
			out[i] = append(out[i], v)
		}
	}
}

func isBlank(r csvRecord) bool { return len(r.fields) == 1 && r.fields[0] == "" && !r.quoted[0] }

func csvCell(cell string, quoted bool, t *udf.Type) (value.Value, error) {
	if cell == "" && !quoted {
		return value.NullValue(), nil
	}
	if cell == "" {
		switch t.Kind {
		case udf.String:
			return value.StringOf(""), nil
		case udf.Binary:
			return value.BinaryOf([]byte{}), nil
		}
	}
	return parseText(cell, t)
}

// columnIndexes maps each parameter to its column among names.
func columnIndexes(path string, line int, names []string, params []Param) ([]int, error) {
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			return nil, &SampleError{File: path, Line: line, Column: n, Err: fmt.Errorf("%w: the column name appears twice", ErrBadRecord)}
		}
		seen[n] = true
	}
	idx := make([]int, len(params))
	for i, p := range params {
		idx[i] = nameIndex(names, p.Name)
		if idx[i] < 0 {
			return nil, &SampleError{File: path, Line: line, Column: p.Name,
				Err: fmt.Errorf("%w for parameter %q (columns: %s)", ErrMissingColumn, p.Name, strings.Join(names, ", "))}
		}
	}
	return idx, nil
}

// ---- JSON Lines ----

func readJSONL(path string, params []Param) ([][]value.Value, error) {
	f, err := openSample(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parseJSONL(path, boundedText(f), params)
}

// parseJSONL is readJSONL on a reader (the fuzz test drives it directly).
func parseJSONL(path string, r io.Reader, params []Param) ([][]value.Value, error) {
	br := bufio.NewReader(r)
	out := make([][]value.Value, len(params))
	mentioned := make([]bool, len(params))
	names := make([]string, len(params))
	for i, p := range params {
		names[i] = p.Name
	}
	row := 0
	for line := 1; ; line++ {
		text, err := br.ReadBytes('\n')
		if err != nil && err != io.EOF {
			return nil, &SampleError{File: path, Line: line, Err: err}
		}
		if line == 1 {
			text = bytes.TrimPrefix(text, []byte("\ufeff"))
		}
		if trimmed := bytes.TrimSpace(text); len(trimmed) > 0 {
			row++
			if err := jsonlRow(path, line, row, trimmed, params, names, mentioned, out); err != nil {
				return nil, err
			}
		}
		if err == io.EOF {
			break
		}
	}
	for i, p := range params {
		if !mentioned[i] && row > 0 {
			return nil, &SampleError{File: path, Column: p.Name, Err: fmt.Errorf("%w: no line has a member for parameter %q", ErrMissingColumn, p.Name)}
		}
	}
	return out, nil
}

func jsonlRow(path string, line, row int, text []byte, params []Param, names []string, mentioned []bool, out [][]value.Value) error {
	n, err := parseJSON(text)
	if err != nil {
		return &SampleError{File: path, Line: line, Row: row, Value: string(text), Err: fmt.Errorf("%w: %w", ErrBadRecord, err)}
	}
	if n.kind != jobj {
		return &SampleError{File: path, Line: line, Row: row, Value: string(text), Err: fmt.Errorf("%w: a line must be a JSON object", ErrBadRecord)}
	}
	vals := make([]value.Value, len(params))
	set := make([]bool, len(params))
	for k, key := range n.keys {
		i := nameIndex(names, key)
		if i < 0 {
			continue // a member for no parameter
		}
		if set[i] {
			return &SampleError{File: path, Line: line, Row: row, Column: params[i].Name, Err: fmt.Errorf("%w: the member appears twice", ErrBadRecord)}
		}
		set[i], mentioned[i] = true, true
		v, err := fromJSON(n.vals[k], params[i].Type)
		if err != nil {
			return &SampleError{File: path, Line: line, Row: row, Column: params[i].Name, Value: jsonText(n.vals[k]), Err: badValue(err)}
		}
		vals[i] = v
	}
	for i := range params {
		out[i] = append(out[i], vals[i])
	}
	return nil
}

// jsonText renders a JSON node back to short text for error messages.
func jsonText(n jnode) string {
	switch n.kind {
	case jnull:
		return "null"
	case jbool:
		if n.b {
			return "true"
		}
		return "false"
	case jnum, jstr:
		return n.text
	case jarr:
		parts := make([]string, len(n.arr))
		for i, e := range n.arr {
			parts[i] = jsonText(e)
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
	parts := make([]string, len(n.keys))
	for i, k := range n.keys {
		parts[i] = k + ":" + jsonText(n.vals[i])
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// ---- Parquet ----

func readParquet(path string, params []Param, mem memory.Allocator) ([][]value.Value, error) {
	f, err := openSample(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil {
		return nil, &SampleError{File: path, Err: err}
	} else if fi.Size() > MaxSampleFileBytes {
		return nil, &SampleError{File: path, Err: &regular.TooLargeError{Max: MaxSampleFileBytes}}
	}
	rdr, err := file.NewParquetReader(f)
	if err != nil {
		return nil, &SampleError{File: path, Err: fmt.Errorf("not a Parquet file: %w", err)}
	}
	defer rdr.Close()
	fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{}, mem)
	if err != nil {
		return nil, &SampleError{File: path, Err: fmt.Errorf("reading Parquet: %w", err)}
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		return nil, &SampleError{File: path, Err: fmt.Errorf("reading Parquet: %w", err)}
	}
	defer tbl.Release()
	names := make([]string, tbl.NumCols())
	for i := range names {
		names[i] = tbl.Column(i).Name()
	}
	idx, err := columnIndexes(path, 0, names, params)
	if err != nil {
		return nil, err
	}
	out := make([][]value.Value, len(params))
	for i, p := range params {
		row := 0
		for _, chunk := range tbl.Column(idx[i]).Data().Chunks() {
			for j := range chunk.Len() {
				row++
				v, err := fromArrow(chunk, j, p.Type)
				if err != nil {
					return nil, &SampleError{File: path, Row: row, Column: p.Name, Value: chunk.ValueStr(j), Err: badValue(err)}
				}
				out[i] = append(out[i], v)
			}
		}
	}
	return out, nil
}

// fromArrow reads row i of arr as a value of type t, converting only
// where the conversion is exact.
func fromArrow(arr arrow.Array, i int, t *udf.Type) (value.Value, error) {
	if arr.IsNull(i) {
		return value.NullValue(), nil
	}
	src, err := arrowScalar(arr, i, t)
	if err != nil {
		return value.Value{}, err
	}
	return convert(src, arr.DataType(), t)
}

// arrowScalar reads row i of arr, recursing with the target type so that
// struct fields are matched by name.
func arrowScalar(arr arrow.Array, i int, t *udf.Type) (value.Value, error) {
	switch a := arr.(type) {
	case *array.Boolean:
		return value.BoolOf(a.Value(i)), nil
	case *array.Int8:
		return value.IntOf(int64(a.Value(i))), nil
	case *array.Int16:
		return value.IntOf(int64(a.Value(i))), nil
	case *array.Int32:
		return value.IntOf(int64(a.Value(i))), nil
	case *array.Int64:
		return value.IntOf(a.Value(i)), nil
	case *array.Uint8:
		return value.IntOf(int64(a.Value(i))), nil
	case *array.Uint16:
		return value.IntOf(int64(a.Value(i))), nil
	case *array.Uint32:
		return value.IntOf(int64(a.Value(i))), nil
	case *array.Uint64:
		if a.Value(i) > math.MaxInt64 {
			return value.Value{}, errors.New("out of range for bigint")
		}
		return value.IntOf(int64(a.Value(i))), nil
	case *array.Float32:
		return value.FloatBits(math.Float32bits(a.Value(i))), nil
	case *array.Float64:
		return value.DoubleBits(math.Float64bits(a.Value(i))), nil
	case *array.Decimal128:
		return value.DecimalOf(a.Value(i).BigInt(), a.DataType().(*arrow.Decimal128Type).Scale), nil
	case *array.Decimal256:
		return value.DecimalOf(a.Value(i).BigInt(), a.DataType().(*arrow.Decimal256Type).Scale), nil
	case *array.String:
		return value.StringOf(a.Value(i)), nil
	case *array.LargeString:
		return value.StringOf(a.Value(i)), nil
	case *array.Binary:
		return value.BinaryOf(append([]byte{}, a.Value(i)...)), nil
	case *array.LargeBinary:
		return value.BinaryOf(append([]byte{}, a.Value(i)...)), nil
	case *array.FixedSizeBinary:
		return value.BinaryOf(append([]byte{}, a.Value(i)...)), nil
	case *array.Date32:
		return value.DateOf(int64(a.Value(i))), nil
	case *array.Date64:
		ms := int64(a.Value(i))
		if ms%86_400_000 != 0 {
			return value.Value{}, errors.New("a date64 that is not midnight")
		}
		return value.DateOf(ms / 86_400_000), nil
	case *array.Timestamp:
		v := int64(a.Value(i))
		switch a.DataType().(*arrow.TimestampType).Unit {
		case arrow.Second:
			return timestampScaled(v, 1_000_000)
		case arrow.Millisecond:
			return timestampScaled(v, 1_000)
		case arrow.Nanosecond:
			if v%1000 != 0 {
				return value.Value{}, errors.New("finer than a microsecond, which Spark cannot hold")
			}
			v /= 1000
		}
		return value.TimestampOf(v), nil
	case *array.Map:
		if t.Kind != udf.Map {
			break
		}
		start, end := a.ValueOffsets(i)
		kv := make([]value.Value, 0, 2*(end-start))
		for j := start; j < end; j++ {
			k, err := fromArrow(a.Keys(), int(j), t.Key)
			if err != nil {
				return value.Value{}, fmt.Errorf("map key %d: %w", j-start, err)
			}
			v, err := fromArrow(a.Items(), int(j), t.Value)
			if err != nil {
				return value.Value{}, fmt.Errorf("map value %d: %w", j-start, err)
			}
			kv = append(kv, k, v)
		}
		return value.MapOf(kv...), nil
	case array.ListLike:
		if t.Kind != udf.Array {
			break
		}
		start, end := a.ValueOffsets(i)
		elems := make([]value.Value, 0, end-start)
		for j := start; j < end; j++ {
			e, err := fromArrow(a.ListValues(), int(j), t.Elem)
			if err != nil {
				return value.Value{}, fmt.Errorf("element %d: %w", j-start, err)
			}
			elems = append(elems, e)
		}
		return value.ArrayOf(elems...), nil
	case *array.Struct:
		if t.Kind != udf.Struct {
			break
		}
		st := a.DataType().(*arrow.StructType)
		names := make([]string, st.NumFields())
		for j := range names {
			names[j] = st.Field(j).Name
		}
		fields := make([]value.Value, len(t.Fields))
		for j, f := range t.Fields {
			k := nameIndex(names, f.Name)
			if k < 0 {
				return value.Value{}, fmt.Errorf("struct has no field %q", f.Name)
			}
			v, err := fromArrow(a.Field(k), i, f.Type)
			if err != nil {
				return value.Value{}, fmt.Errorf("field %q: %w", f.Name, err)
			}
			fields[j] = v
		}
		return value.StructOf(fields...), nil
	}
	return value.Value{}, fmt.Errorf("an Arrow %s column cannot be a %s", arr.DataType(), t)
}

func timestampScaled(v, mul int64) (value.Value, error) {
	if v > math.MaxInt64/mul || v < math.MinInt64/mul {
		return value.Value{}, errors.New("timestamp out of range")
	}
	return value.TimestampOf(v * mul), nil
}

// convert turns a value read from Arrow into a value of type t, where
// that is exact.
func convert(v value.Value, src arrow.DataType, t *udf.Type) (value.Value, error) {
	wrong := fmt.Errorf("an Arrow %s column cannot be a %s", src, t)
	switch t.Kind {
	case udf.Boolean:
		if v.Kind != value.Bool {
			return value.Value{}, wrong
		}
	case udf.Byte, udf.Short, udf.Int, udf.Long:
		if v.Kind != value.Int {
			return value.Value{}, wrong
		}
		lo, hi := intRange(uint(intBits[t.Kind]))
		if v.Int < lo || v.Int > hi {
			return value.Value{}, fmt.Errorf("out of range for %s", t)
		}
	case udf.Float:
		switch v.Kind {
		case value.Float:
		case value.Double:
			return doubleToFloat(v)
		default:
			return value.Value{}, wrong
		}
	case udf.Double:
		switch v.Kind {
		case value.Double:
		case value.Float:
			return floatToDouble(v)
		default:
			return value.Value{}, wrong
		}
	case udf.Decimal:
		switch v.Kind {
		case value.Decimal:
		case value.Int:
			v = value.DecimalOf(bigFromInt(v.Int), 0)
		default:
			return value.Value{}, wrong
		}
		return parseDecimal(value.DecimalString(v.Unscaled, v.Scale), t.Precision, t.Scale)
	case udf.String:
		if v.Kind != value.String {
			return value.Value{}, wrong
		}
	case udf.Binary:
		if v.Kind != value.Binary {
			return value.Value{}, wrong
		}
	case udf.Date:
		if v.Kind != value.Date {
			return value.Value{}, wrong
		}
		if v.Int < minDate || v.Int > maxDate {
			return value.Value{}, errors.New("outside Spark's dates 0001-01-01..9999-12-31")
		}
	case udf.Timestamp:
		if v.Kind != value.Timestamp {
			return value.Value{}, wrong
		}
		if v.Int < minTimestamp || v.Int > maxTimestamp {
			return value.Value{}, errors.New("outside Spark's timestamps 0001-01-01..9999-12-31")
		}
	case udf.Array:
		if v.Kind != value.Array {
			return value.Value{}, wrong
		}
	case udf.Map:
		if v.Kind != value.Map {
			return value.Value{}, wrong
		}
		seen := map[string]bool{}
		for i := 0; i < len(v.Elems); i += 2 {
			k := v.Elems[i]
			if k.IsNull() {
				return value.Value{}, errors.New("a null map key, which Spark does not allow")
			}
			if err := checkMapKey(k); err != nil {
				return value.Value{}, err
			}
			tok := value.Token(k)
			if seen[tok] {
				return value.Value{}, fmt.Errorf("map key %s appears twice, which Spark does not allow", k)
			}
			seen[tok] = true
		}
	case udf.Struct:
		if v.Kind != value.Struct {
			return value.Value{}, wrong
		}
	default:
		return value.Value{}, wrong
	}
	return v, nil
}

// floatToDouble widens a float. Every finite float and infinity is a
// double exactly; a NaN keeps only its canonical form, because how a
// payload moves into a double (and whether the hardware quiets it)
// differs between the JVM, CPython and Go.
func floatToDouble(v value.Value) (value.Value, error) {
	f := v.Float32()
	if f != f {
		if uint32(v.Bits) != canonicalNaN32 {
			return value.Value{}, fmt.Errorf("float NaN %#08x has no exact double", v.Bits)
		}
		return value.DoubleBits(canonicalNaN64), nil
	}
	return value.DoubleOf(float64(f)), nil
}

// doubleToFloat narrows a double that a float holds exactly.
func doubleToFloat(v value.Value) (value.Value, error) {
	d := v.Float64()
	if d != d {
		if v.Bits != canonicalNaN64 {
			return value.Value{}, fmt.Errorf("double NaN %#016x has no exact float", v.Bits)
		}
		return value.FloatBits(canonicalNaN32), nil
	}
	f := float32(d)
	if float64(f) != d || math.Signbit(float64(f)) != math.Signbit(d) {
		return value.Value{}, fmt.Errorf("double %v is not exactly a float", d)
	}
	return value.FloatOf(f), nil
}

func bigFromInt(i int64) *big.Int { return big.NewInt(i) }
