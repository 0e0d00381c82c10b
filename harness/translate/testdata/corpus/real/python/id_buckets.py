from pyspark.sql import SparkSession
from pyspark.sql.functions import udf
from pyspark.sql.types import LongType, StringType

spark = SparkSession.builder.appName("range-demo").getOrCreate()

NUM_SHARDS = 16


@udf(LongType())
def shard_of(i):
    return i % NUM_SHARDS


@udf(StringType())
def even_odd(i):
    return "even" if i % 2 == 0 else "odd"


@udf("string")
def zero_padded(i):
    return f"{i:08d}"


df = spark.range(1000)
df = df.withColumn("shard", shard_of("id")).withColumn("parity", even_odd(df.id))
df = df.withColumn("key", zero_padded(df["id"]))
df.groupBy("shard").count().show()
