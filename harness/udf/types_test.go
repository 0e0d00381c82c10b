package udf

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseType(t *testing.T) {
	cases := []struct{ in, want string }{
		// DDL strings and their aliases.
		{"double", "double"},
		{"DOUBLE", "double"},
		{"float", "float"},
		{"real", "float"},
		{"int", "int"},
		{"integer", "int"},
		{"bigint", "bigint"},
		{"long", "bigint"},
		{"smallint", "smallint"},
		{"short", "smallint"},
		{"tinyint", "tinyint"},
		{"byte", "tinyint"},
		{"boolean", "boolean"},
		{"string", "string"},
		{"varchar(10)", "string"},
		{"binary", "binary"},
		{"date", "date"},
		{"timestamp", "timestamp"},
		{"decimal", "decimal(10,0)"},
		{"decimal(10,2)", "decimal(10,2)"},
		{"DECIMAL( 38 , 18 )", "decimal(38,18)"},
		{"numeric(5)", "decimal(5,0)"},
		{"array<float>", "array<float>"},
		{"array<array<int>>", "array<array<int>>"},
		{"map<string,bigint>", "map<string,bigint>"},
		{"map<string, array<double>>", "map<string,array<double>>"},
		{"struct<a:int,b:string>", "struct<a:int,b:string>"},
		{"struct<a int, b string>", "struct<a:int,b:string>"},
		{"struct<`a b`:int>", "struct<`a b`:int>"},
		{"struct<`a``b`:int>", "struct<`a``b`:int>"},
		{"struct<>", "struct<>"},
		// PySpark constructors.
		{"DoubleType()", "double"},
		{"T.DoubleType()", "double"},
		{"pyspark.sql.types.LongType()", "bigint"},
		{"ArrayType(FloatType())", "array<float>"},
		{"ArrayType(FloatType(), True)", "array<float>"},
		{"ArrayType(elementType=FloatType(), containsNull=False)", "array<float>"},
		{"DecimalType(10, 2)", "decimal(10,2)"},
		{"DecimalType()", "decimal(10,0)"},
		{"MapType(StringType(), LongType(), True)", "map<string,bigint>"},
		{`StructType([StructField("a", IntegerType(), True), StructField('b', StringType())])`, "struct<a:int,b:string>"},
		// Scala and Java.
		{"DoubleType", "double"},
		{"DataTypes.DoubleType", "double"},
		{"DataTypes.createArrayType(DataTypes.FloatType)", "array<float>"},
		{"DataTypes.createArrayType(DataTypes.FloatType, true)", "array<float>"},
		{"DataTypes.createDecimalType(10, 2)", "decimal(10,2)"},
		{"DataTypes.createDecimalType()", "decimal(10,0)"},
		{"DataTypes.createMapType(DataTypes.StringType, DataTypes.IntegerType)", "map<string,int>"},
		{"ArrayType(FloatType, containsNull = true)", "array<float>"},
		{`StructType(Seq(StructField("a", IntegerType), StructField("b", StringType, nullable = false)))`, "struct<a:int,b:string>"},
		{`StructType(Array(StructField("a", IntegerType)))`, "struct<a:int>"},
		{`DataTypes.createStructType(Arrays.asList(DataTypes.createStructField("a", DataTypes.IntegerType, true)))`, "struct<a:int>"},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			got, err := ParseType(c.in)
			require.NoError(t, err)
			assert.Equal(t, c.want, got.String())
			// The canonical string parses back to the same type.
			again, err := ParseType(got.String())
			require.NoError(t, err)
			assert.True(t, got.Equal(again))
		})
	}
}

func TestParseTypeErrors(t *testing.T) {
	cases := []struct{ in, wantMsg string }{
		{"", "expected a type, got end of input"},
		{"dubble", `unknown type "dubble"`},
		{"array<float", `expected ">", got end of input`},
		{"array", `expected "<", got end of input`},
		{"decimal(39,2)", "decimal precision 39 is outside 1..38"},
		{"decimal(5,6)", "decimal scale 6 exceeds precision 5"},
		{"decimal(0)", "decimal precision 0 is outside 1..38"},
		{"map<string>", `expected ",", got ">"`},
		{"double double", `unexpected "double" after the type`},
		{"ArrayType", "ArrayType needs arguments"},
		{"ArrayType(", "expected a type, got end of input"},
		{"StructType([IntegerType()])", `expected StructField, got "IntegerType"`},
		{"decimal(99999999999999999999)", "out of range"},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			_, err := ParseType(c.in)
			require.Error(t, err)
			var te *TypeError
			require.ErrorAs(t, err, &te)
			assert.Contains(t, err.Error(), c.wantMsg)
			assert.Contains(t, err.Error(), "type "+`"`+strings.ReplaceAll(c.in, `"`, `\"`)+`"`)
		})
	}
}

