from pyspark.sql import SparkSession
from pyspark.sql.functions import col, udf
from pyspark.sql.types import DoubleType

from ..paths import CURATED, RAW


@udf(returnType=DoubleType())
def gross_price(net):
    if net is None:
        return None
    return net * 1.2


spark = SparkSession.builder.appName("prices").getOrCreate()
prices = spark.read.schema("sku string, net double").csv(RAW)
prices.withColumn("gross", gross_price(col("net"))).write.parquet(CURATED)
