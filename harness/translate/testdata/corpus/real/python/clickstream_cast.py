"""Sessionize the clickstream: the raw feed is all strings, cast on the way in."""
from pyspark.sql import SparkSession
from pyspark.sql.functions import col, udf
from pyspark.sql.types import IntegerType, StringType

spark = SparkSession.builder.appName("clickstream").enableHiveSupport().getOrCreate()

raw = spark.read.option("header", "true").csv("/data/clickstream/2024-*.csv")

clicks = (raw
          .withColumn("duration_ms", col("duration_ms").cast("int"))
          .withColumn("http_status", col("http_status").cast(IntegerType()))
          .withColumn("page_depth", col("page_depth").cast("long")))


def duration_bucket(ms):
    if ms is None:
        return "n/a"
    secs = ms // 1000
    if secs < 10:
        return "bounce"
    if secs < 60:
        return "short"
    return "long"


def status_class(code):
    if code is None:
        return None
    return str(code // 100) + "xx"


def is_deep(depth):
    return depth is not None and depth >= 5


duration_bucket_udf = udf(duration_bucket, StringType())
status_class_udf = udf(status_class, StringType())
is_deep_udf = udf(is_deep, "boolean")

clicks = clicks.withColumn("bucket", duration_bucket_udf(col("duration_ms")))
clicks = clicks.withColumn("status_class", status_class_udf(col("http_status")))
clicks = clicks.withColumn("deep", is_deep_udf(col("page_depth")))
clicks.write.mode("append").saveAsTable("analytics.clicks")