func TestTypeJSON(t *testing.T) {
	in := struct {
		T *Type `json:"t"`
	}{T: MapOf(Prim(String), ArrayOf(DecimalOf(10, 2)))}
	b, err := json.Marshal(in)
	require.NoError(t, err)
	assert.JSONEq(t, `{"t":"map<string,array<decimal(10,2)>>"}`, string(b))
	var out struct {
		T *Type `json:"t"`
	}
	require.NoError(t, json.Unmarshal(b, &out))
	assert.True(t, in.T.Equal(out.T))
	assert.Error(t, json.Unmarshal([]byte(`{"t":"nope"}`), &out))
}

func TestJVMType(t *testing.T) {
	cases := []struct {
		lang      Language
		src, want string
		primitive bool
	}{
		{Scala, "Double", "double", true},
		{Scala, "scala.Double", "double", true},
		{Scala, "java.lang.Double", "double", false},
		{Scala, "Int", "int", true},
		{Scala, "Long", "bigint", true},
		{Scala, "String", "string", false},
		{Scala, "Array[Byte]", "binary", false},
		{Scala, "Array[Float]", "array<float>", false},
		{Scala, "Seq[Double]", "array<double>", false},
		{Scala, "Map[String, Int]", "map<string,int>", false},
		{Scala, "Option[Double]", "double", false},
		{Scala, "BigDecimal", "decimal(38,18)", false},
		{Scala, "java.sql.Timestamp", "timestamp", false},
		{Java, "Double", "double", false},
		{Java, "double", "double", true},
		{Java, "Integer", "int", false},
		{Java, "int", "int", true},
		{Java, "Long", "bigint", false},
		{Java, "byte[]", "binary", false},
		{Java, "java.math.BigDecimal", "decimal(38,18)", false},
		{Java, "Map<String, Integer>", "map<string,int>", false},
	}
	for _, c := range cases {
		t.Run(string(c.lang)+"/"+c.src, func(t *testing.T) {
			got, prim, ok := JVMType(c.lang, c.src)
			require.True(t, ok)
			assert.Equal(t, c.want, got.String())
			assert.Equal(t, c.primitive, prim)
		})
	}
	for _, src := range []string{"Any", "AnyRef", "Object", "MyCaseClass", "Map[String]", "Seq[Any]"} {
		_, _, ok := JVMType(Scala, src)
		assert.False(t, ok, src)
	}
}

func TestPythonHintType(t *testing.T) {
	cases := map[string]string{
		"float": "double", "int": "bigint", "str": "string", "bool": "boolean",
		"bytes": "binary", "datetime.date": "date", "datetime.datetime": "timestamp",
		"decimal.Decimal": "decimal(38,18)", "list[float]": "array<double>",
		"List[str]": "array<string>", "dict[str, int]": "map<string,bigint>",
		"Optional[float]": "double", "typing.Optional[int]": "bigint",
	}
	for hint, want := range cases {
		got, ok := PythonHintType(hint)
		require.True(t, ok, hint)
		assert.Equal(t, want, got.String(), hint)
	}
	for _, hint := range []string{"pd.Series", "Any", "object", "list", "dict[str]"} {
		_, ok := PythonHintType(hint)
		assert.False(t, ok, hint)
	}
}

func FuzzParseType(f *testing.F) {
	for _, s := range []string{
		"double", "decimal(10,2)", "array<map<string,struct<a:int>>>",
		"ArrayType(FloatType(), True)", `StructType([StructField("a", IntegerType())])`,
		"DataTypes.createDecimalType(38, 18)", "struct<`x`:int>", "map<", "(((", "'",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		typ, err := ParseType(s)
		if err != nil {
			var te *TypeError
			if !assert.ErrorAs(t, err, &te) {
				return
			}
			assert.LessOrEqual(t, te.Offset, len(s))
			return
		}
		// Whatever parses must print as a type string that parses back to
		// the same type, or scan's JSON could not be read back.
		again, err := ParseType(typ.String())
		if assert.NoError(t, err, "reparse %q (from %q)", typ.String(), s) {
			assert.Equal(t, typ.String(), again.String())
		}
	})
}
