package translate

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/difftest"
	"github.com/udfx/udfx/harness/runner/runners"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/udf/frontends"
	"github.com/udfx/udfx/harness/value"
)

// load finds the UDF called name in file with the real front-end.
func load(t *testing.T, file, name string) (*udf.UDF, []byte) {
	t.Helper()
	src, err := os.ReadFile(file)
	require.NoError(t, err)
	lang := map[string]udf.Language{".scala": udf.Scala, ".java": udf.Java, ".py": udf.Python}[filepath.Ext(file)]
	fe := frontends.New(lang)
	defer fe.Close()
	us, err := fe.Parse(file, src)
	require.NoError(t, err)
	for i := range us {
		if us[i].Name == name {
			return &us[i], src
		}
	}
	require.Failf(t, "no UDF", "%s in %s", name, file)
	return nil, nil
}

// proved translates the UDF and runs the real original (JVM or CPython)
// against the rewrite on the embedded engine, ANSI on, bit-exact.
func proved(t *testing.T, file, name, wantSQL string) {
	t.Helper()
	u, src := load(t, file, name)
	res, err := Translate(u, src)
	require.NoError(t, err)
	require.Empty(t, res.Declines)
	if wantSQL != "" {
		assert.Equal(t, wantSQL, res.SQL)
	}
	rep, err := difftest.Run(context.Background(), u, difftest.Rewrite{SQL: res.SQL},
		difftest.Options{Seed: 11, Rows: 400, ANSI: true, NewRunner: runners.New})
	require.NoError(t, err, "rewrite %s", res.SQL)
	assert.True(t, rep.Equal, "rewrite %s: %d mismatches, counterexample %+v", res.SQL, rep.Mismatches, rep.Counterexample)
}

// declined asserts the translator refuses the UDF, naming the construct.
func declined(t *testing.T, file, name, construct, reason string) {
	t.Helper()
	u, src := load(t, file, name)
	res, err := Translate(u, src)
	require.NoError(t, err)
	assert.Empty(t, res.SQL)
	assert.Nil(t, res.IR)
	require.NotEmpty(t, res.Declines)
	assert.Equal(t, construct, res.Declines[0].Construct)
	assert.Contains(t, res.Declines[0].Reason, reason)
}

const scalaFile = "testdata/Udfs.scala"
const pyFile = "testdata/udfs.py"

func TestExamples(t *testing.T) {
	proved(t, "../../examples/scala-to-fahrenheit/ToFahrenheit.scala", "ToFahrenheit",
		"CASE WHEN (`celsius` IS NULL) THEN CAST(NULL AS DOUBLE) ELSE (((`celsius` * 9.0D) / 5.0D) + 32.0D) END")
	proved(t, "../../examples/java-to-fahrenheit/ToFahrenheit.java", "ToFahrenheit",
		"CASE WHEN (`celsius` IS NULL) THEN CAST(NULL AS DOUBLE) ELSE (((`celsius` * 9.0D) / 5.0D) + 32.0D) END")
	proved(t, "../../examples/scala-lambda-fahrenheit/FahrenheitLambda.scala", "toFahrenheit",
		"(((`celsius` * 9.0D) / 5.0D) + 32.0D)")
	proved(t, "../../examples/python-celsius/celsius.py", "to_fahrenheit",
		"CASE WHEN (`celsius` IS NULL) THEN CAST(NULL AS DOUBLE) ELSE (((`celsius` * 9.0D) / 5.0D) + 32.0D) END")
}

func TestScalaProved(t *testing.T) {
	for _, name := range []string{"Fahrenheit", "PrimFahrenheit", "BoxedNoCheck", "Clamp", "IntOps", "IntDiv",
		"Convert", "ConvertLong", "FloorCeil", "Grade", "NotNullFlag", "Prefix", "RoundIt", "LongDiv"} {
		t.Run(name, func(t *testing.T) { proved(t, scalaFile, name, "") })
	}
}

