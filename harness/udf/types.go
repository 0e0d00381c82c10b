package udf

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// TypeKind is a Spark SQL data type without its parameters.
type TypeKind string

const (
	Boolean   TypeKind = "boolean"
	Byte      TypeKind = "tinyint"
	Short     TypeKind = "smallint"
	Int       TypeKind = "int"
	Long      TypeKind = "bigint"
	Float     TypeKind = "float"
	Double    TypeKind = "double"
	Decimal   TypeKind = "decimal"
	String    TypeKind = "string"
	Binary    TypeKind = "binary"
	Date      TypeKind = "date"
	Timestamp TypeKind = "timestamp"
	Array     TypeKind = "array"
	Map       TypeKind = "map"
	Struct    TypeKind = "struct"
)

// Spark's decimal limits and defaults.
const (
	MaxDecimalPrecision = 38
	// DecimalType() with no arguments is DECIMAL(10,0) in PySpark and in
	// the Scala/Java API (USER_DEFAULT).
	defaultDecimalPrecision = 10
)

// Type is a Spark SQL data type. It is written and read as Spark's own
// type string (simpleString): "double", "decimal(10,2)", "array<float>",
// "map<string,int>", "struct<a:int,b:string>".
type Type struct {
	Kind      TypeKind
	Precision int // decimal only
	Scale     int // decimal only
	Elem      *Type
	Key       *Type
	Value     *Type
	Fields    []StructField
}

// StructField is one field of a struct type.
type StructField struct {
	Name string
	Type *Type
}

// Prim returns a type without parameters.
func Prim(k TypeKind) *Type { return &Type{Kind: k} }

// DecimalOf returns decimal(p,s).
func DecimalOf(p, s int) *Type { return &Type{Kind: Decimal, Precision: p, Scale: s} }

// ArrayOf returns array<elem>.
func ArrayOf(elem *Type) *Type { return &Type{Kind: Array, Elem: elem} }

// MapOf returns map<k,v>.
func MapOf(k, v *Type) *Type { return &Type{Kind: Map, Key: k, Value: v} }

// IsNumeric is true for the integral, floating and decimal types.
func (t *Type) IsNumeric() bool {
	switch t.Kind {
	case Byte, Short, Int, Long, Float, Double, Decimal:
		return true
	}
	return false
}

// IsFixedWidth is true for types stored in a fixed number of bytes per row,
// the ones a CUDA kernel can read straight from a column.
func (t *Type) IsFixedWidth() bool {
	switch t.Kind {
	case Boolean, Byte, Short, Int, Long, Float, Double, Decimal, Date, Timestamp:
		return true
	}
	return false
}

// IsNested is true for array, map and struct.
func (t *Type) IsNested() bool {
	return t.Kind == Array || t.Kind == Map || t.Kind == Struct
}

// String returns Spark's type string.
func (t *Type) String() string {
	if t == nil {
		return "unknown"
	}
	switch t.Kind {
	case Decimal:
		return fmt.Sprintf("decimal(%d,%d)", t.Precision, t.Scale)
	case Array:
		return "array<" + t.Elem.String() + ">"
	case Map:
		return "map<" + t.Key.String() + "," + t.Value.String() + ">"
	case Struct:
		parts := make([]string, len(t.Fields))
		for i, f := range t.Fields {
			parts[i] = quoteField(f.Name) + ":" + f.Type.String()
		}
		return "struct<" + strings.Join(parts, ",") + ">"
	}
	return string(t.Kind)
}

// quoteField backquotes a struct field name that is not a plain
// identifier, as Spark's DDL does, so the type string parses back.
func quoteField(name string) string {
	plain := name != ""
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c == '_' || isLetter(c) || i > 0 && isDigit(c)) {
			plain = false
		}
	}
	if plain {
		return name
	}
	return "`" + strings.ReplaceAll(name, "`", "``") + "`"
}

// Equal compares two types structurally.
func (t *Type) Equal(o *Type) bool {
	if t == nil || o == nil {
		return t == o
	}
	return t.String() == o.String()
}

// MarshalJSON writes the type string.
func (t *Type) MarshalJSON() ([]byte, error) { return json.Marshal(t.String()) }

// UnmarshalJSON reads a type string.
func (t *Type) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	p, err := ParseType(s)
	if err != nil {
		return err
	}
	*t = *p
	return nil
}

// TypeError is a type string that does not parse; Offset is the byte where
// parsing stopped.
type TypeError struct {
	Input  string
	Offset int
	Msg    string
}

func (e *TypeError) Error() string {
	return fmt.Sprintf("type %q at offset %d: %s", e.Input, e.Offset, e.Msg)
}

