import datetime

from pyspark.sql import SparkSession
from pyspark.sql import functions as F
from pyspark.sql.types import StringType, BooleanType

spark = SparkSession.builder.appName("orders-calendar").getOrCreate()

orders = spark.read.schema("order_id bigint, order_date date, created_ms bigint, amount double") \
    .parquet("s3://warehouse/orders/")


@F.udf(returnType=StringType())
def day_of_week(order_date):
    if order_date is None:
        return None
    return order_date.strftime("%A").lower()


@F.udf(returnType=BooleanType())
def is_weekend(order_date):
    if order_date is None:
        return False
    return order_date.weekday() >= 5


@F.udf(returnType=StringType())
def month_bucket(order_date):
    if order_date is None:
        return "unknown"
    return order_date.strftime("%b-%Y")


def created_hour(ms):
    if ms is None:
        return None
    return datetime.datetime.utcfromtimestamp(ms / 1000).strftime("%I %p")


created_hour_udf = F.udf(created_hour, StringType())

report = (orders
          .withColumn("dow", day_of_week("order_date"))
          .withColumn("weekend", is_weekend(F.col("order_date")))
          .withColumn("month", month_bucket(F.col("order_date")))
          .withColumn("hour", created_hour_udf(F.col("created_ms"))))

report.groupBy("dow", "weekend").agg(F.sum("amount").alias("revenue")).show()
