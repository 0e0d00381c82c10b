"""A module that allocates 1.5 GiB when it is imported (runner memory-limit
test): --memory must bound the import too."""
from pyspark.sql.functions import udf
from pyspark.sql.types import LongType

BLOCK = bytearray(1536 * 1024 * 1024)


@udf(returnType=LongType())
def size(n):
    return len(BLOCK) + n