// ParseType reads a Spark type in any of the forms UDF source uses:
//   - DDL strings: "double", "DECIMAL(10, 2)", "array<float>",
//     "map<string,bigint>", "struct<a:int,b string>", and the aliases
//     long, integer, short, byte, real, dec, numeric, varchar(n), char(n);
//   - PySpark constructors: DoubleType(), ArrayType(FloatType(), True),
//     DecimalType(10, 2), MapType(StringType(), LongType()),
//     StructType([StructField("a", IntegerType(), True)]), with or without
//     a module prefix (T.DoubleType());
//   - Scala/Java: DoubleType, DataTypes.DoubleType, ArrayType(FloatType),
//     DataTypes.createArrayType(DataTypes.FloatType),
//     DataTypes.createDecimalType(10, 2), DataTypes.createMapType(K, V),
//     StructType(Seq(StructField("a", IntegerType))).
func ParseType(s string) (*Type, error) {
	p := &typeParser{in: s}
	p.next()
	t, err := p.parseType()
	if err != nil {
		return nil, err
	}
	if p.tok.kind != tokEOF {
		return nil, p.errf("unexpected %q after the type", p.tok.text)
	}
	return t, nil
}

type tokKind int

const (
	tokEOF tokKind = iota
	tokIdent
	tokNumber
	tokString
	tokPunct
)

type token struct {
	kind tokKind
	text string
	off  int
}

type typeParser struct {
	in  string
	pos int
	tok token
}

func (p *typeParser) errf(format string, args ...any) error {
	return &TypeError{Input: p.in, Offset: p.tok.off, Msg: fmt.Sprintf(format, args...)}
}

func (p *typeParser) next() {
	for p.pos < len(p.in) && (p.in[p.pos] == ' ' || p.in[p.pos] == '\t' || p.in[p.pos] == '\n' || p.in[p.pos] == '\r') {
		p.pos++
	}
	start := p.pos
	if p.pos >= len(p.in) {
		p.tok = token{kind: tokEOF, off: start}
		return
	}
	c := p.in[p.pos]
	switch {
	case c == '_' || c == '`' || isLetter(c):
		if c == '`' { // a quoted struct field name; `` stands for one backquote
			var name strings.Builder
			for i := p.pos + 1; i < len(p.in); i++ {
				if p.in[i] != '`' {
					name.WriteByte(p.in[i])
					continue
				}
				if i+1 < len(p.in) && p.in[i+1] == '`' {
					name.WriteByte('`')
					i++
					continue
				}
				p.pos = i + 1
				p.tok = token{kind: tokIdent, text: name.String(), off: start}
				return
			}
			p.pos = len(p.in)
			p.tok = token{kind: tokPunct, text: "`", off: start}
			return
		}
		for p.pos < len(p.in) && (p.in[p.pos] == '_' || p.in[p.pos] == '.' || isLetter(p.in[p.pos]) || isDigit(p.in[p.pos])) {
			p.pos++
		}
		p.tok = token{kind: tokIdent, text: p.in[start:p.pos], off: start}
	case isDigit(c):
		for p.pos < len(p.in) && isDigit(p.in[p.pos]) {
			p.pos++
		}
		p.tok = token{kind: tokNumber, text: p.in[start:p.pos], off: start}
	case c == '"' || c == '\'':
		end := strings.IndexByte(p.in[p.pos+1:], c)
		if end < 0 {
			p.pos = len(p.in)
			p.tok = token{kind: tokPunct, text: string(c), off: start}
			return
		}
		p.pos += end + 2
		p.tok = token{kind: tokString, text: p.in[start+1 : p.pos-1], off: start}
	default:
		p.pos++
		p.tok = token{kind: tokPunct, text: string(c), off: start}
	}
}

func isLetter(c byte) bool { return c < 0x80 && unicode.IsLetter(rune(c)) }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

func (p *typeParser) accept(punct string) bool {
	if p.tok.kind == tokPunct && p.tok.text == punct {
		p.next()
		return true
	}
	return false
}

func (p *typeParser) expect(punct string) error {
	if !p.accept(punct) {
		if p.tok.kind == tokEOF {
			return p.errf("expected %q, got end of input", punct)
		}
		return p.errf("expected %q, got %q", punct, p.tok.text)
	}
	return nil
}

func (p *typeParser) number() (int, error) {
	if p.tok.kind != tokNumber {
		return 0, p.errf("expected a number, got %q", p.tok.text)
	}
	n, err := strconv.Atoi(p.tok.text)
	if err != nil || n > 1000 {
		return 0, p.errf("number %q out of range", p.tok.text)
	}
	p.next()
	return n, nil
}

