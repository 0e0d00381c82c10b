from pyspark.sql import SparkSession
from pyspark.sql.functions import udf, col
from pyspark.sql.types import StringType, IntegerType, DoubleType, StructType, StructField

spark = SparkSession.builder.getOrCreate()

schema = StructType([
    StructField("name", StringType()),
    StructField("height_cm", DoubleType()),
    StructField("shoe_size", IntegerType()),
])
rows = [("ana", 170.0, 38), ("ben", 182.5, 44)]
df = spark.createDataFrame(rows, schema=schema)

trim_udf = udf(lambda s: s.strip() if s is not None else None, StringType())
height_m = udf(lambda cm: cm / 100.0 if cm is not None else None, DoubleType())
eu_to_us = udf(lambda eu: eu - 33 if eu is not None else None, IntegerType())

df = df.withColumn("name", trim_udf(col("name")))
df = df.withColumn("height_m", height_m(col("height_cm")))
df = df.withColumn("us_size", eu_to_us(col("shoe_size")))
df.show()
