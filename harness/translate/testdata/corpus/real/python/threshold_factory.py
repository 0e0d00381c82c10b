"""Flag large transactions and label their regions."""
from pyspark.sql import SparkSession
from pyspark.sql import functions as F
from pyspark.sql.types import BooleanType, StringType

spark = SparkSession.builder.appName("tx-thresholds").getOrCreate()


def threshold_flag(limit, inclusive=False):
    @F.udf(returnType=BooleanType())
    def flag(amount):
        if amount is None:
            return False
        return amount >= limit if inclusive else amount > limit

    return flag


def region_labeler(default="UNKNOWN"):
    def label(code):
        return code.strip().upper() if code else default

    return F.udf(label, StringType())


tx = spark.read.schema("tx_id bigint, amount double, region string").parquet("s3://bucket/tx")
flagged = tx.withColumn("large", threshold_flag(5000.0, inclusive=True)(F.col("amount")))
labeled = flagged.withColumn("region_label", region_labeler()(F.col("region")))
labeled.write.mode("overwrite").parquet("s3://bucket/tx_flagged")
