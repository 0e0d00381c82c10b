"""A PySpark UDF that fails on one input, for udfx's Spark engine tests."""
from pyspark.sql.functions import udf
from pyspark.sql.types import DoubleType


@udf(returnType=DoubleType())
def boom(celsius: float) -> float:
    if celsius is not None and celsius > 1000.0:
        raise ValueError("reading out of range: %r" % celsius)
    return celsius
