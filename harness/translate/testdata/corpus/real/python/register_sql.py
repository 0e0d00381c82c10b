from pyspark.sql import SparkSession
from pyspark.sql.types import DoubleType, IntegerType, StringType

spark = SparkSession.builder.appName("register-demo").getOrCreate()

KM_PER_MILE = 1.609344


def miles_to_km(miles):
    if miles is None:
        return None
    return miles * KM_PER_MILE


def trip_kind(km):
    if km is None:
        return "unknown"
    return "long" if km > 100 else "short"


def passengers_ok(n):
    if n is None:
        return 0
    return 1 if 0 < n <= 6 else 0


spark.udf.register("miles_to_km", miles_to_km, DoubleType())
spark.udf.register("trip_kind", trip_kind, StringType())
spark.udf.register("passengers_ok", passengers_ok, IntegerType())

trips = spark.read.parquet("/data/taxi/yellow_tripdata_2023-01.parquet")
trips.createOrReplaceTempView("trips")

spark.sql("""
    SELECT vendor_id,
           miles_to_km(trip_distance) AS trip_km,
           trip_kind(miles_to_km(trip_distance)) AS kind,
           passengers_ok(passenger_count) AS ok
    FROM trips
""").show()
