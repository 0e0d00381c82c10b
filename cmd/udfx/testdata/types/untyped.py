"""A UDF the file gives no type for: the column comes from a Parquet file
whose schema the file does not show."""
from pyspark.sql import SparkSession
from pyspark.sql.functions import col, udf
from pyspark.sql.types import DoubleType


@udf(returnType=DoubleType())
def to_fahrenheit(celsius):
    return celsius * 9.0 / 5.0 + 32.0


def main(src):
    spark = SparkSession.builder.getOrCreate()
    spark.read.parquet(src).select(to_fahrenheit(col("celsius"))).show()
