"""Nightly load of the CRM customer export into the warehouse."""
from pyspark.sql import SparkSession
from pyspark.sql.functions import col, udf
from pyspark.sql.types import (
    DoubleType,
    IntegerType,
    StringType,
    StructField,
    StructType,
)

spark = SparkSession.builder.appName("customer-etl").getOrCreate()

customer_schema = StructType([
    StructField("customer_id", IntegerType(), True),
    StructField("email", StringType(), True),
    StructField("country_code", StringType(), True),
    StructField("lifetime_value", DoubleType(), True),
])

COUNTRY_NAMES = {
    "US": "United States",
    "DE": "Germany",
    "FR": "France",
    "GB": "United Kingdom",
}


def normalize_email(email):
    if email is None:
        return None
    return email.strip().lower()


def country_name(code):
    return COUNTRY_NAMES.get(code, "Other")


def value_tier(v):
    if v is None:
        return "unknown"
    if v >= 10000:
        return "platinum"
    elif v >= 1000:
        return "gold"
    return "standard"


normalize_email_udf = udf(normalize_email, StringType())
country_name_udf = udf(country_name, StringType())
value_tier_udf = udf(value_tier, StringType())

customers = spark.read.schema(customer_schema).option("header", "true").csv("s3://crm-exports/customers/")

cleaned = (
    customers
    .withColumn("email", normalize_email_udf(col("email")))
    .withColumn("country", country_name_udf(col("country_code")))
    .withColumn("tier", value_tier_udf(col("lifetime_value")))
)

cleaned.show(20, truncate=False)
cleaned.write.mode("overwrite").parquet("s3://warehouse/dim_customer/")
