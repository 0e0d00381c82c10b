package udf

import "strings"

// JVMType maps a Scala or Java source type to the Spark type Spark's
// encoders give it, and says whether it is a JVM primitive (Spark cannot
// pass null to it, so a null input gives null without a call). ok is false
// for types Spark cannot pass to a UDF or that the source alone does not
// pin down.
//
// Scala's Double, Int, ... compile to primitives; java.lang.Double,
// Integer, ... are boxed. In Java source the same goes for double/int vs
// Double/Integer (the generics of UDF1..22 are always boxed).
func JVMType(lang Language, src string) (t *Type, primitive, ok bool) {
	s := strings.ReplaceAll(strings.TrimSpace(src), " ", "")
	s = strings.TrimPrefix(s, "_root_.")
	if elem, ok := strings.CutSuffix(s, "[]"); ok { // a Java array
		if elem == "byte" {
			return Prim(Binary), false, true
		}
		et, _, ok := JVMType(lang, elem)
		if !ok {
			return nil, false, false
		}
		return ArrayOf(et), false, true
	}
	base, args := splitGeneric(s)
	switch base {
	case "scala.Double", "double":
		return Prim(Double), lang == Scala || base == "double", true
	case "Double":
		return Prim(Double), lang == Scala, true
	case "scala.Float", "float":
		return Prim(Float), lang == Scala || base == "float", true
	case "Float":
		return Prim(Float), lang == Scala, true
	case "scala.Int", "Int", "int":
		return Prim(Int), true, true
	case "scala.Long", "long":
		return Prim(Long), lang == Scala || base == "long", true
	case "Long":
		return Prim(Long), lang == Scala, true
	case "scala.Short", "short":
		return Prim(Short), lang == Scala || base == "short", true
	case "Short":
		return Prim(Short), lang == Scala, true
	case "scala.Byte", "byte":
		return Prim(Byte), lang == Scala || base == "byte", true
	case "Byte":
		return Prim(Byte), lang == Scala, true
	case "scala.Boolean", "boolean":
		return Prim(Boolean), lang == Scala || base == "boolean", true
	case "Boolean":
		return Prim(Boolean), lang == Scala, true
	case "java.lang.Double":
		return Prim(Double), false, true
	case "java.lang.Float":
		return Prim(Float), false, true
	case "Integer", "java.lang.Integer":
		return Prim(Int), false, true
	case "java.lang.Long":
		return Prim(Long), false, true
	case "java.lang.Short":
		return Prim(Short), false, true
	case "java.lang.Byte":
		return Prim(Byte), false, true
	case "java.lang.Boolean":
		return Prim(Boolean), false, true
	case "String", "java.lang.String", "scala.Predef.String":
		return Prim(String), false, true
	case "BigDecimal", "java.math.BigDecimal", "scala.math.BigDecimal":
		// Spark's encoders read both as DECIMAL(38,18).
		return DecimalOf(MaxDecimalPrecision, 18), false, true
	case "java.sql.Date", "java.time.LocalDate", "LocalDate":
		return Prim(Date), false, true
	case "java.sql.Timestamp", "java.time.Instant", "Instant", "Timestamp":
		return Prim(Timestamp), false, true
	case "Array":
		if len(args) == 1 && (args[0] == "Byte" || args[0] == "scala.Byte") {
			return Prim(Binary), false, true
		}
		fallthrough
	case "Seq", "scala.collection.Seq", "scala.collection.immutable.Seq", "IndexedSeq", "List", "scala.collection.mutable.WrappedArray", "WrappedArray", "mutable.WrappedArray", "mutable.ArraySeq", "scala.collection.mutable.ArraySeq":
		if len(args) != 1 {
			return nil, false, false
		}
		elem, _, ok := JVMType(lang, args[0])
		if !ok {
			return nil, false, false
		}
		return ArrayOf(elem), false, true
	case "Map", "scala.collection.Map", "scala.collection.immutable.Map", "java.util.Map":
		if len(args) != 2 {
			return nil, false, false
		}
		k, _, ok1 := JVMType(lang, args[0])
		v, _, ok2 := JVMType(lang, args[1])
		if !ok1 || !ok2 {
			return nil, false, false
		}
		return MapOf(k, v), false, true
	case "Option", "scala.Option":
		// Option is allowed as a return type: None becomes null.
		if len(args) != 1 {
			return nil, false, false
		}
		inner, _, ok := JVMType(lang, args[0])
		return inner, false, ok
	}
	return nil, false, false
}

// PythonHintType maps a Python type hint to a Spark type, for the rare
// case where a plain UDF's hints are the only type information.
func PythonHintType(hint string) (*Type, bool) {
	s := strings.ReplaceAll(strings.TrimSpace(hint), " ", "")
	s = strings.TrimPrefix(s, "typing.")
	if inner, ok := strings.CutPrefix(s, "Optional["); ok && strings.HasSuffix(inner, "]") {
		return PythonHintType(inner[:len(inner)-1])
	}
	base, args := splitGeneric(s)
	switch base {
	case "float":
		return Prim(Double), true
	case "int":
		return Prim(Long), true
	case "str":
		return Prim(String), true
	case "bool":
		return Prim(Boolean), true
	case "bytes", "bytearray":
		return Prim(Binary), true
	case "datetime.date", "date":
		return Prim(Date), true
	case "datetime.datetime", "datetime":
		return Prim(Timestamp), true
	case "decimal.Decimal", "Decimal":
		return DecimalOf(MaxDecimalPrecision, 18), true
	case "list", "List":
		if len(args) == 1 {
			if elem, ok := PythonHintType(args[0]); ok {
				return ArrayOf(elem), true
			}
		}
	case "dict", "Dict":
		if len(args) == 2 {
			k, ok1 := PythonHintType(args[0])
			v, ok2 := PythonHintType(args[1])
			if ok1 && ok2 {
				return MapOf(k, v), true
			}
		}
	}
	return nil, false
}

// splitGeneric splits "Map[String,Int]" or "Map<String,Integer>" into its
// base name and top-level type arguments; "Array[Byte]" → ("Array",
// ["Byte"]); "byte[]" stays as it is.
func splitGeneric(s string) (string, []string) {
	open := strings.IndexAny(s, "[<")
	if open <= 0 {
		return s, nil
	}
	closeCh := byte(']')
	if s[open] == '<' {
		closeCh = '>'
	}
	if s[len(s)-1] != closeCh {
		return s, nil
	}
	inner := s[open+1 : len(s)-1]
	var args []string
	depth, start := 0, 0
	for i := 0; i < len(inner); i++ {
		switch inner[i] {
		case '[', '<', '(':
			depth++
		case ']', '>', ')':
			depth--
		case ',':
			if depth == 0 {
				args = append(args, inner[start:i])
				start = i + 1
			}
		}
	}
	args = append(args, inner[start:])
	return s[:open], args
}