func TestScalaDeclined(t *testing.T) {
	declined(t, scalaFile, "DivByParam", "double division by a value that may be zero", "DIVIDE_BY_ZERO")
	// long division by a parameter may be MIN / -1 (wraps on the JVM):
	// translated with the wrap; Math.round is translated exactly
	// (TestCorpus/RoundLong); a double division by a parameter is not.
	// String.length counts UTF-16 units: code points plus one per
	// supplementary code point.
	proved(t, scalaFile, "StrLen", "")
	// take(n) cuts UTF-16 units; a cut pair's high half is '?' in Spark.
	proved(t, scalaFile, "Take3", "")
	proved(t, scalaFile, "Take1", "")
	// ... but one whose branch tested the divisor for zero is Spark's /
	// (-0.0 == 0.0 in both; NaN divides to NaN).
	proved(t, "testdata/Declines.scala", "RatioOrNull", "")
	proved(t, "testdata/Declines.scala", "PerMinute", "")
}

// The string traps of SEMANTICS.md: trim sets, split, locale-dependent
// case, concatenation with null: translated where the JVM's exact form is
// known (trim's set, split's trailing empty strings, upper case in the
// runner's locale, "null" for a null), declined otherwise.
func TestScalaStringTrapsDeclined(t *testing.T) {
	const f = "testdata/Declines.scala"
	// String.trim removes every char <= U+0020 (the set is checked
	// against the JVM by TestWhitespaceSetsMatchTheRuntimes).
	proved(t, f, "TrimIt", "")
	// String.split drops trailing empty strings, which the rewrite
	// does too (its fields are Spark's split's, sliced).
	proved(t, f, "SplitIt", "")
	// toUpperCase follows the JDK's tables (package jdkcase) in the
	// runner's locale; toLowerCase's final sigma follows the JDK's word
	// boundaries, which the SQL reproduces.
	proved(t, f, "UpperIt", "")
	proved(t, f, "LowerIt", "")
	// Where the lower-cased text is only compared with a literal without
	// σ and ς, σ and ς give the same answer and the SQL is shorter.
	proved(t, f, "IsYes", "")
	proved(t, f, "LogLevel", "")
	// replaceAll with a pattern that needs no Unicode data is Spark's
	// regexp_replace: the same java.util.regex loop.
	proved(t, f, "Squash", "")
	proved(t, f, "PhoneDigits", "")
	// A parse with a fallback: Integer.parseInt's digits are the JDK's
	// (package jdkcase); what the argument throws is not caught.
	proved(t, f, "QtyOrZero", "")
	proved(t, f, "IdOrNone", "")
	// Concatenation prints a null as "null": translated (coalesce).
	proved(t, f, "Greet", "concat('hello ', coalesce(`s`, 'null'))")
	// So does s"…", whose parts' escapes are processed ($$, \t).
	proved(t, f, "CodeLabel", "")
	// String.matches is a whole match: an anchored RLIKE on the same
	// java.util.regex.
	proved(t, f, "DigitsOnly", "")
	// Number↔string conversions, string booleans and hashing differ
	// between the JVM and Spark: calls the translator has no exact rule
	// for are declined, whatever they are.
	declined(t, f, "ParseIt", "name Integer", "not a parameter, local or constant defined in this file")
	declined(t, f, "ShowIt", "method toString on double", "no rule proves a Spark SQL form equal to this method on a double")
	declined(t, f, "YesIt", "name java", "not a parameter, local or constant defined in this file")
	declined(t, f, "HashIt", "String.hashCode", "no rule proves a Spark SQL form equal to this String method")
}

