package scala

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/udf"
)

const examples = "../../../examples/"

func parse(t testing.TB, src string) []udf.UDF {
	t.Helper()
	fe := New()
	defer fe.Close()
	us, err := fe.Parse("T.scala", []byte(src))
	require.NoError(t, err)
	return us
}

func one(t *testing.T, src string) udf.UDF {
	t.Helper()
	us := parse(t, src)
	require.Len(t, us, 1, "UDFs found: %v", names(us))
	return us[0]
}

func names(us []udf.UDF) []string {
	out := make([]string, len(us))
	for i, u := range us {
		out[i] = u.Name
	}
	return out
}

func typeStr(ty *udf.Type) string { return ty.String() }

// param is a compact form of udf.Param: "name type[!]" where ! marks a
// primitive.
func params(u udf.UDF) []string {
	out := []string{}
	for _, p := range u.Params {
		s := p.Name + " " + typeStr(p.Type)
		if p.Primitive {
			s += "!"
		}
		out = append(out, s)
	}
	return out
}

// uses is a compact form of the use sites: "kind@line".
func uses(u udf.UDF) []string {
	out := []string{}
	for _, s := range u.UseSites {
		out = append(out, string(s.Kind)+"@"+itoa(s.Span.Start.Line))
	}
	return out
}

// blockers is a compact form of the blockers: "kind: detail @line".
func blockers(u udf.UDF) []string {
	out := []string{}
	for _, b := range u.Blockers {
		out = append(out, string(b.Kind)+": "+b.Detail+" @"+itoa(b.Span.Start.Line))
	}
	return out
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}

func pos(line, col int) udf.Position { return udf.Position{Line: line, Column: col} }

func TestExampleToFahrenheit(t *testing.T) {
	path := examples + "scala-to-fahrenheit/ToFahrenheit.scala"
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	fe := New()
	defer fe.Close()
	us, err := fe.Parse(path, src)
	require.NoError(t, err)
	require.Len(t, us, 1)
	u := us[0]
	assert.Equal(t, "ToFahrenheit", u.Name)
	assert.Equal(t, path, u.File)
	assert.Equal(t, udf.Scala, u.Language)
	assert.Equal(t, udf.KindFunctionClass, u.Kind)
	assert.Equal(t, []string{"to_fahrenheit"}, u.RegisteredNames)
	assert.Equal(t, udf.Span{Start: pos(6, 1), End: pos(11, 2)}, u.Span)
	assert.Equal(t, udf.Span{Start: pos(7, 3), End: pos(10, 4)}, u.BodySpan)
	assert.Equal(t, []udf.Param{{Name: "celsius", SourceType: "java.lang.Double", Type: udf.Prim(udf.Double)}}, u.Params)
	assert.Equal(t, "double", typeStr(u.Return))
	assert.False(t, u.NullSkipsCall)
	assert.Equal(t, []udf.UseSite{
		{Kind: udf.UseRegister, Span: udf.Span{Start: pos(16, 5), End: pos(16, 60)}, Text: `spark.udf.register("to_fahrenheit", new ToFahrenheit())`},
		{Kind: udf.UseSQL, Span: udf.Span{Start: pos(18, 25), End: pos(18, 97)}, Text: `"SELECT station, to_fahrenheit(temperature) AS fahrenheit FROM readings"`},
	}, u.UseSites)
	assert.Empty(t, u.Blockers)
	assert.Len(t, u.Targets, len(udf.Targets))
}

func TestExampleFahrenheitLambda(t *testing.T) {
	path := examples + "scala-lambda-fahrenheit/FahrenheitLambda.scala"
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	fe := New()
	defer fe.Close()
	us, err := fe.Parse(path, src)
	require.NoError(t, err)
	require.Len(t, us, 1)
	u := us[0]
	assert.Equal(t, "toFahrenheit", u.Name)
	assert.Equal(t, udf.KindLambda, u.Kind)
	assert.Empty(t, u.RegisteredNames)
	assert.Equal(t, udf.Span{Start: pos(9, 3), End: pos(9, 74)}, u.Span)
	assert.Equal(t, udf.Span{Start: pos(9, 26), End: pos(9, 73)}, u.BodySpan)
	assert.Equal(t, []udf.Param{{Name: "celsius", SourceType: "Double", Type: udf.Prim(udf.Double), Primitive: true}}, u.Params)
	assert.Equal(t, "double", typeStr(u.Return))
	assert.True(t, u.NullSkipsCall)
	assert.Equal(t, []udf.UseSite{
		{Kind: udf.UseCall, Span: udf.Span{Start: pos(15, 33), End: pos(15, 65)}, Text: `toFahrenheit(col("temperature"))`},
	}, u.UseSites)
	assert.Empty(t, u.Blockers)
}

func TestExampleNoUDF(t *testing.T) {
	path := examples + "scala-no-udf/WarmReadings.scala"
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	fe := New()
	defer fe.Close()
	us, err := fe.Parse(path, src)
	require.NoError(t, err)
	assert.Empty(t, us)
}

