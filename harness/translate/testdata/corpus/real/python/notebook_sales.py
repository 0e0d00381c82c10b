# Databricks notebook source
# MAGIC %md
# MAGIC ## Sales cleanup
# MAGIC Normalizes the store codes and computes the margin band.

# COMMAND ----------

from pyspark.sql.functions import udf, col
from pyspark.sql.types import StringType, DoubleType

# COMMAND ----------

sales = spark.table("bronze.sales")
display(sales)

# COMMAND ----------

def margin(revenue, cost):
    if revenue is None or cost is None or revenue == 0:
        return None
    return (revenue - cost) / revenue

margin_udf = udf(margin, DoubleType())

# COMMAND ----------

sales_schema = "store_code string, revenue double, cost double, units int"
sales_raw = spark.read.schema(sales_schema).parquet("/mnt/landing/sales")

def store_region(code):
    if code is None:
        return "UNKNOWN"
    return code[:2]

store_region_udf = udf(store_region, StringType())

# COMMAND ----------

out = (sales_raw
       .withColumn("margin", margin_udf(col("revenue"), col("cost")))
       .withColumn("region", store_region_udf(col("store_code"))))
display(out)
out.write.format("delta").mode("overwrite").saveAsTable("silver.sales")
