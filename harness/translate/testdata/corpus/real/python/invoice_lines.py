"""Invoice line formatting for the billing export (legacy job, kept in sync with the PDF renderer)."""
from pyspark.sql import SparkSession
from pyspark.sql.functions import udf, col
from pyspark.sql.types import StringType

spark = SparkSession.builder.appName("invoice-export").getOrCreate()

lines = spark.createDataFrame(
    [("EUR", 19.99, 0.2, 3), ("USD", 5.0, 0.0, 12), ("GBP", None, 0.125, None)],
    "currency string, amount double, vat_rate double, qty int",
)


@udf(returnType=StringType())
def amount_text(currency, amount):
    if amount is None:
        return ""
    return "{} {:.2f}".format(currency, amount)


@udf(returnType=StringType())
def vat_label(vat_rate):
    if vat_rate is None:
        return "VAT n/a"
    return "VAT %.1f%%" % (vat_rate * 100)


@udf(returnType=StringType())
def qty_amount(qty, amount):
    if qty is None or amount is None:
        return None
    return "%d x %s" % (qty, format(amount, ".2f"))


lines.select(
    amount_text(col("currency"), col("amount")).alias("amount"),
    vat_label("vat_rate").alias("vat"),
    qty_amount("qty", "amount").alias("line"),
).write.mode("overwrite").csv("/tmp/invoice_lines")
