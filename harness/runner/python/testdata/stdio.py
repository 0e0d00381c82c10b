"""UDFs that use the worker's stdin and stdout, which carry udfx's protocol
(runner test): in Spark a print goes to the executor's log."""
import os
import sys

from pyspark.sql.functions import udf
from pyspark.sql.types import LongType


@udf(returnType=LongType())
def prints(n):
    print("debug", n)
    sys.stdout.buffer.write(b"\x00garbage\xff{not a token\n")
    os.write(1, b"from fd 1\n")
    return n


@udf(returnType=LongType())
def reads(n):
    return len(sys.stdin.read()) + n
