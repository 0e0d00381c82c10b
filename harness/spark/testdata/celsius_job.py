"""Celsius to Fahrenheit, as a script runs it: the session, the read and
the write at the top level."""
from pyspark.sql import SparkSession
from pyspark.sql.functions import col, udf
from pyspark.sql.types import DoubleType

spark = SparkSession.builder.appName("celsius").getOrCreate()
readings = spark.read.schema("sensor string, celsius double").parquet("/no/such/readings")
OFFSET = spark.conf.get("celsius.offset", "32.0")


@udf(returnType=DoubleType())
def to_fahrenheit(celsius: float) -> float:
    if celsius is None:
        return None
    return celsius * 9.0 / 5.0 + 32.0


@udf(returnType=DoubleType())
def to_fahrenheit_conf(celsius: float) -> float:
    return celsius * 9.0 / 5.0 + float(OFFSET)


readings.withColumn("fahrenheit", to_fahrenheit(col("celsius"))).write.parquet("/no/such/out")
