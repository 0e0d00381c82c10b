package python

import (
	"encoding/json"
	"fmt"

	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/value"
)

// sparkJSON renders t in the JSON form of pyspark's DataType.jsonValue,
// which the driver reads with pyspark.sql.types._parse_datatype_json_value.
func sparkJSON(t *udf.Type) (any, error) {
	switch t.Kind {
	case udf.Boolean:
		return "boolean", nil
	case udf.Byte:
		return "byte", nil
	case udf.Short:
		return "short", nil
	case udf.Int:
		return "integer", nil
	case udf.Long:
		return "long", nil
	case udf.Float:
		return "float", nil
	case udf.Double:
		return "double", nil
	case udf.Decimal:
		return fmt.Sprintf("decimal(%d,%d)", t.Precision, t.Scale), nil
	case udf.String:
		return "string", nil
	case udf.Binary:
		return "binary", nil
	case udf.Date:
		return "date", nil
	case udf.Timestamp:
		return "timestamp", nil
	case udf.Array:
		e, err := sparkJSON(t.Elem)
		if err != nil {
			return nil, err
		}
		return map[string]any{"type": "array", "elementType": e, "containsNull": true}, nil
	case udf.Map:
		k, err := sparkJSON(t.Key)
		if err != nil {
			return nil, err
		}
		v, err := sparkJSON(t.Value)
		if err != nil {
			return nil, err
		}
		return map[string]any{"type": "map", "keyType": k, "valueType": v, "valueContainsNull": true}, nil
	case udf.Struct:
		fields := make([]any, len(t.Fields))
		for i, f := range t.Fields {
			ft, err := sparkJSON(f.Type)
			if err != nil {
				return nil, err
			}
			fields[i] = map[string]any{"name": f.Name, "type": ft, "nullable": true, "metadata": map[string]any{}}
		}
		return map[string]any{"type": "struct", "fields": fields}, nil
	}
	return nil, fmt.Errorf("no pyspark type for Spark type %s", t)
}

func typesJSON(ts []*udf.Type) ([]byte, error) {
	out := make([]any, len(ts))
	for i, t := range ts {
		j, err := sparkJSON(t)
		if err != nil {
			return nil, err
		}
		out[i] = j
	}
	return json.Marshal(out)
}

// TypeError says the runner cannot tell which Spark type a parameter has:
// the UDF's source does not declare it and the values do not show it.
type TypeError struct {
	Param string
	Msg   string
}

func (e *TypeError) Error() string {
	return fmt.Sprintf("parameter %s: %s (give udf.Param.Type or Options.ParamTypes)", e.Param, e.Msg)
}

// inferType guesses the Spark type of parameter i from the values. The
// guess is exact for every kind but integers (the token codec does not
// keep their width; bigint is assumed, which a row-at-a-time UDF cannot
// tell apart since Python has one int) and structs (the field names are
// not in the values).
func inferType(rows [][]value.Value, i int, strict bool, name string) (*udf.Type, error) {
	vals := make([]value.Value, 0, len(rows))
	for _, r := range rows {
		if i < len(r) {
			vals = append(vals, r[i])
		}
	}
	t, err := typeOfValues(vals, strict)
	if err != nil {
		return nil, &TypeError{Param: name, Msg: err.Error()}
	}
	if t == nil {
		if strict {
			return nil, &TypeError{Param: name, Msg: "every value is null, so the Spark type is unknown"}
		}
		// Null is None whatever the type.
		return udf.Prim(udf.String), nil
	}
	return t, nil
}

// typeOfValues returns the type of the first non-null value, nil when all
// are null.
func typeOfValues(vals []value.Value, strict bool) (*udf.Type, error) {
	for _, v := range vals {
		switch v.Kind {
		case value.Null:
			continue
		case value.Bool:
			return udf.Prim(udf.Boolean), nil
		case value.Int:
			if strict {
				return nil, fmt.Errorf("the integer width (tinyint, smallint, int, bigint) is unknown and changes the pandas dtype")
			}
			return udf.Prim(udf.Long), nil
		case value.Float:
			return udf.Prim(udf.Float), nil
		case value.Double:
			return udf.Prim(udf.Double), nil
		case value.Decimal:
			if strict {
				return nil, fmt.Errorf("the decimal precision is unknown")
			}
			return udf.DecimalOf(udf.MaxDecimalPrecision, int(v.Scale)), nil
		case value.String:
			return udf.Prim(udf.String), nil
		case value.Binary:
			return udf.Prim(udf.Binary), nil
		case value.Date:
			return udf.Prim(udf.Date), nil
		case value.Timestamp:
			return udf.Prim(udf.Timestamp), nil
		case value.Array:
			var elems []value.Value
			for _, a := range vals {
				if a.Kind == value.Array {
					elems = append(elems, a.Elems...)
				}
			}
			e, err := typeOfValues(elems, strict)
			if err != nil {
				return nil, err
			}
			if e == nil {
				if strict {
					return nil, fmt.Errorf("every array is empty or all null, so the element type is unknown")
				}
				e = udf.Prim(udf.String)
			}
			return udf.ArrayOf(e), nil
		case value.Map:
			var ks, vs []value.Value
			for _, m := range vals {
				if m.Kind != value.Map {
					continue
				}
				for j := 0; j+1 < len(m.Elems); j += 2 {
					ks = append(ks, m.Elems[j])
					vs = append(vs, m.Elems[j+1])
				}
			}
			k, err := typeOfValues(ks, strict)
			if err != nil {
				return nil, err
			}
			vt, err := typeOfValues(vs, strict)
			if err != nil {
				return nil, err
			}
			if k == nil || vt == nil {
				if strict {
					return nil, fmt.Errorf("every map is empty, so the key and value types are unknown")
				}
				if k == nil {
					k = udf.Prim(udf.String)
				}
				if vt == nil {
					vt = udf.Prim(udf.String)
				}
			}
			return udf.MapOf(k, vt), nil
		case value.Struct:
			return nil, fmt.Errorf("a struct's field names are not in its values")
		case value.Error:
			return nil, fmt.Errorf("an exception value cannot be an input")
		}
	}
	return nil, nil
}
