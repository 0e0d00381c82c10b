#!/usr/bin/env python
"""Parse web server logs.

Usage: spark-submit web_logs_main.py <input> <output>
"""
import argparse

from pyspark.sql import SparkSession
from pyspark.sql.functions import col, udf
from pyspark.sql.types import IntegerType, StringType, StructField, StructType, LongType

LOG_SCHEMA = StructType([
    StructField("host", StringType()),
    StructField("path", StringType()),
    StructField("status", IntegerType()),
    StructField("bytes", LongType()),
    StructField("user_agent", StringType()),
])


def path_section(path):
    if path is None or not path.startswith("/"):
        return None
    parts = path.split("/")
    return parts[1] if len(parts) > 1 else ""


def is_error(status):
    if status is None:
        return False
    return status >= 400


def kilobytes(b):
    if b is None:
        return None
    return b / 1024.0


def is_bot(ua):
    if ua is None:
        return False
    return "bot" in ua or "spider" in ua


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("input")
    p.add_argument("output")
    return p.parse_args()


def main():
    args = parse_args()
    spark = SparkSession.builder.appName("web-logs").getOrCreate()
    logs = spark.read.schema(LOG_SCHEMA).json(args.input)

    section_udf = udf(path_section, StringType())
    error_udf = udf(is_error, "boolean")
    kb_udf = udf(kilobytes, "double")
    bot_udf = udf(is_bot, "boolean")

    logs = (logs.withColumn("section", section_udf(col("path")))
                .withColumn("is_error", error_udf(col("status")))
                .withColumn("kb", kb_udf(col("bytes")))
                .withColumn("bot", bot_udf(col("user_agent"))))
    logs.write.mode("overwrite").parquet(args.output)
    spark.stop()


if __name__ == "__main__":
    main()
