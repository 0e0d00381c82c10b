package typeinfer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/udf/frontends"
)

// resolveOne parses src, resolves the UDF named name and returns it.
func resolveOne(t *testing.T, lang udf.Language, src, name string, opts Options) *udf.UDF {
	t.Helper()
	fe := frontends.New(lang)
	defer fe.Close()
	path := map[udf.Language]string{udf.Python: "job.py", udf.Scala: "Job.scala"}[lang]
	us, err := fe.Parse(path, []byte(src))
	require.NoError(t, err)
	for i := range us {
		if us[i].Name == name {
			require.NoError(t, Resolve(&us[i], []byte(src), opts))
			return &us[i]
		}
	}
	t.Fatalf("no UDF %s in %s", name, src)
	return nil
}

func sourceOf(u *udf.UDF, name string) udf.TypeSource {
	for _, s := range u.TypeSources {
		if s.Name == name {
			return s
		}
	}
	return udf.TypeSource{}
}

const pyHead = "from pyspark.sql.functions import col, udf\nfrom pyspark.sql.types import *\n"

// onePythonUDF is the one UDF of the Python source src, as job.py.
func onePythonUDF(t *testing.T, src string) *udf.UDF {
	t.Helper()
	fe := frontends.New(udf.Python)
	defer fe.Close()
	us, err := fe.Parse("job.py", []byte(src))
	require.NoError(t, err)
	require.Len(t, us, 1)
	return &us[0]
}

