"""Runs Hive simple UDFs in real Spark, registered with CREATE TEMPORARY
FUNCTION in a Hive-enabled session (local mode, a Derby metastore in
WORKDIR), one query per input, and writes what each returned or the
error it raised, by the case's index: the authority writables_test.go checks udfx's JVM runner
against.

usage: hive_spark.py JAR CASES_JSON OUT_JSON WORKDIR
CASES_JSON: [{"class": "udfs.HiveGreet", "type": "string", "inputs": ["'ada'", "NULL"]}, ...]"""
import json
import os
import sys

from pyspark.sql import SparkSession

jar, cases_path, out_path, work = sys.argv[1:5]
spark = (
    SparkSession.builder.master("local[1]")
    .appName("udfx-hive-writables")
    .config("spark.jars", jar)
    .config("spark.ui.enabled", "false")
    .config("spark.sql.warehouse.dir", os.path.join(work, "warehouse"))
    .config("spark.hadoop.javax.jdo.option.ConnectionURL",
            "jdbc:derby:;databaseName=%s;create=true" % os.path.join(work, "metastore_db"))
    .enableHiveSupport()
    .getOrCreate()
)
with open(cases_path) as f:
    cases = json.load(f)
out = {"spark": spark.version}
for i, c in enumerate(cases):
    name = "udfx_hive_%d" % i
    spark.sql("CREATE TEMPORARY FUNCTION %s AS '%s'" % (name, c["class"]))
    rows = []
    for lit in c["inputs"]:
        try:
            row = spark.sql("SELECT %s(CAST(%s AS %s))" % (name, lit, c["type"])).collect()[0]
            rows.append({"value": row[0]})
        except Exception as e:  # the query's failure is the row's result
            # The trace's causes name the exception the UDF raised.
            text = str(e)
            causes = [l for l in text.splitlines() if l.startswith("Caused by:")]
            rows.append({"error": "\n".join([text[:4000]] + causes)})
    out[str(i)] = rows  # one class may be a case per argument type
with open(out_path, "w") as f:
    json.dump(out, f)