func TestDefinitions(t *testing.T) {
	tests := []struct {
		name       string
		src        string
		udfName    string
		kind       udf.Kind
		registered []string
		params     []string
		ret        string
		span       [2]int // first and last line of Span
		bodyLine   int    // first line of BodySpan
		uses       []string
	}{
		{
			name: "object extending scala.Function2 with Serializable, return from the type arguments",
			src: `object Add extends scala.Function2[Int, Double, Double] with Serializable {
  def apply(a: Int, b: Double) = a + b
}`,
			udfName: "Add", kind: udf.KindFunctionClass, params: []string{"a int!", "b double!"}, ret: "double",
			span: [2]int{1, 3}, bodyLine: 2, uses: []string{},
		},
		{
			name: "class extending a function type",
			src: `class Half extends (Double => Double) {
  def apply(x: Double): Double = x / 2
}`,
			udfName: "Half", kind: udf.KindFunctionClass, params: []string{"x double!"}, ret: "double",
			span: [2]int{1, 3}, bodyLine: 2, uses: []string{},
		},
		{
			name: "UDF1 class registered with a DataType, called from callUDF and SQL",
			src: `import org.apache.spark.sql.api.java.UDF1
class Len extends UDF1[String, Integer] {
  override def call(s: String): Integer = s.length
}
object Job {
  def run(spark: SparkSession): Unit = {
    spark.udf.register("len", new Len(), DataTypes.IntegerType)
    df.select(callUDF("len", col("s")))
    spark.sql(s"SELECT LEN(s) FROM t WHERE x > $limit")
  }
}`,
			udfName: "Len", kind: udf.KindUDFClass, registered: []string{"len"}, params: []string{"s string"}, ret: "int",
			span: [2]int{2, 4}, bodyLine: 3, uses: []string{"register@7", "call@8", "sql@9"},
		},
		{
			name: "apply without a result type takes the last type argument",
			src: `class Neg extends Function1[java.lang.Long, java.lang.Long] {
  def apply(x: java.lang.Long) = -x
}`,
			udfName: "Neg", kind: udf.KindFunctionClass, params: []string{"x bigint"}, ret: "bigint",
			span: [2]int{1, 3}, bodyLine: 2, uses: []string{},
		},
		{
			name: "Scala 3 indented class",
			src: `class Inc extends Function1[Int, Int]:
  def apply(x: Int): Int =
    x + 1
`,
			udfName: "Inc", kind: udf.KindFunctionClass, params: []string{"x int!"}, ret: "int",
			span: [2]int{1, 4}, bodyLine: 2, uses: []string{},
		},
		{
			name:    "udf with type arguments",
			src:     `object O { val twice = udf[Double, Int]((x: Int) => x * 2.0) }`,
			udfName: "twice", kind: udf.KindLambda, params: []string{"x int!"}, ret: "double",
			span: [2]int{1, 1}, bodyLine: 1, uses: []string{},
		},
		{
			name:    "type arguments give the types of untyped lambda parameters",
			src:     `object O { val twice = udf[Long, Long](x => x * 2) }`,
			udfName: "twice", kind: udf.KindLambda, params: []string{"x bigint!"}, ret: "bigint",
			span: [2]int{1, 1}, bodyLine: 1, uses: []string{},
		},
		{
			name:    "functions.udf with a DataType",
			src:     `object O { val pick = functions.udf((x: Long, y: String) => if (x > 0) y else null, DataTypes.StringType) }`,
			udfName: "pick", kind: udf.KindLambda, params: []string{"x bigint!", "y string"}, ret: "string",
			span: [2]int{1, 1}, bodyLine: 1, uses: []string{},
		},
		{
			name:    "F.udf with a block argument",
			src:     `object O { val up = F.udf { (s: String) => s.toUpperCase } }`,
			udfName: "up", kind: udf.KindLambda, params: []string{"s string"}, ret: "string",
			span: [2]int{1, 1}, bodyLine: 1, uses: []string{},
		},
		{
			name:    "untyped lambda parameter",
			src:     `object O { val id = udf(x => x) }`,
			udfName: "id", kind: udf.KindLambda, params: []string{"x unknown"}, ret: "unknown",
			span: [2]int{1, 1}, bodyLine: 1, uses: []string{},
		},
		{
			name: "udf(f _) of a def in the file, called and passed on",
			src: `object O {
  def plus(a: Int, b: Int): Int = { a + b }
  val plusUdf = udf(plus _)
  df.select(plusUdf(col("a"), col("b")))
  wrap(plusUdf)
}`,
			udfName: "plus", kind: udf.KindFunctionRef, params: []string{"a int!", "b int!"}, ret: "int",
			span: [2]int{3, 3}, bodyLine: 2, uses: []string{"call@4", "reference@5"},
		},
		{
			name: "udf(f(_)) with the result type inferred from the def",
			src: `object O {
  def half(x: Double) = x / 2
  val h = udf(half(_))
}`,
			udfName: "half", kind: udf.KindFunctionRef, params: []string{"x double!"}, ret: "double",
			span: [2]int{3, 3}, bodyLine: 2, uses: []string{},
		},
		{
			name: "register of a lambda takes the registered name",
			src: `object O {
  def main(): Unit = {
    spark.udf.register("sq", (x: Int) => x * x)
    spark.sql("""SELECT sq(a)
      FROM t""")
    df.selectExpr("sq(b)").select(expr("SQ (c)"), call_udf("sq", col("d")))
  }
}`,
			udfName: "sq", kind: udf.KindLambda, registered: []string{"sq"}, params: []string{"x int!"}, ret: "int",
			span: [2]int{3, 3}, bodyLine: 3, uses: []string{"register@3", "sql@4", "sql@6", "sql@6", "call@6"},
		},
		{
			name: "register of a method reference through udf()",
			src: `object O {
  def clip(x: Double): Double = math.min(x, 1.0)
  def main(): Unit = {
    session.udf().register("clip", clip _)
  }
}`,
			udfName: "clip", kind: udf.KindFunctionRef, registered: []string{"clip"}, params: []string{"x double!"}, ret: "double",
			span: [2]int{4, 4}, bodyLine: 2, uses: []string{"register@4"},
		},
		{
			name: "register of a udf val adds its name",
			src: `object O {
  val inc = udf((x: Int) => x + 1)
  sparkSession.udf.register("inc_sql", inc)
  spark.sql("SELECT inc_sql(a) FROM t")
}`,
			udfName: "inc", kind: udf.KindLambda, registered: []string{"inc_sql"}, params: []string{"x int!"}, ret: "int",
			span: [2]int{2, 2}, bodyLine: 2, uses: []string{"register@3", "sql@4"},
		},
		{
			name: "register of an object extending Function1",
			src: `object Sq extends Function1[Int, Int] { def apply(x: Int): Int = x * x }
object J { spark.udf.register("sq", Sq) }`,
			udfName: "Sq", kind: udf.KindFunctionClass, registered: []string{"sq"}, params: []string{"x int!"}, ret: "int",
			span: [2]int{1, 1}, bodyLine: 1, uses: []string{"register@2"},
		},
		{
			name: "anonymous UDF1 registered straight away",
			src: `object O {
  spark.udf.register("inc", new UDF1[Integer, Integer] {
    override def call(x: Integer): Integer = x + 1
  }, DataTypes.IntegerType)
}`,
			udfName: "inc", kind: udf.KindUDFClass, registered: []string{"inc"}, params: []string{"x int"}, ret: "int",
			span: [2]int{2, 4}, bodyLine: 3, uses: []string{"register@2"},
		},
		{
			name: "lambda held by a val, wrapped and registered",
			src: `object O {
  val add = (a: Int, b: Int) => a + b
  val addUdf = udf(add)
  spark.udf.register("add", add)
  df.select(addUdf(col("a"), col("b")))
}`,
			udfName: "add", kind: udf.KindLambda, registered: []string{"add"}, params: []string{"a int!", "b int!"}, ret: "int",
			span: [2]int{2, 2}, bodyLine: 2, uses: []string{"register@4", "call@5"},
		},
		{
			name:    "udf called in place has a placeholder name",
			src:     `object O { df.select(udf((x: Int) => x + 1).apply(col("a")), 1) ; df.select(udf((y: Int) => y)(col("b"))) }`,
			udfName: "", kind: udf.KindLambda, span: [2]int{1, 1}, bodyLine: 1,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			us := parse(t, tc.src)
			if tc.udfName == "" {
				require.Len(t, us, 2)
				assert.Equal(t, "<lambda@1:26>", us[0].Name)
				assert.Equal(t, "<lambda@1:81>", us[1].Name)
				assert.Equal(t, []string{"call@1"}, uses(us[1]))
				return
			}
			require.Len(t, us, 1, "UDFs found: %v", names(us))
			u := us[0]
			assert.Equal(t, tc.udfName, u.Name)
			assert.Equal(t, tc.kind, u.Kind)
			if tc.registered == nil {
				tc.registered = []string{}
			}
			assert.Equal(t, tc.registered, u.RegisteredNames)
			assert.Equal(t, tc.params, params(u))
			assert.Equal(t, tc.ret, typeStr(u.Return))
			assert.Equal(t, tc.span[0], u.Span.Start.Line, "span start")
			assert.Equal(t, tc.span[1], u.Span.End.Line, "span end")
			assert.Equal(t, tc.bodyLine, u.BodySpan.Start.Line, "body start")
			assert.Equal(t, tc.uses, uses(u))
			assert.Equal(t, "T.scala", u.File)
		})
	}
}

