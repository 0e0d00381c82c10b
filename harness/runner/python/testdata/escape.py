"""UDFs that start processes which try to outlive the run (runner test):
each leaves `sleep n` running in a session of its own."""
import subprocess

from pyspark.sql.functions import udf
from pyspark.sql.types import LongType


@udf(returnType=LongType())
def inherit(n):
    """The sleep inherits the worker's stdout and stderr."""
    subprocess.Popen(["setsid", "sleep", str(n)])
    return n


@udf(returnType=LongType())
def bare(n):
    """The sleep has no stdio of the worker and an empty environment."""
    subprocess.Popen(["setsid", "sleep", str(n)], env={}, stdin=subprocess.DEVNULL,
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return n


@udf(returnType=LongType())
def spin(n):
    """Leaves the sleep running, then never returns: the run times out."""
    subprocess.Popen(["setsid", "sleep", str(n)])
    while True:
        pass
