"""A UDF whose parameter type is the schema of the DataFrame the job applies
it to: after --apply, only the record says it, and verify checks it again."""
from pyspark.sql import SparkSession
from pyspark.sql.functions import col, udf
from pyspark.sql.types import StringType


def band(price):
    if price is None:
        return "none"
    return "high" if price > 100 else "low"


band_udf = udf(band, StringType())


def main():
    spark = SparkSession.builder.getOrCreate()
    df = spark.read.schema("id bigint, price double").parquet("/data/prices")
    df.select(band_udf(col("price"))).show()
