package value

import (
	"fmt"
	"math"
	"math/big"
	"unicode/utf16"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/decimal256"

	"github.com/udfx/udfx/harness/udf"
)

// ArrowType maps a Spark type to the Arrow type udfx stores it as:
// the mapping Spark's own Arrow conversion uses (timestamps in
// microseconds, UTC; decimals as decimal128, or decimal256 past 38 digits).
func ArrowType(t *udf.Type) (arrow.DataType, error) {
	switch t.Kind {
	case udf.Boolean:
		return arrow.FixedWidthTypes.Boolean, nil
	case udf.Byte:
		return arrow.PrimitiveTypes.Int8, nil
	case udf.Short:
		return arrow.PrimitiveTypes.Int16, nil
	case udf.Int:
		return arrow.PrimitiveTypes.Int32, nil
	case udf.Long:
		return arrow.PrimitiveTypes.Int64, nil
	case udf.Float:
		return arrow.PrimitiveTypes.Float32, nil
	case udf.Double:
		return arrow.PrimitiveTypes.Float64, nil
	case udf.Decimal:
		return &arrow.Decimal128Type{Precision: int32(t.Precision), Scale: int32(t.Scale)}, nil
	case udf.String:
		return arrow.BinaryTypes.String, nil
	case udf.Binary:
		return arrow.BinaryTypes.Binary, nil
	case udf.Date:
		return arrow.FixedWidthTypes.Date32, nil
	case udf.Timestamp:
		return &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}, nil
	case udf.Array:
		elem, err := ArrowType(t.Elem)
		if err != nil {
			return nil, err
		}
		return arrow.ListOf(elem), nil
	case udf.Map:
		k, err := ArrowType(t.Key)
		if err != nil {
			return nil, err
		}
		v, err := ArrowType(t.Value)
		if err != nil {
			return nil, err
		}
		return arrow.MapOf(k, v), nil
	case udf.Struct:
		fields := make([]arrow.Field, len(t.Fields))
		for i, f := range t.Fields {
			ft, err := ArrowType(f.Type)
			if err != nil {
				return nil, err
			}
			fields[i] = arrow.Field{Name: f.Name, Type: ft, Nullable: true}
		}
		return arrow.StructOf(fields...), nil
	}
	return nil, fmt.Errorf("no Arrow type for Spark type %s", t)
}

// FromArrow reads row i of arr.
func FromArrow(arr arrow.Array, i int) Value {
	if arr.IsNull(i) {
		return NullValue()
	}
	switch a := arr.(type) {
	case *array.Boolean:
		return BoolOf(a.Value(i))
	case *array.Int8:
		return IntOf(int64(a.Value(i)))
	case *array.Int16:
		return IntOf(int64(a.Value(i)))
	case *array.Int32:
		return IntOf(int64(a.Value(i)))
	case *array.Int64:
		return IntOf(a.Value(i))
	case *array.Float32:
		return FloatBits(math.Float32bits(a.Value(i)))
	case *array.Float64:
		return DoubleBits(math.Float64bits(a.Value(i)))
	case *array.Decimal128:
		n := a.Value(i)
		return DecimalOf(n.BigInt(), a.DataType().(*arrow.Decimal128Type).Scale)
	case *array.Decimal256:
		n := a.Value(i)
		return DecimalOf(n.BigInt(), a.DataType().(*arrow.Decimal256Type).Scale)
	case *array.String:
		return StringOf(a.Value(i))
	case *array.LargeString:
		return StringOf(a.Value(i))
	case *array.Binary:
		return BinaryOf(append([]byte{}, a.Value(i)...))
	case *array.Date32:
		return DateOf(int64(a.Value(i)))
	case *array.Timestamp:
		ts := int64(a.Value(i))
		switch a.DataType().(*arrow.TimestampType).Unit {
		case arrow.Second:
			ts *= 1_000_000
		case arrow.Millisecond:
			ts *= 1_000
		case arrow.Nanosecond:
			ts /= 1_000
		}
		return TimestampOf(ts)
	case *array.Map:
		start, end := a.ValueOffsets(i)
		keys, items := a.Keys(), a.Items()
		kv := make([]Value, 0, 2*(end-start))
		for j := start; j < end; j++ {
			kv = append(kv, FromArrow(keys, int(j)), FromArrow(items, int(j)))
		}
		return MapOf(kv...)
	case *array.List:
		start, end := a.ValueOffsets(i)
		elems := make([]Value, 0, end-start)
		for j := start; j < end; j++ {
			elems = append(elems, FromArrow(a.ListValues(), int(j)))
		}
		return ArrayOf(elems...)
	case *array.Struct:
		fields := make([]Value, a.NumField())
		for f := range fields {
			fields[f] = FromArrow(a.Field(f), i)
		}
		return StructOf(fields...)
	}
	panic(fmt.Sprintf("value: unsupported Arrow type %s", arr.DataType()))
}

