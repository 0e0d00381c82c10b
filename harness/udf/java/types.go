package java

import (
	"strconv"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/udfx/udfx/harness/udf"
)

// writableTypes are the Hadoop Writable boxes Hive simple UDFs take and
// return, with the Spark type of the column Hive unwraps into them.
var writableTypes = map[string]udf.TypeKind{
	"Text":            udf.String,
	"DoubleWritable":  udf.Double,
	"IntWritable":     udf.Int,
	"LongWritable":    udf.Long,
	"BooleanWritable": udf.Boolean,
	"FloatWritable":   udf.Float,
	"ShortWritable":   udf.Short,
	"ByteWritable":    udf.Byte,
	"BytesWritable":   udf.Binary,
}

// writablePackages are where the Writable boxes live: Hadoop's own and
// the ones Hive's serde2 adds (DoubleWritable, ShortWritable, ...).
var writablePackages = []string{"org.apache.hadoop.io.", "org.apache.hadoop.hive.serde2.io."}

// WritableKind is the Spark type a Hadoop or Hive Writable box holds,
// by its name as the source writes it (Text, org.apache.hadoop.io.Text,
// IntWritable, ...); false for any other type.
func WritableKind(src string) (udf.TypeKind, bool) {
	name := strings.Join(strings.Fields(src), "")
	for _, p := range writablePackages {
		name = strings.TrimPrefix(name, p)
	}
	k, ok := writableTypes[name]
	return k, ok
}

// sparkType maps a Java source type to the Spark type of the values Spark
// hands it, with its primitive flag; nil when the source does not pin it
// down.
func sparkType(src string) (*udf.Type, bool) {
	s := strings.Join(strings.Fields(src), "")
	if s == "" {
		return nil, false
	}
	if k, ok := WritableKind(s); ok {
		return udf.Prim(k), false
	}
	t, primitive, ok := udf.JVMType(udf.Java, s)
	if !ok {
		return nil, false
	}
	return t, primitive
}

// dataType reads a Spark DataType expression (DataTypes.DoubleType,
// DataTypes.createArrayType(DataTypes.FloatType), new ArrayType(...)).
func dataType(text string) *udf.Type {
	text = strings.TrimSpace(text)
	if rest, ok := strings.CutPrefix(text, "new "); ok {
		text = strings.TrimSpace(rest)
	}
	t, err := udf.ParseType(text)
	if err != nil {
		return nil
	}
	return t
}

// normalizeSpace collapses runs of white space, so a type written over
// several lines reads as one.
func normalizeSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

// udfInterface reports whether a type node names Spark's Java UDF0..UDF22
// interface, with its arity and type arguments (nil for a raw type).
func (fl *file) udfInterface(t *sitter.Node) (arity int, args []*sitter.Node, ok bool) {
	if t == nil {
		return 0, nil, false
	}
	base := t
	if t.Kind() == "generic_type" {
		base = firstNamed(t, "type_identifier", "scoped_type_identifier")
		if ta := childOfKind(t, "type_arguments"); ta != nil {
			for _, a := range namedNonComment(ta) {
				args = append(args, a)
			}
		}
	}
	if base == nil || (base.Kind() != "type_identifier" && base.Kind() != "scoped_type_identifier") {
		return 0, nil, false
	}
	name, qual := lastSegment(strings.Join(strings.Fields(fl.src.Text(base)), ""))
	if qual != "" && qual != "org.apache.spark.sql.api.java" {
		return 0, nil, false
	}
	n, found := strings.CutPrefix(name, "UDF")
	if !found {
		return 0, nil, false
	}
	arity, err := strconv.Atoi(n)
	if err != nil || arity < 0 || arity > 22 || strconv.Itoa(arity) != n {
		return 0, nil, false
	}
	if args != nil && len(args) != arity+1 {
		return 0, nil, false
	}
	return arity, args, true
}

func namedNonComment(n *sitter.Node) []*sitter.Node {
	var out []*sitter.Node
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		if c.Kind() != "line_comment" && c.Kind() != "block_comment" {
			out = append(out, c)
		}
	}
	return out
}

// hiveSuperclass says which Hive base class a superclass names, if any.
func (fl *file) hiveSuperclass(class *sitter.Node) (udf.Kind, bool) {
	sc := class.ChildByFieldId(fieldSuper)
	if sc == nil {
		return "", false
	}
	t := firstNamed(sc, "type_identifier", "scoped_type_identifier", "generic_type")
	if t == nil {
		return "", false
	}
	switch strings.Join(strings.Fields(fl.src.Text(t)), "") {
	case "UDF", "org.apache.hadoop.hive.ql.exec.UDF":
		return udf.KindHiveUDF, true
	case "GenericUDF", "org.apache.hadoop.hive.ql.udf.generic.GenericUDF":
		return udf.KindHiveGenericUDF, true
	}
	return "", false
}

// paramsOf reads a method's or lambda's formal parameters.
func (fl *file) paramsOf(params *sitter.Node) []udf.Param {
	if params == nil {
		return nil
	}
	var out []udf.Param
	switch params.Kind() {
	case "identifier":
		return []udf.Param{{Name: fl.src.Text(params)}}
	case "inferred_parameters":
		for _, c := range namedNonComment(params) {
			if c.Kind() == "identifier" {
				out = append(out, udf.Param{Name: fl.src.Text(c)})
			}
		}
		return out
	}
	for _, c := range namedNonComment(params) {
		switch c.Kind() {
		case "formal_parameter":
			p := udf.Param{Name: fl.src.Text(c.ChildByFieldId(fieldName))}
			if t := c.ChildByFieldId(fieldType); t != nil && fl.src.Text(t) != "var" {
				p.SourceType = normalizeSpace(fl.src.Text(t))
				p.Type, p.Primitive = sparkType(p.SourceType)
			}
			out = append(out, p)
		case "spread_parameter":
			// Varargs have no Spark counterpart; keep the slot untyped.
			p := udf.Param{SourceType: normalizeSpace(fl.src.Text(c))}
			if d := childOfKind(c, "variable_declarator"); d != nil {
				p.Name = fl.src.Text(d.ChildByFieldId(fieldName))
			}
			out = append(out, p)
		}
	}
	return out
}

// fillFromGenerics gives untyped parameters the types of the UDFn type
// arguments, adding a parameter for each type argument the source does
// not name.
func (fl *file) fillFromGenerics(params []udf.Param, args []*sitter.Node) []udf.Param {
	if len(args) == 0 {
		return params
	}
	n := len(args) - 1
	for i := 0; i < n; i++ {
		text := normalizeSpace(fl.src.Text(args[i]))
		if i >= len(params) {
			params = append(params, udf.Param{Name: "arg" + strconv.Itoa(i+1)})
		}
		if params[i].SourceType == "" {
			params[i].SourceType = text
			params[i].Type, params[i].Primitive = sparkType(text)
		}
	}
	return params
}

// genericReturn is the return type a UDFn's last type argument gives.
func (fl *file) genericReturn(args []*sitter.Node) *udf.Type {
	if len(args) == 0 {
		return nil
	}
	t, _ := sparkType(fl.src.Text(args[len(args)-1]))
	return t
}
