import re
import sys

from pyspark.sql import SparkSession
from pyspark.sql.functions import udf, col
from pyspark.sql.types import StringType, IntegerType

spark = SparkSession.builder.appName("review-text").getOrCreate()

reviews = spark.read.parquet(sys.argv[1]).select(
    col("review_id"),
    col("body").cast("string"),
    col("title").cast("string"),
)

MULTI_SPACE = re.compile(r"\s+")


def collapse_spaces(text):
    if text is None:
        return None
    return re.sub(r"\s+", " ", text).strip()


def strip_html(text):
    if text is None:
        return None
    return re.sub(r"<[^>]+>", "", text)


def title_length(title):
    if title is None:
        return 0
    return len(title.strip())


collapse_udf = udf(collapse_spaces, StringType())
strip_html_udf = udf(strip_html, StringType())
title_len_udf = udf(title_length, IntegerType())

reviews = reviews.withColumn("body", strip_html_udf(col("body")))
reviews = reviews.withColumn("body_clean", collapse_udf(col("body")))
reviews = reviews.withColumn("title_len", title_len_udf(col("title")))
reviews.write.parquet(sys.argv[2])
