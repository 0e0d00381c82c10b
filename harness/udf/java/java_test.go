package java

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/udf"
)

// summary is a UDF reduced to what the table tests compare: params as
// "name:type" ("!" marks a primitive), spans as line ranges, use sites as
// "kind@line", blockers as "kind:detail@line".
type summary struct {
	Name       string
	Kind       udf.Kind
	Registered []string
	Params     []string
	Return     string
	Span       [2]int
	Body       [2]int
	Uses       []string
	Blockers   []string
}

func summarize(u udf.UDF) summary {
	s := summary{
		Name:       u.Name,
		Kind:       u.Kind,
		Registered: u.RegisteredNames,
		Params:     []string{},
		Return:     u.Return.String(),
		Span:       [2]int{u.Span.Start.Line, u.Span.End.Line},
		Body:       [2]int{u.BodySpan.Start.Line, u.BodySpan.End.Line},
		Uses:       []string{},
		Blockers:   []string{},
	}
	for _, p := range u.Params {
		mark := ""
		if p.Primitive {
			mark = "!"
		}
		s.Params = append(s.Params, fmt.Sprintf("%s:%s%s", p.Name, p.Type, mark))
	}
	for _, us := range u.UseSites {
		s.Uses = append(s.Uses, fmt.Sprintf("%s@%d", us.Kind, us.Span.Start.Line))
	}
	for _, b := range u.Blockers {
		s.Blockers = append(s.Blockers, fmt.Sprintf("%s:%s@%d", b.Kind, b.Detail, b.Span.Start.Line))
	}
	return s
}

func parse(t testing.TB, src string) []udf.UDF {
	t.Helper()
	f := New()
	defer f.Close()
	us, err := f.Parse("Test.java", []byte(src))
	require.NoError(t, err)
	return us
}

