"""UDFs that raise on some rows (runner per-row and per-batch errors)."""
import pandas as pd
from pyspark.sql.functions import pandas_udf, udf
from pyspark.sql.types import DoubleType


@udf(returnType=DoubleType())
def inverse(x):
    if x == 3.0:
        raise ValueError("three is not allowed")
    return 1.0 / x


@pandas_udf("double")
def batch_inverse(xs: pd.Series) -> pd.Series:
    if (xs == 3.0).any():
        raise ValueError("a batch holds three")
    return 1.0 / xs


def register(spark):
    # A UDF that exists only inside a function: not reachable at import.
    spark.udf.register("twice", lambda x: 2 * x, DoubleType())


if __name__ == "__main__":
    raise SystemExit("the runner must not run this block")
