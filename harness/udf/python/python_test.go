package python

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/udf"
)

// summary is a UDF reduced to what the table tests compare. Params read
// "name:type(source)", uses "kind@line", blockers "kind:detail@line".
type summary struct {
	Name       string
	Kind       udf.Kind
	Registered []string
	Flavor     udf.PandasFlavor
	RDDOp      string
	Params     []string
	Return     string
	Span       [2]int // start and end line; zero to leave unchecked
	Body       [2]int
	Uses       []string
	Blockers   []string
}

func summarize(u udf.UDF, withSpans bool) summary {
	s := summary{
		Name: u.Name, Kind: u.Kind, Registered: u.RegisteredNames, Flavor: u.PandasFlavor,
		RDDOp: u.RDDOperation, Params: []string{}, Uses: []string{}, Blockers: []string{},
	}
	if u.Return != nil {
		s.Return = u.Return.String()
	}
	if withSpans {
		s.Span = [2]int{u.Span.Start.Line, u.Span.End.Line}
		s.Body = [2]int{u.BodySpan.Start.Line, u.BodySpan.End.Line}
	}
	for _, p := range u.Params {
		t := ""
		if p.Type != nil {
			t = p.Type.String()
		}
		if p.SourceType != "" {
			t += "(" + p.SourceType + ")"
		}
		s.Params = append(s.Params, p.Name+":"+t)
	}
	for _, us := range u.UseSites {
		s.Uses = append(s.Uses, fmt.Sprintf("%s@%d", us.Kind, us.Span.Start.Line))
	}
	for _, b := range u.Blockers {
		s.Blockers = append(s.Blockers, fmt.Sprintf("%s:%s@%d", b.Kind, b.Detail, b.Span.Start.Line))
	}
	return s
}

