package engine

import (
	"fmt"
	"math/big"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/value"
)

// ArrowType is the Arrow type the engine reads and writes for a Spark
// type: value.ArrowType's mapping, for the types the engine evaluates
// (maps and structs are not among them yet), plus Arrow's null type for
// the type of a bare NULL.
func ArrowType(t *udf.Type) (arrow.DataType, error) {
	switch {
	case t.Kind == "void":
		return arrow.Null, nil
	case t.Kind == udf.Map || t.Kind == udf.Struct:
		return nil, &UnsupportedFunctionError{Name: "type " + t.String()}
	case t.Kind == udf.Array:
		if _, err := ArrowType(t.Elem); err != nil {
			return nil, err
		}
	}
	return value.ArrowType(t)
}

func checkArrowType(t *udf.Type) error {
	_, err := ArrowType(t)
	return err
}

// fromArrow reads an Arrow column as a vector of Spark type t: its
// validity bitmap, then its values (fixedFromArrow, boxedFromArrow).
func fromArrow(arr arrow.Array, t *udf.Type) (*vec, error) {
	n := arr.Len()
	v := &vec{t: t, n: n}
	if arr.NullN() > 0 {
		v.null = make([]bool, n)
		for i := range v.null {
			v.null[i] = arr.IsNull(i)
		}
	}
	if fixedFromArrow(v, arr, t) {
		return v, nil
	}
	ok, err := boxedFromArrow(v, arr, t)
	if err != nil {
		return nil, err
	}
	if ok {
		return v, nil
	}
	return nil, fmt.Errorf("arrow type %s does not hold Spark type %s", arr.DataType(), t)
}

// fixedFromArrow reads the values of a fixed-width Arrow column (numbers,
// booleans, dates, timestamps) into v, if it holds Spark type t.
func fixedFromArrow(v *vec, arr arrow.Array, t *udf.Type) bool {
	n := v.n
	switch a := arr.(type) {
	case *array.Float64:
		if t.Kind == udf.Double {
			v.f64 = a.Float64Values()
			return true
		}
	case *array.Float32:
		if t.Kind == udf.Float {
			v.f32 = a.Float32Values()
			return true
		}
	case *array.Boolean:
		if t.Kind == udf.Boolean {
			v.b = make([]bool, n)
			for i := range v.b {
				v.b[i] = a.Value(i)
			}
			return true
		}
	case *array.Int8:
		if t.Kind == udf.Byte {
			v.i64 = toInt64(a.Int8Values())
			return true
		}
	case *array.Int16:
		if t.Kind == udf.Short {
			v.i64 = toInt64(a.Int16Values())
			return true
		}
	case *array.Int32:
		if t.Kind == udf.Int {
			v.i64 = toInt64(a.Int32Values())
			return true
		}
	case *array.Int64:
		if t.Kind == udf.Long {
			v.i64 = a.Int64Values()
			return true
		}
	case *array.Date32:
		if t.Kind == udf.Date {
			v.i64 = toInt64(a.Date32Values())
			return true
		}
	case *array.Timestamp:
		if t.Kind == udf.Timestamp && a.DataType().(*arrow.TimestampType).Unit == arrow.Microsecond {
			v.i64 = toInt64(a.TimestampValues())
			return true
		}
	}
	return false
}