// TestSchemaFromUse is the table of what a Python file shows about the
// column a UDF is applied to, and what udfx makes of it: a type with
// its source, or no type with the reason.
func TestSchemaFromUse(t *testing.T) {
	f := "@udf(returnType=DoubleType())\ndef f(x):\n    return x\n"
	for _, tc := range []struct {
		name, body string
		typ        string // "" for no type
		source     string
		detail     string // a part of the detail
	}{
		{"read.schema DDL", f + `df = spark.read.schema("id long, price double").parquet(p)
df.select(f(col("price")))`, "double", "dataflow", "spark.read.schema at line 6: price double"},
		{"read.format.schema", f + `df = spark.read.format("csv").schema("price decimal(10,2)").load(p)
df.select(f(df["price"]))`, "decimal(10,2)", "dataflow", "price decimal(10,2)"},
		{"createDataFrame DDL", f + `df = spark.createDataFrame(rows, "name string, price int")
df.select(f(df.price))`, "int", "dataflow", "createDataFrame at line 6"},
		{"createDataFrame schema=", f + `df = spark.createDataFrame(rows, schema="price bigint")
df.select(f("price"))`, "bigint", "dataflow", "price bigint"},
		{"StructType variable", f + `schema = StructType([
    StructField("price", FloatType(), True),
    StructField("name", StringType(), True),
])
df = spark.createDataFrame(rows, schema)
df.select(f(col("price")))`, "float", "dataflow", "createDataFrame at line 10: price float"},
		{"DDL in a variable", f + `SCHEMA = "price double"
df = spark.read.schema(SCHEMA).json(p)
df.select(f(col("price")))`, "double", "dataflow", "price double"},
		{"cast at the call site", f + `df = spark.read.parquet(p)
df.select(f(col("price").cast("double")))`, "double", "cast", `col("price").cast("double")`},
		{"cast with a DataType", f + `df = spark.read.parquet(p)
df.select(f(col("n").cast(LongType())))`, "bigint", "cast", "LongType()"},
		{"two sites agree", f + `df = spark.read.schema("a double, b double").parquet(p)
df.select(f(col("a")), f(col("b")))`, "double", "dataflow", "a double"},
		{"SQL over a registered view", `f = udf(lambda x: x, "double")
spark.udf.register("f_sql", f)
spark.read.schema("price double").parquet(p).createOrReplaceTempView("t")
spark.sql("SELECT f_sql(price) FROM t")`, "double", "schema", "price double"},
		{"SQL with a cast", `f = udf(lambda x: x, "double")
spark.udf.register("f_sql", f)
spark.sql("SELECT f_sql(CAST(price AS DOUBLE)) FROM some_table")`, "double", "cast", "CAST(price AS DOUBLE)"},

		{"no schema", f + `spark.read.parquet(p).select(f(col("price")))`, "", "unknown", "no schema in the file declares a column price"},
		{"no schema, several types fit", `@udf(returnType=DoubleType())
def f(x):
    return x * 9.0 / 5.0 + 32.0
spark.read.parquet(p).select(f(col("price")))`, "", "unknown", "no schema in the file declares a column price; the body fits any of tinyint, smallint, int, bigint, float, double, and udfx does not choose one"},
		{"another read without a schema", f + `a = spark.read.schema("price double").parquet(p)
b = spark.read.parquet(q)
b.select(f(col("price")))`, "", "unknown", "line 7: a DataFrame read with .parquet(...) and no schema"},
		{"a table read by name", f + `a = spark.read.schema("price double").parquet(p)
spark.table("prices").select(f(col("price")))`, "", "unknown", "a table read by name"},
		{"schemas disagree", f + `a = spark.read.schema("price double").parquet(p)
b = spark.createDataFrame(rows, "price int")
a.union(b).select(f(col("price")))`, "", "unknown", "disagree on column price: double at line 6, int at line 7"},
		{"withColumn redefines it", f + `a = spark.read.schema("price double").parquet(p)
a.withColumn("price", col("price").cast("int")).select(f(col("price")))`, "int", "dataflow", ".cast at line 7: price int"},
		{"withColumn redefines it elsewhere", f + `a = spark.read.schema("price double").parquet(p)
b = a.withColumn("price", col("price").cast("int"))
c = a if p else b
c.select(f(col("price")))`, "", "unknown", "withColumn defines it"},
		{"an SQL alias redefines it", f + `a = spark.read.schema("price double").parquet(p)
a.createOrReplaceTempView("t")
spark.sql("SELECT CAST(price AS INT) AS price FROM t").select(f(col("price")))`, "", "unknown", "a SQL alias (AS price) defines it"},
		{"the UDF writes its own type back", f + `a = spark.read.schema("price double").parquet(p)
a.withColumn("price", f(col("price")))`, "double", "dataflow", "price double"},
		{"the UDF writes another type back, reading the column before", `@udf
def f(x):
    return str(x)
a = spark.read.schema("price double").parquet(p)
a.withColumn("price", f(col("price")))`, "double", "dataflow", "spark.read.schema at line 6: price double"},
		{"sites disagree", f + `df = spark.read.schema("a double, b int").parquet(p)
df.select(f(col("a")), f(col("b")))`, "", "unknown", "call sites disagree"},
		{"createDataFrame without a schema", f + `a = spark.read.schema("price double").parquet(p)
spark.createDataFrame(rows).select(f(col("price")))`, "", "unknown", "createDataFrame without a schema"},
		{"an expression", f + `df = spark.read.schema("a double").parquet(p)
df.select(f(col("a") * 2))`, "", "unknown", "not a column udfx can type"},
		{"never called", f, "", "unknown", "never calls the UDF"},
		{"more arguments than parameters", f + `df = spark.read.schema("a double, b double").parquet(p)
df.select(f(col("a"), col("b")))`, "", "unknown", "a call site passes 2 arguments to 1 parameters"},
		{"SQL over an unregistered table", `f = udf(lambda x: x, "double")
spark.udf.register("f_sql", f)
spark.read.schema("price double").parquet(p)
spark.sql("SELECT f_sql(price) FROM warehouse.prices")`, "", "unknown", "SQL reads table warehouse.prices"},
		{"a schema in a comment is no schema", f + `# spark.read.schema("price double")
spark.read.parquet(p).select(f(col("price")))`, "", "unknown", "no schema in the file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := pyHead + tc.body + "\n"
			u := onePythonUDF(t, src)
			require.NoError(t, Resolve(u, []byte(src), Options{}))
			s := sourceOf(u, u.Params[0].Name)
			assert.Equal(t, tc.source, s.Source, s.Detail)
			assert.Contains(t, s.Detail, tc.detail)
			if tc.typ == "" {
				assert.Nil(t, u.Params[0].Type)
				require.Error(t, Missing(u))
				assert.Contains(t, Missing(u).Error(), "--types")
				return
			}
			require.NotNil(t, u.Params[0].Type, s.Detail)
			assert.Equal(t, tc.typ, u.Params[0].Type.String())
			assert.NoError(t, Missing(u))
		})
	}
}

