"""The Celsius example with its type hints removed: the parameter's type
comes from the schema the job reads its readings with."""
from pyspark.sql import SparkSession
from pyspark.sql.functions import col, udf
from pyspark.sql.types import DoubleType


@udf(returnType=DoubleType())
def to_fahrenheit(celsius):
    if celsius is None:
        return None
    return celsius * 9.0 / 5.0 + 32.0


def main(src, dst):
    spark = SparkSession.builder.appName("celsius").getOrCreate()
    readings = spark.read.schema("station string, celsius double").parquet(src)
    readings.withColumn("fahrenheit", to_fahrenheit(col("celsius"))).write.parquet(dst)


if __name__ == "__main__":
    import sys

    main(sys.argv[1], sys.argv[2])