// boxedFromArrow reads the values of a decimal, string, binary or list
// Arrow column into v.vals, if it holds Spark type t.
func boxedFromArrow(v *vec, arr arrow.Array, t *udf.Type) (bool, error) {
	n := v.n
	switch a := arr.(type) {
	case *array.Decimal128:
		dt := a.DataType().(*arrow.Decimal128Type)
		if t.Kind == udf.Decimal && int(dt.Precision) == t.Precision && int(dt.Scale) == t.Scale {
			v.vals = make([]any, n)
			for i := range v.vals {
				if !a.IsNull(i) {
					v.vals[i] = a.Value(i).BigInt()
				}
			}
			return true, nil
		}
	case *array.String:
		if t.Kind == udf.String {
			v.vals = make([]any, n)
			for i := range v.vals {
				if !a.IsNull(i) {
					v.vals[i] = a.Value(i)
				}
			}
			return true, nil
		}
	case *array.LargeString:
		if t.Kind == udf.String {
			v.vals = make([]any, n)
			for i := range v.vals {
				if !a.IsNull(i) {
					v.vals[i] = a.Value(i)
				}
			}
			return true, nil
		}
	case *array.Binary:
		if t.Kind == udf.Binary {
			v.vals = make([]any, n)
			for i := range v.vals {
				if !a.IsNull(i) {
					v.vals[i] = append([]byte{}, a.Value(i)...)
				}
			}
			return true, nil
		}
	case *array.List:
		if t.Kind == udf.Array {
			elems, err := fromArrow(a.ListValues(), t.Elem)
			if err != nil {
				return false, err
			}
			offs := a.Offsets()
			v.vals = make([]any, n)
			for i := range v.vals {
				if a.IsNull(i) {
					continue
				}
				lo, hi := int(offs[i]), int(offs[i+1])
				row := make([]any, hi-lo)
				for k := lo; k < hi; k++ {
					row[k-lo] = elems.get(k)
				}
				v.vals[i] = row
			}
			return true, nil
		}
	}
	return false, nil
}

// toArrow writes a vector as an Arrow array of Spark type t.
func toArrow(v *vec, t *udf.Type, mem memory.Allocator) (arrow.Array, error) {
	if isVoid(t) {
		return array.NewNull(v.n), nil
	}
	dt, err := ArrowType(t)
	if err != nil {
		return nil, err
	}
	if t.Kind == udf.Double && !v.konst {
		b := array.NewFloat64Builder(mem)
		defer b.Release()
		var valid []bool
		if v.null != nil {
			valid = make([]bool, v.n)
			for i := range valid {
				valid[i] = !v.null[i]
			}
		}
		b.AppendValues(v.f64[:v.n], valid)
		return b.NewArray(), nil
	}
	b := array.NewBuilder(mem, dt)
	defer b.Release()
	for i := 0; i < v.n; i++ {
		if err := appendValue(b, t, v.get(i)); err != nil {
			return nil, err
		}
	}
	return b.NewArray(), nil
}

func appendValue(b array.Builder, t *udf.Type, x any) error {
	if x == nil {
		b.AppendNull()
		return nil
	}
	switch b := b.(type) {
	case *array.BooleanBuilder:
		b.Append(x.(bool))
	case *array.Int8Builder:
		b.Append(int8(x.(int64)))
	case *array.Int16Builder:
		b.Append(int16(x.(int64)))
	case *array.Int32Builder:
		b.Append(int32(x.(int64)))
	case *array.Int64Builder:
		b.Append(x.(int64))
	case *array.Float32Builder:
		b.Append(x.(float32))
	case *array.Float64Builder:
		b.Append(x.(float64))
	case *array.Decimal128Builder:
		b.Append(decimal128.FromBigInt(x.(*big.Int)))
	case *array.StringBuilder:
		b.Append(x.(string))
	case *array.BinaryBuilder:
		b.Append(x.([]byte))
	case *array.Date32Builder:
		b.Append(arrow.Date32(x.(int64)))
	case *array.TimestampBuilder:
		b.Append(arrow.Timestamp(x.(int64)))
	case *array.ListBuilder:
		b.Append(true)
		for _, e := range x.([]any) {
			if err := appendValue(b.ValueBuilder(), t.Elem, e); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("cannot write %T to an Arrow %s builder", x, b.Type())
	}
	return nil
}

// toInt64 widens a column of narrower integers (days and microseconds
// included) to the engine's int64 vectors.
func toInt64[T int8 | int16 | int32 | arrow.Date32 | arrow.Timestamp](xs []T) []int64 {
	out := make([]int64, len(xs))
	for i, x := range xs {
		out[i] = int64(x)
	}
	return out
}
