package columnar_test

import (
	"errors"
	"flag"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/render/columnar"
	"github.com/udfx/udfx/harness/translate"
	"github.com/udfx/udfx/harness/translate/ir"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/udf/frontends"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// example is one ToFahrenheit example with its translated IR.
type example struct {
	u   *udf.UDF
	e   ir.Expr
	pkg string
	src []byte
}

// loadExample finds the UDF called name in file with the real front-end
// and translates it with the built-in translator.
func loadExample(t *testing.T, file, name string) example {
	t.Helper()
	src, err := os.ReadFile(file)
	require.NoError(t, err)
	lang := map[string]udf.Language{".scala": udf.Scala, ".java": udf.Java}[filepath.Ext(file)]
	fe := frontends.New(lang)
	defer fe.Close()
	us, err := fe.Parse(file, src)
	require.NoError(t, err)
	for i := range us {
		if us[i].Name != name {
			continue
		}
		res, err := translate.Translate(&us[i], src)
		require.NoError(t, err)
		require.Empty(t, res.Declines)
		pkg, err := columnar.PackageOf(src)
		require.NoError(t, err)
		return example{u: &us[i], e: res.IR, pkg: pkg, src: src}
	}
	require.Failf(t, "no UDF", "%s in %s", name, file)
	return example{}
}

var examples = []struct{ name, file, golden string }{
	{"scala", "../../examples/scala-to-fahrenheit/ToFahrenheit.scala", "scala_ToFahrenheitRapidsUDF.java.golden"},
	{"java", "../../examples/java-to-fahrenheit/ToFahrenheit.java", "java_ToFahrenheitRapidsUDF.java.golden"},
}

const record = "udfx-rewrites/ToFahrenheit/evidence.json"

func TestRenderExamplesGolden(t *testing.T) {
	for _, ex := range examples {
		t.Run(ex.name, func(t *testing.T) {
			x := loadExample(t, ex.file, "ToFahrenheit")
			files, err := columnar.RenderIn(x.u, x.e, record, x.pkg)
			require.NoError(t, err)
			require.Len(t, files, 1)
			assert.Equal(t, "udfx-rewrites/ToFahrenheit/columnar/ToFahrenheitRapidsUDF.java", files[0].Path)
			golden := filepath.Join("testdata", ex.golden)
			if *update {
				require.NoError(t, os.WriteFile(golden, files[0].Content, 0o644))
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err, "run go test -update to create it")
			assert.Equal(t, string(want), string(files[0].Content))
			assert.Contains(t, string(files[0].Content), "udfx:rewrite", "the marker names the record")
		})
	}
}

func TestDTypeMapping(t *testing.T) {
	for _, tc := range []struct {
		spark, want string
	}{
		{"boolean", "DType.BOOL8"},
		{"tinyint", "DType.INT8"},
		{"smallint", "DType.INT16"},
		{"int", "DType.INT32"},
		{"bigint", "DType.INT64"},
		{"float", "DType.FLOAT32"},
		{"double", "DType.FLOAT64"},
		{"string", "DType.STRING"},
		{"date", "DType.TIMESTAMP_DAYS"},
		{"timestamp", "DType.TIMESTAMP_MICROSECONDS"},
		{"decimal(1,0)", "DType.create(DType.DTypeEnum.DECIMAL32, 0)"},
		{"decimal(9,2)", "DType.create(DType.DTypeEnum.DECIMAL32, -2)"},
		{"decimal(10,2)", "DType.create(DType.DTypeEnum.DECIMAL64, -2)"},
		{"decimal(18,18)", "DType.create(DType.DTypeEnum.DECIMAL64, -18)"},
		{"decimal(19,0)", "DType.create(DType.DTypeEnum.DECIMAL128, 0)"},
		{"decimal(38,10)", "DType.create(DType.DTypeEnum.DECIMAL128, -10)"},
	} {
		typ, err := udf.ParseType(tc.spark)
		require.NoError(t, err, tc.spark)
		got, err := columnar.DType(typ)
		require.NoError(t, err, tc.spark)
		assert.Equal(t, tc.want, got, tc.spark)
	}
	for _, spark := range []string{"binary", "array<int>", "map<string,int>", "struct<a:int>"} {
		typ, err := udf.ParseType(spark)
		require.NoError(t, err, spark)
		_, err = columnar.DType(typ)
		var re *ir.RenderError
		assert.True(t, errors.As(err, &re), "%s: %v", spark, err)
	}
}

var (
	tDouble = udf.Prim(udf.Double)
	tInt    = udf.Prim(udf.Int)
	tLong   = udf.Prim(udf.Long)
	tBool   = udf.Prim(udf.Boolean)
	tString = udf.Prim(udf.String)
)

func fn(params []udf.Param, ret *udf.Type) *udf.UDF {
	return &udf.UDF{Name: "F", Language: udf.Java, Kind: udf.KindUDFClass, Params: params, Return: ret}
}

func TestRenderErrorForInexactNodes(t *testing.T) {
	x := &ir.Col{Name: "x", T: tDouble}
	i := &ir.Col{Name: "i", T: tInt}
	l := &ir.Col{Name: "l", T: tLong}
	s := &ir.Col{Name: "s", T: tString}
	params := []udf.Param{{Name: "x", Type: tDouble}, {Name: "i", Type: tInt}, {Name: "l", Type: tLong}, {Name: "s", Type: tString}}
	for _, tc := range []struct {
		name string
		e    ir.Expr
	}{
		{"double negation", &ir.Unary{Op: ir.DoubleNeg, X: x, T: tDouble}},
		{"python division", &ir.Binary{Op: ir.PyFloatDiv, L: x, R: &ir.Lit{T: tDouble, Value: 2.0}, T: tDouble}},
		{"int division by a column", &ir.Binary{Op: ir.JavaIntDiv, L: i, R: i, T: tInt}},
		{"int remainder by zero", &ir.Binary{Op: ir.JavaIntRem, L: i, R: &ir.Lit{T: tInt, Value: int64(0)}, T: tInt}},
		{"wrapping long addition", &ir.Binary{Op: ir.JavaIntAdd, L: l, R: l, T: tLong}},
		{"double equality", &ir.Binary{Op: ir.Eq, L: x, R: x, T: tBool}},
		{"double inequality", &ir.Binary{Op: ir.Ne, L: x, R: x, T: tBool}},
		{"string equality", &ir.Binary{Op: ir.Eq, L: s, R: s, T: tBool}},
		{"jvm d2i", &ir.Cast{Kind: ir.JVMDoubleToInt, X: x, To: tInt}},
		{"jvm d2l", &ir.Cast{Kind: ir.JVMDoubleToLong, X: x, To: tLong}},
		{"narrowing widen", &ir.Cast{Kind: ir.Widen, X: x, To: tInt}},
		{"startswith empty", &ir.Call{Fn: ir.StartsWith, Args: []ir.Expr{s, &ir.Lit{T: tString, Value: ""}}, T: tBool}},
		{"contains column", &ir.Call{Fn: ir.Contains, Args: []ir.Expr{s, s}, T: tBool}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := columnar.Render(fn(params, tc.e.Type()), tc.e, record)
			var re *ir.RenderError
			require.True(t, errors.As(err, &re), "want a RenderError, got %v", err)
		})
	}
	t.Run("python UDF", func(t *testing.T) {
		u := fn(params, tDouble)
		u.Language = udf.Python
		_, err := columnar.Render(u, x, record)
		var re *ir.RenderError
		require.True(t, errors.As(err, &re), "got %v", err)
	})
}