func TestNotUDFs(t *testing.T) {
	for _, src := range []string{
		`object O { df.filter(col("t") > 3).select("a") }`,
		`object O { val u = spark.udf; val v = session.udf() }`,
		`object O { spark.udf.register("x", notInThisFile _) ; spark.udf.register(name, (x: Int) => x) }`,
		`object O { val f = udf(externalFunction) }`,
		`trait T extends Function1[Int, Int]`,
		`class C extends Serializable { def apply(x: Int) = x }`,
		`object O { val f = (x: Int) => x + 1 }`,
	} {
		assert.Empty(t, parse(t, src), src)
	}
}

func TestFunctionClassWithoutApply(t *testing.T) {
	u := one(t, `abstract class Base extends Function2[Int, String, Boolean]`)
	assert.Equal(t, []string{"v1 int!", "v2 string"}, params(u))
	assert.Equal(t, "boolean", typeStr(u.Return))
	assert.Equal(t, u.Span, u.BodySpan)
}

func TestInferReturn(t *testing.T) {
	tests := []struct{ params, body, want string }{
		{"x: Double", "x * 9.0 / 5.0 + 32.0", "double"},
		{"x: Int", "9.0f * x", "float"},
		{"x: Int", "x + 9", "int"},
		{"x: Int", "x + 9L", "bigint"},
		{"x: Short, y: Byte", "x + y", "int"},
		{"x: Int, y: Long", "x * y", "bigint"},
		{"x: Float, y: Long", "x - y", "float"},
		{"x: Int", `"n" + x`, "string"},
		{"x: Int", `x + "n"`, "string"},
		{"x: Int", "x > 3 && x < 9", "boolean"},
		{"x: Int", "!(x == 3)", "boolean"},
		{"x: Int", `if (x > 0) "pos" else "neg"`, "string"},
		{"x: Int", `if (x > 0) 1 else 2.0`, "unknown"},
		{"x: Int", `if (x > 0) 1`, "unknown"},
		{"x: Double", "math.sqrt(x)", "double"},
		{"x: Int", "Math.pow(x, 2)", "double"},
		{"x: Int", "math.abs(x)", "int"},
		{"x: Long, y: Int", "math.max(x, y)", "bigint"},
		{"x: Double", "math.round(x)", "bigint"},
		{"x: Float", "Math.round(x)", "int"},
		{"x: Double", "x.toInt", "int"},
		{"x: Double", "x.toLong + 1", "bigint"},
		{"s: String", "s.toDouble", "double"},
		{"x: Int", "x.toString", "string"},
		{"x: Int", "x.toString()", "string"},
		{"s: String", "s.length", "int"},
		{"s: String", "s.length()", "int"},
		{"s: String", "s.trim.toUpperCase", "string"},
		{"x: Double", "{ val y = x * 2; val z: Long = 3; y + z }", "double"},
		{"x: Double", "-x", "double"},
		{"x: Byte", "-x", "int"},
		{"x: Int", "'c'", "unknown"},
		{"x: Int", "foo(x)", "unknown"},
		{"x: Int", "x.foo", "unknown"},
		{"x: Int", "x max 3", "int"},
		{"x: Int", "true", "boolean"},
		{"ms: Long", `{ val f = new java.text.SimpleDateFormat("yyyy"); f.setTimeZone(null); f.format(new java.util.Date(ms)) }`, "string"},
		{"ms: Long", `new SimpleDateFormat("yyyy").format(new Date(ms))`, "string"},
		{"ms: Long", `{ val f = new SimpleDateFormat("yyyy"); f }`, "unknown"},
		{"ms: Long", `{ val f = new Formatter("yyyy"); f.format(ms) }`, "unknown"},
		{"ms: Long", `Fmt.format(Instant.ofEpochMilli(ms))`, "string"},
		{"ms: Long", `Instant.ofEpochMilli(ms).atZone(ZoneOffset.UTC).format(Fmt)`, "string"},
	}
	for _, tc := range tests {
		t.Run(tc.body, func(t *testing.T) {
			u := one(t, "object O { val f = udf(("+tc.params+") => "+tc.body+") }")
			assert.Equal(t, tc.want, typeStr(u.Return))
		})
	}
}