func TestAuthorityOrder(t *testing.T) {
	src := pyHead + `# udfx: (bigint) -> double
@udf(returnType=DoubleType())
def f(x: float):
    return x

spark.read.schema("price int").parquet(p).select(f(col("price")))
`
	// The flag wins over the comment, the comment over the hint; the
	// hint (the source) wins over the schema.
	u := resolveOne(t, udf.Python, src, "f", Options{Types: "x decimal(10,2)"})
	assert.Equal(t, udf.TypeSource{Name: "x", Type: udf.DecimalOf(10, 2), Source: "flag", Detail: "--types x decimal(10,2)"}, sourceOf(u, "x"))
	u = resolveOne(t, udf.Python, src, "f", Options{})
	assert.Equal(t, udf.TypeSource{Name: "x", Type: udf.Prim(udf.Long), Source: "comment", Detail: "line 3"}, sourceOf(u, "x"))
	u = resolveOne(t, udf.Python, strings.Replace(src, "# udfx: (bigint) -> double\n", "\n", 1), "f", Options{})
	assert.Equal(t, udf.TypeSource{Name: "x", Type: udf.Prim(udf.Double), Source: "source"}, sourceOf(u, "x"))
	u = resolveOne(t, udf.Python, strings.NewReplacer("# udfx: (bigint) -> double\n", "\n", "x: float", "x").Replace(src), "f", Options{})
	assert.Equal(t, "dataflow", sourceOf(u, "x").Source)
	assert.Equal(t, udf.Prim(udf.Int), u.Params[0].Type)
	// Samples come after the file's schema.
	u = resolveOne(t, udf.Python, pyHead+"@udf\ndef g(x):\n    return x\n", "g", Options{Samples: map[string]*udf.Type{"x": udf.Prim(udf.Date)}})
	assert.Equal(t, udf.TypeSource{Name: "x", Type: udf.Prim(udf.Date), Source: "samples", Detail: "column x of the --samples file"}, sourceOf(u, "x"))
	assert.Equal(t, udf.TypeSource{Name: "return", Type: udf.Prim(udf.String), Source: "default", Detail: "no return type given: PySpark's default is StringType"}, sourceOf(u, "return"))
}

func TestUserTypesCannotContradictTheSource(t *testing.T) {
	scala := `object O { val f = udf((x: Double) => x * 2.0) }`
	fe := frontends.New(udf.Scala)
	defer fe.Close()
	us, err := fe.Parse("O.scala", []byte(scala))
	require.NoError(t, err)
	require.Len(t, us, 1)
	err = Resolve(&us[0], []byte(scala), Options{Types: "x int"})
	var ue *UsageError
	require.ErrorAs(t, err, &ue)
	assert.Contains(t, err.Error(), "parameter x of f is declared double in the source, not int")
	// Giving what the source says is fine.
	require.NoError(t, Resolve(&us[0], []byte(scala), Options{Types: "(double) -> double"}))
}

func TestBodyForcesAString(t *testing.T) {
	for _, tc := range []struct {
		body   string
		forced bool
	}{
		{"def f(s):\n    return s.split(\",\")[0]\n", true},
		{"def f(s):\n    if s is None:\n        return None\n    return s.strip(\" \").lower()\n", true},
		{"def f(s):\n    return s.casefold()\n", true},
		{"def f(s):\n    return s.upper()\n", false},                                   // bytes has upper too
		{"def f(s):\n    return s.split(b\",\")[0]\n", false},                          // a bytes argument
		{"def f(s):\n    return s.count(\"a\")\n", false},                              // list.count too
		{"def f(s):\n    return s.split(\",\") if isinstance(s, str) else s\n", false}, // a type test
		{"def f(s):\n    try:\n        return s.split(\",\")\n    except:\n        return None\n", false},
		{"def f(s):\n    s = str(s)\n    return s.split(\",\")\n", false}, // reassigned
		{"def f(s):\n    return t.split(\",\")\n", false},                 // another name
	} {
		src := pyHead + "@udf\n" + tc.body
		u := resolveOne(t, udf.Python, src, "f", Options{})
		s := sourceOf(u, "s")
		if tc.forced {
			assert.Equal(t, "body", s.Source, tc.body)
			assert.Equal(t, udf.Prim(udf.String), s.Type, tc.body)
		} else {
			assert.Equal(t, "unknown", s.Source, tc.body)
		}
	}
}

