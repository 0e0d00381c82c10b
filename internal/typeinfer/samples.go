package typeinfer

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/internal/regular"
)

// ParquetSchema reads the column types of a Parquet file as Spark reads
// them. A column whose Arrow type has no single Spark type here (nested,
// unsigned, time) is left out.
func ParquetSchema(path string) (map[string]*udf.Type, error) {
	// Opened as a regular file only: a named pipe would block the open.
	f, err := regular.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rdr, err := file.NewParquetReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: not a Parquet file: %w", path, err)
	}
	defer rdr.Close()
	fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{}, memory.NewGoAllocator())
	if err != nil {
		return nil, fmt.Errorf("%s: reading Parquet: %w", path, err)
	}
	s, err := fr.Schema()
	if err != nil {
		return nil, fmt.Errorf("%s: reading the Parquet schema: %w", path, err)
	}
	out := map[string]*udf.Type{}
	for _, f := range s.Fields() {
		if t := sparkTypeOfArrow(f.Type); t != nil {
			out[f.Name] = t
		}
	}
	return out, nil
}

// sparkTypeOfArrow maps the Arrow types Parquet columns read as to the
// Spark type Spark gives the same column.
func sparkTypeOfArrow(t arrow.DataType) *udf.Type {
	switch t := t.(type) {
	case *arrow.BooleanType:
		return udf.Prim(udf.Boolean)
	case *arrow.Int8Type:
		return udf.Prim(udf.Byte)
	case *arrow.Int16Type:
		return udf.Prim(udf.Short)
	case *arrow.Int32Type:
		return udf.Prim(udf.Int)
	case *arrow.Int64Type:
		return udf.Prim(udf.Long)
	case *arrow.Float32Type:
		return udf.Prim(udf.Float)
	case *arrow.Float64Type:
		return udf.Prim(udf.Double)
	case *arrow.StringType, *arrow.LargeStringType:
		return udf.Prim(udf.String)
	case *arrow.BinaryType, *arrow.LargeBinaryType:
		return udf.Prim(udf.Binary)
	case *arrow.Date32Type:
		return udf.Prim(udf.Date)
	case *arrow.Decimal128Type:
		return udf.DecimalOf(int(t.Precision), int(t.Scale))
	}
	return nil
}