var ddlNames = map[string]TypeKind{
	"boolean": Boolean, "bool": Boolean,
	"tinyint": Byte, "byte": Byte,
	"smallint": Short, "short": Short,
	"int": Int, "integer": Int,
	"bigint": Long, "long": Long,
	"float": Float, "real": Float,
	"double":  Double,
	"decimal": Decimal, "dec": Decimal, "numeric": Decimal,
	"string": String, "varchar": String, "char": String,
	"binary":    Binary,
	"date":      Date,
	"timestamp": Timestamp, "timestamp_ltz": Timestamp,
	"array": Array, "map": Map, "struct": Struct,
}

var ctorNames = map[string]TypeKind{
	"BooleanType": Boolean, "ByteType": Byte, "ShortType": Short,
	"IntegerType": Int, "LongType": Long, "FloatType": Float,
	"DoubleType": Double, "DecimalType": Decimal, "StringType": String,
	"BinaryType": Binary, "DateType": Date, "TimestampType": Timestamp,
	"ArrayType": Array, "MapType": Map, "StructType": Struct,
	"createArrayType": Array, "createMapType": Map, "createDecimalType": Decimal,
	"createStructType": Struct,
}

func (p *typeParser) parseType() (*Type, error) {
	if p.tok.kind != tokIdent {
		if p.tok.kind == tokEOF {
			return nil, p.errf("expected a type, got end of input")
		}
		return nil, p.errf("expected a type, got %q", p.tok.text)
	}
	name := p.tok.text
	last := name[strings.LastIndexByte(name, '.')+1:]
	if k, ok := ctorNames[last]; ok {
		p.next()
		return p.parseCtor(k, last)
	}
	k, ok := ddlNames[strings.ToLower(name)]
	if !ok {
		return nil, p.errf("unknown type %q", name)
	}
	p.next()
	return p.parseDDL(k, strings.ToLower(name))
}

func (p *typeParser) parseDDL(k TypeKind, name string) (*Type, error) {
	switch k {
	case Decimal:
		t := DecimalOf(defaultDecimalPrecision, 0)
		if p.accept("(") {
			var err error
			if t.Precision, err = p.number(); err != nil {
				return nil, err
			}
			if p.accept(",") {
				if t.Scale, err = p.number(); err != nil {
					return nil, err
				}
			}
			if err := p.expect(")"); err != nil {
				return nil, err
			}
		}
		return t, p.checkDecimal(t)
	case String:
		if name != "string" { // varchar(n), char(n): Spark reads them as string
			if err := p.expect("("); err != nil {
				return nil, err
			}
			if _, err := p.number(); err != nil {
				return nil, err
			}
			if err := p.expect(")"); err != nil {
				return nil, err
			}
		}
		return Prim(String), nil
	case Array:
		if err := p.expect("<"); err != nil {
			return nil, err
		}
		elem, err := p.parseType()
		if err != nil {
			return nil, err
		}
		return ArrayOf(elem), p.expect(">")
	case Map:
		if err := p.expect("<"); err != nil {
			return nil, err
		}
		key, err := p.parseType()
		if err != nil {
			return nil, err
		}
		if err := p.expect(","); err != nil {
			return nil, err
		}
		val, err := p.parseType()
		if err != nil {
			return nil, err
		}
		return MapOf(key, val), p.expect(">")
	case Struct:
		if err := p.expect("<"); err != nil {
			return nil, err
		}
		t := &Type{Kind: Struct, Fields: []StructField{}}
		if p.accept(">") {
			return t, nil
		}
		for {
			if p.tok.kind != tokIdent {
				return nil, p.errf("expected a field name, got %q", p.tok.text)
			}
			f := StructField{Name: p.tok.text}
			p.next()
			p.accept(":")
			var err error
			if f.Type, err = p.parseType(); err != nil {
				return nil, err
			}
			t.Fields = append(t.Fields, f)
			if p.accept(">") {
				return t, nil
			}
			if err := p.expect(","); err != nil {
				return nil, err
			}
		}
	}
	return Prim(k), nil
}

func (p *typeParser) checkDecimal(t *Type) error {
	if t.Precision < 1 || t.Precision > MaxDecimalPrecision {
		return p.errf("decimal precision %d is outside 1..%d", t.Precision, MaxDecimalPrecision)
	}
	if t.Scale > t.Precision {
		return p.errf("decimal scale %d exceeds precision %d", t.Scale, t.Precision)
	}
	return nil
}