func TestJava(t *testing.T) {
	proved(t, "testdata/java/Clamp.java", "Clamp", "")
	// strip/trim/stripLeading/stripTrailing, on a String that may be null
	// (the row throws NullPointerException in Java and in the rewrite).
	proved(t, "testdata/java/Strip.java", "Strip", "")
	// x + 1.0 unboxes: a null throws NullPointerException, and the
	// rewrite raises on exactly those rows.
	proved(t, "testdata/java/Unbox.java", "Unbox",
		"(CASE WHEN (`x` IS NULL) THEN raise_error('udfx: the original throws NullPointerException where x is null') ELSE `x` END + 1.0D)")
	declined(t, "testdata/java/AbsBoxed.java", "AbsBoxed", "unboxing a possibly-null double", "NullPointerException")
	declined(t, "testdata/java/KeepBoxed.java", "KeepBoxed", "unboxing a possibly-null double", "NullPointerException")
	// Knowing both are not null does not make == compare values.
	declined(t, "testdata/java/SameReading.java", "SameReading", "== on two boxed values", "Java compares references")
	// A switch on toLowerCase() over literals without σ and ς.
	proved(t, "testdata/java/Severity.java", "Severity", "")
}

func TestPython(t *testing.T) {
	for _, name := range []string{"scale", "ratio", "positive", "pymod",
		// Truthiness: None, "", 0, 0.0, -0.0 are false, NaN is true;
		// `a or b` / `a and b` return an operand.
		"or_default", "blank_to_none", "nonzero", "sign_word", "first_or_second",
		// str.strip() (str.isspace), strip(chars), on None AttributeError.
		"clean", "strip_marks", "blank",
		// f-strings and str() of str/int/bool, `in` a tuple of literals,
		// str.replace.
		"label", "tier", "small_id", "dashes",
		// str indexing and slicing with int literals (code points).
		"mask", "slices", "initial",
		// datetime.date parts and differences.
		"date_key", "days_apart", "year_of",
		// int arithmetic whose operands' ranges bound the result.
		"yyyymm", "padded_len",
		// ... returned by an int UDF: PySpark keeps its low 32 bits.
		"squared_len",
		// float(s) with a fallback: Unicode digits and whitespace,
		// underscores, inf/nan, a TypeError caught or not.
		"price", "price_or_none", "qty",
		// re.sub with Python's Unicode \s and \d spelled out, `.` not
		// matching \n only, a literal $ in the replacement.
		"digits_only", "squash_ws", "redact",
		// str.upper() and str.lower(): Spark's, repaired where the
		// pinned CPython's Unicode differs (package pycase).
		"shout", "norm_key",
		// try around a body whose raises the translator models: the
		// fallback exactly where one the clause catches is raised.
		"ticket_no", "last_field", "lower_or_none", "second_field"} {
		t.Run(name, func(t *testing.T) { proved(t, pyFile, name, "") })
	}
	// None + 1.0 and None > 1.0 raise TypeError: so do the rewrites, on
	// the same rows. None == 1.0 is False: declined.
	proved(t, pyFile, "raw",
		"(CASE WHEN (`x` IS NULL) THEN raise_error('udfx: the original throws TypeError where x is None') ELSE `x` END + 1.0D)")
	proved(t, pyFile, "above_one", "")
	declined(t, pyFile, "is_one", "== on a value that may be None", "None == x is False")
	declined(t, pyFile, "root", "math.sqrt", "ValueError")
	// int() gives an unbounded Python int; the reason names the UDF's
	// result type.
	declined(t, pyFile, "whole", "int", "this UDF returns double")
	// int(x), round(x), math.floor/ceil(x) on a float, returned by a
	// bigint UDF: NaN and ±inf raise, beyond BIGINT NULL (PySpark).
	for _, name := range []string{"floor_it", "ceil_it"} {
		t.Run(name, func(t *testing.T) { proved(t, pyFile, name, "") })
	}
	declined(t, pyFile, "int_plus", "int() used in a computation", "unbounded int")
	// n + 1 of a bigint may leave BIGINT, where PySpark stores NULL.
	t.Run("plus_one", func(t *testing.T) { proved(t, pyFile, "plus_one", "") })
	// \W is every code point that is not CPython's \w (pyword_table.go).
	t.Run("no_word", func(t *testing.T) { proved(t, pyFile, "no_word", "") })
	declined(t, pyFile, "alt", "the pattern \"a|b*\"", "may match the empty string")
}

