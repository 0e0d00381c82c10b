from datetime import datetime

from pyspark.sql import SparkSession
from pyspark.sql.functions import udf, col
from pyspark.sql.types import StringType, IntegerType, StructType, StructField

spark = SparkSession.builder.appName("dates").getOrCreate()

schema = StructType([
    StructField("raw_date", StringType(), True),
    StructField("year", IntegerType(), True),
])
df = spark.read.schema(schema).csv("/data/dates.csv")


def to_iso(raw):
    try:
        return datetime.strptime(raw, "%d/%m/%Y").strftime("%Y-%m-%d")
    except (ValueError, TypeError):
        return None


def is_leap(year):
    if year is None:
        return None
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def century(year):
    if year is None:
        return None
    return (year - 1) // 100 + 1


to_iso_udf = udf(to_iso, StringType())
is_leap_udf = udf(is_leap, "boolean")
century_udf = udf(century, IntegerType())

df.withColumn("iso", to_iso_udf(col("raw_date"))) \
  .withColumn("leap", is_leap_udf(col("year"))) \
  .withColumn("century", century_udf(col("year"))) \
  .show()
