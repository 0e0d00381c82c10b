package spark

import (
	"fmt"
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/udfx/udfx/harness/value"
)

// RowGroupRows bounds a row group of the Parquet files WriteParquet
// writes: Spark splits a file between tasks at row groups only, so a large
// input in one row group would run on one core.
const RowGroupRows = 1 << 18

// WriteParquet writes rec as a Parquet file Spark reads back exactly:
// doubles and floats bit for bit (NaN payloads, -0.0), decimals as
// FIXED_LEN_BYTE_ARRAY DECIMAL(p,s), dates as INT32 DATE, timestamps as
// INT64 TIMESTAMP(MICROS, isAdjustedToUTC=true) (which Spark reads as
// TimestampType), strings as UTF-8, tinyint and smallint as INT32 with
// INT(8)/INT(16) annotations, arrays, maps and structs nested. Snappy
// compressed, as Spark writes by default.
//
// Parquet stores strings as UTF-8, so a string with a lone UTF-16
// surrogate cannot be written; an Arrow string column cannot hold one
// either, so no udfx batch has one (value.Append refuses it).
func WriteParquet(path string, rec arrow.RecordBatch) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	props := parquet.NewWriterProperties(
		parquet.WithCompression(compress.Codecs.Snappy),
		parquet.WithMaxRowGroupLength(RowGroupRows),
	)
	// The writer owns f from here: its Close closes the file.
	w, err := pqarrow.NewFileWriter(rec.Schema(), f, props, pqarrow.NewArrowWriterProperties())
	if err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := w.Write(rec); err != nil {
		w.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// rowColumn names the column of row numbers a job's input carries, so
// that results are matched to rows whatever order Spark returns them in.
const rowColumn = "_udfx_row"

// withRowNumbers returns rec with a first column _udfx_row = 0, 1, ...
func withRowNumbers(rec arrow.RecordBatch, mem memory.Allocator) (arrow.RecordBatch, error) {
	for _, f := range rec.Schema().Fields() {
		if f.Name == rowColumn {
			return nil, fmt.Errorf("the input has a column named %s, which udfx uses itself", rowColumn)
		}
	}
	b := array.NewInt64Builder(mem)
	defer b.Release()
	n := int(rec.NumRows())
	b.Reserve(n)
	for i := 0; i < n; i++ {
		b.UnsafeAppend(int64(i))
	}
	idx := b.NewArray()
	defer idx.Release()
	fields := append([]arrow.Field{{Name: rowColumn, Type: arrow.PrimitiveTypes.Int64}}, rec.Schema().Fields()...)
	cols := append([]arrow.Array{idx}, rec.Columns()...)
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, int64(n)), nil
}

// readResults reads the Arrow file the driver wrote for one side: columns
// _udfx_row and result. It returns one value per input row, in input order.
func readResults(path string, rows int) ([]value.Value, arrow.DataType, error) {
	out, seen, typ, err := readSomeResults(path, rows)
	if err != nil {
		return nil, nil, err
	}
	for k, ok := range seen {
		if !ok {
			return nil, nil, fmt.Errorf("Spark's results %s lack row %d", path, k)
		}
	}
	return out, typ, nil
}

// readSomeResults reads results that may lack rows; seen says which it
// has.
func readSomeResults(path string, rows int) ([]value.Value, []bool, arrow.DataType, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("reading Spark's results: %w", err)
	}
	defer f.Close()
	r, err := ipc.NewFileReader(f, ipc.WithAllocator(memory.NewGoAllocator()))
	if err != nil {
		return nil, nil, nil, fmt.Errorf("reading Spark's results %s: %w", path, err)
	}
	defer r.Close()
	out := make([]value.Value, rows)
	var typ arrow.DataType
	if f := r.Schema().Fields(); len(f) == 2 {
		typ = f[1].Type
	}
	seen := make([]bool, rows)
	for i := 0; i < r.NumRecords(); i++ {
		rec, err := r.RecordBatch(i)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("reading Spark's results %s: %w", path, err)
		}
		if rec.NumCols() != 2 {
			return nil, nil, nil, fmt.Errorf("Spark's results %s have %d columns, not 2", path, rec.NumCols())
		}
		idx, ok := rec.Column(0).(*array.Int64)
		if !ok {
			return nil, nil, nil, fmt.Errorf("Spark's results %s: column %s is %s", path, rowColumn, rec.Column(0).DataType())
		}
		res := rec.Column(1)
		if err := checkReadable(res.DataType()); err != nil {
			return nil, nil, nil, fmt.Errorf("Spark's results %s: %w", path, err)
		}
		for j := 0; j < int(rec.NumRows()); j++ {
			k := int(idx.Value(j))
			if k < 0 || k >= rows || seen[k] {
				return nil, nil, nil, fmt.Errorf("Spark's results %s: bad or repeated row number %d", path, k)
			}
			seen[k] = true
			out[k] = value.FromArrow(res, j)
		}
	}
	return out, seen, typ, nil
}

// checkReadable rejects Arrow types value.FromArrow does not read, so that
// a Spark setting that changes them is an error rather than a panic.
func checkReadable(t arrow.DataType) error {
	switch tt := t.(type) {
	case *arrow.BooleanType, *arrow.Int8Type, *arrow.Int16Type, *arrow.Int32Type, *arrow.Int64Type,
		*arrow.Float32Type, *arrow.Float64Type, *arrow.Decimal128Type, *arrow.Decimal256Type,
		*arrow.StringType, *arrow.LargeStringType, *arrow.BinaryType, *arrow.Date32Type, *arrow.TimestampType,
		*arrow.NullType:
		return nil
	case *arrow.ListType:
		return checkReadable(tt.Elem())
	case *arrow.MapType:
		if err := checkReadable(tt.KeyType()); err != nil {
			return err
		}
		return checkReadable(tt.ItemType())
	case *arrow.StructType:
		for _, f := range tt.Fields() {
			if err := checkReadable(f.Type); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("udfx cannot read Spark's Arrow type %s", t)
}
