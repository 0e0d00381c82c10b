from pyspark.sql import SparkSession
from pyspark.sql.functions import udf, col
from pyspark.sql.types import StringType, BooleanType

spark = SparkSession.builder.appName("factory").getOrCreate()


def make_prefixer(prefix):
    def add_prefix(s):
        if s is None:
            return None
        return prefix + s
    return udf(add_prefix, StringType())


def make_threshold_flag(limit):
    def over(x):
        return x is not None and x > limit
    return udf(over, BooleanType())


def _mask_account(acct):
    if acct is None or len(acct) < 4:
        return acct
    return "****" + acct[-4:]


mask_account = udf(_mask_account, StringType())

df = spark.createDataFrame([("1234567890", 250.0), ("99", 10.0)], ["account", "balance"])
df = df.withColumn("tagged", make_prefixer("ACC-")(col("account")))
df = df.withColumn("big", make_threshold_flag(100.0)(col("balance")))
df = df.withColumn("masked", mask_account(col("account")))
df.show()
