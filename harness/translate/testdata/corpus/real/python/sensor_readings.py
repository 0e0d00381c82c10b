# Convert raw sensor readings and flag outliers
import sys

from pyspark.sql import SparkSession
from pyspark.sql.functions import col, udf
from pyspark.sql.types import DoubleType, BooleanType

spark = SparkSession.builder.master("local[*]").appName("sensors").getOrCreate()

MAX_SANE_TEMP = 60.0


@udf(returnType=DoubleType())
def fahrenheit_to_celsius(f):
    if f is None:
        return None
    return (f - 32.0) * 5.0 / 9.0


@udf(returnType=BooleanType())
def is_outlier(temp_c):
    if temp_c is None:
        return False
    return temp_c > MAX_SANE_TEMP or temp_c < -40.0


df = spark.read.csv(sys.argv[1], header=True, schema="sensor_id string, ts timestamp, temp_f double")
df = df.withColumn("temp_c", fahrenheit_to_celsius(col("temp_f")))
df = df.withColumn("outlier", is_outlier(col("temp_c")))
df.show()
df.write.partitionBy("sensor_id").parquet(sys.argv[2])