func parse(t *testing.T, src string) []udf.UDF {
	t.Helper()
	f := New()
	defer f.Close()
	us, err := f.Parse("t.py", []byte(src))
	require.NoError(t, err)
	for _, u := range us {
		assert.Equal(t, "t.py", u.File)
		assert.Equal(t, udf.Python, u.Language)
		assert.Len(t, u.Targets, len(udf.Targets), "Finish was called")
	}
	return us
}

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []summary
	}{
		{
			name: "module alias decorator with DDL string and hints",
			src: `import pyspark.sql.functions as F

@F.udf("double")
def scale(x: int, label: "str", y) -> float:
    return x * 2.0
`,
			want: []summary{{
				Name: "scale", Kind: udf.KindPythonUDF, Registered: []string{},
				Params: []string{"x:bigint(int)", "label:string(str)", "y:"}, Return: "double",
				Span: [2]int{3, 5}, Body: [2]int{4, 5}, Uses: []string{}, Blockers: []string{},
			}},
		},
		{
			name: "from pyspark.sql import functions as G, returnType constructor, use sites",
			src: `from pyspark.sql import functions as G
from pyspark.sql import types as T

@G.udf(returnType=T.ArrayType(T.StringType()))
def tokens(s):
    return s.lower().split(",")

df.select(tokens(G.col("a")), tokens("b"))
`,
			want: []summary{{
				Name: "tokens", Kind: udf.KindPythonUDF, Registered: []string{},
				Params: []string{"s:"}, Return: "array<string>",
				Span: [2]int{4, 6}, Body: [2]int{5, 6}, Uses: []string{"call@8", "call@8"}, Blockers: []string{},
			}},
		},
		{
			name: "bare decorator defaults to string; empty call too; useArrow keyword",
			src: `from pyspark.sql.functions import udf

@udf
def a(x):
    return str(x)

@udf()
def b(x):
    return str(x)

@udf(returnType="bigint", useArrow=True)
def c(x):
    return int(x)
`,
			want: []summary{
				{Name: "a", Kind: udf.KindPythonUDF, Registered: []string{}, Params: []string{"x:"}, Return: "string", Uses: []string{}, Blockers: []string{}},
				{Name: "b", Kind: udf.KindPythonUDF, Registered: []string{}, Params: []string{"x:"}, Return: "string", Uses: []string{}, Blockers: []string{}},
				{Name: "c", Kind: udf.KindPythonUDF, Registered: []string{}, Params: []string{"x:"}, Return: "bigint", Uses: []string{}, Blockers: []string{}},
			},
		},
		{
			name: "fully qualified and star import",
			src: `import pyspark
from pyspark.sql.functions import *

@pyspark.sql.functions.udf("int")
def a(x):
    return x

@udf("int")
def b(x):
    return x
`,
			want: []summary{
				{Name: "a", Kind: udf.KindPythonUDF, Registered: []string{}, Params: []string{"x:"}, Return: "int", Uses: []string{}, Blockers: []string{}},
				{Name: "b", Kind: udf.KindPythonUDF, Registered: []string{}, Params: []string{"x:"}, Return: "int", Uses: []string{}, Blockers: []string{}},
			},
		},
		{
			name: "a udf that is not PySpark's",
			src: `from mylib import udf

@udf("int")
def a(x):
    return x

@cache
def b(x):
    return x
`,
			want: []summary{},
		},
		{
			name: "udf(f, T) names the def and is called through the variable",
			src: `from pyspark.sql.functions import udf
from pyspark.sql.types import IntegerType

def square(x):
    return x * x

sq = udf(square, IntegerType())
df.select(sq("a"), square(3))
`,
			want: []summary{{
				Name: "square", Kind: udf.KindPythonUDF, Registered: []string{},
				Params: []string{"x:"}, Return: "int",
				Span: [2]int{7, 7}, Body: [2]int{4, 5}, Uses: []string{"call@8"}, Blockers: []string{},
			}},
		},
		{
			name: "udf(lambda) named by variable, inline, and returnType keyword",
			src: `from pyspark.sql.functions import udf

plus_one = udf(lambda x: x + 1, returnType="int")
df.select(plus_one("a"), udf(lambda s: s.upper())("b"))
`,
			want: []summary{
				{Name: "plus_one", Kind: udf.KindLambda, Registered: []string{}, Params: []string{"x:"}, Return: "int",
					Span: [2]int{3, 3}, Body: [2]int{3, 3}, Uses: []string{"call@4"}, Blockers: []string{}},
				{Name: "<lambda@4:30>", Kind: udf.KindLambda, Registered: []string{}, Params: []string{"s:"}, Return: "string",
					Span: [2]int{4, 4}, Body: [2]int{4, 4}, Uses: []string{"call@4"}, Blockers: []string{}},
			},
		},
		{
			name: "udf(T)(f) factory applied at once, asNondeterministic",
			src: `from pyspark.sql.functions import udf
import random

def noise(x):
    return x + random.random()

noisy = udf("double")(noise)
jitter = udf(noise, "double").asNondeterministic()
`,
			want: []summary{
				{Name: "noise", Kind: udf.KindPythonUDF, Registered: []string{}, Params: []string{"x:"}, Return: "double",
					Span: [2]int{7, 7}, Body: [2]int{4, 5}, Uses: []string{},
					Blockers: []string{"nondeterminism:call to random.random@5"}},
				{Name: "noise", Kind: udf.KindPythonUDF, Registered: []string{}, Params: []string{"x:"}, Return: "double",
					Span: [2]int{8, 8}, Body: [2]int{4, 5}, Uses: []string{},
					Blockers: []string{"nondeterminism:call to random.random@5", "nondeterminism:asNondeterministic()@8"}},
			},
		},
		{
			name: "register a plain def, then SQL, expr and selectExpr uses",
			src: `def square(x):
    return x * x

spark.udf.register("sq", square, "int")
spark.sql("SELECT sq(a) FROM t")
df.selectExpr("SQ (a) AS b", "other(a)")
df.select(expr("""
    sq(a) + 1"""))
`,
			want: []summary{{
				Name: "square", Kind: udf.KindPythonUDF, Registered: []string{"sq"},
				Params: []string{"x:"}, Return: "int", Span: [2]int{4, 4}, Body: [2]int{1, 2},
				Uses: []string{"register@4", "sql@5", "sql@6", "sql@7"}, Blockers: []string{},
			}},
		},
		{
			name: "register a def twice gives one UDF; default return type is string",
			src: `def label(x):
    return "n" + str(x)

spark.udf.register("label_a", label)
spark.udf.register("label_b", label)
`,
			want: []summary{{
				Name: "label", Kind: udf.KindPythonUDF, Registered: []string{"label_a", "label_b"},
				Params: []string{"x:"}, Return: "string", Span: [2]int{4, 4}, Body: [2]int{1, 2},
				Uses: []string{"register@4", "register@5"}, Blockers: []string{},
			}},
		},
		{
			name: "register a lambda, with the result assigned",
			src: `from pyspark.sql.types import LongType

inc = sqlContext.udf.register("inc", lambda x: x + 1, LongType())
df.select(inc("a"))
`,
			want: []summary{{
				Name: "inc", Kind: udf.KindLambda, Registered: []string{"inc"},
				Params: []string{"x:"}, Return: "bigint", Span: [2]int{3, 3}, Body: [2]int{3, 3},
				Uses: []string{"register@3", "call@4"}, Blockers: []string{},
			}},
		},
		{
			name: "register an existing UDF; call_udf, references; registerJavaFunction ignored",
			src: `from pyspark.sql.functions import udf, call_udf, col

@udf("int")
def twice(x):
    return 2 * x

session.udf.register("twice_sql", twice)
spark.udf.registerJavaFunction("jf", "com.example.F", "int")
df.select(call_udf("twice_sql", col("a")), F.expr("TWICE_SQL(a)"))
apply_all([twice])
run(twice)
`,
			want: []summary{{
				Name: "twice", Kind: udf.KindPythonUDF, Registered: []string{"twice_sql"},
				Params: []string{"x:"}, Return: "int", Span: [2]int{3, 5}, Body: [2]int{4, 5},
				Uses: []string{"register@7", "call@9", "sql@9", "reference@11"}, Blockers: []string{},
			}},
		},
		{
			name: "register an inline udf(lambda) names it by the registered name",
			src: `from pyspark.sql.functions import udf

spark.udf.register("neg", udf(lambda x: -x, "double"))
`,
			want: []summary{{
				Name: "neg", Kind: udf.KindLambda, Registered: []string{"neg"},
				Params: []string{"x:"}, Return: "double", Span: [2]int{3, 3}, Body: [2]int{3, 3},
				Uses: []string{"register@3"}, Blockers: []string{},
			}},
		},
		{
			name: "pandas flavors from hints",
			src: `from typing import Iterator, Tuple
import pandas as pd
from pyspark.sql.functions import pandas_udf

@pandas_udf("double")
def s2s(a: pd.Series, b: pd.DataFrame) -> pd.Series:
    return a + 1

@pandas_udf("long")
def it(batches: Iterator[pd.Series]) -> Iterator[pd.Series]:
    for b in batches:
        yield b + 1

@pandas_udf("long")
def multi(batches: Iterator[Tuple[pd.Series, pd.Series]]) -> Iterator[pd.Series]:
    for a, b in batches:
        yield a + b

@pandas_udf(returnType="int")
def agg(v: "pd.Series") -> int:
    return v.sum()
`,
			want: []summary{
				{Name: "s2s", Kind: udf.KindPandasUDF, Flavor: udf.PandasSeriesToSeries, Registered: []string{},
					Params: []string{"a:(pd.Series)", "b:(pd.DataFrame)"}, Return: "double", Uses: []string{}, Blockers: []string{}},
				{Name: "it", Kind: udf.KindPandasUDF, Flavor: udf.PandasIteratorOfSeries, Registered: []string{},
					Params: []string{"batches:(Iterator[pd.Series])"}, Return: "bigint", Uses: []string{}, Blockers: []string{"loop:for loop@11"}},
				{Name: "multi", Kind: udf.KindPandasUDF, Flavor: udf.PandasIteratorOfMultiple, Registered: []string{},
					Params: []string{"batches:(Iterator[Tuple[pd.Series, pd.Series]])"}, Return: "bigint", Uses: []string{}, Blockers: []string{"loop:for loop@16"}},
				{Name: "agg", Kind: udf.KindPandasUDF, Flavor: udf.PandasSeriesToScalar, Registered: []string{},
					Params: []string{"v:(pd.Series)"}, Return: "int", Uses: []string{}, Blockers: []string{}},
			},
		},
		{
			name: "pandas flavors from functionType, call form, unknown",
			src: `from pyspark.sql.functions import pandas_udf, PandasUDFType

@pandas_udf("double", PandasUDFType.SCALAR)
def a(s):
    return s * 2

@pandas_udf("id long, v double", functionType=PandasUDFType.GROUPED_MAP)
def b(pdf):
    return pdf

@pandas_udf("double", PandasUDFType.GROUPED_AGG)
def c(s):
    return s.mean()

@pandas_udf("double")
def d(s):
    return s

def e(s):
    return s.map(lambda v: v * 2)

e_udf = pandas_udf(e, "double", PandasUDFType.SCALAR_ITER)
`,
			want: []summary{
				{Name: "a", Kind: udf.KindPandasUDF, Flavor: udf.PandasSeriesToSeries, Registered: []string{}, Params: []string{"s:"}, Return: "double", Uses: []string{}, Blockers: []string{}},
				{Name: "b", Kind: udf.KindPandasUDF, Flavor: udf.PandasGroupedMap, Registered: []string{}, Params: []string{"pdf:"}, Return: "struct<id:bigint,v:double>", Uses: []string{}, Blockers: []string{}},
				{Name: "c", Kind: udf.KindPandasUDF, Flavor: udf.PandasSeriesToScalar, Registered: []string{}, Params: []string{"s:"}, Return: "double", Uses: []string{}, Blockers: []string{}},
				{Name: "d", Kind: udf.KindPandasUDF, Flavor: udf.PandasUnknown, Registered: []string{}, Params: []string{"s:"}, Return: "double", Uses: []string{}, Blockers: []string{}},
				{Name: "e", Kind: udf.KindPandasUDF, Flavor: udf.PandasIteratorOfSeries, Registered: []string{}, Params: []string{"s:"}, Return: "double",
					Span: [2]int{22, 22}, Body: [2]int{19, 20}, Uses: []string{}, Blockers: []string{}},
			},
		},
		{
			name: "RDD functions: lambdas, defs, imported functions; builtin map skipped",
			src: `import operator
from operator import add

def parse(line):
    return line.split(",")

pairs = rdd.map(parse).filter(lambda kv: len(kv) > 1)
total = pairs.fold(0, lambda a, b: a + b)
both = pairs.aggregate((0, 0), lambda acc, v: acc, lambda a, b: a)
s = rdd.reduce(operator.add) + rdd.reduce(add) + rdd.treeReduce(add)
lst = list(map(lambda x: x, [1, 2]))
srt = rdd.sortBy(keyfunc=lambda x: x[0], ascending=False)
`,
			want: []summary{
				{Name: "parse", Kind: udf.KindRDDLambda, RDDOp: "map", Registered: []string{}, Params: []string{"line:"},
					Span: [2]int{4, 5}, Body: [2]int{4, 5}, Uses: []string{"reference@7"}, Blockers: []string{}},
				{Name: "<lambda@7:31>", Kind: udf.KindRDDLambda, RDDOp: "filter", Registered: []string{}, Params: []string{"kv:"},
					Span: [2]int{7, 7}, Body: [2]int{7, 7}, Uses: []string{}, Blockers: []string{}},
				{Name: "<lambda@8:23>", Kind: udf.KindRDDLambda, RDDOp: "fold", Registered: []string{}, Params: []string{"a:", "b:"},
					Span: [2]int{8, 8}, Body: [2]int{8, 8}, Uses: []string{}, Blockers: []string{}},
				{Name: "<lambda@9:32>", Kind: udf.KindRDDLambda, RDDOp: "aggregate", Registered: []string{}, Params: []string{"acc:", "v:"},
					Span: [2]int{9, 9}, Body: [2]int{9, 9}, Uses: []string{}, Blockers: []string{}},
				{Name: "<lambda@9:52>", Kind: udf.KindRDDLambda, RDDOp: "aggregate", Registered: []string{}, Params: []string{"a:", "b:"},
					Span: [2]int{9, 9}, Body: [2]int{9, 9}, Uses: []string{}, Blockers: []string{}},
				{Name: "operator.add", Kind: udf.KindRDDLambda, RDDOp: "reduce", Registered: []string{}, Params: []string{},
					Span: [2]int{10, 10}, Body: [2]int{10, 10}, Uses: []string{"reference@10"}, Blockers: []string{}},
				{Name: "add", Kind: udf.KindRDDLambda, RDDOp: "reduce", Registered: []string{}, Params: []string{},
					Span: [2]int{10, 10}, Body: [2]int{10, 10}, Uses: []string{"reference@10", "reference@10"}, Blockers: []string{}},
				{Name: "<lambda@12:26>", Kind: udf.KindRDDLambda, RDDOp: "sortBy", Registered: []string{}, Params: []string{"x:"},
					Span: [2]int{12, 12}, Body: [2]int{12, 12}, Uses: []string{}, Blockers: []string{}},
			},
		},
		{
			name: "RDD-looking calls inside a pandas UDF and inside an RDD lambda are not RDD functions",
			src: `import pandas as pd
from pyspark.sql.functions import pandas_udf

@pandas_udf("double")
def f(s: pd.Series) -> pd.Series:
    return s.map(lambda v: v * 2).apply(float)

out = rdd.map(lambda xs: list(xs.map(lambda y: y)))
`,
			want: []summary{
				{Name: "f", Kind: udf.KindPandasUDF, Flavor: udf.PandasSeriesToSeries, Registered: []string{}, Params: []string{"s:(pd.Series)"}, Return: "double", Uses: []string{}, Blockers: []string{}},
				{Name: "<lambda@8:15>", Kind: udf.KindRDDLambda, RDDOp: "map", Registered: []string{}, Params: []string{"xs:"},
					Uses: []string{}, Blockers: []string{"unknown-call:call to xs.map@8"}},
			},
		},
		{
			name: "epoch times formatted in UTC",
			src: `import datetime as dt
from datetime import datetime, timezone
from pyspark.sql.functions import udf

@udf("string")
def stamp(ms):
    a = datetime.utcfromtimestamp(ms / 1000).strftime("%Y")
    return a + dt.datetime.fromtimestamp(ms // 1000, tz=timezone.utc).strftime("%H")
`,
			want: []summary{{Name: "stamp", Kind: udf.KindPythonUDF, Registered: []string{}, Params: []string{"ms:"}, Return: "string", Uses: []string{}, Blockers: []string{}}},
		},
		{
			name: "blockers",
			src: `import logging, os, random, time, uuid, requests
import numpy as np
from datetime import datetime, date
from pyspark.sql.functions import udf

logger = logging.getLogger(__name__)
CACHE = []
COUNTS = {}

def helper(x):
    return x

@udf("string")
def busy(x):
    global seen
    print(x)
    logger.info("row %s", x)
    fh = open("/tmp/x")
    os.getenv("HOME")
    requests.get("http://example.com")
    r = random.random() + np.random.rand() + time.time()
    d = datetime.now()
    t = date.today()
    u = uuid.uuid4()
    CACHE.append(x)
    COUNTS[x] = 1
    try:
        y = int(x)
    except ValueError:
        y = 0
    for c in x:
        pass
    while False:
        pass
    z = [c for c in x] + list(c for c in x)
    s = {c for c in x}
    m = {c: 1 for c in x}
    mystery(x)
    np.sqrt(y)
    local = helper(x).strip().lower()
    return str(abs(y)) + local.zfill(3)
`,
			want: []summary{{
				Name: "busy", Kind: udf.KindPythonUDF, Registered: []string{}, Params: []string{"x:"}, Return: "string", Uses: []string{},
				Blockers: []string{
					"mutable-state:global seen@15",
					"io:call to print@16",
					"io:call to logger.info@17",
					"io:call to open@18",
					"io:call to os.getenv@19",
					"network:call to requests.get@20",
					"nondeterminism:call to random.random@21",
					"nondeterminism:call to np.random.rand@21",
					"nondeterminism:call to time.time@21",
					"nondeterminism:call to datetime.now@22",
					"nondeterminism:call to date.today@23",
					"nondeterminism:call to uuid.uuid4@24",
					"mutable-state:mutation of CACHE via append@25",
					"mutable-state:assignment to COUNTS[x]@26",
					"exception-handling:try/except@27",
					"loop:for loop@31",
					"loop:while loop@33",
					"loop:list comprehension@35",
					"loop:generator expression@35",
					"loop:set comprehension@36",
					"loop:dict comprehension@37",
					"unknown-call:call to mystery@38",
					"unknown-call:call to np.sqrt@39",
				},
			}},
		},
		{
			name: "nested def, closure and local mutation are fine; nonlocal is not",
			src: `import math
from pyspark.sql.functions import udf

def main():
    factor = 2.0

    @udf("double")
    def scaled(x):
        acc = []
        acc.append(math.sqrt(x) * factor)
        def inner(v):
            return v
        return inner(acc[0])

    @udf("double")
    def counter(x):
        nonlocal factor
        return x
`,
			want: []summary{
				{Name: "scaled", Kind: udf.KindPythonUDF, Registered: []string{}, Params: []string{"x:"}, Return: "double", Uses: []string{}, Blockers: []string{}},
				{Name: "counter", Kind: udf.KindPythonUDF, Registered: []string{}, Params: []string{"x:"}, Return: "double", Uses: []string{},
					Blockers: []string{"mutable-state:nonlocal factor@17"}},
			},
		},
		{
			name: "a function from elsewhere wrapped by udf",
			src: `from pyspark.sql.functions import udf
import mylib, math

f = udf(mylib.transform, "string")
g = udf(math.floor, "bigint")
`,
			want: []summary{
				{Name: "mylib.transform", Kind: udf.KindPythonUDF, Registered: []string{}, Params: []string{}, Return: "string",
					Span: [2]int{4, 4}, Body: [2]int{4, 4}, Uses: []string{},
					Blockers: []string{"unknown-call:call to mylib.transform (defined outside this file)@4"}},
				{Name: "math.floor", Kind: udf.KindPythonUDF, Registered: []string{}, Params: []string{}, Return: "bigint",
					Span: [2]int{5, 5}, Body: [2]int{5, 5}, Uses: []string{}, Blockers: []string{}},
			},
		},
		{
			name: "returnType bound to a module-level name",
			src: `from pyspark.sql.functions import udf
from pyspark.sql.types import StructType, StructField, StringType

SCHEMA = StructType([StructField("a", StringType(), True)])

@udf(SCHEMA)
def wrap(x):
    return (x,)
`,
			want: []summary{{
				Name: "wrap", Kind: udf.KindPythonUDF, Registered: []string{}, Params: []string{"x:"}, Return: "struct<a:string>", Uses: []string{}, Blockers: []string{},
			}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			us := parse(t, tc.src)
			got := make([]summary, 0, len(us))
			for i, u := range us {
				withSpans := i < len(tc.want) && tc.want[i].Span != [2]int{}
				got = append(got, summarize(u, withSpans))
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestSQLUseSiteText(t *testing.T) {
	us := parse(t, `def f(x):
    return x

spark.udf.register("fx", f, "int")
spark.sql("SELECT fx(a) FROM t")
`)
	require.Len(t, us, 1)
	require.Len(t, us[0].UseSites, 2)
	sql := us[0].UseSites[1]
	assert.Equal(t, udf.UseSQL, sql.Kind)
	assert.Equal(t, `"SELECT fx(a) FROM t"`, sql.Text)
	assert.Equal(t, udf.Span{Start: udf.Position{Line: 5, Column: 11}, End: udf.Position{Line: 5, Column: 32}}, sql.Span)
}

func TestLambdaNameCountsCodePoints(t *testing.T) {
	us := parse(t, "s = \"é\"; r = rdd.map(lambda x: x)\n")
	require.Len(t, us, 1)
	assert.Equal(t, "<lambda@1:22>", us[0].Name)
}

func TestParseErrorGivesLine(t *testing.T) {
	f := New()
	defer f.Close()
	us, err := f.Parse("broken.py", []byte("from pyspark.sql.functions import udf\n\n@udf(\"int\")\ndef f(x):\n    return x +* 2\n"))
	assert.Nil(t, us)
	var pe *udf.ParseError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, "broken.py", pe.File)
	assert.Equal(t, 5, pe.Pos.Line)
}

func TestClosedFrontendErrors(t *testing.T) {
	f := New()
	f.Close()
	f.Close()
	_, err := f.Parse("x.py", []byte("x = 1\n"))
	assert.Error(t, err)
	assert.True(t, strings.Contains(err.Error(), "Close"))
}

func TestLanguage(t *testing.T) {
	f := New()
	defer f.Close()
	var fe udf.Frontend = f
	assert.Equal(t, udf.Python, fe.Language())
}

// Forms real code writes that scan missed: the UserDefinedFunction class
// called directly, and a lambda that forwards to a function of the file,
// which goes by that function's name too.
func TestUDFFormsOfOlderAndWrappingCode(t *testing.T) {
	us := parse(t, `from pyspark.sql.functions import udf
from pyspark.sql.types import IntegerType, StringType
from pyspark.sql.udf import UserDefinedFunction

def upper_name(s):
    return s.upper() if s else None

def to_int(z):
    return int(z)

upper_udf = UserDefinedFunction(upper_name, StringType())
toInt = udf(lambda z: to_int(z), IntegerType())
pandas_like = UserDefinedFunction(upper_name, StringType(), evalType=200)
not_forwarding = udf(lambda z: to_int(z) + 1, IntegerType())
`)
	require.Len(t, us, 3)
	byLine := map[int]udf.UDF{}
	for _, u := range us {
		byLine[u.Span.Start.Line] = u
	}
	assert.Equal(t, "upper_name", byLine[11].Name)
	assert.Equal(t, udf.KindPythonUDF, byLine[11].Kind)
	assert.Equal(t, "string", byLine[11].Return.String())
	assert.Equal(t, "toInt", byLine[12].Name)
	assert.Equal(t, "to_int", byLine[12].Wraps)
	assert.Equal(t, "int", byLine[12].Return.String())
	assert.Empty(t, byLine[14].Wraps)
}

// A trailing parameter with a default that no call passes is no column:
// Spark calls the function with the call's arguments, and the rest take
// their defaults. One a call passes stays; so do those of a registered
// UDF, which SQL anywhere may call with more.
func TestDefaultedParametersNoCallPassesAreNotColumns(t *testing.T) {
	f := New()
	defer f.Close()
	us, err := f.Parse("defaults.py", []byte(`from pyspark.sql.functions import col, udf

def parse_temp(s, fallback=-273.15):
    return float(s)

def label(name, sep=" / ", upper=False):
    return name + sep

def pad(s, width=4):
    return s.rjust(width)

parse_udf = udf(parse_temp, "double")
label_udf = udf(label, "string")
df.select(parse_udf(col("t")), label_udf(col("a"), col("b")))
spark.udf.register("pad", pad, "string")
`))
	require.NoError(t, err)
	got := map[string][]string{}
	for _, u := range us {
		for _, p := range u.Params {
			got[u.Name] = append(got[u.Name], p.Name+"="+p.Default)
		}
	}
	assert.Equal(t, map[string][]string{
		"parse_temp": {"s="},
		"label":      {"name=", `sep=" / "`},
		"pad":        {"s=", "width=4"},
	}, got)
}

// udf(f, T)(col(...)) makes and calls the UDF in one expression, in a file
// where no UDF has a variable name: the call is its use site, typed by the
// dataflow.
func TestAUDFMadeAndCalledInOneExpressionHasItsUseSite(t *testing.T) {
	f := New()
	defer f.Close()
	us, err := f.Parse("inline.py", []byte(`from pyspark.sql.functions import col, udf
from pyspark.sql.types import IntegerType

def safe_int(s):
    try:
        return int(s)
    except ValueError:
        return None

survey = spark.read.option("header", "true").csv("/data/survey.csv")
survey = survey.withColumn("age", udf(safe_int, IntegerType())(col("age")))
`))
	require.NoError(t, err)
	require.Len(t, us, 1)
	require.Len(t, us[0].UseSites, 1)
	s := us[0].UseSites[0]
	assert.Equal(t, udf.UseCall, s.Kind)
	assert.Equal(t, `udf(safe_int, IntegerType())(col("age"))`, s.Text)
	require.Len(t, s.ArgTypes, 1)
	assert.Equal(t, "string", s.ArgTypes[0].Type.String())
}

// A UDF a module-level function makes and returns reads the function's
// parameters: scan binds them to the literals the file's calls pass (or
// the defaults), and finds the calls of the UDF it returns as its use
// sites; calls that disagree, or pass a value that is not a literal, are
// the factory's problem, said in words.
func TestFactoriesBindTheLiteralsTheirCallsPass(t *testing.T) {
	f := New()
	defer f.Close()
	us, err := f.Parse("factories.py", []byte(`from pyspark.sql.functions import col, udf
from pyspark.sql.types import BooleanType, StringType

def make_prefixer(prefix, sep="-"):
    def add_prefix(s):
        return prefix + sep + s
    return udf(add_prefix, StringType())

def make_flag(limit):
    @udf(BooleanType())
    def over(x):
        return x > limit
    return over

def make_suffixer(suffix):
    def add_suffix(s):
        return s + suffix
    return udf(add_suffix, StringType())

def make_scaler(k):
    def scale(x):
        return x * k
    return udf(scale, "double")

def never_called(n):
    def unused(x):
        return x + n
    return udf(unused, "double")

df = df.withColumn("t", make_prefixer("ACC")(col("account")))
df = df.withColumn("u", make_prefixer(prefix="ACC")(col("other")))
df = df.withColumn("big", make_flag(limit=-100.5)(col("balance")))
df = df.withColumn("a", make_suffixer("_x")(col("a"))).withColumn("b", make_suffixer("_y")(col("b")))
factor = 3
df = df.withColumn("s", make_scaler(factor)(col("v")))
`))
	require.NoError(t, err)
	by := map[string]udf.UDF{}
	for _, u := range us {
		by[u.Name] = u
	}
	require.NotNil(t, by["add_prefix"].Factory)
	assert.Equal(t, "make_prefixer", by["add_prefix"].Factory.Name)
	assert.Equal(t, []string{"prefix", "sep"}, by["add_prefix"].Factory.Params)
	assert.Empty(t, by["add_prefix"].Factory.Problem)
	var bound []string
	for _, a := range by["add_prefix"].Factory.Args {
		bound = append(bound, a.Param+"="+a.Literal)
	}
	assert.Equal(t, []string{`prefix="ACC"`, `sep="-"`}, bound, "the positional and the keyword call agree; sep takes its default")
	require.Len(t, by["add_prefix"].UseSites, 2)
	assert.Equal(t, `make_prefixer("ACC")(col("account"))`, by["add_prefix"].UseSites[0].Text)

	require.NotNil(t, by["over"].Factory, "a decorated def the factory returns")
	assert.Equal(t, "limit", by["over"].Factory.Args[0].Param)
	assert.Equal(t, "-100.5", by["over"].Factory.Args[0].Literal)
	assert.Equal(t, 32, by["over"].Factory.Args[0].Span.Start.Line, "where the call writes the literal")
	require.Len(t, by["over"].UseSites, 1)

	assert.Equal(t, "make_suffixer is called with different arguments at lines 33 and 33, and each call makes another UDF", by["add_suffix"].Factory.Problem)
	assert.Equal(t, "the call of make_scaler at line 35 gives k factor, which is not a literal", by["scale"].Factory.Problem)
	assert.Equal(t, "never_called is not called in this file, so what its parameters hold is not known", by["unused"].Factory.Problem)
	assert.Empty(t, by["unused"].Factory.Args)
	assert.True(t, by["unused"].Factory.NotCalled)
	assert.Equal(t, []string{"n"}, by["unused"].Factory.Params, "known with no call too")
}

// A module-level name bound once to what a factory returns calls the UDF
// (the shape real jobs write: prefixer = make_prefixer("ACC-"), then
// prefixer(col("account"))); a name bound again, or used otherwise than
// called or passed, may hold something else and gives no use site.
func TestAFactoryUDFHeldByAVariableIsCalledByIt(t *testing.T) {
	f := New()
	defer f.Close()
	us, err := f.Parse("held.py", []byte(`from pyspark.sql.functions import col, udf
from pyspark.sql.types import StringType

def make_prefixer(prefix):
    def add_prefix(s):
        return prefix + s
    return udf(add_prefix, StringType())

def make_suffixer(suffix):
    def add_suffix(s):
        return s + suffix
    return udf(add_suffix, StringType())

prefixer = make_prefixer("ACC-")
df = df.withColumn("t", prefixer(col("account")))
spark.udf.register("prefixer", prefixer)
suffixer = make_suffixer("_x")
suffixer = str.upper
df = df.withColumn("u", suffixer(col("account")))
`))
	require.NoError(t, err)
	by := map[string]udf.UDF{}
	for _, u := range us {
		by[u.Name] = u
	}
	var uses []string
	for _, s := range by["add_prefix"].UseSites {
		uses = append(uses, s.Text)
	}
	assert.Contains(t, uses, `prefixer(col("account"))`)
	assert.Equal(t, `prefix="ACC-"`, by["add_prefix"].Factory.Args[0].Param+"="+by["add_prefix"].Factory.Args[0].Literal)
	for _, s := range by["add_suffix"].UseSites {
		assert.NotEqual(t, `suffixer(col("account"))`, s.Text, "suffixer is bound again")
	}
}

// The same name bound inside main() or under if __name__ == "__main__":,
// where scripts build their job.
func TestAFactoryUDFHeldByAVariableInMainIsCalledByIt(t *testing.T) {
	f := New()
	defer f.Close()
	us, err := f.Parse("main.py", []byte(`from pyspark.sql.functions import col, udf

def make_scaler(k):
    return udf(lambda x: x * k if x is not None else None, "double")

def main():
    scale = make_scaler(2.5)
    spark.read.parquet("in").withColumn("s", scale(col("v"))).show()

if __name__ == "__main__":
    main()
`))
	require.NoError(t, err)
	require.Len(t, us, 1)
	assert.Equal(t, "make_scaler", us[0].Name)
	require.Len(t, us[0].UseSites, 1)
	assert.Equal(t, `scale(col("v"))`, us[0].UseSites[0].Text)
}
