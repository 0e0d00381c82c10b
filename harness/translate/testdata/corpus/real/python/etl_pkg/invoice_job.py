from pyspark.sql import SparkSession
from pyspark.sql.types import StructType, StructField, StringType, DoubleType

from .transforms import apply_invoice_transforms
from .consts import VAT_RATE


def invoice_schema():
    return StructType([
        StructField("invoice_id", StringType(), False),
        StructField("customer_name", StringType(), True),
        StructField("country", StringType(), True),
        StructField("net", DoubleType(), True),
    ])


def round_vat(net):
    if net is None:
        return None
    return round(net * VAT_RATE, 2)


def run(spark):
    from pyspark.sql.functions import udf, col
    schema = invoice_schema()
    df = spark.read.schema(schema).csv("/landing/invoices", header=True)
    vat_udf = udf(round_vat, DoubleType())
    df = apply_invoice_transforms(df).withColumn("vat", vat_udf(col("net")))
    df.write.mode("overwrite").parquet("/curated/invoices")


if __name__ == "__main__":
    run(SparkSession.builder.appName("invoices").getOrCreate())