var parseCases = []struct {
	name string
	src  string
	want []summary
}{
	{
		name: "udf class with qualified interface, nested and helper",
		src: `package p;
public class Outer {
  public static class Square implements org.apache.spark.sql.api.java.UDF1<Integer, Integer> {
    private int seen;
    private final int base = 1;
    public Integer call(Integer x) {
      seen++;
      for (int i = 0; i < 2; i++) {}
      return helper(x) * x + base;
    }
    private int helper(int v) { System.out.println(v); return v; }
  }
  void unused() { new java.io.File("x"); }
}
`,
		want: []summary{{
			Name: "Square", Kind: udf.KindUDFClass, Registered: []string{},
			Params: []string{"x:int"}, Return: "int", Span: [2]int{3, 12}, Body: [2]int{6, 10},
			Uses: []string{},
			Blockers: []string{
				"mutable-state:assigns field seen@7",
				"loop:for loop@8",
				"io:call to System.out.println@11",
			},
		}},
	},
	{
		name: "two-argument class with primitive call parameters and raw interface",
		src: `class Add implements UDF2<Double, Double, Double> {
  public Double call(double a, Double b) { return a + b; }
}
abstract class Base implements UDF1<String, String> {}
class NotAUdf { public Double call(Double x) { return x; } }
`,
		want: []summary{{
			Name: "Add", Kind: udf.KindUDFClass, Registered: []string{},
			Params: []string{"a:double!", "b:double"}, Return: "double", Span: [2]int{1, 3}, Body: [2]int{2, 2},
			Uses: []string{}, Blockers: []string{},
		}},
	},
	{
		name: "anonymous classes: assigned, registered inline, bare",
		src: `class Jobs {
  void run(SparkSession spark) {
    UDF1<Double, Double> abs = new UDF1<Double, Double>() {
      @Override public Double call(Double x) { return Math.abs(x); }
    };
    spark.udf().register("abs_v", abs, DataTypes.DoubleType);
    spark.udf().register("ident", new UDF1<Long, Long>() {
      public Long call(Long v) { try { return v; } catch (Exception e) { return null; } }
    }, DataTypes.LongType);
    Object o = foo(new UDF1<String, Integer>() { public Integer call(String s) { return s.length(); } });
  }
}
`,
		want: []summary{
			{
				Name: "abs", Kind: udf.KindUDFClass, Registered: []string{"abs_v"},
				Params: []string{"x:double"}, Return: "double", Span: [2]int{3, 5}, Body: [2]int{4, 4},
				Uses: []string{"register@6"}, Blockers: []string{},
			},
			{
				Name: "ident", Kind: udf.KindUDFClass, Registered: []string{"ident"},
				Params: []string{"v:bigint"}, Return: "bigint", Span: [2]int{7, 9}, Body: [2]int{8, 8},
				Uses:     []string{"register@7"},
				Blockers: []string{"exception-handling:try/catch@8"},
			},
			{
				Name: "<anonymous@10:20>", Kind: udf.KindUDFClass, Registered: []string{},
				Params: []string{"s:string"}, Return: "int", Span: [2]int{10, 10}, Body: [2]int{10, 10},
				Uses: []string{}, Blockers: []string{},
			},
		},
	},
	{
		name: "lambdas registered and wrapped by udf",
		src: `import static org.apache.spark.sql.functions.*;
class Jobs {
  static final String PLUS = "plus_one";
  private int calls;
  void run(SparkSession spark, Dataset<Row> df) {
    spark.udf().register("twice", (UDF1<Double, Double>) x -> x * 2, DataTypes.DoubleType);
    spark.sqlContext().udf().register(PLUS, (Integer a) -> a + 1, DataTypes.IntegerType);
    spark.udf().register("split_f", s -> null, DataTypes.createArrayType(DataTypes.FloatType));
    UserDefinedFunction noisy = functions.udf(
        (UDF1<Double, Double>) x -> x + calls, DataTypes.DoubleType);
    UserDefinedFunction add = udf((UDF2<Long, Long, Long>) (a, b) -> a + b, DataTypes.LongType);
    UDF1<String, String> up = s -> s.toUpperCase();
    spark.udf().register("noisy_n", noisy);
    df.select(noisy.apply(col("x")), callUDF("TWICE", col("y")), call_udf("plus_one", col("z")));
    df.selectExpr("twice(a) + split_f(b)", "noisy_n(c)");
    udf((UDF1<Integer, Integer>) v -> v, DataTypes.IntegerType);
    df.map(r -> r, encoder);
  }
}
`,
		want: []summary{
			{
				Name: "twice", Kind: udf.KindLambda, Registered: []string{"twice"},
				Params: []string{"x:double"}, Return: "double", Span: [2]int{6, 6}, Body: [2]int{6, 6},
				Uses: []string{"register@6", "call@14", "sql@15"}, Blockers: []string{},
			},
			{
				Name: "plus_one", Kind: udf.KindLambda, Registered: []string{"plus_one"},
				Params: []string{"a:int"}, Return: "int", Span: [2]int{7, 7}, Body: [2]int{7, 7},
				Uses: []string{"register@7", "call@14"}, Blockers: []string{},
			},
			{
				Name: "split_f", Kind: udf.KindLambda, Registered: []string{"split_f"},
				Params: []string{"s:unknown"}, Return: "array<float>", Span: [2]int{8, 8}, Body: [2]int{8, 8},
				Uses: []string{"register@8", "sql@15"}, Blockers: []string{},
			},
			{
				Name: "noisy", Kind: udf.KindLambda, Registered: []string{"noisy_n"},
				Params: []string{"x:double"}, Return: "double", Span: [2]int{9, 10}, Body: [2]int{10, 10},
				Uses:     []string{"register@13", "call@14", "sql@15"},
				Blockers: []string{"mutable-state:reads non-final field calls@10"},
			},
			{
				Name: "add", Kind: udf.KindLambda, Registered: []string{},
				Params: []string{"a:bigint", "b:bigint"}, Return: "bigint", Span: [2]int{11, 11}, Body: [2]int{11, 11},
				Uses: []string{}, Blockers: []string{},
			},
			{
				Name: "up", Kind: udf.KindLambda, Registered: []string{},
				Params: []string{"s:string"}, Return: "string", Span: [2]int{12, 12}, Body: [2]int{12, 12},
				Uses: []string{}, Blockers: []string{},
			},
			{
				Name: "<lambda@16:34>", Kind: udf.KindLambda, Registered: []string{},
				Params: []string{"v:int"}, Return: "int", Span: [2]int{16, 16}, Body: [2]int{16, 16},
				Uses: []string{}, Blockers: []string{},
			},
		},
	},
	{
		name: "method references",
		src: `class Conv {
  static double toF(double c) { return c * 1.8 + 32; }
  void run(SparkSession spark) {
    UserDefinedFunction f = udf(Conv::toF, DataTypes.DoubleType);
    UDF1<Double, Double> g = (UDF1<Double, Double>) Conv::toF;
    spark.udf().register("to_f", g, DataTypes.DoubleType);
    spark.udf().register("sqrt", (UDF1<Double, Double>) Math::sqrt, DataTypes.DoubleType);
  }
}
`,
		want: []summary{
			{
				Name: "toF", Kind: udf.KindFunctionRef, Registered: []string{},
				Params: []string{"c:double!"}, Return: "double", Span: [2]int{4, 4}, Body: [2]int{2, 2},
				Uses: []string{}, Blockers: []string{},
			},
			{
				Name: "toF", Kind: udf.KindFunctionRef, Registered: []string{"to_f"},
				Params: []string{"c:double!"}, Return: "double", Span: [2]int{5, 5}, Body: [2]int{2, 2},
				Uses: []string{"register@6"}, Blockers: []string{},
			},
		},
	},
	{
		name: "hive simple and generic UDFs with CREATE FUNCTION",
		src: `package com.acme;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.hive.ql.exec.UDF;
public class Funcs {
  public static class Upper extends UDF {
    public Text evaluate(Text s) { return s == null ? null : new Text(s.toString().toUpperCase()); }
    public Text evaluate(Text s, IntWritable n) { return s; }
  }
  public static class Gen extends org.apache.hadoop.hive.ql.udf.generic.GenericUDF {
    public ObjectInspector initialize(ObjectInspector[] a) { return null; }
    public Object evaluate(DeferredObject[] args) throws HiveException { return args[0].get(); }
    public String getDisplayString(String[] c) { return "gen"; }
  }
  void run(SparkSession spark) {
    spark.sql("CREATE TEMPORARY FUNCTION upper_h AS 'com.acme.Funcs$Upper'");
    spark.sql("create function gen as 'Gen'");
    spark.sql("CREATE TEMPORARY FUNCTION other AS 'org.other.Upper'");
    spark.sql("SELECT upper_h(name), gen(x) FROM t");
  }
}
`,
		want: []summary{
			{
				Name: "Upper", Kind: udf.KindHiveUDF, Registered: []string{"upper_h"},
				Params: []string{"s:string"}, Return: "string", Span: [2]int{5, 8}, Body: [2]int{6, 6},
				Uses: []string{"register@15", "sql@18"}, Blockers: []string{},
			},
			{
				Name: "Gen", Kind: udf.KindHiveGenericUDF, Registered: []string{"gen"},
				Params: []string{}, Return: "unknown", Span: [2]int{9, 13}, Body: [2]int{11, 11},
				Uses: []string{"register@16", "sql@18"}, Blockers: []string{},
			},
		},
	},
	{
		name: "hive writable parameter types",
		src: `class W extends UDF {
  public DoubleWritable evaluate(IntWritable i, LongWritable l, BooleanWritable b, FloatWritable f, org.apache.hadoop.io.Text t) {
    return new DoubleWritable(i.get());
  }
}
`,
		want: []summary{{
			Name: "W", Kind: udf.KindHiveUDF, Registered: []string{},
			Params: []string{"i:int", "l:bigint", "b:boolean", "f:float", "t:string"}, Return: "double",
			Span: [2]int{1, 5}, Body: [2]int{2, 4}, Uses: []string{}, Blockers: []string{},
		}},
	},
	{
		name: "registerJava and register through a field",
		src: `package a.b;
class Sq implements UDF1<Integer, Integer> {
  public Integer call(Integer x) { return x * x; }
  private static final UDF1<Integer, Integer> INSTANCE = new Sq();
  void run(SparkSession spark) {
    spark.udf().registerJava("sq_java", "a.b.Sq", DataTypes.IntegerType);
    spark.udf().register("sq_field", INSTANCE, DataTypes.IntegerType);
    UserDefinedFunction u = udf(new Sq(), DataTypes.IntegerType);
    spark.range(3).select(u.apply(col("id")));
  }
}
`,
		want: []summary{{
			Name: "Sq", Kind: udf.KindUDFClass, Registered: []string{"sq_java", "sq_field"},
			Params: []string{"x:int"}, Return: "int", Span: [2]int{2, 11}, Body: [2]int{3, 3},
			Uses: []string{"register@6", "register@7", "reference@8", "call@9"}, Blockers: []string{},
		}},
	},
	{
		name: "return type from the DataType when the class does not give one",
		src: `class G<T> implements UDF1<T, T> {
  public T call(T x) { return x; }
  void run(SparkSession spark) { spark.udf().register("g", new G<String>(), DataTypes.StringType); }
}
`,
		want: []summary{{
			Name: "G", Kind: udf.KindUDFClass, Registered: []string{"g"},
			Params: []string{"x:unknown"}, Return: "string", Span: [2]int{1, 4}, Body: [2]int{2, 2},
			Uses: []string{"register@3"}, Blockers: []string{},
		}},
	},
	{
		name: "assignment statement and udf field registry",
		src: `class R {
  UserDefinedFunction f;
  void run(SparkSession spark) {
    f = functions.udf((UDF1<Integer, Integer>) v -> v + 1, DataTypes.IntegerType);
    spark.udf.register("inc", f);
    spark.sql("select INC(1)");
  }
}
`,
		want: []summary{{
			Name: "f", Kind: udf.KindLambda, Registered: []string{"inc"},
			Params: []string{"v:int"}, Return: "int", Span: [2]int{4, 4}, Body: [2]int{4, 4},
			Uses: []string{"register@5", "sql@6"}, Blockers: []string{},
		}},
	},
	{
		name: "no UDFs",
		src: `class Plain {
  double f(double x) { return x; }
  void g(java.util.List<Double> xs) { xs.forEach(x -> System.out.println(x)); }
}
interface I extends UDF1<Double, Double> {}
`,
		want: []summary{},
	},
}