func TestBlockers(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"pure", `object O { val f = udf((x: Double) => math.abs(x) + Math.max(x, 1.0) + x.toInt + java.lang.Double.valueOf(x) + Double.MaxValue) }`, []string{}},
		{"string and option methods", `object O { val f = udf((s: String) => Option(s).map(_.trim).getOrElse("").substring(1).toLowerCase + s.length) }`, []string{}},
		{"println", `object O { val f = udf((x: Int) => { println(x); x }) }`, []string{"io: call to println @1"}},
		{"file io", `object O { val f = udf((p: String) => scala.io.Source.fromFile(p).mkString + new java.io.File(p).getName) }`,
			[]string{"io: call to scala.io.Source.fromFile @1", "unknown-call: call to new java.io.File(p).getName @1", "io: new java.io.File @1"}},
		{"logger", `object O { val f = udf((x: Int) => { logger.info("x"); x }) }`, []string{"io: call to logger.info @1"}},
		{"network", `object O { val f = udf((u: String) => new java.net.URL(u).getHost) }`,
			[]string{"unknown-call: call to new java.net.URL(u).getHost @1", "network: new java.net.URL @1"}},
		{"random and time", `object O { val f = udf((x: Double) => x * scala.util.Random.nextDouble() + math.random + System.currentTimeMillis + java.util.UUID.randomUUID().hashCode + LocalDate.now().getYear) }`,
			[]string{
				"nondeterminism: call to scala.util.Random.nextDouble @1", "nondeterminism: call to math.random @1",
				"nondeterminism: call to System.currentTimeMillis @1", "nondeterminism: call to java.util.UUID.randomUUID @1",
				"unknown-call: call to LocalDate.now().getYear @1", "nondeterminism: call to LocalDate.now @1",
			}},
		{"new Random", `object O { val f = udf((x: Int) => new Random().nextInt(x)) }`,
			[]string{"unknown-call: call to new Random().nextInt @1", "nondeterminism: new Random @1"}},
		{"mutable state", `object O {
  var count = 0
  val f = udf((x: Int) => {
    count += 1
    x + count + O.count
  })
}`, []string{"mutable-state: assignment to count @4", "mutable-state: reads var count @5", "mutable-state: reads var O.count @5"}},
		{"var class parameter", `class Scale(var k: Double, m: Double) extends Function1[Double, Double] { def apply(x: Double): Double = x * k * m }`,
			[]string{"mutable-state: reads var k @1"}},
		{"local var is not mutable state", `object O { val f = udf((x: Int) => { var n = x; n += 1; n = n * 2; n }) }`, []string{}},
		{"class field var", `class Acc extends Function1[Int, Int] {
  private var total = 0
  def apply(x: Int): Int = { this.total = this.total + x; total }
}`, []string{"mutable-state: assignment to this.total @3", "mutable-state: reads var this.total @3", "mutable-state: reads var total @3"}},
		{"try and Try", `object O { val f = udf((s: String) => try { s.toInt } catch { case _: Exception => Try(s.trim.toInt).getOrElse(0) }) }`,
			[]string{"exception-handling: try/catch @1", "exception-handling: Try(...) @1"}},
		{"loops", `object O { val f = udf((s: String) => {
  var n = 0
  while (n < 3) { n += 1 }
  do { n -= 1 } while (n > 0)
  for (c <- s) { n += c }
  val cs = for (c <- s) yield c
  s.foreach(c => n += 1)
  n
}) }`, []string{"loop: while loop @3", "loop: do-while loop @4", "loop: for loop @5", "loop: for comprehension @6", "loop: .foreach loop @7"}},
		{"date formatting the translator reads", `object O { val f = udf((ms: Long) => {
  val fmt = new java.text.SimpleDateFormat("yyyy")
  fmt.setTimeZone(java.util.TimeZone.getTimeZone("UTC"))
  fmt.format(new java.util.Date(ms)) + DateTimeFormatter.ofPattern("HH").withZone(ZoneOffset.UTC).format(Instant.ofEpochMilli(ms)) + new java.util.Date()
}) }`, []string{"nondeterminism: new java.util.Date @4"}},
		{"unknown call", `object O { val f = udf((s: String) => s.render(1) + external(s) + s.fooBar) }`,
			[]string{"unknown-call: call to s.render @1", "unknown-call: call to external @1", "unknown-call: call to s.fooBar @1"}},
		{"same-file def is scanned", `object O {
  def helper(x: Double): Double = { println(x); x * 2 }
  def pure(x: Double): Double = x + 1
  val f = udf((x: Double) => helper(x) + pure(x) + O.pure(x))
}`, []string{"io: call to println @2"}},
		{"object val initializer is scanned", `object O {
  val rnd = new scala.util.Random()
  val factor = 1.8
  val f = udf((x: Double) => x * factor + rnd.nextDouble())
}`, []string{"nondeterminism: new scala.util.Random @2", "unknown-call: call to rnd.nextDouble @4"}},
		{"class UDF uses its own method", `class C extends Function1[Int, Int] {
  private def log2(x: Int): Int = { System.out.println(x); x }
  def apply(x: Int): Int = log2(x) + 1
}`, []string{"io: call to System.out.println @2"}},
		{"same blocker on one line once", `object O { val f = udf((x: Int) => { println(x); println(x + 1); x }) }`, []string{"io: call to println @1"}},
		{"same blocker on two lines twice", `object O { val f = udf((x: Int) => { println(x)
  println(x + 1); x }) }`, []string{"io: call to println @1", "io: call to println @2"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			u := one(t, tc.src)
			assert.Equal(t, tc.want, blockers(u))
		})
	}
}

