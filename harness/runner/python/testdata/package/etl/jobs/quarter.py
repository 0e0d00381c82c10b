from pyspark.sql import SparkSession
from pyspark.sql.functions import col, input_file_name, udf

from ..consts import *
from .paths import month_of


@udf("string")
def get_quarter(path):
    if path is None:
        return None
    m = month_of(path)
    return QUARTERS.get(m, UNKNOWN)


spark = SparkSession.builder.appName("quarters").getOrCreate()
sales = spark.read.option("header", True).csv("s3://bucket/sales/")
sales.withColumn("quarter", get_quarter(input_file_name())).show()