// Append appends v to b, a builder for the Arrow type of a Spark type.
// Strings with lone surrogates cannot be stored in Arrow's UTF-8 and give
// an error, as do values of the wrong kind.
func Append(b array.Builder, v Value) error {
	if v.Kind == Null {
		b.AppendNull()
		return nil
	}
	switch bb := b.(type) {
	case *array.BooleanBuilder, *array.Int8Builder, *array.Int16Builder, *array.Int32Builder, *array.Int64Builder,
		*array.Float32Builder, *array.Float64Builder:
		return appendNumber(b, v)
	case *array.Decimal128Builder:
		return appendDecimal128(bb, v)
	case *array.Decimal256Builder:
		return appendDecimal256(bb, v)
	case *array.StringBuilder, *array.BinaryBuilder, *array.Date32Builder, *array.TimestampBuilder:
		return appendTextOrTime(b, v)
	case *array.MapBuilder, *array.ListBuilder, *array.StructBuilder:
		return appendNested(b, v)
	default:
		return fmt.Errorf("value: unsupported Arrow builder %T", b)
	}
}

// mismatch is the error of a value of the wrong kind for b.
func mismatch(b array.Builder, v Value) error {
	return fmt.Errorf("cannot store a %s value in an Arrow %s column", v.Kind, b.Type())
}

// appendNumber appends a non-null v to a boolean, integer or floating
// point builder; an integer must fit the builder's width.
func appendNumber(b array.Builder, v Value) error {
	switch bb := b.(type) {
	case *array.BooleanBuilder:
		if v.Kind != Bool {
			return mismatch(b, v)
		}
		bb.Append(v.Bool)
	case *array.Int8Builder:
		if v.Kind != Int || v.Int < math.MinInt8 || v.Int > math.MaxInt8 {
			return mismatch(b, v)
		}
		bb.Append(int8(v.Int))
	case *array.Int16Builder:
		if v.Kind != Int || v.Int < math.MinInt16 || v.Int > math.MaxInt16 {
			return mismatch(b, v)
		}
		bb.Append(int16(v.Int))
	case *array.Int32Builder:
		if v.Kind != Int || v.Int < math.MinInt32 || v.Int > math.MaxInt32 {
			return mismatch(b, v)
		}
		bb.Append(int32(v.Int))
	case *array.Int64Builder:
		if v.Kind != Int {
			return mismatch(b, v)
		}
		bb.Append(v.Int)
	case *array.Float32Builder:
		if v.Kind != Float {
			return mismatch(b, v)
		}
		bb.Append(v.Float32())
	case *array.Float64Builder:
		if v.Kind != Double {
			return mismatch(b, v)
		}
		bb.Append(v.Float64())
	}
	return nil
}