func TestNullSkipsCall(t *testing.T) {
	assert.True(t, one(t, `object O { val f = udf((x: Double, s: String) => s + x) }`).NullSkipsCall)
	assert.False(t, one(t, `object O { val f = udf((x: java.lang.Double) => x) }`).NullSkipsCall)
	assert.False(t, one(t, `class C extends UDF1[Double, Double] { def call(x: Double): Double = x }`).NullSkipsCall)
	// The untyped udf(f, dataType) hands a null input to a primitive
	// parameter as its default value instead of skipping the call.
	untyped := one(t, `object O { val f = udf((x: Double) => x + 1.0, DoubleType) }`)
	assert.True(t, untyped.Untyped)
	assert.False(t, untyped.NullSkipsCall)
	typed := one(t, `object O { val f = udf[Double, Double]((x: Double) => x + 1.0) }`)
	assert.False(t, typed.Untyped)
	assert.True(t, typed.NullSkipsCall)
}

func TestParseError(t *testing.T) {
	fe := New()
	defer fe.Close()
	us, err := fe.Parse("Bad.scala", []byte("object O {\n  val x = 1\n  def f( = 2\n}\n"))
	assert.Nil(t, us)
	var pe *udf.ParseError
	require.True(t, errors.As(err, &pe), "error %v", err)
	assert.Equal(t, "Bad.scala", pe.File)
	assert.Equal(t, 3, pe.Pos.Line)
}

func TestColumnsCountCodePoints(t *testing.T) {
	u := one(t, "object O { /* ° */ val f = udf((x: Int) => x) }")
	assert.Equal(t, pos(1, 20), u.Span.Start)
}

func TestFrontendReuse(t *testing.T) {
	fe := New()
	defer fe.Close()
	assert.Equal(t, udf.Scala, fe.Language())
	for range 3 {
		us, err := fe.Parse("A.scala", []byte(`object O { val f = udf((x: Int) => x) }`))
		require.NoError(t, err)
		require.Len(t, us, 1)
		_, err = fe.Parse("B.scala", []byte(`object O {`))
		require.Error(t, err)
	}
}

func exampleFiles(t testing.TB) map[string][]byte {
	out := map[string][]byte{}
	for _, p := range []string{
		"scala-to-fahrenheit/ToFahrenheit.scala",
		"scala-lambda-fahrenheit/FahrenheitLambda.scala",
		"scala-no-udf/WarmReadings.scala",
	} {
		src, err := os.ReadFile(examples + p)
		require.NoError(t, err)
		out[p] = src
	}
	return out
}

