from pyspark.sql import SparkSession
from pyspark.sql import functions as F
from pyspark.sql.types import StringType, IntegerType

spark = SparkSession.builder.appName("shipments").getOrCreate()

shipments = spark.createDataFrame(
    [("S1", "DHL", 3), ("S2", "UPS", 11), ("S3", None, 0)],
    ["shipment_id", "carrier", "days_in_transit"],
)
carriers = spark.createDataFrame([("DHL", "EU"), ("UPS", "US")], ["carrier", "carrier_region"])

shipments = shipments.withColumnRenamed("days_in_transit", "transit_days")
joined = shipments.join(carriers, on="carrier", how="left")


def carrier_code(carrier):
    if carrier is None:
        return "NONE"
    return carrier[:3]


def sla_breached(days):
    if days is None:
        return None
    return days > 7


def region_or_global(region):
    return region or "GLOBAL"


carrier_code_udf = F.udf(carrier_code, StringType())
sla_udf = F.udf(sla_breached, "boolean")
region_udf = F.udf(region_or_global, StringType())

joined = joined.select(
    "shipment_id",
    carrier_code_udf("carrier").alias("carrier_code"),
    sla_udf(F.col("transit_days")).alias("sla_breached"),
    region_udf(F.col("carrier_region")).alias("region"),
)
joined.show()
