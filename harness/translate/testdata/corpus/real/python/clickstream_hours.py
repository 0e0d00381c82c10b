from datetime import datetime, timezone

from pyspark.sql import SparkSession
from pyspark.sql import functions as F
from pyspark.sql.types import StringType


@F.udf(returnType=StringType())
def click_hour(ts_ms):
    # utcfromtimestamp is deprecated since 3.12
    if ts_ms is None:
        return None
    return datetime.fromtimestamp(ts_ms / 1000, tz=timezone.utc).strftime("%Y-%m-%d %H:00")


@F.udf(returnType=StringType())
def local_day(ts_ms):
    if ts_ms is None:
        return None
    return datetime.fromtimestamp(ts_ms / 1000).strftime("%Y-%m-%d")


if __name__ == "__main__":
    spark = SparkSession.builder.appName("clickstream-hours").getOrCreate()
    clicks = spark.read.schema("user_id string, ts_ms bigint, url string").json("s3://acme/clicks/")
    (clicks
     .withColumn("hour", click_hour(F.col("ts_ms")))
     .withColumn("day", local_day(F.col("ts_ms")))
     .groupBy("day", "hour").count()
     .write.mode("overwrite").parquet("s3://acme/click-hours/"))
