"""A PySpark job whose UDF's argument types only its dataflow shows: no
type hints, schemas far from the calls, frames passed through variables,
functions and DataFrame methods. Every probe(...) call is one site of
dataflow_test.go; dataflow_spark.py runs this file in real Spark."""
import pyspark.sql.functions as F
from pyspark.sql import Row, SparkSession
from pyspark.sql.functions import col, udf
from pyspark.sql.types import DoubleType, IntegerType, StringType, StructField, StructType

spark = SparkSession.builder.appName("dataflow").getOrCreate()

READING = "station string, " "reading double, " "count int"
SCHEMA = StructType([StructField("id", IntegerType(), True), StructField("amount", DoubleType(), True)])
ROWS = [("ada", 36, 1.5, True), ("bob", None, 2.0, False)]


@udf(returnType=StringType())
def probe(x):
    return str(x)


readings = spark.read.schema(READING).json("data/readings")
site_concat = readings.withColumn("out", probe(col("reading")))

ids = spark.range(10)
orders = spark.read.schema(SCHEMA).parquet("data/orders")
site_range = ids.select(probe("id").alias("out"))
site_subscript = orders.select(probe(orders["id"]).alias("out"))

people = spark.createDataFrame(ROWS, ["name", "age", "score", "ok"])
site_rows = people.select(probe(F.col("age")), probe(people.score), probe("ok"), probe(col("name")))
events = spark.createDataFrame([Row(kind="click", at=3), Row(kind="view", at=None)])
site_row_objects = events.withColumn("out", probe(col("at")))

raw = spark.read.option("header", "true").csv("data/raw")
site_csv = raw.withColumn("out", probe(col("qty")))

df = spark.read.schema("a int, b string").json("data/ab")
df = df.withColumn("a", col("a").cast("double"))
df = df.withColumnRenamed("b", "label").filter(col("a") > 0).select("a", "label", col("a").alias("a2"))
site_reassigned = df.select(probe(col("a")), probe(col("label")), probe(col("a2")))


def enrich(frame):
    return frame.withColumn("out", probe(col("count")))


site_param = enrich(readings)


def load_orders(path):
    return spark.read.schema(SCHEMA).parquet(path)


site_return = load_orders("data/orders").select(probe(col("amount")).alias("out"))

tags = spark.createDataFrame([(1, "x")], ["id", "tag"])
joined = orders.join(tags, "id", "left")
site_join = joined.select(probe(col("tag")), probe(col("amount")), probe(col("id")))

def positive(d):
    return d.filter(col("n") >= 0)


site_todf = spark.range(3).toDF("n").transform(positive).select(probe(col("n")))


def either(frame):
    return frame.select(probe(col("id")))


site_either_1 = either(orders)
site_either_2 = either(ids)

loop = spark.read.schema("v int").json("data/v")
for c in ["v"]:
    loop = loop.withColumn(c, col(c).cast("string"))
site_loop = loop.select(probe(col("v")))

inferred = spark.read.option("inferSchema", "true").option("header", "true").csv("data/raw")
site_inferred = inferred.select(probe(col("qty")))

WIDE = StructType([
    StructField("code", StringType(), True),
    StructField("weight", DoubleType(), True),
])
site_struct_lines = spark.read.schema(WIDE).json("data/wide").select(probe(col("weight")))

name = "reading"
for name in ["count"]:
    site_loop_name = readings.select(probe(col(name)))

positional = spark.read.csv("data/raw", "qty double, name string")
site_csv_positional = positional.select(probe(col("qty")))
loaded = spark.read.format("json").option("header", "true").load("data/raw", "csv")
site_load_format = loaded.select(probe(col("qty")))

late = spark.read.schema("v int").json("data/v")
make = lambda: late.select(probe(col("v")))  # noqa: E731
late = spark.read.schema("v string").json("data/v")
site_lambda = make()

opaque = spark.read.option("inferSchema", "true").option("header", "true").csv("data/raw")
site_opaque_cast = opaque.select(col("qty").cast("string"), col("name")).select(probe(col("qty")), probe(col("name")))


def wide_schema():
    return StructType([StructField("code", StringType(), True), StructField("weight", DoubleType(), True)])


site_schema_func = spark.read.schema(wide_schema()).json("data/wide").select(probe(col("weight")))
legacy = spark.read.format("com.databricks.spark.csv").option("header", "true").load("data/raw")
site_legacy_csv = legacy.select(probe(col("qty")))


@udf(returnType=IntegerType())
def bucket(x):
    return 0


site_udf_result = readings.withColumn("b", bucket(col("reading"))).select(probe(col("b")))
site_inline_udf = readings.select(udf(lambda s: s, DoubleType())(col("station")).alias("s")).select(probe(col("s")))