func TestScalaReturnTypesAsScalacInfersThem(t *testing.T) {
	for _, tc := range []struct{ lambda, ret string }{
		{`(s: String) => s match { case "a" => "x"; case _ => "y" }`, "string"},
		{`(s: String) => if (s == null) null else s.trim`, "string"},
		{`(s: String) => s.split(",").map(_.trim).mkString(" ")`, "string"},
		{`(n: Int) => n match { case 1 => 1.0; case _ => 2.0 }`, "double"},
		{`(a: BigDecimal, b: BigDecimal) => a * b + a`, "decimal(38,18)"},
		{`(a: BigDecimal) => a * 2`, "decimal(38,18)"},
		{`(a: java.math.BigDecimal, b: java.math.BigDecimal) => a.multiply(b).setScale(2)`, "decimal(38,18)"},
		{`(a: java.lang.Long, b: java.lang.Long) => a + b`, "bigint"},
		{`(a: BigDecimal) => a * 2.0`, ""},                       // BigDecimal * Double: not followed
		{`(s: String) => if (s == null) null else s.length`, ""}, // Any: no Spark type
		{`(n: Int) => n match { case 1 => "a"; case _ => 2 }`, ""},
	} {
		src := "object O { val f = udf(" + tc.lambda + ") }"
		u := resolveOne(t, udf.Scala, src, "f", Options{})
		r := sourceOf(u, "return")
		if tc.ret == "" {
			assert.Equal(t, "unknown", r.Source, tc.lambda)
			assert.Error(t, Missing(u))
			continue
		}
		require.NotNil(t, u.Return, tc.lambda)
		assert.Equal(t, tc.ret, u.Return.String(), tc.lambda)
		assert.Equal(t, "source", r.Source)
	}
}

// A type the trace took through a function's parameter holds only while
// no other module of the repository names the function: one that imports
// it could pass another DataFrame.
func TestATypeThroughAParameterNeedsTheFunctionPrivate(t *testing.T) {
	src := pyHead + `@udf(returnType=DoubleType())
def f(x):
    return x

def enrich(df):
    return df.withColumn("y", f(col("price")))

enrich(spark.read.schema("price double").parquet(p))
`
	resolve := func(dir string) udf.TypeSource {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "job.py"), []byte(src), 0o644))
		u := onePythonUDF(t, src)
		u.Root = dir
		require.NoError(t, Resolve(u, []byte(src), Options{}))
		return sourceOf(u, "x")
	}
	repo := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(repo, ".git"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(repo, ".venv", "lib"), 0o755))
	// A name in the repository's environment is no module of the job.
	require.NoError(t, os.WriteFile(filepath.Join(repo, ".venv", "lib", "x.py"), []byte("enrich = 1\n"), 0o644))
	s := resolve(repo)
	assert.Equal(t, "dataflow", s.Source, s.Detail)
	assert.Equal(t, "double", s.Type.String())

	require.NoError(t, os.MkdirAll(filepath.Join(repo, "jobs"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(repo, "jobs", "daily.py"), []byte("from job import enrich\n"), 0o644))
	s = resolve(repo)
	assert.NotEqual(t, "dataflow", s.Source, s.Detail)

	// Outside a repository there is no telling who imports it.
	s = resolve(t.TempDir())
	assert.NotEqual(t, "dataflow", s.Source, s.Detail)
}
