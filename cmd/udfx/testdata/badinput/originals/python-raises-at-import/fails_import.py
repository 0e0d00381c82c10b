"""Raises when it is imported, before any UDF runs (bad-input corpus)."""
from pyspark.sql.functions import udf
from pyspark.sql.types import LongType

raise RuntimeError("no configuration found at import")


@udf(returnType=LongType())
def f(n):
    return n
