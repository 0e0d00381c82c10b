"""Prints Spark's lower() and upper() of every Unicode code point (one
character strings; surrogates have no UTF-8 form) where they are not the
character itself, as JSON: {"spark": version, "lower": {cp: s}, "upper":
{cp: s}}. Run by TestSparkCaseMappingsAreTheEnginesTable; never edit its
output by hand."""
import json
import sys

from pyspark.sql import SparkSession

spark = (
    SparkSession.builder.master("local[2]")
    .config("spark.ui.enabled", "false")
    .config("spark.sql.session.timeZone", "UTC")
    .getOrCreate()
)
spark.sparkContext.setLogLevel("ERROR")
cps = [c for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF]
df = spark.createDataFrame([(c, chr(c)) for c in cps], "cp int, s string")
out = {"spark": spark.version, "lower": {}, "upper": {}}
for r in df.selectExpr("cp", "s", "lower(s) AS l", "upper(s) AS u").where("l != s OR u != s").collect():
    if r.l != r.s:
        out["lower"][str(r.cp)] = r.l
    if r.u != r.s:
        out["upper"][str(r.cp)] = r.u
spark.stop()
json.dump(out, sys.stdout, sort_keys=True)