// TestImportedConstantsAndHelpers: names a package module imports from
// its siblings are read there, by the same rules, and the imports'
// ambiguities are declined.
func TestImportedConstantsAndHelpers(t *testing.T) {
	dir := t.TempDir()
	pkg := filepath.Join(dir, "etl")
	require.NoError(t, os.MkdirAll(pkg, 0o755))
	files := map[string]string{
		"__init__.py": "",
		"consts.py":   "VAT_RATE = 0.2\nDEFAULT = \"DE\"\n_HIDDEN = 1\n__all__ = [\"VAT_RATE\", \"DEFAULT\"]\n",
		"rates.py":    "from .consts import VAT_RATE as RATE\n",
		"helpers.py":  "from .consts import *\n\ndef gross(x):\n    return x * (1 + VAT_RATE)\n",
		"other.py":    "DEFAULT = \"FR\"\n",
		"job.py": "from pyspark.sql.functions import udf\nfrom .consts import *\nfrom .rates import RATE\nfrom .helpers import gross\n\n" +
			"@udf(\"double\")\ndef with_vat(x: float) -> float:\n    if x is None:\n        return None\n    return x * (1 + RATE)\n\n" +
			"@udf(\"double\")\ndef gross_of(x: float) -> float:\n    if x is None:\n        return None\n    return gross(x)\n\n" +
			"@udf(\"string\")\ndef country(c: str) -> str:\n    return DEFAULT if c is None else c\n\n" +
			"@udf(\"bigint\")\ndef hidden(n: int) -> int:\n    return _HIDDEN\n",
		"clash.py": "from pyspark.sql.functions import udf\nfrom .consts import *\nfrom .other import *\n\n" +
			"@udf(\"string\")\ndef country(c: str) -> str:\n    return DEFAULT if c is None else c\n",
	}
	for name, src := range files {
		require.NoError(t, os.WriteFile(filepath.Join(pkg, name), []byte(src), 0o644))
	}
	translateAll := func(file string) map[string]*Result {
		path := filepath.Join(pkg, file)
		src, err := os.ReadFile(path)
		require.NoError(t, err)
		fe := frontends.New(udf.Python)
		defer fe.Close()
		us, err := fe.Parse(path, src)
		require.NoError(t, err)
		out := map[string]*Result{}
		for i := range us {
			res, err := Translate(&us[i], src)
			require.NoError(t, err)
			out[us[i].Name] = res
		}
		return out
	}
	got := translateAll("job.py")
	assert.Equal(t, "CASE WHEN (`x` IS NULL) THEN CAST(NULL AS DOUBLE) ELSE (`x` * (1.0D + 0.2D)) END", got["with_vat"].SQL)
	assert.Equal(t, "CASE WHEN (`x` IS NULL) THEN CAST(NULL AS DOUBLE) ELSE (`x` * (1.0D + 0.2D)) END", got["gross_of"].SQL)
	assert.Equal(t, "CASE WHEN (`c` IS NULL) THEN 'DE' ELSE `c` END", got["country"].SQL)
	require.NotEmpty(t, got["hidden"].Declines)
	assert.Equal(t, "name _HIDDEN", got["hidden"].Declines[0].Construct)
	clash := translateAll("clash.py")
	require.NotEmpty(t, clash["country"].Declines)
	assert.Contains(t, clash["country"].Declines[0].Reason, "more than one import")
}

