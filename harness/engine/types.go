package engine

import (
	"github.com/udfx/udfx/harness/udf"
)

var (
	tBool   = udf.Prim(udf.Boolean)
	tByte   = udf.Prim(udf.Byte)
	tShort  = udf.Prim(udf.Short)
	tInt    = udf.Prim(udf.Int)
	tLong   = udf.Prim(udf.Long)
	tFloat  = udf.Prim(udf.Float)
	tDouble = udf.Prim(udf.Double)
	tString = udf.Prim(udf.String)
	tBinary = udf.Prim(udf.Binary)
	tDate   = udf.Prim(udf.Date)
	tTS     = udf.Prim(udf.Timestamp)
)

func isVoid(t *udf.Type) bool { return t.Kind == "void" }

func isIntegral(t *udf.Type) bool {
	switch t.Kind {
	case udf.Byte, udf.Short, udf.Int, udf.Long:
		return true
	}
	return false
}

func isFractional(t *udf.Type) bool { return t.Kind == udf.Float || t.Kind == udf.Double }

// numRank orders the non-decimal numeric types for widening.
func numRank(t *udf.Type) int {
	switch t.Kind {
	case udf.Byte:
		return 1
	case udf.Short:
		return 2
	case udf.Int:
		return 3
	case udf.Long:
		return 4
	case udf.Float:
		return 5
	case udf.Double:
		return 6
	}
	return 0
}

// decimalFor is DecimalType.forType: the decimal that holds every value of
// an integral type.
func decimalFor(t *udf.Type) *udf.Type {
	switch t.Kind {
	case udf.Byte:
		return udf.DecimalOf(3, 0)
	case udf.Short:
		return udf.DecimalOf(5, 0)
	case udf.Int:
		return udf.DecimalOf(10, 0)
	case udf.Long:
		return udf.DecimalOf(20, 0)
	}
	return t
}

// boundedDecimal is DecimalType.bounded.
func boundedDecimal(p, s int) *udf.Type {
	if p > udf.MaxDecimalPrecision {
		p = udf.MaxDecimalPrecision
	}
	if s > udf.MaxDecimalPrecision {
		s = udf.MaxDecimalPrecision
	}
	return udf.DecimalOf(p, s)
}

// adjustedDecimal is DecimalType.adjustPrecisionScale with
// spark.sql.decimalOperations.allowPrecisionLoss=true (the default).
func adjustedDecimal(p, s int) *udf.Type {
	if p <= udf.MaxDecimalPrecision {
		return udf.DecimalOf(p, s)
	}
	intDigits := p - s
	minScale := min(s, 6)
	return udf.DecimalOf(udf.MaxDecimalPrecision, max(udf.MaxDecimalPrecision-intDigits, minScale))
}

func widerDecimal(a, b *udf.Type) *udf.Type {
	s := max(a.Scale, b.Scale)
	r := max(a.Precision-a.Scale, b.Precision-b.Scale)
	return boundedDecimal(r+s, s)
}

// widerNumeric is the wider of two numeric types (findWiderTypeForTwo).
// In ANSI mode an INT or BIGINT meeting a FLOAT widens to DOUBLE, which
// real Spark 4.1 confirms (typeof(1 + 1.5F) is double with ANSI on, float
// with it off).
func widerNumeric(a, b *udf.Type, ansi bool) *udf.Type {
	if a.Equal(b) {
		return a
	}
	if a.Kind == udf.Decimal || b.Kind == udf.Decimal {
		if isFractional(a) || isFractional(b) {
			return tDouble
		}
		return widerDecimal(decimalFor(a), decimalFor(b))
	}
	if ansi {
		if a.Kind == udf.Float && (b.Kind == udf.Int || b.Kind == udf.Long) || b.Kind == udf.Float && (a.Kind == udf.Int || a.Kind == udf.Long) {
			return tDouble
		}
	}
	if numRank(a) >= numRank(b) {
		return a
	}
	return b
}

// commonType is the type that CASE, COALESCE, IN, array(...) and friends
// cast their inputs to (findWiderCommonType). Verified in Spark 4.1.1:
// coalesce(1, '2') is bigint with ANSI on and string with it off;
// array(1, 2.5) is array<decimal(11,1)>.
func commonType(ts []*udf.Type, ansi bool) (*udf.Type, bool) {
	var out *udf.Type
	for _, t := range ts {
		if isVoid(t) {
			continue
		}
		if out == nil {
			out = t
			continue
		}
		w, ok := wider2(out, t, ansi)
		if !ok {
			return nil, false
		}
		out = w
	}
	if out == nil {
		return voidType, true
	}
	return out, true
}

func wider2(a, b *udf.Type, ansi bool) (*udf.Type, bool) {
	switch {
	case a.Equal(b):
		return a, true
	case a.IsNumeric() && b.IsNumeric():
		return widerNumeric(a, b, ansi), true
	case a.Kind == udf.String && b.Kind == udf.String:
		return a, true
	case a.Kind == udf.String || b.Kind == udf.String:
		o := b
		if b.Kind == udf.String {
			o = a
		}
		if ansi {
			switch {
			case isIntegral(o):
				return tLong, true
			case o.IsNumeric():
				return tDouble, true
			case o.Kind == udf.Date || o.Kind == udf.Timestamp:
				return o, true
			}
			return nil, false
		}
		if o.IsNested() {
			return nil, false
		}
		return tString, true
	case a.Kind == udf.Date && b.Kind == udf.Timestamp || a.Kind == udf.Timestamp && b.Kind == udf.Date:
		return tTS, true
	case a.Kind == udf.Array && b.Kind == udf.Array:
		if isVoid(a.Elem) {
			return b, true
		}
		if isVoid(b.Elem) {
			return a, true
		}
		e, ok := wider2(a.Elem, b.Elem, ansi)
		if !ok {
			return nil, false
		}
		return udf.ArrayOf(e), true
	}
	return nil, false
}