func FuzzParse(f *testing.F) {
	for _, src := range exampleFiles(f) {
		f.Add(src)
	}
	for _, src := range []string{
		`object O { val f = udf((x: Int) => x + 1); spark.udf.register("f", f); spark.sql("SELECT f(a)") }`,
		`class C extends (Double => Double) { def apply(x: Double): Double = { total += x; x } }`,
		`object O { spark.udf.register("inc", new UDF1[Integer, Integer] { def call(x: Integer): Integer = x + 1 }, DataTypes.IntegerType) }`,
		`object O { def p(a: Int) = a; val u = udf(p _); session.udf().register("p", p(_)) }`,
		`object O { val f = udf[Long, Long](x => { var n = x; while (n > 0) n -= 1; try n catch { case e: Exception => 0 } }) }`,
		"class X extends Function1[Int, Int]:\n  def apply(x: Int): Int =\n    x + 1\n",
	} {
		f.Add([]byte(src))
	}
	fe := New()
	defer fe.Close()
	f.Fuzz(func(t *testing.T, src []byte) {
		us, err := fe.Parse("F.scala", src)
		if err != nil {
			var pe *udf.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		lines := strings.Count(string(src), "\n") + 1
		inside := func(s udf.Span) bool {
			return s.Start.Line >= 1 && s.End.Line <= lines && s.Start.Line <= s.End.Line && s.Start.Column >= 1 && s.End.Column >= 1
		}
		for _, u := range us {
			if !inside(u.Span) || !inside(u.BodySpan) {
				t.Fatalf("%s: span %v / %v outside %d lines", u.Name, u.Span, u.BodySpan, lines)
			}
			for _, s := range u.UseSites {
				if !inside(s.Span) {
					t.Fatalf("%s: use site %v outside %d lines", u.Name, s.Span, lines)
				}
			}
			for _, b := range u.Blockers {
				if !inside(b.Span) {
					t.Fatalf("%s: blocker %v outside %d lines", u.Name, b.Span, lines)
				}
			}
		}
	})
}

func BenchmarkParse(b *testing.B) {
	files := exampleFiles(b)
	fe := New()
	defer fe.Close()
	b.ResetTimer()
	for b.Loop() {
		for p, src := range files {
			if _, err := fe.Parse(p, src); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(files)), "µs/file")
}

// TestReturnPrimitive: a class's apply returning scala.Boolean or Double
// returns a JVM primitive; java.lang.Boolean and String do not. Whether
// the return type is written on apply or only in the parent's type
// arguments.
func TestReturnPrimitive(t *testing.T) {
	src := []byte(`package p
class A extends Function1[String, Boolean] with Serializable { override def apply(s: String): Boolean = s == null }
class B extends Function1[String, java.lang.Boolean] with Serializable { override def apply(s: String): java.lang.Boolean = s == null }
class C extends Function1[Double, Double] with Serializable { override def apply(d: Double) = d }
class D extends Function1[String, String] with Serializable { override def apply(s: String): String = s }
`)
	fe := New()
	defer fe.Close()
	us, err := fe.Parse("p.scala", src)
	require.NoError(t, err)
	got := map[string]bool{}
	for _, u := range us {
		got[u.Name] = u.ReturnPrimitive
	}
	assert.Equal(t, map[string]bool{"A": true, "B": false, "C": true, "D": false}, got)
}

// A UDF held by a val inside a method carries what holding it in an
// object of its own takes: the package, the imports in scope (less those
// of the method's locals), the object whose members it may read, and the
// locals it reads.
func TestALambdaInsideMainCarriesItsLift(t *testing.T) {
	us := parse(t, `package jobs.temps

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.functions.{col, udf}

object Job {
  import scala.math.abs
  val Offset = 32.0
  def main(args: Array[String]): Unit = {
    val spark = SparkSession.builder().getOrCreate()
    import spark.implicits._
    val toF = udf((c: Double) => abs(c) * 9.0 / 5.0 + Offset)
    val k = args(0).toDouble
    val scaled = udf((c: Double) => { val c2 = c * k; c2 })
  }
  val atTop = udf((c: Double) => c + 1.0)
}
`)
	byName := map[string]udf.UDF{}
	for _, u := range us {
		byName[u.Name] = u
	}
	assert.Equal(t, &udf.Lift{
		Method:   "Job.main",
		Packages: []string{"package jobs.temps"},
		Imports:  []string{"import org.apache.spark.sql.SparkSession", "import org.apache.spark.sql.functions.{col, udf}", "import scala.math.abs"},
		Object:   "Job",
		Expr:     "udf((c: Double) => abs(c) * 9.0 / 5.0 + Offset)",
	}, byName["toF"].Lift)
	require.NotNil(t, byName["scaled"].Lift)
	assert.Equal(t, []string{"k"}, byName["scaled"].Lift.Captures)
	assert.Nil(t, byName["atTop"].Lift)
}

// The shapes real Scala code wraps in udf(...) besides a lambda: a
// placeholder lambda (each _ the next parameter, typed by udf[R, A...]'s
// arguments or its own ascription), an eta-expansion with its types
// ascribed, and a class extending Function[A, B] (Function1's alias).
// An underscore inside a nested argument is a lambda of its own, not a
// parameter.
func TestScanFindsPlaceholderLambdasAndFunctionClasses(t *testing.T) {
	us := parse(t, `object Forms {
  def ageCheck(age: Int): String = if (age >= 18) "adult" else "minor"
  val stripDashes = udf[String, String](_.replaceAll("-", ""))
  val ageGroup = udf(ageCheck(_: Int): String)
  val total = udf[Long, Long, Long](_ + _)
  val shout = udf((_: String) + "!")
  val firsts = udf((s: String) => s.split(",").map(_.trim).head)
}

class URLDecodeFn extends Function[String, String] with Serializable {
  override def apply(s: String): String = s
}
`)
	type sig struct {
		kind   udf.Kind
		params string
		ret    string
	}
	got := map[string]sig{}
	for _, u := range us {
		var ps []string
		for _, p := range u.Params {
			ty := "?"
			if p.Type != nil {
				ty = p.Type.String()
			}
			ps = append(ps, p.Name+" "+ty)
		}
		ret := "?"
		if u.Return != nil {
			ret = u.Return.String()
		}
		got[u.Name] = sig{u.Kind, strings.Join(ps, ", "), ret}
	}
	assert.Equal(t, map[string]sig{
		"stripDashes": {udf.KindLambda, "_1 string", "string"},
		"ageCheck":    {udf.KindFunctionRef, "age int", "string"},
		"total":       {udf.KindLambda, "_1 bigint, _2 bigint", "bigint"},
		"shout":       {udf.KindLambda, "_1 string", "string"},
		"firsts":      {udf.KindLambda, "s string", "?"},
		"URLDecodeFn": {udf.KindFunctionClass, "s string", "string"},
	}, got)
	for _, u := range us {
		if u.Name == "total" {
			require.Len(t, u.Params, 2)
			assert.Equal(t, udf.Span{Start: udf.Position{Line: 5, Column: 37}, End: udf.Position{Line: 5, Column: 38}}, *u.Params[0].Placeholder)
			assert.Equal(t, udf.Span{Start: udf.Position{Line: 5, Column: 41}, End: udf.Position{Line: 5, Column: 42}}, *u.Params[1].Placeholder)
		}
	}
}

// A lambda registered inside a method is lifted like a udf(...) val: the
// lambda alone, held under its registered name.
func TestALambdaRegisteredInsideAMethodCarriesItsLift(t *testing.T) {
	us := parse(t, `object Udfs {
  def register(spark: SparkSession): Unit = {
    spark.udf.register("len_or_zero", (s: String) => if (s == null) 0 else s.length)
    spark.udf.register("bad-name", (s: String) => s)
  }
}
`)
	require.Len(t, us, 2)
	assert.Equal(t, "len_or_zero", us[0].Name)
	require.NotNil(t, us[0].Lift)
	assert.Equal(t, "Udfs.register", us[0].Lift.Method)
	assert.Equal(t, "(s: String) => if (s == null) 0 else s.length", us[0].Lift.Expr)
	assert.Equal(t, "bad-name", us[1].Name)
	assert.Nil(t, us[1].Lift, "a registered name that is no Scala identifier cannot name a val")
}

// A local of the method that is a val of a literal is a constant: the
// lifted object holds a copy, and reading it is no capture. A local set
// from anything else, or bound twice, still is one.
func TestALiteralLocalTravelsWithTheLiftedUDF(t *testing.T) {
	us := parse(t, `object Job {
  def main(args: Array[String]): Unit = {
    val TaxRate = 0.08
    val Floor = -1
    val factor = args(0).toDouble
    val withTax = udf((amount: Double) => amount * (1 + TaxRate) + Floor)
    val scaled = udf((x: Double) => x * factor * TaxRate)
  }
}
`)
	byName := map[string]udf.UDF{}
	for _, u := range us {
		byName[u.Name] = u
	}
	require.NotNil(t, byName["withTax"].Lift)
	assert.Equal(t, []string{"val Floor = -1", "val TaxRate = 0.08"}, byName["withTax"].Lift.Consts)
	assert.Empty(t, byName["withTax"].Lift.Captures)
	require.NotNil(t, byName["scaled"].Lift)
	assert.Equal(t, []string{"factor"}, byName["scaled"].Lift.Captures)
}

// A def of an object whose body is udf(...) is a factory: the UDF goes by
// the def's name, binds the literals every call gives (or the defaults),
// and the calls applied to columns are its use sites. The runner holds
// its parameters as vals, so they are not captures.
func TestScanFindsFactoryDefs(t *testing.T) {
	us := parse(t, `package jobs

import org.apache.spark.sql.functions.{col, udf}

object Udfs {
  def scaleBy(factor: Double) = udf((x: Double) => x * factor)
  def offsetBy(n: Long = 10L) = udf { (x: Long) => x + n }
  def dynamic(k: Int) = udf((x: Int) => x + k)
  def unused(tag: String) = udf((s: String) => tag + s)
  def byName(k: => Int) = udf((x: Int) => x + k)
}

class Holder {
  def inClass(k: Int) = udf((x: Int) => x * k)
}

object Job {
  def run(df: org.apache.spark.sql.DataFrame, k: Int) =
    df.withColumn("a", Udfs.scaleBy(2.5)(col("a")))
      .withColumn("b", Udfs.scaleBy(2.5)(col("b")))
      .withColumn("c", Udfs.offsetBy()(col("c")))
      .withColumn("d", Udfs.dynamic(k)(col("d")))
}
`)
	byName := map[string]udf.UDF{}
	for _, u := range us {
		byName[u.Name] = u
	}
	scale := byName["scaleBy"]
	require.NotNil(t, scale.Factory)
	assert.Equal(t, []string{"factor"}, scale.Factory.Params)
	assert.Equal(t, []string{"Double"}, scale.Factory.Types)
	require.Len(t, scale.Factory.Args, 1)
	assert.Equal(t, "2.5", scale.Factory.Args[0].Literal)
	assert.Equal(t, 19, scale.Factory.Args[0].Span.Start.Line)
	assert.Equal(t, udf.Prim(udf.Double), scale.Return, "factor's declared type types x * factor")
	require.Len(t, scale.UseSites, 2)
	assert.Equal(t, `Udfs.scaleBy(2.5)(col("a"))`, scale.UseSites[0].Text)
	require.NotNil(t, scale.Lift)
	assert.Empty(t, scale.Lift.Captures)
	assert.Equal(t, "Udfs", scale.Lift.Object)
	assert.Equal(t, "udf((x: Double) => x * factor)", scale.Lift.Expr)

	off := byName["offsetBy"].Factory
	require.NotNil(t, off)
	require.Len(t, off.Args, 1)
	assert.Equal(t, "10L", off.Args[0].Literal, "the default")

	assert.Equal(t, "the call of dynamic at line 22 gives k k, which is not a literal", byName["dynamic"].Factory.Problem)
	assert.True(t, byName["unused"].Factory.NotCalled)
	assert.Contains(t, byName["byName"].Factory.Problem, "a by-name, repeated or function parameter")
	for _, u := range us {
		assert.NotEqual(t, "inClass", u.Name, "a class's def needs an instance: not a factory")
	}
}

func TestPlainLiteral(t *testing.T) {
	for text, want := range map[string]bool{
		`2.5`: true, `-3`: true, `10L`: true, `"ACC-"`: true, `true`: true, `'c'`: true, `1e-3`: true,
		`{ println(1); 2.5 }`: false, `2.5; val x = 1`: false, `sys.exit(0)`: false, `"a" + "b"`: false,
		"2.5\n": false, ``: false, `s"x$y"`: false, `2.5 }; object X { val y = 1`: false,
	} {
		assert.Equal(t, want, PlainLiteral(text), "%q", text)
	}
}

func FuzzPlainLiteral(f *testing.F) {
	for _, s := range []string{`2.5`, `"a"`, `{ 1 }`, `-1L`, `'x'`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if PlainLiteral(s) && strings.ContainsAny(s, "{};\n") && !strings.HasPrefix(s, `"`) && !strings.HasPrefix(s, `'`) {
			t.Fatalf("%q is code, not a literal", s)
		}
	})
}

