"""Nightly pricing job: list prices to shelf prices for the stores."""
import sys

from pyspark.sql import SparkSession
from pyspark.sql.functions import col, udf
from pyspark.sql.types import DoubleType, LongType, StringType

VAT_RATE = 0.2


@udf(returnType=DoubleType())
def shelf_price(net: float) -> float:
    """The price on the shelf: net plus VAT."""
    if net is None:
        return None
    return net * (1.0 + VAT_RATE)


@udf(returnType=LongType())
def pack_count(units: int, pack_size: int) -> int:
    """How many full packs the units fill; none when the size is unknown."""
    if units is None or pack_size is None or pack_size <= 0:
        return None
    return units // pack_size


@udf(returnType=StringType())
def shelf_label(name: str) -> str:
    """The name as printed on the shelf label."""
    if name is None:
        return None
    return name.strip().title()


def main(src, dst):
    spark = SparkSession.builder.appName("pricing").getOrCreate()
    items = spark.read.parquet(src)
    (
        items.withColumn("shelf_price", shelf_price(col("net_price")))
        .withColumn("packs", pack_count(col("units"), col("pack_size")))
        .withColumn("label", shelf_label(col("name")))
        .write.parquet(dst)
    )


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
