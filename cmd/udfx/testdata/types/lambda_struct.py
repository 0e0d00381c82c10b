"""A udf(lambda ...) applied to a double column of a StructType schema."""
from pyspark.sql import SparkSession
from pyspark.sql.functions import col, udf
from pyspark.sql.types import DoubleType, StringType, StructField, StructType

schema = StructType([
    StructField("city", StringType(), True),
    StructField("temp_c", DoubleType(), True),
])

to_f = udf(lambda c: c * 9.0 / 5.0 + 32.0, DoubleType())


def main(rows):
    spark = SparkSession.builder.getOrCreate()
    df = spark.createDataFrame(rows, schema)
    return df.select(to_f(col("temp_c")).alias("temp_f"))
