"""Identity UDFs: each hands back what Spark gave it."""
from pyspark.sql.functions import udf


@udf("double")
def id_double(x: float) -> float:
    return x


@udf("bigint")
def id_long(x: int) -> int:
    return x


@udf("string")
def id_string(x: str) -> str:
    return x