func TestParse(t *testing.T) {
	for _, tc := range parseCases {
		t.Run(tc.name, func(t *testing.T) {
			got := []summary{}
			for _, u := range parse(t, tc.src) {
				got = append(got, summarize(u))
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

// blockerCases are UDF class bodies; each lists the blockers expected in
// call(), lines counted from the line of call().
var blockerCases = []struct {
	name  string
	body  string
	extra string
	want  []string
}{
	{name: "pure arithmetic and known calls", body: `
    if (x == null || Double.isNaN(x)) return null;
    String s = String.valueOf(x).trim().toLowerCase();
    return Math.max(Math.abs(x), Double.valueOf(s.length())) + Objects.hashCode(s) + helper(x) + this.k;`,
		extra: `private final double k = 2; private static double helper(Double v) { return StrictMath.floor(v.doubleValue()); }`,
		want:  []string{}},
	{name: "io", body: `
    System.err.println(x);
    java.nio.file.Files.readAllLines(null);
    LOG.info("x");
    new FileReader("f");
    return x;`,
		extra: `private static final Logger LOG = LoggerFactory.getLogger(C.class);`,
		want: []string{
			"io:call to System.err.println@2",
			"io:call to java.nio.file.Files.readAllLines@3",
			"io:call to LOG.info@4",
			"io:new FileReader@5",
		}},
	{name: "network", body: `
    java.net.URL u = new URL("http://x");
    HttpClient c = HttpClient.newHttpClient();
    return x;`,
		want: []string{
			"network:new URL@2",
			"network:call to HttpClient.newHttpClient@3",
		}},
	{name: "date formatting the translator reads", body: `
    java.text.SimpleDateFormat f = new java.text.SimpleDateFormat("yyyy");
    f.setTimeZone(TimeZone.getTimeZone("UTC"));
    String a = f.format(new Date(x.longValue()));
    String b = DateTimeFormatter.ofPattern("yyyy").withZone(ZoneOffset.UTC).format(Instant.ofEpochMilli(x.longValue()));
    String c = Instant.ofEpochMilli(1L).atZone(ZoneId.of("UTC")).format(DateTimeFormatter.ofPattern("HH"));
    return x + a.length() + b.length() + c.length() + new Date().getTime();`,
		want: []string{
			"unknown-call:call to getTime@7",
			"nondeterminism:new Date()@7",
		}},
	{name: "nondeterminism", body: `
    double r = Math.random() + new Random().nextInt(3) + ThreadLocalRandom.current().nextDouble();
    long t = System.currentTimeMillis() + System.nanoTime();
    Object d = LocalDate.now();
    return x + UUID.randomUUID().hashCode() + rnd.nextGaussian();`,
		extra: `private final Random rnd = new Random(1);`,
		want: []string{
			"nondeterminism:call to Math.random@2",
			"nondeterminism:call to nextInt@2",
			"nondeterminism:new Random@2",
			"nondeterminism:call to nextDouble@2",
			"nondeterminism:call to ThreadLocalRandom.current@2",
			"nondeterminism:call to System.currentTimeMillis@3",
			"nondeterminism:call to System.nanoTime@3",
			"nondeterminism:call to LocalDate.now@4",
			"nondeterminism:call to UUID.randomUUID@5",
			"nondeterminism:call to rnd.nextGaussian@5",
		}},
	{name: "mutable state", body: `
    total += x;
    this.last = x;
    Counter.hits++;
    return x * scale + Registry.factor + Other.MAX;`,
		extra: `private double total; private Double last; private double scale = 1.0;`,
		want: []string{
			"mutable-state:assigns field total@2",
			"mutable-state:assigns field last@3",
			"mutable-state:assigns static field Counter.hits@4",
			"mutable-state:reads non-final field scale@5",
			"mutable-state:static field Registry.factor@5",
		}},
	{name: "exception handling and loops", body: `
    try (BufferedReaderX r = open()) { } catch (Exception e) { }
    try { x = x + 1; } finally { }
    for (double v : vals) { }
    while (x > 0) { x--; }
    do { } while (false);
    vals.forEach(v -> {});
    return java.util.Arrays.stream(vals).map(v -> v * 2).sum() + IntStream.range(0, 3).sum();`,
		extra: `private final double[] vals = {}; private BufferedReaderX open() { return null; }`,
		want: []string{
			"exception-handling:try-with-resources@2",
			"exception-handling:try/finally@3",
			"loop:enhanced for loop@4",
			"loop:while loop@5",
			"loop:do-while loop@6",
			"loop:forEach call@7",
			"loop:stream pipeline (java.util.Arrays.stream)@8",
			"loop:stream pipeline (IntStream.range)@8",
		}},
	{name: "unknown calls", body: `
    Object p = Pattern.compile("a").matcher("b");
    StringBuilder sb = new StringBuilder();
    return x + ext(x) + Optional.ofNullable(x).map(v -> v).orElse(0.0);`,
		want: []string{
			// The chain's outer call starts where its receiver does.
			"unknown-call:call to matcher@2",
			"unknown-call:call to Pattern.compile@2",
			"unknown-call:new StringBuilder@3",
			"unknown-call:call to ext@4",
		}},
	{name: "method references", body: `
    java.util.List<String> xs = java.util.List.of("a");
    xs.stream().map(String::trim).map(Ext::conv).map(this::helper).forEach(System.out::println);
    return x;`,
		extra: `private String helper(String s) { return s + new java.util.Random().nextInt(); }`,
		want: []string{
			"unknown-call:call to java.util.List.of@2",
			"loop:stream pipeline (xs.stream)@3",
			"unknown-call:method reference Ext::conv@3",
			"io:method reference System.out::println@3",
			"nondeterminism:call to nextInt@6",
			"nondeterminism:new java.util.Random@6",
		}},
}

func TestBlockers(t *testing.T) {
	for _, tc := range blockerCases {
		t.Run(tc.name, func(t *testing.T) {
			src := "class C implements UDF1<Double, Double> {\n  public Double call(Double x) {" + tc.body + "\n  }\n  " + tc.extra + "\n}\n"
			us := parse(t, src)
			require.Len(t, us, 1)
			got := []string{}
			for _, b := range us[0].Blockers {
				got = append(got, fmt.Sprintf("%s:%s@%d", b.Kind, b.Detail, b.Span.Start.Line-1))
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestExampleToFahrenheit(t *testing.T) {
	path := "../../../examples/java-to-fahrenheit/ToFahrenheit.java"
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	f := New()
	defer f.Close()
	got, err := f.Parse(path, src)
	require.NoError(t, err)

	want := udf.UDF{
		Name:            "ToFahrenheit",
		RegisteredNames: []string{"to_fahrenheit"},
		Language:        udf.Java,
		Kind:            udf.KindUDFClass,
		File:            path,
		Span:            span(10, 1, 27, 2),
		BodySpan:        span(11, 3, 17, 4),
		Params:          []udf.Param{{Name: "celsius", SourceType: "Double", Type: udf.Prim(udf.Double)}},
		Return:          udf.Prim(udf.Double),
		UseSites: []udf.UseSite{
			{Kind: udf.UseRegister, Span: span(21, 5, 21, 84), Text: `spark.udf().register("to_fahrenheit", new ToFahrenheit(), DataTypes.DoubleType)`},
			{Kind: udf.UseSQL, Span: span(24, 19, 24, 91), Text: `"SELECT station, to_fahrenheit(temperature) AS fahrenheit FROM readings"`},
		},
	}
	want.Finish()
	require.Len(t, got, 1)
	assert.Equal(t, want, got[0])
	for _, ta := range got[0].Targets {
		assert.Equal(t, ta.Target != udf.TargetVectorizedPython, ta.Feasible, "%s: %v", ta.Target, ta.Reasons)
	}
}

func span(l1, c1, l2, c2 int) udf.Span {
	return udf.Span{Start: udf.Position{Line: l1, Column: c1}, End: udf.Position{Line: l2, Column: c2}}
}

func TestUseSiteTextAndColumns(t *testing.T) {
	src := "class A {\n  void r(SparkSession s) {\n    String q = \"Ünï \" + \"\"\"\n      SELECT f(x)\n      \"\"\";\n    s.udf().register(\"f\", (UDF1<Integer, Integer>) v -> v, DataTypes.IntegerType);\n  }\n}\n"
	us := parse(t, src)
	require.Len(t, us, 1)
	u := us[0]
	require.Len(t, u.UseSites, 2)
	assert.Equal(t, udf.UseSQL, u.UseSites[0].Kind)
	assert.Equal(t, span(3, 25, 5, 10), u.UseSites[0].Span)
	assert.Equal(t, "\"\"\"\n      SELECT f(x)\n      \"\"\"", u.UseSites[0].Text)
	assert.Equal(t, udf.UseRegister, u.UseSites[1].Kind)
}

func TestParseError(t *testing.T) {
	f := New()
	defer f.Close()
	us, err := f.Parse("Broken.java", []byte("class A {\n  void f() {\n    int x = ;\n  }\n}\n"))
	assert.Nil(t, us)
	var pe *udf.ParseError
	require.True(t, errors.As(err, &pe), "got %v", err)
	assert.Equal(t, "Broken.java", pe.File)
	assert.Equal(t, 3, pe.Pos.Line)
}

func TestLanguageAndClose(t *testing.T) {
	f := New()
	assert.Equal(t, udf.Java, f.Language())
	f.Close()
	f.Close()
}

// fuzzSeeds are the inline sources the fuzz test starts from.
func fuzzSeeds() []string {
	seeds := []string{}
	for _, tc := range parseCases {
		seeds = append(seeds, tc.src)
	}
	for _, tc := range blockerCases {
		seeds = append(seeds, "class C implements UDF1<Double, Double> {\n  public Double call(Double x) {"+tc.body+"\n  }\n  "+tc.extra+"\n}\n")
	}
	return seeds
}

func FuzzParse(f *testing.F) {
	if src, err := os.ReadFile("../../../examples/java-to-fahrenheit/ToFahrenheit.java"); err == nil {
		f.Add(src)
	}
	for _, s := range fuzzSeeds() {
		f.Add([]byte(s))
	}
	fe := New()
	defer fe.Close()
	f.Fuzz(func(t *testing.T, src []byte) {
		us, err := fe.Parse("Fuzz.java", src)
		if err != nil {
			var pe *udf.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error is not a *udf.ParseError: %v", err)
			}
			return
		}
		lines := strings.Count(string(src), "\n") + 1
		inside := func(what string, s udf.Span) {
			if s.Start.Line < 1 || s.End.Line > lines || s.Start.Line > s.End.Line || s.Start.Column < 1 || s.End.Column < 1 {
				t.Fatalf("%s span %v outside the %d-line input", what, s, lines)
			}
		}
		for _, u := range us {
			inside("udf", u.Span)
			inside("body", u.BodySpan)
			for _, us := range u.UseSites {
				inside("use site", us.Span)
			}
			for _, b := range u.Blockers {
				inside("blocker", b.Span)
			}
		}
	})
}

func BenchmarkParse(b *testing.B) {
	src, err := os.ReadFile("../../../examples/java-to-fahrenheit/ToFahrenheit.java")
	require.NoError(b, err)
	f := New()
	defer f.Close()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := f.Parse("ToFahrenheit.java", src); err != nil {
			b.Fatal(err)
		}
	}
}

// Spark stores a Java UDF's results at the type it was registered with,
// not at the type its Java signature maps to (confirmed live by
// difftest's TestRunnersAgreeWithSpark).
func TestRegisteredDataTypeIsTheReturnType(t *testing.T) {
	const class = "import java.math.BigDecimal;\nclass Money implements UDF1<Double, BigDecimal> {\n  public BigDecimal call(Double x) { return BigDecimal.valueOf(x); }\n}\n"
	one := strings.Replace(class, "}\n}\n", "}\n  static void r(SparkSession s) {\n    s.udf().register(\"money\", new Money(), DataTypes.createDecimalType(5, 2));\n  }\n}\n", 1)
	us := parse(t, one)
	require.Len(t, us, 1)
	assert.Equal(t, "decimal(5,2)", us[0].Return.String())

	us = parse(t, class)
	require.Len(t, us, 1)
	assert.Equal(t, "decimal(38,18)", us[0].Return.String(), "unregistered: the Java type's mapping")

	two := strings.Replace(one, "  }\n}\n", "    s.udf().register(\"money4\", new Money(), DataTypes.createDecimalType(9, 4));\n  }\n}\n", 1)
	us = parse(t, two)
	require.Len(t, us, 1)
	assert.Nil(t, us[0].Return, "two registered types: which one a query uses is not in the source")
}

// A lambda registered inside a method is lifted into a static field of
// its class when it reads none of the method's locals nor its instance;
// the field is inserted before the class's closing brace.
func TestLiftOfLambdasInsideMethods(t *testing.T) {
	const src = `import org.apache.spark.sql.api.java.UDF1;
class Jobs {
  private static final int K = 2;
  int scale = 3;
  public static void main(String[] args) {
    int factor = args.length;
    spark.udf().register("twice", (UDF1<Integer, Integer>) v -> v * K, DataTypes.IntegerType);
    spark.udf().register("scaled", (UDF1<Integer, Integer>) v -> v * factor, DataTypes.IntegerType);
    UDF1<String, Integer> len = s -> { int n = s.length(); return n; };
    spark.udf().register("len_of", len, DataTypes.IntegerType);
    spark.udf().register("not-a-name", (UDF1<Integer, Integer>) v -> v, DataTypes.IntegerType);
  }
  void instance() {
    spark.udf().register("times_scale", (UDF1<Integer, Integer>) v -> v * scale, DataTypes.IntegerType);
    spark.udf().register("plus_one", (UDF1<Integer, Integer>) v -> v + 1, DataTypes.IntegerType);
  }
  static final UDF1<Integer, Integer> field = v -> v;
}
`
	lifts := map[string]*udf.Lift{}
	for _, u := range parse(t, src) {
		lifts[u.Name] = u.Lift
	}
	closing := strings.LastIndex(src, "}")
	twice := lifts["twice"]
	require.NotNil(t, twice)
	assert.Equal(t, "static final UDF1<Integer, Integer> twice = v -> v * K;", twice.Field)
	assert.Equal(t, "Jobs.main", twice.Method)
	assert.Equal(t, closing, twice.At)
	assert.Empty(t, twice.Captures)

	assert.Equal(t, []string{"factor"}, lifts["scaled"].Captures)
	require.NotNil(t, lifts["len"])
	assert.Equal(t, "static final UDF1<String, Integer> len = s -> { int n = s.length(); return n; };", lifts["len"].Field)
	assert.Empty(t, lifts["len"].Captures, "n is the lambda's own local")
	assert.Equal(t, []string{"this"}, lifts["times_scale"].Captures)
	assert.Empty(t, lifts["plus_one"].Captures, "an instance method's lambda that reads no member")
	assert.Nil(t, lifts["not-a-name"], "a registered name that cannot name a field")
	assert.Nil(t, lifts["field"], "a field's lambda is reachable as it is")

	// Every liftable lambda's copy of the file holds all their fields.
	var decls []string
	for _, f := range twice.Fields {
		assert.Equal(t, closing, f.At)
		decls = append(decls, f.Decl)
	}
	assert.Equal(t, []string{
		"static final UDF1<Integer, Integer> plus_one = v -> v + 1;",
		"static final UDF1<Integer, Integer> twice = v -> v * K;",
		"static final UDF1<String, Integer> len = s -> { int n = s.length(); return n; };",
	}, decls)
	assert.Equal(t, twice.Fields, lifts["len"].Fields)
	assert.Empty(t, lifts["scaled"].Fields, "a lambda that reads a local is no field")
}
