package translate

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/udf/frontends"
)

// TestRules is the table of the translator's rules: a small source, and
// the SQL it becomes or the construct it is declined for. It runs no
// original (milliseconds); TestCorpus proves the same rules against the
// real JVM and CPython.
func TestRules(t *testing.T) {

	rows := []struct {
		name, ext, src, sql, declined string
	}{
		{"scala null check guards &&", ".scala",
			`class U extends Function1[String, Boolean] { def apply(s: String): Boolean = s != null && s.startsWith("x") }`,
			"((NOT (`s` IS NULL)) AND startswith(`s`, 'x'))", ""},
		{"scala string == is equals", ".scala",
			`class U extends Function1[String, Boolean] { def apply(s: String): Boolean = s == "Y" }`,
			"(`s` <=> 'Y')", ""},
		{"scala isEmpty after a null check", ".scala",
			`class U extends Function1[String, Boolean] { def apply(s: String): Boolean = s == null || s.isEmpty }`,
			"((`s` IS NULL) OR (`s` = ''))", ""},
		{"scala long div by a constant", ".scala",
			`class U extends Function1[Long, Long] { def apply(m: Long): Long = m / 1000L }`,
			"CASE WHEN (`m` IS NULL) THEN CAST(NULL AS BIGINT) ELSE (`m` div 1000L) END", ""},
		{"scala long + wraps", ".scala",
			`class U extends Function2[Long, Long, Long] { def apply(a: Long, b: Long): Long = a + b }`,
			"CASE WHEN ((`a` IS NULL) OR (`b` IS NULL)) THEN CAST(NULL AS BIGINT) ELSE CAST(pmod((CAST(`a` AS DECIMAL(20,0)) + CAST(`b` AS DECIMAL(20,0))) + 9223372036854775808BD, 18446744073709551616BD) - 9223372036854775808BD AS BIGINT) END", ""},
		{"scala object val", ".scala",
			"object K { val Rate = 1.5 }\n" + `class U extends Function1[Double, Double] { def apply(x: Double): Double = x * K.Rate }`,
			"(`x` * 1.5D)", ""},
		{"scala twice-defined name", ".scala",
			"object K { val Rate = 1.5 }\nobject L { val Rate = 2.5 }\n" + `class U extends Function1[Double, Double] { def apply(x: Double): Double = x * Rate }`,
			"", "name Rate"},
		{"scala val shadowed by a parameter", ".scala",
			"object K { val t = 1.5 }\nobject M {\n  def mk(t: Double) = (x: Double) => x * t\n  val f = org.apache.spark.sql.functions.udf((x: Double) => x * t)\n}\n" + `class U extends Function1[Double, Double] { def apply(x: Double): Double = x * t }`,
			"", "name t"},
		{"scala var constant", ".scala",
			"object K { var Rate = 1.5 }\n" + `class U extends Function1[Double, Double] { def apply(x: Double): Double = x * Rate }`,
			"", "name Rate"},
		{"scala match guard", ".scala",
			`class U extends Function1[Int, String] { def apply(n: Int): String = n match { case a if a < 0 => "neg"; case _ => "pos" } }`,
			"CASE WHEN (`n` IS NULL) THEN CAST(NULL AS STRING) ELSE CASE WHEN (`n` < 0) THEN 'neg' ELSE 'pos' END END", ""},
		{"scala match without default throws MatchError", ".scala",
			`class U extends Function1[Int, String] { def apply(n: Int): String = n match { case 1 => "one" } }`,
			"CASE WHEN (`n` IS NULL) THEN CAST(NULL AS STRING) ELSE CASE WHEN (`n` = 1) THEN 'one' ELSE raise_error('udfx: the original throws scala.MatchError where no case of n matches') END END", ""},
		{"scala Option getOrElse", ".scala",
			`class U extends Function1[String, String] { def apply(s: String): String = Option(s).getOrElse("-") }`,
			"CASE WHEN (`s` IS NULL) THEN '-' ELSE `s` END", ""},
		{"scala concat prints null", ".scala",
			`class U extends Function1[String, String] { def apply(s: String): String = "a" + s + 'c' }`,
			"concat('a', coalesce(`s`, 'null'), 'c')", ""},
		{"scala char arithmetic", ".scala",
			`class U extends Function1[Int, Int] { def apply(n: Int): Int = 'a' + n }`,
			"", "operator + on a Char"},
		{"scala concat of a double", ".scala",
			`class U extends Function1[Double, String] { def apply(x: Double): String = "v" + x }`,
			"", "string concatenation with a double"},
		{"scala placeholder lambda", ".scala",
			`object O { val total = org.apache.spark.sql.functions.udf[Long, Long, Long](_ + _) }`,
			"CASE WHEN ((`_1` IS NULL) OR (`_2` IS NULL)) THEN CAST(NULL AS BIGINT) ELSE CAST(pmod((CAST(`_1` AS DECIMAL(20,0)) + CAST(`_2` AS DECIMAL(20,0))) + 9223372036854775808BD, 18446744073709551616BD) - 9223372036854775808BD AS BIGINT) END", ""},
		{"scala placeholder ascribed", ".scala",
			`object O { val shout = org.apache.spark.sql.functions.udf((_: String) + "!") }`,
			"concat(coalesce(`_1`, 'null'), '!')", ""},
		{"scala nested placeholder is a lambda of its own", ".scala",
			`object O { val f = org.apache.spark.sql.functions.udf[Int, String](_.split(",").count(_.isEmpty)) }`,
			"", "Scala wildcard"},
		{"scala Math.round", ".scala",
			`class U extends Function1[Double, Long] { def apply(x: Double): Long = math.round(x) }`,
			"CASE WHEN (`x` IS NULL) THEN CAST(NULL AS BIGINT) ELSE CASE WHEN isnan(`x`) THEN 0L WHEN `x` >= 9.223372036854775807E18D THEN 9223372036854775807L WHEN `x` <= -9.223372036854775808E18D THEN CAST(-9223372036854775808 AS BIGINT) ELSE CAST(floor(`x`) AS BIGINT) + CASE WHEN `x` - CAST(CAST(floor(`x`) AS BIGINT) AS DOUBLE) >= 0.5D THEN 1L ELSE 0L END END END", ""},
		{"python default no call passes", ".py",
			"from pyspark.sql.functions import col, udf\n\ndef label(name: str, sep=\" / \"):\n    if name is None:\n        return None\n    return name + sep\n\nlabel_udf = udf(label, \"string\")\ndf.select(label_udf(col(\"a\")))\n",
			"CASE WHEN (`name` IS NULL) THEN CAST(NULL AS STRING) ELSE concat(`name`, ' / ') END", ""},
		{"python default not a literal", ".py",
			"from pyspark.sql.functions import col, udf\n\ndef label(name: str, sep=str(1)):\n    return name.upper() + sep\n\nlabel_udf = udf(label, \"string\")\ndf.select(label_udf(col(\"a\")))\n",
			"", "the default of sep"},
		{"java static final", ".java",
			"import org.apache.spark.sql.api.java.UDF1;\npublic class U implements UDF1<Double, Double> {\n  static final double R = 2;\n  public Double call(Double x) { if (x == null) return null; return x * R; }\n}",
			"CASE WHEN (`x` IS NULL) THEN CAST(NULL AS DOUBLE) ELSE (`x` * 2.0D) END", ""},
		{"java non-final static", ".java",
			"import org.apache.spark.sql.api.java.UDF1;\npublic class U implements UDF1<Double, Double> {\n  static double R = 2;\n  public Double call(Double x) { if (x == null) return null; return x * R; }\n}",
			"", "name R"},
		{"java == on strings", ".java",
			"import org.apache.spark.sql.api.java.UDF1;\npublic class U implements UDF1<String, Boolean> {\n  public Boolean call(String s) { return s == \"a\"; }\n}",
			"", "Java == on strings"},
		{"java switch on a String", ".java",
			"import org.apache.spark.sql.api.java.UDF1;\npublic class U implements UDF1<String, Integer> {\n  public Integer call(String s) { if (s == null) return 0; switch (s) { case \"a\": return 1; default: return 2; } }\n}",
			"CASE WHEN (`s` IS NULL) THEN 0 ELSE CASE WHEN (`s` = 'a') THEN 1 ELSE 2 END END", ""},
		{"java switch with fall-through", ".java",
			"import org.apache.spark.sql.api.java.UDF1;\npublic class U implements UDF1<Integer, Integer> {\n  public Integer call(Integer n) { int k = 0; if (n == null) return 0; switch (n) { case 1: k = 1; default: return k; } }\n}",
			"", "switch case without a return"},
		{"java String and long locals", ".java",
			"import org.apache.spark.sql.api.java.UDF1;\npublic class U implements UDF1<Long, String> {\n  public String call(Long n) { if (n == null) return null; long k = n / 10; String p = \"k\"; return p + k; }\n}",
			"CASE WHEN (`n` IS NULL) THEN CAST(NULL AS STRING) ELSE concat('k', coalesce(CAST((`n` div 10L) AS STRING), 'null')) END", ""},
		{"java Math.abs on int", ".java",
			"import org.apache.spark.sql.api.java.UDF1;\npublic class U implements UDF1<Integer, Integer> {\n  public Integer call(Integer n) { if (n == null) return null; return Math.abs(n); }\n}",
			"CASE WHEN (`n` IS NULL) THEN CAST(NULL AS INT) ELSE CASE WHEN `n` = CAST(-2147483648 AS INT) THEN CAST(-2147483648 AS INT) ELSE abs(`n`) END END", ""},
		{"java try/catch", ".java",
			"import org.apache.spark.sql.api.java.UDF1;\npublic class U implements UDF1<String, Integer> {\n  public Integer call(String s) { try { return Integer.parseInt(s); } catch (NumberFormatException e) { return 0; } }\n}",
			"", "Java try_statement"},
		{"hive Text in, Text out", ".java",
			"import org.apache.hadoop.hive.ql.exec.UDF;\nimport org.apache.hadoop.io.Text;\npublic class U extends UDF {\n  public Text evaluate(Text s) { if (s == null) return null; return new Text(s.toString() + \"!\"); }\n}",
			"CASE WHEN (`s` IS NULL) THEN CAST(NULL AS STRING) ELSE concat(CASE WHEN (`s` IS NULL) THEN raise_error('udfx: the original throws NullPointerException where s.toString() is called on null') ELSE `s` END, '!') END", ""},
		{"hive IntWritable get throws on null", ".java",
			"import org.apache.hadoop.hive.ql.exec.UDF;\nimport org.apache.hadoop.io.IntWritable;\npublic class U extends UDF {\n  public IntWritable evaluate(IntWritable n) { return new IntWritable(n.get()); }\n}",
			"CASE WHEN (`n` IS NULL) THEN raise_error('udfx: the original throws NullPointerException where n.get() is called on null') ELSE `n` END", ""},
		{"hive Text equals a String is false", ".java",
			"import org.apache.hadoop.hive.ql.exec.UDF;\nimport org.apache.hadoop.io.Text;\nimport org.apache.hadoop.io.BooleanWritable;\npublic class U extends UDF {\n  public BooleanWritable evaluate(Text s) { return new BooleanWritable(s.equals(\"a\")); }\n}",
			"", "Writable method equals"},
		{"hive a Writable passed to a String method", ".java",
			"import org.apache.hadoop.hive.ql.exec.UDF;\nimport org.apache.hadoop.io.Text;\nimport org.apache.hadoop.io.BooleanWritable;\npublic class U extends UDF {\n  public BooleanWritable evaluate(Text s) { return new BooleanWritable(\"a\".equals(s)); }\n}",
			"", "a Writable argument of equals"},
		{"hive IntWritable of a long", ".java",
			"import org.apache.hadoop.hive.ql.exec.UDF;\nimport org.apache.hadoop.io.IntWritable;\nimport org.apache.hadoop.io.LongWritable;\npublic class U extends UDF {\n  public IntWritable evaluate(LongWritable n) { return new IntWritable(n.get()); }\n}",
			"", "new IntWritable of a bigint"},
		{"python module constant", ".py",
			"from pyspark.sql.functions import udf\nK = 2.5\n\n@udf(\"double\")\ndef f(x: float) -> float:\n    if x is None:\n        return None\n    return x * K\n",
			"CASE WHEN (`x` IS NULL) THEN CAST(NULL AS DOUBLE) ELSE (`x` * 2.5D) END", ""},
		{"python reassigned constant", ".py",
			"from pyspark.sql.functions import udf\nK = 2.5\nK = 3.5\n\n@udf(\"double\")\ndef f(x: float) -> float:\n    if x is None:\n        return None\n    return x * K\n",
			"", "name K"},
		{"python float % by a constant", ".py",
			"from pyspark.sql.functions import udf\n\n@udf(\"double\")\ndef f(x: float) -> float:\n    if x is None:\n        return None\n    return x % 2.0\n",
			"CASE WHEN (`x` IS NULL) THEN CAST(NULL AS DOUBLE) ELSE CASE WHEN (`x` % 2.0D) = 0.0D THEN 0.0D WHEN (`x` % 2.0D) < 0.0D THEN ((`x` % 2.0D) + 2.0D) ELSE (`x` % 2.0D) END END", ""},
		{"python int // by a constant", ".py",
			"from pyspark.sql.functions import udf\n\n@udf(\"bigint\")\ndef f(n: int) -> int:\n    if n is None:\n        return None\n    return n // 7\n",
			"CASE WHEN (`n` IS NULL) THEN CAST(NULL AS BIGINT) ELSE CAST((`n` div 7L) - CASE WHEN (`n` % 7L) <> 0 AND ((`n` < 0) <> (7L < 0)) THEN 1 ELSE 0 END AS BIGINT) END", ""},
		{"python % by a parameter", ".py",
			"from pyspark.sql.functions import udf\n\n@udf(\"bigint\")\ndef f(n: int, m: int) -> int:\n    if n is None or m is None:\n        return None\n    return n % m\n",
			"", "Python % by a value that is not a non-zero constant"},
		{"python int + declined", ".py",
			"from pyspark.sql.functions import udf\n\n@udf(\"bigint\")\ndef f(n: int) -> int:\n    if n is None:\n        return None\n    return n + 1\n",
			"", "arithmetic on Python ints"},
		{"python None guard before and", ".py",
			"from pyspark.sql.functions import udf\n\n@udf(\"boolean\")\ndef f(s: str) -> bool:\n    return s is not None and s.startswith(\"a\")\n",
			"((NOT (`s` IS NULL)) AND startswith(`s`, 'a'))", ""},
		{"python len and elif", ".py",
			"from pyspark.sql.functions import udf\n\n@udf(\"string\")\ndef f(s: str) -> str:\n    if s is None:\n        return None\n    elif len(s) > 3:\n        return \"long\"\n    return \"short\"\n",
			"CASE WHEN (`s` IS NULL) THEN CAST(NULL AS STRING) ELSE CASE WHEN (char_length(`s`) > 3) THEN 'long' ELSE 'short' END END", ""},
		{"python int() of a float for a bigint UDF", ".py",
			"from pyspark.sql.functions import udf\n\n@udf(\"bigint\")\ndef f(x: float) -> int:\n    if x is None:\n        return None\n    return int(x)\n",
			"CASE WHEN (`x` IS NULL) THEN CAST(NULL AS BIGINT) ELSE CASE WHEN isnan(`x`) THEN raise_error('udfx: the original throws ValueError (NaN to int)') WHEN `x` = CAST('Infinity' AS DOUBLE) OR `x` = CAST('-Infinity' AS DOUBLE) THEN raise_error('udfx: the original throws OverflowError (infinity to int)') WHEN `x` >= 9.223372036854775807E18D OR `x` < -9.223372036854775808E18D THEN CAST(NULL AS BIGINT) ELSE CAST(`x` AS BIGINT) END END", ""},
		{"python int() names the return type", ".py",
			"from pyspark.sql.functions import udf\n\n@udf(\"int\")\ndef f(x: float) -> int:\n    if x is None:\n        return None\n    return int(x)\n",
			"", "int"},
		{"python unbounded int arithmetic", ".py",
			"from pyspark.sql.functions import udf\n\n@udf(\"bigint\")\ndef f(n: int) -> int:\n    return n * 2\n",
			"", "arithmetic on Python ints"},
		{"python bounded int arithmetic that may leave INT", ".py",
			"from pyspark.sql.functions import udf\n\n@udf(\"int\")\ndef f(s: str) -> int:\n    return len(s) + 1 if s is not None else 0\n",
			"", "the returned value"},
		{"python bounded int arithmetic", ".py",
			"from pyspark.sql.functions import udf\n\n@udf(\"bigint\")\ndef f(s: str) -> int:\n    return len(s) + 1 if s is not None else 0\n",
			"CASE WHEN (NOT (`s` IS NULL)) THEN CAST((CAST(char_length(`s`) AS BIGINT) + CAST(1 AS BIGINT)) AS BIGINT) ELSE 0L END", ""},
		{"java substring after indexOf of a char", ".java",
			"import org.apache.spark.sql.api.java.UDF1;\npublic class U implements UDF1<String, String> {\n  public String call(String s) { if (s == null) return null; int at = s.indexOf('@'); if (at < 0) return null; return s.substring(at + 1); }\n}",
			"CASE WHEN (`s` IS NULL) THEN CAST(NULL AS STRING) ELSE CASE WHEN ((locate('@', `s`) - 1) < 0) THEN CAST(NULL AS STRING) ELSE substring(`s`, (locate('@', `s`) + 1)) END END", ""},
		{"java substring after a miss is from 0", ".java",
			"import org.apache.spark.sql.api.java.UDF1;\npublic class U implements UDF1<String, String> {\n  public String call(String s) { if (s == null) return null; return s.substring(s.indexOf(\"@\") + 1); }\n}",
			"CASE WHEN (`s` IS NULL) THEN CAST(NULL AS STRING) ELSE substring(`s`, (locate('@', `s`) + 1)) END", ""},
		{"java substring two past a possible miss", ".java",
			"import org.apache.spark.sql.api.java.UDF1;\npublic class U implements UDF1<String, String> {\n  public String call(String s) { if (s == null) return null; return s.substring(s.indexOf(\"ab\") + 2); }\n}",
			"", "String.substring at an offset not known to fall on a code point"},
		{"java substring two past a match", ".java",
			"import org.apache.spark.sql.api.java.UDF1;\npublic class U implements UDF1<String, String> {\n  public String call(String s) { if (s == null) return null; int i = s.indexOf(\"ab\"); if (i == -1) return s; return s.substring(i + 2); }\n}",
			"CASE WHEN (`s` IS NULL) THEN CAST(NULL AS STRING) ELSE CASE WHEN ((locate('ab', `s`) - 1) = -1) THEN `s` ELSE substring(`s`, (locate('ab', `s`) + 2)) END END", ""},
		{"java substring at a possible miss throws", ".java",
			"import org.apache.spark.sql.api.java.UDF1;\npublic class U implements UDF1<String, String> {\n  public String call(String s) { if (s == null) return null; return s.substring(s.indexOf(':')); }\n}",
			"CASE WHEN (`s` IS NULL) THEN CAST(NULL AS STRING) ELSE CASE WHEN ((locate(':', `s`) - 1) < 0) THEN raise_error('udfx: the original throws StringIndexOutOfBoundsException in s.substring(s.indexOf(\\':\\'))') ELSE substring(`s`, locate(':', `s`)) END END", ""},
		{"java substring up to a match", ".java",
			"import org.apache.spark.sql.api.java.UDF1;\npublic class U implements UDF1<String, String> {\n  public String call(String s) { if (s == null) return null; int q = s.indexOf('?'); return q >= 0 ? s.substring(0, q) : s; }\n}",
			"CASE WHEN (`s` IS NULL) THEN CAST(NULL AS STRING) ELSE CASE WHEN ((locate('?', `s`) - 1) >= 0) THEN substring(`s`, 1, (locate('?', `s`) - 1)) ELSE `s` END END", ""},
		{"java substring between two matches", ".java",
			"import org.apache.spark.sql.api.java.UDF1;\npublic class U implements UDF1<String, String> {\n  public String call(String s) { if (s == null) return null; int a = s.indexOf('['); int b = s.indexOf(']'); if (a < 0 || b < 0) return null; return s.substring(a + 1, b); }\n}",
			"CASE WHEN (`s` IS NULL) THEN CAST(NULL AS STRING) ELSE CASE WHEN (((locate('[', `s`) - 1) < 0) OR ((locate(']', `s`) - 1) < 0)) THEN CAST(NULL AS STRING) ELSE CASE WHEN ((locate(']', `s`) - 1) < locate('[', `s`)) THEN raise_error('udfx: the original throws StringIndexOutOfBoundsException in s.substring(a + 1, b)') ELSE substring(`s`, (locate('[', `s`) + 1), (locate(']', `s`) - 1) - locate('[', `s`)) END END END", ""},
		{"java substring at a constant", ".java",
			"import org.apache.spark.sql.api.java.UDF1;\npublic class U implements UDF1<String, String> {\n  public String call(String s) { if (s == null) return null; return s.substring(2); }\n}",
			"", "String.substring at an offset not known to fall on a code point"},
		{"java substring inside a surrogate pair", ".java",
			"import org.apache.spark.sql.api.java.UDF1;\npublic class U implements UDF1<String, String> {\n  public String call(String s) { if (s == null) return null; int i = s.indexOf(\"😀\"); if (i < 0) return s; return s.substring(i + 1); }\n}",
			"", "String.substring at an offset not known to fall on a code point"},
		{"java lastIndexOf", ".java",
			"import org.apache.spark.sql.api.java.UDF1;\npublic class U implements UDF1<String, String> {\n  public String call(String s) { if (s == null) return null; return s.substring(s.lastIndexOf('/') + 1); }\n}",
			"CASE WHEN (`s` IS NULL) THEN CAST(NULL AS STRING) ELSE substring(`s`, (CASE WHEN locate(reverse('/'), reverse(`s`)) = 0 THEN -1 ELSE char_length(`s`) - locate(reverse('/'), reverse(`s`)) - char_length('/') + 1 END + 2)) END", ""},
		{"java indexOf from an offset", ".java",
			"import org.apache.spark.sql.api.java.UDF1;\npublic class U implements UDF1<String, String> {\n  public String call(String s) { if (s == null) return null; int a = s.indexOf(\"://\"); if (a < 0) return s; int b = s.indexOf('/', a + 3); return b < 0 ? \"/\" : s.substring(b); }\n}",
			"CASE WHEN (`s` IS NULL) THEN CAST(NULL AS STRING) ELSE CASE WHEN ((locate('://', `s`) - 1) < 0) THEN `s` ELSE CASE WHEN ((locate('/', `s`, greatest((locate('://', `s`) + 3), 1)) - 1) < 0) THEN '/' ELSE substring(`s`, locate('/', `s`, greatest((locate('://', `s`) + 3), 1))) END END END", ""},
		{"java prefix stripped", ".java",
			"import org.apache.spark.sql.api.java.UDF1;\npublic class U implements UDF1<String, String> {\n  public String call(String s) { if (s != null && s.startsWith(\"urn:\")) return s.substring(\"urn:\".length()); return s; }\n}",
			"CASE WHEN ((NOT (`s` IS NULL)) AND startswith(`s`, 'urn:')) THEN substring(`s`, 5) ELSE `s` END", ""},
		{"java prefix not known", ".java",
			"import org.apache.spark.sql.api.java.UDF1;\npublic class U implements UDF1<String, String> {\n  public String call(String s) { if (s != null && s.endsWith(\"urn:\")) return s.substring(4); return s; }\n}",
			"", "String.substring at an offset not known to fall on a code point"},
		{"java indexOf as a number", ".java",
			"import org.apache.spark.sql.api.java.UDF1;\npublic class U implements UDF1<String, Integer> {\n  public Integer call(String s) { if (s == null) return null; return s.indexOf('@'); }\n}",
			"CASE WHEN (`s` IS NULL) THEN CAST(NULL AS INT) ELSE ((locate('@', `s`) - 1) + char_length(regexp_replace(substring(`s`, 1, (locate('@', `s`) - 1)), '[^\\\\x{10000}-\\\\x{10FFFF}]', ''))) END", ""},
		{"scala substring after indexOf, no null check", ".scala",
			`class U extends Function1[String, String] { def apply(s: String): String = { val i = s.indexOf(':'); if (i < 0) s else s.substring(i + 1) } }`,
			"CASE WHEN (CASE WHEN (`s` IS NULL) THEN raise_error('udfx: the original throws NullPointerException where s.indexOf(\\':\\') is called on null') ELSE (locate(':', `s`) - 1) END < 0) THEN `s` ELSE CASE WHEN (`s` IS NULL) THEN raise_error('udfx: the original throws NullPointerException where s.substring(i + 1) is called on null') ELSE substring(`s`, (CASE WHEN (`s` IS NULL) THEN raise_error('udfx: the original throws NullPointerException where s.indexOf(\\':\\') is called on null') ELSE (locate(':', `s`) - 1) END + 2)) END END", ""},
		{"scala prefix stripped", ".scala",
			`class U extends Function1[String, String] { private val P = "urn:"; def apply(s: String): String = if (s != null && s.startsWith(P)) s.substring(P.length) else s }`,
			"CASE WHEN ((NOT (`s` IS NULL)) AND startswith(`s`, 'urn:')) THEN substring(`s`, 5) ELSE `s` END", ""},
	}

	dir := t.TempDir()
	for i, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			path := filepath.Join(dir, "u"+string(rune('a'+i%26))+string(rune('a'+i/26))+r.ext)
			if r.ext == ".java" {
				path = filepath.Join(dir, string(rune('a'+i%26))+string(rune('a'+i/26)), "U.java")
				require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
			}
			require.NoError(t, os.WriteFile(path, []byte(r.src), 0o644))
			lang := map[string]udf.Language{".scala": udf.Scala, ".java": udf.Java, ".py": udf.Python}[r.ext]
			fe := frontends.New(lang)
			us, err := fe.Parse(path, []byte(r.src))
			fe.Close()
			require.NoError(t, err)
			require.NotEmpty(t, us)
			u := &us[len(us)-1]
			res, err := Translate(u, []byte(r.src))
			require.NoError(t, err)
			if r.declined != "" {
				require.NotEmpty(t, res.Declines, "SQL %s", res.SQL)
				assert.Equal(t, r.declined, res.Declines[0].Construct, "%s", res.Declines[0])
				assert.Empty(t, res.SQL)
				return
			}
			require.Empty(t, res.Declines)
			assert.Equal(t, r.sql, res.SQL)
		})
	}
}
