# Old job from the Spark 1.6 days, still in production.
from pyspark import SparkContext
from pyspark.sql import SQLContext
from pyspark.sql.functions import UserDefinedFunction
from pyspark.sql.types import StringType, IntegerType

sc = SparkContext(appName="legacy-accounts")
sqlContext = SQLContext(sc)

accounts = sqlContext.read.format("com.databricks.spark.csv") \
    .options(header="true", inferSchema="false") \
    .load("hdfs:///landing/accounts.csv")


def account_type(code):
    if code == "C":
        return "checking"
    elif code == "S":
        return "savings"
    else:
        return "unknown"


def name_length(name):
    if name is None:
        return 0
    return len(name)


account_type_udf = UserDefinedFunction(account_type, StringType())
name_length_udf = UserDefinedFunction(lambda s: name_length(s), IntegerType())

accounts = accounts.withColumn("type", account_type_udf(accounts["type_code"]))
accounts = accounts.withColumn("name_len", name_length_udf(accounts["holder_name"]))
accounts.write.parquet("hdfs:///curated/accounts")
