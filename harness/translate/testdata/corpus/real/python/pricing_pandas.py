# Databricks-style pricing cell: vectorized discounts with numpy.
import numpy as np
import pandas as pd
from pyspark.sql import functions as F
from pyspark.sql.functions import pandas_udf

BULK_THRESHOLD = 100
BULK_RATE = 0.9

orders = spark.createDataFrame(
    [("A-1", 12.5, 3.0), ("A-2", 250.0, None), ("A-3", None, 1.0)],
    "order_id string, amount double, weight_kg double",
)


@pandas_udf("double")
def bulk_price(amount: pd.Series) -> pd.Series:
    return pd.Series(np.where(amount >= BULK_THRESHOLD, amount * BULK_RATE, amount))


@pandas_udf("double")
def shipping_fee(weight_kg: pd.Series) -> pd.Series:
    fee = np.where(weight_kg > 20, 25.0, np.where(weight_kg > 5, 12.0, 4.5))
    return pd.Series(fee)


@pandas_udf("double")
def net_amount(amount: pd.Series, weight_kg: pd.Series) -> pd.Series:
    return amount.fillna(0) - np.abs(weight_kg.fillna(0)) * 0.5


orders = (
    orders.withColumn("bulk", bulk_price(F.col("amount")))
    .withColumn("shipping", shipping_fee(F.col("weight_kg")))
    .withColumn("net", net_amount("amount", "weight_kg"))
)
orders.show()