// parseCtor reads the arguments of a DataType constructor. Arguments that
// do not change the Spark type (containsNull, valueContainsNull, a field's
// nullable flag and metadata) are read and dropped.
func (p *typeParser) parseCtor(k TypeKind, name string) (*Type, error) {
	hasArgs := p.accept("(")
	if !hasArgs {
		switch k {
		case Array, Map:
			return nil, p.errf("%s needs arguments", name)
		case Decimal:
			t := DecimalOf(defaultDecimalPrecision, 0)
			return t, nil
		case Struct:
			return &Type{Kind: Struct, Fields: []StructField{}}, nil
		}
		return Prim(k), nil
	}
	var t *Type
	switch k {
	case Decimal:
		t = DecimalOf(defaultDecimalPrecision, 0)
		if p.tok.kind == tokNumber {
			var err error
			if t.Precision, err = p.number(); err != nil {
				return nil, err
			}
			if p.accept(",") {
				if t.Scale, err = p.number(); err != nil {
					return nil, err
				}
			}
		}
		if err := p.checkDecimal(t); err != nil {
			return nil, err
		}
	case Array:
		elem, err := p.parseTypeArg()
		if err != nil {
			return nil, err
		}
		t = ArrayOf(elem)
	case Map:
		key, err := p.parseTypeArg()
		if err != nil {
			return nil, err
		}
		if err := p.expect(","); err != nil {
			return nil, err
		}
		val, err := p.parseTypeArg()
		if err != nil {
			return nil, err
		}
		t = MapOf(key, val)
	case Struct:
		fields, err := p.parseFieldList()
		if err != nil {
			return nil, err
		}
		t = &Type{Kind: Struct, Fields: fields}
	default:
		t = Prim(k)
	}
	if err := p.skipRestArgs(); err != nil {
		return nil, err
	}
	return t, nil
}

// parseTypeArg reads a type argument, allowing a keyword name before it
// (elementType=FloatType()).
func (p *typeParser) parseTypeArg() (*Type, error) {
	p.skipKeyword()
	return p.parseType()
}

func (p *typeParser) skipKeyword() {
	if p.tok.kind != tokIdent {
		return
	}
	save := *p
	p.next()
	if p.accept("=") {
		return
	}
	*p = save
}

// parseFieldList reads [StructField(...), ...] or Seq(...)/Array(...)/
// List(...)/Arrays.asList(...) of StructFields, or nothing.
func (p *typeParser) parseFieldList() ([]StructField, error) {
	fields := []StructField{}
	p.skipKeyword()
	var closer string
	switch {
	case p.accept("["):
		closer = "]"
	case p.tok.kind == tokIdent && isSeqCtor(p.tok.text):
		p.next()
		if err := p.expect("("); err != nil {
			return nil, err
		}
		closer = ")"
	case p.tok.kind == tokPunct && p.tok.text == ")":
		return fields, nil
	default:
		return nil, p.errf("expected a list of StructField, got %q", p.tok.text)
	}
	if p.accept(closer) {
		return fields, nil
	}
	for {
		f, err := p.parseStructField()
		if err != nil {
			return nil, err
		}
		fields = append(fields, f)
		if p.accept(closer) {
			return fields, nil
		}
		if err := p.expect(","); err != nil {
			return nil, err
		}
	}
}

func isSeqCtor(name string) bool {
	switch name {
	case "Seq", "Array", "List", "Arrays.asList", "Array.apply", "Seq.apply":
		return true
	}
	return false
}

func (p *typeParser) parseStructField() (StructField, error) {
	if p.tok.kind == tokIdent && (p.tok.text == "new" || strings.HasSuffix(p.tok.text, "StructField") || strings.HasSuffix(p.tok.text, "createStructField")) {
		if p.tok.text == "new" {
			p.next()
		}
		p.next()
	} else {
		return StructField{}, p.errf("expected StructField, got %q", p.tok.text)
	}
	if err := p.expect("("); err != nil {
		return StructField{}, err
	}
	p.skipKeyword()
	if p.tok.kind != tokString {
		return StructField{}, p.errf("expected a field name string, got %q", p.tok.text)
	}
	f := StructField{Name: p.tok.text}
	p.next()
	if err := p.expect(","); err != nil {
		return StructField{}, err
	}
	var err error
	if f.Type, err = p.parseTypeArg(); err != nil {
		return StructField{}, err
	}
	return f, p.skipRestArgs()
}

// skipRestArgs drops the remaining arguments of a call up to and
// including its closing parenthesis: nullability flags, metadata.
func (p *typeParser) skipRestArgs() error {
	depth := 0
	for {
		switch {
		case p.tok.kind == tokEOF:
			return p.errf("expected \")\", got end of input")
		case p.tok.kind == tokPunct && (p.tok.text == "(" || p.tok.text == "["):
			depth++
		case p.tok.kind == tokPunct && (p.tok.text == ")" || p.tok.text == "]"):
			if depth == 0 {
				if p.tok.text != ")" {
					return p.errf("expected \")\", got %q", p.tok.text)
				}
				p.next()
				return nil
			}
			depth--
		}
		p.next()
	}
}