// A val holding what a factory returns calls its UDF; one whose name is
// used otherwise (assigned to, read as a value) gives no use site.
func TestAFactoryUDFHeldByAValIsCalledByIt(t *testing.T) {
	us := parse(t, `object Udfs {
  def addTax(rate: Double) = udf((amount: Double) => amount * (1 + rate))
}

object Job {
  def run(df: DataFrame) = {
    val vat = Udfs.addTax(0.2)
    val other = Udfs.addTax(0.2)
    val alias = other
    df.withColumn("gross", vat(col("net"))).withColumn("x", other(col("net")))
  }
}
`)
	require.Len(t, us, 1)
	var uses []string
	for _, s := range us[0].UseSites {
		uses = append(uses, s.Text)
	}
	assert.Equal(t, []string{`vat(col("net"))`}, uses)
}

// Only the def's own object qualifies its calls: Other.scaleBy(3.0) is
// another object's def and neither a use site nor a call whose literal
// counts. A def with an empty parameter list makes its UDF too.
func TestAFactorysCallsAreOfItsObject(t *testing.T) {
	us := parse(t, `object Outer {
  object Udfs {
    def scaleBy(factor: Double) = udf((x: Double) => x * factor)
    def clean() = udf((s: String) => s.trim)
  }
}

object Other {
  def scaleBy(factor: Double) = (x: Double) => x + factor
  def twice(df: DataFrame) = df.withColumn("e", scaleBy(9.0)(col("e")))
}

object Job {
  def run(df: DataFrame) =
    df.withColumn("a", Outer.Udfs.scaleBy(2.5)(col("a")))
      .withColumn("b", Udfs.scaleBy(2.5)(col("b")))
      .withColumn("c", Other.scaleBy(3.0)(col("c")))
      .withColumn("d", Outer.Udfs.clean()(col("d")))
}
`)
	by := map[string]udf.UDF{}
	for _, u := range us {
		by[u.Name] = u
	}
	scale := by["scaleBy"]
	require.NotNil(t, scale.Factory)
	assert.Empty(t, scale.Factory.Problem, "Other.scaleBy(3.0), and scaleBy(9.0) where two defs bear the name, are not its calls")
	var uses []string
	for _, s := range scale.UseSites {
		uses = append(uses, s.Text)
	}
	assert.Equal(t, []string{`Outer.Udfs.scaleBy(2.5)(col("a"))`, `Udfs.scaleBy(2.5)(col("b"))`}, uses)
	require.Len(t, by["clean"].UseSites, 1)
	assert.Equal(t, `Outer.Udfs.clean()(col("d"))`, by["clean"].UseSites[0].Text)
	assert.Nil(t, by["clean"].Factory)
}
