from pyspark.sql import SparkSession
from pyspark.sql.functions import udf, col
from pyspark.sql.types import StringType, IntegerType, DoubleType

spark = SparkSession.builder.appName("product-catalog").getOrCreate()

# header only, every column comes in as a string
products = spark.read.option("header", True).csv("data/products.csv")


def parse_qty(s):
    try:
        return int(s)
    except ValueError:
        return None


def clean_sku(sku):
    if sku is None:
        return None
    return sku.strip().upper()


def price_or_zero(p):
    try:
        return float(p)
    except (TypeError, ValueError):
        return 0.0


def category_slug(c):
    if c is None:
        return ""
    return c.strip().lower().replace(" ", "-")


parse_qty_udf = udf(parse_qty, IntegerType())
clean_sku_udf = udf(clean_sku, StringType())
price_udf = udf(price_or_zero, DoubleType())
slug_udf = udf(category_slug)

products = (products
            .withColumn("qty", parse_qty_udf(col("qty")))
            .withColumn("sku", clean_sku_udf(col("sku")))
            .withColumn("price", price_udf(col("price")))
            .withColumn("category_slug", slug_udf(col("category"))))
products.printSchema()
products.show(5)