func TestRenderExactNodes(t *testing.T) {
	i := &ir.Col{Name: "i", T: tInt}
	x := &ir.Col{Name: "x", T: tDouble}
	s := &ir.Col{Name: "s", T: tString}
	params := []udf.Param{{Name: "i", Type: tInt}, {Name: "x", Type: tDouble}, {Name: "s", Type: tString}}
	for _, tc := range []struct {
		name string
		e    ir.Expr
		want []string
	}{
		{"wrapping int add widens then narrows", &ir.Binary{Op: ir.JavaIntAdd, L: i, R: &ir.Lit{T: tInt, Value: int64(1)}, T: tInt},
			[]string{"args[0].castTo(DType.INT64)", "Scalar.fromLong(1L)", "binaryOp(BinaryOp.ADD, s1, DType.INT64)", "c2.castTo(DType.INT32)"}},
		{"int div by a non-zero constant", &ir.Binary{Op: ir.JavaIntDiv, L: i, R: &ir.Lit{T: tInt, Value: int64(-1)}, T: tInt},
			[]string{"BinaryOp.DIV", "Scalar.fromLong(-1L)"}},
		{"ordered double comparison", &ir.Binary{Op: ir.Lt, L: x, R: &ir.Lit{T: tDouble, Value: 0.5}, T: tBool},
			[]string{"args[1].binaryOp(BinaryOp.LESS, s0, DType.BOOL8)"}},
		{"double remainder", &ir.Binary{Op: ir.DoubleRemNonZero, L: x, R: &ir.Lit{T: tDouble, Value: 3.0}, T: tDouble},
			[]string{"BinaryOp.MOD", "Scalar.fromDouble(3d)"}},
		{"ceil", &ir.Call{Fn: ir.CeilDouble, Args: []ir.Expr{x}, T: tDouble}, []string{"unaryOp(UnaryOp.CEIL)"}},
		{"string literal escapes", &ir.Call{Fn: ir.StartsWith, Args: []ir.Expr{s, &ir.Lit{T: tString, Value: "a\"\n\u00e9\U0001F600"}}, T: tBool},
			[]string{`Scalar.fromString("a\"\012\u00e9\ud83d\ude00")`, "args[2].startsWith(s0)"}},
		{"constant negative zero body", &ir.Lit{T: tDouble, Value: math.Copysign(0, -1)}, []string{"Scalar.fromDouble(-0d)", "ColumnVector.fromScalar(s0, numRows)", "return c1.incRefCount()"}},
		{"identity returns a new reference", x, []string{"return args[1].incRefCount();"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files, err := columnar.Render(fn(params, tc.e.Type()), tc.e, record)
			require.NoError(t, err)
			for _, w := range tc.want {
				assert.Contains(t, string(files[0].Content), w)
			}
		})
	}
}

func TestPackageOf(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"package a.b;\nimport x;\nclass C {}", "a.b"},
		{"/* header\n */\n// c\npackage examples.temperature\n\nclass C", "examples.temperature"},
		{"package a\npackage b\nclass C", "a.b"},
		{"class C", ""},
		{"package object p { }", ""},
	} {
		got, err := columnar.PackageOf([]byte(tc.src))
		require.NoError(t, err, tc.src)
		assert.Equal(t, tc.want, got, tc.src)
	}
	_, err := columnar.PackageOf([]byte("package a {\nclass C\n}"))
	assert.Error(t, err)
}
