"""Claims feed from the SAS warehouse: dates arrive as SAS day numbers."""
from datetime import date, timedelta

from pyspark.sql import SparkSession
from pyspark.sql.functions import col, udf
from pyspark.sql.types import DateType, IntegerType, StringType

SAS_EPOCH = date(1960, 1, 1)

spark = SparkSession.builder.appName("claims-dates").getOrCreate()
claims = spark.read.csv("/mnt/raw/claims.csv", header=True,
                        schema="claim_id string, svc_day long, paid_on date, state string")


@udf(returnType=DateType())
def sas_to_date(days):
    if days is None:
        return None
    return SAS_EPOCH + timedelta(days=days)


@udf(returnType=DateType())
def due_date(paid_on):
    if paid_on is None:
        return None
    return paid_on + timedelta(days=30)


@udf(returnType=IntegerType())
def days_to_pay(paid_on):
    if paid_on is None:
        return None
    return (paid_on - date(2000, 1, 1)).days


@udf(returnType=StringType())
def paid_month(paid_on):
    if paid_on is None:
        return None
    return paid_on.strftime("%Y-%m")


out = (claims
       .withColumn("service_date", sas_to_date(col("svc_day")))
       .withColumn("due", due_date(col("paid_on")))
       .withColumn("days_to_pay", days_to_pay(col("paid_on")))
       .withColumn("paid_month", paid_month(col("paid_on"))))
out.write.mode("overwrite").parquet("/mnt/curated/claims")
