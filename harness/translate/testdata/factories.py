from pyspark.sql import SparkSession
from pyspark.sql.functions import col, udf
from pyspark.sql.types import StringType

spark = SparkSession.builder.getOrCreate()
df = spark.read.schema("s string, v double").parquet("/data/in")

scale = 10.0


def with_scale(x):
    # Reads the module's scale, whatever a factory's parameter is called.
    return x * scale


def make_prefixer(prefix):
    def add_prefix(s: str):
        if s is None:
            return None
        return prefix + s

    return udf(add_prefix, StringType())


def make_scaled(scale):
    # The parameter hides the module's scale in the UDF, not in with_scale.
    def scaled(v: float):
        if v is None:
            return None
        return v * scale + with_scale(v)

    return udf(scaled, "double")


def make_shouter(mark="!"):
    def shout(s: str):
        mark_twice = mark + mark
        return s + mark_twice if s is not None else None

    return udf(shout, StringType())


def make_clamp(limit):
    limit = abs(limit)

    def clamp(v: float):
        return min(v, limit) if v is not None else None

    return udf(clamp, "double")


def make_tagger(tag):
    def tagged(s: str):
        return tag + s if s is not None else None

    return udf(tagged, StringType())


df = df.withColumn("a", make_prefixer("ACC-")(col("s")))
df = df.withColumn("b", make_scaled(2.5)(col("v")))
df = df.withColumn("c", make_shouter()(col("s")))
df = df.withColumn("d", make_clamp(-3.0)(col("v")))
df = df.withColumn("e", make_tagger("x")(col("s"))).withColumn("f", make_tagger("y")(col("s")))
df.write.parquet("/data/out")


def make_suffixer(suffix):
    return udf(lambda s: s + suffix if s is not None else None, StringType())


df2 = spark.read.schema("name string").parquet("/data/names").select(make_suffixer("_v2")(col("name")))
