"""A UDF over a column of a Parquet file whose schema the file does not
show: udfx proves it per type."""
from pyspark.sql import SparkSession
from pyspark.sql.functions import col, udf
from pyspark.sql.types import StringType


def band(score):
    if score is None:
        return "none"
    return "high" if score > 50 else "low"


band_udf = udf(band, StringType())


def main(src):
    spark = SparkSession.builder.getOrCreate()
    spark.read.parquet(src).select(band_udf(col("score"))).show()
