"""Checks, against real Apache Spark, the calendar and map facts that
harness/inputs relies on, and prints them as `key value` lines.

Run: .venv/bin/python harness/inputs/testdata/spark_facts.py > harness/inputs/testdata/spark_facts.txt
"""
import pyspark
from pyspark.sql import SparkSession

spark = (SparkSession.builder.master("local[1]")
         .config("spark.sql.session.timeZone", "UTC")
         .config("spark.ui.enabled", "false").getOrCreate())
spark.sparkContext.setLogLevel("ERROR")
print("spark_version", pyspark.__version__)

dates = ["1970-01-01", "0001-01-01", "9999-12-31", "2000-02-29", "2024-02-29",
         "1900-03-01", "2024-03-10", "2024-11-03", "2024-03-31", "2024-10-27",
         "1582-10-15", "1582-10-04"]
for d in dates:
    n = spark.sql(f"SELECT unix_date(DATE'{d}')").first()[0]
    print("date", d, n)

stamps = ["1970-01-01 00:00:00", "1969-12-31 23:59:59.999999", "0001-01-01 00:00:00",
          "9999-12-31 23:59:59.999999", "2024-02-29 12:00:00"]
for t in stamps:
    n = spark.sql(f"SELECT unix_micros(TIMESTAMP'{t}')").first()[0]
    print("timestamp", t.replace(" ", "T"), n)

# DST: the UTC instants at which local wall clocks jump.
for zone, local in [("America/Los_Angeles", "2024-03-10 02:00:00"),
                    ("America/Los_Angeles", "2024-11-03 01:00:00"),
                    ("Europe/Berlin", "2024-03-31 02:00:00"),
                    ("Europe/Berlin", "2024-10-27 02:00:00")]:
    n = spark.sql(f"SELECT unix_micros(to_utc_timestamp(TIMESTAMP'{local}', '{zone}'))").first()[0]
    print("local", zone, local.replace(" ", "T"), n)

# Map keys: null keys and duplicate keys are errors (mapKeyDedupPolicy
# EXCEPTION by default); 0.0 and -0.0 (and NaNs) are the same key.
def outcome(sql):
    try:
        return repr(spark.sql(sql).collect()[0][0])
    except Exception as e:  # noqa: BLE001 - we record the error class
        return "error:" + type(e).__name__
print("map_null_key", outcome("SELECT map(CAST(NULL AS INT), 1)"))
print("map_dup_key", outcome("SELECT map(1, 1, 1, 2)"))
print("map_signed_zero_keys", outcome("SELECT map(0.0D, 1, -0.0D, 2)"))
print("map_nan_keys", outcome("SELECT map(CAST('NaN' AS DOUBLE), 1, -CAST('NaN' AS DOUBLE), 2)"))
spark.stop()