// A UDF a factory makes reads the factory's parameters as the literals
// the file's calls pass (or the defaults), and only inside the factory: a
// helper defined outside it reads the module's name of the same spelling.
// A parameter the factory assigns again, and calls that pass different
// literals, are declined.
func TestFactoryParametersAreTheCallsLiterals(t *testing.T) {
	const f = "testdata/factories.py"
	proved(t, f, "add_prefix", "CASE WHEN (`s` IS NULL) THEN CAST(NULL AS STRING) ELSE concat('ACC-', `s`) END")
	proved(t, f, "scaled", "CASE WHEN (`v` IS NULL) THEN CAST(NULL AS DOUBLE) ELSE ((`v` * 2.5D) + (`v` * 10.0D)) END")
	proved(t, f, "shout", "")
	// A lambda the factory returns goes by the factory's name (its type,
	// here given, comes from the dataflow in a rewrite).
	u, src := load(t, f, "make_suffixer")
	u.Params[0].Type = udf.Prim(udf.String)
	res, err := Translate(u, src)
	require.NoError(t, err)
	require.Empty(t, res.Declines)
	rep, err := difftest.Run(context.Background(), u, difftest.Rewrite{SQL: res.SQL},
		difftest.Options{Seed: 11, Rows: 400, ANSI: true, NewRunner: runners.New})
	require.NoError(t, err)
	assert.True(t, rep.Equal, "rewrite %s: %+v", res.SQL, rep.Counterexample)
	assert.Contains(t, res.SQL, "concat(`s`, '_v2')")
	declined(t, f, "clamp", "name limit", "a parameter of make_clamp that the function assigns again")
	declined(t, f, "tagged", "name tag", "make_tagger is called with different arguments at lines 63 and 63, and each call makes another UDF")
}

// A Scala def of an object whose body is udf(...) makes the UDF from its
// parameters; each reads the literal every call of the job gives it (or
// its default), converted to its declared type. Each case runs against
// the real original, the def called with those literals.
func TestScalaFactoryParametersAreTheCallsLiterals(t *testing.T) {
	const f = "testdata/Factories.scala"
	proved(t, f, "scaleBy", "(`x` * 2.0D)")
	proved(t, f, "prefixer", "CASE WHEN (`s` IS NULL) THEN CAST(NULL AS STRING) ELSE concat('ACC-', `s`) END")
	proved(t, f, "offsetBy", "")
	declined(t, f, "tagger", "name tag", "tagger is called with different arguments at lines 29 and 30, and each call makes another UDF")

	// Once --apply left no call, verify binds the record's literals,
	// which name no place in the file: read from their text.
	u, src := load(t, f, "scaleBy")
	for lit, want := range map[string]string{"2": "(`x` * 2.0D)", "-0.5d": "(`x` * (-0.5D))", "math.Pi": ""} {
		u.Factory = u.Factory.Bind([]udf.FactoryArg{{Param: "factor", Literal: lit}})
		res, err := Translate(u, src)
		require.NoError(t, err)
		assert.Equal(t, want, res.SQL, lit)
		if want == "" {
			require.NotEmpty(t, res.Declines)
			assert.Equal(t, "literal math.Pi", res.Declines[0].Construct)
		}
	}
}

// The rewrite of one evaluate of an overloaded Hive UDF holds for its
// types only. Over a bigint column the JVM runner calls the evaluate
// Spark's resolver picks (LongWritable, 64-bit doubling), and the
// rewrite, proved for int, raises its guard on every row: refuted, never
// a wrong value.
func TestHiveOverloadGuardRaisesForAnotherType(t *testing.T) {
	const f = "testdata/corpus/real/java/hive/Twice.java"
	proved(t, f, "Twice", "")
	u, src := load(t, f, "Twice")
	res, err := Translate(u, src)
	require.NoError(t, err)
	u.Params[0].Type, u.Return = udf.Prim(udf.Long), udf.Prim(udf.Long)
	// Cast to the bigint result the test compares; the guard still decides.
	rep, err := difftest.Run(context.Background(), u, difftest.Rewrite{SQL: "CAST((" + res.SQL + ") AS BIGINT)"},
		difftest.Options{Seed: 11, Rows: 100, ANSI: true, NewRunner: runners.New})
	require.NoError(t, err)
	require.False(t, rep.Equal)
	require.NotNil(t, rep.Counterexample)
	assert.Equal(t, value.Error, rep.Counterexample.Rewrite.Kind)
	assert.Contains(t, rep.Counterexample.Rewrite.Message, "udfx: Twice has other evaluate methods; this rewrite was proved only for (x int)")
	assert.NotEqual(t, value.Error, rep.Counterexample.Original.Kind, "the original answers with evaluate(LongWritable): %s", rep.Counterexample.Original)
	assert.Equal(t, 100, rep.Mismatches, "the guard raises on every row, NULL included")
}
