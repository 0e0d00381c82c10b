# Databricks notebook source
# MAGIC %md # Event enrichment

# COMMAND ----------

import datetime
from pyspark.sql import functions as F
from pyspark.sql.types import StructType, StructField, StringType, LongType, IntegerType

# COMMAND ----------

def event_schema():
    return StructType([
        StructField("event_id", StringType()),
        StructField("event_type", StringType()),
        StructField("epoch_ms", LongType()),
        StructField("retries", IntegerType()),
    ])

events = spark.read.schema(event_schema()).json("dbfs:/mnt/events/raw/")

# COMMAND ----------

@F.udf(returnType=StringType())
def event_day(epoch_ms):
    if epoch_ms is None:
        return None
    return datetime.datetime.utcfromtimestamp(epoch_ms / 1000).strftime("%Y-%m-%d")

@F.udf(returnType=StringType())
def event_family(event_type):
    if event_type is None:
        return "none"
    return event_type.split(".")[0]

@F.udf(returnType=IntegerType())
def capped_retries(retries):
    if retries is None:
        return 0
    return min(retries, 5)

# COMMAND ----------

enriched = events.withColumn("day", event_day("epoch_ms")) \
    .withColumn("family", event_family("event_type")) \
    .withColumn("retries_capped", capped_retries("retries"))
display(enriched)
