from pyspark.sql import DataFrame
from pyspark.sql import functions as F
from pyspark.sql.types import StringType, DoubleType

from .consts import *


def _country_or_default(code):
    if code is None or code.strip() == "":
        return DEFAULT_COUNTRY
    return code.strip()


def _gross(net):
    if net is None:
        return None
    return net * (1 + VAT_RATE)


def _truncate_name(name):
    if name is None:
        return None
    return name[:MAX_NAME_LEN]


country_or_default = F.udf(_country_or_default, StringType())
gross_price = F.udf(_gross, DoubleType())
truncate_name = F.udf(_truncate_name, StringType())


def apply_invoice_transforms(invoices: DataFrame) -> DataFrame:
    return (invoices
            .withColumn("country", country_or_default(F.col("country")))
            .withColumn("gross", gross_price(F.col("net")))
            .withColumn("customer_name", truncate_name(F.col("customer_name"))))
