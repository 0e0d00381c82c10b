from pyspark.sql import SparkSession
from pyspark.sql.functions import udf
from pyspark.sql.types import StringType

spark = SparkSession.builder.getOrCreate()

inventory = spark.createDataFrame(
    [("widget", 3, 2.5), ("gadget", 0, 10.0), ("doohickey", 12, 0.75)],
    "item string, qty int, unit_price double",
)


@udf(StringType())
def qty_label(item, qty):
    if item is None:
        return None
    return f"{item} x{qty}"


@udf(StringType())
def price_tag(unit_price):
    if unit_price is None:
        return "n/a"
    return f"${unit_price:.2f}"


@udf(StringType())
def stock_status(qty):
    if qty is None:
        return "unknown"
    if qty == 0:
        return "out of stock"
    return "low" if qty < 5 else "in stock"


inventory.select("item", qty_label("item", "qty"), price_tag("unit_price"), stock_status("qty")).show()
