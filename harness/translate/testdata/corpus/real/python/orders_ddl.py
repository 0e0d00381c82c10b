from pyspark.sql import SparkSession
from pyspark.sql import functions as F
from pyspark.sql.types import DoubleType, StringType

spark = SparkSession.builder \
    .appName("orders-daily") \
    .config("spark.sql.shuffle.partitions", "64") \
    .getOrCreate()

ORDERS_DDL = (
    "order_id STRING, "
    "customer_id INT, "
    "amount DOUBLE, "
    "currency STRING, "
    "status STRING"
)

FX_TO_USD = {"USD": 1.0, "EUR": 1.08, "GBP": 1.27}
STATUS_OPEN = "OPEN"


def to_usd(amount, currency):
    if amount is None or currency is None:
        return None
    return round(amount * FX_TO_USD.get(currency, 1.0), 2)


def is_open(status):
    return status is not None and status.upper() == STATUS_OPEN


def order_prefix(order_id):
    if not order_id:
        return None
    return order_id.split("-")[0]


to_usd_udf = F.udf(to_usd, DoubleType())
is_open_udf = F.udf(is_open, "boolean")
order_prefix_udf = F.udf(order_prefix, StringType())

orders = spark.read.schema(ORDERS_DDL).json("/mnt/raw/orders/")
orders = orders.withColumn("amount_usd", to_usd_udf(F.col("amount"), F.col("currency")))
orders = orders.withColumn("open", is_open_udf(F.col("status")))
orders = orders.withColumn("region", order_prefix_udf("order_id"))
orders.filter(F.col("open")).groupBy("region").agg(F.sum("amount_usd")).show()