// appendDecimal128 appends a non-null decimal v at the builder's scale;
// it must fit the builder's precision.
func appendDecimal128(bb *array.Decimal128Builder, v Value) error {
	if v.Kind != Decimal {
		return mismatch(bb, v)
	}
	dt := bb.Type().(*arrow.Decimal128Type)
	u, err := rescale(v, dt.Scale)
	if err != nil {
		return err
	}
	n := decimal128.FromBigInt(u)
	if !n.FitsInPrecision(dt.Precision) {
		return fmt.Errorf("decimal %s does not fit %s", DecimalString(v.Unscaled, v.Scale), dt)
	}
	bb.Append(n)
	return nil
}

// appendDecimal256 appends a non-null decimal v at the builder's scale.
func appendDecimal256(bb *array.Decimal256Builder, v Value) error {
	if v.Kind != Decimal {
		return mismatch(bb, v)
	}
	u, err := rescale(v, bb.Type().(*arrow.Decimal256Type).Scale)
	if err != nil {
		return err
	}
	bb.Append(decimal256.FromBigInt(u))
	return nil
}

// appendTextOrTime appends a non-null v to a string, binary, date or
// timestamp builder.
func appendTextOrTime(b array.Builder, v Value) error {
	switch bb := b.(type) {
	case *array.StringBuilder:
		if v.Kind != String {
			return mismatch(b, v)
		}
		if v.HasLoneSurrogate() {
			return fmt.Errorf("string %s holds a lone UTF-16 surrogate, which UTF-8 cannot store", v)
		}
		bb.Append(string(utf16.Decode(v.Units)))
	case *array.BinaryBuilder:
		if v.Kind != Binary {
			return mismatch(b, v)
		}
		bb.Append(v.Bytes)
	case *array.Date32Builder:
		if v.Kind != Date || v.Int < math.MinInt32 || v.Int > math.MaxInt32 {
			return mismatch(b, v)
		}
		bb.Append(arrow.Date32(v.Int))
	case *array.TimestampBuilder:
		if v.Kind != Timestamp {
			return mismatch(b, v)
		}
		bb.Append(arrow.Timestamp(v.Int))
	}
	return nil
}

// appendNested appends a non-null map, array or struct v, appending its
// elements to the child builders.
func appendNested(b array.Builder, v Value) error {
	switch bb := b.(type) {
	case *array.MapBuilder:
		if v.Kind != Map {
			return mismatch(b, v)
		}
		bb.Append(true)
		for i := 0; i+1 < len(v.Elems); i += 2 {
			if err := Append(bb.KeyBuilder(), v.Elems[i]); err != nil {
				return err
			}
			if err := Append(bb.ItemBuilder(), v.Elems[i+1]); err != nil {
				return err
			}
		}
	case *array.ListBuilder:
		if v.Kind != Array {
			return mismatch(b, v)
		}
		bb.Append(true)
		for _, e := range v.Elems {
			if err := Append(bb.ValueBuilder(), e); err != nil {
				return err
			}
		}
	case *array.StructBuilder:
		if v.Kind != Struct || len(v.Elems) != bb.NumField() {
			return mismatch(b, v)
		}
		bb.Append(true)
		for i, e := range v.Elems {
			if err := Append(bb.FieldBuilder(i), e); err != nil {
				return err
			}
		}
	}
	return nil
}

// rescale returns v's unscaled value at the given scale; a value that
// would lose digits is an error (the caller decides how Spark rounds).
func rescale(v Value, scale int32) (*big.Int, error) {
	u, s := normalize(bigOrZero(v.Unscaled), int64(v.Scale))
	switch {
	case s > int64(scale):
		return nil, fmt.Errorf("decimal %s has more than %d fractional digits", DecimalString(v.Unscaled, v.Scale), scale)
	case int64(scale)-s > 2*MaxDecimalDigits:
		return nil, fmt.Errorf("decimal %s is too large for any Spark decimal", DecimalString(v.Unscaled, v.Scale))
	}
	return new(big.Int).Mul(u, pow10(int32(int64(scale)-s))), nil
}

// MaxDecimalDigits is the largest precision Spark's decimals have.
const MaxDecimalDigits = 38
