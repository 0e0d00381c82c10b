"""A UDF that never returns for the input 7 (runner timeout test)."""
from pyspark.sql.functions import udf
from pyspark.sql.types import LongType


@udf(returnType=LongType())
def spin(n):
    if n == 7:
        while True:
            pass
    return n


@udf(returnType=LongType())
def hog(n):
    """Allocates n MiB (runner memory-limit test)."""
    block = bytearray(n * 1024 * 1024)
    return len(block)
