"""Reusable column transforms; imported by the ingestion jobs."""
import re

from pyspark.sql.functions import udf
from pyspark.sql.types import StringType, IntegerType, BooleanType

PHONE_DIGITS = re.compile(r"[^0-9]")


@udf(StringType())
def strip_non_digits(phone):
    if phone is None:
        return None
    return re.sub(r"[^0-9]", "", phone)


@udf(IntegerType())
def word_count(text):
    if not text:
        return 0
    return len(text.split())


@udf(BooleanType())
def looks_like_zip(s):
    return s is not None and len(s) == 5 and s.isdigit()


def add_clean_columns(df, phone_col, text_col):
    return (df.withColumn("phone_digits", strip_non_digits(df[phone_col]))
              .withColumn("words", word_count(df[text_col])))
